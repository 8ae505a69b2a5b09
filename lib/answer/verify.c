/* lib/answer/verify.c: ptb_verify(), the proof that a table holds the true
 * distances.
 *
 * Every block is decoded (each frame checks its own checksum) and the
 * digest of all values is recomputed.  Then the states are taken layer by
 * layer: layer 0 is the goals (the puzzle's goals()), layer d + 1 the
 * states in no layer yet that are one unmove (unmoves()) before a state of
 * layer d; of a reversible puzzle, one move (moves()) after it, the same
 * states, so that a state's moves are made once.  Each state is checked
 * against its one-move neighbours, with the forward moves only (moves()):
 *   a state of layer 0 is a goal, and no state of a later layer is;
 *   a state of layer d > 0 has a successor in layer d - 1 and none in an
 *   earlier layer;
 *   its stored value is d (exact tables) or d mod M (tables of the
 *   distance mod M: 3, or 4 with the puzzle's parity, so that both the
 *   stored bit and the parity are proven);
 *   a state in no layer is no goal, has no successor in a layer, and is
 *   stored unsolvable (0 in a mod-M table).
 * Then every state lies in the layer of its distance, and the unsolvable
 * ones in none, whatever goals() and unmoves() gave: by induction on the
 * layer, a state of layer d has a path of d moves to a goal (a successor
 * in layer d - 1), so its distance is at most d; by induction on the
 * distance, a state at distance k > 0 has a successor at k - 1, which lies
 * in layer k - 1, so the state lies in a layer (or fails) and that layer
 * is at most k (or it fails), so it is k.  So the checks prove every
 * stored value.  They prove what a walk relies on to
 * report "no solution" in a mod-M table too: the states stored 0 that are
 * no goal and have no successor stored M - 1 are exactly the unsolvable
 * ones (a solvable state stored 0 is a goal or has a successor at d - 1,
 * stored M - 1; an unsolvable one is no goal and its successors are
 * unsolvable, stored 0).  Last, the stats record's histogram must count
 * the layers and its farthest states lie in the last.
 *
 * A described puzzle's table is proven on the space its description makes
 * here, once its ranking is found to be the stored one (check_index()).
 *
 * Memory: four bitmaps (the layers before d - 1, d - 1, d and d + 1) and
 * the stored values, 2 bits a state in a mod-M table (6 bits a state in
 * all) or a byte in an exact one (12).  A layer is checked and expanded
 * in one pass over its states, in chunks the threads take in turn; a
 * state claimed for the next layer is marked with an atomic OR in its
 * bitmap, which no check of the pass reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"

#define CHUNK_WORDS 1024u          /* 65,536 states a thread takes at once */

typedef struct verify_job {
    const ptb_space *s;
    const uint8_t *stored;    /* the stored values: 2 bits or a byte each */
    unsigned m;               /* M: 3 or 4; 0 for exact tables */
    uint64_t n, words;        /* states, and 64-bit words of a bitmap */
    uint64_t *old, *prev, *cur, *next;  /* layers < d - 1, d - 1, d, d + 1 */
    unsigned d;
    int unsolvable;           /* 1: the pass over the states in no layer */
    uint64_t take;            /* next chunk (atomic) */
    uint64_t found;           /* states claimed for layer d + 1 (atomic) */
    uint64_t bad;             /* smallest failing state, or UINT64_MAX */
    const char *what;         /* its failure, under the same CAS */
    int nomem;                /* a thread found no memory for its lists */
} verify_job;

static unsigned stored_at(const verify_job *j, uint64_t g)
{
    return j->m ? j->stored[g / 4] >> 2 * (g % 4) & 3u : j->stored[g];
}

static int has(const uint64_t *bits, uint64_t g)
{
    return bits[g >> 6] >> (g & 63) & 1;
}

/* What state g must be stored as, at distance d (PTB_UNSOLVABLE: none). */
static unsigned want_stored(const verify_job *j, unsigned d)
{
    if (d == PTB_UNSOLVABLE)
        return j->m ? 0 : PTB_BYTE_NONE;
    return j->m ? d % j->m : d;
}

static const char *bad_stored(const verify_job *j)
{
    return j->m == 3   ? "stored value is not the distance mod 3"
           : j->m == 4 ? "stored value is not the distance mod 4"
                       : "stored value is not the distance";
}

