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
 * For exact tables E is the stored values themselves; a table of the
 * distance mod M (3, or 4 with the puzzle's parity) cannot be checked that
 * way (a cycle of residues 0, 2, 1 looks locally fine), so E comes from a
 * fresh BFS, passes the same checks, and every stored value must then
 * equal E mod M (0 where E is unsolvable; a mod-4 value, its stored bit
 * plus the parity, so both are proven).  A last pass proves what the walk
 * relies on to report "no solution": the states stored 0 that are no goal
 * and have no successor stored M - 1 are exactly the states E finds
 * unsolvable.  Last, the stats record's histogram must count E and
 * its farthest states lie at max_distance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define CHUNK 65536u

typedef struct check_job check_job;
typedef const char *(*check_fn)(const check_job *j, uint32_t sub,
                                uint64_t idx);

struct check_job {
    const ptb_space *s;
    const uint16_t *dist;     /* E: exact distances */
    const uint8_t *stored;    /* mod-M tables: the stored values; or NULL */
    unsigned m;               /* M: 3 or 4; 0 for exact tables */
    check_fn check;
    uint64_t total;
    uint64_t next;            /* next chunk (atomic) */
    uint64_t bad;             /* smallest failing state, or UINT64_MAX */
    const char *what;         /* its failure, under the same CAS */
};

/* E is the true distance: checked against the forward moves. */
static const char *check_exact(const check_job *j, uint32_t sub,
                               uint64_t idx)
{
    const ptb_space *s = j->s;
    const uint16_t *dist = j->dist;
    ptb_move mv[PTB_MAX_MOVES];
    const ptb_puzzle *p = s->p;
    uint64_t g = ptb_global(s, sub, idx);
    unsigned v = dist[g], best = PTB_UNSOLVABLE;
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
    if (v != PTB_UNSOLVABLE && (best == PTB_UNSOLVABLE || best > v - 1))
        return "no successor one move closer";
    if (v != PTB_UNSOLVABLE && best < v - 1)
        return "a successor more than one move closer";
    if (j->stored && j->stored[g] != (v == PTB_UNSOLVABLE ? 0 : v % j->m))
        return j->m == 3 ? "stored value is not the distance mod 3"
                         : "stored value is not the distance mod 4";
    return NULL;
}

/* Mod-M tables: the walk's test for "no solution" picks out exactly the
 * unsolvable states. */
static const char *check_dead(const check_job *j, uint32_t sub, uint64_t idx)
{
    const ptb_space *s = j->s;
    ptb_move mv[PTB_MAX_MOVES];
    uint64_t g = ptb_global(s, sub, idx);
    int dead = j->stored[g] == 0 && !s->p->is_goal(s->ctx, sub, idx);
    unsigned n = dead ? s->p->moves(s->ctx, sub, idx, mv) : 0;
    for (unsigned i = 0; i < n && dead; i++)
        dead = j->stored[ptb_global(s, sub, mv[i].to)] != j->m - 1;
    if (dead && j->dist[g] != PTB_UNSOLVABLE)
        return "a walk would call it unsolvable, but it is solvable";
    if (!dead && j->dist[g] == PTB_UNSOLVABLE)
        return "unsolvable, but a walk would not say so";
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
        uint32_t sub;
        uint64_t idx;
        ptb_locate(s, from, &sub, &idx);
        for (uint64_t g = from; g < to; g++) {
            while (s->offset[sub + 1] <= g)
                sub++;
            const char *what = j->check(j, sub, g - s->offset[sub]);
            if (what) {
                record_failure(j, g, what);
                break;
            }
        }
    }
    return NULL;
}

/* Runs one check over every state; PTB_ECORRUPT names the first failure. */
static int check_all(const ptb_space *s, const uint16_t *dist,
                     const uint8_t *stored, unsigned m, check_fn fn,
                     unsigned threads, ptb_verify_result *res,
                     const char **what)
{
    check_job j = { s, dist, stored, m, fn, s->offset[s->subtables], 0,
                    UINT64_MAX, NULL };
    ptb_run_threads(check_worker, &j, threads);
    if (j.bad == UINT64_MAX)
        return PTB_OK;
    *what = j.what;
    res->bad_state = 1;
    ptb_locate(s, j.bad, &res->sub, &res->idx);
    return PTB_ECORRUPT;
}

