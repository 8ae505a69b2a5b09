/* lib/puzzles/puzzle_swap.c: the 4x4 swap puzzle (Luogu P1225 黑白棋游戏, P4289).
 *
 * A board is 16 cells, black (1) or white (0), bit 4r+c for row r, column c
 * (0-based).  A move swaps two edge-adjacent cells of different colours.
 *
 * Tables: one subtable per canonical target.  Relabelings that keep the rules
 * (the 8 symmetries of the square; swapping the colours, which turns k black
 * cells into 16 - k) map every target to the smallest board of its orbit
 * with k <= 8 black cells, so subtables exist for k = 0..8 only.  In a
 * subtable, a board's index is its rank among the C(16,k) boards with k
 * black cells in ascending numeric order.  Subtables are ordered by k, then
 * by target.
 *
 * A query maps its target to the canonical one by some relabeling, maps the
 * start the same way, and keeps that relabeling in the position (aux) so
 * moves found in canonical coordinates are printed in the user's.
 * Position view: cell[0..15] the user's current board, cell[16..31] the
 * user's target, aux = symmetry | 8 when the colours were swapped.
 * Move code: the index of the swapped edge in canonical coordinates.
 *
 * Every table here (ranks, boards by popcount, the 4,324 canonical targets,
 * the symmetries' cell maps) is constant: the PTB_MKTABLES section at the
 * end of this file computes them at build time into build/gen/swap_tables.h,
 * so open() does no work (it cost 77% of a one-query process before).
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define CELLS 16
#define EDGES 24
#define SYMS 8

static const char *const swap_metrics[] = { "swap", NULL };

/* Edges in the fixed move order: by first cell, right neighbour first. */
static const unsigned char edge[EDGES][2] = {
    { 0, 1 },  { 0, 4 },  { 1, 2 },  { 1, 5 },  { 2, 3 },  { 2, 6 },
    { 3, 7 },  { 4, 5 },  { 4, 8 },  { 5, 6 },  { 5, 9 },  { 6, 7 },
    { 6, 10 }, { 7, 11 }, { 8, 9 },  { 8, 12 }, { 9, 10 }, { 9, 13 },
    { 10, 11 }, { 10, 14 }, { 11, 15 }, { 12, 13 }, { 13, 14 }, { 14, 15 }
};

#define TARGETS 4324            /* canonical targets: 8 of 8 ... 1 of 0 */

/* The puzzle's constant tables.  build/gen/swap_tables.h holds them as one
 * const object (made at build time by the PTB_MKTABLES section below), so
 * open() only hands out its address. */
typedef struct swap_ctx {
    uint16_t rank[1 << CELLS];     /* rank of a board among its popcount */
    uint16_t board[1 << CELLS];    /* boards by popcount, then value */
    uint32_t first[CELLS + 2];     /* board[first[k]] is the first with k */
    uint32_t nsub;
    uint16_t target[TARGETS];      /* canonical targets, subtable order */
    uint32_t sub_first[CELLS / 2 + 2]; /* first subtable with k black */
    unsigned char perm[SYMS][CELLS];   /* cell c goes to perm[g][c] */
    unsigned char inv[SYMS][CELLS];
    uint16_t nib[SYMS][4][16];     /* image of row r's 4 bits under g */
    uint64_t offset[TARGETS + 1];  /* first global index of each subtable */
} swap_ctx;

static unsigned transform(const swap_ctx *c, unsigned g, int comp,
                          unsigned mask)
{
    unsigned out = c->nib[g][0][mask & 15] | c->nib[g][1][mask >> 4 & 15] |
                   c->nib[g][2][mask >> 8 & 15] | c->nib[g][3][mask >> 12];
    return comp ? out ^ 0xFFFFu : out;
}

/* The relabeling that takes mask to its canonical form; returns that form. */
static unsigned canonical(const swap_ctx *c, unsigned mask, unsigned *g_out,
                          int *comp_out)
{
    unsigned k = ptb_popcount(mask), best = 0x10000;
    for (int comp = 0; comp < 2; comp++) {
        if ((comp && k < 8) || (!comp && k > 8))
            continue;
        for (unsigned g = 0; g < SYMS; g++) {
            unsigned t = transform(c, g, comp, mask);
            if (t < best) {
                best = t;
                *g_out = g;
                *comp_out = comp;
            }
        }
    }
    return best;
}

#ifdef PTB_MKTABLES
/* ---- the generator's half: computing the constant tables ---- */

