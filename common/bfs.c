/* common/bfs.c: the generic retrograde BFS and ptb_build().
 *
 * For each subtable: every goal gets distance 0; then layer by layer, every
 * state one unmove before a state of distance d and not yet reached gets
 * d + 1.  States never reached are unsolvable (PTB_UNSOLVABLE).  Distances
 * are unique, so the result does not depend on the order of work: small
 * subtables run whole, several at once, one per thread; a large subtable
 * splits each layer between the threads.
 *
 * Three bitmaps of one bit a state hold the search: 'seen' (the states
 * reached), 'old' (those reached before the layer being found) and 'cur'
 * (the layer being expanded).  A thread claims a state by setting its bit
 * in 'seen' with an atomic OR, so each state is claimed once, and marks
 * its chunk (below); after the layer, the marked chunks' states in 'seen'
 * and not in 'old' become 'cur', and 'old' catches up.  That costs one
 * locked operation a claimed state, not two (a bit in a bitmap 'next' of
 * the layer being found, as before: 1.5% more CPU on klotski).
 * A layer is expanded by scanning 'cur' in index order, in chunks the
 * threads take in turn (a bit per chunk says which chunks hold a state, so
 * a sparse layer costs no scan of the whole bitmap); each state gets its
 * distance byte as it is expanded.  Index order keeps the work local when
 * neighbouring states have nearby indices, and the test of most unmoves,
 * "reached already?", reads the bitmap (an eighth of the distance bytes)
 * instead of the bytes.
 *
 * Knows nothing of any puzzle: only the ops of common/puzzle.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define LARGE_SUBTABLE (1u << 20)  /* from here, layers are split */
#define SPLIT_LAYER 8192           /* from here, a layer uses every thread */
#define CHUNK_WORDS 16             /* bitmap words a thread takes at once */

typedef struct layer_job {
    const ptb_space *s;
    uint32_t sub;
    uint8_t *dist;
    uint64_t *seen;            /* states reached (atomic) */
    uint64_t *old;             /* 'seen' before the layer being found */
    uint64_t *cur;             /* the layer being expanded, cleared as read */
    /* a bit per chunk of CHUNK_WORDS words of cur (of the layer being
     * found) that holds a state, so a sparse layer costs no scan of every
     * word */
    uint64_t *cur_sum, *next_sum;
    uint64_t n, words, chunks; /* states; words of each bitmap; chunks */
    uint64_t take;             /* next chunk to take (atomic) */
    int alone;                 /* one thread: it takes every chunk itself */
    uint64_t found;            /* states claimed for the next layer
                                  (atomic) */
    uint8_t depth;             /* distance of the layer being expanded */
} layer_job;


/* Sets bit i of an atomic bitmap, testing it first: most bits a claim
 * sets in the chunk summary are set already. */