/* Checks state g (idx of sub) of layer d and claims the states one unmove
 * before it that lie in no layer for layer d + 1; adds them to *found. */
static const char *check_layer(verify_job *j, uint32_t sub, uint64_t idx,
                               uint64_t g, ptb_move *mv, uint64_t *pred,
                               uint64_t *found)
{
    const ptb_space *s = j->s;
    const ptb_puzzle *p = s->p;
    unsigned d = j->d;
    int goal = p->is_goal(s->ctx, sub, idx), closer = 0;
    if (d == 0 && !goal)
        return "distance 0 on a state that is no goal";
    if (d > 0 && goal)
        return "a goal without distance 0";
    unsigned n = p->moves(s->ctx, sub, idx, mv);
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = ptb_global(s, sub, mv[i].to);
        if (has(j->prev, t))
            closer = 1;
        else if (has(j->old, t))
            return "a successor more than one move closer";
    }
    if (d > 0 && !closer)
        return "no successor one move closer";
    if (stored_at(j, g) != want_stored(j, d))
        return bad_stored(j);
    uint64_t size = s->offset[sub + 1] - s->offset[sub];
    if (p->reversible)                 /* (the moves' targets: the proof
                                          holds whatever the layers are) */
        for (unsigned i = 0; i < n; i++)
            pred[i] = mv[i].to;
    else
        n = p->unmoves(s->ctx, sub, idx, pred);
    for (unsigned i = 0; i < n; i++) {
        uint64_t u = ptb_global(s, sub, pred[i]), bit = (uint64_t)1 << (u & 63);
        if (pred[i] >= size || has(j->old, u) || has(j->prev, u) ||
            has(j->cur, u) ||
            (__atomic_load_n(&j->next[u >> 6], __ATOMIC_RELAXED) & bit))
            continue;                  /* (a wrong one is caught anyway) */
        if (!(__atomic_fetch_or(&j->next[u >> 6], bit, __ATOMIC_RELAXED) &
              bit))
            (*found)++;
    }
    return NULL;
}

/* Checks state g (idx of sub), which lies in no layer: unsolvable. */
static const char *check_unsolvable(const verify_job *j, uint32_t sub,
                                    uint64_t idx, uint64_t g, ptb_move *mv)
{
    const ptb_space *s = j->s;
    if (s->p->is_goal(s->ctx, sub, idx))
        return "a goal without distance 0";
    unsigned n = s->p->moves(s->ctx, sub, idx, mv);
    for (unsigned i = 0; i < n; i++) {
        uint64_t t = ptb_global(s, sub, mv[i].to);
        if (has(j->old, t) || has(j->prev, t) || has(j->cur, t))
            return "unsolvable, but a successor is solvable";
    }
    return stored_at(j, g) != want_stored(j, PTB_UNSOLVABLE) ? bad_stored(j)
                                                            : NULL;
}

