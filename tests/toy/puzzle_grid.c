/* tests/toy/puzzle_grid.c: a second test-only puzzle (tests/toy/puzzles.def),
 * reversible and with a parity, so that the tests' build has a small table
 * in the packed1 encoding (tables/FORMAT.md) for tests/t_toy.sh and the
 * table reader's fuzzer (build/fuzz/table_grid).
 *
 * Rules.  A token stands on a cell of a 100 x 100 grid and moves one cell
 * up, down, left or right; the goal is the top left cell.  So the distance
 * from row r, column c (from 0) is r + c, which the test checks against,
 * and every move changes (r + c) mod 2: the parity.
 *
 * Native text: "R C", the row and the column (0..99).  State index: 100 R
 * + C.  A move code is the direction: 0 up, 1 down, 2 left, 3 right.
 *
 * May touch: its arguments only.  No I/O.
 */
#include <stdio.h>
#include <string.h>

#include "core/puzzle.h"

#define SIDE 100u

static const char *const grid_metrics[] = { "step", NULL };

static int grid_open(const ptb_puzzle *self, unsigned metric,
                     void **ctx)
{
    (void)self;
    (void)metric;
    *ctx = NULL;
    return PTB_OK;
}

static void grid_close(void *ctx) { (void)ctx; }
static uint32_t grid_subtables(const void *ctx) { (void)ctx; return 1; }

static uint64_t grid_size(const void *ctx, uint32_t sub)
{
    (void)ctx;
    (void)sub;
    return SIDE * SIDE;
}

static void grid_goals(const void *ctx, uint32_t sub,
                       void (*emit)(void *arg, uint64_t idx), void *arg)
{
    (void)ctx;
    (void)sub;
    emit(arg, 0);
}

static int grid_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    (void)ctx;
    (void)sub;
    return idx == 0;
}

static unsigned grid_moves(const void *ctx, uint32_t sub, uint64_t idx,
                           ptb_move *out)
{
    unsigned r = (unsigned)(idx / SIDE), c = (unsigned)(idx % SIDE), n = 0;
    (void)ctx;
    (void)sub;
    if (r > 0)
        out[n++] = (ptb_move){ .to = idx - SIDE, .code = 0 };
    if (r + 1 < SIDE)
        out[n++] = (ptb_move){ .to = idx + SIDE, .code = 1 };
    if (c > 0)
        out[n++] = (ptb_move){ .to = idx - 1, .code = 2 };
    if (c + 1 < SIDE)
        out[n++] = (ptb_move){ .to = idx + 1, .code = 3 };
    return n;
}

/* Reversible: the states before idx are the states after it. */
static unsigned grid_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                             uint64_t *out)
{
    ptb_move mv[4];
    unsigned n = grid_moves(ctx, sub, idx, mv);
    for (unsigned i = 0; i < n; i++)
        out[i] = mv[i].to;
    return n;
}

static unsigned grid_parity(const void *ctx, uint32_t sub, uint64_t idx)
{
    (void)ctx;
    (void)sub;
    return (unsigned)(idx / SIDE + idx % SIDE) & 1u;
}

static int grid_parse(const void *ctx, const char *text,
                      const char *const *opt, ptb_position out[2],
                      unsigned *n, char *err, size_t cap)
{
    unsigned r, c;
    char end;
    (void)ctx;
    (void)opt;
    if (sscanf(text, "%u %u %c", &r, &c, &end) != 2 || r >= SIDE ||
        c >= SIDE)
        return ptb_errf(err, cap, "expected a row and a column, 0..99");
    memset(out, 0, sizeof *out);
    out[0].idx = SIDE * r + c;
    *n = 1;
    return PTB_OK;
}

static void grid_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    (void)ctx;
    p->idx = m->to;
}

static int grid_format_board(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u %u", (unsigned)(p->idx / SIDE),
                    (unsigned)(p->idx % SIDE));
}

static int grid_format_move(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap)
{
    static const char *const dir[4] = { "up", "down", "left", "right" };
    (void)ctx;
    (void)before;
    return snprintf(buf, cap, "%s", dir[m->code & 3]);
}

static int grid_format_answer(const void *ctx, const ptb_solution *s,
                              char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u\n", s->distance);
}

const ptb_puzzle ptb_puzzle_grid = {
    .name = "grid",
    .summary = "test-only: a token steps on a 100x100 grid to its corner",
    .metrics = grid_metrics,
    .reversible = 1,
    .open = grid_open,
    .close = grid_close,
    .subtables = grid_subtables,
    .size = grid_size,
    .goals = grid_goals,
    .is_goal = grid_is_goal,
    .moves = grid_moves,
    .unmoves = grid_unmoves,
    .parity = grid_parity,
    .parse = grid_parse,
    .apply = grid_apply,
    .format_board = grid_format_board,
    .format_move = grid_format_move,
    .format_answer = grid_format_answer,
};
