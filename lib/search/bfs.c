/* lib/search/bfs.c: the generic retrograde BFS and ptb_build().
 *
 * For each subtable: every goal gets distance 0; then layer by layer, every
 * state one unmove before a state of distance d and not yet reached gets
 * d + 1.  States never reached are unsolvable.  Distances are unique, so
 * the result does not depend on the order of work: small subtables run
 * whole, several at once, one per thread; a large subtable splits each
 * layer between the threads.
 *
 * The values are kept in one of two ways.  Exact tables, mod-4 ones
 * (whose bit is the distance's second) and --verify's proof keep 2 bytes
 * a state, the exact distance (PTB_UNSOLVABLE: not reached); the layer
 * being expanded is the states whose value is its distance.  Mod-3 tables
 * keep two bits a state, and during the search those bits are not the
 * residue but a code, as in Korf's two-bit breadth-first search: 3 not
 * reached, 0 expanded, and the layers alternate between 1 (even
 * distances) and 2 (odd ones), so the layer being expanded and the one
 * being found are told apart with no frontier bitmap (2 bits a state in
 * all).  The residues come back at the end from the checkpoint file
 * (checkpoint.c), which records every layer's states as the layer ends:
 * the build's own file, or an unnamed one in the output directory.  A
 * state is claimed for the next layer by writing its value, once, with an
 * atomic operation (a compare and swap; an AND that clears the bit its
 * code lacks).
 *
 * A layer is expanded by scanning the values in index order, in chunks of
 * CHUNK_STATES (a bit per chunk says which chunks hold a state of the
 * layer, another which got a claim, so a sparse layer costs no scan of
 * the whole index space), which the threads take in turn a word of those
 * bits, 64 chunks, at a time (one atomic add on a shared counter for as
 * many chunks, so the cores seldom pass its line).  Index order keeps
 * the work local when neighbouring states have nearby indices.  What the
 * layers find (the histogram, and of the last one the first states in
 * index order) is counted as they are claimed, so no pass over the values
 * is needed afterwards.
 *
 * Knows nothing of any puzzle: only the ops of lib/core/puzzle.h.
 */
#define _GNU_SOURCE                /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "search.h"

#define LARGE_SUBTABLE (1u << 20)  /* from here, layers are split */
#define SPLIT_LAYER 8192           /* from here, a layer uses every thread */
#define CHUNK_STATES 1024          /* states a thread takes at once */
#define NFAR 8                     /* farthest states kept (the info's) */
/* A cluster (ptb_build_opts.cluster) splits each subtable into slices of
 * whole chunks, one a process; a state claimed outside the slice goes to
 * the thread's outbox, which is delivered to its owner when full (before
 * a chunk could overflow it) or at the end of the layer. */
#define SLICE_STATES CHUNK_STATES
#define BOX_STATES ((uint64_t)1 << 21)
#define GATHER_WORDS ((uint64_t)1 << 20)   /* a process's part of a round
                                              of the final gather */
/* For the tests: with PTB_TEST_ROUND_CHUNKS=N in the environment, a
 * cluster's thread expands at most N chunks a round (many rounds a layer
 * on a small puzzle). */

/* Claims of states of other processes' slices (subtable indices). */
typedef struct outbox {
    uint64_t *q;
    uint64_t n;
} outbox;

/* The first states of a layer in index order, at most NFAR. */
typedef struct far_list {
    unsigned n;
    uint64_t idx[NFAR];
} far_list;

typedef struct layer_job {
    const ptb_space *s;
    uint32_t sub;
    uint64_t size;             /* the subtable's states */
    uint64_t lo;               /* the first of this process's slice, which
                                  is all of it without a cluster; the
                                  job's indices q count from it */
    uint16_t *dist;            /* exact values: the slice's */
    uint64_t *res;             /* or codes: every slice's two bits */
    uint64_t base;             /* ... of which this slice's first */
    /* a bit per chunk of CHUNK_STATES states: with a state at d; that got
     * a claim (a state at d + 1); they swap after each layer */
    uint64_t *cur_sum, *next_sum, *sums;
    uint64_t n, chunks;        /* the slice's states; its chunks */
    uint64_t take;             /* next chunk to take (atomic) */
    int alone;                 /* one thread: it takes every chunk itself */
    uint64_t found;            /* states claimed for the next layer
                                  (atomic); in a cluster, of every slice */
    uint64_t mine;             /* ... of this slice */
    unsigned depth;            /* distance of the layer being expanded */
    pthread_mutex_t lock;      /* for 'first' */
    far_list first;            /* of the layer being found */
    const ptb_cluster *cl;     /* or NULL */
    outbox *box;               /* cluster: one a thread */
    unsigned boxes, next_box;  /* how many; the next to take (atomic) */
    uint64_t round_chunks;     /* chunks a thread expands in a round at
                                  most (PTB_TEST_ROUND_CHUNKS), or 0 */
    uint64_t *xbuf;            /* cluster: 4 words a process, then what is
                                  sent (boxes * box_states words) */
    uint64_t *recv, recv_cap;  /* what is received */
    uint64_t recv_n, recv_next;/* how many; the next run to claim
                                  (atomic) */
    int stray;                 /* a state received is not this slice's */
    int nomem;                 /* a thread found no memory for its list */
    uint64_t box_states;       /* an outbox's room (box_room()) */
} layer_job;

/* Sets bit i of an atomic bitmap, testing it first: most bits a claim
 * sets are set already. */
