/* common/bfs.c: the generic retrograde BFS and ptb_build().
 *
 * For each subtable: every goal gets distance 0; then layer by layer, every
 * state one unmove before a state of distance d and not yet reached gets
 * d + 1.  States never reached are unsolvable.  Distances are unique, so
 * the result does not depend on the order of work: small subtables run
 * whole, several at once, one per thread; a large subtable splits each
 * layer between the threads.
 *
 * The values are kept in one of two ways: 2 bytes a state, the exact
 * distance (PTB_UNSOLVABLE: not reached), for the tables that need it
 * (exact tables, mod-4 tables, whose bit is the distance's second, and
 * --verify's proof); or two bits a state, the distance mod 3 (3: not
 * reached), for mod-3 tables, which is all they store.  A state is
 * claimed for the next layer by writing its value, once, with an atomic
 * operation (a compare and swap; an AND that clears the two bits'
 * difference from 3, safe because every claim of a layer writes the same
 * residue).
 *
 * One bitmap, 'front', holds the frontier: a bit a state, set for the
 * states of the layer being expanded (distance d) and, as they are
 * claimed, those of the next (d + 1); a state's value tells which, even
 * as a residue, so no second bitmap is needed (3 bits a state in all with
 * residues, 17 with exact values).  A layer is expanded by scanning
 * 'front' in index order, in chunks the threads take in turn (a bit per
 * chunk says which chunks hold a state of the layer, another which got a
 * claim, so a sparse layer costs no scan of the whole bitmap); the states
 * at d are
 * expanded and their bits cleared, those at d + 1 stay.  (A bit for two
 * or four states, 2.5 bits a state, made the generation of Klotski 9 % and
 * 35 % slower: a group's states at d - 3 look like d's and are expanded
 * again for nothing.)  Index order keeps the work local when neighbouring
 * states have nearby indices.  What the layers find (the histogram, and
 * of the last one the first states in index order) is counted as they are
 * claimed, so no pass over the values is needed afterwards.
 *
 * Knows nothing of any puzzle: only the ops of common/puzzle.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define LARGE_SUBTABLE (1u << 20)  /* from here, layers are split */
#define SPLIT_LAYER 8192           /* from here, a layer uses every thread */
#define CHUNK_WORDS 16             /* bitmap words a thread takes at once */
#define NFAR 8                     /* farthest states kept (the info's) */

/* The first states of a layer in index order, at most NFAR. */
typedef struct far_list {
    unsigned n;
    uint64_t idx[NFAR];
} far_list;

typedef struct layer_job {
    const ptb_space *s;
    uint32_t sub;
    uint16_t *dist;            /* exact values: the subtable's */
    uint64_t *res;             /* or residues: every subtable's two bits */
    uint64_t base;             /* ... of which this subtable's first */
    uint64_t *front;           /* the frontier: the layers at d and d + 1 */
    /* a bit per chunk of CHUNK_WORDS words of front: with a state at d;
     * that got a claim (a state at d + 1) */
    uint64_t *cur_sum, *next_sum;
    uint64_t n, words, chunks; /* states; words of each bitmap; chunks */
    uint64_t take;             /* next chunk to take (atomic) */
    int alone;                 /* one thread: it takes every chunk itself */
    uint64_t found;            /* states claimed for the next layer
                                  (atomic) */
    unsigned depth;            /* distance of the layer being expanded */
    pthread_mutex_t lock;      /* for 'first' */
    far_list first;            /* of the layer being found */
} layer_job;

/* Sets bit i of an atomic bitmap, testing it first: most bits a claim
 * sets are set already. */
