/* tests/t_threads.c: one table handle shared by many threads.  Four threads
 * answer the same 2,000 swap queries at once, two with readers of their own
 * and two with none; every answer (distance and every move) must equal the
 * one thread's answer.  Then four threads read the same 20,000 random
 * Klotski values at once, each through a reader of its own that decodes
 * (or, packed3, reads in place) what it touches; every value must equal
 * the one thread's.  Then four threads answer Century's start and two
 * of its neighbours at once, over and over, on a fresh space of its
 * table.  Last, searches past a full table, one bound shared out among
 * threads: Korf's first 15-puzzle instance (57 moves, Korf 1985; its tiles
 * renumbered for the goal 1..15 then the blank) on 1 and
 * 3 threads, the same line; and a Century board 30 moves from the goal by
 * its table, searched from abstractions built here, on 1 and 3 threads,
 * 30 moves each time.  And four threads read 20,000 random levels each
 * of rush-5x5's levels table at once (7 blocks: the block the table keeps
 * decoded is replaced under them all the time); every level must equal
 * the one thread's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzletb.h"
#include "tables.h"

#define QUERIES 2000
#define THREADS 4

static ptb_table *table;
static ptb_position start[QUERIES];
static unsigned ref_dist[QUERIES];
static ptb_move ref_move[QUERIES][8];

typedef struct worker {
    int own_reader;
    unsigned mismatches;
} worker;

static unsigned differs(const ptb_solution *s, unsigned q)
{
    if (s->distance != ref_dist[q])
        return 1;
    for (unsigned i = 0; i < s->distance && i < 8; i++)
        if (s->move[i].to != ref_move[q][i].to ||
            s->move[i].code != ref_move[q][i].code)
            return 1;
    return 0;
}

static void *work(void *arg)
{
    worker *w = arg;
    ptb_reader *r = NULL;
    ptb_solution *sol = malloc(sizeof *sol);
    if (w->own_reader && ptb_reader_new(table, &r) != PTB_OK)
        w->mismatches = QUERIES;
    for (unsigned q = 0; sol && q < QUERIES; q++)
        w->mismatches += ptb_solve(table, r, &start[q], 1, sol) != PTB_OK ||
                         differs(sol, q);
    ptb_reader_free(r);
    free(sol);
    return NULL;
}

#define VALUES 20000

static ptb_table *kl_table;
static uint64_t kl_idx[VALUES];
static unsigned kl_ref[VALUES];

static void *read_values(void *arg)
{
    unsigned *mismatches = arg;
    ptb_reader *r = NULL;
    if (ptb_reader_new(kl_table, &r) != PTB_OK) {
        *mismatches = VALUES;
        return NULL;
    }
    for (unsigned i = 0; i < VALUES; i++) {
        unsigned v;
        *mismatches += ptb_table_value(kl_table, r, 0, kl_idx[i], &v) !=
                           PTB_OK || v != kl_ref[i];
    }
    ptb_reader_free(r);
    return NULL;
}

static void klotski_values(void)
{
    tables tb;
    ptb_table_info in;
    unsigned ok = 0, bad = 0, miss[THREADS] = { 0 };
    pthread_t tid[THREADS];
    if (!tables_open("klotski", "step", &tb))
        return;
    kl_table = tb.t;
    ptb_table_get_info(tb.t, &in);
    srand(5);
    for (unsigned i = 0; i < VALUES; i++) {
        kl_idx[i] = ((uint64_t)rand() * RAND_MAX + (uint64_t)rand()) %
                    in.states;
        ok += ptb_table_value(tb.t, tb.r, 0, kl_idx[i], &kl_ref[i]) ==
              PTB_OK;
    }
    check(ok == VALUES, "%u Klotski values read by one thread (%s)", ok,
          in.encoding);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&tid[i], NULL, read_values, &miss[i]);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(tid[i], NULL);
        bad += miss[i];
    }
    check(bad == 0, "4 threads, a reader each, read the same values "
          "(%u differ)", bad);
    tables_close(&tb);
}

#define LEVEL_READS 20000

static ptb_levels *lv_table;
static ptb_level *lv_ref;
static unsigned lv_miss[THREADS];

static void *read_levels(void *arg)
{
    unsigned *mismatches = arg, seed = (unsigned)(mismatches - lv_miss) + 1;
    size_t n = ptb_levels_count(lv_table);
    for (unsigned i = 0; i < LEVEL_READS; i++) {
        size_t k = (size_t)rand_r(&seed) % n;
        ptb_level v;
        const ptb_level *w = &lv_ref[k];
        *mismatches += ptb_levels_get(lv_table, k, &v) != PTB_OK ||
                       v.moves != w->moves || v.states != w->states ||
                       strcmp(v.board, w->board) ||
                       memcmp(v.histogram, w->histogram,
                              (w->moves + 1) * sizeof *w->histogram);
    }
    return NULL;
}

static void levels_reads(void)
{
    unsigned ok = 0, bad = 0, *miss = lv_miss;
    pthread_t tid[THREADS];
    int rc = ptb_levels_open(tables_dir(), "rush-5x5", &lv_table);
    check(rc == PTB_OK, "rush-5x5's levels table opens (%s; make tables "
          "builds it)", ptb_strerror(rc));
    if (rc != PTB_OK)
        return;
    size_t n = ptb_levels_count(lv_table);
    lv_ref = calloc(n, sizeof *lv_ref);
    for (size_t i = 0; lv_ref && i < n; i++)
        ok += ptb_levels_get(lv_table, i, &lv_ref[i]) == PTB_OK;
    check(n == 1730 && ok == n, "its %zu levels read by one thread", n);
    for (int i = 0; lv_ref && i < THREADS; i++)
        pthread_create(&tid[i], NULL, read_levels, &miss[i]);
    for (int i = 0; lv_ref && i < THREADS; i++) {
        pthread_join(tid[i], NULL);
        bad += miss[i];
    }
    check(lv_ref && bad == 0, "4 threads read 20,000 random levels each at "
          "once: the one thread's levels (%u differ)", bad);
    free(lv_ref);
    ptb_levels_close(lv_table);
}

/* Century's start (J. H. Conway's; 99 moves in the move metric, Storer's
 * optimum) and two of its neighbours. */
