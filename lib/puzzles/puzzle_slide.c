/* lib/puzzles/puzzle_slide.c: the engine of every described sliding-block
 * puzzle (lib/puzzles/slide.h; README.md, "Describing a puzzle").
 *
 * Rules.  A move takes one piece; the others stay.  In the step metric it
 * moves one cell up, down, left or right; in the line metric any number of
 * cells in one of those directions; in the move metric to any place it can
 * reach by such steps, turning corners.  A piece that moves along its axis
 * moves only across (a piece wider than tall) or only down and up.  Every
 * move can be taken back and costs one, so the puzzle is reversible and a
 * table stores distances mod 3.
 *
 * States.  With 'covers layouts' the table covers every layout of the
 * start's pieces: every way to place, without overlap and off the walls,
 * as many pieces of each kind as the start has.  Pieces of one kind are
 * interchangeable, so a layout is which kind stands at which anchor.
 * Layouts are ranked densely and perfectly by counting completions cell by
 * cell in reading order (a dynamic programme): at cell c, with 'win' the
 * cells from c on already covered by pieces anchored before c, and 's' the
 * pieces still to place (mixed radix over the kinds), T(c, win, s) is the
 * number of ways to fill the rest.  A free cell is empty or the anchor of a
 * piece of some kind that fits there; the choices are ordered (empty
 * first, then the kinds), and a layout's rank adds, at each free cell, the
 * completions of the choices before its own.  Unranking makes the same
 * choices from the top.  The window holds one bit per cell a piece can
 * reach past its anchor.  When the space opens, T is counted over the
 * states a layout can pass through and kept as a graph whose edges carry
 * those sums, so ranking follows one edge a cell.
 *
 * With 'covers mixes N' the table covers every layout of the labelled
 * pieces the start has and any number of pieces of the other kinds, the
 * free kinds, with at least N empty cells.  Their counts never limit a
 * layout (no more fit than the board holds), so s has no digit for them,
 * and one more, the highest, for the empty cells still needed (N down to
 * 0): the states a layout passes through are the few that differ in what
 * its rest may hold (Klotski 4x5: 1,129 nodes against 20,174 when s
 * counted every kind).
 *
 * With 'covers reachable' the table covers the start's component: for a
 * tile puzzle (tile_puzzle()), half the layouts, ranked by the same
 * programme with a parity bit in its state; otherwise the layouts a search
 * from the start finds, indexed by a trie over the pieces that the table
 * stores (the component's trie, below).
 *
 * When the board, its pieces and its goals are their own mirror images, a
 * layout and its mirror image are one state (make_fold()).
 *
 * The native view (ptb_position.cell) is the user's drawing, a character a
 * cell; aux holds the character the user draws empty cells with, and
 * MIRRORED when the drawing is the mirror image of the table's state (its
 * moves, made on the state, are mirrored onto the drawing: native()).
 *
 * May touch: its arguments, the heap and its thread's last state
 * (state_moves()).  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "slide.h"

/* Inlined, or not, whatever the compiler's estimate: a caller's constant
 * argument (a NULL) removes a hot function's branches; a cold path kept
 * out of a hot function keeps it small. */
#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline)) inline
#define NEVER_INLINE __attribute__((noinline))
#else
#define ALWAYS_INLINE inline
#define NEVER_INLINE
#endif

#define MAX_LEFT (1u << 25)      /* pieces-left states: 128 MB of avail */
#define MAX_STATES (1u << 25)    /* the search's states: 256 MB */
#define MAX_FOLD_PATHS (1u << 22)   /* rows listed to fold the mirror image:
                                       160 MB with their guides; past it,
                                       no folding */
#define MAX_ROW_HASH (1u << 17)     /* rows hashed (row_hash()): 32 MB at
                                       most, 2 MB for klotski-4x5; and
                                       listed, 24 bytes each */
#define HASH_AFTER 4096          /* a folded graph read from a table gets
                                    its row hash once the moves of this
                                    many states were listed (hash_late()):
                                    a batch's, not one query's */
#define MAX_LAYOUTS ((uint64_t)1 << 40)
#define MAX_GRAPH ((uint64_t)3 << 25)   /* the graph's nodes and edges:
                                           1.5 GB */

/* A layout's key in a component table: the anchors of the pieces, six
 * bits each, kind by kind in order, each kind's in reading order, packed
 * from the top of hi; compared as (hi, lo). */
typedef struct sl_key {
    uint64_t hi, lo;
} sl_key;

#define MAX_KEY_PIECES 21        /* 6 bits each in 128 */
#define MAX_COMPONENT ((uint64_t)1 << 26)   /* states: 1 GB of keys */

/* A level of the component's trie (below): the piece it places, the
 * anchors that piece takes in the component, and a bit a node and anchor,
 * with the set bits before each word. */
typedef struct trie_level {
    unsigned slot, radix;
    uint8_t alpha[SL_MAX_CELLS];   /* the anchors, ascending */
    uint8_t digit[SL_MAX_CELLS];   /* of each cell: 1 + its place in alpha,
                                      or 0 */
    uint64_t nodes, nwords;
    uint64_t *word, *cum;
} trie_level;

/* The programme's graph (below) is one array of 16-byte units: a node is
 * a header, its state, and a unit for each choice up to its last, the
 * edge of choice i in unit EDGES + i (unused where the choice has no
 * edge), and is
 * named by its header's place; so ranking reads a node's header and the
 * edge of a choice at once, not one after the other. */
typedef struct sl_edge {
    uint64_t before;             /* completions of the choices before it */
    uint32_t next;               /* its node at the next cell */
    int32_t kind;                /* the kind placed; -1 empty; PASS */
} sl_edge;

typedef struct sl_node {
    uint64_t total;              /* its layouts (completions) */
    uint32_t choice;             /* a bit for each choice with an edge
                                    (bit 0: empty, or a wall or covered
                                    cell; bit k + 1: kind k) */
    uint32_t frow;               /* 1 + its fold row (make_fold()), or 0 */
} sl_node;

typedef union sl_unit {
    sl_node node;
    sl_edge edge;
    uint64_t state[2];           /* a node's second unit: its state, 0 */
} sl_unit;

#define EDGES 2                  /* a node's units before its edges */

/* A fold row and its paths (the mirror image, below: make_fold()). */
typedef struct fold_path {
    uint64_t off;                /* plain completions before it, from v */
    uint64_t before;             /* canonical completions of the paths
                                    before it */
    uint32_t end;                /* its node at the next row */
    uint32_t same;               /* 1: the row is its own mirror image */
} fold_path;

/* A row of the graph found by its node and its anchors (row_bytes()):
 * row_hash(); node 0 marks a free slot. */
typedef struct row_slot {
    uint64_t row;
    uint64_t off;                /* plain completions before it, from node */
    uint32_t node;               /* at the row's first cell */
    uint32_t end;                /* its node at the next row */
    uint32_t path;               /* 1 + its fold path when node is a fold
                                    row's and the row not after its mirror
                                    image, else 0 */
    uint32_t pad;
} row_slot;

/* A row of node v (row_hash()): its anchors, the plain completions
 * before it, its node at the next row, and n, the rows of v, with
 * ONE_EACH when each has one completion (a last row's node: the row's
 * place is its plain rank). */
typedef struct row_entry {
    uint64_t off, row;
    uint32_t end, n;
} row_entry;
#define ONE_EACH 0x80000000u

/* (After the last row, one more: its first the number of paths.) */
typedef struct fold_row {
    uint64_t count;              /* F(node) */
    uint32_t node;               /* its node, at the row's first cell */
    uint32_t first;              /* its paths: fpath[first .. the next
                                    row's first) */
} fold_row;

/* What the moves and the mirror image need of a piece of one kind at one
 * anchor (a few kB a space, allocated for the kinds and cells it has: a
 * query's process touches few pages). */
typedef struct sl_place {
    int8_t step[4];              /* the anchor one cell away in each
                                    direction (UDLR) that it can take on
                                    the empty board, or -1 */
    uint64_t need[4];            /* the cells it newly covers by that
                                    step: they must be free */
    uint64_t halo;               /* those of every step: with none of
                                    them free, it cannot move */
    uint64_t mimage;             /* folded: its mirror image's byte in
                                    row_bytes() of its row */
    uint64_t pad;                /* (64 bytes: a cache line) */
} sl_place;

typedef struct sl_ctx {
    uint64_t space;              /* its number (state_moves()) */
    const sl_desc *d;
    unsigned metric;             /* SL_STEP, SL_LINE, SL_MOVE */
    struct sl_place *place;      /* of each kind k and anchor a, at
                                    k * n + a: place_of() */
    unsigned n;                  /* d->n, beside place (place_of()) */
    unsigned wbits;              /* window bits */
    uint64_t nwin, nleft;        /* 2^wbits; states of pieces left */
    unsigned npar;               /* 2: T counts by parity (a tile puzzle's
                                    class), else 1 */
    unsigned target;             /* the start's parity */
    unsigned goal_colour;        /* with parity(): the empty cell's colour
                                    at the goals */
    uint64_t radix[SL_MAX_KINDS];  /* 0: a free kind (covers mixes: any
                                      number, a piece always left) */
    uint64_t radix_e;            /* covers mixes N: the digit of the empty
                                    cells still needed (the highest), else
                                    nleft (no digit) */
    uint32_t free;               /* the free kinds, a bit each */
    unsigned most[SL_MAX_KINDS];   /* pieces of each kind in a layout (a
                                      free kind: 0, it has no digit) */
    unsigned open;                 /* cells off the walls */
    uint64_t full;               /* every piece left */
    uint64_t size;               /* states: layouts, or the component */
    /* the programme's graph (covers layouts, or a tile puzzle's class);
     * node 0 is the end; the units of cell c's nodes start at unit lo[c]
     * (cells from the last back: lo[last] is EDGES, the root lo[0]) */
    sl_unit *graph;
    uint32_t root;               /* the node of cell 0 */
    uint32_t nunits, lo[SL_MAX_CELLS];
    /* A graph read from a table's ranking (in place, not owned: shared)
     * is checked node by node the first time a walk comes to one
     * (node_checked()): ok[] a bit a unit, set once its node holds;
     * damaged, set when one does not (slide_status()). */
    int shared, lazy;
    uint64_t *ok;
    int damaged;
    uint32_t *avail;             /* of each s: a bit per kind with a piece
                                    left */
    /* the open cells before each cell, the black cells (row + column
     * odd); a tile puzzle's, of each s: the tiles placed, and a bit per
     * kind for the parity of the placed tiles after it */
    uint8_t before[SL_MAX_CELLS];
    uint8_t row[SL_MAX_CELLS];   /* of each cell, its row's first */
    uint64_t row_mask;           /* row_bytes(): a row's bytes */
    uint64_t first_col, last_col;   /* the cells of the first and the last
                                       column */
    uint64_t black;
    uint8_t *placed;
    uint32_t *flips;
    trie_level *level;           /* the component's trie (covers
                                    reachable, not a tile puzzle), a level
                                    a piece */
    const unsigned char *saved;  /* the graph's ranking, as a table stores
                                    it: the puzzle's stored one, or made
                                    (own_saved) by save_graph(); or NULL */
    size_t saved_len;
    unsigned char *own_saved;
    /* the mirror image folded (make_fold()): each kind's mirror image;
     * the fold rows (a node's, in its frow; nfrow and one past them) and
     * their paths; made here, or read from a table (load_graph(): in
     * place when the graph is) */
    int fold;
    int8_t mirror[SL_MAX_KINDS];
    struct fold_row *frow;
    size_t nfrow;
    struct fold_path *fpath;
    size_t nfpath;
    uint32_t *fguide;            /* of each fold row, two guides to its
                                    paths (fold_find()) */
    uint64_t *fok;               /* read from a table: a bit a fold row
                                    that holds (row_checked()) */
    struct row_slot *rslot;      /* every row by node and anchors
                                    (row_hash()), or NULL; in use once
                                    hashed is set (hashed()) */
    uint32_t rmask;              /* its slots - 1 */
    int hashed;
    uint64_t asked;              /* read from a table: the states whose
                                    moves were listed (atomic), up to
                                    HASH_AFTER (hash_late()) */
    /* with rslot, so that an unrank takes a row at once (fold_unrank()):
     * each row-start node v's rows in rank order, from rrow[rfirst[v]]
     * (rfirst: 4 bytes a unit of the graph, whose units take 16) */
    struct row_entry *rrow;
    uint32_t *rfirst;
} sl_ctx;

static inline sl_place *place_of(const sl_ctx *x, unsigned k, unsigned a)
{
    return &x->place[k * x->n + a];
}

static uint64_t spaces;          /* opened (atomic): sl_ctx.space */

/* A layout: the kind at each anchor, the covered cells, the anchors. */
typedef struct layout {
    uint8_t at[SL_MAX_CELLS];    /* kind + 1 at an anchor, else 0 */
    uint64_t occ;
    unsigned np;
    uint8_t anchor[SL_MAX_PIECES];
} layout;

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ==== the dynamic programme ============================================= */

/* A state of a cell: its window, parity and pieces left (with the empty
 * cells still needed), packed as win << 32 | p << 31 | s (s < MAX_LEFT). */
#define STATE(win, p, s) ((uint64_t)(win) << 32 | (uint64_t)(p) << 31 | (s))
#define WIN(st) ((st) >> 32)
#define PAR(st) ((unsigned)((st) >> 31 & 1))
#define LEFT(st) ((st) & 0x7FFFFFFFu)
/* Whether kind k, with a piece left, can stand at free cell c with window
 * win. */
static inline int fits(const sl_ctx *x, unsigned c, uint64_t win, unsigned k)
{
    const sl_kind *kd = &x->d->kind[k];
    return (kd->fit >> c & 1) && !(kd->shape & win);
}

/* The state after free cell c of state st is left empty (k < 0) or takes
 * a piece of kind k.  A tile puzzle's parity (see tile_puzzle()) is that
 * of the permutation of the cells' contents in reading order, the empty
 * cell counted as the last symbol, plus the colour of the empty cell:
 * placing tile k adds an inversion for every greater symbol placed before
 * (the tiles after k, in flips[s], and the empty cell), placing the empty
 * cell adds its colour. */
static inline uint64_t next_of(const sl_ctx *x, unsigned c, uint64_t st,
                               int k)
{
    uint64_t win = WIN(st), s = LEFT(st);
    unsigned p = PAR(st);
    if (k < 0) {
        if (x->npar > 1)
            p ^= (unsigned)(x->black >> c & 1);
        return STATE(win >> 1, p, s >= x->radix_e ? s - x->radix_e : s);
    }
    if (x->npar > 1)
        p ^= (x->flips[s] >> k & 1) ^ (x->before[c] > x->placed[s]);
    return STATE((win | x->d->kind[k].shape) >> 1, p, s - x->radix[k]);
}

/* The states of cell c + 1 that state st of cell c leads to: a wall or a
 * covered cell, one; a free cell, empty and then each kind that can stand
 * there, in that order, with the kind into kind[] (-1: empty).  Returns
 * how many, into next[] (at most SL_MAX_KINDS + 1). */
static unsigned choices(const sl_ctx *x, unsigned c, uint64_t st,
                        uint64_t *next, int *kind)
{
    uint64_t win = WIN(st);
    unsigned n = 0;
    if (win & 1 || x->d->walls >> c & 1) {
        next[0] = STATE(win >> 1, PAR(st), LEFT(st));
        return 1;
    }
    kind[n] = -1;
    next[n++] = next_of(x, c, st, -1);
    for (uint32_t m = x->avail[LEFT(st)]; m; m &= m - 1) {
        unsigned k = ptb_low_bit(m);
        if (fits(x, c, win, k)) {
            kind[n] = (int)k;
            next[n++] = next_of(x, c, st, (int)k);
        }
    }
    return n;
}

/* The programme as a graph, made when the space opens: a node for every
 * state a layout can pass through that has completions (numbered from the
 * end back: node 0 is the end, the root the state of cell 0), with their
 * number; its edges are its choices that have completions, in order, each
 * with the completions of the choices before it.  Ranking and unranking
 * follow edges, with no arithmetic on states.  The nodes' states are
 * found by a search, or read from a table (its "ranking" record), which
 * saves the search and most of the work. */
#define PASS (-2)                /* the edge of a wall or a covered cell */

/* A layout's path through the graph: its node and rank so far before
 * each cell and after the last (with the mirror image folded, before each
 * row, and whether the rows above are their own mirror images).
 * Unranking a layout records it, so that ranking a layout one move away
 * starts at the first cell (or row) the move changes, and stops where,
 * past the last, its path meets this one: the rest of the rank is this
 * one's. */
typedef struct prefix {
    uint32_t node[SL_MAX_CELLS + 1];
    uint64_t r[SL_MAX_CELLS + 1];
    uint8_t same[SL_MAX_CELLS + 1];  /* at each row's first cell, and
                                        after the last row */
} prefix;

/* Puts into path p (may be NULL) at cell c: node v, rank r so far, same. */
static inline void set_path(prefix *p, unsigned c, uint32_t v, uint64_t r,
                            int same)
{
    if (p) {
        p->node[c] = v;
        p->r[c] = r;
        p->same[c] = (uint8_t)same;
    }
}

/* Whether a state after the last cell is a layout of the table: every
 * piece placed (of a kind whose number may vary, any number, leaving
 * min_empty cells), and the start's parity. */
