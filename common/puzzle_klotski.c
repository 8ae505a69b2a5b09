/* common/puzzle_klotski.c: Klotski (华容道) on the 4x5 board.
 *
 * A layout is one 2x2 block plus any mix of 1x2 (horizontal), 2x1 (vertical)
 * and 1x1 pieces with at least two empty cells: 29,334,498 layouts.  Pieces
 * of one shape are interchangeable in the table.  The goal is the 2x2 block
 * with its top-left corner on cell 13 (rows 4-5, columns 2-3, 1-based).
 *
 * Index: a layout's index is its rank in ascending CommonCode order, which is
 * also the community's ShortCode number.  A CommonCode is 36 bits: the 2x2
 * block's top-left cell (4 bits), then 2 bits per remaining unit (a piece or
 * an empty cell) in row-major order of the units' top-left cells, most
 * significant first, zero-padded: 00 empty, 01 1x2, 10 2x1, 11 1x1.
 *
 * Ranking works row by row.  A row is coded in 8 bits (2 bits per cell: the
 * type of the unit whose top-left cell it is, 0 for empty or covered cells),
 * and what a row may hold depends only on the cells covered from above and
 * on how many empty cells came before (capped at 2).  open() counts the
 * completions of every (2x2 place, row, state) and tabulates, for each row
 * code (squeezed to its uncovered cells), how many layouts sort before it
 * with the same rows above; a rank is the sum of five independent reads of
 * that 190 KB table, and a move's successor redoes only the rows it touches.
 * Unranking finds rows 1-3 in per-state lists (a 64-bucket guide, then a
 * short scan) and reads rows 4-5 from a list of all their completions.
 *
 * Metrics: "step" moves a piece one cell; "line" any distance in a straight
 * line; "move" to any place it reaches over free cells, turns included.  A
 * move's code is its piece's top-left cell before (bits 0-4) and after (bits
 * 5-9) the move.
 *
 * Queries: the A-K notation of the seed (A the 2x2 block, B-F two-cell
 * pieces, G-J 1x1 pieces, K empty), used when the grid has no '.'; a
 * general grid ('.' empty, one letter or digit per piece); a ShortCode
 * (exactly 5 characters, any case) or a CommonCode (1-4 or 6-9 hex digits,
 * trailing zeros optional).  In batch input a line of one 4-character word
 * starts a grid.  The native view keeps the input's letters and empty mark;
 * a code's pieces are named A, B-F, G-J (K empty) when they fit, else A and
 * B, C, ... in row-major order ('.' empty).
 *
 * May touch: its arguments and its context only.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"

enum {
    KL_COLS = 4,
    KL_ROWS = 5,
    KL_CELLS = 20,
    KL_HEADS = 12,        /* places the 2x2 block fits */
    KL_STATES = 48,       /* row states: covered mask (16) x empties (3) */
    KL_CODES = 256,       /* row codes */
    KL_GOAL_HEAD = 13,
    KL_MIN_EMPTY = 2,
    KL_NONE = 0xFFFF,     /* no slot */
    KL_GUIDE = 64         /* guide buckets per unranking list */
};

#define KL_FULL 0xFFFFFu
#define KL_COL0 0x11111u
#define KL_COL3 0x88888u

/* Unit types, as in the CommonCode. */
enum { KL_EMPTY = 0, KL_HORZ = 1, KL_VERT = 2, KL_ONE = 3, KL_BLOCK = 4 };

/* Cells covered by a piece of each type with its top-left on cell 0. */
static const uint32_t kl_shape[5] = { 0x1, 0x3, 0x11, 0x1, 0x33 };

static const signed char kl_head_id[KL_CELLS] = {
    0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, -1, -1, -1, -1
};
static const unsigned char kl_head_cell[KL_HEADS] = {
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14
};

static const char *const kl_metrics[] = { "step", "line", "move", NULL };
enum { KL_STEP = 0, KL_LINE = 1, KL_MOVE = 2 };

static const char kl_b32[] = "123456789ABCDEFGHJKMNPQRSTUVWXYZ";

/* A layout.  t and the masks say the same thing two ways: t for ranking,
 * the masks for moving. */
typedef struct kl_layout {
    uint64_t t;         /* cell i's unit type at bits 2i..2i+1 (0: none) */
    uint32_t e;         /* empty cells */
    uint32_t h, v, s;   /* top-left cells of the 1x2, 2x1 and 1x1 pieces */
    unsigned head;      /* top-left cell of the 2x2 block */
} kl_layout;

/* One entry of an unranking list: a row code that has completions. */
typedef struct kl_entry {
    uint32_t before;    /* layouts sorting before it (same rows above) */
    uint8_t code;       /* the row code */
    uint8_t next;       /* the state of the next row */
} kl_entry;

/* Where to start looking in an unranking list: bucket b holds the entry
 * that contains the rank b << shift. */
typedef struct kl_guide {
    uint8_t shift;
    uint8_t at[KL_GUIDE];
} kl_guide;

/* The row tables are kept for the (2x2 place, row, state) triples some
 * layout reaches, each a "slot". */
typedef struct kl_ctx {
    unsigned metric;
    uint32_t first[KL_HEADS + 1];              /* first index per 2x2 place */
    uint8_t cover[KL_HEADS][KL_ROWS + 1];      /* 2x2 cells in each row */
    uint16_t rowmask[KL_CODES];                /* h | v << 4 | s << 8 */
    uint16_t slot[KL_HEADS][KL_ROWS][KL_STATES];
    unsigned slots;
    uint8_t squeeze[16][KL_CODES];  /* row code without covered cells */
    /* row code after covered cells: KL_BAD, or the cells its 2x1 pieces
     * cover in the next row | empty cells << 4 */
    uint8_t rowstep[16][KL_CODES];
    uint32_t add_at[KL_HEADS][KL_ROWS][KL_STATES];  /* a slot's rank parts */
    uint32_t *add;               /* rank part per slot and squeezed code */
    uint32_t *list_at;           /* per slot + 1: its unranking list */
    kl_guide *guide;             /* per slot */
    kl_entry *list;
    uint32_t *tail_at;           /* per slot of row 4: its completions */
    uint16_t *tail;              /* rows 4 and 5 codes, in order */
} kl_ctx;

