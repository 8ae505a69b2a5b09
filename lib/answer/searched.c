/* lib/answer/searched.c: what the searches past a full table share
 * (answer.h): the clock and the limits of a search, one bound on several
 * threads, and the replay of the line it found through the puzzle's own
 * moves (ida.c, ida_max.c).
 *
 * May touch: its arguments, the heap, the clock and the threads it
 * starts.  No I/O.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "answer.h"
#include "core/core.h"

#define CHECK_EVERY 65536u       /* nodes between looks at the clock */

double ptb_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ptb_limits_reached(ptb_limits *l)
{
    return ++l->nodes % CHECK_EVERY == 0 &&
           ((l->max_nodes && l->nodes >= l->max_nodes) ||
            (l->deadline > 0 && ptb_clock() >= l->deadline))
               ? PTB_ELIMIT : PTB_OK;
}

int ptb_replay(const ptb_space *s, unsigned len, ptb_is_step is_step,
               const void *arg, ptb_solution *out)
{
    ptb_move *mv = ptb_move_list(s, sizeof *mv);
    ptb_position cur = out->start;
    unsigned i = 0;
    if (!mv)
        return PTB_ENOMEM;
    for (; i < len; i++) {
        unsigned n = s->p->position_moves
                         ? s->p->position_moves(s->ctx, &cur, mv)
                         : s->p->moves(s->ctx, cur.sub, cur.idx, mv), j;
        for (j = 0; j < n; j++) {
            ptb_position next = cur;
            s->p->apply(s->ctx, &next, &mv[j]);
            if (is_step(arg, i, &cur, &next)) {
                out->move[i] = mv[j];
                out->after[i] = cur = next;
                break;
            }
        }
        if (j == n)
            break;
    }
    free(mv);
    return i == len && (len == 0 ||
                        (s->p->position_is_goal
                             ? s->p->position_is_goal(s->ctx, &cur)
                             : s->p->is_goal(s->ctx, cur.sub, cur.idx)))
               ? PTB_OK : PTB_ECORRUPT;
}

/* ---- one bound on several threads ------------------------------------ */

typedef struct front_node {
    uint8_t len;
    uint16_t move[PTB_FRONT_MAX];
} front_node;

struct ptb_front {
    front_node *node;
    size_t n, cap;
    unsigned best;                       /* atomic: the least bound past */
};

/* The threads' job: the front, and what they found. */
typedef struct job {
    const ptb_bound_search *bs;
    void *root;
    ptb_front f;
    unsigned limit;
    ptb_limits lim;                      /* nodes: atomic, every thread's */
    size_t taken;                        /* atomic: the next front node */
    size_t found;                        /* atomic: the least with a line */
    int rc;                              /* atomic: an error, or PTB_OK */
    pthread_mutex_t lock;                /* the line below */
    uint16_t line[PTB_MAX_DISTANCE];
    unsigned len;
} job;

int ptb_front_add(ptb_front *f, const uint16_t *path, unsigned len)
{
    if (len > PTB_FRONT_MAX)
        return PTB_EINVAL;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 256;
        front_node *more = realloc(f->node, cap * sizeof *more);
        if (!more)
            return PTB_ENOMEM;
        f->node = more;
        f->cap = cap;
    }
    f->node[f->n].len = (uint8_t)len;
    memcpy(f->node[f->n++].move, path, len * sizeof *path);
    return PTB_OK;
}

void ptb_front_cut(ptb_front *f, unsigned b)
{
    unsigned now = __atomic_load_n(&f->best, __ATOMIC_RELAXED);
    while (b < now && !__atomic_compare_exchange_n(&f->best, &now, b, 0,
                                                   __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

const uint16_t *ptb_front_path(const ptb_front *f, size_t i, unsigned *len)
{
    *len = f->node[i].len;
    return f->node[i].move;
}

/* One thread: front nodes in turn, each searched below, until one with a
 * line comes before every node left. */
static void *search_front(void *arg)
{
    job *j = arg;
    void *w = j->bs->worker(j->root);
    uint16_t *line = malloc(PTB_MAX_DISTANCE * sizeof *line);
    if (!w || !line)
        __atomic_store_n(&j->rc, PTB_ENOMEM, __ATOMIC_RELAXED);
    while (w && line) {
        size_t i = __atomic_fetch_add(&j->taken, 1, __ATOMIC_RELAXED);
        if (i >= j->f.n || i > __atomic_load_n(&j->found, __ATOMIC_RELAXED) ||
            __atomic_load_n(&j->rc, __ATOMIC_RELAXED) != PTB_OK)
            break;
        ptb_limits lim = { __atomic_load_n(&j->lim.nodes, __ATOMIC_RELAXED),
                           j->lim.max_nodes, j->lim.deadline };
        unsigned n = 0;
        int rc = PTB_OK;
        uint64_t before = lim.nodes;
        unsigned got = j->bs->below(w, &j->f, i, j->limit, &lim, line, &n,
                                    &rc);
        __atomic_fetch_add(&j->lim.nodes, lim.nodes - before,
                           __ATOMIC_RELAXED);
        if (rc != PTB_OK) {
            __atomic_store_n(&j->rc, rc, __ATOMIC_RELAXED);
            break;
        }
        if (got != PTB_FOUND) {
            ptb_front_cut(&j->f, got);
            continue;
        }
        pthread_mutex_lock(&j->lock);
        if (i < j->found) {
            __atomic_store_n(&j->found, i, __ATOMIC_RELAXED);
            memcpy(j->line, line, n * sizeof *line);
            j->len = n;
        }
        pthread_mutex_unlock(&j->lock);
    }
    if (w)
        j->bs->done(w);
    free(line);
    return NULL;
}

unsigned ptb_bound_threads(const ptb_bound_search *bs, void *root,
                           unsigned limit, unsigned threads, ptb_limits *lim,
                           uint16_t *line, unsigned *n, int *rc)
{
    job *j = calloc(1, sizeof *j);
    if (!j) {
        *rc = PTB_ENOMEM;
        return PTB_FOUND;
    }
    j->bs = bs;
    j->root = root;
    j->limit = limit;
    j->lim = *lim;
    j->found = SIZE_MAX;
    j->rc = PTB_OK;
    /* deep enough for some nodes a thread, not too deep to list */
    for (unsigned depth = 1; j->rc == PTB_OK && depth <= PTB_FRONT_MAX;
         depth++) {
        j->f.n = 0;
        j->f.best = UINT32_MAX - 1;
        if ((j->rc = bs->list(root, &j->f, depth, limit)) != PTB_OK ||
            j->f.n >= 16 * threads || depth >= limit)
            break;
    }
    pthread_mutex_init(&j->lock, NULL);
    if (j->rc == PTB_OK)
        ptb_run_threads(search_front, j, threads);
    pthread_mutex_destroy(&j->lock);
    lim->nodes = j->lim.nodes;
    unsigned got = j->f.best;
    *rc = j->rc;
    if (*rc != PTB_OK)
        got = PTB_FOUND;
    else if (j->found != SIZE_MAX) {
        memcpy(line, j->line, j->len * sizeof *line);
        *n = j->len;
        got = PTB_FOUND;
    }
    free(j->f.node);
    free(j);
    return got;
}