/* Keeps the smallest failing state seen by any thread. */
static void record_failure(verify_job *j, uint64_t g, const char *what)
{
    uint64_t cur = __atomic_load_n(&j->bad, __ATOMIC_RELAXED);
    while (g < cur)
        if (__atomic_compare_exchange_n(&j->bad, &cur, g, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            __atomic_store_n(&j->what, what, __ATOMIC_RELAXED);
            break;
        }
}

/* The states of word w the pass takes: layer d's, or those in no layer. */
static uint64_t pass_word(const verify_job *j, uint64_t w)
{
    if (!j->unsolvable)
        return j->cur[w];
    uint64_t x = ~(j->old[w] | j->prev[w] | j->cur[w]);
    return w + 1 < j->words || j->n % 64 == 0
               ? x
               : x & (((uint64_t)1 << (j->n % 64)) - 1);
}

static void *pass_worker(void *arg)
{
    verify_job *j = arg;
    const ptb_space *s = j->s;
    ptb_move *mv = ptb_move_list(s, sizeof *mv);
    uint64_t *pred = ptb_move_list(s, sizeof *pred), found = 0;
    if (!mv || !pred) {
        __atomic_store_n(&j->nomem, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&j->take, j->words, __ATOMIC_RELAXED);
    }
    for (; mv && pred;) {
        uint64_t w = __atomic_fetch_add(&j->take, CHUNK_WORDS,
                                        __ATOMIC_RELAXED);
        if (w >= j->words ||
            64 * w > __atomic_load_n(&j->bad, __ATOMIC_RELAXED))
            break;
        uint64_t end = w + CHUNK_WORDS < j->words ? w + CHUNK_WORDS
                                                  : j->words;
        uint32_t sub = 0;
        uint64_t idx;
        const char *what = NULL;
        ptb_locate(s, 64 * w, &sub, &idx);
        for (; w < end && !what; w++)
            for (uint64_t b = pass_word(j, w); b && !what; b &= b - 1) {
                uint64_t g = 64 * w + ptb_low_bit(b);
                while (s->offset[sub + 1] <= g)
                    sub++;
                idx = g - s->offset[sub];
                what = j->unsolvable
                           ? check_unsolvable(j, sub, idx, g, mv)
                           : check_layer(j, sub, idx, g, mv, pred, &found);
                if (what)
                    record_failure(j, g, what);
            }
    }
    __atomic_fetch_add(&j->found, found, __ATOMIC_RELAXED);
    free(mv);
    free(pred);
    return NULL;
}

typedef struct goal_arg {
    verify_job *j;
    uint32_t sub;
} goal_arg;

static void add_goal(void *arg, uint64_t idx)
{
    goal_arg *a = arg;
    const ptb_space *s = a->j->s;
    if (!ptb_in_space(s, a->sub, idx))
        return;                        /* (a wrong one is caught anyway) */
    uint64_t g = ptb_global(s, a->sub, idx), bit = (uint64_t)1 << (g & 63);
    if (!(a->j->cur[g >> 6] & bit))
        a->j->found++;
    a->j->cur[g >> 6] |= bit;
}

/* Runs one pass of the job; PTB_ECORRUPT names the first failure. */
static int run_pass(verify_job *j, unsigned threads, ptb_verify_result *res,
                    const char **what)
{
    j->take = 0;
    j->found = 0;
    ptb_run_threads(pass_worker, j, threads);
    if (j->nomem)
        return PTB_ENOMEM;
    if (j->bad == UINT64_MAX)
        return PTB_OK;
    *what = j->what;
    res->bad_state = 1;
    ptb_locate(j->s, j->bad, &res->sub, &res->idx);
    return PTB_ECORRUPT;
}

/* The stats record against the layers: its histogram counts them
 * (count[d]; layer max, the last, is j->cur), and its farthest states lie
 * in the last. */
static int check_stats(const ptb_table *t, const verify_job *j,
                       const uint64_t *count, unsigned max, const char **what)
{
    ptb_table_info in;
    if (ptb_table_get_info(t, &in) != PTB_OK) {
        *what = "the stats record is damaged";
        return PTB_ECORRUPT;
    }
    const char *bad = NULL;
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE && !bad; d++)
        if (in.histogram[d] != count[d])
            bad = "the histogram does not count the distances";
    for (unsigned i = 0; i < in.n_farthest && !bad; i++)
        if (in.max_distance != max ||
            !ptb_in_space(j->s, in.far_sub[i], in.far_idx[i]) ||
            !has(j->cur, ptb_global(j->s, in.far_sub[i], in.far_idx[i])))
            bad = "a farthest state is not at max_distance";
    if (bad)
        *what = bad;
    return bad ? PTB_ECORRUPT : PTB_OK;
}

/* The layers, from the goals out, then the states in no layer. */
static int check_layers(const ptb_table *t, verify_job *j, unsigned threads,
                        ptb_verify_result *res, const char **what)
{
    const ptb_space *s = j->s;
    uint64_t *count = calloc(PTB_MAX_DISTANCE + 1, sizeof *count);
    int rc = count ? PTB_OK : PTB_ENOMEM;
    unsigned d = 0;
    for (uint32_t sub = 0; rc == PTB_OK && sub < s->subtables; sub++) {
        goal_arg a = { j, sub };
        s->p->goals(s->ctx, sub, add_goal, &a);
    }
    for (uint64_t found = j->found; rc == PTB_OK; d++) {
        count[d] = found;
        j->d = d;
        if ((rc = run_pass(j, threads, res, what)) != PTB_OK ||
            !(found = j->found))
            break;
        if (d == PTB_MAX_DISTANCE) {
            *what = "a state farther than any table can store";
            rc = PTB_ECORRUPT;
            break;
        }
        uint64_t *free_bits = j->prev;
        for (uint64_t w = 0; w < j->words; w++) {
            j->old[w] |= free_bits[w];
            free_bits[w] = 0;
        }
        j->prev = j->cur;
        j->cur = j->next;
        j->next = free_bits;
    }
    if (rc == PTB_OK) {
        j->unsolvable = 1;
        rc = run_pass(j, threads, res, what);
    }
    if (rc == PTB_OK)
        rc = check_stats(t, j, count, d, what);
    free(count);
    return rc;
}

