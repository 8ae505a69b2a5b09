/* lib/puzzles/klotski_text.c: Klotski (华容道, "Huarong Dao") on the 4x5
 * board: a description the library keeps, and the notations that are
 * Klotski's own over it.
 *
 * The rules are a description (kl_description below, read by the
 * description engine like any file of puzzles/: doc/guide.md, "Describing
 * a puzzle"): one 2x2 block, the distinct piece A, and any mix of 1x2, 2x1
 * and 1x1 pieces with at least two empty cells, 29,334,498 layouts; the
 * goal is the block with its top-left corner on cell 13 (rows 4-5,
 * columns 2-3, 1-based).  The goal is its own mirror image, so the table
 * has a state for a layout and its mirror image, 14,673,066 (11,634 layouts
 * are their own); the start is 横刀立马, 116 moves in the step metric, 90 in
 * line, 81 in move.  Every table hook (open, size, goals, moves, unmoves,
 * the ranking a table stores, its status) and the replay of a move on the
 * user's board are the engine's: the context is the engine's, wrapped with
 * what the notations need.  The puzzle is built in, so its tables are
 * found by its name, but they are described tables like any other
 * (FORMAT.md): they store this description and its ranking.
 *
 * Notations, read by the shared reader (lib/puzzles/text.c: a byte-order
 * mark, CRLF, tabs and blank lines ignored).  A board is 5 rows of 4 cells
 * (rows as lines, joined by '/' or separated by blanks) or the 20 cells as
 * one word: the A-K notation of the seed (A the 2x2 block, B-F two-cell
 * pieces, G-J 1x1 pieces, K empty) when the grid has no '.', else the
 * general grid ('.' empty, one letter or digit per piece; letters keep
 * their case).  Any other single word is a code, by one rule: exactly 5
 * characters is a ShortCode (of 123456789ABCDEFGHJKMNPQRSTUVWXYZ, any
 * case); 6 to 9 hex digits are a CommonCode, trailing zeros optional; 1 to
 * 4 characters are neither.  For scripts, short:WORD (5 characters) and
 * common:HEX (1 to 9 digits, trailing zeros optional) say which.  In batch
 * input a line of one 4-cell row starts a 5-line grid; a code or a
 * one-line grid is one line.
 *
 * The codes are the Klotski community's.  A CommonCode is 36 bits: the 2x2
 * block's top-left cell (4 bits), then 2 bits per remaining unit (a piece
 * or an empty cell) in reading order of the units' top-left cells, most
 * significant first, zero-padded: 00 empty, 01 1x2, 10 2x1, 11 1x1.  A
 * layout's ShortCode is its rank among all 29,334,498 layouts in ascending
 * CommonCode order, in base 32, 5 digits.  That order is the block's place,
 * then cell by cell in reading order, at each cell no piece covers, the
 * choice of empty, 1x2, 2x1 or 1x1, in that order; so the rank counts,
 * at each such cell, the completions of the choices before the layout's
 * own, from a table of completions by cell, the cells the pieces above
 * cover from there on (five at most: a 2x1 reaches one row down) and the
 * empty cells so far (0, 1, 2 or more): 12 x 21 x 32 x 3 counts, made the
 * first time a space needs one (kl_shorts_of(): a query in JSON or by its
 * ShortCode), so that a query of a board or a CommonCode does without.
 *
 * Output: a board comes back in the notation it came in, with the user's
 * letters, in the user's orientation (the engine's native view records
 * when the user's board is the mirror image of its state, and moves are
 * replayed and printed on the user's own board).  A code comes back as a
 * general grid: A the 2x2 block, B, C, ... the other pieces in reading
 * order, '.' empty.  A state's code (--stats) is the smaller CommonCode of
 * its layout and its mirror image.
 *
 * May touch: its arguments and its context only.  No I/O. */
#include <stdlib.h>
#include <string.h>

#include "slide.h"

enum {
    KL_COLS = 4,
    KL_ROWS = 5,
    KL_CELLS = 20,
    KL_HEADS = 12,        /* places the 2x2 block fits */
    KL_MIN_EMPTY = 2
};

#define KL_FULL 0xFFFFFu
#define KL_COL0 0x11111u
#define KL_COL3 0x88888u
#define KL_MIRRORED 0x100u   /* in aux, as the engine sets it (slide.h) */

/* Unit types, as in the CommonCode. */
enum { KL_EMPTY = 0, KL_HORZ = 1, KL_VERT = 2, KL_ONE = 3, KL_BLOCK = 4 };

/* Cells covered by a piece of each type with its top-left on cell 0. */
static const uint32_t kl_shape[5] = { 0x1, 0x3, 0x11, 0x1, 0x33 };

/* The place of the 2x2 block with its top-left on a cell, or -1. */
static const signed char kl_head_id[KL_CELLS] = {
    0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, -1, -1, -1, -1
};

static const char kl_b32[] = "123456789ABCDEFGHJKMNPQRSTUVWXYZ";

/* The puzzle's rules: a description in its canonical form (the text its
 * tables store; kl_open() checks that it reads back as itself). */
#define KL_SUMMARY "Klotski (Huarong Dao) on 4x5: move the 2x2 block to " \
                   "the bottom middle"
