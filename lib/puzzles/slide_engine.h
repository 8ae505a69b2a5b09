/* slide_engine.h: what the files of the sliding-block engine share
 * (puzzle_slide.c and slide_*.c; slide.h is the engine as the rest of the
 * library sees it): the space's context, the programme's graph, the fold
 * and the trie's structures, and the helpers on the hot path of ranking,
 * unranking and moves, inlined wherever they are called.  Each file's
 * header says what it does; puzzle_slide.c's, the whole design. */
#ifndef PTB_SLIDE_ENGINE_H
#define PTB_SLIDE_ENGINE_H

#include <pthread.h>
#include <stddef.h>
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
#define MAX_ROW_HASH (1u << 17)     /* rows listed (sl_row_hash()), 24
                                       bytes each; and hashed on a graph
                                       made here, 32 MB at most, 2 MB for
                                       klotski-4x5 */
#define HASH_AFTER 4096          /* a folded graph read from a table gets
                                    its rows listed and its row table once
                                    the moves of this many states were
                                    listed (hash_late()): a batch's, not
                                    one query's */
#define MAX_LAYOUTS ((uint64_t)1 << 40)   /* a table's, a folded space's */
#define MAX_SEARCHED ((uint64_t)1 << 48)  /* a space too big for a table,
                                             answered by a search (its
                                             pattern tables: pattern.h) */
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
    uint32_t frow;               /* 1 + its fold row (sl_make_fold()), or 0 */
} sl_node;

typedef union sl_unit {
    sl_node node;
    sl_edge edge;
    uint64_t state[2];           /* a node's second unit: its state, 0 */
} sl_unit;

#define EDGES 2                  /* a node's units before its edges */

/* A fold row and its paths (the mirror image, below: sl_make_fold()). */
typedef struct fold_path {
    uint64_t off;                /* plain completions before it, from v */
    uint64_t before;             /* canonical completions of the paths
                                    before it */
    uint32_t end;                /* its node at the next row */
    uint32_t same;               /* 1: the row is its own mirror image */
} fold_path;

/* A row of the graph found by its node and its anchors (row_bytes()):
 * sl_row_hash(); node 0 marks a free slot. */
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

/* A row of node v (sl_row_hash()): its anchors, the plain completions
 * before it, its node at the next row, and n, the rows of v, with
 * ONE_EACH when each has one completion (a last row's node: the row's
 * place is its plain rank), or BY_RANK when v has few completions, each
 * with the place of its row (rdir: from rdir_at[v]). */
typedef struct row_entry {
    uint64_t off, row;
    uint32_t end, n;
} row_entry;
#define ONE_EACH 0x80000000u
#define BY_RANK 0x40000000u
#define ROWS_OF(n) ((n) & ~(ONE_EACH | BY_RANK))
#define BY_RANK_MOST 4096        /* a node's completions */
#define MAX_BY_RANK (1u << 20)   /* rdir: 2 MB */

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

/* The search's moves by classes (sl_make_classes(), class_moves()): the
 * pieces of one kind stepping one way, from an anchor in ok when the
 * cells the step newly covers are free: the cells c + off of each free
 * cell c, for off = rs[i] - ls[i] (i < noff); the anchor moves by
 * delta.  Past noff, up to the most any class has (cls_offs), the first
 * offset again: every class tested by a loop of one length. */
#define CLASS_OFFS 4
#define CLASS_KINDS 16           /* kinds the classes take; more: none */
typedef struct sl_class {
    uint64_t ok;
    uint8_t rs[CLASS_OFFS], ls[CLASS_OFFS];
    uint8_t shift[CLASS_OFFS];   /* of each offset, its place among the
                                    space's (cls_rs[], cls_ls[]) */
    uint8_t noff, kind;
    int8_t delta;
} sl_class;

/* The rows of a folded graph's row-start nodes in a table indexed by the
 * row's code (sl_row_table(), table_rank()).  A row's full code counts
 * the bytes of at[] in its cells (kind + 1 at an anchor, else 0) in base
 * kinds + 1, its first cell the lowest digit (rt_digit[] the weight of
 * each cell), so that a move changes it by one digit at each end.  A
 * row-start node knows the cells of its row that the pieces above cover
 * (cover, walls too); its rows are numbered by their digits at the other
 * cells alone, the short code rt_sq[full << w | cover], and its row of
 * short code q is rt_ent[base + q], with the plain completions before it
 * and its node at the next row as base | cover << RT_COVER (rt_at[] of
 * each unit of the graph: its node's, the same way). */