static const char *const century_q[3] = {
    "aBBc/dBBe/df.e/gf.h/iijj", "aBBc/dBBe/d.fe/g.fh/iijj",
    "aBBc/dBBe/df.e/gfh./iijj"
};

typedef struct century_job {
    ptb_space *s;
    ptb_table *t;
    unsigned who, dist[3];
} century_job;

/* The three answers, ROUNDS times (0 for a query whose answers differ):
 * four threads walk the moves of more states than a space lists before
 * it lists its graph's rows and makes its row table (4,096), so one of
 * them makes them while the others walk. */
#define ROUNDS 8
static void *century_answers(void *arg)
{
    century_job *j = arg;
    for (unsigned round = 0; round < ROUNDS; round++)
        for (unsigned i = 0; i < 3; i++) {
            unsigned q = (i + j->who) % 3, n, d;
            ptb_position pos[2];
            if (ptb_parse(j->s, century_q[q], NULL, pos, &n, NULL, 0) !=
                    PTB_OK ||
                ptb_distance(j->t, NULL, &pos[0], &d) != PTB_OK ||
                (round && d != j->dist[q]))
                d = 0;
            if (!round || !d)
                j->dist[q] = d;
        }
    return NULL;
}

/* Four threads on one space of a described puzzle read from its table
 * (century, its mirror image folded: its graph and fold rows are checked
 * as walks first come to them, by whichever thread comes first, then all
 * at once and its rows hashed by one of them), fresh: their answers are
 * one thread's on a space of its own. */
