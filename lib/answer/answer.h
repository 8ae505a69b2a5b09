/* answer.h: what the answer layer's files share (the walk's step, for
 * the analysis). */
#ifndef PTB_ANSWER_H
#define PTB_ANSWER_H

#include "format/format.h"

/* ---- walk.c --------------------------------------------------------- */

/* The first of the n moves mv out of a state of subtable sub whose
 * successor's stored value is want, into *i (n when none).  PTB_OK, or
 * the error reading a value. */
int ptb_first_at(const ptb_table *t, ptb_reader *r, uint32_t sub,
                 const ptb_move *mv, unsigned n, unsigned want, unsigned *i);

/* ---- family.c ------------------------------------------------------- */

struct sl_desc;
/* The text a family was solved from, as given. */
const char *ptb_family_text(const ptb_family *f);
/* The description of a family's text (its family lines left out), when
 * it is one a family may have: PTB_OK, *out to sl_free(); the errors of
 * ptb_family_solve() with err; PTB_ENOMEM. */
int ptb_family_desc(const char *text, struct sl_desc **out, char *err,
                    size_t errcap);

/* ---- family_blocks.c ------------------------------------------------ */

/* Level BOARD of the family FAMILY (its text) as a puzzle of its own when
 * the family is one of blocks ('family blocks N'): PTB_OK, *p to
 * ptb_puzzle_free(); PTB_EINVAL when it is another family; PTB_EFORMAT
 * when the family no longer reads; PTB_ECORRUPT when the board makes no
 * description; PTB_ENOMEM. */
int ptb_family_level_puzzle(const char *family, const char *board,
                            ptb_puzzle **p);

/* ---- searched.c: what the searches past a full table share ----------- */

/* A search's limits (ptb_search_opts) and the nodes it has expanded. */
typedef struct ptb_limits {
    uint64_t nodes, max_nodes;           /* max_nodes 0: none */
    double deadline;                     /* on ptb_clock(); 0: none */
} ptb_limits;

/* The monotonic clock, in seconds. */
double ptb_clock(void);

/* Counts one more node: PTB_ELIMIT once a limit is reached (the clock is
 * read every 65,536 nodes), else PTB_OK. */
int ptb_limits_reached(ptb_limits *l);

/* The exact distance of a state one move from a state at distance old,
 * from its stored value v in a table of the distance mod modulus (0: v is
 * the distance): the one of old - 1, old and old + 1 that v is, or has
 * v's residue; PTB_UNSOLVABLE when none has (a damaged table).  (On the
 * search's hot path: inline.) */
static inline unsigned ptb_next_distance(unsigned old, unsigned v,
                                         unsigned modulus)
{
    if (!modulus)
        return v + 1 >= old && v <= old + 1 ? v : PTB_UNSOLVABLE;
    if (v >= modulus)
        return PTB_UNSOLVABLE;
    unsigned step = (v + modulus - old % modulus) % modulus;
    return step == 0 ? old : step == 1 ? old + 1
           : step == modulus - 1 && old ? old - 1 : PTB_UNSOLVABLE;
}

/* Whether 'after', made by a move from 'before', is step i of the line a
 * search found. */
typedef int (*ptb_is_step)(const void *arg, unsigned i,
                           const ptb_position *before,
                           const ptb_position *after);

/* The line of len steps a search found, replayed through the puzzle's
 * moves from out->start (out->distance is len): step i is the move whose
 * position is_step() accepts.  PTB_OK; PTB_ECORRUPT if one is missing or
 * the end is no goal (never); PTB_ENOMEM. */
int ptb_replay(const ptb_space *s, unsigned len, ptb_is_step is_step,
               const void *arg, ptb_solution *out);

/* One bound of an IDA* on several threads.  The nodes at a small depth
 * that the bound lets through (the front), in the order a search meets
 * them, are shared out among the threads, each searched below on its own;
 * the line of the first of them that has one is the answer, as one
 * thread's would be.  A search names its moves by numbers of its own (the
 * empty cell's new cell; a move's place in the engine's list), and a node
 * by the moves that lead to it from the start. */
#define PTB_FRONT_MAX 24          /* a front node's moves: at most so many */
#define PTB_FOUND 0xFFFFFFFFu     /* what a search below returns when it
                                     has a line (or an error) */

typedef struct ptb_front ptb_front;

typedef struct ptb_bound_search {
    /* Lists the front of the bound 'limit' at depth 'depth' from the
     * root: each node at that depth the bound lets through, and any goal
     * above, with ptb_front_add(); the bounds of the nodes it cuts with
     * ptb_front_cut().  PTB_OK or an error. */
    int (*list)(void *root, ptb_front *f, unsigned depth, unsigned limit);
    /* A thread's own copy of the root search (its table readers, its
     * buffers), NULL when it cannot be made; and its end. */
    void *(*worker)(void *root);
    void (*done)(void *worker);
    /* The search below node i of the front f, within 'limit' and the
     * limits lim (whose nodes it counts): PTB_FOUND with the whole line's
     * moves, the node's path first, in line[0..*n), or an error in *rc;
     * else the least bound past limit that it met. */
    unsigned (*below)(void *worker, const ptb_front *f, size_t i,
                      unsigned limit, ptb_limits *lim, uint16_t *line,
                      unsigned *n, int *rc);
} ptb_bound_search;

/* Adds the node that path[0..len) leads to (len <= PTB_FRONT_MAX) to the
 * front: PTB_OK, PTB_ENOMEM. */
int ptb_front_add(ptb_front *f, const uint16_t *path, unsigned len);
/* A node cut at bound b: the least such is the next bound. */
void ptb_front_cut(ptb_front *f, unsigned b);
/* Node i's moves from the start, *len of them. */
const uint16_t *ptb_front_path(const ptb_front *f, size_t i, unsigned *len);

/* The bound 'limit' from the root on 1..256 threads: PTB_FOUND with the
 * line in line[0..*n) (PTB_MAX_DISTANCE moves at most), or with an error
 * in *rc; else the least bound past limit.  lim counts the nodes of every
 * thread. */
unsigned ptb_bound_threads(const ptb_bound_search *bs, void *root,
                           unsigned limit, unsigned threads, ptb_limits *lim,
                           uint16_t *line, unsigned *n, int *rc);

/* ---- ida_max.c: abstractions combined by maximum ---------------------- */

/* The abstractions' tables of a description with 'abstraction' lines,
 * open (lib/puzzles/abstract.h): ptb_patterns_open()'s for such a
 * puzzle, in space s's metric.  Immutable once open. */
typedef struct ptb_abstractions ptb_abstractions;
int ptb_abstractions_open(const ptb_space *s, const char *dir,
                          ptb_abstractions **out);
void ptb_abstractions_close(ptb_abstractions *a);   /* NULL is fine */

/* ptb_patterns_solve() for such a puzzle, on 1..256 threads within the
 * limits lim: st's nodes, iterations and bound. */
int ptb_abstractions_solve(const ptb_abstractions *a,
                           const ptb_position *starts, unsigned n,
                           unsigned threads, const ptb_limits *lim,
                           ptb_solution *out, ptb_search_stats *st);

#endif
