/* tests/outside/client.c: a program outside the tree, as another tool would
 * be written: it includes only the installed <puzzletb.h> and is built with
 * `pkg-config --cflags --libs puzzletb` (tests/t_install.sh does that).
 *
 * usage: client TABLES_DIR
 * For every puzzle of the registry (default metric) it opens the table in
 * TABLES_DIR and answers one query, printing one line:
 *   "<puzzle> <distance>"     a sample with a known answer (swap: the P1225
 *                             sample, 4; frog: three frogs a side, 15)
 *   "<puzzle> farthest <d>"   other puzzles: the stored value of the first
 *                             farthest state matches the recorded maximum
 *   "<puzzle> skipped: ..."   the table is absent from this installation
 * Exit status: 0 when every table present answered as expected, 1 otherwise,
 * 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <puzzletb.h>

/* Queries whose answers are known from the puzzles' sources. */
typedef struct sample {
    const char *puzzle;
    const char *text;          /* NULL: the option stands for the position */
    const char *option;        /* "NAME=VALUE", or NULL */
    unsigned distance;
} sample;

static const sample samples[] = {
    { "swap", "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n", NULL, 4 },
    { "frog", NULL, "n=3", 15 },
};

static const sample *find_sample(const char *puzzle)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        if (!strcmp(samples[i].puzzle, puzzle))
            return &samples[i];
    return NULL;
}

/* Solves a known sample; returns 0 when the distance is the expected one. */
static int answer_sample(const char *name, const ptb_space *s,
                         const ptb_table *t, const sample *q)
{
    const char *opt[2] = { q->option, NULL };
    ptb_position start[2];
    unsigned n;
    char err[256];
    ptb_solution *sol = malloc(sizeof *sol);
    if (!sol)
        return 1;
    int rc = ptb_parse(s, q->text, opt, start, &n, err, sizeof err);
    if (rc != PTB_OK)
        fprintf(stderr, "client: %s: %s: %s\n", name, ptb_strerror(rc), err);
    else if ((rc = ptb_solve(t, NULL, start, n, sol)) != PTB_OK)
        fprintf(stderr, "client: %s: %s\n", name, ptb_strerror(rc));
    else
        printf("%s %u\n", name, sol->distance);
    int bad = rc != PTB_OK || sol->distance != q->distance;
    if (rc == PTB_OK && bad)
        fprintf(stderr, "client: %s: expected %u moves\n", name, q->distance);
    free(sol);
    return bad;
}

/* Reads the value of the first farthest state the table records; returns
 * 0 when it is the recorded maximum (modulo 3 for mod-3 tables). */
static int answer_farthest(const char *name, const ptb_table *t)
{
    ptb_table_info in;
    unsigned v;
    int rc = ptb_table_get_info(t, &in);
    if (rc == PTB_OK && in.n_farthest == 0) {
        printf("%s no farthest state recorded\n", name);
        return 0;
    }
    if (rc == PTB_OK)
        rc = ptb_table_value(t, NULL, in.far_sub[0], in.far_idx[0], &v);
    if (rc != PTB_OK) {
        fprintf(stderr, "client: %s: %s\n", name, ptb_strerror(rc));
        return 1;
    }
    unsigned want = in.exact ? in.max_distance : in.max_distance % 3;
    printf("%s farthest %u\n", name, in.max_distance);
    if (v != want)
        fprintf(stderr, "client: %s: stored value %u, expected %u\n", name, v,
                want);
    return v != want;
}

int main(int argc, char **argv)
{
    int status = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: client TABLES_DIR\n");
        return 2;
    }
    if (strcmp(ptb_version(), PTB_VERSION_STRING) != 0) {
        fprintf(stderr, "client: header %s, library %s\n", PTB_VERSION_STRING,
                ptb_version());
        return 1;
    }
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const char *name = ptb_puzzle_name(ptb_puzzle_at(i));
        ptb_space *s = NULL;
        ptb_table *t = NULL;
        int rc = ptb_space_open(name, NULL, &s);
        if (rc == PTB_OK)
            rc = ptb_table_open(s, argv[1], &t);
        if (rc == PTB_ENOTABLE) {
            printf("%s skipped: no table in %s\n", name, argv[1]);
        } else if (rc != PTB_OK) {
            fprintf(stderr, "client: %s: %s\n", name, ptb_strerror(rc));
            status = 1;
        } else {
            const sample *q = find_sample(name);
            status |= q ? answer_sample(name, s, t, q)
                        : answer_farthest(name, t);
        }
        ptb_table_close(t);
        ptb_space_close(s);
    }
    return status;
}