static const char kl_description[] =
    "name klotski\n"
    "summary " KL_SUMMARY "\n"
    "source seed 002 (\xe5\x8d\x8e\xe5\xae\xb9\xe9\x81\x93)\n"
    "metrics step line move\n"
    "distinct A\n"
    "covers mixes 2\n"
    "start BAAC/BAAC/DEEF/DGHF/I..J\n"
    "goal \?\?\?\?/\?\?\?\?/\?\?\?\?/\?AA\?/\?AA\?\n";
static const char *const kl_metrics[] = { "step", "line", "move", NULL };

/* A layout: the unit type at each piece's top-left cell (KL_EMPTY at the
 * others). */
typedef struct kl_layout {
    uint8_t at[KL_CELLS];
} kl_layout;

/* The ShortCode's table: the completions of layouts by the block's place,
 * the cell, the cells covered from there on (5 bits) and the empty cells
 * so far (0-2), and the layouts before each place. */
typedef struct kl_shorts {
    uint32_t done[KL_HEADS][KL_CELLS + 1][32][3];
    uint32_t first[KL_HEADS + 1];
} kl_shorts;

/* A space: the engine's, the kinds of the description's pieces, and the
 * ShortCode's table once made (set once, atomically: kl_shorts_of()). */
typedef struct kl_ctx {
    ptb_puzzle *engine;          /* the description's puzzle */
    void *x;                     /* its context */
    uint8_t kind_of[5];          /* a type's kind + 1 (KL_HORZ..KL_BLOCK) */
    uint8_t type_of[SL_MAX_KINDS];
    kl_shorts *shorts;
} kl_ctx;

/* The board as text: 5 rows of 4 cells joined by '\n', and a NUL. */
enum { KL_BOARD_TEXT = KL_ROWS * (KL_COLS + 1) };

/* A move's text, "G DR": its piece's letter and the path of the piece's
 * top-left cell, with a NUL. */
enum { KL_MOVE_TEXT = 2 + KL_CELLS + 1 };

/* The query's 20 cells, each with its line and column for messages. */
typedef struct kl_text {
    char cell[KL_CELLS];
    unsigned line[KL_CELLS], col[KL_CELLS];
} kl_text;

/* What a one-word query is. */
enum { KL_SHORT, KL_COMMON, KL_BARE };

/* ==== layouts ========================================================= */

/* Placements (top-left cells) of a piece of type ty that fit in free. */
static uint32_t kl_fit(unsigned ty, uint32_t free)
{
    uint32_t f = free;
    if (ty == KL_HORZ || ty == KL_BLOCK)
        f &= free >> 1 & ~KL_COL3;
    if (ty == KL_VERT || ty == KL_BLOCK)
        f &= f >> 4;
    return f & KL_FULL;
}

/* Placements one cell away in direction d (0 up, 1 down, 2 left, 3
 * right). */
static uint32_t kl_shift(uint32_t x, unsigned d)
{
    switch (d) {
    case 0:  return x >> 4;
    case 1:  return (x << 4) & KL_FULL;
    case 2:  return (x >> 1) & ~KL_COL3;
    default: return (x << 1) & ~KL_COL0 & KL_FULL;
    }
}

static unsigned kl_head(const kl_layout *l)
{
    unsigned c = 0;
    while (c < KL_CELLS - 1 && l->at[c] != KL_BLOCK)
        c++;
    return c;
}

/* The mirror image of l (left and right swapped). */
static void kl_mirror(const kl_layout *l, kl_layout *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned c = 0; c < KL_CELLS; c++)
        if (l->at[c]) {
            unsigned w = l->at[c] == KL_HORZ || l->at[c] == KL_BLOCK ? 2 : 1;
            out->at[c - c % 4 + 4 - w - c % 4] = l->at[c];
        }
}

static uint64_t kl_common_code(const kl_layout *l)
{
    unsigned head = kl_head(l);
    uint32_t covered = kl_shape[KL_BLOCK] << head, body = 0;
    unsigned shift = 32;
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (covered >> i & 1)
            continue;
        unsigned ty = l->at[i];
        covered |= ty ? kl_shape[ty] << i : 0;
        shift -= 2;
        body |= (uint32_t)ty << shift;
    }
    return (uint64_t)head << 32 | body;
}

/* Decodes a CommonCode; NULL, or why it is not a layout. */
static const char *kl_decode(uint64_t code, kl_layout *l)
{
    unsigned head = (unsigned)(code >> 32), empty = 0;
    uint32_t body = (uint32_t)code;
    if (head >= KL_CELLS || kl_head_id[head] < 0)
        return "the 2x2 block does not fit at that cell";
    memset(l, 0, sizeof *l);
    l->at[head] = KL_BLOCK;
    uint32_t used = kl_shape[KL_BLOCK] << head;
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
        l->at[i] = (uint8_t)ty;
        empty += ty == KL_EMPTY;
    }
    if (body)
        return "it has more pieces than the board holds";
    if (empty < KL_MIN_EMPTY)
        return "it has fewer than 2 empty cells";
    return NULL;
}

/* ==== the ShortCode =================================================== */

/* The completions from cell c with the cells win covered from c on (bit
 * 0 is c) and e empty cells so far, with the block at head: kl->done. */