/* A space that ranks by an index read from a table (a described puzzle's
 * ranking, FORMAT.md) ranks as its description says: the index made again
 * from the description alone is the same, byte for byte.  Then *fresh
 * gets the space made from the description (its puzzle in *fp), which
 * ranks the same states the same way and faster (its graph built here
 * and hashed, where the table's is read lazily and checked node by node),
 * and the proof runs on it; NULL when s has no such index. */
static int check_index(const ptb_space *s, ptb_puzzle **fp,
                       ptb_space **fresh, const char **what)
{
    size_t len = 0, fresh_len = 0;
    const unsigned char *own = ptb_space_index(s, &len), *again;
    ptb_puzzle *p;
    ptb_space *f = NULL;
    if (!own || !s->p->stored)
        return PTB_OK;                  /* (built from the description) */
    /* (a built-in puzzle that keeps a description builds it afresh) */
    int rc = ptb_puzzle_find(s->p->name)
                 ? (p = (ptb_puzzle *)ptb_puzzle_find(s->p->name), PTB_OK)
                 : ptb_puzzle_load(s->p->description, &p, NULL, 0);
    if (rc != PTB_OK)
        return rc;
    rc = ptb_space_new(p, ptb_space_metric(s), &f);
    again = rc == PTB_OK ? ptb_space_index(f, &fresh_len) : NULL;
    if (rc == PTB_OK &&
        (!again || fresh_len != len || memcmp(again, own, len) ||
         f->subtables != s->subtables ||
         memcmp(f->offset, s->offset,
                (s->subtables + 1) * sizeof *s->offset))) {
        *what = "the stored ranking is not the description's";
        rc = PTB_ECORRUPT;
    }
    if (rc != PTB_OK) {
        ptb_space_close(f);
        ptb_puzzle_free(p);
        return rc;
    }
    *fp = p;
    *fresh = f;
    return PTB_OK;
}

int ptb_verify(const ptb_table *t, unsigned threads, ptb_verify_result *res)
{
    const ptb_space *s = ptb_table_space(t);
    uint64_t n = s->offset[s->subtables], words = (n + 63) / 64;
    unsigned m = ptb_table_modulus(t);
    size_t stored_len = m ? (n + 3) / 4 : n;
    verify_job j = { s, NULL, m, n, words, NULL, NULL, NULL, NULL, 0, 0, 0,
                     0, UINT64_MAX, NULL, 0 };
    uint64_t *bits = calloc(4 * (words ? words : 1), sizeof *bits);
    uint8_t *stored = calloc(stored_len ? stored_len : 1, 1);
    const char *what = NULL;
    ptb_puzzle *fp = NULL;
    ptb_space *fresh = NULL;
    int rc = bits && stored ? PTB_OK : PTB_ENOMEM;
    memset(res, 0, sizeof *res);
    if (threads < 1 || threads > 256)
        rc = PTB_EINVAL;
    if (rc == PTB_OK)
        rc = check_index(s, &fp, &fresh, &what);
    if (rc == PTB_OK)
        rc = ptb_table_decode_all(t, stored, m != 0, &what);
    if (rc == PTB_OK) {
        j.s = fresh ? fresh : s;
        j.stored = stored;
        j.old = bits;
        j.prev = bits + words;
        j.cur = bits + 2 * words;
        j.next = bits + 3 * words;
        rc = check_layers(t, &j, threads, res, &what);
    }
    rc = ptb_space_checked(s, rc);
    if (what && rc != PTB_OK)
        snprintf(res->what, sizeof res->what, "%s", what);
    res->checked = rc == PTB_OK ? n : 0;
    ptb_space_close(fresh);
    ptb_puzzle_free(fp);
    free(stored);
    free(bits);
    return rc;
}