#define MAX_ROW_TABLE (1u << 18)   /* entries: 2 MB */
#define MAX_ROW_CODES (1u << 20)   /* rt_sq: full codes times covers,
                                      2 MB */
#define RT_COVER 24
#define RT_BASE ((1u << RT_COVER) - 1)

typedef struct rt_entry {
    uint32_t off;
    uint32_t next;
} rt_entry;

/* A fold row's rows the same way (rt_fold_at[] of its node, rt_fold[]):
 * the canonical completions of the paths before its own, and its node
 * at the next row, a fold row's place when the row is its own mirror
 * image (RT_SAME), else its place in the row table (RT_BEFORE); a row
 * after its mirror image has no path (RT_AFTER).  rt_mc[] has the full
 * code of the mirror image of each full code of each row, from
 * rt_mrow[] of the row's first cell. */
enum { RT_AFTER, RT_BEFORE, RT_SAME };
typedef struct rt_fold {
    uint64_t before;
    uint32_t next;
    uint32_t kind;               /* RT_AFTER, RT_BEFORE, RT_SAME */
} rt_fold;

typedef struct sl_ctx {
    uint64_t space;              /* its number (state_moves()) */
    const sl_desc *d;
    unsigned metric;             /* SL_STEP, SL_LINE, SL_MOVE */
    unsigned max_moves;          /* the most moves a layout may have */
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
                                    (own_saved) by sl_save_graph(); or NULL */
    size_t saved_len;
    unsigned char *own_saved;
    /* the mirror image folded (sl_make_fold()): each kind's mirror image;
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
                                    paths (sl_fold_find()) */
    uint64_t *fok;               /* read from a table: a bit a fold row
                                    that holds (sl_row_checked()) */
    struct row_slot *rslot;      /* every row by node and anchors
                                    (sl_row_hash()), or NULL (a graph read
                                    from a table: none); in use once
                                    hashed is set (hashed()) */
    uint32_t rmask;              /* its slots - 1 */
    int hashed;
    uint64_t asked;              /* read from a table: the states whose
                                    moves were listed (atomic), up to
                                    HASH_AFTER (hash_late()) */
    /* hashed, so that an unrank takes a row at once (fold_unrank()):
     * each row-start node v's rows in rank order, from rrow[rfirst[v]]
     * (rfirst: 4 bytes a unit of the graph, whose units take 16) */
    struct row_entry *rrow;
    uint32_t *rfirst;
    uint16_t *rdir;              /* (BY_RANK) */
    uint32_t *rdir_at;           /* (4 bytes a unit, as rfirst) */
    /* the search's moves by classes (sl_make_classes()), ncls of them
     * (0: the moves of each piece in turn) */
    sl_class cls[4 * CLASS_KINDS];
    unsigned ncls, cls_offs;
    /* the classes' offsets, each once (nshift): the free cells shifted
     * by each are made once a state */
    uint8_t cls_rs[4 * CLASS_KINDS * CLASS_OFFS],
            cls_ls[4 * CLASS_KINDS * CLASS_OFFS];
    unsigned nshift;
    uint64_t open_cells;         /* the cells off the walls */
    uint8_t below[SL_MAX_KINDS];   /* of each kind, its cells' rows below
                                      its anchor's, times w */
    /* the row table (sl_row_table()), or rt_ent NULL: of each unit of
     * the graph, its row-start node's place (rt_at), the rows, the short
     * codes, each cell's weight in its row's full code */
    uint32_t *rt_at;
    rt_entry *rt_ent;
    uint16_t *rt_sq;
    uint32_t rt_digit[SL_MAX_CELLS];
    uint32_t *rt_fold_at;
    rt_fold *rt_fold;
    uint32_t *rt_mc;
    uint32_t rt_mrow[SL_MAX_CELLS];
    /* of each entry of rt_ent and rt_fold, its row's node at the next
     * row (a walk's path: table_row_rank()); tabled, set once the whole
     * row table is made (tabled()): at open, or for a graph read from a
     * table with its rows listed (hash_late()) */
    uint32_t *rt_node, *rt_fold_node;
    int tabled;
    /* A searched space (puzzle_slide.c, searched()): a tile puzzle with
     * 'patterns'.  Its positions carry no rank; its index (the graph and
     * all above) is made only when something asks for a state by its rank
     * (indexed(): made once, under lock; made_rc its outcome), and size
     * is its layouts counted. */
    int searched;
    int made;                    /* atomic: the index is made */
    int made_rc;
    unsigned start_class;        /* the start's class (tile_class()) */
    const struct ptb_puzzle *puzzle;
    pthread_mutex_t lock;
} sl_ctx;