static void kl_count_completions(kl_shorts *k)
{
    uint32_t total = 0;
    for (unsigned h = 0, head = 0; head < KL_CELLS; head++) {
        if (kl_head_id[head] < 0)
            continue;
        uint32_t block = kl_shape[KL_BLOCK] << head;
        uint32_t (*t)[32][3] = k->done[h];
        for (unsigned w = 0; w < 32; w++)
            for (unsigned e = 0; e < 3; e++)
                t[KL_CELLS][w][e] = !w && e >= KL_MIN_EMPTY;
        for (unsigned c = KL_CELLS; c-- > 0;)
            for (unsigned w = 0; w < 32; w++)
                for (unsigned e = 0; e < 3; e++) {
                    uint32_t win = w | (block >> c & 31);
                    uint32_t n = 0;
                    if (win & 1) {
                        n = t[c + 1][w >> 1][e];
                    } else {
                        n = t[c + 1][w >> 1][e < 2 ? e + 1 : 2];
                        if (c % 4 < 3 && !(win & 2))        /* 1x2 */
                            n += t[c + 1][(w | 2) >> 1][e];
                        if (c + 4 < KL_CELLS && !(win & 16))  /* 2x1 */
                            n += t[c + 1][(w | 16) >> 1][e];
                        n += t[c + 1][w >> 1][e];            /* 1x1 */
                    }
                    t[c][w][e] = n;
                }
        k->first[h] = total;
        total += t[0][0][0];
        h++;
    }
    k->first[KL_HEADS] = total;
}

/* The ShortCode's table of space k, made by the first call that needs it
 * (threads that race each make one; the first kept stays); NULL: out of
 * memory. */
static const kl_shorts *kl_shorts_of(const kl_ctx *k)
{
    kl_shorts **at = &((kl_ctx *)k)->shorts;
    kl_shorts *got = __atomic_load_n(at, __ATOMIC_ACQUIRE), *none = NULL;
    if (got)
        return got;
    if (!(got = malloc(sizeof *got)))
        return NULL;
    kl_count_completions(got);
    if (!__atomic_compare_exchange_n(at, &none, got, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(got);
        got = none;
    }
    return got;
}

/* The choices at cell c, in CommonCode order, with what each adds to the
 * window: calls kl_choice() for each that fits.  The window after a
 * choice of type ty is (win | add) >> 1. */
static uint32_t kl_adds(unsigned ty)
{
    return ty == KL_HORZ ? 2 : ty == KL_VERT ? 16 : 0;
}

static int kl_fits_at(unsigned c, uint32_t win, unsigned ty)
{
    return ty == KL_HORZ ? c % 4 < 3 && !(win & 2)
         : ty == KL_VERT ? c + 4 < KL_CELLS && !(win & 16) : 1;
}

/* The ShortCode number of a layout. */
static uint32_t kl_short_rank(const kl_shorts *k, const kl_layout *l)
{
    unsigned head = kl_head(l), h = (unsigned)kl_head_id[head], e = 0;
    uint32_t block = kl_shape[KL_BLOCK] << head, w = 0;
    uint32_t r = k->first[h];
    for (unsigned c = 0; c < KL_CELLS; c++) {
        uint32_t win = w | (block >> c & 31);
        if (!(win & 1)) {
            unsigned own = l->at[c];
            for (unsigned ty = KL_EMPTY; ty < own; ty++)
                if (kl_fits_at(c, win, ty))
                    r += k->done[h][c + 1][(w | kl_adds(ty)) >> 1]
                                [ty ? e : e < 2 ? e + 1 : 2];
            w |= kl_adds(own);
            e += own == KL_EMPTY && e < 2;
        }
        w >>= 1;
    }
    return r;
}

/* The layout of a ShortCode's number n (below k->first[KL_HEADS]). */
static void kl_short_unrank(const kl_shorts *k, uint32_t n, kl_layout *l)
{
    unsigned h = 0, head = 0, e = 0;
    while (h + 1 < KL_HEADS && k->first[h + 1] <= n)
        h++;
    while (kl_head_id[head] != (int)h)
        head++;
    n -= k->first[h];
    memset(l, 0, sizeof *l);
    l->at[head] = KL_BLOCK;
    uint32_t block = kl_shape[KL_BLOCK] << head, w = 0;
    for (unsigned c = 0; c < KL_CELLS; c++) {
        uint32_t win = w | (block >> c & 31);
        if (!(win & 1)) {
            unsigned ty = KL_EMPTY;
            for (;; ty++) {
                uint32_t m = kl_fits_at(c, win, ty)
                    ? k->done[h][c + 1][(w | kl_adds(ty)) >> 1]
                             [ty ? e : e < 2 ? e + 1 : 2] : 0;
                if (n < m || ty == KL_ONE)
                    break;
                n -= m;
            }
            l->at[c] = (uint8_t)ty;
            w |= kl_adds(ty);
            e += ty == KL_EMPTY && e < 2;
        }
        w >>= 1;
    }
}

/* ==== the space: the engine's ========================================= */

static void kl_close(void *ctx)
{
    kl_ctx *k = ctx;
    if (k) {
        if (k->engine)
            k->engine->close(k->x);
        sl_puzzle_free(k->engine);
        free(k->shorts);
    }
    free(k);
}

/* Maps the description's kinds to unit types, by shape. */
static int kl_kinds(kl_ctx *k)
{
    const sl_desc *d = sl_ctx_desc(k->x);
    for (unsigned i = 0; i < d->nkinds; i++) {
        unsigned ty = KL_HORZ;
        while (ty <= KL_BLOCK && kl_shape[ty] != d->kind[i].shape)
            ty++;
        if (ty > KL_BLOCK || k->kind_of[ty])
            return PTB_EINVAL;
        k->kind_of[ty] = (uint8_t)(i + 1);
        k->type_of[i] = (uint8_t)ty;
    }
    return d->w == KL_COLS && d->h == KL_ROWS && d->nkinds == 4
           ? PTB_OK : PTB_EINVAL;
}

static int kl_open(const ptb_puzzle *self, unsigned metric, void **ctx)
{
    kl_ctx *k = calloc(1, sizeof *k);
    sl_desc *d = NULL;
    int rc = !k ? PTB_ENOMEM : sl_read(self->description, NULL, &d, NULL, 0);
    *ctx = NULL;
    if (rc == PTB_OK && (rc = sl_puzzle(d, &k->engine)) != PTB_OK)
        sl_free(d);
    if (rc == PTB_OK && (strcmp(d->text, self->description) ||
                         strcmp(d->name, self->name) ||
                         d->nmetrics <= metric ||
                         strcmp(d->metric_name[metric],
                                self->metrics[metric])))
        rc = PTB_EINVAL;                /* (not the text it reads as) */
    if (rc == PTB_OK) {              /* a table's ranking, when self has it */
        k->engine->stored = self->stored;
        k->engine->stored_len = self->stored_len;
        rc = k->engine->open(k->engine, metric, &k->x);
    }
    if (rc == PTB_OK)
        rc = kl_kinds(k);
    if (rc != PTB_OK) {
        kl_close(k);
        return rc == PTB_EPARSE ? PTB_EINVAL : rc;
    }
    *ctx = k;
    return PTB_OK;
}

/* The engine's hooks, on its context. */
#define KL_ENGINE(ctx) (((const kl_ctx *)(ctx))->engine)
#define KL_X(ctx) (((const kl_ctx *)(ctx))->x)

static uint32_t kl_subtables(const void *ctx)
{
    return KL_ENGINE(ctx)->subtables(KL_X(ctx));
}

static uint64_t kl_size(const void *ctx, uint32_t sub)
{
    return KL_ENGINE(ctx)->size(KL_X(ctx), sub);
}

static void kl_goals(const void *ctx, uint32_t sub,
                     void (*emit)(void *arg, uint64_t idx), void *arg)
{
    KL_ENGINE(ctx)->goals(KL_X(ctx), sub, emit, arg);
}

static int kl_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    return KL_ENGINE(ctx)->is_goal(KL_X(ctx), sub, idx);
}