/* The stats record against the proven distances: its histogram counts
 * them, and its farthest states are at max_distance. */
static int check_stats(const ptb_table *t, const uint16_t *dist,
                       const char **what)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_table_info in;
    uint64_t *count = calloc(PTB_MAX_DISTANCE + 1, sizeof *count);
    int rc = count ? ptb_table_get_info(t, &in) : PTB_ENOMEM;
    if (rc != PTB_OK) {
        *what = "the stats record is damaged";
        free(count);
        return rc;
    }
    for (uint64_t g = 0; g < s->offset[s->subtables]; g++)
        if (dist[g] != PTB_UNSOLVABLE)
            count[dist[g]]++;
    const char *bad = NULL;
    if (memcmp(count, in.histogram, (PTB_MAX_DISTANCE + 1) * sizeof *count))
        bad = "the histogram does not count the distances";
    for (unsigned i = 0; i < in.n_farthest && !bad; i++)
        if (dist[ptb_global(s, in.far_sub[i], in.far_idx[i])] !=
            in.max_distance)
            bad = "a farthest state is not at max_distance";
    free(count);
    if (bad)
        *what = bad;
    return bad ? PTB_ECORRUPT : PTB_OK;
}

/* A space that ranks by an index read from a table (a described puzzle's
 * ranking, FORMAT.md) ranks as its description says: the index made again
 * from the description alone is the same, byte for byte. */
static int check_index(const ptb_space *s, const char **what)
{
    size_t len = 0, fresh_len = 0;
    const unsigned char *own = ptb_space_index(s, &len), *again;
    ptb_puzzle *p;
    ptb_space *f = NULL;
    if (!own)
        return PTB_OK;
    int rc = ptb_puzzle_load(s->p->description, &p, NULL, 0);
    if (rc == PTB_OK) {
        rc = ptb_space_new(p, ptb_space_metric(s), &f);
        again = rc == PTB_OK ? ptb_space_index(f, &fresh_len) : NULL;
        if (rc == PTB_OK &&
            (!again || fresh_len != len || memcmp(again, own, len))) {
            *what = "the stored ranking is not the description's";
            rc = PTB_ECORRUPT;
        }
        ptb_space_close(f);
        ptb_puzzle_free(p);
    }
    return rc;
}

int ptb_verify(const ptb_table *t, unsigned threads, ptb_verify_result *res)
{
    const ptb_space *s = ptb_table_space(t);
    uint64_t total = s->offset[s->subtables];
    uint8_t *stored = malloc(total ? total : 1);
    ptb_values v = { .dist = NULL };
    unsigned m = ptb_table_modulus(t);
    const char *what = NULL;
    int rc = stored ? PTB_OK : PTB_ENOMEM;
    memset(res, 0, sizeof *res);
    if (threads < 1 || threads > 256)
        rc = PTB_EINVAL;
    if (rc == PTB_OK)
        rc = check_index(s, &what);
    if (rc == PTB_OK)
        rc = ptb_table_decode_all(t, stored, &what);
    if (rc == PTB_OK && m) {           /* E: a fresh BFS */
        ptb_build_opts o;
        ptb_build_opts_init(&o);
        o.threads = threads;
        rc = ptb_distances(s, &o, 0, NULL, &v);
    } else if (rc == PTB_OK) {         /* E: the stored distances */
        v.dist = malloc((total ? total : 1) * sizeof *v.dist);
        for (uint64_t g = 0; v.dist && g < total; g++)
            v.dist[g] = stored[g] == PTB_BYTE_NONE ? PTB_UNSOLVABLE : stored[g];
        rc = v.dist ? PTB_OK : PTB_ENOMEM;
    }
    if (rc == PTB_OK)
        rc = check_all(s, v.dist, m ? stored : NULL, m, check_exact, threads,
                       res, &what);
    if (rc == PTB_OK && m)
        rc = check_all(s, v.dist, stored, m, check_dead, threads, res, &what);
    if (rc == PTB_OK)
        rc = check_stats(t, v.dist, &what);
    rc = ptb_space_checked(s, rc);
    if (what && rc != PTB_OK)
        snprintf(res->what, sizeof res->what, "%s", what);
    res->checked = rc == PTB_OK ? total : 0;
    free(stored);
    ptb_values_free(&v);
    return rc;
}