static int complete(const sl_ctx *x, uint64_t st)
{
    return !WIN(st) && PAR(st) == x->target && !LEFT(st);
}

/* The programme's nodes, cell by cell: the states of cell c are
 * st[at[c] .. at[c] + n[c]), ascending. */
typedef struct layers {
    uint64_t *st;
    size_t at[SL_MAX_CELLS + 1], n[SL_MAX_CELLS + 1];
} layers;

/* Makes room in a growing array of n elements of size sz (capacity *cap,
 * doubled as needed) for element n; PTB_EINVAL past most elements. */
static int push(void **a, size_t *cap, size_t n, size_t sz, size_t most)
{
    while (n >= *cap) {
        if (2 * *cap > most)
            return PTB_EINVAL;
        void *b = realloc(*a, 2 * *cap * sz);
        if (!b)
            return PTB_ENOMEM;
        *a = b;
        *cap *= 2;
    }
    return PTB_OK;
}

/* A cell's states, hashed: slot[h] is 1 + the place of a state in st[],
 * or 0 (open addressing, at most half full). */
typedef struct state_set {
    const uint64_t *st;
    uint32_t *slot;
    uint64_t mask;
    unsigned shift;              /* 64 - log2(slots) */
} state_set;

static uint64_t state_hash(const state_set *h, uint64_t st)
{
    return st * 0x9E3779B97F4A7C15u >> h->shift;
}

/* Makes h the set of st[0..n-1] (distinct), in *slot, which grows. */
static int hash_states(state_set *h, const uint64_t *st, size_t n,
                       size_t *cap)
{
    size_t size = 16;
    h->shift = 60;
    for (; size < 2 * n; size *= 2)
        h->shift--;
    if (size > *cap) {
        uint32_t *s = realloc(h->slot, size * sizeof *s);
        if (!s)
            return PTB_ENOMEM;
        h->slot = s;
        *cap = size;
    }
    memset(h->slot, 0, size * sizeof *h->slot);
    h->st = st;
    h->mask = size - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t j = state_hash(h, st[i]);
        while (h->slot[j])
            j = (j + 1) & h->mask;
        h->slot[j] = (uint32_t)i + 1;
    }
    return PTB_OK;
}

/* The place of st in the set, or -1. */
static int64_t find_state(const state_set *h, uint64_t st)
{
    for (uint64_t j = state_hash(h, st); h->slot[j]; j = (j + 1) & h->mask)
        if (h->st[h->slot[j] - 1] == st)
            return (int64_t)h->slot[j] - 1;
    return -1;
}

/* Lists the states a layout can pass through: a search forward from
 * (cell 0, nothing covered, every piece left), cell by cell, each cell's
 * states sorted (Century: 12,558 of 161,280 entries; Ma's Puzzle 14,698
 * of 399,360). */
static int reach_states(const sl_ctx *x, layers *ly)
{
    const sl_desc *d = x->d;
    uint64_t next[SL_MAX_KINDS + 1];
    int kind[SL_MAX_KINDS + 1];
    size_t len = 0, cap = 4096;
    if (!(ly->st = malloc(cap * sizeof *ly->st)))
        return PTB_ENOMEM;
    ly->st[len++] = STATE(0, 0, x->full);
    ly->n[0] = 1;
    for (unsigned c = 0; c + 1 < d->n; c++) {   /* the last cell's are
                                                   linked as they come */
        size_t from = len;
        for (size_t i = ly->at[c]; i < ly->at[c] + ly->n[c]; i++) {
            unsigned nn = choices(x, c, ly->st[i], next, kind);
            int rc = push((void **)&ly->st, &cap, len + nn - 1,
                          sizeof *ly->st, MAX_STATES);
            if (rc != PTB_OK)
                return rc;
            for (unsigned j = 0; j < nn; j++)
                ly->st[len++] = next[j];
        }
        qsort(ly->st + from, len - from, sizeof *ly->st, ptb_u64_cmp);
        size_t u = from;
        for (size_t i = from; i < len; i++)
            if (i == from || ly->st[i] != ly->st[u - 1])
                ly->st[u++] = ly->st[i];
        len = u;
        ly->at[c + 1] = from;
        ly->n[c + 1] = len - from;
    }
    ly->at[d->n] = len;
    ly->n[d->n] = 0;
    return PTB_OK;
}

/* Makes the graph from the states of ly, from the last cell back: a
 * state's edges are its choices that lead to a node (after the last cell,
 * a complete state leads to node 0, the end; before, a state of the next
 * cell's, found in a hash of them), in order, each with the completions of
 * the choices before it.  Nodes are laid out from the end back, each
 * cell's in order; the root, cell 0's state, is the last.  A state with no
 * completions is dropped from its cell. */
static int link_nodes(sl_ctx *x, layers *ly)
{
    const sl_desc *d = x->d;
    uint64_t next[SL_MAX_KINDS + 1];
    int kind[SL_MAX_KINDS + 1];
    size_t states = ly->at[d->n], used = EDGES, hcap = 0;
    /* room for every node's every choice, up to 16 MB at first */
    size_t cap = (states + 1) * (d->nkinds + 3) + 2 * SL_MAX_KINDS + 4;
    uint32_t nodes = 1, base[SL_MAX_CELLS + 1];
    uint32_t *where;             /* of each node in order, its place */
    state_set ahead = { NULL, NULL, 0, 0 };
    if (states >= UINT32_MAX / 2)
        return PTB_EINVAL;
    cap = cap < ((size_t)1 << 20) ? cap : (size_t)1 << 20;
    where = malloc((states + 1) * sizeof *where);
    x->graph = malloc(cap * sizeof *x->graph);
    int rc = where && x->graph ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK) {                 /* node 0: the end */
        x->graph[0].node = (sl_node){ 1, 0, 0 };
        x->graph[1] = (sl_unit){ .state = { 0, 0 } };
        where[0] = 0;
    }
    for (unsigned c = d->n; rc == PTB_OK && c-- > 0;) {
        size_t kept = 0;
        int last = c + 1 == d->n;
        base[c] = nodes;
        x->lo[c] = (uint32_t)used;
        if (!last && (rc = hash_states(&ahead, ly->st + ly->at[c + 1],
                                       ly->n[c + 1], &hcap)) != PTB_OK)
            break;
        for (size_t i = 0; rc == PTB_OK && i < ly->n[c]; i++) {
            uint64_t st = ly->st[ly->at[c] + i], before = 0;
            unsigned nn = choices(x, c, st, next, kind), ne = 0;
            uint32_t choice = 0;
            int pass = WIN(st) & 1 || d->walls >> c & 1;
            /* room for its units and, past them, the most a walk reads */
            if ((rc = push((void **)&x->graph, &cap,
                           used + 2 * SL_MAX_KINDS + 3, sizeof *x->graph,
                           MAX_GRAPH)) != PTB_OK)
                break;
            for (unsigned j = 0; j < nn; j++) {
                int64_t at = last ? complete(x, next[j]) - 1
                                  : find_state(&ahead, next[j]);
                if (at < 0)
                    continue;           /* no completions */
                uint32_t to = last ? 0 : where[base[c + 1] + at];
                unsigned i = pass ? 0 : (unsigned)kind[j] + 1;
                ne = i + 1;             /* (the units skipped: never read) */
                x->graph[used + EDGES + i].edge = (sl_edge){
                    before, to, (int8_t)(pass ? PASS : kind[j]) };
                choice |= 1u << i;
                before = add_sat(before, x->graph[to].node.total);
            }
            if (before) {
                x->graph[used].node = (sl_node){ before, choice, 0 };
                x->graph[used + 1] = (sl_unit){ .state = { st, 0 } };
                where[nodes++] = (uint32_t)used;
                used += EDGES + ne;
                ly->st[ly->at[c] + kept++] = st;
            }
        }
        ly->n[c] = kept;
    }
    free(ahead.slot);
    if (rc == PTB_OK && ly->n[0] != 1)
        rc = PTB_EINVAL;                /* no layout at all */
    if (rc == PTB_OK) {
        x->root = where[nodes - 1];
        x->size = x->graph[x->root].node.total;
        x->nunits = (uint32_t)used;
    }
    free(where);
    return rc;
}

/* The units of node v: its header's, and one a choice up to its last. */
static uint32_t node_units(const sl_ctx *x, uint32_t v)
{
    return EDGES + 32 - (unsigned)__builtin_clz(x->graph[v].node.choice);
}

/* The graph's form in a table (FORMAT.md, "ranking"): 4 zero bytes (a
 * trie starts with its levels, at least 1), the cells, the first unit
 * of each cell's nodes and the units, 4 bytes each, then from
 * GRAPH_AT(cells) on the units, 16 bytes each: a node its total (8
 * bytes), choice and frow (4 each), then its state (8) and 0 (8); an edge
 * its before (8), next and kind (4 each); a unit without an edge zero.
 * When the description is its own mirror image (foldable()), the fold
 * rows follow: their number and their paths' (4 each) and 0 (8), then
 * the rows and the one past them (16 bytes each: count 8, node and first
 * 4 each), the paths (24 each: off and before 8 each, end and same 4
 * each) and their guides (4 each, as fguide): the structs' own layout.
 * Little-endian. */
static int foldable(sl_ctx *x);

#define GRAPH_AT(n) (((size_t)12 + 4 * (n) + 15) / 16 * 16)
#define FOLD_BYTES(rows, paths) \
    (16 + 16 * ((size_t)(rows) + 1) + 32 * (size_t)(paths))

static int save_graph(sl_ctx *x)
{
    const sl_desc *d = x->d;
    size_t at = GRAPH_AT(d->n) + 16 * (size_t)x->nunits;
    size_t len = at + (foldable(x) ? FOLD_BYTES(x->nfrow, x->nfpath) : 0);
    unsigned char *p = x->own_saved = calloc(1, len), *u;
    if (!p)
        return PTB_ENOMEM;
    x->saved = p;
    x->saved_len = len;
    ptb_put_le(p + 4, d->n, 4);
    for (unsigned c = 0; c < d->n; c++)
        ptb_put_le(p + 8 + 4 * c, x->lo[c], 4);
    ptb_put_le(p + 8 + 4 * d->n, x->nunits, 4);
    u = p + GRAPH_AT(d->n);
    ptb_put_le(u, 1, 8);                /* the end */
    for (uint32_t v = EDGES; v < x->nunits; v += node_units(x, v)) {
        const sl_node *nd = &x->graph[v].node;
        ptb_put_le(u + 16 * v, nd->total, 8);
        ptb_put_le(u + 16 * v + 8, nd->choice, 4);
        ptb_put_le(u + 16 * v + 12, nd->frow, 4);
        ptb_put_le(u + 16 * (v + 1), x->graph[v + 1].state[0], 8);
        for (uint32_t m = nd->choice; m; m &= m - 1) {
            const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(m)].edge;
            unsigned char *q = u + 16 * (v + EDGES + ptb_low_bit(m));
            ptb_put_le(q, e->before, 8);
            ptb_put_le(q + 8, e->next, 4);
            ptb_put_le(q + 12, (uint32_t)e->kind, 4);
        }
    }
    if (len == at)
        return PTB_OK;
    p += at;
    ptb_put_le(p, x->nfrow, 4);
    ptb_put_le(p + 4, x->nfpath, 4);
    p += 16;
    for (size_t i = 0; i < x->nfrow; i++, p += 16) {
        ptb_put_le(p, x->frow[i].count, 8);
        ptb_put_le(p + 8, x->frow[i].node, 4);
        ptb_put_le(p + 12, x->frow[i].first, 4);
    }
    ptb_put_le(p + 12, x->nfpath, 4);   /* the one past them */
    p += 16;
    for (size_t j = 0; j < x->nfpath; j++, p += 24) {
        ptb_put_le(p, x->fpath[j].off, 8);
        ptb_put_le(p + 8, x->fpath[j].before, 8);
        ptb_put_le(p + 16, x->fpath[j].end, 4);
        ptb_put_le(p + 20, x->fpath[j].same, 4);
    }
    for (size_t j = 0; j < 2 * x->nfpath; j++, p += 4)
        ptb_put_le(p, x->fguide[j], 4);
    return PTB_OK;
}

/* The fold rows of a graph read from a table (save_graph()), in place
 * when the graph is, else a copy; only their frame checked here, and the
 * root's row (so the space's size); the others when fold_find() first
 * comes to one (check_row()). */
static int row_checked(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c);
static int load_fold(sl_ctx *x, const unsigned char *p, size_t len)
{
    if (len < 16 || ptb_get_le64(p + 8))
        return PTB_EFORMAT;
    x->nfrow = (uint32_t)ptb_get_le(p, 4);
    x->nfpath = (uint32_t)ptb_get_le(p + 4, 4);
    if (x->nfrow > x->nunits || x->nfpath > MAX_FOLD_PATHS ||
        len != FOLD_BYTES(x->nfrow, x->nfpath))
        return PTB_EFORMAT;
    p += 16;
    if (x->shared) {
        x->frow = (fold_row *)(uintptr_t)p;
        x->fpath = (fold_path *)(uintptr_t)(p + 16 * (x->nfrow + 1));
        x->fguide = (uint32_t *)(uintptr_t)(p + 16 * (x->nfrow + 1) +
                                            24 * x->nfpath);
    } else {
        x->frow = malloc((x->nfrow + 1) * sizeof *x->frow);
        x->fpath = malloc((x->nfpath + 1) * sizeof *x->fpath);
        x->fguide = malloc((2 * x->nfpath + 1) * sizeof *x->fguide);
        if (!x->frow || !x->fpath || !x->fguide)
            return PTB_ENOMEM;
        for (size_t i = 0; i <= x->nfrow; i++, p += 16)
            x->frow[i] = (fold_row){ ptb_get_le64(p),
                                     (uint32_t)ptb_get_le(p + 8, 4),
                                     (uint32_t)ptb_get_le(p + 12, 4) };
        for (size_t j = 0; j < x->nfpath; j++, p += 24)
            x->fpath[j] = (fold_path){ ptb_get_le64(p), ptb_get_le64(p + 8),
                                       (uint32_t)ptb_get_le(p + 16, 4),
                                       (uint32_t)ptb_get_le(p + 20, 4) };
        for (size_t j = 0; j < 2 * x->nfpath; j++, p += 4)
            x->fguide[j] = (uint32_t)ptb_get_le(p, 4);
    }
    if (x->frow[x->nfrow].first != x->nfpath || (!x->nfrow && x->nfpath) ||
        x->frow[x->nfrow].count || x->frow[x->nfrow].node)
        return PTB_EFORMAT;
    if (!x->nfrow)
        return PTB_OK;                  /* left unfolded */
    if (!(x->fok = calloc(x->nfrow / 64 + 1, sizeof *x->fok)))
        return PTB_ENOMEM;
    if (x->graph[x->root].node.frow != 1 ||
        !row_checked(x, 1, x->root, 0))
        return PTB_EFORMAT;
    x->fold = 1;
    x->size = x->frow[0].count;
    return PTB_OK;
}

/* The graph of a stored ranking in its graph form, used where it lies
 * (or, on a big-endian machine or unaligned, a copy): only its frame is
 * checked here, and the root; the nodes, lazily (node_checked()), and the fold
 * rows (load_fold()).  PTB_EFORMAT unless the units' ranges hold. */
static inline int node_checked(const sl_ctx *x, uint32_t v, unsigned c);
static int load_graph(sl_ctx *x, const unsigned char *p, size_t len)
{
    const sl_desc *d = x->d;
    size_t at;
    if (len < GRAPH_AT(d->n) || ptb_get_le(p, 4) ||
        ptb_get_le(p + 4, 4) != d->n)
        return PTB_EFORMAT;
    x->nunits = (uint32_t)ptb_get_le(p + 8 + 4 * d->n, 4);
    at = GRAPH_AT(d->n) + 16 * (size_t)x->nunits;
    if (x->nunits < 2 || x->nunits > MAX_GRAPH || len < at ||
        (foldable(x) ? len == at : len != at))   /* (fold rows: below) */
        return PTB_EFORMAT;
    for (unsigned c = d->n; c-- > 0;) {
        x->lo[c] = (uint32_t)ptb_get_le(p + 8 + 4 * c, 4);
        if (x->lo[c] <= (c + 1 < d->n ? x->lo[c + 1] : 0) ||
            x->lo[c] >= x->nunits)
            return PTB_EFORMAT;
    }
    if (x->lo[d->n - 1] != EDGES)
        return PTB_EFORMAT;
    const unsigned char *u = p + GRAPH_AT(d->n);
    const union { uint16_t i; uint8_t b; } one = { 1 };
    if (one.b && !((uintptr_t)u % _Alignof(sl_unit))) {
        x->graph = (sl_unit *)(uintptr_t)u;
        x->shared = 1;
    } else {
        if (!(x->graph = malloc((size_t)x->nunits * sizeof *x->graph)))
            return PTB_ENOMEM;
        for (uint32_t v = 0; v < x->nunits; v++) {   /* either view */
            x->graph[v].node.total = ptb_get_le64(u + 16 * v);
            x->graph[v].node.choice = (uint32_t)ptb_get_le(u + 16 * v + 8, 4);
            x->graph[v].node.frow = (uint32_t)ptb_get_le(u + 16 * v + 12, 4);
        }
    }
    const sl_node *end = &x->graph[0].node;
    if (end->total != 1 || end->choice || end->frow)
        return PTB_EFORMAT;
    if (!(x->ok = calloc(x->nunits / 64 + 1, sizeof *x->ok)))
        return PTB_ENOMEM;
    x->lazy = 1;
    x->root = x->lo[0];
    if (x->graph[x->root + 1].state[0] != STATE(0, 0, x->full))
        return PTB_EFORMAT;
    x->size = x->graph[x->root].node.total;    /* (folded: load_fold()'s) */
    int rc = len > at ? load_fold(x, p + at, len - at) : PTB_OK;
    return rc != PTB_OK ? rc                   /* (after nfrow, which
                                                  check_node() reads) */
           : node_checked(x, x->root, 0) ? PTB_OK : PTB_EFORMAT;
}

