/* lib/puzzles/pattern.h: a tile puzzle's pattern spaces (library-internal).
 *
 * A description with 'patterns' (puzzletb-description(5)) is a tile
 * puzzle, 1x1 pieces and one empty cell, whose tiles are split into
 * groups.  Group g's pattern space keeps only where g's tiles and the
 * empty cell stand: the other tiles are interchangeable, and their moves
 * cost nothing, so the empty cell goes anywhere they let it.  A move of
 * the space moves one of g's tiles into the empty cell, wherever the
 * empty cell can get to first; its distance to the goal counts g's moves
 * alone.  The moves of a real position's tiles of g are moves of its
 * image in g's space (those of the other tiles keep the image, or move
 * its empty cell where it could go free), so g's distance of the image is
 * a lower bound on g's moves to the goal, and the sum over the groups, on
 * the position's distance: the disjoint additive pattern databases of
 * R. E. Korf and A. Felner (Disjoint pattern database heuristics,
 * Artificial Intelligence 134, 2002).  All states of a space with the
 * empty cell in one region (the cells it reaches past g's tiles) are one:
 * the space keeps the one with the empty cell on the region's first cell
 * (sl_pattern_index()), and the others are never reached.  A move of the
 * real puzzle changes one group's distance, by at most one.
 *
 * Cells are numbered among the open cells (off the walls), in reading
 * order, from 0; a state of g's space ranks as the empty cell's place
 * among the cells g's tiles leave, then the cells of g's tiles (in their
 * kinds' order), each counted among the cells the ones before it leave
 * (sl_pattern_rank()): (m - k) m! / (m - k)! states for k tiles on m open
 * cells.
 */
#ifndef PTB_PATTERN_H
#define PTB_PATTERN_H

#include "core/puzzle.h"
#include "slide.h"

typedef struct sl_tiles {
    unsigned m;                          /* open cells */
    int grid;                            /* 1: no walls (open cell c is
                                            cell c) */
    unsigned w;                          /* the board's width */
    uint64_t all, first, last;           /* every cell, the first and the
                                            last column */
    uint8_t cell[SL_MAX_CELLS];          /* of each open cell: its cell */
    int8_t open[SL_MAX_CELLS];           /* of each cell: -1 or its open
                                            cell */
    uint64_t nbr[SL_MAX_CELLS];          /* of each open cell: the open
                                            cells next to it */
    unsigned ngroups;
    unsigned k[SL_MAX_PATTERNS];         /* tiles in each group */
    uint8_t kind[SL_MAX_PATTERNS][SL_MAX_KINDS];   /* their kinds */
    uint8_t goal[SL_MAX_PATTERNS][SL_MAX_KINDS];   /* their goal cells */
    uint64_t goal_empty[SL_MAX_PATTERNS];   /* the empty cells of a goal
                                               state of each space */
    uint64_t size[SL_MAX_PATTERNS];      /* states of each space */
    uint64_t tiles[SL_MAX_PATTERNS];     /* ... places of its tiles */
    uint8_t group_of[SL_MAX_KINDS];      /* of a kind: 1 + its group, or
                                            0 */
    uint8_t slot_of[SL_MAX_KINDS];       /* ... and its place in it */
} sl_tiles;

/* The tiles of description d (d->npatterns > 0). */
void sl_tiles_make(const sl_desc *d, sl_tiles *t);

/* The open cells the empty cell e reaches past the cells of 'taken'. */
static inline uint64_t sl_region(const sl_tiles *t, uint64_t taken,
                                 unsigned e)
{
    uint64_t seen = (uint64_t)1 << e, grow = seen;
    if (t->grid) {                   /* no walls: a step is a shift */
        uint64_t free = t->all & ~taken;
        for (;;) {
            uint64_t next = (seen | (seen << 1 & ~t->first) |
                             (seen >> 1 & ~t->last) | seen << t->w |
                             seen >> t->w) & free;
            if (next == seen)
                return seen;
            seen = next;
        }
    }
    while (grow) {
        uint64_t next = 0;
        for (; grow; grow &= grow - 1)
            next |= t->nbr[__builtin_ctzll(grow)];
        grow = next & ~taken & ~seen;
        seen |= grow;
    }
    return seen;
}

/* The rank in group g's space of its tiles at open cells pos[] and the
 * empty cell at e: the empty cell's place among the cells the tiles leave
 * (the digit of most weight, 0 for most states: the slice of them that a
 * search reads most stays small), then each tile's place among the cells
 * the ones before it leave. */
static inline uint64_t sl_pattern_rank(const sl_tiles *t, unsigned g,
                                       const uint8_t *pos, unsigned e)
{
    uint64_t used = 0, idx = 0, taken = 0;
    unsigned k = t->k[g];
    for (unsigned i = 0; i < k; i++) {
        unsigned c = pos[i];
        uint64_t below = used & (((uint64_t)1 << c) - 1);
        idx = idx * (t->m - i) + c - ptb_popcount64(below);
        used |= (uint64_t)1 << c;
    }
    taken = used & (((uint64_t)1 << e) - 1);
    return (e - ptb_popcount64(taken)) * t->tiles[g] + idx;
}

/* The state of group g's space with its tiles at pos[] (their cells: the
 * bits of taken) and the empty cell at e: its rank, the empty cell taken
 * to the first cell of its region. */
static inline uint64_t sl_pattern_index(const sl_tiles *t, unsigned g,
                                        const uint8_t *pos, uint64_t taken,
                                        unsigned e)
{
    return sl_pattern_rank(t, g, pos,
                           (unsigned)__builtin_ctzll(sl_region(t, taken, e)));
}

/* The state of rank idx in group g's space: pos[] and *e. */
void sl_pattern_unrank(const sl_tiles *t, unsigned g, uint64_t idx,
                       uint8_t *pos, unsigned *e);

/* The puzzle of a pattern space's description (d->abstract > 0); it owns
 * d. */
int sl_pattern_puzzle(sl_desc *d, ptb_puzzle **out);

#endif
