/* tests/bench/libbench.c: library figures without process start-up (a
 * benchmark, not a test: scripts/bench runs it, `make bench` builds it).
 *
 *     build/bench/libbench [-t DIR] [-s SECONDS] PUZZLE [METRIC]
 *
 * Opens one table through the public API only (puzzletb.h) and prints, one
 * "name value" pair a line:
 *     value_per_s   ptb_table_value on uniformly random states (any state
 *                   of a one-subtable table; a random subtable and index
 *                   otherwise), one thread, one reader;
 *     solve_per_s   ptb_solve from random solvable states (each parsed
 *                   from its state code, as a user would type it), one
 *                   thread, one reader, every answer with its whole line
 *                   ("-" for a puzzle whose codes do not parse back);
 *     solve_moves   the mean distance of those states.
 * Each loop runs for SECONDS of thread CPU time (default 1) and reports
 * CPU time, so other load on the machine changes the figures little.
 * Exit status 0, 2 on bad usage, 3 when the table cannot be opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puzzletb.h"

#define SAMPLE 4096         /* random solvable states for ptb_solve */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64*: a fixed seed, so every run draws the same states */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* A random state: (sub, idx) with idx below the subtable's size.  Without
 * the sizes in the public API, a multi-subtable draw retries until
 * ptb_table_value accepts the index. */
static int random_state(const ptb_table *t, ptb_reader *r,
                        const ptb_table_info *in, uint64_t *seed,
                        uint32_t *sub, uint64_t *idx, unsigned *value)
{
    for (int tries = 0; tries < 1000; tries++) {
        *sub = in->subtables == 1 ? 0 :
               (uint32_t)(next_random(seed) % in->subtables);
        *idx = next_random(seed) % in->states;
        int rc = ptb_table_value(t, r, *sub, *idx, value);
        if (rc != PTB_EINVAL)
            return rc;
    }
    return PTB_EINVAL;
}

static int bench_value(const ptb_table *t, ptb_reader *r,
                       const ptb_table_info *in, double seconds)
{
    enum { BATCH = 1 << 16 };
    static uint64_t idx[BATCH];
    uint64_t seed = 88172645463325252ULL, done = 0, sum = 0;
    if (in->subtables != 1) {
        printf("value_per_s -\n");     /* needs the subtable sizes */
        return PTB_OK;
    }
    double t0 = cpu_now(), spent = 0;
    while (spent < seconds) {
        for (unsigned i = 0; i < BATCH; i++)   /* drawn outside the clock */
            idx[i] = next_random(&seed) % in->states;
        double a = cpu_now();
        for (unsigned i = 0; i < BATCH; i++) {
            unsigned v;
            int rc = ptb_table_value(t, r, 0, idx[i], &v);
            if (rc != PTB_OK)
                return rc;
            sum += v;
        }
        spent += cpu_now() - a;
        done += BATCH;
        if (cpu_now() - t0 > 60 * seconds)
            break;
    }
    printf("value_per_s %.0f\n", done / spent);
    return sum == (uint64_t)-1 ? PTB_EINVAL : PTB_OK;  /* keeps sum alive */
}

static int bench_solve(const ptb_space *s, const ptb_table *t, ptb_reader *r,
                       const ptb_table_info *in, double seconds)
{
    static ptb_position start[SAMPLE];
    static ptb_solution sol;
    uint64_t seed = 1181783497276652981ULL, moves = 0, done = 0;
    char code[256], err[256];
    for (unsigned i = 0; i < SAMPLE;) {
        uint32_t sub;
        uint64_t idx;
        unsigned v, n;
        ptb_position p[2];
        int rc = random_state(t, r, in, &seed, &sub, &idx, &v);
        if (rc != PTB_OK)
            return rc;
        (void)v;    /* a mod-3 table stores an unsolvable state as 0 */
        if (ptb_format_code(s, sub, idx, code, sizeof code) < 0)
            continue;
        if (ptb_parse(s, code, NULL, p, &n, err, sizeof err) != PTB_OK) {
            printf("solve_per_s -\n");
            return PTB_OK;
        }
        unsigned d;
        if (ptb_distance(t, r, &p[0], &d) == PTB_OK)
            start[i++] = p[0];
    }
    double spent = 0;
    while (spent < seconds) {
        double a = cpu_now();
        for (unsigned i = 0; i < SAMPLE && cpu_now() - a < seconds; i++) {
            int rc = ptb_solve(t, r, &start[i], 1, &sol);
            if (rc != PTB_OK)
                return rc;
            moves += sol.distance;
            done++;
        }
        spent += cpu_now() - a;
    }
    printf("solve_per_s %.0f\nsolve_moves %.1f\n", done / spent,
           (double)moves / done);
    return PTB_OK;
}

int main(int argc, char **argv)
{
    const char *dir = "tables", *puzzle = NULL, *metric = NULL;
    double seconds = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!puzzle)
            puzzle = argv[i];
        else if (!metric)
            metric = argv[i];
        else
            puzzle = NULL, argc = 0;
    }
    if (!puzzle || !(seconds > 0)) {
        fprintf(stderr, "usage: libbench [-t DIR] [-s SECONDS] PUZZLE "
                "[METRIC]\n");
        return 2;
    }
    ptb_space *s = NULL;
    ptb_table *t = NULL;
    ptb_reader *r = NULL;
    ptb_table_info in;
    int rc = ptb_space_open(puzzle, metric, &s);
    if (rc != PTB_OK) {
        fprintf(stderr, "libbench: %s: %s\n", puzzle, ptb_strerror(rc));
        return 2;
    }
    rc = ptb_table_open(s, dir, &t);
    if (rc == PTB_OK)
        rc = ptb_table_get_info(t, &in);
    if (rc == PTB_OK)
        rc = ptb_reader_new(t, &r);
    if (rc == PTB_OK)
        rc = bench_value(t, r, &in, seconds);
    if (rc == PTB_OK)
        rc = bench_solve(s, t, r, &in, seconds);
    if (rc != PTB_OK)
        fprintf(stderr, "libbench: %s table in %s: %s\n", puzzle, dir,
                ptb_strerror(rc));
    ptb_reader_free(r);
    ptb_table_close(t);
    ptb_space_close(s);
    return rc == PTB_OK ? 0 : 3;
}