/* Whether node v of cell c holds, read from a table: a node of cell c
 * (the root, or reached by an edge that checked its state), with a state
 * of the programme's, whose edges are the choices of its state that the
 * programme makes (each to a node of the next cell whose state is the
 * choice's, or past the last cell to the end with a complete state), each
 * with the completions of the ones before it, and whose total is theirs
 * all.  So a walk over checked nodes makes layouts by the rules, and
 * ranks them as the programme does, whatever the table holds. */
static int check_node(const sl_ctx *x, uint32_t v, unsigned c)
{
    const sl_desc *d = x->d;
    uint32_t hi = c ? x->lo[c - 1] : x->nunits;
    uint64_t next[SL_MAX_KINDS + 1], st, sum = 0;
    int kind[SL_MAX_KINDS + 1];
    if (v < x->lo[c] || v + 1 >= hi)
        return 0;
    st = x->graph[v + 1].state[0];
    if (WIN(st) >= x->nwin || PAR(st) >= x->npar || LEFT(st) >= x->nleft)
        return 0;
    const sl_node *nd = &x->graph[v].node;
    uint32_t left = nd->choice;
    if (!left || nd->frow > x->nfrow || left >> (d->nkinds + 1) ||
        v + EDGES - 1 + 32 - (unsigned)__builtin_clz(left) >= hi)
        return 0;
    unsigned nn = choices(x, c, st, next, kind);
    int pass = WIN(st) & 1 || d->walls >> c & 1;
    for (unsigned j = 0; j < nn; j++) {
        unsigned i = pass ? 0 : (unsigned)(kind[j] + 1);
        if (!(left >> i & 1))
            continue;
        left &= ~(1u << i);
        const sl_edge *e = &x->graph[v + EDGES + i].edge;
        if (e->kind != (pass ? PASS : kind[j]) || e->before != sum)
            return 0;
        if (c + 1 == d->n ? e->next != 0 || !complete(x, next[j])
                          : e->next < x->lo[c + 1] || e->next + 1 >= x->lo[c] ||
                                x->graph[e->next + 1].state[0] != next[j])
            return 0;
        uint64_t t = x->graph[e->next].node.total;
        if (!t || t > MAX_LAYOUTS)
            return 0;
        sum += t;
    }
    return !left && sum == nd->total && sum <= MAX_LAYOUTS;
}

/* What was found to hold in a graph read from a table (ok[], fok[]): a
 * bit each, set once (threads may check one twice). */
static inline int held(const uint64_t *bits, uint64_t i)
{
    return __atomic_load_n(&bits[i / 64], __ATOMIC_ACQUIRE) >> i % 64 & 1;
}

static void hold(uint64_t *bits, uint64_t i)
{
    __atomic_fetch_or(&bits[i / 64], (uint64_t)1 << i % 64, __ATOMIC_RELEASE);
}

/* Something read from a table did not hold: every answer from the space
 * is void (slide_status()).  Returns 0. */
static int damage(const sl_ctx *x)
{
    __atomic_store_n(&((sl_ctx *)(uintptr_t)x)->damaged, 1,
                     __ATOMIC_RELAXED);
    return 0;
}

/* Whether node v of cell c of a graph read from a table may be walked:
 * once check_node() has found it to hold (else the space is damaged). */
static int node_check(const sl_ctx *x, uint32_t v, unsigned c)
{
    if (v < x->nunits && check_node(x, v, c)) {
        hold(x->ok, v);
        return 1;
    }
    return damage(x);
}

static inline int node_checked(const sl_ctx *x, uint32_t v, unsigned c)
{
    return (v < x->nunits && held(x->ok, v)) || node_check(x, v, c);
}

/* The parity a layout ends with (a tile puzzle's class). */
static unsigned parity_of(const sl_ctx *x, const layout *l)
{
    const sl_desc *d = x->d;
    uint64_t st = STATE(0, 0, x->full);
    for (unsigned c = 0; c < d->n; c++)
        st = WIN(st) & 1 || d->walls >> c & 1
                 ? STATE(WIN(st) >> 1, PAR(st), LEFT(st))
                 : next_of(x, c, st, l->at[c] ? l->at[c] - 1 : -1);
    return PAR(st);
}

/* The programme's graph (with the ranking it saves), from a table's
 * stored ranking when saved is not NULL. */
static int make_table(sl_ctx *x, const layout *start,
                      const unsigned char *saved, size_t saved_len)
{
    const sl_desc *d = x->d;
    uint64_t span = 0;
    x->nleft = 1;
    for (unsigned c = 0; c < d->n; c++) {
        x->before[c] = (uint8_t)x->open;
        x->open += !(d->walls >> c & 1);
        x->black |= (uint64_t)((c / d->w + c % d->w) & 1) << c;
    }
    for (unsigned k = 0; k < d->nkinds; k++) {
        if (d->mixes && !d->kind[k].label) {
            x->free |= 1u << k;
        } else {
            x->most[k] = d->kind[k].count;
            x->radix[k] = x->nleft;
            x->nleft *= x->most[k] + 1;        /* at most 2^25 * 65 */
        }
        if (x->nleft > MAX_LEFT)
            return PTB_EINVAL;
        x->full += x->most[k] * x->radix[k];
        span |= d->kind[k].shape;
    }
    x->radix_e = x->nleft;
    if (d->mixes) {
        x->nleft *= d->min_empty + 1;
        x->full += d->min_empty * x->radix_e;
        if (x->nleft > MAX_LEFT)
            return PTB_EINVAL;
    }
    x->wbits = 64 - (unsigned)__builtin_clzll(span | 1);
    if (x->wbits > 25)
        return PTB_EINVAL;
    x->nwin = (uint64_t)1 << x->wbits;
    x->avail = malloc(x->nleft * sizeof *x->avail);
    if (!x->avail)
        return PTB_ENOMEM;
    /* s counted up digit by digit (kind 0's the lowest), the kinds with a
     * piece left kept as it goes: no division a state */
    unsigned digit[SL_MAX_KINDS] = { 0 };
    uint32_t left = 0;
    for (uint64_t s = 0; s < x->nleft; s++) {
        x->avail[s] = left | x->free;
        for (unsigned k = 0; k < d->nkinds; k++) {
            if (++digit[k] <= x->most[k]) {
                left |= 1u << k;
                break;
            }
            digit[k] = 0;
            left &= ~(1u << k);
        }
    }
    if (x->npar > 1) {
        x->placed = malloc(x->nleft);
        x->flips = calloc(x->nleft, sizeof *x->flips);
        if (!x->placed || !x->flips)
            return PTB_ENOMEM;
        for (uint64_t s = 0; s < x->nleft; s++) {
            uint32_t placed = ~x->avail[s] & ((1u << d->nkinds) - 1);
            x->placed[s] = (uint8_t)ptb_popcount(placed);
            for (unsigned k = 0; k < d->nkinds; k++)
                x->flips[s] |= (ptb_popcount(placed >> k >> 1) & 1u) << k;
        }
        x->target = parity_of(x, start);
    }
    /* the graph: a table's stored one, or its nodes found and linked */
    layers ly = { .st = NULL };
    int rc;
    if (saved) {
        rc = load_graph(x, saved, saved_len);
    } else if ((rc = reach_states(x, &ly)) == PTB_OK) {
        rc = link_nodes(x, &ly);
    }
    if (rc == PTB_OK && saved) {        /* what it read, as it was */
        x->saved = saved;
        x->saved_len = saved_len;
    }
    free(ly.st);
    return rc != PTB_OK ? rc : x->size > MAX_LAYOUTS ? PTB_EINVAL : PTB_OK;
}

/* The completions of the choices before at[]'s own at each free cell of
 * c0..c1-1, following the graph from node *v, which gets the node reached;
 * UINT64_MAX when the graph does not hold at[] (a piece on a covered cell,
 * or a choice without completions).  A node's edges are in the order of
 * its choices' bits, so at[c]'s is the number of bits below its own. */
static inline uint64_t walk_(const sl_ctx *x, const uint8_t *at,
                             uint32_t *v, unsigned c0, unsigned c1, int lazy)
{
    uint64_t r = 0;
    uint32_t u = *v;
    for (unsigned c = c0; c < c1; c++) {
        unsigned own = at[c];           /* 0: empty; else kind + 1 */
        const sl_edge *e = &x->graph[u + EDGES + own].edge;
        if ((lazy && !node_checked(x, u, c)) ||
            !(x->graph[u].node.choice >> own & 1))
            return UINT64_MAX;
        r += e->before;
        u = e->next;
    }
    *v = u;
    return r;
}

/* walk_() on a graph read from a table, each node checked (out of line,
 * so that the BFS's walks on a graph made here stay small). */
static NEVER_INLINE uint64_t walk_lazy(const sl_ctx *x, const uint8_t *at,
                                       uint32_t *v, unsigned c0, unsigned c1)
{
    return walk_(x, at, v, c0, c1, 1);
}

static inline uint64_t walk(const sl_ctx *x, const uint8_t *at, uint32_t *v,
                            unsigned c0, unsigned c1)
{
    return x->lazy ? walk_lazy(x, at, v, c0, c1) : walk_(x, at, v, c0, c1, 0);
}

/* Where the path being ranked meets pre's at cell c (a row's first when
 * folded) with rank r so far: the rest of *out is pre's, its ranks
 * r - pre->r[c] apart (mod 2^64); returns the whole rank. */
static uint64_t follow(const sl_ctx *x, const prefix *pre, unsigned c,
                       uint64_t r, prefix *out)
{
    const unsigned n = x->d->n, step = x->fold ? x->d->w : 1;
    for (unsigned i = c; i <= n; i += step) {
        out->node[i] = pre->node[i];
        out->r[i] = pre->r[i] + (r - pre->r[c]);
        out->same[i] = pre->same[i];
    }
    return r + pre->r[n] - pre->r[c];
}

/* The path of a layout through the graph: its rank, the completions of the
 * choices before its own at each free cell; when pre is not NULL, the
 * path of a layout that agrees with l before cell 'from' and from cell
 * 'join' on, walked from 'from' until it meets pre's, and with out (may
 * be NULL; needs pre) l's whole path into *out, cells 0 to from - 1
 * already there.  UINT64_MAX for a layout the graph does not hold (a tile
 * puzzle's layout of the other class). */
static ALWAYS_INLINE uint64_t dp_rank(const sl_ctx *x, const layout *l,
                                      const prefix *pre, unsigned from,
                                      unsigned join, prefix *out)
{
    const unsigned n = x->d->n;
    uint32_t v = x->root;
    if (!pre)
        return walk(x, l->at, &v, 0, n);
    v = pre->node[from];
    uint64_t r = pre->r[from];
    unsigned c = from;
    if (!out) {                         /* (up to join in one go) */
        uint64_t e = walk(x, l->at, &v, from, join);
        if (e == UINT64_MAX)
            return e;
        r += e;
        c = join;
    }
    for (; c < n; c++) {
        if ((!out || c >= join) && v == pre->node[c])   /* (c >= join) */
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[n] - pre->r[c];
        set_path(out, c, v, r, 0);
        uint64_t e = walk(x, l->at, &v, c, c + 1);
        if (e == UINT64_MAX)
            return e;
        r += e;
    }
    set_path(out, n, v, r, 0);
    return r;
}

static void put_piece(const sl_desc *d, layout *l, unsigned k, unsigned a)
{
    l->at[a] = (uint8_t)(k + 1);
    l->occ |= d->kind[k].shape << a;
}

/* Undoes put_piece(). */
static void take_piece(const sl_desc *d, layout *l, unsigned k, unsigned a)
{
    l->at[a] = 0;
    l->occ &= ~(d->kind[k].shape << a);
}

/* Node v's last edge whose completions before it are at most r.  (Its
 * first edge is most often choice 0's: read at once with the header.) */
static const sl_edge *edges_after(const sl_ctx *x, uint32_t v, uint64_t r)
{
    const sl_unit *n = &x->graph[v];
    uint32_t m = n->node.choice;
    const sl_edge *e = &n[EDGES].edge;
    if (!(m & 1))
        e = &n[EDGES + ptb_low_bit(m)].edge;
    for (m &= m - 1; m; m &= m - 1) {
        const sl_edge *f = &n[EDGES + ptb_low_bit(m)].edge;
        if (f->before > r)
            break;
        e = f;
    }
    return e;
}

/* Cells c0..c1-1 of the layout of rank r among the completions of node
 * *v into l, following the graph (*v gets the node reached); their path
 * into *pre when pre is not NULL, the rank before c0 being 'done'.
 * Returns the rank left: the layout's among the completions of the node
 * reached. */
static uint64_t unwalk(const sl_ctx *x, uint64_t r, uint32_t *vp,
                       unsigned c0, unsigned c1, layout *l, prefix *pre,
                       uint64_t done)
{
    const sl_desc *d = x->d;
    uint64_t r0 = r;
    uint32_t v = *vp;
    const int lazy = x->lazy;
    for (unsigned c = c0; c < c1; c++) {
        if (lazy && !node_checked(x, v, c))
            break;                      /* (the space damaged) */
        const sl_edge *e = edges_after(x, v, r);
        if (pre) {
            pre->node[c] = v;
            pre->r[c] = done + (r0 - r);
        }
        r -= e->before;
        if (e->kind >= 0) {
            put_piece(d, l, (unsigned)e->kind, c);
            l->anchor[l->np++] = (uint8_t)c;
        }
        v = e->next;
    }
    if (pre) {
        pre->node[c1] = v;
        pre->r[c1] = done + (r0 - r);
    }
    *vp = v;
    return r;
}

/* Keeps of l (unranked: its anchors ascending) the pieces anchored before
 * cell c. */
static void keep_before(const sl_desc *d, layout *l, unsigned c)
{
    while (l->np && l->anchor[l->np - 1] >= c) {   /* (the last go) */
        unsigned a = l->anchor[--l->np];
        take_piece(d, l, l->at[a] - 1u, a);
    }
}

/* The layout of rank r; its path into *pre when pre is not NULL.  With
 * 'from' > 0, l and *pre hold a layout whose cells before 'from' are this
 * one's, and its path; only the cells from 'from' on are unranked. */
static void dp_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre,
                      unsigned from)
{
    uint32_t v = from ? pre->node[from] : x->root;
    if (from)
        keep_before(x->d, l, from);
    else
        memset(l, 0, sizeof *l);
    unwalk(x, r - (from ? pre->r[from] : 0), &v, from, x->d->n, l, pre,
           from ? pre->r[from] : 0);
}

/* The layout of a drawing, a character a cell (checked by parse, or the
 * description's start). */
static void layout_of(const sl_desc *d, const unsigned char *cell, layout *l)
{
    uint8_t piece[256] = { 0 };  /* of each character: 1 + its piece, or
                                    EMPTY_CHAR */
    uint64_t cells[SL_MAX_CELLS];
    unsigned n = 0;
    enum { EMPTY_CHAR = 0xFF };
    memset(l, 0, sizeof *l);
    for (unsigned c = 0; c < d->n; c++) {   /* (anchors in reading order) */
        unsigned char ch = cell[c];
        if ((d->walls >> c & 1) || piece[ch] == EMPTY_CHAR)
            continue;
        if (!piece[ch]) {
            if (sl_is_empty(d, (char)ch)) {
                piece[ch] = EMPTY_CHAR;
                continue;
            }
            piece[ch] = (uint8_t)++n;
            cells[n - 1] = 0;
            l->anchor[n - 1] = (uint8_t)c;
        }
        cells[piece[ch] - 1] |= (uint64_t)1 << c;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned a = l->anchor[i];
        put_piece(d, l, (unsigned)sl_kind_of(d, (char)cell[a], cells[i] >> a),
                  a);
    }
    l->np = n;
}

/* ==== the mirror image: one state for a layout and its mirror ========== */

/* When the board, the kinds of pieces and the goals are their own mirror
 * images (left and right swapped: foldable()), a layout and its mirror
 * image are equally far from the goals, and a table of layouts keeps one
 * state for the two: the one that comes first in the programme's order
 * (cell by cell in reading order, empty before the kinds in order), the
 * canonical one.  l comes before its mirror image M(l) when, at the first
 * row where the two differ, l's row does: every piece is anchored in the
 * row of its mirror image's anchor, so above that row the pieces are
 * their own mirror images, and so are the cells they cover, and the first
 * cell where the rows differ is free in both.  The canonical layouts are
 * ranked by a programme over the rows, on top of the graph: at a row's
 * first cell, a node v that rows equal to their mirror images lead to (a
 * fold row) has its paths through the row in order, each with its plain
 * completions before it (off), its node at the next row, and whether the
 * row is before its mirror image or the same (a row after it is left
 * out); F(v), the canonical completions of v, adds total(end) for a row
 * before, F(end) for a row the same, and F of the end of the board is 1.
 * A canonical layout's rank adds at each fold row the F-counts of the
 * paths before its own; from its first row before its mirror image on,
 * the plain completions before its own choices (fold_row, fold_path).
 * On a graph made here (tbgen's search) a rank takes each row by one
 * look-up in a hash of all the graph's rows (row_hash(), row_rank()). */

