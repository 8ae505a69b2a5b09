/* core.h: the library's bottom layer, which every file above shares and
 * the public header hides: a space's layout (a puzzle and a metric, over
 * the interface of puzzle.h), the thread fan-out, and small helpers.
 * Never included by the programs; tests of the library's insides may. */
#ifndef PTB_CORE_H
#define PTB_CORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "puzzle.h"

struct ptb_space {
    const ptb_puzzle *p;
    unsigned metric;
    unsigned max_moves;     /* the most moves of a state (puzzle.h) */
    void *ctx;
    uint32_t subtables;
    const uint64_t *offset; /* subtables + 1 entries: first global index */
    uint64_t *own_offset;   /* offset when the space computed it, or NULL */
};

/* Whether state idx of subtable sub exists. */
static inline int ptb_in_space(const ptb_space *s, uint32_t sub, uint64_t idx)
{
    return sub < s->subtables && idx < s->offset[sub + 1] - s->offset[sub];
}

/* Position p with its index: p itself, or when it has none
 * (PTB_NO_INDEX), a copy in *own given one by the puzzle (position_rank);
 * what a table's answer needs. */
static inline const ptb_position *ptb_ranked(const ptb_space *s,
                                             const ptb_position *p,
                                             ptb_position *own)
{
    if (p->idx != PTB_NO_INDEX || !s->p->position_rank)
        return p;
    *own = *p;
    s->p->position_rank(s->ctx, own);
    return own;
}

/* Global value index of (sub, idx); the caller checks the range. */
static inline uint64_t ptb_global(const ptb_space *s, uint32_t sub,
                                  uint64_t idx)
{
    return s->offset[sub] + idx;
}

/* A list for one state's moves (ptb_move, moves()) or predecessors
 * (uint64_t, unmoves()): the space's max_moves of them, from malloc
 * (free() it); NULL when out of memory. */
static inline void *ptb_move_list(const ptb_space *s, size_t each)
{
    return malloc((size_t)s->max_moves * each);
}

/* The subtable and index of a global index g < offset[subtables], by a
 * binary search over the offsets (space.c). */
void ptb_locate(const ptb_space *s, uint64_t g, uint32_t *sub, uint64_t *idx);
/* The index the space ranks by, as its table stores it (a described
 * puzzle's ranking: puzzle.h, index()); NULL, *len 0, when there is none
 * (space.c). */
const unsigned char *ptb_space_index(const ptb_space *s, size_t *len);
/* rc, unless the space has found its stored index damaged since it opened
 * (puzzle.h, status()): then that status (PTB_ECORRUPT), as whatever it
 * answered is void.  Every entry point that answers from a space returns
 * through it; PTB_ENOMEM is kept. */
int ptb_space_checked(const ptb_space *s, int rc);

/* The n-byte little-endian number at p (the tables' own records). */
static inline uint64_t ptb_get_le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* The same for n = 8, one load. */
static inline uint64_t ptb_get_le64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
           (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static inline void ptb_put_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Room for item n (and those before it) in the array *a of *cap items of
 * 'each' bytes: when it has none, the array grown by doubling, from
 * 'first' items (util.c).  PTB_OK; PTB_ENOMEM, *a and *cap as they were. */
int ptb_room(void **a, size_t *cap, size_t n, size_t each, size_t first);
/* qsort's order of uint64_t values, ascending (util.c). */
int ptb_u64_cmp(const void *a, const void *b);
/* Sorts a[0..n) ascending, as qsort() with ptb_u64_cmp but faster on
 * many values; never fails (util.c). */
void ptb_sort_u64(uint64_t *a, size_t n);
/* The last i < n with a[i] <= v, a ascending and a[0] <= v (util.c). */
uint64_t ptb_last_at_most(const uint64_t *a, uint64_t n, uint64_t v);
/* "DIR/FILESUFFIX" from malloc (free() it); NULL when out of memory. */
char *ptb_join_path(const char *dir, const char *file, const char *suffix);
/* A new file of dir ($TMPDIR, or /tmp, when dir is NULL) with no name
 * (O_TMPFILE, or a file removed as soon as it is made where the file
 * system has no unnamed files): gone when closed, or when the process is
 * killed.  The descriptor, or -1 and errno (util.c). */
int ptb_unnamed_file(const char *dir);

/* ---- threads.c ------------------------------------------------------ */

/* The library's one thread fan-out: runs fn(job) on 'threads' threads
 * (1..256), the calling one included, and returns when all have.  fn takes
 * its share of the work from the job itself (an atomic counter). */
void ptb_run_threads(void *(*fn)(void *), void *job, unsigned threads);

/* A memory budget that threads share (bytes they account for, not
 * allocate): ptb_budget_take() waits while the others' and its own would
 * pass the limit, unless nothing is taken; ptb_budget_try() takes only
 * what fits now (1, else 0); ptb_budget_wanted() says whether a thread
 * waits, so that one holding more than it needs may give some back. */
typedef struct ptb_budget {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    uint64_t limit, used;
    unsigned waiting;
} ptb_budget;

void ptb_budget_init(ptb_budget *b, uint64_t limit);
void ptb_budget_destroy(ptb_budget *b);
void ptb_budget_take(ptb_budget *b, uint64_t bytes);
int ptb_budget_try(ptb_budget *b, uint64_t bytes);
int ptb_budget_wanted(ptb_budget *b);
void ptb_budget_give(ptb_budget *b, uint64_t bytes);

#endif