/* ==== bits ============================================================ */

static unsigned kl_low_bit(uint32_t m)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(m);
#else
    unsigned i = 0;
    while (!(m >> i & 1))
        i++;
    return i;
#endif
}

/* The number of bits of m, or 2 if more. */
static unsigned kl_popcount2(uint32_t m)
{
    return (m != 0) + ((m & (m - 1)) != 0);
}

/* The 2x2 block's cells. */
static uint32_t kl_block_cells(unsigned head)
{
    return 0x33u << head;
}

/* Placements (top-left cells) of a piece of type ty that fit in free. */
static uint32_t kl_fit(unsigned ty, uint32_t free)
{
    switch (ty) {
    case KL_HORZ:  return free & free >> 1 & ~KL_COL3;
    case KL_VERT:  return free & free >> 4;
    case KL_BLOCK: return free & free >> 1 & free >> 4 & free >> 5 & ~KL_COL3;
    default:       return free;
    }
}

/* Placements one cell away from those in x, in any direction. */
static uint32_t kl_neighbours(uint32_t x)
{
    return (x >> 4) | ((x << 4) & KL_FULL) | ((x >> 1) & ~KL_COL3)
        | ((x << 1) & ~KL_COL0 & KL_FULL);
}

/* Placements one cell away in direction d (0 up, 1 down, 2 left, 3 right). */
static uint32_t kl_shift(uint32_t x, unsigned d)
{
    switch (d) {
    case 0:  return x >> 4;
    case 1:  return (x << 4) & KL_FULL;
    case 2:  return (x >> 1) & ~KL_COL3;
    default: return (x << 1) & ~KL_COL0 & KL_FULL;
    }
}

/* Destinations of a piece on cell p whose fitting placements are fit. */
static uint32_t kl_reach(unsigned metric, uint32_t fit, unsigned p)
{
    uint32_t from = 1u << p, to = 0;
    if (metric == KL_STEP)
        return kl_neighbours(from) & fit;
    if (metric == KL_LINE) {
        for (unsigned d = 0; d < 4; d++)
            for (uint32_t y = kl_shift(from, d) & fit; y;
                 y = kl_shift(y, d) & fit)
                to |= y;
        return to;
    }
    for (uint32_t r = from; r != to;) {
        to = r;
        r = (r | kl_neighbours(r)) & fit;
    }
    return to & ~from;
}

/* ==== row tables ====================================================== */

static unsigned kl_state(unsigned covered, unsigned empties)
{
    return covered * 3 + (empties < 2 ? empties : 2);
}

#define KL_BAD 0xFFu

/* What row code does after the cells 'covered' from above, whatever the row:
 * KL_BAD, or its 2x1 pieces' cells in the next row | its empties << 4. */
static unsigned kl_row_effect(unsigned covered, unsigned code)
{
    unsigned below = 0, empties = 0;
    for (unsigned k = 0; k < KL_COLS; k++) {
        unsigned ty = code >> 2 * k & 3;
        if (covered >> k & 1) {
            if (ty)
                return KL_BAD;
            continue;
        }
        if (ty == KL_EMPTY)
            empties++;
        else if (ty == KL_HORZ) {
            if (k == KL_COLS - 1 || covered >> (k + 1) & 1)
                return KL_BAD;
            covered |= 1u << (k + 1);
        } else if (ty == KL_VERT) {
            below |= 1u << k;
        }
    }
    return below | empties << 4;
}

static void kl_build_rowstep(kl_ctx *x)
{
    for (unsigned covered = 0; covered < 16; covered++)
        for (unsigned code = 0; code < KL_CODES; code++)
            x->rowstep[covered][code] =
                (uint8_t)kl_row_effect(covered, code);
}

/* Row r with code holds a valid row after state st?  Sets the next state. */
static int kl_row_step(const kl_ctx *x, unsigned hid, unsigned r,
                       unsigned st, unsigned code, unsigned *next)
{
    unsigned e = x->rowstep[st / 3][code];
    unsigned vert = e & 15, below = x->cover[hid][r + 1];
    if (e == KL_BAD || (vert && (r == KL_ROWS - 1 || (below & vert))))
        return 0;
    *next = kl_state(below | vert, st % 3 + (e >> 4));
    return 1;
}

/* Row code order: cell 0 is the most significant, so reverse the pairs. */
static unsigned kl_lex_code(unsigned key)
{
    return (key >> 6 & 3) | (key >> 2 & 0xC) | (key << 2 & 0x30)
        | (key << 6 & 0xC0);
}

/* n[hid][r][st]: the ways to fill rows r.. after state st. */
typedef struct kl_counts {
    uint32_t n[KL_HEADS][KL_ROWS + 1][KL_STATES];
} kl_counts;

static void kl_count(const kl_ctx *x, kl_counts *c)
{
    uint32_t (*count)[KL_ROWS + 1][KL_STATES] = c->n;
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        for (unsigned st = 0; st < KL_STATES; st++)
            count[hid][KL_ROWS][st] = st == kl_state(0, KL_MIN_EMPTY);
        for (unsigned r = KL_ROWS; r-- > 0;)
            for (unsigned st = 0; st < KL_STATES; st++) {
                uint32_t sum = 0;
                for (unsigned code = 0, next; code < KL_CODES; code++)
                    if (kl_row_step(x, hid, r, st, code, &next))
                        sum += count[hid][r + 1][next];
                count[hid][r][st] = sum;
            }
    }
}

/* Numbers the states that some layout reaches, row by row; returns how
 * many.  Other states get KL_NONE and are never read. */
