/* tests/t_threads.c: one table handle shared by many threads.  Four threads
 * answer the same 2,000 swap queries at once, two with readers of their own
 * and two with none; every answer (distance and every move) must equal the
 * one thread's answer.  Then four threads read the same 20,000 random
 * Klotski values at once, each through a reader of its own that decodes
 * (or, packed3, reads in place) what it touches; every value must equal
 * the one thread's.  Last, four threads answer Century's start and two
 * of its neighbours at once, over and over, on a fresh space of its
 * table. */
#include <pthread.h>
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
 * it hashes its graph's rows (4,096), so one of them hashes the rows
 * while the others walk. */
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
    free(sol);
    tables_close(&tb);
    klotski_values();
    described_space();
    return check_done();
}