/* A layout: the kind at each anchor, the covered cells, the anchors, and
 * each kind's anchors (put_piece() and take_piece() keep them). */
typedef struct layout {
    uint8_t at[SL_MAX_CELLS];    /* kind + 1 at an anchor, else 0 */
    uint64_t occ;
    unsigned np;
    uint8_t anchor[SL_MAX_PIECES];
    uint64_t kinds[SL_MAX_KINDS];
} layout;

/* ==== the dynamic programme ============================================= */

/* A state of a cell: its window, parity and pieces left (with the empty
 * cells still needed), packed as win << 32 | p << 31 | s (s < MAX_LEFT). */
#define STATE(win, p, s) ((uint64_t)(win) << 32 | (uint64_t)(p) << 31 | (s))
#define WIN(st) ((st) >> 32)
#define PAR(st) ((unsigned)((st) >> 31 & 1))
#define LEFT(st) ((st) & 0x7FFFFFFFu)
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

/* The programme's nodes, cell by cell: the states of cell c are
 * st[at[c] .. at[c] + n[c]), ascending. */
typedef struct layers {
    uint64_t *st;
    size_t at[SL_MAX_CELLS + 1], n[SL_MAX_CELLS + 1];
} layers;

/* A cell's states, hashed: slot[h] is 1 + the place of a state in st[],
 * or 0 (open addressing, at most half full). */
typedef struct state_set {
    const uint64_t *st;
    uint32_t *slot;
    uint64_t mask;
    unsigned shift;              /* 64 - log2(slots) */
} state_set;

/* The graph's form in a table (FORMAT.md, "ranking"): 4 zero bytes (a
 * trie starts with its levels, at least 1), the cells, the first unit
 * of each cell's nodes and the units, 4 bytes each, then from
 * GRAPH_AT(cells) on the units, 16 bytes each: a node its total (8
 * bytes), choice and frow (4 each), then its state (8) and 0 (8); an edge
 * its before (8), next and kind (4 each); a unit without an edge zero.
 * When the description is its own mirror image (sl_foldable()), the fold
 * rows follow: their number and their paths' (4 each) and 0 (8), then
 * the rows and the one past them (16 bytes each: count 8, node and first
 * 4 each), the paths (24 each: off and before 8 each, end and same 4
 * each) and their guides (4 each, as fguide): the structs' own layout.
 * Little-endian. */

#define GRAPH_AT(n) (((size_t)12 + 4 * (n) + 15) / 16 * 16)
#define FOLD_BYTES(rows, paths) \
    (16 + 16 * ((size_t)(rows) + 1) + 32 * (size_t)(paths))

#define MIRRORED 0x100u          /* in aux: the drawing is the mirror
                                    image of the state */
/* In a move's code (successors(): its anchors before and after in bits
 * 0-15), with the mirror image folded: the successor's state stands for
 * its mirror image, or the successor is its own (slide_apply()). */
#define CODE_TURNS 0x10000u
#define CODE_OWN 0x20000u

/* ==== moves ============================================================= */

enum { UP, DOWN, LEFT, RIGHT };
static const char dir_letter[] = "UDLR";

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

/* ---- across the engine's files ------------------------------------- */

int sl_reach_states(const sl_ctx *x, layers *ly);
int sl_link_nodes(sl_ctx *x, layers *ly);
int sl_save_graph(sl_ctx *x);
int sl_node_check(const sl_ctx *x, uint32_t v, unsigned c);
unsigned sl_parity_of(const sl_ctx *x, const layout *l);
int sl_make_table(sl_ctx *x, const layout *start,
                  const unsigned char *saved, size_t saved_len);
