/* lib/puzzles/puzzle_four.c: four-in-a-row on a 4x4 board (codevs 1004).
 *
 * Rules.  Seven black (B) and seven white (W) pieces and two empty cells (O)
 * fill a 4x4 board.  A move slides a piece of the side to move into an
 * edge-adjacent empty cell; the sides alternate and either may start.  A
 * board with four pieces of one colour in a row, a column or a diagonal is a
 * goal: the game ends there, so a goal has no moves and is never the state
 * before a move.  The distance is the least number of moves (plies).
 *
 * Symmetry.  Swapping the colours together with the side to move keeps the
 * rules and the goals, so a board with white to move is as far from a goal
 * as the same board with the colours swapped and black to move.  The table
 * keeps the positions with black to move only: half of the 823,680, with
 * no constant data for it.  Measured: the table went from 360,448 bytes
 * (3.50 bits a position) to 253,952 (4.93 bits a board: the values of a
 * board's two sides, neighbours before, compressed well together).
 * Position view: aux = 1 when the user's side to move is white, so the
 * user's board is the table's with the colours swapped (moves keep their
 * cells; boards and moves print swapped back).
 *
 * The square's 8 symmetries keep the rules too, and with them the 411,840
 * boards fall into 51,660 orbits (7.97x fewer).  tests/bench/symmetry
 * (build/bench/symmetry four, run on the table of all 823,680 positions)
 * compressed the values as the tables do (zstd 19, blocks of 16,384):
 * 179,751 bytes for every position, 11,884 for one value per orbit of all
 * 16 maps, so the table would shrink to some 30 KB and a query would read
 * at most the 4 blocks of the whole table.  That part does not pay here: a
 * dense orbit index needs a list of the orbits' boards (51,660 x 2 bytes
 * with one range per empty pair), about 100 KB of constant data in every
 * binary and in the shared library, as much as the table would save; and
 * values read in place (packed4, format 3) make the blocks free.  Worth revisiting
 * with an orbit index that needs no list.
 *
 * State space.  One subtable of 16!/(7!7!2!) = 411,840 states, the boards
 * with black to move:
 *     idx = pair * 3432 + blacks
 * where cells are numbered row * 4 + col from the top left (cell i is bit i
 * of a 16-bit mask), pair = hi*(hi-1)/2 + lo ranks the two empty cells
 * lo < hi (0..119), and blacks is the colex rank (0..3431) of the black
 * pieces among the 14 cells left once the empty cells are removed.  A move
 * by black leads to a board with white to move, stored with the colours
 * swapped.  Moves are not reversible in this graph, and the table keeps
 * exact distances.  The rank tables (rank14, unrank14 and the pairs) are
 * made at build time (PTB_MKTABLES, at the end of this file), so open()
 * does no work.
 *
 * Native text.  Input: the codevs board, 4 rows of 4 characters B, W or O
 * (either case), read by the shared reader (lib/puzzles/text.c): 4 lines, or one
 * line with '/' (as format_code prints it) or blanks between the rows.
 * A move code is from * 16 + to (cells); a move prints as its colour and its
 * cells as row and column, 1-based: "B 24-14" slides the black piece of row 2,
 * column 4 up to row 1, column 4.  The answer is the number of moves and a
 * newline (a goal board prints 0, where the codevs solution prints 1).
 *
 * May touch: its arguments and its context only.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define CELLS 16
#define BOARD_MASK 0xffffu
#define PAIRS 120u            /* C(16, 2) places for the empty cells */
#define BLACK_RANKS 3432u     /* C(14, 7) places for the black pieces */
#define BOARDS (PAIRS * BLACK_RANKS)
#define STATES BOARDS        /* black to move */

/* The ten lines of four: rows, columns, both diagonals. */
static const uint16_t lines[10] = {
    0x000f, 0x00f0, 0x0f00, 0xf000,
    0x1111, 0x2222, 0x4444, 0x8888,
    0x8421, 0x1248
};

/* Edge neighbours of each cell: up, down, left, right (-1: off the board). */
static const signed char neighbours[CELLS][4] = {
    { -1,  4, -1,  1 }, { -1,  5,  0,  2 }, { -1,  6,  1,  3 },
    { -1,  7,  2, -1 }, {  0,  8, -1,  5 }, {  1,  9,  4,  6 },
    {  2, 10,  5,  7 }, {  3, 11,  6, -1 }, {  4, 12, -1,  9 },
    {  5, 13,  8, 10 }, {  6, 14,  9, 11 }, {  7, 15, 10, -1 },
    {  8, -1, -1, 13 }, {  9, -1, 12, 14 }, { 10, -1, 13, 15 },
    { 11, -1, 14, -1 }
};