static unsigned kl_number_slots(kl_ctx *x, const kl_counts *c)
{
    const uint32_t (*count)[KL_ROWS + 1][KL_STATES] = c->n;
    unsigned n = 0;
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        uint8_t reached[KL_ROWS][KL_STATES] = { { 0 } };
        reached[0][kl_state(x->cover[hid][0], 0)] = 1;
        for (unsigned r = 0; r < KL_ROWS; r++)
            for (unsigned st = 0; st < KL_STATES; st++) {
                x->slot[hid][r][st] = KL_NONE;
                if (!reached[r][st] || !count[hid][r][st])
                    continue;
                x->slot[hid][r][st] = (uint16_t)n++;
                for (unsigned code = 0, next; code < KL_CODES; code++)
                    if (r + 1 < KL_ROWS
                        && kl_row_step(x, hid, r, st, code, &next)
                        && count[hid][r + 1][next])
                        reached[r + 1][next] = 1;
            }
    }
    return n;
}

/* Does a row code put anything on a covered cell?  (Then it is no row,
 * and it must not overwrite the rank part of the row it squeezes to.) */
static int kl_fills_covered(unsigned covered, unsigned code)
{
    for (unsigned k = 0; k < KL_COLS; k++)
        if (covered >> k & 1 && code >> 2 * k & 3)
            return 1;
    return 0;
}

/* Guides the search of a list of n entries that spans count ranks. */
static void kl_fill_guide(const kl_entry *e, uint32_t n, uint32_t count,
                          kl_guide *g)
{
    unsigned shift = 0, j = 0;
    while (count > (uint32_t)KL_GUIDE << shift)
        shift++;
    g->shift = (uint8_t)shift;
    for (uint32_t b = 0; b < KL_GUIDE; b++) {
        while (j + 1 < n && e[j + 1].before <= b << shift)
            j++;
        g->at[b] = (uint8_t)j;
    }
}

/* Fills the rank parts and the unranking list of one slot. */
static void kl_fill_slot(kl_ctx *x, const kl_counts *c, unsigned hid,
                         unsigned r, unsigned st, uint32_t *n)
{
    const uint32_t (*count)[KL_ROWS + 1][KL_STATES] = c->n;
    unsigned slot = x->slot[hid][r][st];
    uint32_t sum = 0;
    x->list_at[slot] = *n;
    for (unsigned key = 0; key < KL_CODES; key++) {
        unsigned code = kl_lex_code(key), next;
        if (kl_fills_covered(st / 3, code))
            continue;
        x->add[x->add_at[hid][r][st] + x->squeeze[st / 3][code]] = sum;
        if (!kl_row_step(x, hid, r, st, code, &next)
            || !count[hid][r + 1][next])
            continue;
        x->list[*n].before = sum;
        x->list[*n].code = (uint8_t)code;
        x->list[*n].next = (uint8_t)next;
        ++*n;
        sum += count[hid][r + 1][next];
    }
    x->list_at[slot + 1] = *n;
    kl_fill_guide(x->list + x->list_at[slot], *n - x->list_at[slot], sum,
                  &x->guide[slot]);
}

/* Lists every completion of the last two rows after one state of row 4,
 * in order, so unranking reads them directly. */
static void kl_fill_tail(kl_ctx *x, unsigned hid, unsigned st, uint32_t *n)
{
    unsigned slot = x->slot[hid][KL_ROWS - 2][st];
    x->tail_at[slot] = *n;
    for (uint32_t i = x->list_at[slot]; i < x->list_at[slot + 1]; i++) {
        unsigned last = x->slot[hid][KL_ROWS - 1][x->list[i].next];
        for (uint32_t k = x->list_at[last]; k < x->list_at[last + 1]; k++)
            x->tail[(*n)++] = (uint16_t)(x->list[i].code
                                         | x->list[k].code << 8);
    }
}

/* Builds every table; PTB_OK or PTB_ENOMEM. */
static int kl_build_tables(kl_ctx *x)
{
    kl_counts count;
    uint32_t tails = 0, adds = 0, n = 0;
    kl_count(x, &count);
    x->slots = kl_number_slots(x, &count);
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        x->first[hid + 1] = x->first[hid]
            + count.n[hid][0][kl_state(x->cover[hid][0], 0)];
        for (unsigned st = 0; st < KL_STATES; st++)
            if (x->slot[hid][KL_ROWS - 2][st] != KL_NONE)
                tails += count.n[hid][KL_ROWS - 2][st];
        for (unsigned r = 0; r < KL_ROWS; r++)
            for (unsigned st = 0; st < KL_STATES; st++) {
                x->add_at[hid][r][st] = adds;
                if (x->slot[hid][r][st] != KL_NONE)
                    adds += 1u << 2 * (KL_COLS - ptb_popcount(st / 3));
            }
    }
    x->add = malloc(sizeof *x->add * adds);
    x->list_at = malloc(sizeof *x->list_at * (x->slots + 1));
    x->list = malloc(sizeof *x->list * x->slots * KL_CODES);
    x->tail_at = calloc(x->slots, sizeof *x->tail_at);
    x->guide = malloc(sizeof *x->guide * x->slots);
    x->tail = malloc(sizeof *x->tail * tails);
    if (!x->add || !x->list_at || !x->list || !x->tail_at || !x->tail
        || !x->guide)
        return PTB_ENOMEM;
    for (unsigned hid = 0; hid < KL_HEADS; hid++)
        for (unsigned r = 0; r < KL_ROWS; r++)
            for (unsigned st = 0; st < KL_STATES; st++)
                if (x->slot[hid][r][st] != KL_NONE)
                    kl_fill_slot(x, &count, hid, r, st, &n);
    n = 0;
    for (unsigned hid = 0; hid < KL_HEADS; hid++)
        for (unsigned st = 0; st < KL_STATES; st++)
            if (x->slot[hid][KL_ROWS - 2][st] != KL_NONE)
                kl_fill_tail(x, hid, st, &n);
    return PTB_OK;
}