/* The 8 symmetries of the square as maps of (row, col). */
static unsigned sym_cell(unsigned g, unsigned c)
{
    unsigned r = c / 4, k = c % 4, nr, nk;
    switch (g) {
    case 0: nr = r;     nk = k;     break;
    case 1: nr = k;     nk = 3 - r; break;  /* rotate 90 */
    case 2: nr = 3 - r; nk = 3 - k; break;  /* rotate 180 */
    case 3: nr = 3 - k; nk = r;     break;  /* rotate 270 */
    case 4: nr = r;     nk = 3 - k; break;  /* mirror left-right */
    case 5: nr = 3 - r; nk = k;     break;  /* mirror top-bottom */
    case 6: nr = k;     nk = r;     break;  /* transpose */
    default: nr = 3 - k; nk = 3 - r; break; /* anti-transpose */
    }
    return 4 * nr + nk;
}

/* Cell maps of the symmetries and their row tables. */
static void init_symmetries(swap_ctx *c)
{
    for (unsigned g = 0; g < SYMS; g++) {
        for (unsigned i = 0; i < CELLS; i++) {
            c->perm[g][i] = (unsigned char)sym_cell(g, i);
            c->inv[g][sym_cell(g, i)] = (unsigned char)i;
        }
        for (unsigned r = 0; r < 4; r++)
            for (unsigned v = 0; v < 16; v++)
                for (unsigned b = 0; b < 4; b++)
                    if (v >> b & 1)
                        c->nib[g][r][v] |=
                            (uint16_t)(1u << c->perm[g][4 * r + b]);
    }
}

/* Boards grouped by popcount, ascending within a group, and their ranks. */
static void init_ranks(swap_ctx *c)
{
    uint32_t count[CELLS + 2] = { 0 };
    for (unsigned m = 0; m < (1u << CELLS); m++)
        count[ptb_popcount(m) + 1]++;
    for (unsigned k = 1; k <= CELLS + 1; k++)
        count[k] += count[k - 1];
    memcpy(c->first, count, sizeof c->first);
    for (unsigned m = 0; m < (1u << CELLS); m++) {
        unsigned k = ptb_popcount(m);
        c->rank[m] = (uint16_t)(count[k] - c->first[k]);
        c->board[count[k]++] = (uint16_t)m;
    }
}

/* True when no relabeling takes mask (k <= 8 black) below itself. */
static int is_canonical(const swap_ctx *c, unsigned mask)
{
    int both = ptb_popcount(mask) == CELLS / 2;
    for (unsigned g = 1; g < SYMS; g++)
        if (transform(c, g, 0, mask) < mask)
            return 0;
    for (unsigned g = 0; both && g < SYMS; g++)
        if (transform(c, g, 1, mask) < mask)
            return 0;
    return 1;
}

/* Computes every table; 0 when the number of targets is not TARGETS. */
static int swap_build(swap_ctx *c)
{
    init_symmetries(c);
    init_ranks(c);
    for (unsigned k = 0; k <= CELLS / 2; k++) {
        c->sub_first[k] = c->nsub;
        for (uint32_t i = c->first[k]; i < c->first[k + 1]; i++)
            if (is_canonical(c, c->board[i]) && c->nsub++ < TARGETS)
                c->target[c->nsub - 1] = c->board[i];
    }
    c->sub_first[CELLS / 2 + 1] = c->nsub;
    if (c->nsub != TARGETS)
        return 0;
    for (unsigned i = 0; i < TARGETS; i++) {
        unsigned k = ptb_popcount(c->target[i]);
        c->offset[i + 1] = c->offset[i] + c->first[k + 1] - c->first[k];
    }
    return 1;
}

static int swap_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    swap_ctx *c = calloc(1, sizeof *c);
    (void)metric;
    *out = c;
    if (!c)
        return PTB_ENOMEM;
    return swap_build(c) ? PTB_OK : PTB_EINVAL;
}

static void swap_close(void *ctx) { free(ctx); }
#else
#include "swap_tables.h"           /* static const swap_ctx swap_tables */

/* Nothing to build: every process shares the tables in the binary. */
static int swap_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    (void)metric;
    *out = (void *)&swap_tables;
    return PTB_OK;
}

static void swap_close(void *ctx) { (void)ctx; }
#endif

static uint32_t swap_subtables(const void *ctx)
{
    return ((const swap_ctx *)ctx)->nsub;
}

static const uint64_t *swap_offsets(const void *ctx)
{
    return ((const swap_ctx *)ctx)->offset;
}

static unsigned sub_k(const swap_ctx *c, uint32_t sub)
{
    return ptb_popcount(c->target[sub]);
}