static void described_space(void)
{
    ptb_puzzle *p;
    century_job j[THREADS], one = { .who = 0 };
    pthread_t tid[THREADS];
    int rc = ptb_puzzle_lookup(tables_dir(), "century", &p);
    if (rc == PTB_OK && (rc = ptb_space_new(p, "move", &j[0].s)) == PTB_OK &&
        (rc = ptb_table_open(j[0].s, tables_dir(), &j[0].t)) == PTB_OK &&
        (rc = ptb_space_new(p, "move", &one.s)) == PTB_OK)
        rc = ptb_table_open(one.s, tables_dir(), &one.t);
    if (!check(rc == PTB_OK, "century's move table opens: %s",
               ptb_strerror(rc)))
        return;
    for (unsigned i = 0; i < THREADS; i++) {
        j[i] = (century_job){ j[0].s, j[0].t, i, { 0 } };
        pthread_create(&tid[i], NULL, century_answers, &j[i]);
    }
    unsigned bad = 0;
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(tid[i], NULL);
    century_answers(&one);
    for (unsigned i = 0; i < THREADS; i++)
        bad += memcmp(j[i].dist, one.dist, sizeof one.dist) != 0;
    check(one.dist[0] == 99, "century's start: 99 moves (%u)", one.dist[0]);
    check(bad == 0 && one.dist[1] && one.dist[2],
          "4 threads on a fresh space of century's table give one thread's "
          "answers (%u differ)", bad);
    ptb_table_close(one.t);
    ptb_space_close(one.s);
    ptb_table_close(j[0].t);
    ptb_space_close(j[0].s);
    ptb_puzzle_free(p);
}

/* A search from space s's pattern tables in dir of the board text on
 * 'threads' threads into sol: PTB_OK or the error. */
static int search(const ptb_space *s, const char *dir, const char *text,
                  unsigned threads, ptb_solution *sol)
{
    ptb_patterns *pt;
    ptb_position pos[2];
    unsigned n;
    ptb_search_opts o = { .threads = threads };
    int rc = ptb_patterns_open(s, dir, &pt);
    if (rc != PTB_OK)
        return rc;
    if ((rc = ptb_parse(s, text, NULL, pos, &n, NULL, 0)) == PTB_OK)
        rc = ptb_patterns_solve(pt, pos, n, &o, sol, NULL);
    ptb_patterns_close(pt);
    return rc;
}

static int same_line(const ptb_solution *a, const ptb_solution *b)
{
    if (a->distance != b->distance || a->distance > PTB_MAX_DISTANCE)
        return 0;
    for (unsigned i = 0; i < a->distance; i++)
        if (a->move[i].to != b->move[i].to ||
            a->move[i].code != b->move[i].code)
            return 0;
    return 1;
}

static void fifteen_search(ptb_solution *one, ptb_solution *three)
{
    ptb_puzzle *p;
    ptb_space *s = NULL;
    const char *korf1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2";
    int rc = ptb_puzzle_lookup(tables_dir(), "fifteen", &p);
    if (rc == PTB_OK)
        rc = ptb_space_new(p, NULL, &s);
    int rc1 = rc == PTB_OK ? search(s, tables_dir(), korf1, 1, one) : rc;
    int rc3 = rc == PTB_OK ? search(s, tables_dir(), korf1, 3, three) : rc;
    check(rc1 == PTB_OK && rc3 == PTB_OK && one->distance == 57 &&
          same_line(one, three),
          "Korf's instance 1 searched on 1 and 3 threads: 57 moves, the "
          "same line (%s, %s; %u)", ptb_strerror(rc1), ptb_strerror(rc3),
          one->distance);
    ptb_space_close(s);
    ptb_puzzle_free(p);
}

/* Century's abstractions (tests/t_abstract.py's), their move tables built
 * into dir. */
static const char century_abstract[] =
    "name t-cent\nmetrics move\nabstraction Bdij\nabstraction Baij\n"
    "abstraction Bad\nstart aBBc/dBBe/df.e/gf.h/iijj\n"
    "goal \?\?\?\?/\?\?\?\?/\?\?\?\?/\?BB\?/\?BB\?\n";

static int build_abstractions(const ptb_puzzle *p, const char *dir)
{
    int rc = PTB_OK;
    ptb_build_opts o;
    ptb_table_info info;
    ptb_build_opts_init(&o);
    o.threads = 1;
    for (unsigned g = 0; rc == PTB_OK && g < ptb_puzzle_patterns(p); g++) {
        ptb_puzzle *q;
        ptb_space *s = NULL;
        if ((rc = ptb_puzzle_pattern(p, g, &q)) != PTB_OK)
            break;
        if ((rc = ptb_space_new(q, "move", &s)) == PTB_OK)
            rc = ptb_build(s, dir, &o, &info);
        ptb_space_close(s);
        ptb_puzzle_free(q);
    }
    return rc;
}