static void mark(uint64_t *bits, uint64_t i)
{
    uint64_t *w = &bits[i >> 6], bit = (uint64_t)1 << (i & 63);
    if (!(__atomic_load_n(w, __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
}

/* The codes of the two-bit search (residues are put back at the end). */
#define CODE_NEW 3                 /* not reached */
#define CODE_OLD 0                 /* expanded */
#define EVEN_BITS 0x5555555555555555u

/* The word of residues (or codes) that holds state g's two bits, and
 * their shift in it. */
static uint64_t *res_word(uint64_t *res, uint64_t g, unsigned *sh)
{
    *sh = 2 * (unsigned)(g & 31);
    return &res[g >> 5];
}

/* The code of layer d's states. */
static unsigned layer_code(unsigned d)
{
    return 1 + (d & 1);
}

/* What the values of layer d's states hold: the distance, or its code. */
static unsigned layer_value(const layer_job *j, unsigned d)
{
    return j->dist ? d : layer_code(d);
}

/* States 32 u .. 32 u + 31 of the job's slice whose value is v: bit 2 i
 * for state 32 u + i. */
static uint64_t match(const layer_job *j, uint64_t u, unsigned v)
{
    uint64_t m = 0, q = 32 * u, k = j->n - q < 32 ? j->n - q : 32;
    if (j->dist) {
        for (unsigned i = 0; i < k; i++)
            m |= (uint64_t)(__atomic_load_n(&j->dist[q + i],
                                            __ATOMIC_RELAXED) == v)
                 << 2 * i;
        return m;
    }
    unsigned sh;
    const uint64_t *w = res_word(j->res, j->base + q, &sh);
    uint64_t x = __atomic_load_n(&w[0], __ATOMIC_RELAXED) >> sh;
    if (sh)
        x |= __atomic_load_n(&w[1], __ATOMIC_RELAXED) << (64 - sh);
    x ^= v * EVEN_BITS;
    m = ~(x | x >> 1) & EVEN_BITS;
    return k < 32 ? m & (((uint64_t)1 << 2 * k) - 1) : m;
}

/* Codes of states 32 u + i of the slice, for bit 2 i of m: their layer's
 * code (1 or 2) becomes CODE_OLD. */
static void retire(const layer_job *j, uint64_t u, uint64_t m,
                   unsigned code)
{
    unsigned sh;
    uint64_t *w = res_word(j->res, j->base + 32 * u, &sh);
    m *= code;                         /* the bit of each code */
    __atomic_fetch_and(&w[0], ~(m << sh), __ATOMIC_RELAXED);
    if (sh && m >> (64 - sh))
        __atomic_fetch_and(&w[1], ~(m >> (64 - sh)), __ATOMIC_RELAXED);
}

/* Writes value v (an exact distance, or a code) into state q when it has
 * none; true when this call did. */
static int set_value(layer_job *j, uint64_t q, unsigned v)
{
    if (j->dist) {
        uint16_t none = PTB_UNSOLVABLE;
        return __atomic_load_n(&j->dist[q], __ATOMIC_RELAXED) ==
                   PTB_UNSOLVABLE &&
               __atomic_compare_exchange_n(&j->dist[q], &none, (uint16_t)v, 0,
                                           __ATOMIC_RELAXED,
                                           __ATOMIC_RELAXED);
    }
    unsigned sh;
    uint64_t *w = res_word(j->res, j->base + q, &sh);
    return (__atomic_load_n(w, __ATOMIC_RELAXED) >> sh & 3) == CODE_NEW &&
           (__atomic_fetch_and(w, ~((uint64_t)(CODE_NEW ^ v) << sh),
                               __ATOMIC_RELAXED) >> sh & 3) == CODE_NEW;
}

/* Starts reading state q's value, to be claimed soon. */
static void prefetch_value(const layer_job *j, uint64_t q)
{
#if defined(__GNUC__)
    unsigned sh;
    if (j->dist)
        __builtin_prefetch(&j->dist[q], 1);
    else
        __builtin_prefetch(res_word(j->res, j->base + q, &sh), 1);
#else
    (void)j;
    (void)q;
#endif
}

/* Keeps q among the first NFAR of a list. */
static void far_add(far_list *f, uint64_t q)
{
    unsigned i = f->n < NFAR ? f->n++ : NFAR;
    if (i == NFAR && q >= f->idx[NFAR - 1])
        return;
    for (i = i == NFAR ? NFAR - 1 : i; i > 0 && f->idx[i - 1] > q; i--)
        f->idx[i] = f->idx[i - 1];
    f->idx[i] = q;
}

/* Claims state q for the next layer (its value, its chunk's bit); true
 * when this call did. */
static int claim(layer_job *j, uint64_t q, far_list *first)
{
    if (!set_value(j, q, layer_value(j, j->depth + 1)))
        return 0;
    mark(j->next_sum, q / CHUNK_STATES);
    far_add(first, j->lo + q);
    return 1;
}

/* The first state of process r's slice of a subtable of n states. */
static uint64_t slice_start(uint64_t n, unsigned r, unsigned ranks)
{
    uint64_t chunks = (n + SLICE_STATES - 1) / SLICE_STATES;
    uint64_t lo = chunks * r / ranks * SLICE_STATES;
    return lo < n ? lo : n;
}

/* The process whose slice holds state q of a subtable of n states. */
static unsigned slice_owner(uint64_t n, unsigned ranks, uint64_t q)
{
    uint64_t chunks = (n + SLICE_STATES - 1) / SLICE_STATES;
    unsigned r = (unsigned)(q / SLICE_STATES * ranks / chunks);
    while (r + 1 < ranks && slice_start(n, r + 1, ranks) <= q)
        r++;
    while (r > 0 && slice_start(n, r, ranks) > q)
        r--;
    return r;
}

/* Expands the states of chunk c of the current layer; returns how many
 * states it claimed for the next (those of other slices go to box). */
static uint64_t expand_chunk(layer_job *j, uint64_t c, uint64_t *pred,
                             far_list *first, outbox *box)
{
    const ptb_puzzle *p = j->s->p;
    unsigned want = layer_value(j, j->depth);
    uint64_t found = 0, from = c * (CHUNK_STATES / 32);
    uint64_t to = (j->n + 31) / 32;
    to = from + CHUNK_STATES / 32 < to ? from + CHUNK_STATES / 32 : to;
    for (uint64_t u = from; u < to; u++) {
        uint64_t m = match(j, u, want);
        if (!m)
            continue;
        for (uint64_t b = m; b; b &= b - 1) {
            uint64_t q = 32 * u + ptb_low_bit(b) / 2;
            unsigned n = p->unmoves(j->s->ctx, j->sub, j->lo + q, pred);
            for (unsigned i = 0; i < n; i++)    /* (their misses at once) */
                if (pred[i] - j->lo < j->n)
                    prefetch_value(j, pred[i] - j->lo);
            for (unsigned i = 0; i < n; i++) {
                uint64_t k = pred[i] - j->lo;
                if (k < j->n)
                    found += (uint64_t)claim(j, k, first);
                else
                    box->q[box->n++] = pred[i];
            }
        }
        if (!j->dist)
            retire(j, u, m, want);
    }
    return found;
}

/* A thread's claims into the job's count and list. */
static void add_found(layer_job *j, uint64_t found, const far_list *first)
{
    __atomic_fetch_add(&j->found, found, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->mine, found, __ATOMIC_RELAXED);
    pthread_mutex_lock(&j->lock);
    for (unsigned i = 0; i < first->n; i++)
        far_add(&j->first, first->idx[i]);
    pthread_mutex_unlock(&j->lock);
}

/* Expands the chunks of the current layer until none is left, by the
 * chunk summary: alone, every word of it; else taking its words (64
 * chunks) in turn with the other threads, and in a cluster its chunks,
 * only while the thread's outbox has room for a chunk's. */
static void *expand_worker(void *arg)
{
    layer_job *j = arg;
    uint64_t *pred = ptb_move_list(j->s, sizeof *pred), found = 0, c;
    far_list first = { 0, { 0 } };
    if (!pred) {
        __atomic_store_n(&j->nomem, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    outbox *box = j->box ? &j->box[__atomic_fetch_add(&j->next_box, 1,
                                                      __ATOMIC_RELAXED)]
                         : NULL;
    if (!box) {                        /* the summary's words in turn */
        uint64_t words = (j->chunks + 63) / 64, s;
        while ((s = j->alone ? j->take++
                             : __atomic_fetch_add(&j->take, 1,
                                                  __ATOMIC_RELAXED)) < words)
            for (uint64_t b = j->cur_sum[s]; b; b &= b - 1)
                found += expand_chunk(j, s << 6 | ptb_low_bit(b), pred,
                                      &first, NULL);
    } else {
        for (uint64_t k = 0;
             box->n <= j->box_states - SLICE_STATES * j->s->max_moves &&
             (!j->round_chunks || k++ < j->round_chunks) &&
             (c = __atomic_fetch_add(&j->take, 1, __ATOMIC_RELAXED)) <
                 j->chunks;)
            if (j->cur_sum[c >> 6] >> (c & 63) & 1)
                found += expand_chunk(j, c, pred, &first, box);
    }
    add_found(j, found, &first);
    free(pred);
    return NULL;
}

/* An outbox's room: BOX_STATES, or twice a chunk's claims at most when
 * that is more (a description whose states have many moves). */
static uint64_t box_room(const ptb_space *s)
{
    uint64_t chunk = SLICE_STATES * (uint64_t)s->max_moves;
    return 2 * chunk > BOX_STATES ? 2 * chunk : BOX_STATES;
}

/* Goals (of the slice) go into the first layer. */
static void add_goal(void *arg, uint64_t idx)
{
    layer_job *j = arg;
    uint64_t q = idx - j->lo;
    if (q < j->n && set_value(j, q, layer_value(j, 0))) {
        mark(j->cur_sum, q / CHUNK_STATES);
        far_add(&j->first, idx);
        j->found++;
        j->mine++;
    }
}

/* ---- a cluster's part ---- */

/* Every process's v, into all[rank] on every process. */
static int share(const ptb_cluster *cl, uint64_t v, uint64_t *all)
{
    uint64_t *x = malloc(2 * (uint64_t)cl->ranks * sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    for (unsigned r = 0; r < cl->ranks; r++) {
        x[r] = 1;                      /* a word each way */
        x[cl->ranks + r] = v;
    }
    int rc = cl->exchange(cl->ctx, x + cl->ranks, x, all, x);
    free(x);
    return rc;
}

/* The code of the first process (by rank) that failed, or PTB_OK: every
 * process goes on, or gives up, together.  Without a cluster, rc. */
static int agree(const ptb_cluster *cl, int rc)
{
    uint64_t *all = cl ? malloc(cl->ranks * sizeof *all) : NULL;
    if (!cl)
        return rc;
    int shared = all ? share(cl, (uint64_t)(int64_t)rc, all) : PTB_ENOMEM;
    for (unsigned r = 0; shared == PTB_OK && r < cl->ranks; r++)
        if (all[r] != PTB_OK) {
            shared = (int)(int64_t)all[r];
            break;
        }
    free(all);
    return shared;
}

/* Claims what the other processes sent this one, in runs of CLAIM_RUN
 * taken in turn by the threads. */
#define CLAIM_RUN 4096
static void *claim_worker(void *arg)
{
    layer_job *j = arg;
    uint64_t found = 0, at;
    far_list first = { 0, { 0 } };
    while ((at = __atomic_fetch_add(&j->recv_next, CLAIM_RUN,
                                    __ATOMIC_RELAXED)) < j->recv_n) {
        uint64_t end = j->recv_n - at < CLAIM_RUN ? j->recv_n
                                                  : at + CLAIM_RUN;
        for (; at < end; at++) {
            uint64_t q = j->recv[at] - j->lo;
            if (q < j->n)
                found += (uint64_t)claim(j, q, &first);
            else
                __atomic_store_n(&j->stray, 1, __ATOMIC_RELAXED);
        }
    }
    add_found(j, found, &first);
    return NULL;
}

/* Sends the outboxes' claims to their owners and claims what the others
 * sent this process (all of its slice), on 'threads' threads. */
static int deliver(layer_job *j, unsigned threads)
{
    const ptb_cluster *cl = j->cl;
    unsigned ranks = cl->ranks;
    uint64_t *count = j->xbuf, *got = count + ranks, *one = got + ranks;
    uint64_t *at = one + ranks, *send = at + ranks, total = 0;
    memset(count, 0, ranks * sizeof *count);
    for (unsigned b = 0; b < j->boxes; b++)
        for (uint64_t i = 0; i < j->box[b].n; i++)
            count[slice_owner(j->size, ranks, j->box[b].q[i])]++;
    for (unsigned r = 0; r < ranks; r++) {
        one[r] = 1;
        at[r] = r ? at[r - 1] + count[r - 1] : 0;
    }
    for (unsigned b = 0; b < j->boxes; b++) {
        for (uint64_t i = 0; i < j->box[b].n; i++) {
            uint64_t q = j->box[b].q[i];
            send[at[slice_owner(j->size, ranks, q)]++] = q;
        }
        j->box[b].n = 0;
    }
    int rc = cl->exchange(cl->ctx, count, one, got, one);
    for (unsigned r = 0; r < ranks; r++)
        total += got[r];
    if (rc == PTB_OK && total > j->recv_cap) {
        uint64_t *m = realloc(j->recv, total * sizeof *m);
        if (m) {
            j->recv = m;
            j->recv_cap = total;
        } else {
            rc = PTB_ENOMEM;
        }
    }
    if ((rc = agree(cl, rc)) == PTB_OK)   /* all exchange, or none */
        rc = cl->exchange(cl->ctx, send, count, j->recv, got);
    if (rc != PTB_OK)
        return rc;
    j->recv_n = total;
    j->recv_next = 0;
    ptb_run_threads(claim_worker, j, total >= SPLIT_LAYER ? threads : 1);
    return j->stray ? PTB_ECORRUPT : PTB_OK;  /* not this process's */
}

/* Expands a layer in rounds, each ending with the claims delivered, until
 * every process has expanded its part; then j->found counts the claims of
 * every process. */
static int cluster_layer(layer_job *j, unsigned threads)
{
    const ptb_cluster *cl = j->cl;
    uint64_t more;
    int rc;
    do {
        j->next_box = 0;
        ptb_run_threads(expand_worker, j, threads);
        rc = deliver(j, threads);
        if ((rc = agree(cl, rc == PTB_OK && j->nomem ? PTB_ENOMEM : rc)) !=
            PTB_OK)
            return rc;
        more = j->take < j->chunks;
        if ((rc = cl->sum(cl->ctx, &more, 1)) != PTB_OK)
            return rc;
    } while (more);
    return cl->sum(cl->ctx, &j->found, 1);
}

/* The first states of every process's list: each process's f becomes the
 * same list, the first NFAR of them all. */
static int merge_far(const ptb_cluster *cl, far_list *f)
{
    unsigned ranks = cl->ranks, w = NFAR + 1;
    uint64_t *count = calloc((uint64_t)ranks * (2 * w + 1), sizeof *count);
    int rc = agree(cl, count ? PTB_OK : PTB_ENOMEM);
    if (rc != PTB_OK) {
        free(count);
        return rc;
    }
    uint64_t *send = count + ranks, *recv = send + ranks * w;
    for (unsigned r = 0; r < ranks; r++) {
        count[r] = w;
        send[r * w] = f->n;
        memcpy(&send[r * w + 1], f->idx, sizeof f->idx);
    }
    rc = cl->exchange(cl->ctx, send, count, recv, count);
    f->n = 0;
    for (unsigned r = 0; rc == PTB_OK && r < ranks; r++)
        for (uint64_t i = 0; i < recv[r * w] && i < NFAR; i++)
            far_add(f, recv[r * w + 1 + i]);
    free(count);
    return rc;
}

static void free_job(layer_job *j)
{
    for (unsigned t = 0; j->box && t < j->boxes; t++)
        free(j->box[t].q);
    free(j->box);
    free(j->xbuf);
    free(j->recv);
    free(j->sums);
}

/* The states of a layer in index order, for its checkpoint record: those
 * whose value is v, in the chunks marked in cur_sum. */
typedef struct layer_reader {
    const layer_job *j;
    unsigned v;
    uint64_t u, m;             /* the states' group (32), its matches */
} layer_reader;

static uint64_t next_in_layer(void *arg)
{
    layer_reader *r = arg;
    const layer_job *j = r->j;
    uint64_t groups = (j->n + 31) / 32, per = CHUNK_STATES / 32;
    while (!r->m) {
        if (++r->u >= groups)
            return UINT64_MAX;
        if (!(j->cur_sum[r->u / per >> 6] >> (r->u / per & 63) & 1))
            r->u = (r->u / per + 1) * per - 1;   /* a chunk without one */
        else
            r->m = match(j, r->u, r->v);
    }
    uint64_t q = 32 * r->u + ptb_low_bit(r->m) / 2;
    r->m &= r->m - 1;
    return q;
}

/* Records layer d (the states marked in cur_sum whose value says d) in
 * the checkpoint; last: every slice's is empty.  PTB_OK or an errno. */
static int record_layer(ptb_ckpt *ck, layer_job *j, unsigned d, int last)
{
    layer_reader r = { j, layer_value(j, d), UINT64_MAX, 0 };
    return ptb_ckpt_layer(ck, j->sub, d, last, j->mine, next_in_layer,
                          &r);
}

/* A state of the layer a resumed build goes on from (its value, exact or
 * CODE_OLD, replayed): into the current layer. */
static int resume_state(void *arg, uint32_t sub, unsigned d, uint64_t q)
{
    layer_job *j = arg;
    (void)sub;
    if (!j->dist) {
        unsigned sh;
        uint64_t *w = res_word(j->res, j->base + q, &sh);
        __atomic_fetch_or(w, (uint64_t)layer_code(d) << sh, __ATOMIC_RELAXED);
    }
    mark(j->cur_sum, q / CHUNK_STATES);
    j->found++;
    j->mine++;
    return PTB_OK;
}

/* What one subtable's BFS found. */
typedef struct sub_result {
    unsigned max;                  /* its largest distance */
    far_list far;                  /* its first states at max */
    uint64_t replayed;             /* its states the checkpoint gave back
                                      (this process's) */
} sub_result;

typedef struct build_ctx {
    const ptb_space *s;
    const ptb_build_opts *o;
    const ptb_cluster *cl;         /* or NULL */
    ptb_values *v;                 /* of this process's slices */
    /* of each subtable: this process's slice, its first state and its
     * states; where the slice's values start in v (subtables + 1
     * entries; the global offsets without a cluster) */
    uint64_t *lo, *len, *local;
    ptb_ckpt *ck;                  /* the checkpoint, or NULL */
    sub_result *sub;               /* of each subtable */
    pthread_mutex_t lock;          /* for v->info.histogram */
    uint64_t done;                 /* states settled, for progress */
    uint32_t next_sub;             /* next small subtable (atomic) */
    int rc;
} build_ctx;

static void report(build_ctx *b, uint64_t done)
{
    if (b->o->progress)
        b->o->progress(b->o->progress_ctx, "search", done,
                       b->s->offset[b->s->subtables]);
}

/* A cluster's job gets its outboxes and the exchange's buffer (every
 * member agreeing: PTB_OK, or each returns the code). */
static int make_boxes(layer_job *j, unsigned threads)
{
    int rc = PTB_OK;
    const char *test = getenv("PTB_TEST_ROUND_CHUNKS");
    j->round_chunks = test ? strtoull(test, NULL, 10) : 0;
    j->boxes = threads;
    j->box_states = box_room(j->s);
    j->box = calloc(threads, sizeof *j->box);
    j->xbuf = malloc((4 * j->cl->ranks + threads * j->box_states) *
                     sizeof *j->xbuf);
    for (unsigned t = 0; j->box && t < threads; t++)
        if (!(j->box[t].q = malloc(j->box_states * sizeof *j->box[t].q)))
            rc = PTB_ENOMEM;
    if (!j->sums || !j->box || !j->xbuf)
        rc = PTB_ENOMEM;
    return agree(j->cl, rc);
}

/* The layer a subtable's search starts from: the goals, recorded; or,
 * resumed, the last layer the checkpoint recorded (last >= 0), with the
 * states of the layers before it into *before (every process's). */
static int first_layer(build_ctx *b, layer_job *j, int last, uint64_t *before)
{
    const ptb_space *s = b->s;
    int rc = PTB_OK;
    *before = 0;
    if (last >= 0) {
        rc = ptb_ckpt_front(b->ck, j->sub, resume_state, j);
        j->first = b->sub[j->sub].far;
        rc = agree(j->cl, rc);
        uint64_t n[2] = { j->found, b->sub[j->sub].replayed - j->found };
        if (j->cl && rc == PTB_OK)
            rc = j->cl->sum(j->cl->ctx, n, 2);
        j->found = n[0];
        *before = n[1];
    } else {
        s->p->goals(s->ctx, j->sub, add_goal, j);
        if (j->cl)
            rc = j->cl->sum(j->cl->ctx, &j->found, 1);
        if (b->ck && rc == PTB_OK)
            rc = agree(j->cl, record_layer(b->ck, j, 0, !j->found));
    }
    return rc;
}

/* The BFS of one subtable, on 'threads' threads, into its values, its
 * sub_result and the histogram.  progress: report after each layer (only
 * from the calling thread). */
static int bfs_subtable(build_ctx *b, uint32_t sub, unsigned threads,
                        int progress)
{
    const ptb_space *s = b->s;
    uint64_t n = b->len[sub], reached = 0;
    uint64_t hist[PTB_MAX_DISTANCE + 1] = { 0 };
    int rc = PTB_OK, over = 0;
    int last = b->ck ? ptb_ckpt_state(b->ck, sub, &over) : -1;
    if (over)                          /* replayed whole */
        return b->cl ? merge_far(b->cl, &b->sub[sub].far) : PTB_OK;
    layer_job j = { .s = s, .sub = sub, .n = n, .lo = b->lo[sub],
                    .size = s->offset[sub + 1] - s->offset[sub],
                    .base = b->local[sub], .res = b->v->res, .cl = b->cl };
    if (b->v->dist)
        j.dist = b->v->dist + b->local[sub];
    j.chunks = (n + CHUNK_STATES - 1) / CHUNK_STATES;
    uint64_t sums = (j.chunks + 63) / 64 + 1;
    j.cur_sum = j.sums = calloc(2 * sums, sizeof *j.sums);
    if (!j.sums && !j.cl)
        return PTB_ENOMEM;
    if (j.cl && (rc = make_boxes(&j, threads)) != PTB_OK) {
        free_job(&j);
        return rc;
    }
    j.next_sum = j.cur_sum + sums;
    pthread_mutex_init(&j.lock, NULL);
    sub_result *r = &b->sub[sub];
    rc = first_layer(b, &j, last, &reached);
    for (unsigned d = last >= 0 ? (unsigned)last : 0; rc == PTB_OK && j.found;
         d++) {
        if ((int)d != last)            /* (a replayed layer is counted) */
            hist[d] = j.found;
        r->max = d;
        r->far = j.first;
        if (d >= PTB_MAX_DISTANCE) {
            rc = PTB_ERANGE;
            break;
        }
        unsigned t = j.found >= SPLIT_LAYER ? threads : 1;
        j.alone = t == 1 && !j.cl;
        reached += j.found;
        j.found = j.mine = 0;
        j.take = 0;
        j.depth = d;
        j.first.n = 0;
        if (j.cl)
            rc = cluster_layer(&j, t);
        else
            ptb_run_threads(expand_worker, &j, t);
        if (rc == PTB_OK && j.nomem)
            rc = PTB_ENOMEM;
        uint64_t *done = j.cur_sum;
        memset(done, 0, sums * sizeof *done);
        j.cur_sum = j.next_sum;
        j.next_sum = done;
        if (b->ck && rc == PTB_OK)
            rc = agree(j.cl, record_layer(b->ck, &j, d + 1, !j.found));
        if (progress && b->o->progress && j.found)
            b->o->progress(b->o->progress_ctx, "layer", d + 1, j.found);
        if (progress)
            report(b, b->done + reached + j.found);
    }
    if (j.cl && rc == PTB_OK)          /* the farthest of every slice */
        rc = merge_far(j.cl, &r->far);
    pthread_mutex_destroy(&j.lock);
    free_job(&j);
    pthread_mutex_lock(&b->lock);
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        b->v->info.histogram[d] += hist[d];
    pthread_mutex_unlock(&b->lock);
    return rc;
}

/* Takes small subtables one by one and runs each whole on this thread. */
static void *small_worker(void *arg)
{
    build_ctx *b = arg;
    const ptb_space *s = b->s;
    for (;;) {
        uint32_t sub = __atomic_fetch_add(&b->next_sub, 1, __ATOMIC_RELAXED);
        if (sub >= s->subtables ||
            __atomic_load_n(&b->rc, __ATOMIC_RELAXED) != PTB_OK)
            break;
        uint64_t n = s->offset[sub + 1] - s->offset[sub];
        if (n >= LARGE_SUBTABLE)
            continue;
        int rc = bfs_subtable(b, sub, 1, 0);
        if (rc != PTB_OK)
            __atomic_store_n(&b->rc, rc, __ATOMIC_RELAXED);
        __atomic_add_fetch(&b->done, n, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* Distances of every state of every subtable (in a cluster, one subtable
 * after the other, each split between the processes). */
static int bfs_all(build_ctx *b)
{
    const ptb_space *s = b->s;
    for (uint32_t sub = 0; b->cl && b->rc == PTB_OK && sub < s->subtables;
         sub++) {
        uint64_t n = s->offset[sub + 1] - s->offset[sub];
        b->rc = bfs_subtable(b, sub, b->o->threads, n >= LARGE_SUBTABLE);
        report(b, b->done += n);
    }
    if (b->cl)
        return b->rc;
    ptb_run_threads(small_worker, b, b->o->threads);
    report(b, b->done);
    for (uint32_t sub = 0; b->rc == PTB_OK && sub < s->subtables; sub++) {
        uint64_t n = s->offset[sub + 1] - s->offset[sub];
        if (n < LARGE_SUBTABLE)
            continue;
        b->rc = bfs_subtable(b, sub, b->o->threads, 1);
        b->done += n;
    }
    return b->rc;
}

/* The solvable count, largest distance and the first farthest states in
 * global order, from the histogram and the subtables' results. */
static void summarize(const ptb_space *s, const sub_result *r,
                      ptb_table_info *info)
{
    info->states = s->offset[s->subtables];
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++) {
        info->solvable += info->histogram[d];
        if (info->histogram[d])
            info->max_distance = d;
    }
    for (uint32_t sub = 0; sub < s->subtables && info->solvable; sub++)
        for (unsigned i = 0; r[sub].max == info->max_distance &&
                             i < r[sub].far.n && info->n_farthest < NFAR;
             i++) {
            info->far_sub[info->n_farthest] = sub;
            info->far_idx[info->n_farthest++] = r[sub].far.idx[i];
        }
}

void ptb_build_opts_init(ptb_build_opts *o)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    memset(o, 0, sizeof *o);
    o->threads = cores < 1 ? 1 : cores > 256 ? 256 : (unsigned)cores;
    o->zstd_level = 19;
}

static int check_opts(const ptb_build_opts *o)
{
    const ptb_cluster *cl = o->cluster;
    return o->threads < 1 || o->threads > 256 || o->zstd_level < 1 ||
           o->zstd_level > 19 ||
           (o->encoding && !ptb_table_encoding_known(o->encoding)) ||
           (cl && (cl->ranks < 1 || cl->rank >= cl->ranks ||
                   !cl->exchange || !cl->sum))
               ? PTB_EINVAL
               : PTB_OK;
}

/* A checkpoint's state: state idx of this process's slice of subtable sub
 * is at distance d (its value: exact, or CODE_OLD until the layer it
 * resumes from is known). */
static int replay(void *arg, uint32_t sub, unsigned d, uint64_t idx)
{
    build_ctx *b = arg;
    ptb_values *v = b->v;
    sub_result *r = &b->sub[sub];
    layer_job j = { .n = b->len[sub], .base = b->local[sub], .res = v->res,
                    .dist = v->dist ? v->dist + b->local[sub] : NULL };
    if (!set_value(&j, idx, v->dist ? d : CODE_OLD))
        return PTB_ECORRUPT;           /* found twice */
    v->info.histogram[d]++;
    r->replayed++;
    if (d > r->max || !r->far.n) {
        r->max = d;
        r->far.n = 0;
    }
    far_add(&r->far, b->lo[sub] + idx);
    return PTB_OK;
}

/* The checkpoint's record of a state at distance d, once the search is
 * over: its code, CODE_OLD, becomes its residue. */
static int put_residue(void *arg, uint32_t sub, unsigned d, uint64_t idx)
{
    build_ctx *b = arg;
    unsigned sh;
    uint64_t *w = res_word(b->v->res, b->local[sub] + idx, &sh);
    if ((*w >> sh & 3) != CODE_OLD)
        return PTB_EIO;                /* not expanded, or twice */
    *w |= (uint64_t)(d % 3) << sh;
    return PTB_OK;
}

/* This process's slice of each subtable (the whole of it without a
 * cluster), and where its values go; PTB_ENOMEM. */
static int slice_all(build_ctx *b)
{
    const ptb_space *s = b->s;
    unsigned rank = b->cl ? b->cl->rank : 0, ranks = b->cl ? b->cl->ranks : 1;
    if (!(b->lo = malloc((3 * (uint64_t)s->subtables + 1) * sizeof *b->lo)))
        return PTB_ENOMEM;
    b->len = b->lo + s->subtables;
    b->local = b->len + s->subtables;
    b->local[0] = 0;
    for (uint32_t sub = 0; sub < s->subtables; sub++) {
        uint64_t n = s->offset[sub + 1] - s->offset[sub];
        b->lo[sub] = slice_start(n, rank, ranks);
        b->len[sub] = slice_start(n, rank + 1, ranks) - b->lo[sub];
        b->local[sub + 1] = b->local[sub] + b->len[sub];
    }
    return PTB_OK;
}

/* The words of n states' residues (one more than they fill: match() reads
 * the word after a state's). */
#define RES_WORDS(n) ((n) / 32 + 2)

/* Every value of n states unknown. */
static void values_unknown(ptb_values *v, uint64_t n)
{
    if (v->res)
        memset(v->res, 0xFF, RES_WORDS(n) * sizeof *v->res);
    else
        for (uint64_t g = 0; g < n; g++)
            v->dist[g] = PTB_UNSOLVABLE;
}

/* Values of n states, exact (2 bytes) or mod 3 (2 bits), each unknown;
 * PTB_ENOMEM. */
static int values_new(ptb_values *v, int residues, uint64_t n)
{
    if (residues)
        v->res = malloc(RES_WORDS(n) * sizeof *v->res);
    else
        v->dist = malloc((n ? n : 1) * sizeof *v->dist);
    if (!v->res && !v->dist)
        return PTB_ENOMEM;
    values_unknown(v, n);
    return PTB_OK;
}

/* values_new()'s, in an unnamed file of dir, mapped (ptb_distances());
 * its blocks allocated, so that a full disk is an error here, not a
 * SIGBUS later (in memory where dir is NULL).  errno on failure. */
static int values_map(ptb_values *v, int residues, uint64_t n,
                      const char *dir)
{
    size_t bytes = residues ? RES_WORDS(n) * sizeof *v->res
                            : (n ? n : 1) * sizeof *v->dist;
    void *p = MAP_FAILED;
    int fd, rc;
    if (!dir)
        return values_new(v, residues, n);
    if ((fd = ptb_unnamed_file(dir)) < 0)
        return errno;
    rc = fallocate(fd, 0, 0, (off_t)bytes) ? errno : 0;
    if (rc == EOPNOTSUPP)
        rc = ftruncate(fd, (off_t)bytes) ? errno : 0;
    if (!rc && (p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                         fd, 0)) == MAP_FAILED)
        rc = errno;
    close(fd);
    if (rc)
        return rc;
    v->mapped = bytes;
    if (residues)
        v->res = p;
    else
        v->dist = p;
    values_unknown(v, n);
    return PTB_OK;
}

/* The states of process r's slice of a subtable of n states from its
 * state 'from' on that go in a round of the gather. */
static uint64_t gather_part(uint64_t n, unsigned r, unsigned ranks,
                            uint64_t from, unsigned per)
{
    uint64_t k = slice_start(n, r + 1, ranks) - slice_start(n, r, ranks) -
                 from;
    return k < GATHER_WORDS * per ? k : GATHER_WORDS * per;
}

/* Gathers every process's values into process 0's out (in rounds of at
 * most GATHER_WORDS words from each, 32 residues or 4 exact values a
 * word), from its own slices' (b->v); the others' out gets none. */
static int gather(build_ctx *b, const char *dir, ptb_values *out)
{
    const ptb_cluster *cl = b->cl;
    const ptb_space *s = b->s;
    unsigned ranks = cl->ranks, me = cl->rank, per = b->v->res ? 32 : 4;
    unsigned bits = 64 / per;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t *count = malloc((3 * (uint64_t)ranks + GATHER_WORDS *
                              (me ? 1 : ranks + 1)) * sizeof *count);
    uint64_t *got = count + ranks, *pos = got + ranks, *buf = pos + ranks;
    int rc = count ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK && me == 0)
        rc = values_map(out, b->v->res != NULL, s->offset[s->subtables], dir);
    if ((rc = agree(cl, rc)) != PTB_OK) {
        free(count);
        return rc;
    }
    for (uint32_t sub = 0; rc == PTB_OK && sub < s->subtables; sub++) {
        uint64_t n = s->offset[sub + 1] - s->offset[sub], left = 1;
        memset(pos, 0, ranks * sizeof *pos);
        while (rc == PTB_OK && left) {
            uint64_t mine = gather_part(n, me, ranks, pos[me], per), *recv;
            left = 0;
            for (unsigned r = 0; r < ranks; r++) {
                uint64_t k = gather_part(n, r, ranks, pos[r], per);
                got[r] = me ? 0 : (k + per - 1) / per;
                count[r] = r ? 0 : (mine + per - 1) / per;
                left |= k;
            }
            recv = me ? buf : buf + count[0];
            memset(buf, 0, count[0] * sizeof *buf);
            for (uint64_t i = 0; i < mine; i++)
                buf[i / per] |= (uint64_t)ptb_value(b->v, b->local[sub] +
                                                               pos[me] + i)
                                << (bits * (i % per));
            if (left)
                rc = cl->exchange(cl->ctx, buf, count, recv, got);
            for (unsigned r = 0; rc == PTB_OK && r < ranks; r++) {
                uint64_t k = gather_part(n, r, ranks, pos[r], per);
                uint64_t g = s->offset[sub] + slice_start(n, r, ranks) +
                             pos[r];
                for (uint64_t i = 0; me == 0 && i < k; i++, g++) {
                    uint64_t x = recv[i / per] >> (bits * (i % per)) & mask;
                    if (out->dist)
                        out->dist[g] = (uint16_t)x;
                    else
                        out->res[g >> 5] &= ~((3 ^ x) << (2 * (g & 31)));
                }
                recv += got[r];
                pos[r] += k;
            }
        }
    }
    free(count);
    return rc;
}

/* Every value unknown, nothing found. */
static void reset(build_ctx *b, uint64_t total)
{
    values_unknown(b->v, total);
    memset(b->v->info.histogram, 0, sizeof b->v->info.histogram);
    memset(b->sub, 0, b->s->subtables * sizeof *b->sub);
}

void ptb_values_free(ptb_values *v)
{
    if (v->mapped)
        munmap(v->dist ? (void *)v->dist : (void *)v->res, v->mapped);
    else {
        free(v->dist);
        free(v->res);
    }
    v->dist = NULL;
    v->res = NULL;
    v->mapped = 0;
}

/* Opens the build's checkpoint and replays what an earlier run found.  In
 * a cluster, every process replays as many records as the one with the
 * fewest (a process killed may have written one record fewer than the
 * others), and then the histogram is the sum of theirs and each
 * subtable's farthest states those of its last layer. */
static int resume(build_ctx *b, const ptb_ckpt_of *of, uint64_t total)
{
    const ptb_cluster *cl = b->cl;
    const ptb_space *s = b->s;
    uint64_t limit = UINT64_MAX, *all = NULL;
    int rc = PTB_OK;
    if (cl) {
        if (!(all = malloc(cl->ranks * sizeof *all)))
            rc = PTB_ENOMEM;
        if (rc == PTB_OK)
            rc = ptb_ckpt_records(of, &limit);
        if ((rc = agree(cl, rc)) == PTB_OK)
            rc = share(cl, limit, all);
        for (unsigned r = 0; rc == PTB_OK && r < cl->ranks; r++)
            limit = all[r] < limit ? all[r] : limit;
        free(all);
    }
    if (rc == PTB_OK)
        rc = agree(cl, ptb_ckpt_open(of, 0, limit, replay, b, &b->ck));
    if (rc == PTB_ECORRUPT) {          /* a state twice: start afresh */
        ptb_ckpt_close(b->ck);
        b->ck = NULL;
        reset(b, total);
        rc = agree(cl, ptb_ckpt_open(of, 1, 0, replay, b, &b->ck));
    }
    if (rc != PTB_OK || !cl)
        return rc;
    rc = cl->sum(cl->ctx, b->v->info.histogram, PTB_MAX_DISTANCE + 1);
    for (uint32_t sub = 0; sub < s->subtables; sub++) {
        int over, last = ptb_ckpt_state(b->ck, sub, &over);
        unsigned max = last - over > 0 ? (unsigned)(last - over) : 0;
        sub_result *r = &b->sub[sub];
        if (last >= 0 && r->max != max)
            r->far.n = 0;              /* none of this slice's at max */
        if (last >= 0)
            r->max = max;
    }
    return rc;
}

int ptb_distances(const ptb_space *s, const ptb_build_opts *o, int residues,
                  const char *dir, ptb_values *out)
{
    memset(out, 0, sizeof *out);
    if (check_opts(o) != PTB_OK)
        return PTB_EINVAL;
    ptb_values mine = { 0 };           /* a cluster's process: its slices' */
    build_ctx b = { .s = s, .o = o, .cl = o->cluster, .rc = PTB_OK,
                    .v = o->cluster ? &mine : out };
    int rc = slice_all(&b);
    uint64_t total = rc == PTB_OK ? b.local[s->subtables] : 0;
    if (rc == PTB_OK)
        rc = values_new(b.v, residues, total);
    if (!(b.sub = calloc(s->subtables, sizeof *b.sub)))
        rc = PTB_ENOMEM;
    rc = agree(b.cl, rc);              /* every process gives up, or none */
    pthread_mutex_init(&b.lock, NULL);
    ptb_ckpt_of of = { o->checkpoint, s, residues, b.cl ? b.cl->rank : 0,
                       b.cl ? b.cl->ranks : 1, b.len, dir };
    if (rc == PTB_OK && o->checkpoint)
        rc = resume(&b, &of, total);
    else if (rc == PTB_OK && residues)  /* for the residues: unnamed */
        rc = agree(b.cl, ptb_ckpt_open(&of, 1, 0, NULL, NULL, &b.ck));
    uint64_t replayed = 0;
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        replayed += b.v->info.histogram[d];
    if (rc == PTB_OK && replayed && o->progress)
        o->progress(o->progress_ctx, "resume", replayed,
                    s->offset[s->subtables]);
    if (rc == PTB_OK)
        rc = bfs_all(&b);
    if (rc == PTB_OK && residues)      /* every code CODE_OLD or CODE_NEW */
        rc = agree(b.cl, ptb_ckpt_replay(b.ck, put_residue, &b));
    ptb_ckpt_close(b.ck);
    if (rc == PTB_OK)
        summarize(s, b.sub, &b.v->info);
    if (rc == PTB_OK && b.cl) {
        out->info = mine.info;
        rc = gather(&b, dir, out);
    }
    pthread_mutex_destroy(&b.lock);
    ptb_values_free(&mine);
    free(b.sub);
    free(b.lo);
    if (rc != PTB_OK)
        ptb_values_free(out);
    return rc;
}

int ptb_build(const ptb_space *s, const char *dir, const ptb_build_opts *o,
              ptb_table_info *info)
{
    ptb_build_opts defaults;
    ptb_values v;
    if (!o) {
        ptb_build_opts_init(&defaults);
        o = &defaults;
    }
    /* mod-3 tables need only the residues; mod-4 ones (a parity) and
     * exact ones the distances */
    const ptb_cluster *cl = o->cluster;
    int rc = ptb_distances(s, o, s->p->reversible && !s->p->parity, dir,
                           &v);
    if (rc == PTB_OK) {
        *info = v.info;
        if (!cl || cl->rank == 0)
            rc = ptb_table_write(s, dir, &v, o, info);
    }
    ptb_values_free(&v);
    rc = agree(cl, rc);                /* process 0's writing, for all */
    /* written or failed, the build is over: only a killed one leaves its
     * checkpoint */
    if (o->checkpoint && unlink(o->checkpoint) && errno != ENOENT &&
        rc == PTB_OK)
        rc = errno;
    return rc;
}

/* The plan's bound on the peak: during the BFS, the values (two bits a
 * state with residues, else 2 bytes) and the chunks' two bits; then the
 * values and what the writer holds: for a reversible puzzle, at most the
 * table's size in packed3 with its checks (packed values are made in
 * LMDB's map of the file and take only their checks; a zstd table, used
 * only when at most 40 % of that, holds its frames and its record; past
 * PTB_IN_PLACE_STATES, only the checks); for the others, a byte a state
 * and as much again.  Plus a
 * fixed allowance for the rest (the puzzle's own tables, zstd, the heap).
 * Measured peaks: BENCHMARKS.md. */
#define PLAN_FIXED ((uint64_t)64 << 20)
/* the chunks' bits of n states (in one subtable: at most this) */
#define SUMS_BYTES(n) (2 * 8 * ((n) / CHUNK_STATES / 64 + 2))
#define PLAN_SAMPLE 20000          /* states whose moves the plan times, */
#define PLAN_RUN 100               /* in runs of neighbouring indices, as
                                      the search expands them */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPU seconds of making the moves into every state, from a sample
 * spread evenly over the index space; then, with the sample's moves made
 * again (untimed), the moves a state (*moves) and the share of them into
 * another process's slice (*remote) when the build is split between
 * 'ranks' processes. */
static double sample_seconds(const ptb_space *s, uint64_t n, unsigned ranks,
                             double *moves, double *remote)
{
    uint64_t *pred = ptb_move_list(s, sizeof *pred);
    uint64_t k = n < PLAN_SAMPLE ? n : PLAN_SAMPLE;
    uint64_t runs = (k + PLAN_RUN - 1) / PLAN_RUN, done = 0, made = 0;
    uint64_t away = 0;
    double t = 0;
    if (pred && n) {                    /* (untimed: a space may make its
                                           index when first asked) */
        uint32_t sub;
        uint64_t idx;
        ptb_locate(s, 0, &sub, &idx);
        s->p->unmoves(s->ctx, sub, idx, pred);
    }
    for (int timed = 1; pred && timed >= 0; timed--) {
        double t0 = cpu_now();
        for (uint64_t i = 0; i < runs; i++) {
            uint64_t g = i * (n / runs);
            for (uint64_t j = 0; j < PLAN_RUN && g + j < n; j++) {
                uint32_t sub;
                uint64_t idx;
                ptb_locate(s, g + j, &sub, &idx);
                unsigned m = s->p->unmoves(s->ctx, sub, idx, pred);
                uint64_t size = s->offset[sub + 1] - s->offset[sub];
                done += (uint64_t)timed;
                made += timed ? 0 : m;
                for (unsigned x = 0; !timed && x < m; x++)
                    away += slice_owner(size, ranks, pred[x]) !=
                            slice_owner(size, ranks, idx);
            }
        }
        if (timed)
            t = cpu_now() - t0;
    }
    free(pred);
    *moves = done ? (double)made / (double)done : 0;
    *remote = made ? (double)away / (double)made : 0;
    return done ? t * (double)n / (double)done : 0;
}

int ptb_plan(const ptb_space *s, const ptb_build_opts *o,
             ptb_build_plan *out)
{
    ptb_build_opts defaults;
    if (!o) {
        ptb_build_opts_init(&defaults);
        o = &defaults;
    }
    unsigned ranks = o->cluster && o->cluster->ranks ? o->cluster->ranks : 1;
    uint64_t n = s->offset[s->subtables];
    memset(out, 0, sizeof *out);
    out->states = n;
    int residues = s->p->reversible && !s->p->parity;
    uint64_t bfs = residues ? RES_WORDS(n) * 8 : 2 * n;
    uint64_t sums = SUMS_BYTES(n);
    /* in place: at most packed3 (reversible puzzles) or a byte a value;
     * the chunk checks; LMDB's pages, the header and the stats */
    uint64_t values = s->p->reversible ? (n + 4) / 5 : n;
    uint64_t table = values + 4 * (values / 512 + 1);
    uint64_t writer = !s->p->reversible         ? 2 * table
                      : n > PTB_IN_PLACE_STATES ? table - values
                                                : table;
    out->memory = bfs + (sums > writer ? sums : writer) + PLAN_FIXED;
    out->disk = table + ((uint64_t)64 << 10);
    /* a layer of k of a subtable's m states costs at most k varints of
     * about log128(m / k) + 1 bytes: 3 bytes a state but in layers of
     * fewer than m / 2^14 states, whose few states (at most
     * PTB_MAX_DISTANCE + 1 layers) take 5 bytes at most; and 28 bytes a
     * record */
    out->checkpoint = 3 * n + n / 8 +
                      28 * (PTB_MAX_DISTANCE + 2) * (uint64_t)s->subtables +
                      4096;
    out->cpu_seconds = sample_seconds(s, n, ranks, &out->moves,
                                      &out->remote);
    /* a cluster's process: its slices' values and chunk bits; its outboxes,
     * what it sends and, at most, a full round from every process; process
     * 0 then gathers the whole table's values into a file (on its disk)
     * and holds what the writer holds */
    out->processes = ranks;
    for (unsigned r = 0; r < ranks; r++) {
        uint64_t mine = 0;
        for (uint32_t sub = 0; sub < s->subtables; sub++) {
            uint64_t size = s->offset[sub + 1] - s->offset[sub];
            mine += slice_start(size, r + 1, ranks) -
                    slice_start(size, r, ranks);
        }
        out->slice_states = mine > out->slice_states ? mine
                                                     : out->slice_states;
    }
    uint64_t slice = out->slice_states;
    out->process_memory = (residues ? RES_WORDS(slice) * 8 : 2 * slice) +
                          SUMS_BYTES(slice) + PLAN_FIXED +
                          (ranks > 1 ? (2 + (uint64_t)ranks) * o->threads *
                                           box_room(s) * 8
                                     : 0);
    out->first_memory = ranks == 1 ? out->memory
                        : out->process_memory > writer + PLAN_FIXED
                            ? out->process_memory
                            : writer + PLAN_FIXED;
    out->disk += ranks > 1 ? bfs : 0;
    out->exchanged = (uint64_t)((double)n * out->moves * out->remote * 8) +
                     (ranks > 1 ? (residues ? n / 4 : 2 * n) / ranks *
                                      (ranks - 1)
                                : 0);
    return PTB_OK;
}