void sl_layout_of(const sl_desc *d, const unsigned char *cell, layout *l);
int sl_foldable(sl_ctx *x);
unsigned sl_node_cell(const sl_ctx *x, uint32_t v);
int sl_make_fold(sl_ctx *x);
int sl_row_checked(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c);
const fold_path *sl_fold_find(const sl_ctx *x, uint32_t v, unsigned c,
                              uint64_t key, int by_off);
int sl_row_hash(sl_ctx *x);
int sl_row_table(sl_ctx *x);
int sl_row_slots(sl_ctx *x);
uint32_t sl_mirrored(const sl_ctx *x, const layout *l);
uint32_t sl_native(const sl_ctx *x, const ptb_position *p,
                   uint32_t code);
int sl_slots_of(const sl_desc *d, const layout *l, uint8_t *a);
void sl_layout_of_slots(const sl_desc *d, const uint8_t *a, layout *l);
unsigned sl_key_get(sl_key k, unsigned j);
uint64_t sl_trie_rank(const sl_ctx *x, const layout *l);
uint64_t sl_rank(const sl_ctx *x, const layout *l, const prefix *pre,
                 unsigned from, unsigned join, uint32_t *turn);
uint64_t sl_rank_kept(const sl_ctx *x, const layout *l);
void sl_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre);
uint64_t sl_reach_set(const sl_ctx *x, unsigned k, uint64_t occ,
                      unsigned a);
int sl_grow(search *sr);
void sl_make_classes(sl_ctx *x);
int sl_make_component(sl_ctx *x, const layout *start,
                      const unsigned char *saved, size_t saved_len);
int sl_is_goal_layout(const sl_desc *d, const layout *l);
void sl_goal_layouts(goal_walk *gw, unsigned c, uint32_t v, uint64_t r,
                     int same, uint32_t v0, uint64_t r0);
int sl_goal_colour(const sl_desc *d);
const layout *sl_last_layout(const sl_ctx *x, uint64_t idx);
unsigned slide_moves(const void *ctx, uint32_t sub, uint64_t idx,
                     ptb_move *out);
unsigned slide_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                       uint64_t *out);
int slide_first_move(const void *ctx, const ptb_position *p,
                     int (*pick)(void *arg, const ptb_move *m),
                     void (*ahead)(void *arg, const ptb_move *m),
                     void *arg, ptb_move *out);

/* ---- inlined wherever called ---------------------------------------- */

static inline sl_place *place_of(const sl_ctx *x, unsigned k, unsigned a)
{
    return &x->place[k * x->n + a];
}
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
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
/* Makes room in a growing array of n elements of size sz (capacity *cap,
 * doubled as needed) for element n; PTB_EINVAL past most elements. */
static inline int push(void **a, size_t *cap, size_t n, size_t sz, size_t most)
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
/* The units of node v: its header's, and one a choice up to its last. */
static inline uint32_t node_units(const sl_ctx *x, uint32_t v)
{
    return EDGES + 32 - (unsigned)__builtin_clz(x->graph[v].node.choice);
}
/* What was found to hold in a graph read from a table (ok[], fok[]): a
 * bit each, set once (threads may check one twice). */
static inline int held(const uint64_t *bits, uint64_t i)
{
    return __atomic_load_n(&bits[i / 64], __ATOMIC_ACQUIRE) >> i % 64 & 1;
}
static inline void hold(uint64_t *bits, uint64_t i)
{
    __atomic_fetch_or(&bits[i / 64], (uint64_t)1 << i % 64, __ATOMIC_RELEASE);
}
/* Something read from a table did not hold: every answer from the space
 * is void (slide_status()).  Returns 0. */