static void kl_build_masks(kl_ctx *x)
{
    for (unsigned hid = 0; hid < KL_HEADS; hid++) {
        unsigned head = kl_head_cell[hid];
        for (unsigned r = 0; r <= KL_ROWS; r++)
            x->cover[hid][r] = (uint8_t)(r == head / 4 || r == head / 4 + 1
                                         ? 3u << head % 4 : 0);
    }
    for (unsigned code = 0; code < KL_CODES; code++) {
        unsigned m = 0;
        for (unsigned k = 0; k < KL_COLS; k++) {
            unsigned ty = code >> 2 * k & 3;
            if (ty)
                m |= 1u << (k + 4 * (ty - 1));
        }
        x->rowmask[code] = (uint16_t)m;
        for (unsigned covered = 0; covered < 16; covered++) {
            unsigned q = 0, k = KL_COLS;
            while (k-- > 0)
                if (!(covered >> k & 1))
                    q = q << 2 | (code >> 2 * k & 3);
            x->squeeze[covered][code] = (uint8_t)q;
        }
    }
}

/* ==== rank and unrank ================================================= */

/* The part of l's rank that row r adds. */
static inline uint32_t kl_row_part(const kl_ctx *x, const kl_layout *l,
                            unsigned hid, unsigned r)
{
    unsigned covered = x->cover[hid][r];
    unsigned empties = kl_popcount2(l->e & ((1u << 4 * r) - 1));
    if (r)
        covered |= l->v >> 4 * (r - 1) & 15;
    return x->add[x->add_at[hid][r][kl_state(covered, empties)]
                  + x->squeeze[covered][l->t >> 8 * r & 255]];
}

static inline uint32_t kl_rank(const kl_ctx *x, const kl_layout *l)
{
    unsigned hid = (unsigned)kl_head_id[l->head];
    return x->first[hid] + kl_row_part(x, l, hid, 0)
        + kl_row_part(x, l, hid, 1) + kl_row_part(x, l, hid, 2)
        + kl_row_part(x, l, hid, 3) + kl_row_part(x, l, hid, 4);
}

/* Completes a layout from t and head. */
static void kl_from_rows(const kl_ctx *x, uint64_t t, unsigned head,
                         kl_layout *l)
{
    uint32_t h = 0, v = 0, s = 0;
    for (unsigned r = 0; r < KL_ROWS; r++) {
        unsigned m = x->rowmask[t >> 8 * r & 255];
        h |= (uint32_t)(m & 15) << 4 * r;
        v |= (uint32_t)(m >> 4 & 15) << 4 * r;
        s |= (uint32_t)(m >> 8 & 15) << 4 * r;
    }
    l->t = t;
    l->h = h;
    l->v = v;
    l->s = s;
    l->head = head;
    l->e = KL_FULL & ~(h | h << 1 | v | v << 4 | s | kl_block_cells(head));
}

/* Rows 1-3 by a guided search of each row's list, rows 4-5 by one read. */
static void kl_unrank(const kl_ctx *x, uint32_t idx, kl_layout *l)
{
    unsigned hid = 0;
    for (unsigned k = 1; k < KL_HEADS; k++)
        hid += idx >= x->first[k];
    idx -= x->first[hid];
    unsigned st = kl_state(x->cover[hid][0], 0);
    uint64_t t = 0;
    for (unsigned r = 0; r < KL_ROWS - 2; r++) {
        unsigned slot = x->slot[hid][r][st];
        const kl_guide *g = &x->guide[slot];
        const kl_entry *e = x->list + x->list_at[slot];
        const kl_entry *end = x->list + x->list_at[slot + 1] - 1;
        e += g->at[idx >> g->shift];
        while (e < end && e[1].before <= idx)
            e++;
        idx -= e->before;
        t |= (uint64_t)e->code << 8 * r;
        st = e->next;
    }
    unsigned slot = x->slot[hid][KL_ROWS - 2][st];
    t |= (uint64_t)x->tail[x->tail_at[slot] + idx] << 8 * (KL_ROWS - 2);
    kl_from_rows(x, t, kl_head_cell[hid], l);
}

/* ==== CommonCode ====================================================== */

static uint64_t kl_common_code(const kl_layout *l)
{
    uint32_t covered = kl_block_cells(l->head) | l->h << 1 | l->v << 4;
    uint32_t body = 0;
    unsigned shift = 32;
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (covered >> i & 1)
            continue;
        shift -= 2;
        body |= (uint32_t)(l->t >> 2 * i & 3) << shift;
    }
    return (uint64_t)l->head << 32 | body;
}

/* Decodes a CommonCode; NULL, or why it is not a layout. */
static const char *kl_decode(const kl_ctx *x, uint64_t code, kl_layout *l)
{
    unsigned head = (unsigned)(code >> 32);
    uint32_t body = (uint32_t)code;
    if (head >= KL_CELLS || kl_head_id[head] < 0)
        return "the 2x2 block does not fit at that cell";
    uint32_t used = kl_block_cells(head);
    uint64_t t = 0;
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (used >> i & 1)
            continue;
        unsigned ty = body >> 30;
        body <<= 2;
        uint32_t cells = kl_shape[ty] << i;
        if ((ty == KL_HORZ && i % 4 == 3) || cells > KL_FULL
            || (used & cells))
            return "a piece does not fit on the board";
        used |= cells;
        t |= (uint64_t)ty << 2 * i;
    }
    if (body)
        return "it has more pieces than the board holds";
    kl_from_rows(x, t, head, l);
    if (ptb_popcount(l->e) < KL_MIN_EMPTY)
        return "it has fewer than 2 empty cells";
    return NULL;
}

/* ==== moves =========================================================== */

/* Type of the piece whose top-left cell is p. */
static unsigned kl_type_at(const kl_layout *l, unsigned p)
{
    return p == l->head ? KL_BLOCK : (unsigned)(l->t >> 2 * p & 3);
}

/* The layout after moving the piece on p (of type ty) to q. */
static void kl_move(const kl_layout *l, unsigned ty, unsigned p, unsigned q,
                    kl_layout *out)
{
    *out = *l;
    out->e = (l->e | kl_shape[ty] << p) & ~(kl_shape[ty] << q);
    uint32_t flip = 1u << p | 1u << q;
    switch (ty) {
    case KL_BLOCK: out->head = q; return;
    case KL_HORZ:  out->h ^= flip; break;
    case KL_VERT:  out->v ^= flip; break;
    default:       out->s ^= flip; break;
    }
    out->t ^= (uint64_t)ty << 2 * p ^ (uint64_t)ty << 2 * q;
}