static const char side_char[2] = { 'B', 'W' };

/* The constant tables: one const object in build/gen/four_tables.h, made at
 * build time by the PTB_MKTABLES section below; open() hands out its
 * address. */
typedef struct four_ctx {
    uint16_t rank14[1u << 14];     /* colex rank of a 7-of-14 mask */
    uint16_t unrank14[BLACK_RANKS];
    uint8_t pair_lo[PAIRS], pair_hi[PAIRS];
} four_ctx;

/* A decoded state: masks of the black and white pieces, the side to move. */
typedef struct four_state {
    unsigned black, white;
    unsigned side;
} four_state;

static const char *const metrics[] = { "move", NULL };

/* ---- ranking ---------------------------------------------------------- */

#ifdef PTB_MKTABLES
static int four_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    if (metric != 0)
        return PTB_EINVAL;
    four_ctx *c = malloc(sizeof *c);
    if (!c)
        return PTB_ENOMEM;
    unsigned r = 0;
    for (unsigned m = 0; m < (1u << 14); m++) {
        c->rank14[m] = 0;
        if (ptb_popcount(m) == 7) {   /* ascending masks: colex order */
            c->rank14[m] = (uint16_t)r;
            c->unrank14[r++] = (uint16_t)m;
        }
    }
    unsigned p = 0;
    for (unsigned hi = 1; hi < CELLS; hi++)
        for (unsigned lo = 0; lo < hi; lo++, p++) {
            c->pair_lo[p] = (uint8_t)lo;
            c->pair_hi[p] = (uint8_t)hi;
        }
    *out = c;
    return PTB_OK;
}

static void four_close(void *ctx)
{
    free(ctx);
}
#else
#include "four_tables.h"           /* static const four_ctx four_tables */

/* Nothing to build: every process shares the tables in the binary. */
static int four_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    if (metric != 0)
        return PTB_EINVAL;
    *out = (void *)&four_tables;
    return PTB_OK;
}

static void four_close(void *ctx)
{
    (void)ctx;
}
#endif

/* Removes bits lo < hi from a 16-bit mask, closing the gaps. */
static unsigned squeeze(unsigned m, unsigned lo, unsigned hi)
{
    unsigned below = m & ((1u << lo) - 1);
    unsigned mid = (m >> (lo + 1)) & ((1u << (hi - lo - 1)) - 1);
    return below | mid << lo | (m >> (hi + 1)) << (hi - 1);
}

/* The inverse of squeeze(): opens zero bits at lo < hi. */
static unsigned expand(unsigned m, unsigned lo, unsigned hi)
{
    unsigned below = m & ((1u << lo) - 1);
    unsigned mid = (m >> lo) & ((1u << (hi - lo - 1)) - 1);
    return below | mid << (lo + 1) | (m >> (hi - 1)) << (hi + 1);
}

static unsigned lowest_bit(unsigned m)
{
    unsigned i = 0;
    while (!(m >> i & 1))
        i++;
    return i;
}

/* The table index of a position; white to move is stored with the colours
 * swapped. */
static uint64_t encode(const four_ctx *c, const four_state *s)
{
    unsigned empty = ~(s->black | s->white) & BOARD_MASK;
    unsigned black = s->side ? s->white : s->black;
    unsigned lo = lowest_bit(empty);
    unsigned hi = lowest_bit(empty & (empty - 1));
    unsigned pair = hi * (hi - 1) / 2 + lo;
    return (uint64_t)pair * BLACK_RANKS + c->rank14[squeeze(black, lo, hi)];
}

static void decode(const four_ctx *c, uint64_t idx, four_state *s)
{
    unsigned board = (unsigned)idx;
    unsigned pair = board / BLACK_RANKS;
    unsigned lo = c->pair_lo[pair], hi = c->pair_hi[pair];
    s->side = 0;
    s->black = expand(c->unrank14[board % BLACK_RANKS], lo, hi);
    s->white = ~(s->black | 1u << lo | 1u << hi) & BOARD_MASK;
}