/* The cell in the mirror image of cell c; the mirror image of cells. */
static unsigned mirror_cell(const sl_desc *d, unsigned c)
{
    return c - c % d->w + d->w - 1 - c % d->w;
}

static uint64_t mirror_cells(const sl_desc *d, uint64_t cells)
{
    uint64_t m = 0;
    for (; cells; cells &= cells - 1)
        m |= (uint64_t)1 << mirror_cell(d, ptb_low_bit(cells));
    return m;
}

/* The anchor of the mirror image of a piece of kind k anchored at a. */
static unsigned mirror_anchor(const sl_desc *d, unsigned k, unsigned a)
{
    return ptb_low_bit(mirror_cells(d, d->kind[k].shape << a));
}

/* A row's anchors, the bytes of at[] from its first cell c (a byte a
 * cell, in memory order; the bytes past the row zero), and the same as a
 * number whose order is their order as strings. */
static inline uint64_t row_bytes(const sl_ctx *x, const uint8_t *at,
                                 unsigned c)
{
    uint64_t b;
    memcpy(&b, at + c, sizeof b);       /* (c + 8 <= SL_MAX_CELLS: a board
                                           of 8 columns starts its last
                                           row at 56, a narrower one has
                                           at most 56 cells) */
    return b & x->row_mask;
}

static inline uint64_t row_order(uint64_t b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return b;
#else
    return __builtin_bswap64(b);
#endif
}

/* The mirror image of row_bytes() b of the row at cell c (a piece's
 * mirror image is anchored in its row). */
static inline uint64_t mirror_row(const sl_ctx *x, uint64_t b, unsigned c)
{
    uint64_t m = 0;
    while (b) {
        unsigned i = (unsigned)__builtin_ctzll(b) / 8;
        unsigned k = (b >> 8 * i & 0xFF) - 1u;
        b &= ~((uint64_t)0xFF << 8 * i);
        m |= place_of(x, k, c + i)->mimage;
    }
    return m;
}

/* The anchors of l's canonical layout: l's own or buf, its mirror image,
 * given that the rows above cell c0 (the start of a row) are their own
 * mirror images: only cells c0.. are compared, row by row until one is
 * not its own mirror image, and written to buf (its bytes from c0 on).
 * *own (may be NULL) gets whether l is its own mirror image. */
static const uint8_t *canonical(const sl_ctx *x, const layout *l,
                                uint8_t *buf, unsigned c0, int *own)
{
    const sl_desc *d = x->d;
    if (own)
        *own = 0;
    for (unsigned c = c0; c < d->n; c += d->w) {
        uint64_t b = row_bytes(x, l->at, c), m = mirror_row(x, b, c);
        if (m == b)
            continue;
        if (row_order(m) > row_order(b))
            return l->at;
        memcpy(buf + c0, l->at + c0, c - c0);   /* (their own images) */
        for (;;) {      /* (each row's 8 bytes: the next row's come after) */
            memcpy(buf + c, &m, sizeof m);
            if ((c += d->w) >= d->n)
                return buf;
            m = mirror_row(x, row_bytes(x, l->at, c), c);
        }
    }
    if (own)
        *own = 1;
    return l->at;
}

/* Whether the description is its own mirror image: the walls; each kind's
 * mirror image a kind (into mirror[]) with as many pieces, the same label
 * (a distinct piece must be its own mirror image) and the same axis; and
 * each goal's mirror image a goal.  Only for the programme's tables
 * without a parity. */
static int foldable(sl_ctx *x)
{
    const sl_desc *d = x->d;
    if (x->level || x->npar > 1 || mirror_cells(d, d->walls) != d->walls)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++) {
        const sl_kind *kd = &d->kind[k];
        uint64_t m = kd->fit ? mirror_cells(d, kd->shape <<
                                                   ptb_low_bit(kd->fit))
                             : 0;
        int j = -1;
        for (unsigned i = 0; m && i < d->nkinds; i++)
            if (d->kind[i].shape == m >> ptb_low_bit(m) &&
                d->kind[i].count == kd->count && x->most[i] == x->most[k] &&
                d->kind[i].label == kd->label && d->kind[i].axis == kd->axis)
                j = (int)i;
        if (j < 0)
            return 0;
        x->mirror[k] = (int8_t)j;
        for (uint64_t f = kd->fit; f; f &= f - 1)
            place_of(x, k, ptb_low_bit(f))->mimage =
                (uint64_t)(j + 1)
                << 8 * (mirror_anchor(d, k, ptb_low_bit(f)) % d->w);
    }
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        int found = 0;
        for (unsigned h = 0; h < d->ngoals && !found; h++) {
            const sl_goal *gh = &d->goal[h];
            found = gh->n == gl->n &&
                    gh->empty == mirror_cells(d, gl->empty);
            for (unsigned i = 0; found && i < gl->n; i++) {
                unsigned a = mirror_anchor(d, gl->kind[i], gl->anchor[i]);
                int has = 0;
                for (unsigned j = 0; j < gh->n; j++)
                    has |= gh->anchor[j] == a &&
                           gh->kind[j] == (unsigned)x->mirror[gl->kind[i]];
                found = has;
            }
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* The paths through the row of cells c0.. from node v, in order, into
 * out[] (rows after their mirror images left out); on a graph read from
 * a table, each node checked (PTB_ECORRUPT when one fails). */
typedef struct row_walk {
    const sl_ctx *x;
    unsigned c0;
    uint8_t at[SL_MAX_CELLS];    /* the row's anchors so far, else 0 */
    fold_path *out;
    size_t n, cap;
    uint64_t *rows;              /* or NULL: each path's row_bytes() */
    size_t rcap;
    int all;                     /* 1: rows after their mirror image too */
    int rc;
} row_walk;

static void row_paths(row_walk *rw, unsigned c, uint32_t v, uint64_t off)
{
    const sl_ctx *x = rw->x;
    const sl_desc *d = x->d;
    if (c == rw->c0 + d->w) {           /* the row and its mirror image */
        uint64_t b = row_bytes(x, rw->at, rw->c0);
        uint64_t m = rw->all ? b : mirror_row(x, b, rw->c0);
        if (row_order(b) > row_order(m))
            return;
        if ((rw->rc = push((void **)&rw->out, &rw->cap, rw->n,
                           sizeof *rw->out, MAX_FOLD_PATHS)) != PTB_OK ||
            (rw->rows &&
             (rw->rc = push((void **)&rw->rows, &rw->rcap, rw->n,
                            sizeof *rw->rows, MAX_FOLD_PATHS)) != PTB_OK))
            return;
        if (rw->rows)
            rw->rows[rw->n] = b;
        rw->out[rw->n++] = (fold_path){ off, 0, v, b == m };
        return;
    }
    if (x->lazy && !node_checked(x, v, c)) {
        rw->rc = PTB_ECORRUPT;
        return;
    }
    for (uint32_t m = x->graph[v].node.choice; m && !rw->rc; m &= m - 1) {
        const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(m)].edge;
        rw->at[c] = (uint8_t)(e->kind >= 0 ? e->kind + 1 : 0);
        row_paths(rw, c + 1, e->next, off + e->before);
    }
    rw->at[c] = 0;
}

/* A fold row's guide to its n paths by off (by_off) or before: for each
 * of n equal parts of the range of the keys (guide_range()), the last path
 * whose key is at most the part's least, or the first. */
static uint32_t row_n(const fold_row *fr)   /* (its paths) */
{
    return fr[1].first - fr->first;
}

static uint32_t *guide_of(const sl_ctx *x, const fold_row *fr, int by_off)
{
    return x->fguide + 2 * (size_t)fr->first + (by_off ? 0 : row_n(fr));
}

static uint64_t guide_range(const sl_ctx *x, const fold_row *fr, int by_off)
{
    return by_off ? x->graph[fr->node].node.total : fr->count;
}

static void make_guide(const sl_ctx *x, const fold_row *fr, int by_off,
                       uint32_t *guide)
{
    const fold_path *p = x->fpath + fr->first;
    uint32_t n = row_n(fr), j = 0;
    uint64_t range = guide_range(x, fr, by_off);
    for (uint32_t b = 0; b < n; b++) {
        uint64_t lo = (b * range + n - 1) / n;
        while (j + 1 < n && (by_off ? p[j + 1].off : p[j + 1].before) <= lo)
            j++;
        guide[b] = j;
    }
}

/* F of the node that ends path p of a fold row at cell c0 (the end of the
 * board's is 1); UINT64_MAX when that node's fold row is not its own
 * (only in a table). */
static uint64_t path_count(const sl_ctx *x, const fold_path *p, unsigned c0)
{
    uint32_t f = x->graph[p->end].node.frow;
    if (!p->same)
        return x->graph[p->end].node.total;
    if (c0 + x->d->w == x->d->n)
        return 1;
    return f - 1u < x->nfrow && x->frow[f - 1].node == p->end
               ? x->frow[f - 1].count : UINT64_MAX;
}

/* The cell of a graph's node v (lo[] falls cell by cell). */
static unsigned node_cell(const sl_ctx *x, uint32_t v)
{
    unsigned c = 0;
    while (c + 1 < x->d->n && v < x->lo[c])
        c++;
    return c;
}

/* Folds the mirror image when the description allows it: the fold rows,
 * found from the root down, then counted from the bottom up; the space is
 * then the canonical layouts.  A board whose rows have too many paths to
 * list (MAX_FOLD_PATHS) is left unfolded.  (A graph read from a table
 * came with its fold rows: load_graph().) */
static int make_fold(sl_ctx *x)
{
    const sl_desc *d = x->d;
    row_walk rw = { .x = x, .cap = 1024, .rc = PTB_OK };
    size_t rcap = 64;
    if (x->lazy || !foldable(x))
        return PTB_OK;
    x->frow = malloc(rcap * sizeof *x->frow);
    rw.out = malloc(rw.cap * sizeof *rw.out);
    if (!x->frow || !rw.out) {
        free(rw.out);
        return PTB_ENOMEM;
    }
    x->frow[x->nfrow++] = (fold_row){ 0, x->root, 0 };
    x->graph[x->root].node.frow = 1;
    for (size_t i = 0; i < x->nfrow && rw.rc == PTB_OK; i++) {
        unsigned c0 = rw.c0 = node_cell(x, x->frow[i].node);
        x->frow[i].first = (uint32_t)rw.n;
        row_paths(&rw, c0, x->frow[i].node, 0);
        for (size_t j = x->frow[i].first; j < rw.n; j++) {
            uint32_t u = rw.out[j].end;
            if (!rw.out[j].same || c0 + d->w == d->n ||
                x->graph[u].node.frow)
                continue;
            int rc = push((void **)&x->frow, &rcap, x->nfrow + 1,
                          sizeof *x->frow, SIZE_MAX);
            if (rc != PTB_OK) {
                free(rw.out);
                return rc;
            }
            x->frow[x->nfrow] = (fold_row){ 0, u, 0 };
            x->graph[u].node.frow = (uint32_t)++x->nfrow;
        }
    }
    x->fpath = rw.out;
    x->nfpath = rw.n;
    if (rw.rc == PTB_EINVAL) {          /* too many rows to list: the
                                           layouts unfolded */
        for (size_t i = 0; i < x->nfrow; i++)
            x->graph[x->frow[i].node].node.frow = 0;
        free(x->frow);
        free(x->fpath);
        x->frow = NULL, x->fpath = NULL;
        x->nfrow = x->nfpath = 0;
        return PTB_OK;
    }
    if (rw.rc != PTB_OK)
        return rw.rc;
    x->frow[x->nfrow] = (fold_row){ 0, 0, (uint32_t)x->nfpath };
    for (size_t i = x->nfrow; i-- > 0;) {   /* a fold row's ends are below */
        fold_row *fr = &x->frow[i];
        unsigned c0 = node_cell(x, fr->node);
        uint64_t sum = 0;
        for (uint32_t j = fr->first; j < fr[1].first; j++) {
            x->fpath[j].before = sum;
            sum += path_count(x, &x->fpath[j], c0);
        }
        fr->count = sum;
    }
    int rc = (x->fguide = malloc((2 * x->nfpath + 1) *
                                 sizeof *x->fguide)) ? PTB_OK : PTB_ENOMEM;
    for (size_t i = 0; rc == PTB_OK && i < x->nfrow; i++)
        for (int by_off = 0; by_off < 2; by_off++)
            make_guide(x, &x->frow[i], by_off,
                       guide_of(x, &x->frow[i], by_off));
    if (rc == PTB_OK) {
        x->fold = 1;
        x->size = x->frow[0].count;
    }
    return rc;
}

/* Whether fold row f - 1 of a graph read from a table holds as node v's
 * at cell c (a row's first): its paths are the ones row_paths() finds
 * from v, each with the F-counts of the ones before it, its count theirs
 * all, and its guides make_guide()'s; so fold_find() on a checked row
 * answers as on the row make_fold() makes. */
static int check_row(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c)
{
    const fold_row *fr = &x->frow[f - 1];
    row_walk rw = { .x = x, .c0 = c, .cap = 64, .rc = PTB_OK };
    uint32_t n = row_n(fr), *guide = NULL;
    uint64_t sum = 0;
    if (fr->node != v || c % x->d->w || fr->first > fr[1].first ||
        fr[1].first > x->nfpath ||
        !(rw.out = malloc(rw.cap * sizeof *rw.out)))
        return 0;
    row_paths(&rw, c, v, 0);
    int ok = rw.rc == PTB_OK && rw.n == n;
    for (uint32_t j = 0; ok && j < n; j++) {
        const fold_path *p = &x->fpath[fr->first + j], *q = &rw.out[j];
        uint64_t t = path_count(x, q, c);
        ok = p->off == q->off && p->end == q->end && p->same == q->same &&
             p->before == sum && t <= MAX_LAYOUTS;
        sum += t;
    }
    ok = ok && sum == fr->count && sum <= MAX_LAYOUTS &&
         (guide = malloc((n + 1) * sizeof *guide));
    for (int by_off = 0; ok && by_off < 2; by_off++) {
        make_guide(x, fr, by_off, guide);
        ok = !memcmp(guide, guide_of(x, fr, by_off), n * sizeof *guide);
    }
    free(guide);
    free(rw.out);
    return ok;
}

/* Whether fold row f - 1 may be used as node v's (at cell c): on a graph
 * read from a table, once check_row() has found it to hold (else, or when
 * there is no such row, the space is damaged). */
static int row_checked(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c)
{
    if (f - 1u >= x->nfrow)
        return damage(x);
    if (!x->lazy || (x->frow[f - 1].node == v && held(x->fok, f - 1)))
        return 1;
    if (check_row(x, f, v, c)) {
        hold(x->fok, f - 1);
        return 1;
    }
    return damage(x);
}

/* Of the fold row of node v at cell c, the last path whose off (by_off)
 * or before is at most key (< the range: keys are at most 2^40, a row's
 * paths 2^22), or its first; NULL when it has none, or (a graph read from
 * a table) when the row does not hold: the space is then damaged. */
static const fold_path *fold_find(const sl_ctx *x, uint32_t v, unsigned c,
                                  uint64_t key, int by_off)
{
    uint32_t f = x->graph[v].node.frow;
    if (!row_checked(x, f, v, c))
        return NULL;
    const fold_row *fr = &x->frow[f - 1];
    const fold_path *p = x->fpath + fr->first, *end = x->fpath + fr[1].first;
    uint64_t range = guide_range(x, fr, by_off);
    uint32_t n = row_n(fr);
    if (!n)
        return NULL;
    p += guide_of(x, fr, by_off)[key < range ? key * n / range : n - 1];
    while (p + 1 < end && (by_off ? p[1].off : p[1].before) <= key)
        p++;
    return p;
}

static inline uint32_t row_slot_of(const sl_ctx *x, uint64_t row,
                                   uint32_t v)
{
    /* (row + v K1) K2, as row K2 + v K1 K2: a rank's next row is known
     * before its node, so one product is off the chain of look-ups) */
    const uint64_t k2 = 0x9E3779B97F4A7C15u,
                   k12 = 0xBF58476D1CE4E5B9u * 0x9E3779B97F4A7C15u;
    return (uint32_t)((row * k2 + v * k12) >> 32) & x->rmask;
}

/* The slot of node v's row whose anchors are row (row_bytes()); NULL when the
 * graph does not hold it. */
static inline const row_slot *row_lookup(const sl_ctx *x, uint32_t v,
                                         uint64_t row)
{
    for (uint32_t h = row_slot_of(x, row, v);; h = (h + 1) & x->rmask) {
        const row_slot *s = &x->rslot[h];
        if (s->node == v && s->row == row)
            return s;
        if (!s->node)
            return NULL;
    }
}

