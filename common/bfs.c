/* common/bfs.c: the generic retrograde BFS and ptb_build().
 *
 * For each subtable: every goal gets distance 0; then layer by layer, every
 * state one unmove before a state of distance d and not yet reached gets
 * d + 1.  States never reached are unsolvable (PTB_UNSOLVABLE).  Distances
 * are unique, so the result does not depend on the order of work: small
 * subtables run whole, several at once, one per thread; a large subtable
 * splits each layer between the threads, which claim states with an atomic
 * compare-and-swap on their distance byte.
 *
 * Knows nothing of any puzzle: only the ops of common/puzzle.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define LARGE_SUBTABLE (1u << 20)  /* from here, layers are split */
#define LOCAL_QUEUE 4096           /* states a thread gathers per flush */

typedef struct layer_job {
    const ptb_space *s;
    uint32_t sub;
    uint8_t *dist;
    uint32_t *queue;
    uint64_t head, end;        /* the layer being expanded: queue[head..end) */
    uint64_t tail;             /* next free queue slot (atomic) */
    uint64_t next;             /* next chunk of the layer to take (atomic) */
    uint8_t depth;             /* distance of the layer being expanded */
} layer_job;

/* Claims state p for distance d; true when this call set it. */
static int claim(uint8_t *dist, uint64_t p, uint8_t d)
{
    uint8_t expect = PTB_UNSOLVABLE;
    if (__atomic_load_n(&dist[p], __ATOMIC_RELAXED) != PTB_UNSOLVABLE)
        return 0;
    return __atomic_compare_exchange_n(&dist[p], &expect, d, 0,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void flush(layer_job *j, const uint32_t *local, unsigned n)
{
    uint64_t at = __atomic_fetch_add(&j->tail, n, __ATOMIC_RELAXED);
    memcpy(j->queue + at, local, n * sizeof *local);
}

/* Expands chunks of the current layer until none is left. */
static void *expand_worker(void *arg)
{
    layer_job *j = arg;
    const ptb_puzzle *p = j->s->p;
    uint64_t pred[PTB_MAX_MOVES];
    uint32_t local[LOCAL_QUEUE];
    unsigned nl = 0;
    const uint64_t chunk = 1024;
    for (;;) {
        uint64_t from = __atomic_fetch_add(&j->next, chunk, __ATOMIC_RELAXED);
        if (from >= j->end)
            break;
        uint64_t to = from + chunk < j->end ? from + chunk : j->end;
        for (uint64_t q = from; q < to; q++) {
            unsigned n = p->unmoves(j->s->ctx, j->sub, j->queue[q], pred);
            for (unsigned i = 0; i < n; i++) {
                if (!claim(j->dist, pred[i], (uint8_t)(j->depth + 1)))
                    continue;
                local[nl++] = (uint32_t)pred[i];
                if (nl == LOCAL_QUEUE) {
                    flush(j, local, nl);
                    nl = 0;
                }
            }
        }
    }
    if (nl)
        flush(j, local, nl);
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

typedef struct goal_sink {
    uint8_t *dist;
    uint32_t *queue;
    uint64_t tail, n;
} goal_sink;

static void add_goal(void *arg, uint64_t idx)
{
    goal_sink *g = arg;
    if (idx < g->n && g->dist[idx] == PTB_UNSOLVABLE) {
        g->dist[idx] = 0;
        g->queue[g->tail++] = (uint32_t)idx;
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
    uint64_t n = s->offset[sub + 1] - s->offset[sub];
    uint8_t *dist = b->dist + s->offset[sub];
    if (n > UINT32_MAX)
        return PTB_ERANGE;
    layer_job j = { .s = s, .sub = sub, .dist = dist };
    j.queue = malloc((n ? n : 1) * sizeof *j.queue);
    if (!j.queue)
        return PTB_ENOMEM;
    memset(dist, PTB_UNSOLVABLE, n);
    goal_sink g = { dist, j.queue, 0, n };
    s->p->goals(s->ctx, sub, add_goal, &g);
    j.tail = g.tail;
    for (unsigned d = 0; j.head < j.tail; d++) {
        if (d >= PTB_MAX_DISTANCE) {
            free(j.queue);
            return PTB_ERANGE;
        }
        j.end = j.tail;
        j.next = j.head;
        j.depth = (uint8_t)d;
        unsigned t = j.end - j.head >= 2 * LOCAL_QUEUE ? threads : 1;
        ptb_run_threads(expand_worker, &j, t);
        j.head = j.end;
        if (progress)
            report(b, b->done + j.tail);
    }
    free(j.queue);
    return PTB_OK;
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