/* Every move from l, pieces by top-left cell, then destinations by cell.
 * Writes codes and targets to whichever of mv and to is not NULL.  A move
 * changes only the rows it touches, so only their rank parts are redone
 * (all of them when the 2x2 block moves). */
static unsigned kl_moves_of(const kl_ctx *x, const kl_layout *l,
                            ptb_move *mv, uint64_t *to)
{
    unsigned n = 0, hid = (unsigned)kl_head_id[l->head];
    uint32_t part[KL_ROWS], rank = x->first[hid];
    for (unsigned r = 0; r < KL_ROWS; r++)
        rank += part[r] = kl_row_part(x, l, hid, r);
    uint32_t pieces = l->h | l->v | l->s | 1u << l->head;
    for (; pieces; pieces &= pieces - 1) {
        unsigned p = kl_low_bit(pieces), ty = kl_type_at(l, p);
        uint32_t fit = kl_fit(ty, l->e | kl_shape[ty] << p);
        uint32_t dest = kl_reach(x->metric, fit, p);
        for (; dest; dest &= dest - 1) {
            unsigned q = kl_low_bit(dest);
            kl_layout after;
            uint32_t idx = rank;
            kl_move(l, ty, p, q, &after);
            if (ty == KL_BLOCK)
                idx = kl_rank(x, &after);
            else {
                unsigned last = (p > q ? p : q) + (ty == KL_VERT ? 4 : 0);
                for (unsigned r = (p < q ? p : q) / 4; r <= last / 4; r++)
                    idx += kl_row_part(x, &after, hid, r) - part[r];
            }
            if (mv) {
                mv[n].to = idx;
                mv[n].code = p | q << 5;
            }
            if (to)
                to[n] = idx;
            n++;
        }
    }
    return n;
}

/* ==== ops: state space ================================================ */

static void kl_close(void *ctx)
{
    kl_ctx *x = ctx;
    if (!x)
        return;
    free(x->add);
    free(x->list_at);
    free(x->list);
    free(x->tail_at);
    free(x->guide);
    free(x->tail);
    free(x);
}

static int kl_open(unsigned metric, void **ctx)
{
    kl_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->metric = metric;
    kl_build_masks(x);
    kl_build_rowstep(x);
    if (kl_build_tables(x) != PTB_OK) {
        kl_close(x);
        return PTB_ENOMEM;
    }
    *ctx = x;
    return PTB_OK;
}

static uint32_t kl_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

static uint64_t kl_size(const void *ctx, uint32_t sub)
{
    const kl_ctx *x = ctx;
    return sub == 0 ? x->first[KL_HEADS] : 0;
}

static void kl_goals(const void *ctx, uint32_t sub,
                     void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const kl_ctx *x = ctx;
    unsigned hid = (unsigned)kl_head_id[KL_GOAL_HEAD];
    if (sub != 0)
        return;
    for (uint64_t i = x->first[hid]; i < x->first[hid + 1]; i++)
        emit(arg, i);
}

static int kl_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const kl_ctx *x = ctx;
    unsigned hid = (unsigned)kl_head_id[KL_GOAL_HEAD];
    return sub == 0 && idx >= x->first[hid] && idx < x->first[hid + 1];
}

static unsigned kl_moves(const void *ctx, uint32_t sub, uint64_t idx,
                         ptb_move *out)
{
    const kl_ctx *x = ctx;
    kl_layout l;
    if (sub != 0 || idx >= x->first[KL_HEADS])
        return 0;
    kl_unrank(x, (uint32_t)idx, &l);
    return kl_moves_of(x, &l, out, NULL);
}

static unsigned kl_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                           uint64_t *out)
{
    const kl_ctx *x = ctx;
    kl_layout l;
    if (sub != 0 || idx >= x->first[KL_HEADS])
        return 0;
    kl_unrank(x, (uint32_t)idx, &l);
    return kl_moves_of(x, &l, NULL, out);
}

/* ==== native view ===================================================== */

/* The native view: cell[0..19] holds each cell's letter, or the empty mark,
 * which aux also holds ('K' in the A-K notation, '.' in general grids). */

static char kl_empty_mark(const ptb_position *p)
{
    return p->aux ? (char)p->aux : 'K';
}

/* The cells showing the same letter as cell c. */
static uint32_t kl_letter_cells(const ptb_position *p, unsigned c)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (p->cell[i] == p->cell[c])
            m |= 1u << i;
    return m;
}

static uint32_t kl_empty_cells(const ptb_position *p)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (p->cell[i] == (unsigned char)kl_empty_mark(p))
            m |= 1u << i;
    return m;
}

/* Type of a solid piece covering mask m (top-left cell p), or KL_EMPTY. */
static unsigned kl_piece_type(uint32_t m, unsigned p)
{
    for (unsigned ty = KL_HORZ; ty <= KL_BLOCK; ty++)
        if (m == kl_shape[ty] << p && kl_fit(ty, m) == 1u << p)
            return ty;
    return KL_EMPTY;
}

/* Names the pieces of a layout: A, B-F, G-J and K when they are enough,
 * else A for the 2x2 block and B, C, ... in row-major order, '.' empty. */
static void kl_name_pieces(const kl_layout *l, ptb_position *pos)
{
    unsigned two = ptb_popcount(l->h | l->v), ones = ptb_popcount(l->s);
    int seed = two <= 5 && ones <= 4;
    char next_two = 'B', next_one = seed ? 'G' : 'B';
    pos->aux = seed ? 'K' : '.';
    memset(pos->cell, 0, sizeof pos->cell);
    memset(pos->cell, (int)pos->aux, KL_CELLS);
    uint32_t pieces = l->h | l->v | l->s | 1u << l->head;
    for (; pieces; pieces &= pieces - 1) {
        unsigned p = kl_low_bit(pieces), ty = kl_type_at(l, p);
        char c;
        if (ty == KL_BLOCK)
            c = 'A';
        else if (seed && ty != KL_ONE)
            c = next_two++;
        else
            c = next_one++;
        for (unsigned i = 0; i < KL_CELLS; i++)
            if ((kl_shape[ty] << p) >> i & 1)
                pos->cell[i] = (unsigned char)c;
    }
}