/* Lists node v's rows (from cell c) into rw; the rows' number. */
static size_t node_rows(row_walk *rw, unsigned c, uint32_t v)
{
    rw->c0 = c;
    rw->n = 0;
    row_paths(rw, c, v, 0);
    return rw->n;
}

/* Hashes every row of a folded graph (made here, or read from a table with
 * every node and fold row checked: hash_late()) by its node and anchors,
 * with what a walk through it gives and its fold path (row_lookup()), so
 * that a rank takes a row with one look-up instead of cell by cell
 * (row_rank()), and lists each node's rows in rank order, so that an
 * unrank takes a row at once (fold_unrank()); sets hashed when done.
 * With more than MAX_ROW_HASH rows, or short of memory, none (ranks
 * walk).
 * (Unfolded graphs walk: on a klotski-4x5 with its goal at the side, a
 * hash saved 7 % of the instructions and no time.) */
static int row_hash(sl_ctx *x)
{
    const sl_desc *d = x->d;
    row_walk rw = { .x = x, .cap = 64, .rcap = 64, .all = 1 };
    size_t total = 0, slots = 16, nrow = 0;
    rw.out = malloc(rw.cap * sizeof *rw.out);
    rw.rows = malloc(rw.rcap * sizeof *rw.rows);
    int rc = rw.out && rw.rows ? PTB_OK : PTB_ENOMEM;
    for (int pass = 0; pass < 2 && rc == PTB_OK; pass++) {
        for (unsigned c = 0; c < d->n && rc == PTB_OK; c += d->w) {
            uint32_t hi = c ? x->lo[c - 1] : x->nunits;
            for (uint32_t v = x->lo[c]; v < hi && rc == PTB_OK;
                 v += node_units(x, v)) {
                size_t n = node_rows(&rw, c, v);
                if ((rc = rw.rc) != PTB_OK || !pass) {
                    total += n;
                    continue;
                }
                x->rfirst[v] = (uint32_t)nrow;
                uint32_t one = x->graph[v].node.total == n ? ONE_EACH : 0;
                for (size_t j = 0; j < n; j++)
                    if (rw.out[j].off != j)
                        one = 0;
                for (size_t j = 0; j < n; j++) {
                    uint32_t h = row_slot_of(x, rw.rows[j], v);
                    while (x->rslot[h].node)
                        h = (h + 1) & x->rmask;
                    x->rslot[h] = (row_slot){ rw.rows[j], rw.out[j].off, v,
                                              rw.out[j].end, 0, 0 };
                    x->rrow[nrow++] = (row_entry){ rw.out[j].off, rw.rows[j],
                                                   rw.out[j].end,
                                                   one | (uint32_t)n };
                }
            }
        }
        if (pass || rc != PTB_OK || total > MAX_ROW_HASH)
            break;                      /* (past the most: ranks walk) */
        while (slots < 8 * total)       /* (a look-up most often finds its
                                           row in the first slot) */
            slots *= 2;
        x->rslot = calloc(slots, sizeof *x->rslot);
        x->rrow = malloc(total * sizeof *x->rrow);
        x->rfirst = malloc(x->nunits * sizeof *x->rfirst);
        if (!x->rslot || !x->rrow || !x->rfirst)
            rc = PTB_ENOMEM;
        x->rmask = (uint32_t)slots - 1;
    }
    rw.all = 0;                         /* each fold row's paths, in order */
    for (size_t i = 0; x->rslot && rc == PTB_OK && i < x->nfrow; i++) {
        const fold_row *fr = &x->frow[i];
        size_t n = node_rows(&rw, node_cell(x, fr->node), fr->node);
        if ((rc = rw.rc) == PTB_OK && n != row_n(fr))
            rc = PTB_EINVAL;            /* (cannot be: make_fold()'s) */
        for (size_t j = 0; rc == PTB_OK && j < n; j++) {
            row_slot *sl = (row_slot *)row_lookup(x, fr->node, rw.rows[j]);
            if (!sl)
                rc = PTB_EINVAL;        /* (cannot be: every row listed) */
            else
                sl->path = fr->first + (uint32_t)j + 1;
        }
    }
    free(rw.out);
    free(rw.rows);
    if (rc == PTB_OK && x->rslot) {
        __atomic_store_n(&x->hashed, 1, __ATOMIC_RELEASE);
    } else {
        free(x->rslot);
        free(x->rrow);
        free(x->rfirst);
        x->rslot = NULL;
        x->rrow = NULL;
        x->rfirst = NULL;
    }
    return rc;
}

/* Whether the row hash is in use (row_hash()). */
static inline int hashed(const sl_ctx *x)
{
    return __atomic_load_n(&x->hashed, __ATOMIC_ACQUIRE);
}

/* row_hash() on a folded graph read from a table, once HASH_AFTER states'
 * moves were listed (state_moves(); by the one thread that lists the
 * last of them, the others walking meanwhile): every node and fold row
 * checked first, as its walks are not (when one does not hold, the space
 * is damaged and there is no hash). */
static NEVER_INLINE void hash_late(const sl_ctx *cx)
{
    sl_ctx *x = (sl_ctx *)(uintptr_t)cx;
    const sl_desc *d = x->d;
    for (unsigned c = 0; c < d->n; c++) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v))
            if (!node_checked(x, v, c))
                return;
    }
    for (uint32_t f = 1; f <= x->nfrow; f++) {
        uint32_t v = x->frow[f - 1].node;
        if (v >= x->nunits || !row_checked(x, f, v, node_cell(x, v)))
            return;
    }
    (void)row_hash(x);
}

/* The place of a canonical layout among them, from the row at cell c0 on,
 * the rows above leading to node v with rank r so far, and same when they
 * are their own mirror images; UINT64_MAX when the graph does not hold
 * it.  With pre (may be NULL), the path of a canonical layout whose cells
 * from 'join' on are at[]'s: the rest of the rank is pre's from the first
 * row at or past join where the two paths meet.  With out (may be NULL),
 * the path from row c0 on into *out, as dp_rank()'s. */
static uint64_t fold_rank(const sl_ctx *x, const uint8_t *at, unsigned c0,
                          uint32_t v, uint64_t r, int same, const prefix *pre,
                          unsigned join, prefix *out)
{
    const sl_desc *d = x->d;
    for (unsigned c = c0; c < d->n; c += d->w) {
        if (pre && c >= join && v == pre->node[c] &&
            same == pre->same[c])
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[d->n] - pre->r[c];
        set_path(out, c, v, r, same);
        uint32_t u = v;
        uint64_t off = walk(x, at, &u, c, c + d->w);
        if (off == UINT64_MAX)
            return UINT64_MAX;
        if (!same) {
            r += off;
        } else {
            const fold_path *p = fold_find(x, v, c, off, 1);
            if (!p || p->off != off)
                return UINT64_MAX;      /* (a row after its mirror image) */
            r += p->before;
            same = p->same;
        }
        v = u;
    }
    set_path(out, d->n, v, r, same);
    return r;
}

/* Of node v's rows (a row's first; x->rrow), the last whose plain
 * completions before it are at most r (< v's total): the r-th at once
 * when each row has one (ONE_EACH: the last row's nodes, where every
 * unrank ends), else by a binary search. */
static inline const row_entry *row_at(const sl_ctx *x, uint32_t v,
                                      uint64_t r)
{
    const row_entry *e = &x->rrow[x->rfirst[v]];
    if (e->n & ONE_EACH)
        return e + (r < (e->n & ~ONE_EACH) ? r : 0);
    for (uint32_t n = e->n; n > 1;) {
        uint32_t half = n / 2;
        e = e[half].off <= r ? e + half : e;
        n -= half;
    }
    return e;
}

/* Puts the pieces of row_bytes() b of the row at cell c into l, their
 * anchors after l's. */
static inline void put_row(const sl_desc *d, layout *l, unsigned c,
                           uint64_t b)
{
    while (b) {
        unsigned i = (unsigned)__builtin_ctzll(b) / 8;
        put_piece(d, l, (b >> 8 * i & 0xFF) - 1u, c + i);
        l->anchor[l->np++] = (uint8_t)(c + i);
        b &= ~((uint64_t)0xFF << 8 * i);
    }
}

/* The canonical layout of place r; its path row by row into *pre when
 * pre is not NULL; 'from', a row's first cell, as dp_unrank()'s.  r is
 * the place left among the canonical completions of v while the rows are
 * their own mirror images, then among the plain ones. */
static void fold_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre,
                        unsigned from)
{
    const sl_desc *d = x->d;
    uint64_t r0 = r;
    uint32_t v = x->root;
    int same = 1;
    if (from) {
        v = pre->node[from];
        same = pre->same[from];
        r -= pre->r[from];
        keep_before(d, l, from);
    } else {
        memset(l, 0, sizeof *l);
    }
    for (unsigned c = from; c < d->n; c += d->w) {
        set_path(pre, c, v, r0 - r, same);
        uint64_t plain = r;             /* the row's plain rank from v */
        if (same) {
            const fold_path *p = fold_find(x, v, c, r, 0);   /* (r < F(v):
                                                                one with
                                                                F > 0) */
            if (!p) {                   /* (the space damaged) */
                if (pre)
                    pre->same[c] = 0;
                return;
            }
            r -= p->before;
            same = p->same;
            plain = p->off + (same ? 0 : r);
        }
        uint64_t left;
        if (hashed(x)) {                /* the row at once */
            const row_entry *e = row_at(x, v, plain);
            put_row(d, l, c, e->row);
            v = e->end;
            left = plain - e->off;
        } else {
            left = unwalk(x, plain, &v, c, c + d->w, l, NULL, 0);
        }
        if (!same)
            r = left;
    }
    set_path(pre, d->n, v, r0 - r, same);
}

#define MIRRORED 0x100u          /* in aux: the drawing is the mirror
                                    image of the state */
/* In a move's code (successors(): its anchors before and after in bits
 * 0-15), with the mirror image folded: the successor's state stands for
 * its mirror image, or the successor is its own (slide_apply()). */
#define CODE_TURNS 0x10000u
#define CODE_OWN 0x20000u

/* fold_rank() by the row hash, of layout l itself: canonical() is folded
 * in.  Of l's rows that are not their own mirror images, the first has a
 * fold path when l is canonical and none when its mirror image is, whose
 * rows are then ranked from there.  *turn as rank()'s; with out (may be
 * NULL), the state's path from row c on, as rank_path()'s. */
static ALWAYS_INLINE uint64_t row_rank(const sl_ctx *x, const layout *l,
                                       unsigned c, uint32_t v, uint64_t r,
                                       int same, const prefix *pre,
                                       unsigned join, uint32_t *turn,
                                       prefix *out)
{
    const sl_desc *d = x->d;
    uint8_t buf[SL_MAX_CELLS];
    const uint8_t *at = l->at;
    for (; c < d->n; c += d->w) {
        if (pre && c >= join && v == pre->node[c] && same == pre->same[c]) {
            if (same && pre->same[d->n])
                *turn = CODE_OWN;       /* (pre's rows from c: l's) */
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[d->n] - pre->r[c];
        }
        set_path(out, c, v, r, same);
        uint64_t row = row_bytes(x, at, c);
        const row_slot *s = row_lookup(x, v, row);
        if (!s)
            return UINT64_MAX;
        if (same && !s->path) {         /* after its mirror image */
            for (unsigned b = c; b < d->n; b += d->w) {
                uint64_t m = mirror_row(x, row_bytes(x, l->at, b), b);
                memcpy(buf + b, &m, sizeof m);   /* (then the next row's) */
            }
            at = buf;
            pre = NULL;
            *turn = CODE_TURNS;
            if (!(s = row_lookup(x, v, row_bytes(x, at, c))) || !s->path)
                return UINT64_MAX;
        }
        if (same) {
            const fold_path *p = &x->fpath[s->path - 1];
            r += p->before;
            same = p->same;
        } else {
            r += s->off;
        }
        v = s->end;
    }
    if (same)
        *turn = CODE_OWN;
    set_path(out, d->n, v, r, same);
    return r;
}

/* MIRRORED when layout l is not its class's canonical one, else 0. */
static uint32_t mirrored(const sl_ctx *x, const layout *l)
{
    uint8_t buf[SL_MAX_CELLS];
    return x->fold && canonical(x, l, buf, 0, NULL) != l->at ? MIRRORED : 0;
}

/* A move of the state (code: from anchor | to anchor << 8) as a move of
 * the drawing p: the same, or its mirror image when p is MIRRORED (the
 * piece's anchor in the drawing, and the move's rows down and columns
 * across mirrored). */
static uint32_t native(const sl_ctx *x, const ptb_position *p,
                       uint32_t code)
{
    const sl_desc *d = x->d;
    unsigned a = code & 0xFF, b = code >> 8 & 0xFF, na = 0;
    if (!(p->aux & MIRRORED))
        return code;
    unsigned char ch = p->cell[mirror_cell(d, a)];
    while (p->cell[na] != ch)
        na++;
    unsigned nb = na + b / d->w * d->w - a / d->w * d->w + a % d->w -
                  b % d->w;
    return na | nb << 8;
}

/* ==== the component: slots, keys and the trie =========================== */

/* A piece's place in a layout, its slot: kind by kind, each kind's pieces
 * in the order of their anchors, by rows (reading order), or by columns
 * for a kind that moves down and up.  So a piece that keeps to its row or
 * column keeps its slot (a Rush Hour car is a slot).  The anchors of l's
 * pieces slot by slot into a[]; 0 when l does not hold each kind's number
 * of pieces (a layout a forged table leads to). */
static int slots_of(const sl_desc *d, const layout *l, uint8_t *a)
{
    unsigned first[SL_MAX_KINDS], n[SL_MAX_KINDS] = { 0 }, at = 0;
    for (unsigned k = 0; k < d->nkinds; k++) {
        first[k] = at;
        at += d->kind[k].count;
    }
    for (unsigned i = 0; i < d->n; i++)
        for (unsigned by = 0; by < 2; by++) {    /* rows, then columns */
            unsigned c = by ? i % d->h * d->w + i / d->h : i;
            unsigned k = l->at[c] - 1u;
            if (!l->at[c] || (d->kind[k].axis == SL_DOWN) != by)
                continue;
            if (n[k] == d->kind[k].count)
                return 0;
            a[first[k] + n[k]++] = (uint8_t)c;
        }
    for (unsigned k = 0; k < d->nkinds; k++)
        if (n[k] != d->kind[k].count)
            return 0;
    return 1;
}

/* The layout whose pieces stand at a[] slot by slot. */
static void layout_of_slots(const sl_desc *d, const uint8_t *a, layout *l)
{
    unsigned j = 0;
    memset(l, 0, sizeof *l);
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned i = 0; i < d->kind[k].count; i++)
            put_piece(d, l, k, a[j++]);
    for (unsigned c = 0; c < d->n; c++)
        if (l->at[c])
            l->anchor[l->np++] = (uint8_t)c;
}

/* Digit j of a key (6 bits, j < MAX_KEY_PIECES), and setting it. */
static unsigned key_get(sl_key k, unsigned j)
{
    unsigned bits = 6 * j;
    return (unsigned)((bits + 6 <= 64 ? k.hi >> (58 - bits)
                       : bits >= 64 ? k.lo >> (122 - bits)
                       : k.hi << (bits - 58) | k.lo >> (122 - bits)) & 63);
}

static void key_put(sl_key *k, unsigned j, uint64_t a)
{
    unsigned bits = 6 * j;
    if (bits < 64)
        k->hi |= bits + 6 <= 64 ? a << (58 - bits) : a >> (bits - 58);
    if (bits + 6 > 64)
        k->lo |= a << (122 - bits);
}

/* The first digit where two different keys differ. */
static unsigned key_diff(sl_key a, sl_key b)
{
    return a.hi != b.hi ? (unsigned)__builtin_clzll(a.hi ^ b.hi) / 6
                        : (64 + (unsigned)__builtin_clzll(a.lo ^ b.lo)) / 6;
}

/* A layout's key in the search: its anchors slot by slot. */
static sl_key key_of(const sl_desc *d, const layout *l)
{
    uint8_t a[SL_MAX_PIECES] = { 0 };
    sl_key key = { 0, 0 };
    slots_of(d, l, a);
    for (unsigned j = 0; j < d->npieces; j++)
        key_put(&key, j, a[j]);
    return key;
}

static void layout_of_key(const sl_desc *d, sl_key key, layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    for (unsigned j = 0; j < d->npieces; j++)
        a[j] = (uint8_t)key_get(key, j);
    layout_of_slots(d, a, l);
}

static int key_cmp(sl_key a, sl_key b)
{
    return a.hi != b.hi ? (a.hi < b.hi ? -1 : 1)
           : a.lo != b.lo ? (a.lo < b.lo ? -1 : 1) : 0;
}

static int key_qsort(const void *a, const void *b)
{
    return key_cmp(*(const sl_key *)a, *(const sl_key *)b);
}

/* The component's trie (FORMAT.md, "ranking"): a level a slot, in an
 * order the table gives.  The nodes of level j are the distinct choices
 * of anchors for the slots of levels 0 .. j - 1 (level 0: one node, none
 * chosen); each has a bit for each anchor of level j's alphabet (the
 * anchors its slot takes in the component), set when some layout of the
 * component goes on with it, laid node after node.  The set bits of level
 * j are, in order, the nodes of level j + 1; those of the last level are
 * the layouts, and a layout's index is the number of set bits before its
 * own.  Ranking goes down a level at a time (a count and a popcount),
 * unranking up (a select). */