static uint64_t swap_size(const void *ctx, uint32_t sub)
{
    const swap_ctx *c = ctx;
    unsigned k = sub_k(c, sub);
    return c->first[k + 1] - c->first[k];
}

static unsigned board_of(const swap_ctx *c, uint32_t sub, uint64_t idx)
{
    return c->board[c->first[sub_k(c, sub)] + idx];
}

static void swap_goals(const void *ctx, uint32_t sub,
                       void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const swap_ctx *c = ctx;
    emit(arg, c->rank[c->target[sub]]);
}

static int swap_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const swap_ctx *c = ctx;
    return board_of(c, sub, idx) == c->target[sub];
}

static unsigned swap_moves(const void *ctx, uint32_t sub, uint64_t idx,
                           ptb_move *out)
{
    const swap_ctx *c = ctx;
    unsigned b = board_of(c, sub, idx), n = 0;
    for (unsigned e = 0; e < EDGES; e++) {
        unsigned bits = 1u << edge[e][0] | 1u << edge[e][1];
        if (ptb_popcount(b & bits) != 1)
            continue;
        out[n].to = c->rank[b ^ bits];
        out[n++].code = e;
    }
    return n;
}

/* Same states as swap_moves, in another order: each set bit of hdiff (vdiff)
 * marks a cell whose right (lower) neighbour has the other colour. */
static unsigned swap_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                             uint64_t *out)
{
    const swap_ctx *c = ctx;
    unsigned b = board_of(c, sub, idx), n = 0;
    unsigned hdiff = (b ^ b >> 1) & 0x7777u, vdiff = (b ^ b >> 4) & 0x0FFFu;
    for (; hdiff; hdiff &= hdiff - 1)
        out[n++] = c->rank[b ^ (3u << __builtin_ctz(hdiff))];
    for (; vdiff; vdiff &= vdiff - 1)
        out[n++] = c->rank[b ^ (0x11u << __builtin_ctz(vdiff))];
    return n;
}

/* A move carries one black piece to a neighbouring cell, so it changes
 * the parity of the black pieces on odd cells (row + column odd, 0x5A5A);
 * a start and its target differ there by the distance mod 2. */
static unsigned swap_parity(const void *ctx, uint32_t sub, uint64_t idx)
{
    const swap_ctx *c = ctx;
    return ptb_popcount((board_of(c, sub, idx) ^ c->target[sub]) & 0x5A5Au) &
           1u;
}

/* ---- queries ---- */

/* Reads 8 rows of 4 digits 0/1, start then target, through the shared
 * reader (lines, "row/row", "row row"; P4289's blank line between the
 * boards is skipped) into start and target masks. */
static int read_boards(const char *text, unsigned board[2], char *err,
                       size_t cap)
{
    ptb_token row[9];
    char what[16];
    unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, row, 9);
    board[0] = board[1] = 0;
    if (rows == 0)
        return ptb_errf(err, cap, "empty input: expected 8 rows of 4 digits "
                        "(start, then target)");
    for (unsigned r = 0; r < rows && r < 8; r++) {
        const ptb_token *t = &row[r];
        for (unsigned i = 0; i < t->len && i < 4; i++)
            if (t->s[i] != '0' && t->s[i] != '1') {
                ptb_text_char(t->s + i, t->len - i, what, sizeof what);
                return ptb_errf(err, cap, "line %u, column %u: expected 0 "
                                "or 1, got %s", t->line,
                                ptb_text_column(t, i), what);
            }
        if (t->len != 4)
            return ptb_errf(err, cap, "line %u, column %u: expected 4 digits "
                            "0/1, got %u", t->line, t->col, t->len);
        for (unsigned col = 0; col < 4; col++)
            if (t->s[col] == '1')
                board[r / 4] |= 1u << (4 * (r % 4) + col);
    }
    if (rows > 8)
        return ptb_errf(err, cap, "line %u, column %u: expected 8 rows of 4 "
                        "digits, found more", row[8].line, row[8].col);
    if (rows < 8)
        return ptb_errf(err, cap, "line %u: expected 8 rows of 4 digits, "
                        "found %u", row[rows - 1].line, rows);
    return PTB_OK;
}