static void kl_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    unsigned from = m->code & 31, to = m->code >> 5 & 31;
    unsigned char letter = p->cell[from];
    uint32_t cells = kl_letter_cells(p, from);
    (void)ctx;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (cells >> i & 1)
            p->cell[i] = (unsigned char)kl_empty_mark(p);
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (cells >> i & 1)
            p->cell[i - from + to] = letter;
    p->idx = m->to;
}

static int kl_format_board(const void *ctx, const ptb_position *p, char *buf,
                           size_t cap)
{
    size_t len = 0;
    (void)ctx;
    for (unsigned r = 0; r < KL_ROWS; r++)
        ptb_catf(buf, cap, &len, "%s%.4s", r ? "\n" : "",
                 (const char *)p->cell + 4 * r);
    return (int)len;
}

/* A shortest path of cell steps (U, D, L, R) from placement a to b within
 * the placements fit; writes the letters and a NUL, returns the length. */
static unsigned kl_path(uint32_t fit, unsigned a, unsigned b, char *out)
{
    static const char dir[4] = { 'U', 'D', 'L', 'R' };
    signed char via[KL_CELLS];
    unsigned queue[KL_CELLS], head = 0, tail = 0, n = 0;
    memset(via, -1, sizeof via);
    via[a] = 4;
    queue[tail++] = a;
    while (head < tail && via[b] < 0) {
        unsigned c = queue[head++];
        for (unsigned d = 0; d < 4; d++) {
            uint32_t y = kl_shift(1u << c, d) & fit;
            if (y && via[kl_low_bit(y)] < 0) {
                via[kl_low_bit(y)] = (signed char)d;
                queue[tail++] = kl_low_bit(y);
            }
        }
    }
    char rev[KL_CELLS];
    for (unsigned c = b; c != a && via[c] >= 0 && via[c] < 4;) {
        unsigned d = (unsigned)via[c];
        rev[n++] = dir[d];
        c = d == 0 ? c + 4 : d == 1 ? c - 4 : d == 2 ? c + 1 : c - 1;
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    out[n] = '\0';
    return n;
}

static int kl_format_move(const void *ctx, const ptb_position *before,
                          const ptb_move *m, char *buf, size_t cap)
{
    unsigned from = m->code & 31, to = m->code >> 5 & 31;
    uint32_t cells = kl_letter_cells(before, from);
    unsigned ty = kl_piece_type(cells, from);
    uint32_t fit = kl_fit(ty ? ty : KL_ONE, kl_empty_cells(before) | cells);
    char dirs[KL_CELLS + 1];
    size_t len = 0;
    (void)ctx;
    kl_path(fit, from, to, dirs);
    ptb_catf(buf, cap, &len, "%c %s", before->cell[from], dirs);
    return (int)len;
}

static int kl_format_answer(const void *ctx, const ptb_solution *s, char *buf,
                            size_t cap)
{
    size_t len = 0;
    char mv[64], board[64];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        kl_format_move(ctx, before, &s->move[i], mv, sizeof mv);
        kl_format_board(ctx, &s->after[i], board, sizeof board);
        ptb_catf(buf, cap, &len, "%u %s\n%s\n\n", i + 1, mv, board);
    }
    return (int)len;
}

static int kl_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                          char *buf, size_t cap)
{
    const kl_ctx *x = ctx;
    kl_layout l;
    size_t len = 0;
    if (sub != 0 || idx >= x->first[KL_HEADS])
        return -1;
    kl_unrank(x, (uint32_t)idx, &l);
    ptb_catf(buf, cap, &len, "%09llX",
             (unsigned long long)kl_common_code(&l));
    return (int)len;
}

/* ==== JSON ============================================================ */

/* The layout shown by the native view (the user's own board). */
static void kl_layout_of_view(const kl_ctx *x, const ptb_position *p,
                              kl_layout *l)
{
    uint64_t t = 0;
    unsigned head = 0;
    uint32_t seen = kl_empty_cells(p);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        unsigned ty = kl_piece_type(m, i);
        seen |= m;
        if (ty == KL_BLOCK)
            head = i;
        else
            t |= (uint64_t)(ty & 3) << 2 * i;
    }
    kl_from_rows(x, t, head, l);
}

/* "common_code" and "short_code" of the user's layout, and "code": the
 * board on one line, rows split by blanks, which parse() reads back with
 * the same letters. */
static int kl_format_query_json(const void *ctx, const ptb_position *p,
                                char *buf, size_t cap)
{
    const kl_ctx *x = ctx;
    kl_layout l;
    char shortcode[6];
    size_t len = 0;
    kl_layout_of_view(x, p, &l);
    uint32_t rank = kl_rank(x, &l);
    for (int i = 4; i >= 0; i--, rank /= 32)
        shortcode[i] = kl_b32[rank % 32];
    shortcode[5] = '\0';
    ptb_catf(buf, cap, &len, "\"common_code\":\"%09llX\",\"short_code\":"
             "\"%s\",\"code\":\"", (unsigned long long)kl_common_code(&l),
             shortcode);
    for (unsigned r = 0; r < KL_ROWS; r++)
        ptb_catf(buf, cap, &len, "%s%.4s", r ? " " : "",
                 (const char *)p->cell + 4 * r);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

/* "piece", "from" and "to" (the piece's top-left cell), "path" (one
 * direction per cell stepped), and "direction" when the path is straight. */
static int kl_format_move_json(const void *ctx, const ptb_position *before,
                               const ptb_move *m, char *buf, size_t cap)
{
    static const char *const name[] = { "up", "down", "left", "right" };
    unsigned from = m->code & 31, to = m->code >> 5 & 31;
    char text[64];
    size_t len = 0, k = 0;
    kl_format_move(ctx, before, m, text, sizeof text);
    const char *dirs = text + 2;
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"path\":[", text[0], from / 4 + 1, from % 4 + 1,
             to / 4 + 1, to % 4 + 1);
    for (; dirs[k]; k++)
        ptb_catf(buf, cap, &len, "%s\"%s\"", k ? "," : "",
                 name[strchr("UDLR", dirs[k]) - "UDLR"]);
    ptb_catf(buf, cap, &len, "]");
    if (k && strspn(dirs, (char[2]){ dirs[0], 0 }) == k)
        ptb_catf(buf, cap, &len, ",\"direction\":\"%s\"",
                 name[strchr("UDLR", dirs[0]) - "UDLR"]);
    ptb_catf(buf, cap, &len, "}");
    return (int)len;
}