static uint64_t trie_rank(const sl_ctx *x, const layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    uint64_t node = 0;
    if (!slots_of(x->d, l, a))
        return UINT64_MAX;
    for (unsigned j = 0; j < x->d->npieces; j++) {
        const trie_level *lv = &x->level[j];
        unsigned t = lv->digit[a[lv->slot]];
        if (!t)
            return UINT64_MAX;
        uint64_t pos = node * lv->radix + t - 1, w = lv->word[pos / 64];
        if (!(w >> pos % 64 & 1))
            return UINT64_MAX;
        node = lv->cum[pos / 64] + (uint64_t)__builtin_popcountll(
                                       w & (((uint64_t)1 << pos % 64) - 1));
    }
    return node;
}

/* The layout of index r (r < size). */
static void trie_unrank(const sl_ctx *x, uint64_t r, layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    for (unsigned j = x->d->npieces; j-- > 0;) {
        const trie_level *lv = &x->level[j];
        uint64_t lo = ptb_last_at_most(lv->cum, lv->nwords, r);  /* bit r's */
        uint64_t w = lv->word[lo];
        for (uint64_t i = r - lv->cum[lo]; i; i--)
            w &= w - 1;
        uint64_t pos = lo * 64 + ptb_low_bit(w);
        a[lv->slot] = lv->alpha[pos % lv->radix];
        r = pos / lv->radix;
    }
    layout_of_slots(x->d, a, l);
}

/* The trie from a stored ranking: PTB_EFORMAT unless it holds a level for
 * each slot, each slot once, every alphabet ascending and of anchors
 * where the slot's kind lies on the board, and each level's bits for its
 * nodes, no more (the unused bits of its last word clear). */
static int load_trie(sl_ctx *x, const unsigned char *p, size_t len)
{
    const sl_desc *d = x->d;
    const unsigned char *end = p + len;
    uint8_t kind_of[SL_MAX_PIECES];
    uint64_t slots = 0, nodes = 1;
    for (unsigned k = 0, j = 0; k < d->nkinds; k++)
        for (unsigned i = 0; i < d->kind[k].count; i++)
            kind_of[j++] = (uint8_t)k;
    if (len < 4 || ptb_get_le(p, 4) != d->npieces)
        return PTB_EFORMAT;
    p += 4;
    if (!(x->level = calloc(d->npieces, sizeof *x->level)))
        return PTB_ENOMEM;
    for (unsigned j = 0; j < d->npieces; j++) {
        trie_level *lv = &x->level[j];
        if (end - p < 2)
            return PTB_EFORMAT;
        lv->slot = p[0];
        lv->radix = p[1];
        p += 2;
        if (lv->slot >= d->npieces || (slots >> lv->slot & 1) ||
            !lv->radix || end - p < lv->radix)
            return PTB_EFORMAT;
        slots |= (uint64_t)1 << lv->slot;
        uint64_t fit = d->kind[kind_of[lv->slot]].fit;
        for (unsigned t = 0; t < lv->radix; t++, p++) {
            if (*p >= d->n || !(fit >> *p & 1) ||
                (t && *p <= lv->alpha[t - 1]))
                return PTB_EFORMAT;
            lv->alpha[t] = *p;
            lv->digit[*p] = (uint8_t)(t + 1);
        }
    }
    for (unsigned j = 0; j < d->npieces; j++) {
        trie_level *lv = &x->level[j];
        uint64_t bits = nodes * lv->radix;
        lv->nodes = nodes;
        lv->nwords = (bits + 63) / 64;
        if ((uint64_t)(end - p) / 8 < lv->nwords)
            return PTB_EFORMAT;
        lv->word = malloc(lv->nwords * sizeof *lv->word);
        lv->cum = malloc(lv->nwords * sizeof *lv->cum);
        if (!lv->word || !lv->cum)
            return PTB_ENOMEM;
        nodes = 0;
        for (uint64_t w = 0; w < lv->nwords; w++, p += 8) {
            lv->word[w] = ptb_get_le64(p);
            lv->cum[w] = nodes;
            nodes += (uint64_t)__builtin_popcountll(lv->word[w]);
        }
        if ((bits % 64 && lv->word[lv->nwords - 1] >> (bits % 64)) || !nodes)
            return PTB_EFORMAT;
    }
    if (p != end || nodes > MAX_COMPONENT)
        return PTB_EFORMAT;
    x->size = nodes;
    return PTB_OK;
}

/* The trie of the component's n keys (sorted), as a table stores it, into
 * own_saved: the slots with fewer anchors come first, which keeps the
 * levels near the root narrow (Rush Hour levels: about 8 bits a layout). */
static int save_trie(sl_ctx *x, sl_key *keys, uint64_t n)
{
    const sl_desc *d = x->d;
    unsigned L = d->npieces, order[SL_MAX_PIECES], radix[SL_MAX_PIECES];
    uint64_t used[SL_MAX_PIECES] = { 0 }, nodes[SL_MAX_PIECES];
    uint64_t at[SL_MAX_PIECES];
    for (uint64_t i = 0; i < n; i++)
        for (unsigned j = 0; j < L; j++)
            used[j] |= (uint64_t)1 << key_get(keys[i], j);
    for (unsigned j = 0; j < L; j++) {      /* fewer anchors first */
        unsigned i = j, r = (unsigned)__builtin_popcountll(used[j]);
        for (; i > 0 && radix[i - 1] > r; i--) {
            order[i] = order[i - 1];
            radix[i] = radix[i - 1];
        }
        order[i] = j;
        radix[i] = r;
    }
    for (uint64_t i = 0; i < n; i++) {      /* digits in level order */
        sl_key k = { 0, 0 };
        for (unsigned j = 0; j < L; j++) {
            uint64_t below = used[order[j]] &
                             (((uint64_t)1 << key_get(keys[i], order[j])) - 1);
            key_put(&k, j, (unsigned)__builtin_popcountll(below));
        }
        keys[i] = k;
    }
    qsort(keys, n, sizeof *keys, key_qsort);
    size_t len = 4;
    for (unsigned j = 0; j < L; j++)
        nodes[j] = 1;
    for (uint64_t i = 1; i < n; i++)
        for (unsigned j = key_diff(keys[i - 1], keys[i]) + 1; j < L; j++)
            nodes[j]++;
    for (unsigned j = 0; j < L; j++)
        len += 2 + radix[j];
    for (unsigned j = 0; j < L; j++) {
        at[j] = len;
        len += 8 * ((nodes[j] * radix[j] + 63) / 64);
    }
    unsigned char *p = x->own_saved = calloc(len, 1);
    if (!p)
        return PTB_ENOMEM;
    x->saved = p;
    x->saved_len = len;
    ptb_put_le(p, L, 4);
    p += 4;
    for (unsigned j = 0; j < L; j++) {
        *p++ = (unsigned char)order[j];
        *p++ = (unsigned char)radix[j];
        for (uint64_t u = used[order[j]]; u; u &= u - 1)
            *p++ = (unsigned char)ptb_low_bit(u);
    }
    memset(nodes, 0, sizeof nodes);
    for (uint64_t i = 0; i < n; i++) {
        unsigned fd = i ? key_diff(keys[i - 1], keys[i]) : 0;
        for (unsigned j = fd; j < L; j++) {
            nodes[j] += i && j > fd;
            uint64_t pos = nodes[j] * radix[j] + key_get(keys[i], j);
            x->own_saved[at[j] + pos / 8] |= (unsigned char)(1u << pos % 8);
        }
    }
    return PTB_OK;
}

/* Of the path from, the cells before c (a row's first when folded, the
 * only cells a folded path has) into *to. */
static void copy_path(const sl_ctx *x, prefix *to, const prefix *from,
                      unsigned c)
{
    const unsigned step = x->fold ? x->d->w : 1;
    for (unsigned i = 0; i < c; i += step) {
        to->node[i] = from->node[i];
        to->r[i] = from->r[i];
        to->same[i] = from->same[i];
    }
}

/* rank() and rank_path(): with out (may be NULL), l's path. */
static ALWAYS_INLINE uint64_t rank_(const sl_ctx *x, const layout *l,
                                    const prefix *pre, unsigned from,
                                    unsigned join, uint32_t *turn,
                                    prefix *out)
{
    uint8_t buf[SL_MAX_CELLS];
    uint32_t ignored;
    *(turn = turn ? turn : &ignored) = 0;
    unsigned c0 = pre && x->fold ? x->row[from] : pre ? from : 0;
    if (out)                            /* (the cells above: pre's) */
        copy_path(x, out, pre, c0);
    if (x->fold) {                      /* its class: the canonical one */
        int same = !pre || pre->same[c0], own = 0;
        if (hashed(x))
            return row_rank(x, l, c0, pre ? pre->node[c0] : x->root,
                            pre ? pre->r[c0] : 0, same, pre, join, turn,
                            out);
        const uint8_t *at = same ? canonical(x, l, buf, c0, &own) : l->at;
        *turn = own ? CODE_OWN : at != l->at ? CODE_TURNS : 0;
        return fold_rank(x, at, c0, pre ? pre->node[c0] : x->root,
                         pre ? pre->r[c0] : 0, same,
                         at == l->at ? pre : NULL, join, out);
    }
    return x->level ? trie_rank(x, l) : dp_rank(x, l, pre, from, join, out);
}

/* The index of a layout: its rank among the layouts, or its place in the
 * component (UINT64_MAX when it is not in it).  pre (may be NULL): the
 * path of a layout that agrees with l before cell 'from' and from cell
 * 'join' on.  *turn (may be NULL) gets CODE_TURNS when the state stands
 * for l's mirror image, CODE_OWN when l is its own, else 0. */
static uint64_t rank(const sl_ctx *x, const layout *l, const prefix *pre,
                     unsigned from, unsigned join, uint32_t *turn)
{
    return rank_(x, l, pre, from, join, turn, NULL);
}

/* Whether rank_path() can give a layout's path: not through a trie. */
static int ranks_path(const sl_ctx *x)
{
    return !x->level;
}

/* rank(); with out (may be NULL; needs pre and ranks_path()), the path of
 * the state's layout into *out: l's, or its mirror image's when *turn
 * gets CODE_TURNS (keep_last()). */
static uint64_t rank_path(const sl_ctx *x, const layout *l, const prefix *pre,
                          unsigned from, unsigned join, uint32_t *turn,
                          prefix *out)
{
    return rank_(x, l, pre, from, join, turn, out);
}

/* The layout of an index; with pre (may be NULL), a ranked layout's
 * path. */
static void unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre)
{
    if (x->level)
        trie_unrank(x, r, l);
    else if (x->fold)
        fold_unrank(x, r, l, pre, 0);
    else
        dp_unrank(x, r, l, pre, 0);
}

/* Whether r is one of the layouts (canonical ones, while the rows above
 * are their own mirror images) that share pre's cells before cell c (a
 * row's first when folded): the completions of its node there. */
static int shares(const sl_ctx *x, const prefix *pre, unsigned c, uint64_t r)
{
    const sl_node *v = &x->graph[pre->node[c]].node;
    uint64_t most = !x->fold || !pre->same[c] ? v->total
                    : v->frow - 1u < x->nfrow ? x->frow[v->frow - 1].count
                                              : 0;   /* (damaged) */
    return r >= pre->r[c] && r - pre->r[c] < most;
}

/* unrank() of r with its path, where l and *pre hold another layout of
 * the space (not a component's) and its path: from the last row start
 * (or cell, unfolded) whose completions hold r, as the layouts there
 * share the rows above.  Each one's completions hold the next one's, so
 * those that hold r come first: a binary search finds the last. */
static void unrank_near(const sl_ctx *x, uint64_t r, layout *l, prefix *pre)
{
    const sl_desc *d = x->d;
    unsigned step = x->fold ? d->w : 1, lo = 0, hi = (d->n - 1) / step;
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (shares(x, pre, mid * step, r))
            lo = mid;
        else
            hi = mid - 1;
    }
    if (x->fold)
        fold_unrank(x, r, l, pre, lo * step);
    else
        dp_unrank(x, r, l, pre, lo * step);
}

/* ==== moves ============================================================= */

enum { UP, DOWN, LEFT, RIGHT };
static const char dir_letter[] = "UDLR";

/* The anchor one cell from a in direction dir that a piece of kind k can
 * take on the empty board (its axis allowing), or -1: sl_place.step. */
static int step_of(const sl_desc *d, unsigned k, unsigned a, unsigned dir)
{
    const sl_kind *kd = &d->kind[k];
    int b;
    if ((kd->axis == SL_ACROSS && dir < LEFT) ||
        (kd->axis == SL_DOWN && dir >= LEFT))
        return -1;
    switch (dir) {
    case UP:    b = a >= d->w ? (int)(a - d->w) : -1; break;
    case DOWN:  b = a + d->w < d->n ? (int)(a + d->w) : -1; break;
    case LEFT:  b = a % d->w ? (int)a - 1 : -1; break;
    default:    b = a % d->w < d->w - 1 ? (int)a + 1 : -1; break;
    }
    return b >= 0 && (kd->fit >> b & 1) ? b : -1;
}

/* The anchor one cell from a in direction dir, if the piece (kind k, the
 * others covering occ) can stand there; -1 otherwise. */
static inline int neighbour(const sl_ctx *x, unsigned k, uint64_t occ,
                            unsigned a, unsigned dir)
{
    const sl_place *pl = place_of(x, k, a);
    int b = pl->step[dir];
    return b >= 0 && !(pl->need[dir] & occ) ? b : -1;
}

/* The places a piece of kind k at anchor a can reach in one move of the
 * metric, in a fixed order (the directions UDLR; nearer first), into to[];
 * with from[], each place's previous place on the way (for its path).
 * occ: the cells of the other pieces.  Returns the count. */
/* (Inlined into successors(): 6 % fewer instructions in a BFS.) */
static ALWAYS_INLINE unsigned reach(const sl_ctx *x, unsigned k, uint64_t occ,
                                    unsigned a, uint8_t *to, uint8_t *from)
{
    const unsigned metric = x->metric;
    unsigned n = 0;
    if (metric == SL_STEP) {            /* (the line metric's first steps) */
        for (unsigned dir = 0; dir < 4; dir++) {
            int b = neighbour(x, k, occ, a, dir);
            if (b >= 0) {
                from[n] = (uint8_t)a;
                to[n++] = (uint8_t)b;
            }
        }
        return n;
    }
    if (metric == SL_LINE) {
        for (unsigned dir = 0; dir < 4; dir++) {
            int b = (int)a, prev;
            while (prev = b, (b = neighbour(x, k, occ, (unsigned)b, dir)) >= 0) {
                from[n] = (uint8_t)prev;
                to[n++] = (uint8_t)b;
            }
        }
        return n;
    }
    uint64_t seen = (uint64_t)1 << a;
    uint8_t queue[SL_MAX_CELLS];
    unsigned head = 0, tail = 0;
    queue[tail++] = (uint8_t)a;
    while (head < tail) {
        unsigned c = queue[head++];
        for (unsigned dir = 0; dir < 4; dir++) {
            int b = neighbour(x, k, occ, c, dir);
            if (b < 0 || (seen >> b & 1))
                continue;
            seen |= (uint64_t)1 << b;
            queue[tail++] = (uint8_t)b;
            from[n] = (uint8_t)c;
            to[n++] = (uint8_t)b;
        }
    }
    return n;
}

/* The places a piece of kind k at anchor a can reach in the move metric,
 * as a set (reach() lists the same ones in order, with their paths): its
 * component among the anchors where it fits clear of occ, the other
 * pieces' cells, grown a step in every direction its axis allows at a
 * time. */
static uint64_t reach_set(const sl_ctx *x, unsigned k, uint64_t occ,
                          unsigned a)
{
    const sl_kind *kd = &x->d->kind[k];
    const unsigned w = x->d->w;
    uint64_t clear = kd->fit, r = (uint64_t)1 << a, last = 0;
    for (uint64_t m = kd->shape; m; m &= m - 1)
        clear &= ~(occ >> ptb_low_bit(m));
    while (r != last) {
        last = r;
        if (kd->axis != SL_DOWN)
            r |= ((r & ~x->last_col) << 1 | (r & ~x->first_col) >> 1) & clear;
        if (kd->axis != SL_ACROSS)
            r |= (r << w | r >> w) & clear;
    }
    return r & ~((uint64_t)1 << a);
}

/* Every move of layout l, in a fixed order: fn(arg, successor, code) with
 * code = from | to << 8 (the moving piece's anchor before and after);
 * stops early when fn returns non-zero.  With any_order, in the move
 * metric, a piece's places come in the order of their cells. */
/* (Inlined into each caller, with its fn: the BFS's add_move() and its
 * rank in one loop, 10 % fewer instructions.) */