static void mark(uint64_t *bits, uint64_t i)
{
    uint64_t *w = &bits[i >> 6], bit = (uint64_t)1 << (i & 63);
    if (!(__atomic_load_n(w, __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
}

/* The value of state q (of the job's subtable) as a distance to compare
 * with the layer's: exact, or mod 3 (3 when not reached). */
static unsigned value_of(const layer_job *j, uint64_t q)
{
    if (j->dist)
        return __atomic_load_n(&j->dist[q], __ATOMIC_RELAXED);
    uint64_t g = j->base + q;
    return (unsigned)(__atomic_load_n(&j->res[g >> 5], __ATOMIC_RELAXED) >>
                      (2 * (g & 31)) & 3);
}

/* Writes value v (a distance, exact or mod 3) into state q when it has
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
    uint64_t g = j->base + q, *w = &j->res[g >> 5];
    unsigned sh = 2 * (unsigned)(g & 31);
    return (__atomic_load_n(w, __ATOMIC_RELAXED) >> sh & 3) == 3 &&
           (__atomic_fetch_and(w, ~((uint64_t)(3 ^ v % 3) << sh),
                               __ATOMIC_RELAXED) >> sh & 3) == 3;
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

/* Claims state q for the next layer (its value, its frontier bit); true when
 * this call did. */
static int claim(layer_job *j, uint64_t q, far_list *first)
{
    if (!set_value(j, q, j->depth + 1))
        return 0;
    mark(j->front, q);
    mark(j->next_sum, (q >> 6) / CHUNK_WORDS);
    far_add(first, q);
    return 1;
}

/* Expands the states of chunk c of the current layer; returns how many
 * states it claimed for the next. */
static uint64_t expand_chunk(layer_job *j, uint64_t c, uint64_t *pred,
                             far_list *first)
{
    const ptb_puzzle *p = j->s->p;
    unsigned want = j->dist ? j->depth : j->depth % 3;
    uint64_t found = 0, from = c * CHUNK_WORDS;
    uint64_t to = from + CHUNK_WORDS < j->words ? from + CHUNK_WORDS
                                                : j->words;
    for (uint64_t w = from; w < to; w++) {
        uint64_t bits = __atomic_load_n(&j->front[w], __ATOMIC_RELAXED);
        uint64_t done = 0;
        for (; bits; bits &= bits - 1) {
            uint64_t q = w << 6 | ptb_low_bit(bits);
            if (value_of(j, q) != want)
                continue;                  /* at d + 1 */
            done |= bits & -bits;
            unsigned n = p->unmoves(j->s->ctx, j->sub, q, pred);
            for (unsigned i = 0; i < n; i++)
                found += (uint64_t)claim(j, pred[i], first);
        }
        if (done)
            __atomic_fetch_and(&j->front[w], ~done, __ATOMIC_RELAXED);
    }
    return found;
}

/* Expands the chunks of the current layer until none is left: alone, by
 * the chunk summary; else taking chunks in turn with the other threads. */
static void *expand_worker(void *arg)
{
    layer_job *j = arg;
    uint64_t pred[PTB_MAX_MOVES], found = 0, c;
    far_list first = { 0, { 0 } };
    if (j->alone) {
        for (uint64_t s = 0; s < (j->chunks + 63) / 64; s++)
            for (uint64_t b = j->cur_sum[s]; b; b &= b - 1)
                found += expand_chunk(j, s << 6 | ptb_low_bit(b), pred,
                                      &first);
    } else {
        while ((c = __atomic_fetch_add(&j->take, 1, __ATOMIC_RELAXED))
               < j->chunks)
            if (j->cur_sum[c >> 6] >> (c & 63) & 1)
                found += expand_chunk(j, c, pred, &first);
    }
    __atomic_fetch_add(&j->found, found, __ATOMIC_RELAXED);
    pthread_mutex_lock(&j->lock);
    for (unsigned i = 0; i < first.n; i++)
        far_add(&j->first, first.idx[i]);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

/* Runs fn(job) on 'threads' threads, the calling one included. */
void ptb_run_threads(void *(*fn)(void *), void *job, unsigned threads)
{
    pthread_t tid[256];
    unsigned started = 0;
    for (unsigned i = 1; i < threads && i < 256; i++)
        if (pthread_create(&tid[started], NULL, fn, job) == 0)
            started++;
    fn(job);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* Goals go into the first layer. */
static void add_goal(void *arg, uint64_t idx)
{
    layer_job *j = arg;
    if (idx < j->n && set_value(j, idx, 0)) {
        mark(j->front, idx);
        mark(j->cur_sum, (idx >> 6) / CHUNK_WORDS);
        far_add(&j->first, idx);
        j->found++;
    }
}

/* What one subtable's BFS found. */
typedef struct sub_result {
    unsigned max;                  /* its largest distance */
    far_list far;                  /* its first states at max */
} sub_result;

typedef struct build_ctx {
    const ptb_space *s;
    const ptb_build_opts *o;
    ptb_values *v;
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

/* The BFS of one subtable, on 'threads' threads, into its values, its
 * sub_result and the histogram.  progress: report after each layer (only
 * from the calling thread). */
static int bfs_subtable(build_ctx *b, uint32_t sub, unsigned threads,
                        int progress)
{
    const ptb_space *s = b->s;
    uint64_t n = s->offset[sub + 1] - s->offset[sub], reached = 0;
    uint64_t hist[PTB_MAX_DISTANCE + 1] = { 0 };
    int rc = PTB_OK, over = 0;
    int last = b->ck ? ptb_ckpt_state(b->ck, sub, &over) : -1;
    if (over)
        return PTB_OK;                 /* replayed whole */
    layer_job j = { .s = s, .sub = sub, .n = n, .base = s->offset[sub],
                    .res = b->v->res };
    if (b->v->dist)
        j.dist = b->v->dist + s->offset[sub];
    j.words = (n + 63) / 64;
    j.chunks = (j.words + CHUNK_WORDS - 1) / CHUNK_WORDS;
    uint64_t sums = (j.chunks + 63) / 64;
    j.front = calloc(j.words + 2 * sums + 1, sizeof *j.front);
    if (!j.front)
        return PTB_ENOMEM;
    j.cur_sum = j.front + j.words;
    j.next_sum = j.cur_sum + sums;
    pthread_mutex_init(&j.lock, NULL);
    sub_result *r = &b->sub[sub];
    if (last >= 0) {                   /* resumed: the last layer recorded */
        rc = ptb_ckpt_front(b->ck, sub, j.front);
        for (uint64_t w = 0; w < j.words; w++)
            if (j.front[w]) {
                j.found += (uint64_t)__builtin_popcountll(j.front[w]);
                mark(j.cur_sum, w / CHUNK_WORDS);
            }
        j.first = r->far;
    } else {
        s->p->goals(s->ctx, sub, add_goal, &j);
        if (b->ck)
            rc = ptb_ckpt_layer(b->ck, sub, 0, j.front, n);
    }
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
        j.alone = t == 1;
        reached += j.found;
        j.found = 0;
        j.take = 0;
        j.depth = d;
        j.first.n = 0;
        ptb_run_threads(expand_worker, &j, t);
        uint64_t *done = j.cur_sum;
        memset(done, 0, sums * sizeof *done);
        j.cur_sum = j.next_sum;
        j.next_sum = done;
        if (b->ck)                     /* front: the states at d + 1 */
            rc = ptb_ckpt_layer(b->ck, sub, d + 1, j.front, n);
        if (progress && b->o->progress && j.found)
            b->o->progress(b->o->progress_ctx, "layer", d + 1, j.found);
        if (progress)
            report(b, b->done + reached + j.found);
    }
    pthread_mutex_destroy(&j.lock);
    free(j.front);
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

/* Distances of every state of every subtable. */
static int bfs_all(build_ctx *b)
{
    const ptb_space *s = b->s;
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
    return o->threads < 1 || o->threads > 256 || o->zstd_level < 1 ||
           o->zstd_level > 19 ||
           (o->encoding && !ptb_table_encoding_known(o->encoding))
               ? PTB_EINVAL
               : PTB_OK;
}

/* A checkpoint's state: subtable sub's idx is at distance d. */
static int replay(void *arg, uint32_t sub, unsigned d, uint64_t idx)
{
    build_ctx *b = arg;
    ptb_values *v = b->v;
    sub_result *r = &b->sub[sub];
    layer_job j = { .n = b->s->offset[sub + 1] - b->s->offset[sub],
                    .base = b->s->offset[sub], .res = v->res,
                    .dist = v->dist ? v->dist + b->s->offset[sub] : NULL };
    if (!set_value(&j, idx, d))
        return PTB_ECORRUPT;           /* found twice */
    v->info.histogram[d]++;
    if (d > r->max || !r->far.n) {
        r->max = d;
        r->far.n = 0;
    }
    far_add(&r->far, idx);
    return PTB_OK;
}

/* Every value unknown, nothing found. */
static void reset(build_ctx *b, uint64_t total)
{
    if (b->v->res)
        memset(b->v->res, 0xFF, (total / 32 + 1) * sizeof *b->v->res);
    else
        for (uint64_t g = 0; g < total; g++)
            b->v->dist[g] = PTB_UNSOLVABLE;
    memset(b->v->info.histogram, 0, sizeof b->v->info.histogram);
    memset(b->sub, 0, b->s->subtables * sizeof *b->sub);
}

void ptb_values_free(ptb_values *v)
{
    free(v->dist);
    free(v->res);
    v->dist = NULL;
    v->res = NULL;
}

int ptb_distances(const ptb_space *s, const ptb_build_opts *o, int residues,
                  ptb_values *out)
{
    uint64_t total = s->offset[s->subtables];
    memset(out, 0, sizeof *out);
    if (check_opts(o) != PTB_OK)
        return PTB_EINVAL;
    build_ctx b = { .s = s, .o = o, .v = out, .rc = PTB_OK };
    if (residues)
        out->res = malloc((total / 32 + 1) * sizeof *out->res);
    else
        out->dist = malloc((total ? total : 1) * sizeof *out->dist);
    b.sub = calloc(s->subtables, sizeof *b.sub);
    int rc = (out->res || out->dist) && b.sub ? PTB_OK : PTB_ENOMEM;
    pthread_mutex_init(&b.lock, NULL);
    if (rc == PTB_OK)
        reset(&b, total);
    if (rc == PTB_OK && o->checkpoint) {
        rc = ptb_ckpt_open(o->checkpoint, s, residues, 0, replay, &b, &b.ck);
        if (rc == PTB_ECORRUPT) {      /* a state twice: start afresh */
            reset(&b, total);
            rc = ptb_ckpt_open(o->checkpoint, s, residues, 1, replay, &b,
                               &b.ck);
        }
    }
    uint64_t replayed = 0;
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++)
        replayed += out->info.histogram[d];
    if (rc == PTB_OK && replayed && o->progress)
        o->progress(o->progress_ctx, "resume", replayed, total);
    if (rc == PTB_OK)
        rc = bfs_all(&b);
    ptb_ckpt_close(b.ck);
    if (rc == PTB_OK)
        summarize(s, b.sub, &out->info);
    pthread_mutex_destroy(&b.lock);
    free(b.sub);
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
    int rc = ptb_distances(s, o, s->p->reversible && !s->p->parity, &v);
    if (rc == PTB_OK) {
        *info = v.info;
        rc = ptb_table_write(s, dir, &v, o, info);
    }
    ptb_values_free(&v);
    /* written or failed, the build is over: only a killed one leaves its
     * checkpoint */
    if (o->checkpoint && unlink(o->checkpoint) && errno != ENOENT &&
        rc == PTB_OK)
        rc = errno;
    return rc;
}

/* The plan's bound on the peak: during the BFS, the values (two bits a
 * state with residues, else 2 bytes) and the frontier (a bit); then the
 * values and what the writer holds: for a reversible puzzle, LMDB's copy
 * of the table's values until the commit, at most packed3 with their
 * checks (packed values are made where LMDB keeps them; a zstd table,
 * used only when at most 40 % of that, holds its record and LMDB's copy);
 * for the others, a byte a state and LMDB's copy.  Plus a
 * fixed allowance for the rest (the puzzle's own tables, zstd, the heap).
 * Measured peaks: BENCHMARKS.md. */
#define PLAN_FIXED ((uint64_t)64 << 20)
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
 * spread evenly over the index space. */
static double sample_seconds(const ptb_space *s, uint64_t n)
{
    uint64_t pred[PTB_MAX_MOVES], k = n < PLAN_SAMPLE ? n : PLAN_SAMPLE;
    uint64_t runs = (k + PLAN_RUN - 1) / PLAN_RUN, done = 0;
    double t0 = cpu_now();
    for (uint64_t i = 0; i < runs; i++) {
        uint64_t g = i * (n / runs);
        for (uint64_t j = 0; j < PLAN_RUN && g + j < n; j++, done++) {
            uint32_t sub;
            uint64_t idx;
            ptb_locate(s, g + j, &sub, &idx);
            s->p->unmoves(s->ctx, sub, idx, pred);
        }
    }
    return done ? (cpu_now() - t0) * (double)n / (double)done : 0;
}

int ptb_plan(const ptb_space *s, ptb_build_plan *out)
{
    uint64_t n = s->offset[s->subtables];
    out->states = n;
    int residues = s->p->reversible && !s->p->parity;
    uint64_t bfs = residues ? n / 4 + 8 : 2 * n;
    /* in place: at most packed3 (reversible puzzles) or a byte a value;
     * the chunk checks; LMDB's pages, the header and the stats */
    uint64_t values = s->p->reversible ? (n + 4) / 5 : n;
    uint64_t table = values + 4 * (values / 512 + 1);
    uint64_t writer = s->p->reversible ? table : 2 * table;
    out->memory = bfs + (n / 8 + 8 > writer ? n / 8 + 8 : writer) +
                  PLAN_FIXED;
    out->disk = table + ((uint64_t)64 << 10);
    /* a layer of k of a subtable's m states costs at most k varints of
     * about log128(m / k) + 1 bytes: 3 bytes a state but in layers of
     * fewer than m / 2^14 states, whose few states (at most
     * PTB_MAX_DISTANCE + 1 layers) take 5 bytes at most; and 28 bytes a
     * record */
    out->checkpoint = 3 * n + n / 8 +
                      28 * (PTB_MAX_DISTANCE + 2) * (uint64_t)s->subtables +
                      4096;
    out->cpu_seconds = sample_seconds(s, n);
    return PTB_OK;
}