static int board_is_goal(unsigned black, unsigned white)
{
    for (unsigned i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if ((black & lines[i]) == lines[i] || (white & lines[i]) == lines[i])
            return 1;
    return 0;
}

/* ---- state space ------------------------------------------------------ */

static uint32_t four_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

static uint64_t four_size(const void *ctx, uint32_t sub)
{
    (void)ctx;
    return sub == 0 ? STATES : 0;
}

static void four_goals(const void *ctx, uint32_t sub,
                       void (*emit)(void *arg, uint64_t idx), void *arg)
{
    four_state s;
    if (sub != 0)
        return;
    for (uint64_t idx = 0; idx < STATES; idx++) {
        decode(ctx, idx, &s);
        if (board_is_goal(s.black, s.white))
            emit(arg, idx);
    }
}

static int four_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    four_state s;
    if (sub != 0 || idx >= STATES)
        return 0;
    decode(ctx, idx, &s);
    return board_is_goal(s.black, s.white);
}

/* The pieces of one side, as a mask. */
static unsigned *side_pieces(four_state *s, unsigned side)
{
    return side ? &s->white : &s->black;
}

static unsigned four_moves(const void *ctx, uint32_t sub, uint64_t idx,
                           ptb_move *out)
{
    four_state s;
    unsigned n = 0;
    if (sub != 0 || idx >= STATES)
        return 0;
    decode(ctx, idx, &s);
    if (board_is_goal(s.black, s.white))
        return 0;
    unsigned empty = ~(s.black | s.white) & BOARD_MASK;
    for (unsigned to = 0; to < CELLS; to++) {
        if (!(empty >> to & 1))
            continue;
        for (unsigned k = 0; k < 4; k++) {
            int from = neighbours[to][k];
            four_state t = s;
            unsigned *mine = side_pieces(&t, s.side);
            if (from < 0 || !(*mine >> from & 1))
                continue;
            *mine ^= 1u << from | 1u << to;
            t.side = !s.side;
            out[n].to = encode(ctx, &t);
            out[n++].code = (uint32_t)from * CELLS + to;
        }
    }
    return n;
}

static unsigned four_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                             uint64_t *out)
{
    four_state s;
    unsigned n = 0;
    if (sub != 0 || idx >= STATES)
        return 0;
    decode(ctx, idx, &s);
    unsigned mover = !s.side;   /* the side that made the last move */
    unsigned empty = ~(s.black | s.white) & BOARD_MASK;
    for (unsigned from = 0; from < CELLS; from++) {
        if (!(empty >> from & 1))
            continue;
        for (unsigned k = 0; k < 4; k++) {
            int to = neighbours[from][k];
            four_state p = s;
            unsigned *moved = side_pieces(&p, mover);
            if (to < 0 || !(*moved >> to & 1))
                continue;
            *moved ^= 1u << from | 1u << to;
            if (board_is_goal(p.black, p.white))
                continue;       /* the game would have ended there */
            p.side = mover;
            out[n++] = encode(ctx, &p);
        }
    }
    return n;
}

/* ---- queries ---------------------------------------------------------- */

/* Reads the 4 rows of the board into cells (B, W or O each, either case)
 * through the shared reader: 4 lines, "BWBO/WBWB/BWBW/WBWO" as format_code
 * prints it, or rows separated by blanks. */
static int read_board(const char *text, char cells[CELLS], char *err,
                      size_t errcap)
{
    ptb_token row[5];
    char what[16];
    unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, row, 5);
    if (rows == 0)
        return ptb_errf(err, errcap, "empty input (expected 4 rows of 4 "
                        "characters B, W or O)");
    for (unsigned r = 0; r < rows && r < 4; r++) {
        const ptb_token *t = &row[r];
        for (unsigned col = 0; col < t->len && col < 4; col++) {
            char ch = ptb_upper(t->s[col]);
            if (ch != 'B' && ch != 'W' && ch != 'O') {
                ptb_text_char(t->s + col, t->len - col, what, sizeof what);
                return ptb_errf(err, errcap, "line %u, column %u: unexpected "
                                "%s (expected B, W or O)", t->line,
                                ptb_text_column(t, col), what);
            }
            cells[r * 4 + col] = ch;
        }
        if (t->len != 4)
            return ptb_errf(err, errcap, "line %u, column %u: expected 4 "
                            "characters, got %u", t->line, t->col, t->len);
    }
    if (rows > 4)
        return ptb_errf(err, errcap, "line %u, column %u: one row too many "
                        "(expected 4)", row[4].line, row[4].col);
    if (rows < 4)
        return ptb_errf(err, errcap, "line %u: expected 4 rows, got %u",
                        row[rows - 1].line, rows);
    return PTB_OK;
}