static ALWAYS_INLINE void successors(const sl_ctx *x, const layout *l,
                                     int any_order,
                                     int (*fn)(void *arg, const layout *next,
                                               uint32_t code),
                                     void *arg)
{
    const sl_desc *d = x->d;
    uint8_t to[SL_MAX_CELLS], from[SL_MAX_CELLS];
    layout t = *l;                      /* each successor in turn */
    for (unsigned i = 0; i < l->np; i++) {
        unsigned a = l->anchor[i], k = l->at[a] - 1u;
        uint64_t cells = d->kind[k].shape << a;
        if (!(place_of(x, k, a)->halo & ~l->occ))
            continue;                   /* (hemmed in) */
        unsigned m = 0;
        if (any_order && x->metric == SL_MOVE)
            for (uint64_t r = reach_set(x, k, l->occ & ~cells, a); r;
                 r &= r - 1)
                to[m++] = (uint8_t)ptb_low_bit(r);
        else
            m = reach(x, k, l->occ & ~cells, a, to, from);
        if (!m)
            continue;
        t.at[a] = 0;
        for (unsigned j = 0; j < m; j++) {
            t.occ = l->occ & ~cells;
            put_piece(d, &t, k, to[j]);
            t.anchor[i] = to[j];          /* anchors stay as a set */
            if (fn(arg, &t, a | (uint32_t)to[j] << 8))
                return;
            t.at[to[j]] = 0;
        }
        t.at[a] = (uint8_t)(k + 1);
        t.occ = l->occ;
        t.anchor[i] = (uint8_t)a;
    }
}

/* The layout a thread last found moves of, and its path: the BFS takes
 * states in index order, and the next one, which most often shares the
 * first rows, is unranked from where the two part (unrank_near()); a walk
 * takes the move it picked, whose layout and path add_move() keeps.  A
 * space is known by a number it gets at open, never reused. */
static _Thread_local struct {
    uint64_t space;
    uint64_t idx;
    layout l;
    prefix pre;
} last;

/* The moves of a layout, as add_move() ranks them: into out (their codes
 * successors()', with CODE_TURNS or CODE_OWN) or their indices into idx;
 * with pick, each in turn into out[0] until pick takes one. */
typedef struct move_list {
    const sl_ctx *x;
    ptb_move *out;
    uint64_t *idx;
    unsigned n;
    const prefix *pre;           /* the layout's path, or NULL */
    int (*pick)(void *arg, const ptb_move *m);   /* or NULL: every move */
    void *arg;
    int picked;                  /* what pick returned */
} move_list;

/* The layout of state idx, with its path, as the thread's last: that of
 * the move a walk picked, l (the piece anchored at 'moved' having moved)
 * or its mirror image when 'turned', as an unranked layout (its anchors
 * ascending), so that the walk's next step need not unrank it.  The
 * layout whose moves are being listed is overwritten: successors() stops
 * as soon as a move is picked. */
static void keep_last(const sl_ctx *x, const layout *l, uint64_t idx,
                      const prefix *path, unsigned moved, int turned)
{
    if (turned) {                       /* row by row, mirrored */
        memset(&last.l, 0, sizeof last.l);
        for (unsigned c = 0; c < x->d->n; c += x->d->w)
            put_row(x->d, &last.l, c, mirror_row(x, row_bytes(x, l->at, c),
                                                 c));
    } else {
        last.l = *l;
        uint8_t *an = last.l.anchor;
        unsigned i = 0;
        while (an[i] != moved)
            i++;
        for (; i > 0 && an[i - 1] > moved; i--)
            an[i] = an[i - 1];
        for (; i + 1 < last.l.np && an[i + 1] < moved; i++)
            an[i] = an[i + 1];
        an[i] = (uint8_t)moved;
    }
    copy_path(x, &last.pre, path, x->d->n + 1);
    last.idx = idx;
}

/* add_move() of a walk: each move in turn into out[0] until pick takes
 * one, whose layout and path become the thread's last (keep_last()). */
static NEVER_INLINE int pick_move(move_list *ml, const layout *next, unsigned a,
                     unsigned b)
{
    uint32_t turn;
    prefix path, *out = ml->pre && ranks_path(ml->x) ? &path : NULL;
    uint64_t r = rank_path(ml->x, next, ml->pre, a < b ? a : b,
                           (a > b ? a : b) + 1, &turn, out);
    if (r == UINT64_MAX)
        return 0;
    ml->out->to = r;
    ml->out->code = a | b << 8 | turn;
    if ((ml->picked = ml->pick(ml->arg, ml->out)) == 0)
        return ++ml->n >= PTB_MAX_MOVES;
    if (out)
        keep_last(ml->x, next, r, out, b, turn == CODE_TURNS);
    return 1;
}

static ALWAYS_INLINE int add_move(void *arg, const layout *next,
                                  uint32_t code)
{
    move_list *ml = arg;
    unsigned a = code & 0xFF, b = code >> 8;
    if (ml->pick)
        return pick_move(ml, next, a, b);
    uint32_t turn;
    uint64_t r = rank_(ml->x, next, ml->pre, a < b ? a : b,
                       (a > b ? a : b) + 1, &turn, NULL);
    if (r == UINT64_MAX)     /* not in the space: only under a ranking a */
        return 0;            /* table forged (its check is --verify's) */
    if (ml->out) {
        ml->out[ml->n].to = r;
        ml->out[ml->n].code = code | turn;
    } else {
        ml->idx[ml->n] = r;
    }
    return ++ml->n >= PTB_MAX_MOVES;
}


/* ==== the component: a search from the start ============================ */

/* A set of keys, open addressing; the component's search. */
typedef struct search {
    const sl_ctx *x;
    sl_key *slot;
    uint8_t *used;
    uint64_t cap, n;             /* slots (a power of two); keys */
    sl_key *queue;               /* every key found, in order found */
    int full;
} search;

static uint64_t key_hash(sl_key k)
{
    uint64_t h = (k.hi ^ (k.lo * 0x9E3779B97F4A7C15u)) * 0xBF58476D1CE4E5B9u;
    return h ^ h >> 31;
}

static int grow(search *sr)
{
    uint64_t cap = sr->cap ? 2 * sr->cap : 1024;
    sl_key *slot = calloc(cap, sizeof *slot);
    uint8_t *used = calloc(cap, 1);
    sl_key *queue = realloc(sr->queue, cap / 2 * sizeof *queue);
    if (!slot || !used || !queue) {
        free(slot);
        free(used);
        if (queue)
            sr->queue = queue;
        return PTB_ENOMEM;
    }
    sr->queue = queue;
    for (uint64_t i = 0; i < sr->n; i++) {
        uint64_t h = key_hash(queue[i]) & (cap - 1);
        while (used[h])
            h = (h + 1) & (cap - 1);
        used[h] = 1;
        slot[h] = queue[i];
    }
    free(sr->slot);
    free(sr->used);
    sr->slot = slot;
    sr->used = used;
    sr->cap = cap;
    return PTB_OK;
}

/* Adds a layout's key when new; stops the search on a failure. */
static int add_key(void *arg, const layout *l, uint32_t code)
{
    search *sr = arg;
    sl_key k = key_of(sr->x->d, l);
    (void)code;
    if ((sr->n + 1) * 2 > sr->cap &&
        (sr->n >= MAX_COMPONENT || grow(sr) != PTB_OK)) {
        sr->full = 1;
        return 1;
    }
    uint64_t h = key_hash(k) & (sr->cap - 1);
    for (; sr->used[h]; h = (h + 1) & (sr->cap - 1))
        if (!key_cmp(sr->slot[h], k))
            return 0;
    sr->used[h] = 1;
    sr->slot[h] = k;
    sr->queue[sr->n++] = k;
    return 0;
}

/* The positions reachable from the start: a trie read from a table's
 * stored ranking, or made from a search over layouts; PTB_EFORMAT when a
 * stored one does not hold the start. */
static int make_component(sl_ctx *x, const layout *start,
                          const unsigned char *saved, size_t saved_len)
{
    const sl_desc *d = x->d;
    int rc = PTB_OK;
    if (!saved) {
        search sr = { x, NULL, NULL, 0, 0, NULL, 0 };
        if (d->npieces > MAX_KEY_PIECES)
            return PTB_EINVAL;
        add_key(&sr, start, 0);
        for (uint64_t i = 0; i < sr.n && !sr.full; i++) {
            layout l;
            layout_of_key(d, sr.queue[i], &l);
            successors(x, &l, 0, add_key, &sr);
        }
        free(sr.slot);
        free(sr.used);
        if (sr.full)
            rc = sr.n >= MAX_COMPONENT ? PTB_EINVAL : PTB_ENOMEM;
        else
            rc = save_trie(x, sr.queue, sr.n);
        free(sr.queue);
        saved = x->saved;
        saved_len = x->saved_len;
    }
    if (rc == PTB_OK)
        rc = load_trie(x, saved, saved_len);
    if (rc == PTB_OK && trie_rank(x, start) == UINT64_MAX)
        rc = PTB_EFORMAT;
    x->saved = saved;
    x->saved_len = saved_len;
    return rc;
}

static int matches(const sl_goal *gl, const layout *l)
{
    if (l->occ & gl->empty)
        return 0;
    for (unsigned i = 0; i < gl->n; i++)
        if (l->at[gl->anchor[i]] != gl->kind[i] + 1u)
            return 0;
    return 1;
}

static int is_goal_layout(const sl_desc *d, const layout *l)
{
    for (unsigned g = 0; g < d->ngoals; g++)
        if (matches(&d->goal[g], l))
            return 1;
    return 0;
}

/* The layouts of goal pattern g, found by the programme: from cell c in
 * node v with rank r so far, every completion whose cells agree with the
 * pattern (a subtree with no completion is skipped); a layout that an
 * earlier pattern matches too is left to that one.  Folded, r is the
 * canonical rank (fold_rank()'s): while the rows so far are their own
 * mirror images (same), each row, from node v0 with rank r0, is found
 * among its fold row's paths when it ends, and a row after its mirror
 * image ends the subtree (its mirror image stands for every layout in
 * it). */
typedef struct goal_walk {
    const sl_ctx *x;
    unsigned g;
    uint8_t want[SL_MAX_CELLS];       /* kind + 1 at the pattern's anchors */
    layout l;
    void (*emit)(void *arg, uint64_t idx);
    void *arg;
} goal_walk;

static void goal_layouts(goal_walk *gw, unsigned c, uint32_t v, uint64_t r,
                         int same, uint32_t v0, uint64_t r0)
{
    const sl_ctx *x = gw->x;
    const sl_desc *d = x->d;
    if (c % d->w == 0) {                /* a row's end, the next's start */
        if (same && c) {
            const fold_path *p = fold_find(x, v0, c - d->w, r - r0, 1);
            if (!p || p->off != r - r0)
                return;                 /* (or a fold row read from a table
                                           failed: damaged) */
            r = r0 + p->before;
            same = p->same;
        }
        v0 = v;
        r0 = r;
    }
    if (c == d->n) {
        for (unsigned g = 0; g < gw->g; g++)
            if (matches(&d->goal[g], &gw->l))
                return;
        gw->emit(gw->arg, r);
        return;
    }
    int hole = d->goal[gw->g].empty >> c & 1, want = gw->want[c] - 1;
    if (x->lazy && !node_checked(x, v, c))
        return;
    for (uint32_t m = x->graph[v].node.choice; m; m &= m - 1) {
        const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(m)].edge;
        if (e->kind == PASS ? want < 0 && !hole
                            : want >= 0 ? e->kind == want
                                        : !hole || e->kind < 0) {
            if (e->kind >= 0)
                put_piece(d, &gw->l, (unsigned)e->kind, c);
            goal_layouts(gw, c + 1, e->next, r + e->before, same, v0, r0);
            if (e->kind >= 0)
                take_piece(d, &gw->l, (unsigned)e->kind, c);
        }
    }
}

/* ==== the puzzle's state-space ops ====================================== */

static void slide_close(void *ctx)
{
    sl_ctx *x = ctx;
    if (x) {
        if (!x->shared)
            free(x->graph);
        free(x->ok);
        free(x->avail);
        free(x->placed);
        free(x->flips);
        for (unsigned j = 0; x->level && j < x->d->npieces; j++) {
            free(x->level[j].word);
            free(x->level[j].cum);
        }
        free(x->level);
        free(x->own_saved);
        if (!x->shared) {
            free(x->frow);
            free(x->fpath);
            free(x->fguide);
        }
        free(x->fok);
        free(x->rslot);
        free(x->rrow);
        free(x->rfirst);
        free(x->place);
    }
    free(x);
}

/* The cells next to a set of cells (up, down, left, right). */
static uint64_t around(const sl_desc *d, uint64_t cells)
{
    uint64_t first = 0;                 /* the first column */
    for (unsigned c = 0; c < d->n; c += d->w)
        first |= (uint64_t)1 << c;
    return cells << d->w | cells >> d->w | (cells & ~first) >> 1 |
           (cells & ~(first << (d->w - 1))) << 1;
}

/* The cells of 'open' that steps inside it reach from its lowest cell. */
static uint64_t connected(const sl_desc *d, uint64_t open)
{
    uint64_t seen = open & -open, grow = seen;
    while (grow) {
        grow = around(d, grow) & open & ~seen;
        seen |= grow;
    }
    return seen;
}

/* Whether the description is a tile puzzle whose reachable positions are
 * known without a search: every piece a distinct 1x1 tile moving freely,
 * one empty cell, and the open cells forming a 2-connected graph that is
 * not a cycle.  A move swaps the empty cell with a neighbour, so it
 * changes both the parity of the permutation of the cells' contents and
 * the colour (row + column mod 2) of the empty cell; the board is
 * bipartite, and by Wilson's theorem (R. M. Wilson, Graph puzzles,
 * homotopy, and the alternating group, J. Combin. Theory B 16, 1974) every
 * layout whose two parities add up as the start's is reachable: half the
 * layouts, ranked by the programme with the parity in its state. */
static int tile_puzzle(const sl_desc *d)
{
    uint64_t open = ~d->walls & (d->n < 64 ? ((uint64_t)1 << d->n) - 1
                                           : ~(uint64_t)0);
    unsigned cells = (unsigned)__builtin_popcountll(open), cycle = 1;
    if (d->npieces + 1 != cells || cells < 4)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        if (d->kind[k].count != 1 || d->kind[k].shape != 1 ||
            d->kind[k].axis != SL_FREE)
            return 0;
    for (unsigned c = 0; c < d->n; c++) {
        uint64_t one = (uint64_t)1 << c, rest = open & ~one;
        if (!(open & one))
            continue;
        if (connected(d, rest) != rest)
            return 0;                           /* not 2-connected */
        cycle &= __builtin_popcountll(around(d, one) & open) == 2;
    }
    return !cycle;
}

/* A tile puzzle's colour of the empty cell when a goal is met, when every
 * goal pattern fixes it to one colour; -1 otherwise. */
static int goal_colour(const sl_desc *d)
{
    int colour = -1;
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        uint64_t hole = gl->empty;
        if (!hole && gl->n == d->npieces) {
            hole = ~d->walls & (((uint64_t)2 << (d->n - 1)) - 1);
            for (unsigned i = 0; i < gl->n; i++)
                hole &= ~((uint64_t)1 << gl->anchor[i]);
        }
        if (__builtin_popcountll(hole) != 1)
            return -1;
        unsigned c = ptb_low_bit(hole);
        int own = (int)((c / d->w + c % d->w) & 1);
        if (colour >= 0 && own != colour)
            return -1;
        colour = own;
    }
    return colour;
}

static int slide_open(const ptb_puzzle *p, unsigned metric, void **ctx)
{
    sl_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->space = __atomic_add_fetch(&spaces, 1, __ATOMIC_RELAXED);
    x->d = p->data;
    x->metric = x->d->metric[metric];
    for (unsigned c = 0; c < x->d->n; c++) {
        x->row[c] = (uint8_t)(c - c % x->d->w);
        x->first_col |= (uint64_t)(c % x->d->w == 0) << c;
        x->last_col |= (uint64_t)(c % x->d->w == x->d->w - 1) << c;
    }
    x->row_mask = x->d->w == 8 ? UINT64_MAX
                               : ((uint64_t)1 << 8 * x->d->w) - 1;
    x->n = x->d->n;
    if (!(x->place = calloc((size_t)x->d->nkinds * x->n + 1,
                            sizeof *x->place))) {
        free(x);
        return PTB_ENOMEM;
    }
    for (unsigned k = 0; k < x->d->nkinds; k++)
        for (unsigned a = 0; a < x->d->n; a++)
            for (unsigned dir = 0; dir < 4; dir++) {
                sl_place *pl = place_of(x, k, a);
                int b = step_of(x->d, k, a, dir);
                pl->step[dir] = (int8_t)b;
                if (b >= 0) {
                    pl->need[dir] = x->d->kind[k].shape << b &
                                    ~(x->d->kind[k].shape << a);
                    pl->halo |= pl->need[dir];
                }
            }
    x->npar = x->d->reachable && tile_puzzle(x->d) ? 2 : 1;
    x->goal_colour = p->parity ? (unsigned)goal_colour(x->d) : 0;
    layout start;
    layout_of(x->d, (const unsigned char *)x->d->start, &start);
    int rc = x->d->reachable && x->npar == 1
                 ? make_component(x, &start, p->stored, p->stored_len)
                 : make_table(x, &start, p->stored, p->stored_len);
    if (rc == PTB_OK)
        rc = make_fold(x);
    if (rc == PTB_OK && x->fold && !x->lazy)   /* (made here) */
        rc = row_hash(x);
    if (rc == PTB_OK && !x->saved)      /* the ranking a table stores */
        rc = save_graph(x);
    if (rc != PTB_OK) {
        slide_close(x);
        return rc;
    }
    *ctx = x;
    return PTB_OK;
}