static int swap_parse(const void *ctx, const char *text,
                      const char *const *opt, ptb_position out[2],
                      unsigned *n, char *err, size_t cap)
{
    const swap_ctx *c = ctx;
    unsigned b[2], g = 0;
    int comp = 0;
    (void)opt;
    int rc = read_boards(text, b, err, cap);
    if (rc != PTB_OK)
        return rc;
    if (ptb_popcount(b[0]) != ptb_popcount(b[1]))
        return ptb_errf(err, cap, "start has %u black pieces (1) but target "
                        "has %u: no sequence of swaps can match them",
                        ptb_popcount(b[0]), ptb_popcount(b[1]));
    unsigned t = canonical(c, b[1], &g, &comp);
    unsigned k = ptb_popcount(t);
    uint32_t lo = c->sub_first[k], hi = c->sub_first[k + 1];
    while (lo < hi) {          /* targets of one k are ascending */
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->target[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    ptb_position *p = &out[0];
    p->sub = lo;
    p->idx = c->rank[transform(c, g, comp, b[0])];
    p->aux = g | (comp ? 8u : 0u);
    for (unsigned i = 0; i < CELLS; i++) {
        p->cell[i] = (unsigned char)(b[0] >> i & 1);
        p->cell[CELLS + i] = (unsigned char)(b[1] >> i & 1);
    }
    *n = 1;
    return PTB_OK;
}

/* The user's cells of a canonical edge, lower one first. */
static void user_cells(const swap_ctx *c, const ptb_position *p, unsigned e,
                       unsigned *a, unsigned *b)
{
    unsigned x = c->inv[p->aux & 7][edge[e][0]];
    unsigned y = c->inv[p->aux & 7][edge[e][1]];
    *a = x < y ? x : y;
    *b = x < y ? y : x;
}

static void swap_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    unsigned a, b;
    user_cells(ctx, p, m->code, &a, &b);
    unsigned char t = p->cell[a];
    p->cell[a] = p->cell[b];
    p->cell[b] = t;
    p->idx = m->to;
}

/* Batch input: 8 rows, as 8 lines, 2 lines of 4 ("row/row/row/row"), or
 * one line of 8. */
static unsigned swap_record_lines(const void *ctx, const char *first_line)
{
    (void)ctx;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, 8);
}

static int swap_format_board(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap)
{
    size_t len = 0;
    (void)ctx;
    for (unsigned r = 0; r < 4; r++)
        ptb_catf(buf, cap, &len, "%s%u%u%u%u", r ? "\n" : "",
                 p->cell[4 * r], p->cell[4 * r + 1], p->cell[4 * r + 2],
                 p->cell[4 * r + 3]);
    return (int)len;
}

/* "abcd": swap cell (a,b) with cell (c,d), rows and columns from 1. */
static int swap_format_move(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap)
{
    unsigned a, b;
    user_cells(ctx, before, m->code, &a, &b);
    size_t len = 0;
    ptb_catf(buf, cap, &len, "%u%u%u%u", a / 4 + 1, a % 4 + 1, b / 4 + 1,
             b % 4 + 1);
    return (int)len;
}

static int swap_format_answer(const void *ctx, const ptb_solution *s,
                              char *buf, size_t cap)
{
    size_t len = 0;
    char mv[16];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        swap_format_move(ctx, i ? &s->after[i - 1] : &s->start, &s->move[i],
                         mv, sizeof mv);
        ptb_catf(buf, cap, &len, "%s\n", mv);
    }
    return (int)len;
}

/* ---- codes and JSON ---- */

/* The rows of a 16-bit board (bit 4r+c) joined by '/'. */
static void cat_rows(char *buf, size_t cap, size_t *len, unsigned mask)
{
    for (unsigned i = 0; i < CELLS; i++)
        ptb_catf(buf, cap, len, "%s%u", i && i % 4 == 0 ? "/" : "",
                 mask >> i & 1);
}

/* A table state as an input: "start/target", 8 rows joined by '/' (the
 * canonical target of the subtable, the start in its coordinates). */
static int swap_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                            char *buf, size_t cap)
{
    const swap_ctx *c = ctx;
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    if (sub >= c->nsub || idx >= swap_size(ctx, sub))
        return 0;
    cat_rows(buf, cap, &len, board_of(c, sub, idx));
    ptb_catf(buf, cap, &len, "/");
    cat_rows(buf, cap, &len, c->target[sub]);
    return (int)len;
}

/* The user's board (cells from 'at') as a mask. */
static unsigned view_mask(const ptb_position *p, unsigned at)
{
    unsigned m = 0;
    for (unsigned i = 0; i < CELLS; i++)
        m |= (unsigned)(p->cell[at + i] & 1) << i;
    return m;
}