static int four_parse(const void *ctx, const char *text,
                      const char *const *opt, ptb_position out[2],
                      unsigned *n, char *err, size_t errcap)
{
    char cells[CELLS];
    four_state s = { 0, 0, 0 };
    unsigned count[3] = { 0, 0, 0 };
    int first = 0;
    if (opt[0]) {
        first = ptb_upper(opt[0][0]);
        if ((first != 'B' && first != 'W') || opt[0][1])
            return ptb_errf(err, errcap, "first: expected B or W, got '%s'",
                            opt[0]);
    }
    int rc = read_board(text, cells, err, errcap);
    if (rc != PTB_OK)
        return rc;
    for (unsigned i = 0; i < CELLS; i++) {
        if (cells[i] == 'B')
            s.black |= 1u << i;
        else if (cells[i] == 'W')
            s.white |= 1u << i;
        count[cells[i] == 'B' ? 0 : cells[i] == 'W' ? 1 : 2]++;
    }
    if (count[0] != 7 || count[1] != 7 || count[2] != 2)
        return ptb_errf(err, errcap,
                        "board has %u B, %u W and %u O "
                        "(expected 7 B, 7 W and 2 O)",
                        count[0], count[1], count[2]);
    *n = 0;
    for (unsigned side = 0; side < 2; side++) {
        if (first && first != side_char[side])
            continue;
        s.side = side;
        memset(&out[*n], 0, sizeof out[*n]);
        out[*n].sub = 0;
        out[*n].idx = encode(ctx, &s);
        out[*n].aux = side;
        ++*n;
    }
    return PTB_OK;
}

/* Batch input: a board is 4 lines, or one line of its 4 rows. */
static unsigned four_record_lines(const void *ctx, const char *first_line)
{
    (void)ctx;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, 4);
}

static void four_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    (void)ctx;
    p->idx = m->to;
    p->aux ^= 1;            /* the sides alternate */
}

/* The user's board: the table's, with the colours swapped when white is
 * to move (aux 1). */
static void user_board(const void *ctx, uint64_t idx, uint32_t aux,
                       four_state *s)
{
    decode(ctx, idx < STATES ? idx : 0, s);
    if (aux & 1) {
        unsigned t = s->black;
        s->black = s->white;
        s->white = t;
        s->side = 1;
    }
}

/* Writes the board as rows of B/W/O, 'sep' between rows. */
static int board_text(const void *ctx, uint64_t idx, uint32_t aux, char sep,
                      char *buf, size_t cap)
{
    four_state s;
    char text[CELLS + 4];
    size_t len = 0, n = 0;
    user_board(ctx, idx, aux, &s);
    for (unsigned i = 0; i < CELLS; i++) {
        if (i > 0 && i % 4 == 0)
            text[n++] = sep;
        text[n++] = s.black >> i & 1 ? 'B' : s.white >> i & 1 ? 'W' : 'O';
    }
    text[n] = 0;
    ptb_catf(buf, cap, &len, "%s", text);
    return (int)len;
}

static int four_format_board(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap)
{
    return board_text(ctx, p->idx, p->aux, '\n', buf, cap);
}

static int four_format_move(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap)
{
    four_state s;
    size_t len = 0;
    unsigned from = m->code / CELLS % CELLS, to = m->code % CELLS;
    user_board(ctx, before->idx, before->aux, &s);
    char colour = s.black >> from & 1 ? 'B' : s.white >> from & 1 ? 'W' : '?';
    ptb_catf(buf, cap, &len, "%c %u%u-%u%u", colour, from / 4 + 1,
             from % 4 + 1, to / 4 + 1, to % 4 + 1);
    return (int)len;
}

/* The codevs output: the number of moves.  Nothing for an unsolvable
 * position (distance PTB_UNSOLVABLE), which codevs never asks. */
static int four_format_answer(const void *ctx, const ptb_solution *s,
                              char *buf, size_t cap)
{
    size_t len = 0;
    (void)ctx;
    if (cap)
        buf[0] = 0;
    if (s->distance <= PTB_MAX_DISTANCE)
        ptb_catf(buf, cap, &len, "%u\n", s->distance);
    return (int)len;
}

/* "BWBO/WBWB/BWBW/WBWO B": the rows, then the side to move (a table state
 * always has black to move). */
static int four_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                            char *buf, size_t cap)
{
    size_t len = (size_t)board_text(ctx, idx, 0, '/', buf, cap);
    (void)sub;
    ptb_catf(buf, cap, &len, " %c", side_char[0]);
    return (int)len;
}

