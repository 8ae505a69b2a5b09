/* python/bench.c: the C side of python/bench.py: the library's own rate for
 * the queries the Python benchmark times, in the same process shape (one
 * opened table, one reader reused).
 *
 *   bench TABLES PUZZLE METRIC MODE REPEAT < queries
 *
 * Queries: one per line, '/' standing for a newline.  Answers every query
 * once untimed (the table's pages mapped in, as in a warm Python process),
 * then REPEAT times, and prints "N SECONDS" (queries answered, wall
 * time).  MODE:
 *   distance  ptb_parse + ptb_distance (what tb.distance() does)
 *   walk      ptb_parse + ptb_solve
 *   solve     the walk, and each move's text, board and state code
 *             formatted (the work of tb.solve() less the Python objects) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzletb.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    ptb_space *s;
    ptb_table *t;
    ptb_reader *r;
    ptb_solution *sol = malloc(sizeof *sol);
    char line[512], **q = NULL, err[256], text[4096];
    size_t n = 0;
    if (argc != 6 || !sol)
        return 2;
    const char *mode = argv[4];
    if (ptb_space_open(argv[2], argv[3], &s) || ptb_table_open(s, argv[1], &t)
        || ptb_reader_new(t, &r))
        return 3;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        for (char *c = line; *c; c++)
            if (*c == '/')
                *c = '\n';
        q = realloc(q, (n + 1) * sizeof *q);
        q[n++] = strdup(line);
    }
    long repeat = atol(argv[5]), done = 0;
    int distance = !strcmp(mode, "distance"), format = !strcmp(mode, "solve");
    double t0 = now();
    for (long k = -1; k < repeat; k++) {
        if (k == 0) {
            t0 = now();
            done = 0;
        }
        for (size_t i = 0; i < n; i++) {
            ptb_position start[2];
            unsigned m, d;
            done++;
            if (ptb_parse(s, q[i], NULL, start, &m, err, sizeof err) != 0)
                continue;
            if (distance) {
                for (unsigned c = 0; c < m; c++)
                    ptb_distance(t, r, &start[c], &d);
                continue;
            }
            if (ptb_solve(t, r, start, m, sol) != 0 || !format)
                continue;
            for (unsigned j = 0; j < sol->distance; j++) {
                const ptb_position *p = &sol->after[j];
                ptb_format_move(s, j ? &sol->after[j - 1] : &sol->start,
                                &sol->move[j], text, sizeof text);
                ptb_format_board(s, p, text, sizeof text);
                ptb_format_code(s, p->sub, p->idx, text, sizeof text);
            }
        }
    }
    printf("%ld %.6f\n", done, now() - t0);
    return 0;
}