/* "start" and "target" (4 rows, '\n' between them) and "code". */
static int swap_format_query_json(const void *ctx, const ptb_position *p,
                                  char *buf, size_t cap)
{
    unsigned start = view_mask(p, 0), target = view_mask(p, CELLS);
    size_t len = 0;
    (void)ctx;
    if (cap)
        buf[0] = '\0';
    const char *key[2] = { "start", "target" };
    for (unsigned b = 0; b < 2; b++) {
        ptb_catf(buf, cap, &len, "%s\"%s\":\"", b ? "," : "", key[b]);
        for (unsigned i = 0; i < CELLS; i++)
            ptb_catf(buf, cap, &len, "%s%u", i && i % 4 == 0 ? "\\n" : "",
                     (b ? target : start) >> i & 1);
        ptb_catf(buf, cap, &len, "\"");
    }
    ptb_catf(buf, cap, &len, ",\"code\":\"");
    cat_rows(buf, cap, &len, start);
    ptb_catf(buf, cap, &len, "/");
    cat_rows(buf, cap, &len, target);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

/* The black piece (1) moves from its cell to the white (0) one. */
static int swap_format_move_json(const void *ctx, const ptb_position *before,
                                 const ptb_move *m, char *buf, size_t cap)
{
    unsigned a, b;
    size_t len = 0;
    user_cells(ctx, before, m->code, &a, &b);
    unsigned from = before->cell[a] ? a : b, to = from == a ? b : a;
    const char *dir = to == from + 1 ? "right" : to + 1 == from ? "left"
                    : to > from ? "down" : "up";
    ptb_catf(buf, cap, &len, "{\"piece\":\"1\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"direction\":\"%s\",\"cells\":[[%u,%u],[%u,%u]]}",
             from / 4 + 1, from % 4 + 1, to / 4 + 1, to % 4 + 1, dir,
             a / 4 + 1, a % 4 + 1, b / 4 + 1, b % 4 + 1);
    return (int)len;
}

const ptb_puzzle ptb_puzzle_swap = {
    .name = "swap",
    .summary = "4x4 swap puzzle (P1225 黑白棋游戏): swap adjacent cells "
               "to reach a target board",
    .metrics = swap_metrics,
    .reversible = 1,
    .open = swap_open,
    .close = swap_close,
    .subtables = swap_subtables,
    .size = swap_size,
    .offsets = swap_offsets,
    .goals = swap_goals,
    .is_goal = swap_is_goal,
    .moves = swap_moves,
    .unmoves = swap_unmoves,
    .parity = swap_parity,
    .parse = swap_parse,
    .record_lines = swap_record_lines,
    .apply = swap_apply,
    .format_board = swap_format_board,
    .format_move = swap_format_move,
    .format_answer = swap_format_answer,
    .format_code = swap_format_code,
    .format_query_json = swap_format_query_json,
    .format_move_json = swap_format_move_json,
};

#ifdef PTB_MKTABLES
/* ---- the generator: prints build/gen/swap_tables.h ---- */
#include "mktables.h"

static void print_cells(const char *field, unsigned char v[SYMS][CELLS])
{
    printf("    .%s = {\n", field);
    for (unsigned g = 0; g < SYMS; g++) {
        printf("        {");
        for (unsigned i = 0; i < CELLS; i++)
            printf(" %u,", v[g][i]);
        printf(" },\n");
    }
    printf("    },\n");
}

int main(void)
{
    swap_ctx *c;
    if (swap_open(NULL, 0, (void **)&c) != PTB_OK) {
        fprintf(stderr, "mktables_swap: out of memory or TARGETS wrong\n");
        return 1;
    }
    printf("/* Made by build/gen/mktables_swap from lib/puzzles/puzzle_swap.c. */"
           "\nstatic const swap_ctx swap_tables = {\n");
    MK_FIELD(c, rank, 1u << CELLS);
    MK_FIELD(c, board, 1u << CELLS);
    MK_FIELD(c, first, CELLS + 2);
    printf("    .nsub = %lu,\n", (unsigned long)c->nsub);
    MK_FIELD(c, target, TARGETS);
    MK_FIELD(c, sub_first, CELLS / 2 + 2);
    print_cells("perm", c->perm);
    print_cells("inv", c->inv);
    printf("    .nib = {\n");
    for (unsigned g = 0; g < SYMS; g++) {
        printf("        {\n");
        for (unsigned r = 0; r < 4; r++) {
            printf("            {");
            for (unsigned v = 0; v < 16; v++)
                printf(" %u,", c->nib[g][r][v]);
            printf(" },\n");
        }
        printf("        },\n");
    }
    printf("    },\n");
    MK_FIELD(c, offset, TARGETS + 1);
    printf("};\n");
    swap_close(c);
    return ferror(stdout) ? 1 : 0;
}
#endif