static void century_search(ptb_solution *one, ptb_solution *three)
{
    char tmp[] = "/tmp/t_threads.XXXXXX", err[200], board[64];
    ptb_puzzle *full = NULL, *p = NULL;
    ptb_space *fs = NULL, *s = NULL;
    ptb_table *t = NULL;
    ptb_position pos[2];
    unsigned n;
    int rc = ptb_puzzle_lookup(tables_dir(), "century", &full);
    if (rc == PTB_OK && (rc = ptb_space_new(full, "move", &fs)) == PTB_OK &&
        (rc = ptb_table_open(fs, tables_dir(), &t)) == PTB_OK &&
        (rc = ptb_parse(fs, "aBBc/dBBe/df.e/gf.h/iijj", NULL, pos, &n, NULL,
                        0)) == PTB_OK)
        rc = ptb_solve(t, NULL, pos, n, one);
    if (rc == PTB_OK && one->distance == 99)   /* 30 moves from the goal */
        rc = ptb_format_board(fs, &one->after[68], board, sizeof board) > 0
                 ? PTB_OK : PTB_EINVAL;
    if (!check(rc == PTB_OK && one->distance == 99 && mkdtemp(tmp),
               "Century's board 30 moves from the goal, by its table: %s",
               ptb_strerror(rc)))
        goto end;
    rc = ptb_puzzle_load(century_abstract, &p, err, sizeof err);
    if (rc == PTB_OK && (rc = build_abstractions(p, tmp)) == PTB_OK)
        rc = ptb_space_new(p, "move", &s);
    int rc1 = rc == PTB_OK ? search(s, tmp, board, 1, one) : rc;
    int rc3 = rc == PTB_OK ? search(s, tmp, board, 3, three) : rc;
    check(rc1 == PTB_OK && rc3 == PTB_OK && one->distance == 30 &&
          three->distance == 30,
          "abstractions: the board searched on 1 and 3 threads, 30 moves "
          "each (%s, %s; %u and %u)", ptb_strerror(rc1), ptb_strerror(rc3),
          one->distance, three->distance);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        check(0, "%s removed", tmp);
end:
    ptb_space_close(s);
    ptb_puzzle_free(p);
    ptb_table_close(t);
    ptb_space_close(fs);
    ptb_puzzle_free(full);
}

int main(void)
{
    tables tb;
    ptb_solution *sol = malloc(sizeof *sol);
    if (!tables_open("swap", NULL, &tb))
        return check_done();
    ptb_space *space = tb.s;
    table = tb.t;
    srand(99);
    unsigned ok = 0;
    for (unsigned q = 0; q < QUERIES; q++) {
        char text[41];
        ptb_position pos[2];
        unsigned n, k = 0;
        for (unsigned i = 0; i < 16; i++)
            k += (text[i + i / 4] = (char)('0' + rand() % 2)) == '1';
        for (unsigned i = 0; i < 16; i++)       /* target: k black first */
            text[20 + i + i / 4] = i < k ? '1' : '0';
        for (unsigned i = 4; i < 40; i += 5)
            text[i] = '\n';
        text[40] = '\0';
        if (ptb_parse(space, text, NULL, pos, &n, NULL, 0) != PTB_OK ||
            ptb_solve(table, NULL, pos, 1, sol) != PTB_OK)
            continue;
        start[q] = pos[0];
        ok++;
        ref_dist[q] = sol->distance;
        memcpy(ref_move[q], sol->move, sizeof ref_move[q]);
    }
    check(ok == QUERIES, "2000 queries answered by one thread");
    pthread_t tid[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){ i % 2, 0 };
        pthread_create(&tid[i], NULL, work, &w[i]);
    }
    unsigned bad = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(tid[i], NULL);
        bad += w[i].mismatches;
    }
    check(bad == 0, "4 threads on one handle give the one thread's answers "
          "(%u differ)", bad);
    tables_close(&tb);
    klotski_values();
    levels_reads();
    described_space();
    ptb_solution *other = malloc(sizeof *other);
    if (sol && other) {
        fifteen_search(sol, other);
        century_search(sol, other);
    }
    free(sol);
    free(other);
    return check_done();
}