/* The layout of state idx (< x->size), into the thread's last with its
 * path: unranked from where the last one parts, or not at all when it is
 * the last (a walk asks whether a state is a goal, then for its moves).
 * NULL when the space is damaged. */
static const layout *last_layout(const sl_ctx *x, uint64_t idx)
{
    if (last.space != x->space || last.idx != idx) {
        if (last.space == x->space && !x->level)
            unrank_near(x, idx, &last.l, &last.pre);
        else
            unrank(x, idx, &last.l, &last.pre);
        last.space = x->space;
        last.idx = idx;
    }
    if (__atomic_load_n(&x->damaged, __ATOMIC_RELAXED)) {
        last.space = 0;                 /* (its path may be cut short) */
        return NULL;
    }
    return &last.l;
}

static uint32_t slide_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

static uint64_t slide_size(const void *ctx, uint32_t sub)
{
    return sub == 0 ? ((const sl_ctx *)ctx)->size : 0;
}

static int slide_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const sl_ctx *x = ctx;
    const layout *l;
    return sub == 0 && idx < x->size && (l = last_layout(x, idx)) &&
           is_goal_layout(x->d, l);
}

static void slide_goals(const void *ctx, uint32_t sub,
                        void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const sl_ctx *x = ctx;
    if (sub != 0)
        return;
    if (x->level) {
        for (uint64_t i = 0; i < x->size; i++)
            if (slide_is_goal(ctx, sub, i))
                emit(arg, i);
        return;
    }
    goal_walk gw = { .x = x, .emit = emit, .arg = arg };
    for (gw.g = 0; gw.g < x->d->ngoals; gw.g++) {
        const sl_goal *gl = &x->d->goal[gw.g];
        memset(gw.want, 0, sizeof gw.want);
        for (unsigned i = 0; i < gl->n; i++)
            gw.want[gl->anchor[i]] = (uint8_t)(gl->kind[i] + 1);
        memset(&gw.l, 0, sizeof gw.l);
        goal_layouts(&gw, 0, x->root, 0, x->fold, x->root, 0);
    }
}

/* moves(), unmoves() and first_move(): the same moves of state idx into
 * ml (none when idx is no state). */
static void state_moves(uint32_t sub, uint64_t idx, move_list *ml)
{
    const sl_ctx *x = ml->x;
    const layout *l;
    if (sub != 0 || idx >= x->size || !(l = last_layout(x, idx)))
        return;
    if (x->lazy && x->fold &&
        __atomic_load_n(&x->asked, __ATOMIC_RELAXED) < HASH_AFTER &&
        __atomic_add_fetch(&((sl_ctx *)(uintptr_t)x)->asked, 1,
                           __ATOMIC_RELAXED) == HASH_AFTER)
        hash_late(x);
    ml->pre = &last.pre;
    successors(x, l, ml->idx != NULL, add_move, ml);
}

static unsigned slide_moves(const void *ctx, uint32_t sub, uint64_t idx,
                            ptb_move *out)
{
    move_list ml = { .x = ctx, .out = out };
    state_moves(sub, idx, &ml);
    return ml.n;
}

static unsigned slide_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                              uint64_t *out)
{
    move_list ml = { .x = ctx, .idx = out };
    state_moves(sub, idx, &ml);
    return ml.n;
}

static int slide_first_move(const void *ctx, const ptb_position *p,
                            int (*pick)(void *arg, const ptb_move *m),
                            void *arg, ptb_move *out)
{
    move_list ml = { .x = ctx, .out = out, .pick = pick, .arg = arg };
    state_moves(p->sub, p->idx, &ml);
    return ml.picked;
}

/* ==== the native view =================================================== */

static int parse_error(char *err, size_t cap, const ptb_token *t,
                       unsigned ntok, unsigned c, unsigned w,
                       const char *what, char ch)
{
    const ptb_token *row = ntok == 1 ? &t[0] : &t[c / w];
    unsigned off = ntok == 1 ? c : c % w;
    return ptb_errf(err, cap, "line %u, column %u: %s '%c'", row->line,
                    ptb_text_column(row, off), what, ch);
}

/* The user's drawing: h rows of w cells, or all cells in one row. */
/* The pieces of a drawing read cell by cell (parse()): each one's cells
 * touching, of a shape the puzzle has, as many of each kind as the table
 * covers. */
static int parse_pieces(const sl_desc *d, const ptb_position *p,
                        const ptb_token *t, unsigned rows, char *err,
                        size_t errcap)
{
    unsigned counts[SL_MAX_KINDS] = { 0 };
    uint64_t done = d->walls;
    for (unsigned c = 0; c < d->n; c++) {
        char ch = (char)p->cell[c];
        if ((done >> c & 1) || sl_is_empty(d, ch))
            continue;
        uint64_t m = 0;
        for (unsigned i = c; i < d->n; i++)
            if (p->cell[i] == (unsigned char)ch)
                m |= (uint64_t)1 << i;
        done |= m;
        int k = sl_kind_of(d, ch, m >> c);
        if (connected(d, m) != m)
            return parse_error(err, errcap, t, rows, c, d->w, "the cells "
                               "of a piece must touch: two pieces show",
                               ch);
        if (k < 0)
            return parse_error(err, errcap, t, rows, c, d->w, "no piece of "
                               "this puzzle has the shape of", ch);
        counts[k]++;
    }
    for (unsigned k = 0; k < d->nkinds; k++)
        if (counts[k] != d->kind[k].count && !(d->mixes && !d->kind[k].label)) {
            if (d->kind[k].label)
                return ptb_errf(err, errcap, "piece '%c' is missing",
                                d->kind[k].label);
            return ptb_errf(err, errcap, "expected %u pieces shaped like "
                            "'%c' of the start, found %u", d->kind[k].count,
                            d->kind[k].shown, counts[k]);
        }
    return PTB_OK;
}

static int slide_parse(const void *ctx, const char *text,
                       const char *const *opt, ptb_position out[2],
                       unsigned *n, char *err, size_t errcap)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    ptb_token t[SL_MAX_H];
    ptb_position *p = &out[0];
    (void)opt;
    unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, t, SL_MAX_H);
    int one = rows == 1 && t[0].len == d->n && d->h > 1;
    if (!one && rows != d->h)
        return ptb_errf(err, errcap, "expected %u rows of %u cells (or the "
                        "%u cells in one row), found %u rows", d->h, d->w,
                        d->n, rows);
    for (unsigned r = 0; !one && r < rows; r++)
        if (t[r].len != d->w)
            return ptb_errf(err, errcap, "line %u, column %u: expected %u "
                            "cells in a row, found %u", t[r].line, t[r].col,
                            d->w, t[r].len);
    p->aux = '.';
    for (unsigned c = 0; c < d->n; c++) {
        char ch = one ? t[0].s[c] : t[c / d->w].s[c % d->w];
        int wall = d->walls >> c & 1;
        p->cell[c] = (unsigned char)ch;
        if (sl_is_wall(d, ch) != wall)
            return parse_error(err, errcap, t, rows, c, d->w, wall ?
                               "the board has a wall here, expected '#', got"
                               : "the board has no wall here, got", ch);
        if (wall)
            continue;
        if (sl_is_empty(d, ch)) {
            p->aux = (unsigned char)ch;
            continue;
        }
        if (ch <= ' ' || ch >= 127 || ch == '?' || ch == '/' ||
            ch == '"' || ch == '\\')
            return parse_error(err, errcap, t, rows, c, d->w,
                               "unexpected", ch);
    }
    int rc = parse_pieces(d, p, t, rows, err, errcap);
    if (rc != PTB_OK)
        return rc;
    layout l;
    layout_of(d, p->cell, &l);
    p->sub = 0;
    p->idx = rank(ctx, &l, NULL, 0, 0, NULL);
    p->aux |= mirrored(ctx, &l);
    if (p->idx == UINT64_MAX)
        return ptb_errf(err, errcap, "this position is not one of the %llu "
                        "the table covers: %s",
                        (unsigned long long)((const sl_ctx *)ctx)->size,
                        d->mixes ? "it leaves too few empty cells"
                                 : "those reachable from the description's "
                                   "start");
    *n = 1;
    return PTB_OK;
}

static unsigned slide_record_lines(const void *ctx, const char *first_line)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    ptb_token t[2];
    if (ptb_text_split(first_line, PTB_TEXT_GRID, t, 2) == 1 &&
        t[0].len == d->n && d->h > 1)
        return 1;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, d->h);
}

/* The moving piece's cells before a move of code m. */
static uint64_t moving_cells(const sl_desc *d, const ptb_position *p,
                             uint32_t code)
{
    unsigned char ch = p->cell[code & 0xFF];
    uint64_t m = 0;
    for (unsigned i = 0; i < d->n; i++)
        if (p->cell[i] == ch)
            m |= (uint64_t)1 << i;
    return m;
}

static void slide_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    uint32_t code = native(ctx, p, m->code);
    unsigned from = code & 0xFF, to = code >> 8 & 0xFF;
    unsigned char ch = p->cell[from];
    uint64_t cells = moving_cells(d, p, code);
    for (uint64_t b = cells; b; b &= b - 1)
        p->cell[ptb_low_bit(b)] = (unsigned char)p->aux;
    for (uint64_t b = cells; b; b &= b - 1)
        p->cell[ptb_low_bit(b) + to - from] = ch;
    p->idx = m->to;
    if (m->code & CODE_OWN)             /* the drawing: as parse() says */
        p->aux &= ~MIRRORED;
    else if (m->code & CODE_TURNS)
        p->aux ^= MIRRORED;
}

/* The path of a move: its directions, "DDL", into path (NUL-ended). */
static unsigned move_path(const sl_ctx *x, const ptb_position *before,
                          uint32_t code, char *path)
{
    const sl_desc *d = x->d;
    unsigned a = code & 0xFF, b = code >> 8 & 0xFF, n = 0;
    uint64_t cells = moving_cells(d, before, code), occ = 0;
    uint8_t to[SL_MAX_CELLS], from[SL_MAX_CELLS], way[SL_MAX_CELLS];
    for (unsigned i = 0; i < d->n; i++)
        if (!(cells >> i & 1) && !sl_is_empty(d, (char)before->cell[i]) &&
            !(d->walls >> i & 1))
            occ |= (uint64_t)1 << i;
    int k = sl_kind_of(d, (char)before->cell[a], cells >> a);
    unsigned m = k < 0 ? 0 : reach(x, (unsigned)k, occ, a, to, from);
    for (unsigned c = b; c != a && n < SL_MAX_CELLS;) {
        unsigned j = 0;
        while (j < m && to[j] != c)
            j++;
        if (j == m)
            break;
        unsigned f = from[j];
        way[n++] = (uint8_t)(c + d->w == f ? UP : f + d->w == c ? DOWN
                             : c + 1 == f ? LEFT : RIGHT);
        c = f;
    }
    for (unsigned i = 0; i < n; i++)
        path[i] = dir_letter[way[n - 1 - i]];
    path[n] = '\0';
    return n;
}

static int slide_format_board(const void *ctx, const ptb_position *p,
                              char *buf, size_t cap)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    size_t len = 0;
    sl_grid_text(d, (const char *)p->cell, '\n', buf, cap, &len);
    return (int)len;
}

static int slide_format_move(const void *ctx, const ptb_position *before,
                             const ptb_move *m, char *buf, size_t cap)
{
    char path[SL_MAX_CELLS + 1];
    size_t len = 0;
    uint32_t code = native(ctx, before, m->code);
    move_path(ctx, before, code, path);
    ptb_catf(buf, cap, &len, "%c %s", before->cell[code & 0xFF], path);
    return (int)len;
}

/* The count, then per move "N PIECE PATH", the board after it and a blank
 * line. */
static int slide_format_answer(const void *ctx, const ptb_solution *s,
                               char *buf, size_t cap)
{
    size_t len = 0;
    char move[SL_MAX_CELLS + 8], board[SL_MAX_CELLS + SL_MAX_H + 1];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        slide_format_move(ctx, before, &s->move[i], move, sizeof move);
        slide_format_board(ctx, &s->after[i], board, sizeof board);
        ptb_catf(buf, cap, &len, "%u %s\n%s\n\n", i + 1, move, board);
    }
    return (int)len;
}

/* A state as a drawing parse() reads back: rows joined by '/', a letter a
 * piece (a distinct piece's own, then the first free ones). */
static int slide_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                             char *buf, size_t cap)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    char cells[SL_MAX_CELLS];
    layout l;
    size_t len = 0;
    if (sub != 0 || idx >= x->size)
        return -1;
    unrank(x, idx, &l, NULL);
    for (unsigned c = 0; c < d->n; c++)
        cells[c] = d->walls >> c & 1 ? '#' : '.';
    const char *pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                       "0123456789!$%&()*+,-:;<=>@[]^_`{|}~'";
    for (unsigned i = 0; i < l.np; i++) {
        unsigned a = l.anchor[i], k = l.at[a] - 1u;
        char ch = d->kind[k].label;
        while (!ch) {
            ch = *pool++;
            for (unsigned j = 0; ch && j < d->nkinds; j++)
                if (d->kind[j].label == ch)
                    ch = 0;
            if (ch && (sl_is_empty(d, ch) || sl_is_wall(d, ch)))
                ch = 0;
        }
        for (unsigned o = 0; o < 64; o++)
            if (d->kind[k].shape >> o & 1)
                cells[a + o] = ch;
    }
    sl_grid_text(d, cells, '/', buf, cap, &len);
    return (int)len;
}

static int slide_format_query_json(const void *ctx, const ptb_position *p,
                                   char *buf, size_t cap)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    size_t len = 0;
    ptb_catf(buf, cap, &len, "\"code\":\"");
    sl_grid_text(d, (const char *)p->cell, '/', buf, cap, &len);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

static int slide_format_move_json(const void *ctx, const ptb_position *before,
                                  const ptb_move *m, char *buf, size_t cap)
{
    static const char *const name[] = { "up", "down", "left", "right" };
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    uint32_t code = native(ctx, before, m->code);
    unsigned from = code & 0xFF, to = code >> 8 & 0xFF;
    char path[SL_MAX_CELLS + 1];
    size_t len = 0, k;
    move_path(ctx, before, code, path);
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"path\":[", before->cell[from], from / d->w + 1,
             from % d->w + 1, to / d->w + 1, to % d->w + 1);
    for (k = 0; path[k]; k++)
        ptb_catf(buf, cap, &len, "%s\"%s\"", k ? "," : "",
                 name[strchr(dir_letter, path[k]) - dir_letter]);
    ptb_catf(buf, cap, &len, "]");
    if (k && strspn(path, (char[2]){ path[0], 0 }) == k)
        ptb_catf(buf, cap, &len, ",\"direction\":\"%s\"",
                 name[strchr(dir_letter, path[0]) - dir_letter]);
    ptb_catf(buf, cap, &len, "}");
    return (int)len;
}

/* The ranking a table stores: the graph (save_graph()) or the
 * component's trie. */
static const unsigned char *slide_index(const void *ctx, size_t *len)
{
    const sl_ctx *x = ctx;
    *len = x->saved_len;
    return x->saved;
}

static int slide_status(const void *ctx)
{
    const sl_ctx *x = ctx;
    return __atomic_load_n(&x->damaged, __ATOMIC_RELAXED) ? PTB_ECORRUPT
                                                          : PTB_OK;
}

static const ptb_puzzle slide_ops = {
    .reversible = 1,
    .open = slide_open,
    .close = slide_close,
    .subtables = slide_subtables,
    .size = slide_size,
    .goals = slide_goals,
    .is_goal = slide_is_goal,
    .moves = slide_moves,
    .unmoves = slide_unmoves,
    .parse = slide_parse,
    .record_lines = slide_record_lines,
    .apply = slide_apply,
    .first_move = slide_first_move,
    .format_board = slide_format_board,
    .format_move = slide_format_move,
    .format_answer = slide_format_answer,
    .format_code = slide_format_code,
    .format_query_json = slide_format_query_json,
    .format_move_json = slide_format_move_json,
    .index = slide_index,
    .status = slide_status,
};

/* A tile puzzle's distance mod 2: every move changes the colour of the
 * empty cell. */
static unsigned slide_parity(const void *ctx, uint32_t sub, uint64_t idx)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    layout l;
    if (sub != 0 || idx >= x->size)
        return 0;
    unrank(x, idx, &l, NULL);
    unsigned c = ptb_low_bit(~l.occ & ~d->walls);
    return (unsigned)(x->black >> c & 1) ^ x->goal_colour;
}

int sl_puzzle(sl_desc *d, ptb_puzzle **out)
{
    ptb_puzzle *p = malloc(sizeof *p);
    if (!p)
        return PTB_ENOMEM;
    *p = slide_ops;
    p->name = d->name;
    p->summary = d->summary;
    p->metrics = d->metric_name;
    p->description = d->text;
    p->start = d->start_text;
    p->data = d;
    if (d->reachable && tile_puzzle(d) && goal_colour(d) >= 0)
        p->parity = slide_parity;
    *out = p;
    return PTB_OK;
}