/* A query may end with the side to move, as format_code prints it
 * ("BWBO/WBWB/BWBW/WBWO B"): a last word of one letter B or W (either case)
 * after a blank.  It is the 'first' option said in the text; giving both
 * is fine when they agree. */
static int four_parse_code(const void *ctx, const char *text,
                           const char *const *opt, ptb_position out[2],
                           unsigned *n, char *err, size_t errcap)
{
    size_t len = strlen(text);
    while (len > 0 && strchr(" \t\r\n", text[len - 1]))
        len--;
    char side = len >= 2 ? text[len - 1] : 0;
    side = side == 'b' || side == 'w' ? (char)(side - 'a' + 'A') : side;
    if ((side != 'B' && side != 'W') || !strchr(" \t", text[len - 2]))
        return four_parse(ctx, text, opt, out, n, err, errcap);
    char given = opt[0] && (opt[0][0] == 'b' || opt[0][0] == 'w')
               ? (char)(opt[0][0] - 'a' + 'A') : opt[0] ? opt[0][0] : 0;
    if (given && (given != side || opt[0][1]))
        return ptb_errf(err, errcap, "the position says %c moves, but "
                        "first is '%s'", side, opt[0]);
    char *board = malloc(len);
    char first[2] = { side, 0 };
    const char *o[PTB_MAX_OPTIONS + 1] = { first, NULL };
    if (!board)
        return ptb_errf(err, errcap, "out of memory");
    for (len -= 2; len > 0 && strchr(" \t", text[len - 1]);)
        len--;
    memcpy(board, text, len);
    board[len] = '\0';
    int rc = four_parse(ctx, board, o, out, n, err, errcap);
    free(board);
    return rc;
}

/* "side" (the side to move) and "code" (the board's rows and the side). */
static int four_format_query_json(const void *ctx, const ptb_position *p,
                                  char *buf, size_t cap)
{
    char board[32];
    size_t len = 0;
    char side = side_char[p->aux & 1];
    board_text(ctx, p->idx, p->aux, '/', board, sizeof board);
    ptb_catf(buf, cap, &len, "\"to_move\":\"%c\",\"code\":\"%s %c\"",
             side, board, side);
    return (int)len;
}

static int four_format_move_json(const void *ctx, const ptb_position *before,
                                 const ptb_move *m, char *buf, size_t cap)
{
    char text[16];
    size_t len = 0;
    unsigned from = m->code / CELLS % CELLS, to = m->code % CELLS;
    four_format_move(ctx, before, m, text, sizeof text);
    const char *dir = to == from + 1 ? "right" : to + 1 == from ? "left"
                    : to > from ? "down" : "up";
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"direction\":\"%s\"}", text[0], from / 4 + 1,
             from % 4 + 1, to / 4 + 1, to % 4 + 1, dir);
    return (int)len;
}

static const ptb_option four_options[] = {
    { "first", "B|W", "the side that moves first (default: either)", 0 },
    { NULL, NULL, NULL, 0 }
};

const ptb_puzzle ptb_puzzle_four = {
    .name = "four",
    .summary = "four-in-a-row on a 4x4 board, sides alternate (codevs 1004)",
    .metrics = metrics,
    .reversible = 0,
    .options = four_options,
    .open = four_open,
    .close = four_close,
    .subtables = four_subtables,
    .size = four_size,
    .goals = four_goals,
    .is_goal = four_is_goal,
    .moves = four_moves,
    .unmoves = four_unmoves,
    .parse = four_parse_code,
    .record_lines = four_record_lines,
    .apply = four_apply,
    .format_board = four_format_board,
    .format_move = four_format_move,
    .format_answer = four_format_answer,
    .format_code = four_format_code,
    .format_query_json = four_format_query_json,
    .format_move_json = four_format_move_json,
};

#ifdef PTB_MKTABLES
/* ---- the generator: prints build/gen/four_tables.h ---- */
#include "mktables.h"

int main(void)
{
    four_ctx *c;
    if (four_open(NULL, 0, (void **)&c) != PTB_OK) {
        fprintf(stderr, "mktables_four: out of memory\n");
        return 1;
    }
    printf("/* Made by build/gen/mktables_four from lib/puzzles/puzzle_four.c. */"
           "\nstatic const four_ctx four_tables = {\n");
    MK_FIELD(c, rank14, 1u << 14);
    MK_FIELD(c, unrank14, BLACK_RANKS);
    MK_FIELD(c, pair_lo, PAIRS);
    MK_FIELD(c, pair_hi, PAIRS);
    printf("};\n");
    four_close(c);
    return ferror(stdout) ? 1 : 0;
}
#endif