/* ==== parsing ========================================================= */

/* The query's text split into rows; line[] says where each row came from,
 * for messages. */
typedef struct kl_text {
    char row[KL_ROWS][KL_COLS + 1];
    unsigned line[KL_ROWS];
    int one_line;                   /* all rows on one line */
} kl_text;

static int kl_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v'
        || c == '\f';
}

/* "line 3" or, for one-line input, "row 3". */
static const char *kl_where(const kl_text *tx, unsigned r, char *buf,
                            size_t cap)
{
    size_t len = 0;
    if (tx->one_line)
        ptb_catf(buf, cap, &len, "row %u", r + 1);
    else
        ptb_catf(buf, cap, &len, "line %u", tx->line[r]);
    return buf;
}

static int kl_from_line_words(const char *s, size_t n, unsigned lineno,
                              kl_text *tx, char *err, size_t errcap)
{
    unsigned k = 0;
    for (size_t i = 0; i < n; i++) {
        if (kl_is_space(s[i]))
            continue;
        if (k == KL_CELLS)
            return ptb_errf(err, errcap, "line %u: more than 20 cells; "
                            "expected 5 rows of 4", lineno);
        tx->row[k / 4][k % 4] = s[i];
        tx->line[k / 4] = lineno;
        k++;
    }
    if (k != KL_CELLS)
        return ptb_errf(err, errcap, "line %u: %u cells; expected 5 rows of "
                        "4 cells, a CommonCode or a ShortCode", lineno, k);
    tx->one_line = 1;
    return PTB_OK;
}

/* Splits a grid query into rows.  Either exactly 5 non-blank lines of 4
 * cells each, or one line holding all 20 cells (spaces anywhere). */
static int kl_split(const char *text, kl_text *tx, char *err, size_t errcap)
{
    const char *ln[KL_ROWS + 1];
    size_t len[KL_ROWS + 1];
    unsigned lineno[KL_ROWS + 1], lines = 0, at = 1;
    memset(tx, 0, sizeof *tx);
    for (const char *s = text; *s; at++) {
        const char *end = strchr(s, '\n');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        size_t k = 0;
        while (k < n && kl_is_space(s[k]))
            k++;
        if (k < n) {
            if (lines == KL_ROWS)
                return ptb_errf(err, errcap, "line %u: more than 5 rows",
                                at);
            ln[lines] = s;
            len[lines] = n;
            lineno[lines++] = at;
        }
        s += n + (end != NULL);
    }
    if (lines == 0)
        return ptb_errf(err, errcap, "empty query; expected 5 rows of 4 "
                        "cells, a CommonCode or a ShortCode");
    if (lines == 1)
        return kl_from_line_words(ln[0], len[0], lineno[0], tx, err, errcap);
    if (lines != KL_ROWS)
        return ptb_errf(err, errcap, "%u rows; expected 5 rows of 4 cells, "
                        "a CommonCode or a ShortCode", lines);
    for (unsigned r = 0; r < KL_ROWS; r++) {
        unsigned k = 0;
        for (size_t i = 0; i < len[r]; i++) {
            if (kl_is_space(ln[r][i]))
                continue;
            if (k < KL_COLS)
                tx->row[r][k] = ln[r][i];
            k++;
        }
        if (k != KL_COLS)
            return ptb_errf(err, errcap, "line %u: %u cells, expected 4",
                            lineno[r], k);
        tx->line[r] = lineno[r];
    }
    return PTB_OK;
}

static int kl_is_label(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9');
}

/* Checks the letters of the A-K notation: A the 2x2 block, B-F two-cell
 * pieces, G-J 1x1 pieces. */
static int kl_check_seed_letter(char c, unsigned ty, const char *where,
                                char *err, size_t errcap)
{
    const char *want = c == 'A' ? "the 2x2 block"
        : c <= 'F' ? "a 1x2 or 2x1 piece" : "a 1x1 piece";
    int ok = c == 'A' ? ty == KL_BLOCK
        : c <= 'F' ? ty == KL_HORZ || ty == KL_VERT : ty == KL_ONE;
    if (ok)
        return PTB_OK;
    return ptb_errf(err, errcap, "%s: piece '%c' must be %s in the A-K "
                    "notation (A 2x2, B-F 1x2 or 2x1, G-J 1x1, K empty)",
                    where, c, want);
}

