/* python/bench.c: the C side of python/bench.py: the library's own rate for
 * the queries the Python benchmark times, in the same process shape (one
 * opened table, one reader reused).
 *
 *   bench TABLES PUZZLE METRIC REPEAT < queries   (one query per line;
 *                                                  '/' stands for newline)
 *
 * Parses and solves every query REPEAT times; prints "N SECONDS" (queries
 * answered, wall time). */
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
    char line[512], **q = NULL, err[256];
    size_t n = 0;
    if (argc != 5 || !sol)
        return 2;
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
    long repeat = atol(argv[4]), done = 0;
    double t0 = now();
    for (long k = 0; k < repeat; k++)
        for (size_t i = 0; i < n; i++) {
            ptb_position start[2];
            unsigned m;
            if (ptb_parse(s, q[i], NULL, start, &m, err, sizeof err) == 0)
                ptb_solve(t, r, start, m, sol);
            done++;
        }
    printf("%ld %.6f\n", done, now() - t0);
    return 0;
}