static unsigned kl_max_moves(const void *ctx)
{
    return KL_ENGINE(ctx)->max_moves(KL_X(ctx));
}

static unsigned kl_moves(const void *ctx, uint32_t sub, uint64_t idx,
                         ptb_move *out)
{
    return KL_ENGINE(ctx)->moves(KL_X(ctx), sub, idx, out);
}

static unsigned kl_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                           uint64_t *out)
{
    return KL_ENGINE(ctx)->unmoves(KL_X(ctx), sub, idx, out);
}

static const unsigned char *kl_index(const void *ctx, size_t *len)
{
    return KL_ENGINE(ctx)->index(KL_X(ctx), len);
}

static int kl_status(const void *ctx)
{
    return KL_ENGINE(ctx)->status(KL_X(ctx));
}

static int kl_first_move(const void *ctx, const ptb_position *p,
                         int (*pick)(void *arg, const ptb_move *m),
                         void (*ahead)(void *arg, const ptb_move *m),
                         void *arg, ptb_move *out)
{
    return KL_ENGINE(ctx)->first_move(KL_X(ctx), p, pick, ahead, arg, out);
}

/* The native view is the engine's: cell[0..19] the user's board, aux the
 * empty mark ('K' in the A-K notation, '.' in general grids) and
 * KL_MIRRORED when the state is the board's mirror image; the engine
 * replays a move on it whatever its letters. */
static void kl_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    KL_ENGINE(ctx)->apply(KL_X(ctx), p, m);
}

/* Sets the state of the user's layout l: the index and KL_MIRRORED. */
static void kl_set_state(const kl_ctx *k, ptb_position *p,
                         const kl_layout *l)
{
    uint8_t at[KL_CELLS];
    uint32_t aux;
    for (unsigned c = 0; c < KL_CELLS; c++)
        at[c] = l->at[c] ? k->kind_of[l->at[c]] : 0;
    p->sub = 0;
    p->idx = sl_ctx_state(k->x, at, &aux);
    p->aux |= aux;
}

/* The layout of state idx (the one of the pair that stands for both). */
static void kl_state_layout(const kl_ctx *k, uint64_t idx, kl_layout *l)
{
    uint8_t at[SL_MAX_CELLS];
    sl_ctx_layout(k->x, idx, at);
    for (unsigned c = 0; c < KL_CELLS; c++)
        l->at[c] = at[c] ? k->type_of[at[c] - 1] : KL_EMPTY;
}

/* ==== the native view ================================================= */

