/* common/verify.c: ptb_verify(), the proof that a table holds the true
 * distances.
 *
 * Every block is decoded (each frame checks its own checksum) and the digest
 * of all values is recomputed.  Then an array E of exact distances is
 * checked against one-move neighbours, with the forward moves only:
 *   a goal has 0; a state of finite d > 0 has a successor at d - 1 and none
 *   closer; a state at 0 is a goal; an unsolvable state has no solvable
 *   successor.
 * Induction on d shows that an E passing these checks is the true distance.
 * For exact tables E is the stored values themselves; a mod-3 table cannot
 * be checked that way (a cycle of residues 0, 2, 1 looks locally fine), so E
 * comes from a fresh BFS, passes the same checks, and every stored value
 * must then equal E mod 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK 65536u

typedef struct check_job {
    const ptb_space *s;
    const uint8_t *dist;
    uint64_t total;
    uint64_t next;            /* next chunk (atomic) */
    uint64_t bad;             /* smallest failing state, or UINT64_MAX */
    const char *what;         /* its failure, under the same CAS */
} check_job;

static const char *check_state(const ptb_space *s, const uint8_t *dist,
                               uint32_t sub, uint64_t idx)
{
    ptb_move mv[PTB_MAX_MOVES];
    const ptb_puzzle *p = s->p;
    unsigned v = dist[ptb_global(s, sub, idx)], best = PTB_UNSOLVABLE;
    int goal = p->is_goal(s->ctx, sub, idx);
    if (goal)
        return v == 0 ? NULL : "a goal without distance 0";
    if (v == 0)
        return "distance 0 on a state that is no goal";
    unsigned n = p->moves(s->ctx, sub, idx, mv);
    for (unsigned i = 0; i < n; i++) {
        unsigned w = dist[ptb_global(s, sub, mv[i].to)];
        best = w < best ? w : best;
    }
    if (v == PTB_UNSOLVABLE && best != PTB_UNSOLVABLE)
        return "unsolvable, but a successor is solvable";
    if (v == PTB_UNSOLVABLE)
        return NULL;
    if (best == PTB_UNSOLVABLE || best > v - 1)
        return "no successor one move closer";
    if (best < v - 1)
        return "a successor more than one move closer";
    return NULL;
}

/* Keeps the smallest failing state seen by any thread. */
static void record_failure(check_job *j, uint64_t g, const char *what)
{
    uint64_t cur = __atomic_load_n(&j->bad, __ATOMIC_RELAXED);
    while (g < cur)
        if (__atomic_compare_exchange_n(&j->bad, &cur, g, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            __atomic_store_n(&j->what, what, __ATOMIC_RELAXED);
            break;
        }
}

static void *check_worker(void *arg)
{
    check_job *j = arg;
    const ptb_space *s = j->s;
    for (;;) {
        uint64_t from = __atomic_fetch_add(&j->next, CHUNK, __ATOMIC_RELAXED);
        if (from >= j->total || from > __atomic_load_n(&j->bad,
                                                       __ATOMIC_RELAXED))
            break;
        uint64_t to = from + CHUNK < j->total ? from + CHUNK : j->total;
        uint32_t sub = 0;
        while (s->offset[sub + 1] <= from)
            sub++;
        for (uint64_t g = from; g < to; g++) {
            while (s->offset[sub + 1] <= g)
                sub++;
            const char *what = check_state(s, j->dist, sub,
                                           g - s->offset[sub]);
            if (what) {
                record_failure(j, g, what);
                break;
            }
        }
    }
    return NULL;
}

static void name_state(const ptb_space *s, uint64_t g, ptb_verify_result *res)
{
    uint32_t sub = 0;
    while (s->offset[sub + 1] <= g)
        sub++;
    res->bad_state = 1;
    res->sub = sub;
    res->idx = g - s->offset[sub];
}

/* Stored mod-3 values against exact distances; the first mismatch or
 * UINT64_MAX. */
static uint64_t compare_residues(const uint8_t *stored, const uint8_t *exact,
                                 uint64_t total)
{
    for (uint64_t g = 0; g < total; g++) {
        unsigned want = exact[g] == PTB_UNSOLVABLE ? PTB_UNSOLVABLE
                                                   : exact[g] % 3u;
        if (stored[g] != want)
            return g;
    }
    return UINT64_MAX;
}

int ptb_verify(const ptb_table *t, unsigned threads, ptb_verify_result *res)
{
    const ptb_space *s = ptb_table_space(t);
    uint64_t total = s->offset[s->subtables];
    uint8_t *stored = malloc(total ? total : 1), *exact = NULL;
    const char *what = NULL;
    int rc = stored ? PTB_OK : PTB_ENOMEM;
    memset(res, 0, sizeof *res);
    if (threads < 1 || threads > 256)
        rc = PTB_EINVAL;
    if (rc == PTB_OK)
        rc = ptb_table_decode_all(t, stored, &what);
    if (rc == PTB_OK && !ptb_table_exact(t)) {
        ptb_build_opts o;
        ptb_build_opts_init(&o);
        o.threads = threads;
        rc = ptb_distances(s, &o, &exact);
    }
    const uint8_t *dist = exact ? exact : stored;
    check_job j = { s, dist, total, 0, UINT64_MAX, NULL };
    if (rc == PTB_OK) {
        ptb_run_threads(check_worker, &j, threads);
        if (j.bad != UINT64_MAX) {
            what = j.what;
            name_state(s, j.bad, res);
            rc = PTB_ECORRUPT;
        }
    }
    if (rc == PTB_OK && exact) {
        uint64_t g = compare_residues(stored, exact, total);
        if (g != UINT64_MAX) {
            what = "stored value is not the distance mod 3";
            name_state(s, g, res);
            rc = PTB_ECORRUPT;
        }
    }
    if (what)
        snprintf(res->what, sizeof res->what, "%s", what);
    res->checked = rc == PTB_OK ? total : 0;
    free(stored);
    free(exact);
    return rc;
}
