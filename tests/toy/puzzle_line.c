/* tests/toy/puzzle_line.c: a third test-only puzzle (tests/toy/puzzles.def),
 * reversible and without a parity, whose distances go past 254: its table
 * holds the distance mod 3 (packed3), and every surface must answer
 * distances a byte cannot hold (tests/t_toy.sh).
 *
 * Rules.  A token stands on a cell of a track 0..599 and moves one cell
 * back or on; the goal is cell 0, so the distance from cell x is x.  Cells
 * 600..611 are a siding, a track of their own that never reaches the
 * goal: unsolvable.
 *
 * Native text: the cell ("599").  State index: the cell.  A move code is
 * 0 back, 1 on.
 *
 * For --verify's tests, PTB_TEST_LINE_FAULT in the environment breaks the
 * BFS's ops as an engine bug would, and the proof must fail (on a table
 * built with unmoves() broken: the proof of a reversible puzzle takes no
 * unmoves()): "goal" makes goals() give cell 5 too, "missing" makes
 * unmoves() of cell 300 leave out 301, "extra" makes it add 310.
 *
 * May touch: its arguments and that variable only.  No other I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/puzzle.h"

#define TRACK 600u
#define CELLS 612u

static const char *const line_metrics[] = { "step", NULL };

static int line_open(const ptb_puzzle *self, unsigned metric, void **ctx)
{
    (void)self;
    (void)metric;
    *ctx = NULL;
    return PTB_OK;
}

static void line_close(void *ctx) { (void)ctx; }
static uint32_t line_subtables(const void *ctx) { (void)ctx; return 1; }

static uint64_t line_size(const void *ctx, uint32_t sub)
{
    (void)ctx;
    (void)sub;
    return CELLS;
}

/* Whether PTB_TEST_LINE_FAULT is f. */
static int fault(const char *f)
{
    const char *e = getenv("PTB_TEST_LINE_FAULT");
    return e && strcmp(e, f) == 0;
}

static void line_goals(const void *ctx, uint32_t sub,
                       void (*emit)(void *arg, uint64_t idx), void *arg)
{
    (void)ctx;
    (void)sub;
    emit(arg, 0);
    if (fault("goal"))
        emit(arg, 5);
}

static int line_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    (void)ctx;
    (void)sub;
    return idx == 0;
}

static unsigned line_moves(const void *ctx, uint32_t sub, uint64_t idx,
                           ptb_move *out)
{
    unsigned n = 0;
    (void)ctx;
    (void)sub;
    if (idx != 0 && idx != TRACK)
        out[n++] = (ptb_move){ .to = idx - 1, .code = 0 };
    if (idx + 1 != TRACK && idx + 1 != CELLS)
        out[n++] = (ptb_move){ .to = idx + 1, .code = 1 };
    return n;
}

/* Reversible: the states before idx are the states after it. */
static unsigned line_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                             uint64_t *out)
{
    ptb_move mv[2];
    unsigned n = line_moves(ctx, sub, idx, mv), k = 0;
    for (unsigned i = 0; i < n; i++)
        if (idx != 300 || mv[i].to != 301 || !fault("missing"))
            out[k++] = mv[i].to;
    if (idx == 300 && fault("extra"))
        out[k++] = 310;
    return k;
}

static int line_parse(const void *ctx, const char *text,
                      const char *const *opt, ptb_position out[2],
                      unsigned *n, char *err, size_t cap)
{
    unsigned x;
    char end;
    (void)ctx;
    (void)opt;
    if (sscanf(text, "%u %c", &x, &end) != 1 || x >= CELLS)
        return ptb_errf(err, cap, "expected a cell, 0..611");
    memset(out, 0, sizeof *out);
    out[0].idx = x;
    *n = 1;
    return PTB_OK;
}

static void line_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    (void)ctx;
    p->idx = m->to;
}

static int line_format_board(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u", (unsigned)p->idx);
}

static int line_format_move(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap)
{
    (void)ctx;
    (void)before;
    return snprintf(buf, cap, "%s", m->code ? "on" : "back");
}

static int line_format_answer(const void *ctx, const ptb_solution *s,
                              char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u\n", s->distance);
}

const ptb_puzzle ptb_puzzle_line = {
    .name = "line",
    .summary = "test-only: a token walks a track of 600 cells to its start",
    .metrics = line_metrics,
    .reversible = 1,
    .open = line_open,
    .close = line_close,
    .subtables = line_subtables,
    .size = line_size,
    .goals = line_goals,
    .is_goal = line_is_goal,
    .moves = line_moves,
    .unmoves = line_unmoves,
    .parse = line_parse,
    .apply = line_apply,
    .format_board = line_format_board,
    .format_move = line_format_move,
    .format_answer = line_format_answer,
};