static char kl_empty_mark(const ptb_position *p)
{
    return p->aux & 0xFF ? (char)(p->aux & 0xFF) : 'K';
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

/* The cells of the piece whose top-left cell is c. */
static uint32_t kl_piece_cells(const ptb_position *p, unsigned c)
{
    unsigned char x = p->cell[c];
    uint32_t row = c % 4 < 3 && p->cell[c + 1] == x ? 3u : 1u;
    return (c + 4 < KL_CELLS && p->cell[c + 4] == x ? row | row << 4 : row)
           << c;
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

/* Names the pieces of a layout as a general grid: A the 2x2 block, B, C,
 * ... the others in reading order, '.' empty. */
static void kl_name_pieces(const kl_layout *l, ptb_position *pos)
{
    char next = 'B';
    memset(pos, 0, sizeof *pos);
    pos->aux = '.';
    memset(pos->cell, '.', KL_CELLS);
    for (unsigned p = 0; p < KL_CELLS; p++) {
        unsigned ty = l->at[p];
        char c = ty == KL_BLOCK ? 'A' : next;
        if (!ty)
            continue;
        next += ty != KL_BLOCK;
        for (unsigned i = 0; i < KL_CELLS; i++)
            if ((kl_shape[ty] << p) >> i & 1)
                pos->cell[i] = (unsigned char)c;
    }
}

/* The layout shown by the native view (the user's own board). */
static void kl_layout_of_view(const ptb_position *p, kl_layout *l)
{
    uint32_t seen = kl_empty_cells(p);
    memset(l, 0, sizeof *l);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        l->at[i] = (uint8_t)kl_piece_type(m, i);
        seen |= m;
    }
}

static void kl_board_text(const ptb_position *p, char out[KL_BOARD_TEXT])
{
    for (unsigned r = 0; r < KL_ROWS; r++) {
        memcpy(out + 5 * r, p->cell + 4 * r, 4);
        out[5 * r + 4] = '\n';
    }
    out[KL_BOARD_TEXT - 1] = '\0';
}

static int kl_format_board(const void *ctx, const ptb_position *p, char *buf,
                           size_t cap)
{
    char text[KL_BOARD_TEXT];
    size_t len = 0;
    (void)ctx;
    kl_board_text(p, text);
    ptb_catf(buf, cap, &len, "%s", text);
    return (int)len;
}

/* A shortest path of cell steps (U, D, L, R) from placement a to b within
 * the placements fit; writes the letters and a NUL, returns the length.
 * When a straight line from a to b is open it is the only shortest path,
 * and it is found without the search (every step and line move). */
static unsigned kl_path(uint32_t fit, unsigned a, unsigned b, char *out)
{
    static const char dir[4] = { 'U', 'D', 'L', 'R' };
    signed char via[KL_CELLS];
    unsigned queue[KL_CELLS], head = 0, tail = 0, n = 0;
    for (unsigned d = 0; d < 4; d++) {
        n = 0;
        for (uint32_t y = kl_shift(1u << a, d) & fit; y;
             y = kl_shift(y, d) & fit) {
            out[n++] = dir[d];
            if (y == 1u << b) {
                out[n] = '\0';
                return n;
            }
        }
    }
    n = 0;
    memset(via, -1, sizeof via);
    via[a] = 4;
    queue[tail++] = a;
    while (head < tail && via[b] < 0) {
        unsigned c = queue[head++];
        for (unsigned d = 0; d < 4; d++) {
            uint32_t y = kl_shift(1u << c, d) & fit;
            if (y && via[ptb_low_bit(y)] < 0) {
                via[ptb_low_bit(y)] = (signed char)d;
                queue[tail++] = ptb_low_bit(y);
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

/* A table move on the user's board: its piece's top-left cells before
 * and after. */
static void kl_user_move(const void *ctx, const ptb_position *p,
                         const ptb_move *m, unsigned *from, unsigned *to)
{
    uint32_t code = sl_ctx_move(KL_X(ctx), p, m);
    *from = code & 0xFF;
    *to = code >> 8 & 0xFF;
}

static unsigned kl_move_text(const void *ctx, const ptb_position *before,
                             const ptb_move *m, char out[KL_MOVE_TEXT])
{
    unsigned from, to;
    kl_user_move(ctx, before, m, &from, &to);
    unsigned char letter = before->cell[from];
    uint32_t cells = kl_piece_cells(before, from);
    uint32_t empty = kl_empty_cells(before);
    unsigned ty = kl_piece_type(cells, from);
    out[0] = (char)letter;
    out[1] = ' ';
    return 2 + kl_path(kl_fit(ty ? ty : KL_ONE, empty | cells), from, to,
                       out + 2);
}

static int kl_format_move(const void *ctx, const ptb_position *before,
                          const ptb_move *m, char *buf, size_t cap)
{
    char text[KL_MOVE_TEXT];
    size_t len = 0;
    kl_move_text(ctx, before, m, text);
    ptb_catf(buf, cap, &len, "%s", text);
    return (int)len;
}

/* v (below 1000) in decimal at out; returns the length. */
static unsigned kl_decimal(unsigned v, char *out)
{
    unsigned n = v >= 100 ? 3 : v >= 10 ? 2 : 1;
    for (unsigned i = n; i-- > 0; v /= 10)
        out[i] = (char)('0' + v % 10);
    return n;
}

/* The count, then per move "N LETTER PATH", the board after it and a blank
 * line: each move's text put together here and appended whole, as
 * ptb_catf(..., "%u %s\n%s\n\n", N, move, board) would write it. */
static int kl_format_answer(const void *ctx, const ptb_solution *s, char *buf,
                            size_t cap)
{
    size_t len = 0;
    char step[4 + KL_MOVE_TEXT + KL_BOARD_TEXT + 2];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        char *o = step + kl_decimal(i + 1, step);
        *o++ = ' ';
        o += kl_move_text(ctx, before, &s->move[i], o);
        *o++ = '\n';
        kl_board_text(&s->after[i], o);
        o += KL_BOARD_TEXT - 1;
        memcpy(o, "\n\n", 3);
        ptb_catf(buf, cap, &len, "%s", step);
    }
    return (int)len;
}

/* A state's code: the smaller CommonCode of its layout and its mirror
 * image. */
static int kl_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                          char *buf, size_t cap)
{
    const kl_ctx *k = ctx;
    kl_layout l, m;
    size_t len = 0;
    if (sub != 0 || idx >= kl_size(ctx, 0))
        return -1;
    kl_state_layout(k, idx, &l);
    kl_mirror(&l, &m);
    uint64_t a = kl_common_code(&l), b = kl_common_code(&m);
    ptb_catf(buf, cap, &len, "%09llX", (unsigned long long)(a < b ? a : b));
    return (int)len;
}

/* ==== JSON ============================================================ */

/* "common_code" and "short_code" of the user's layout (null when its
 * table cannot be made: out of memory), and "code": the board on one
 * line, rows split by blanks, which parse() reads back with the same
 * letters. */
static int kl_format_query_json(const void *ctx, const ptb_position *p,
                                char *buf, size_t cap)
{
    const kl_shorts *sh = kl_shorts_of(ctx);
    kl_layout l;
    char shortcode[8] = "null";     /* (out of memory) */
    size_t len = 0;
    kl_layout_of_view(p, &l);
    if (sh) {
        uint32_t rank = kl_short_rank(sh, &l);
        shortcode[0] = shortcode[6] = '"';
        for (int i = 5; i >= 1; i--, rank /= 32)
            shortcode[i] = kl_b32[rank % 32];
        shortcode[7] = '\0';
    }
    ptb_catf(buf, cap, &len, "\"common_code\":\"%09llX\",\"short_code\":"
             "%s,\"code\":\"", (unsigned long long)kl_common_code(&l),
             shortcode);
    for (unsigned r = 0; r < KL_ROWS; r++)
        ptb_catf(buf, cap, &len, "%s%.4s", r ? " " : "",
                 (const char *)p->cell + 4 * r);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

/* "piece", "from" and "to" (the piece's top-left cell on the user's
 * board), "path" (one direction per cell stepped), and "direction" when
 * the path is straight. */
static int kl_format_move_json(const void *ctx, const ptb_position *before,
                               const ptb_move *m, char *buf, size_t cap)
{
    static const char *const name[] = { "up", "down", "left", "right" };
    unsigned from, to;
    char text[KL_MOVE_TEXT];
    size_t len = 0, k = 0;
    kl_user_move(ctx, before, m, &from, &to);
    kl_move_text(ctx, before, m, text);
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

/* "line 3, column 2": where cell i came from. */
static const char *kl_where(const kl_text *tx, unsigned i, char *buf,
                            size_t cap)
{
    size_t len = 0;
    ptb_catf(buf, cap, &len, "line %u, column %u", tx->line[i], tx->col[i]);
    return buf;
}

/* Takes n cells from a row. */
static void kl_take(const ptb_token *t, unsigned n, unsigned at, kl_text *tx)
{
    for (unsigned k = 0; k < n; k++) {
        tx->cell[at + k] = t->s[k];
        tx->line[at + k] = t->line;
        tx->col[at + k] = ptb_text_column(t, k);
    }
}

/* A row of the wrong length: a character that is no cell (not ASCII), or
 * the count. */
static int kl_bad_row(const ptb_token *t, unsigned want, char *err,
                      size_t errcap)
{
    unsigned chars = ptb_text_column(t, t->len) - t->col;
    char what[24];
    for (unsigned k = 0; chars == want && k < t->len; k++)
        if ((unsigned char)t->s[k] >= 0x80) {
            ptb_text_char(t->s + k, t->len - k, what, sizeof what);
            return ptb_errf(err, errcap, "line %u, column %u: unexpected %s",
                            t->line, ptb_text_column(t, k), what);
        }
    if (want == KL_CELLS)
        return ptb_errf(err, errcap, "line %u, column %u: %u cells; "
                        "expected 5 rows of 4 cells, a CommonCode or a "
                        "ShortCode", t->line, t->col, chars);
    return ptb_errf(err, errcap, "line %u, column %u: %u cells, expected 4",
                    t->line, t->col, chars);
}

/* Splits a grid query into its cells by the shared reader's rules (rows as
 * lines, joined by '/' or separated by blanks): 5 rows of 4 cells, or the
 * 20 cells as one word. */
static int kl_split(const char *text, kl_text *tx, char *err, size_t errcap)
{
    ptb_token tok[KL_ROWS + 1];
    unsigned n = ptb_text_split(text, PTB_TEXT_GRID, tok, KL_ROWS + 1);
    memset(tx, 0, sizeof *tx);
    if (n == 0)
        return ptb_errf(err, errcap, "empty query; expected 5 rows of 4 "
                        "cells, a CommonCode or a ShortCode");
    if (n == 1) {
        if (tok[0].len != KL_CELLS)
            return kl_bad_row(&tok[0], KL_CELLS, err, errcap);
        kl_take(&tok[0], KL_CELLS, 0, tx);
        return PTB_OK;
    }
    if (n > KL_ROWS)
        return ptb_errf(err, errcap, "%u rows; expected 5 rows of 4 cells "
                        "(row 6 is at line %u, column %u)", n,
                        tok[KL_ROWS].line, tok[KL_ROWS].col);
    if (n < KL_ROWS)
        return ptb_errf(err, errcap, "%u rows; expected 5 rows of 4 cells, "
                        "a CommonCode or a ShortCode", n);
    for (unsigned r = 0; r < KL_ROWS; r++) {
        if (tok[r].len != KL_COLS)
            return kl_bad_row(&tok[r], KL_COLS, err, errcap);
        kl_take(&tok[r], KL_COLS, KL_COLS * r, tx);
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
static int kl_check_seed_letter(char c, unsigned ty, const kl_text *tx,
                                unsigned i, char *err, size_t errcap)
{
    char where[32];
    const char *want = c == 'A' ? "the 2x2 block"
        : c <= 'F' ? "a 1x2 or 2x1 piece" : "a 1x1 piece";
    int ok = c == 'A' ? ty == KL_BLOCK
        : c <= 'F' ? ty == KL_HORZ || ty == KL_VERT : ty == KL_ONE;
    if (ok)
        return PTB_OK;
    return ptb_errf(err, errcap, "%s: piece '%c' must be %s in the A-K "
                    "notation (A 2x2, B-F 1x2 or 2x1, G-J 1x1, K empty)",
                    kl_where(tx, i, where, sizeof where), c, want);
}

/* Reads a grid into a layout and the native view. */
static int kl_parse_grid(const kl_ctx *k, const kl_text *tx, ptb_position *p,
                         char *err, size_t errcap)
{
    char where[32];
    int seed = 1;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (tx->cell[i] == '.')
            seed = 0;
    memset(p, 0, sizeof *p);
    p->aux = seed ? 'K' : '.';
    for (unsigned i = 0; i < KL_CELLS; i++) {
        char c = tx->cell[i];
        if (seed ? !(c >= 'A' && c <= 'K') : c != '.' && !kl_is_label(c)) {
            kl_where(tx, i, where, sizeof where);
            if (seed)
                return ptb_errf(err, errcap, "%s: unexpected '%c' (the A-K "
                                "notation uses A-K; a general grid uses "
                                "letters and '.' for empty)", where, c);
            return ptb_errf(err, errcap, "%s: unexpected '%c' (use a letter "
                            "or digit per piece, '.' for empty)", where, c);
        }
        p->cell[i] = (unsigned char)c;
    }
    unsigned blocks = 0;
    uint32_t seen = kl_empty_cells(p);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        unsigned ty = kl_piece_type(m, i);
        char c = (char)p->cell[i];
        seen |= m;
        if (ty == KL_EMPTY)
            return ptb_errf(err, errcap, "%s: piece '%c' is not one solid "
                            "1x1, 1x2, 2x1 or 2x2 rectangle",
                            kl_where(tx, i, where, sizeof where), c);
        if (seed && kl_check_seed_letter(c, ty, tx, i, err, errcap))
            return PTB_EPARSE;
        if (ty == KL_BLOCK && blocks++)
            return ptb_errf(err, errcap, "%s: a second 2x2 block '%c' "
                            "(a layout has exactly one)",
                            kl_where(tx, i, where, sizeof where), c);
    }
    if (!blocks)
        return ptb_errf(err, errcap, "no 2x2 block (a layout has exactly "
                        "one)");
    unsigned empty = ptb_popcount(kl_empty_cells(p));
    if (empty < KL_MIN_EMPTY)
        return ptb_errf(err, errcap, "%u empty cell%s, at least 2 needed",
                        empty, empty == 1 ? "" : "s");
    kl_layout l;
    kl_layout_of_view(p, &l);          /* (the drawing checked above) */
    kl_set_state(k, p, &l);
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

/* A ShortCode (exactly 5 characters) into a layout. */
static int kl_read_short(const kl_ctx *kx, const char *w, size_t n,
                         kl_layout *l, char *err, size_t errcap)
{
    const kl_shorts *k = kl_shorts_of(kx);
    uint64_t v = 0;
    if (!k)
        return PTB_ENOMEM;
    if (n != 5)
        return ptb_errf(err, errcap, "ShortCode '%.*s': %u characters, "
                        "expected 5", (int)n, w, (unsigned)n);
    for (size_t i = 0; i < n; i++) {
        int d = kl_b32_digit(w[i]);
        if (d < 0)
            return ptb_errf(err, errcap, "ShortCode '%.5s': character %u "
                            "'%c' is not one of %s (a 5-character word is a "
                            "ShortCode; a CommonCode has 6-9 hex digits, or "
                            "write common:%.5s)", w, (unsigned)i + 1, w[i],
                            kl_b32, w);
        v = v * 32 + (unsigned)d;
    }
    if (v >= k->first[KL_HEADS])
        return ptb_errf(err, errcap, "ShortCode '%.5s' is %llu, past the "
                        "last layout %lu", w, (unsigned long long)v,
                        (unsigned long)k->first[KL_HEADS] - 1);
    kl_short_unrank(k, (uint32_t)v, l);
    return PTB_OK;
}

/* A CommonCode (1-9 hex digits, trailing zeros optional) into a layout. */
static int kl_read_common(const char *w, size_t n, kl_layout *l, char *err,
                          size_t errcap)
{
    uint64_t v = 0;
    if (n < 1 || n > 9)
        return ptb_errf(err, errcap, "CommonCode '%.*s': %u digits, expected "
                        "1 to 9", (int)n, w, (unsigned)n);
    for (size_t i = 0; i < n; i++) {
        int d = kl_hex_digit(w[i]);
        if (d < 0)
            return ptb_errf(err, errcap, "CommonCode '%.*s': character %u "
                            "'%c' is not a hex digit", (int)n, w,
                            (unsigned)i + 1, w[i]);
        v = v * 16 + (unsigned)d;
    }
    for (size_t i = n; i < 9; i++)
        v *= 16;
    const char *why = kl_decode(v, l);
    if (why)
        return ptb_errf(err, errcap, "CommonCode '%.*s' is not a layout: %s",
                        (int)n, w, why);
    return PTB_OK;
}

/* Reads a code of the given kind into the native view: the layout as a
 * general grid, the state of its representative. */
static int kl_parse_code(const kl_ctx *k, int kind, const char *w, size_t n,
                         ptb_position *p, char *err, size_t errcap)
{
    kl_layout l;
    int rc;
    if (kind == KL_BARE)
        return ptb_errf(err, errcap, "'%.*s': a word of %u characters is "
                        "no position (a ShortCode has 5 characters, a "
                        "CommonCode 6-9 hex digits or the prefix common:, a "
                        "board 5 rows of 4 cells)", (int)n, w, (unsigned)n);
    rc = kind == KL_SHORT ? kl_read_short(k, w, n, &l, err, errcap)
                          : kl_read_common(w, n, &l, err, errcap);
    if (rc != PTB_OK)
        return rc;
    kl_name_pieces(&l, p);
    kl_set_state(k, p, &l);
    return PTB_OK;
}

/* Does text start with prefix, in any case? */
static int kl_prefix(const char *text, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != prefix[i])
            return 0;
    }
    return 1;
}

/* A query of one word (by the shared reader's rules) is a code when it has
 * a prefix (short:, common:) or at most 9 characters: sets the word
 * (without its prefix) and its kind. */
static int kl_code_word(const char *text, const char **w, size_t *n,
                        int *kind)
{
    ptb_token tok[2];
    if (ptb_text_split(text, PTB_TEXT_GRID, tok, 2) != 1)
        return 0;
    *w = tok[0].s;
    *n = tok[0].len;
    if (kl_prefix(*w, *n, "short:") || kl_prefix(*w, *n, "common:")) {
        *kind = kl_prefix(*w, *n, "short:") ? KL_SHORT : KL_COMMON;
        size_t skip = *kind == KL_SHORT ? 6 : 7;
        *w += skip;
        *n -= skip;
        return 1;
    }
    *kind = *n == 5 ? KL_SHORT : *n >= 6 ? KL_COMMON : KL_BARE;
    return *n >= 1 && *n <= 9;
}

static int kl_parse(const void *ctx, const char *text,
                    const char *const *opt, ptb_position out[2],
                    unsigned *n, char *err, size_t errcap)
{
    const char *w;
    size_t wn;
    kl_text tx;
    int rc, kind;
    (void)opt;
    *n = 0;
    if (kl_code_word(text, &w, &wn, &kind))
        rc = kl_parse_code(ctx, kind, w, wn, &out[0], err, errcap);
    else if ((rc = kl_split(text, &tx, err, errcap)) == PTB_OK)
        rc = kl_parse_grid(ctx, &tx, &out[0], err, errcap);
    if (rc == PTB_OK)
        *n = 1;
    return rc;
}

/* Batch records: a code or the 20 cells as one word is one line; else the
 * shared reader's rule for 5 rows (a line of one 4-cell row starts 5
 * lines). */
static unsigned kl_record_lines(const void *ctx, const char *first_line)
{
    ptb_token tok[2];
    unsigned n = ptb_text_split(first_line, PTB_TEXT_GRID, tok, 2);
    (void)ctx;
    if (n == 1 && tok[0].len != KL_COLS)
        return 1;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, KL_ROWS);
}

/* The puzzle: the description, the engine's table hooks, these
 * notations. */
const ptb_puzzle ptb_puzzle_klotski = {
    .name = "klotski",
    .summary = KL_SUMMARY,
    .metrics = kl_metrics,
    .reversible = 1,
    .description = kl_description,
    .open = kl_open,
    .close = kl_close,
    .subtables = kl_subtables,
    .size = kl_size,
    .goals = kl_goals,
    .is_goal = kl_is_goal,
    .max_moves = kl_max_moves,
    .moves = kl_moves,
    .unmoves = kl_unmoves,
    .index = kl_index,
    .status = kl_status,
    .parse = kl_parse,
    .record_lines = kl_record_lines,
    .apply = kl_apply,
    .first_move = kl_first_move,
    .format_board = kl_format_board,
    .format_move = kl_format_move,
    .format_answer = kl_format_answer,
    .format_code = kl_format_code,
    .format_query_json = kl_format_query_json,
    .format_move_json = kl_format_move_json,
};