static void mark(uint64_t *bits, uint64_t i)
{
    uint64_t *w = &bits[i >> 6], bit = (uint64_t)1 << (i & 63);
    if (!(__atomic_load_n(w, __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(w, bit, __ATOMIC_RELAXED);
}

/* Claims state p for the next layer; true when this call did. */
static int claim(layer_job *j, uint64_t p)
{
    uint64_t *w = &j->seen[p >> 6], bit = (uint64_t)1 << (p & 63);
    if (__atomic_load_n(w, __ATOMIC_RELAXED) & bit)
        return 0;
    if (__atomic_fetch_or(w, bit, __ATOMIC_RELAXED) & bit)
        return 0;
    mark(j->next_sum, (p >> 6) / CHUNK_WORDS);
    return 1;
}

/* The layer just found into cur: in each chunk the layer touched, the
 * states of 'seen' not in 'old', which then catches up. */
static void take_layer(layer_job *j)
{
    for (uint64_t s = 0; s < (j->chunks + 63) / 64; s++)
        for (uint64_t b = j->cur_sum[s]; b; b &= b - 1) {
            uint64_t from = (s << 6 | ptb_low_bit(b)) * CHUNK_WORDS;
            uint64_t to = from + CHUNK_WORDS < j->words ? from + CHUNK_WORDS
                                                        : j->words;
            for (uint64_t w = from; w < to; w++) {
                j->cur[w] = j->seen[w] & ~j->old[w];
                j->old[w] = j->seen[w];
            }
        }
}

/* Expands the states of chunk c of the current layer; returns how many
 * states it claimed for the next. */
static uint64_t expand_chunk(layer_job *j, uint64_t c, uint64_t *pred)
{
    const ptb_puzzle *p = j->s->p;
    uint64_t found = 0, from = c * CHUNK_WORDS;
    uint64_t to = from + CHUNK_WORDS < j->words ? from + CHUNK_WORDS
                                                : j->words;
    for (uint64_t w = from; w < to; w++) {
        uint64_t bits = j->cur[w];
        if (!bits)
            continue;
        j->cur[w] = 0;
        for (; bits; bits &= bits - 1) {
            uint64_t q = w << 6 | ptb_low_bit(bits);
            j->dist[q] = j->depth;
            unsigned n = p->unmoves(j->s->ctx, j->sub, q, pred);
            for (unsigned i = 0; i < n; i++)
                found += (uint64_t)claim(j, pred[i]);
        }
    }
    return found;
}

/* Expands the chunks of the current layer until none is left: alone, by
 * the chunk summary; else taking chunks in turn with the other threads. */
static void *expand_worker(void *arg)
{
    layer_job *j = arg;
    uint64_t pred[PTB_MAX_MOVES], found = 0, c;
    if (j->alone) {
        for (uint64_t s = 0; s < (j->chunks + 63) / 64; s++)
            for (uint64_t b = j->cur_sum[s]; b; b &= b - 1)
                found += expand_chunk(j, s << 6 | ptb_low_bit(b), pred);
    } else {
        while ((c = __atomic_fetch_add(&j->take, 1, __ATOMIC_RELAXED))
               < j->chunks)
            if (j->cur_sum[c >> 6] >> (c & 63) & 1)
                found += expand_chunk(j, c, pred);
    }
    __atomic_fetch_add(&j->found, found, __ATOMIC_RELAXED);
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
    uint64_t bit = (uint64_t)1 << (idx & 63);
    if (idx < j->n && !(j->seen[idx >> 6] & bit)) {
        j->seen[idx >> 6] |= bit;
        j->old[idx >> 6] |= bit;
        j->cur[idx >> 6] |= bit;
        j->cur_sum[(idx >> 6) / CHUNK_WORDS >> 6] |=
            (uint64_t)1 << ((idx >> 6) / CHUNK_WORDS & 63);
        j->found++;
    }
}

typedef struct build_ctx {
    const ptb_space *s;
    const ptb_build_opts *o;
    uint8_t *dist;                 /* all subtables, global index order */
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

/* The BFS of one subtable into dist (its own slice), on 'threads' threads.
 * progress: report after each layer (only from the calling thread). */
static int bfs_subtable(build_ctx *b, uint32_t sub, unsigned threads,
                        int progress)
{
    const ptb_space *s = b->s;
    uint64_t n = s->offset[sub + 1] - s->offset[sub], reached = 0;
    uint8_t *dist = b->dist + s->offset[sub];
    int rc = PTB_OK;
    layer_job j = { .s = s, .sub = sub, .dist = dist };
    j.n = n;
    j.words = (n + 63) / 64;
    j.chunks = (j.words + CHUNK_WORDS - 1) / CHUNK_WORDS;
    uint64_t sums = (j.chunks + 63) / 64;
    j.seen = calloc(3 * j.words + 2 * sums + 1, sizeof *j.seen);
    if (!j.seen)
        return PTB_ENOMEM;
    j.old = j.seen + j.words;
    j.cur = j.old + j.words;
    j.cur_sum = j.cur + j.words;
    j.next_sum = j.cur_sum + sums;
    memset(dist, PTB_UNSOLVABLE, n);
    /* the bits past n are no states: they count as reached */
    if (n % 64)
        j.seen[n / 64] = j.old[n / 64] = ~(uint64_t)0 << n % 64;
    s->p->goals(s->ctx, sub, add_goal, &j);
    for (unsigned d = 0; j.found; d++) {
        if (d >= PTB_MAX_DISTANCE) {
            rc = PTB_ERANGE;
            break;
        }
        unsigned t = j.found >= SPLIT_LAYER ? threads : 1;
        j.alone = t == 1;
        reached += j.found;
        j.found = 0;
        j.take = 0;
        j.depth = (uint8_t)d;
        ptb_run_threads(expand_worker, &j, t);
        memset(j.cur_sum, 0, sums * sizeof *j.cur_sum);
        uint64_t *done = j.cur_sum;
        j.cur_sum = j.next_sum;
        j.next_sum = done;
        take_layer(&j);
        if (progress)
            report(b, b->done + reached + j.found);
    }
    free(j.seen);
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

/* Histogram, solvable count, largest distance and the first farthest. */
static void summarize(const ptb_space *s, const uint8_t *dist,
                      ptb_table_info *info)
{
    memset(info, 0, sizeof *info);
    uint64_t total = s->offset[s->subtables];
    for (uint64_t g = 0; g < total; g++)
        if (dist[g] != PTB_UNSOLVABLE)
            info->histogram[dist[g]]++;
    for (unsigned d = 0; d <= PTB_MAX_DISTANCE; d++) {
        info->solvable += info->histogram[d];
        if (info->histogram[d])
            info->max_distance = d;
    }
    for (uint64_t g = 0; g < total && info->n_farthest < 8; g++) {
        if (dist[g] != info->max_distance || !info->solvable)
            continue;
        ptb_locate(s, g, &info->far_sub[info->n_farthest],
                   &info->far_idx[info->n_farthest]);
        info->n_farthest++;
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

int ptb_distances(const ptb_space *s, const ptb_build_opts *o, uint8_t **out)
{
    build_ctx b = { .s = s, .o = o, .rc = PTB_OK };
    uint64_t total = s->offset[s->subtables];
    *out = NULL;
    if (check_opts(o) != PTB_OK)
        return PTB_EINVAL;
    b.dist = malloc(total ? total : 1);
    if (!b.dist)
        return PTB_ENOMEM;
    int rc = bfs_all(&b);
    if (rc != PTB_OK) {
        free(b.dist);
        return rc;
    }
    *out = b.dist;
    return PTB_OK;
}

int ptb_build(const ptb_space *s, const char *dir, const ptb_build_opts *o,
              ptb_table_info *info)
{
    ptb_build_opts defaults;
    uint8_t *dist;
    if (!o) {
        ptb_build_opts_init(&defaults);
        o = &defaults;
    }
    int rc = ptb_distances(s, o, &dist);
    if (rc == PTB_OK) {
        summarize(s, dist, info);
        rc = ptb_table_write(s, dir, dist, o, info);
    }
    free(dist);
    return rc;
}

/* Measured peaks (BENCHMARKS.md): klotski 1.9 bytes a state, swap 1.9,
 * frog 3.0 (its sparse encoding); the plan's bound is 2 bytes a state (the
 * distances and the writer's buffers) plus the three bitmaps, plus a fixed
 * allowance for the rest (the puzzle's own tables, zstd, the heap). */
#define PLAN_FIXED ((uint64_t)64 << 20)

int ptb_plan(const ptb_space *s, ptb_build_plan *out)
{
    uint64_t n = s->offset[s->subtables];
    out->states = n;
    out->memory = 2 * n + 3 * ((n + 7) / 8) + PLAN_FIXED;
    /* in place: at most packed3 (reversible puzzles) or a byte a value;
     * the chunk checks; LMDB's pages, the header and the stats */
    uint64_t values = s->p->reversible ? (n + 4) / 5 : n;
    out->disk = values + 4 * (values / 512 + 1) + ((uint64_t)64 << 10);
    return PTB_OK;
}