static inline int damage(const sl_ctx *x)
{
    __atomic_store_n(&((sl_ctx *)(uintptr_t)x)->damaged, 1,
                     __ATOMIC_RELAXED);
    return 0;
}
static inline int node_checked(const sl_ctx *x, uint32_t v, unsigned c)
{
    return (v < x->nunits && held(x->ok, v)) || sl_node_check(x, v, c);
}
/* sl_row_checked() with its answer for a row found to hold at once. */
static inline int row_checked(const sl_ctx *x, uint32_t f, uint32_t v,
                              unsigned c)
{
    return (f - 1u < x->nfrow &&
            (!x->lazy || (x->frow[f - 1].node == v && held(x->fok, f - 1)))) ||
           sl_row_checked(x, f, v, c);
}
/* l emptied: its fields up to kinds[], and the description's kinds'. */
static inline void clear_layout(const sl_desc *d, layout *l)
{
    memset(l, 0, offsetof(layout, kinds) + d->nkinds * sizeof *l->kinds);
}
/* A piece of kind k put at anchor a of l, its kinds[] left as they are
 * (a successor's: successors()); put_piece() keeps them. */
static inline void place_piece(const sl_desc *d, layout *l, unsigned k,
                               unsigned a)
{
    l->at[a] = (uint8_t)(k + 1);
    l->occ |= d->kind[k].shape << a;
}
static inline void put_piece(const sl_desc *d, layout *l, unsigned k,
                             unsigned a)
{
    place_piece(d, l, k, a);
    l->kinds[k] |= (uint64_t)1 << a;
}
/* Undoes put_piece(). */
static inline void take_piece(const sl_desc *d, layout *l, unsigned k,
                              unsigned a)
{
    l->at[a] = 0;
    l->occ &= ~(d->kind[k].shape << a);
    l->kinds[k] &= ~((uint64_t)1 << a);
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
/* A fold row's guide to its n paths by off (by_off) or before: for each
 * of n equal parts of the range of the keys (guide_range()), the last path
 * whose key is at most the part's least, or the first. */
static inline uint32_t row_n(const fold_row *fr)   /* (its paths) */
{
    return fr[1].first - fr->first;
}
static inline uint32_t *guide_of(const sl_ctx *x, const fold_row *fr,
                                 int by_off)
{
    return x->fguide + 2 * (size_t)fr->first + (by_off ? 0 : row_n(fr));
}
static inline uint64_t guide_range(const sl_ctx *x, const fold_row *fr,
                                   int by_off)
{
    return by_off ? x->graph[fr->node].node.total : fr->count;
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
/* The full code of the row at cell c of at[] in the row table. */
static inline uint32_t row_code(const sl_ctx *x, const uint8_t *at,
                                unsigned c)
{
    uint32_t q = 0;
    for (unsigned i = 0; i < x->d->w; i++)
        q += at[c + i] * x->rt_digit[c + i];
    return q;
}
/* Whether the rows are listed (rrow): ROWS_LISTED, or ROWS_HASHED when
 * they are in rslot too (sl_row_hash()); else 0. */
enum { ROWS_LISTED = 1, ROWS_HASHED = 2 };
static inline int hashed(const sl_ctx *x)
{
    return __atomic_load_n(&x->hashed, __ATOMIC_ACQUIRE);
}
/* Whether the row table is in use (sl_row_table()). */
static inline int tabled(const sl_ctx *x)
{
    return __atomic_load_n(&x->tabled, __ATOMIC_ACQUIRE);
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
/* Every move of layout l, in a fixed order: fn(arg, successor, code) with
 * code = from | to << 8 (the moving piece's anchor before and after; the
 * successor's kinds[] are l's, not kept);
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
    layout t;                           /* each successor in turn (its
                                           kinds[] not copied) */
    memcpy(&t, l, offsetof(layout, kinds));
    for (unsigned i = 0; i < l->np; i++) {
        unsigned a = l->anchor[i], k = l->at[a] - 1u;
        uint64_t cells = d->kind[k].shape << a;
        if (!(place_of(x, k, a)->halo & ~l->occ))
            continue;                   /* (hemmed in) */
        unsigned m = 0;
        if (any_order && x->metric == SL_MOVE)
            for (uint64_t r = sl_reach_set(x, k, l->occ & ~cells, a); r;
                 r &= r - 1)
                to[m++] = (uint8_t)ptb_low_bit(r);
        else
            m = reach(x, k, l->occ & ~cells, a, to, from);
        if (!m)
            continue;
        t.at[a] = 0;
        for (unsigned j = 0; j < m; j++) {
            t.occ = l->occ & ~cells;
            place_piece(d, &t, k, to[j]);
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

#endif
