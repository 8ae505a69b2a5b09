/* lib/puzzles/klotski.h: what the built-in Klotski's files share
 * (puzzle_klotski.c: the table's states, their ranking and moves, and the
 * build-time tables' generator; klotski_text.c: the notations): the board
 * and its row tables' types, which the generator shares too, and, past
 * it, the layout, the space and what one file gives the other.
 * puzzle_klotski.c's header has the design. */
#ifndef PTB_KLOTSKI_H
#define PTB_KLOTSKI_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

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
    KL_GUIDE = 64,        /* guide buckets per unranking list */
    KL_PAIR_GUIDE = 1024  /* guide buckets per list of rows 1-2 */
};

/* For the few small functions of the move generator's inner loops, which
 * must be inlined to be fast. */
#if defined(__GNUC__)
#define KL_HOT static inline __attribute__((always_inline))
#else
#define KL_HOT static inline
#endif

/* Unit types, as in the CommonCode. */
enum { KL_EMPTY = 0, KL_HORZ = 1, KL_VERT = 2, KL_ONE = 3, KL_BLOCK = 4 };

/* A row code against its mirror image, in the order of ranks: the same
 * code, or the one that sorts first, or second. */
enum { KL_SYM = 0, KL_FIRST = 1, KL_SECOND = 2 };

/* The places of the 2x2 block by its top-left cell. */
static const unsigned char kl_head_cell[KL_HEADS] = {
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14
};

/* One entry of an unranking list: a row code that has completions. */
typedef struct kl_entry {
    uint32_t before;    /* layouts sorting before it (same rows above) */
    uint8_t code;       /* the row code */
    uint8_t next;       /* the state of the next row */
    uint16_t slot;      /* its slot (KL_NONE after the last row) */
} kl_entry;

/* One entry of the unranking list of rows 1 and 2 together (one list per
 * 2x2 place): a pair of row codes that has completions. */
typedef struct kl_pair {
    uint32_t before;    /* layouts sorting before it */
    uint32_t part0;     /* the part of that row 1 adds */
    uint8_t code0, code1;
    uint16_t slot1, slot2;  /* the slots of rows 2 and 3 */
} kl_pair;

/* Where to start looking in an unranking list: bucket b holds the entry
 * that contains the rank b << shift. */
typedef struct kl_guide {
    uint8_t shift;
    uint8_t at[KL_GUIDE];
} kl_guide;

typedef struct kl_pair_guide {
    uint8_t shift;
    uint16_t at[KL_PAIR_GUIDE];
} kl_pair_guide;

static inline unsigned kl_state(unsigned covered, unsigned empties)
{
    return covered * 3 + (empties < 2 ? empties : 2);
}

/* The 2x2 block in columns 2-3: the place is its own mirror image. */
static inline int kl_centred(unsigned hid)
{
    return kl_head_cell[hid] % 4 == 1;
}

#ifndef PTB_MKTABLES

#define KL_FULL 0xFFFFFu
#define KL_COL0 0x11111u
#define KL_COL3 0x88888u
#define KL_FLIP (1u << 10)         /* move code: the successor is mirrored */
#define KL_MIRRORED (1u << 8)      /* native view: the user's board is the
                                      state's mirror image */

/* The place of the 2x2 block with its top-left on a cell, or -1. */
static const signed char kl_head_id[KL_CELLS] = {
    0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, -1, -1, -1, -1
};

/* Cells covered by a piece of each type with its top-left on cell 0. */
static const uint32_t kl_shape[5] = { 0x1, 0x3, 0x11, 0x1, 0x33 };

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

/* A space: the metric; the tables are constant. */
typedef struct kl_ctx {
    unsigned metric;
} kl_ctx;

/* Placements (top-left cells) of a piece of type ty that fit in free: free
 * and free moved by each of the piece's other cells, one expression for
 * every type (a shift of 0 repeats free), so no branch on the type. */
static const uint8_t kl_fit_shift[5][3] = {
    { 0, 0, 0 }, { 1, 0, 0 }, { 4, 0, 0 }, { 0, 0, 0 }, { 1, 4, 5 }
};
static const uint32_t kl_fit_mask[5] = {
    KL_FULL, KL_FULL & ~KL_COL3, KL_FULL, KL_FULL, KL_FULL & ~KL_COL3
};

/* What ranking a layout's rows found: each row's rank part, the start of
 * its state's rank parts in kl_add, and the cells covered from above; sym,
 * the rows whose parts count mirror classes (kl_sym_rows(), 0 in columns
 * 1-2). */
typedef struct kl_rowinfo {
    uint32_t rank;                 /* the state index */
    uint32_t part[KL_ROWS], base[KL_ROWS];
    uint8_t covered[KL_ROWS];
    unsigned sym;
} kl_rowinfo;

/* Where moves go: codes and targets to whichever of mv and to is not
 * NULL. */
typedef struct kl_sink {
    ptb_move *mv;
    uint64_t *to;
    unsigned n;
} kl_sink;