/* Reads a grid into a layout and the native view. */
static int kl_parse_grid(const kl_ctx *x, const kl_text *tx, ptb_position *p,
                         char *err, size_t errcap)
{
    char where[32];
    int seed = 1;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (tx->row[i / 4][i % 4] == '.')
            seed = 0;
    memset(p, 0, sizeof *p);
    p->aux = seed ? 'K' : '.';
    for (unsigned i = 0; i < KL_CELLS; i++) {
        char c = tx->row[i / 4][i % 4];
        kl_where(tx, i / 4, where, sizeof where);
        if (seed ? !(c >= 'A' && c <= 'K') : c != '.' && !kl_is_label(c)) {
            if (seed)
                return ptb_errf(err, errcap, "%s: unexpected '%c' (the A-K "
                                "notation uses A-K; a general grid uses "
                                "letters and '.' for empty)", where, c);
            return ptb_errf(err, errcap, "%s: unexpected '%c' (use a letter "
                            "or digit per piece, '.' for empty)", where, c);
        }
        p->cell[i] = (unsigned char)c;
    }
    uint64_t t = 0;
    unsigned head = KL_CELLS, blocks = 0;
    uint32_t seen = kl_empty_cells(p);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        unsigned ty = kl_piece_type(m, i);
        char c = (char)p->cell[i];
        seen |= m;
        kl_where(tx, i / 4, where, sizeof where);
        if (ty == KL_EMPTY)
            return ptb_errf(err, errcap, "%s: piece '%c' is not one solid "
                            "1x1, 1x2, 2x1 or 2x2 rectangle", where, c);
        if (seed && kl_check_seed_letter(c, ty, where, err, errcap))
            return PTB_EPARSE;
        if (ty == KL_BLOCK) {
            if (blocks++)
                return ptb_errf(err, errcap, "%s: a second 2x2 block '%c' "
                                "(a layout has exactly one)", where, c);
            head = i;
        } else
            t |= (uint64_t)ty << 2 * i;
    }
    if (!blocks)
        return ptb_errf(err, errcap, "no 2x2 block (a layout has exactly "
                        "one)");
    unsigned empty = ptb_popcount(kl_empty_cells(p));
    if (empty < KL_MIN_EMPTY)
        return ptb_errf(err, errcap, "%u empty cell%s, at least 2 needed",
                        empty, empty == 1 ? "" : "s");
    kl_layout l;
    kl_from_rows(x, t, head, &l);
    p->idx = kl_rank(x, &l);
    return PTB_OK;
}

static int kl_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int kl_b32_digit(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    const char *at = c ? strchr(kl_b32, c) : NULL;
    return at ? (int)(at - kl_b32) : -1;
}

/* Reads a CommonCode (1-9 hex digits, trailing zeros optional) or a
 * ShortCode (exactly 5 characters) into the native view. */
static int kl_parse_code(const kl_ctx *x, const char *w, size_t n,
                         ptb_position *p, char *err, size_t errcap)
{
    kl_layout l;
    uint64_t v = 0;
    if (n == 5) {
        for (size_t i = 0; i < n; i++) {
            int d = kl_b32_digit(w[i]);
            if (d < 0)
                return ptb_errf(err, errcap, "ShortCode '%.5s': character "
                                "%u '%c' is not one of %s (5-character codes "
                                "are ShortCodes; give a CommonCode with 6-9 "
                                "hex digits)", w, (unsigned)i + 1, w[i],
                                kl_b32);
            v = v * 32 + (unsigned)d;
        }
        if (v >= x->first[KL_HEADS])
            return ptb_errf(err, errcap, "ShortCode '%.5s' is %llu, past "
                            "the last layout %u", w, (unsigned long long)v,
                            x->first[KL_HEADS] - 1);
        kl_unrank(x, (uint32_t)v, &l);
    } else {
        for (size_t i = 0; i < n; i++) {
            int d = kl_hex_digit(w[i]);
            if (d < 0)
                return ptb_errf(err, errcap, "CommonCode '%.*s': character "
                                "%u '%c' is not a hex digit", (int)n, w,
                                (unsigned)i + 1, w[i]);
            v = v * 16 + (unsigned)d;
        }
        for (size_t i = n; i < 9; i++)
            v *= 16;
        const char *why = kl_decode(x, v, &l);
        if (why)
            return ptb_errf(err, errcap, "CommonCode '%.*s' is not a "
                            "layout: %s", (int)n, w, why);
    }
    memset(p, 0, sizeof *p);
    p->idx = kl_rank(x, &l);
    kl_name_pieces(&l, p);
    return PTB_OK;
}

/* A query of one word of at most 9 characters is a code. */
static int kl_code_word(const char *text, const char **w, size_t *n)
{
    while (kl_is_space(*text))
        text++;
    size_t k = 0;
    while (text[k] && !kl_is_space(text[k]))
        k++;
    for (size_t i = k; text[i]; i++)
        if (!kl_is_space(text[i]))
            return 0;
    *w = text;
    *n = k;
    return k >= 1 && k <= 9;
}

static int kl_parse(const void *ctx, const char *text,
                    const char *const *opt, ptb_position out[2],
                    unsigned *n, char *err, size_t errcap)
{
    const kl_ctx *x = ctx;
    const char *w;
    size_t wn;
    kl_text tx;
    int rc;
    (void)opt;
    *n = 0;
    if (kl_code_word(text, &w, &wn))
        rc = kl_parse_code(x, w, wn, &out[0], err, errcap);
    else if ((rc = kl_split(text, &tx, err, errcap)) == PTB_OK)
        rc = kl_parse_grid(x, &tx, &out[0], err, errcap);
    if (rc == PTB_OK)
        *n = 1;
    return rc;
}

/* Batch records: a code or a one-line grid is one line, a grid five.  A
 * line of one 4-character word starts a grid (a CommonCode that short must
 * be padded with zeros to 6 digits in a batch). */
static unsigned kl_record_lines(const void *ctx, const char *first_line)
{
    const char *w;
    size_t n, cells = 0;
    (void)ctx;
    if (kl_code_word(first_line, &w, &n) && n != KL_COLS)
        return 1;
    for (const char *s = first_line; *s; s++)
        cells += !kl_is_space(*s);
    return cells == KL_CELLS ? 1 : KL_ROWS;
}

const ptb_puzzle ptb_puzzle_klotski = {
    .name = "klotski",
    .summary = "Klotski (Huarong Dao) on 4x5: move the 2x2 block to the "
               "bottom middle",
    .metrics = kl_metrics,
    .reversible = 1,
    .open = kl_open,
    .close = kl_close,
    .subtables = kl_subtables,
    .size = kl_size,
    .goals = kl_goals,
    .is_goal = kl_is_goal,
    .moves = kl_moves,
    .unmoves = kl_unmoves,
    .parse = kl_parse,
    .record_lines = kl_record_lines,
    .apply = kl_apply,
    .format_board = kl_format_board,
    .format_move = kl_format_move,
    .format_answer = kl_format_answer,
    .format_code = kl_format_code,
    .format_query_json = kl_format_query_json,
    .format_move_json = kl_format_move_json,
};