/* ==== native view ===================================================== */

/* The native view: cell[0..19] holds each cell of the user's board (the
 * layout as given, not its representative), a letter or the empty mark;
 * aux holds the empty mark ('K' in the A-K notation, '.' in general grids)
 * and KL_MIRRORED when the state is the board's mirror image.  After the
 * board, from cell[KL_KEEP], the view keeps the state's own layout (the
 * representative), so that the walk finds a state's moves without
 * unranking it. */
#define KL_KEEP 24u   /* past the board, 8-byte aligned */
/* its fields, not the struct's padding, so that equal positions are equal
 * bytes */
#define KL_KEPT_BYTES \
    (offsetof(kl_layout, head) + sizeof ((kl_layout *)0)->head)

_Static_assert(KL_KEEP >= KL_CELLS
                   && KL_KEEP + KL_KEPT_BYTES
                          <= sizeof ((ptb_position *)0)->cell,
               "the kept layout fits in the native view");

/* The board as text: 5 rows of 4 cells joined by '\n', and a NUL. */
enum { KL_BOARD_TEXT = KL_ROWS * (KL_COLS + 1) };

/* A move's text, "G DR": its piece's letter on 'before' and the path of
 * the piece's top-left cell, with a NUL; returns the length. */
enum { KL_MOVE_TEXT = 2 + KL_CELLS + 1 };

/* ==== parsing ========================================================= */

/* The query's 20 cells, each with its line and column for messages. */
typedef struct kl_text {
    char cell[KL_CELLS];
    unsigned line[KL_CELLS], col[KL_CELLS];
} kl_text;

/* What a one-word query is. */
enum { KL_SHORT, KL_COMMON, KL_BARE };

/* ---- between the two files ----------------------------------------- */

int kl_open(const ptb_puzzle *self, unsigned metric,
            void **ctx);
void kl_close(void *ctx);
uint32_t kl_subtables(const void *ctx);
uint64_t kl_size(const void *ctx, uint32_t sub);
void kl_goals(const void *ctx, uint32_t sub,
              void (*emit)(void *arg, uint64_t idx), void *arg);
int kl_is_goal(const void *ctx, uint32_t sub, uint64_t idx);
unsigned kl_moves(const void *ctx, uint32_t sub, uint64_t idx,
                  ptb_move *out);
unsigned kl_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                    uint64_t *out);
unsigned kl_position_moves(const void *ctx, const ptb_position *p,
                           ptb_move *out);
uint32_t kl_shift(uint32_t x, unsigned d);
void kl_from_rows(uint64_t t, unsigned head, kl_layout *l);
void kl_mirror(const kl_layout *l, kl_layout *out);
uint32_t kl_state_of(const kl_layout *l, int *flip);
void kl_unrank(uint32_t idx, kl_layout *l, kl_rowinfo *ri);
uint32_t kl_layouts(void);
uint32_t kl_states(void);
uint32_t kl_short_rank(const kl_layout *l);
void kl_unrank_short(uint32_t n, kl_layout *l);
uint32_t kl_rows_of(const kl_layout *l, kl_rowinfo *ri);
uint64_t kl_common_code(const kl_layout *l);
const char *kl_decode(uint64_t code, kl_layout *l);
unsigned kl_type_at(const kl_layout *l, unsigned p);
void kl_move(const kl_layout *l, unsigned ty, unsigned p, unsigned q,
             kl_layout *out);
void kl_apply(const void *ctx, ptb_position *p, const ptb_move *m);
int kl_format_board(const void *ctx, const ptb_position *p, char *buf,
                    size_t cap);
int kl_format_move(const void *ctx, const ptb_position *before,
                   const ptb_move *m, char *buf, size_t cap);
int kl_format_answer(const void *ctx, const ptb_solution *s, char *buf,
                     size_t cap);
int kl_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                   char *buf, size_t cap);
int kl_format_query_json(const void *ctx, const ptb_position *p,
                         char *buf, size_t cap);
int kl_format_move_json(const void *ctx, const ptb_position *before,
                        const ptb_move *m, char *buf, size_t cap);
int kl_parse(const void *ctx, const char *text,
             const char *const *opt, ptb_position out[2],
             unsigned *n, char *err, size_t errcap);
unsigned kl_record_lines(const void *ctx, const char *first_line);

KL_HOT uint32_t kl_fit(unsigned ty, uint32_t free)
{
    const uint8_t *s = kl_fit_shift[ty];
    return free & free >> s[0] & free >> s[1] & free >> s[2]
        & kl_fit_mask[ty];
}

/* The layout a position keeps past its board (parse() and apply() keep
 * it), written and read. */
static inline void kl_keep(ptb_position *p, const kl_layout *s)
{
    memcpy(p->cell + KL_KEEP, s, KL_KEPT_BYTES);
}

static inline void kl_kept_layout(const ptb_position *p, kl_layout *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s, p->cell + KL_KEEP, KL_KEPT_BYTES);
}

#endif /* PTB_MKTABLES */

#endif
