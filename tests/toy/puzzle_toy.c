/* tests/toy/puzzle_toy.c: a toy puzzle that exists only in the tests' build
 * (tests/toy/puzzles.def, compiled in with -DPTB_TEST_PUZZLES), to prove
 * that a puzzle with its own query options needs no change to puzzletb.h,
 * tblookup or tbgen: one file plus one registry line.
 *
 * Rules.  A token stands on a cell 0..63 of a row and moves left by 1 or 2
 * cells, or right by 1; the goal is cell 0.  So the distance from x is
 * ceil(x / 2), a formula the test checks against.
 *
 * Native text: the cell as a decimal number ("37").  Options: "from=X"
 * stands for the position (like frog's n), "twice=yes|no" doubles the cell
 * read (to prove options that modify a position reach the puzzle).  Metric
 * "hop" only.  A move code is the step (-2, -1, +1) + 2.
 *
 * May touch: its arguments only.  No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzles/text.h"

#define CELLS 64

static const char *const toy_metrics[] = { "hop", NULL };

static int toy_open(const ptb_puzzle *self, unsigned metric,
                    void **ctx)
{
    (void)self;
    (void)metric;
    *ctx = NULL;
    return PTB_OK;
}

static void toy_close(void *ctx) { (void)ctx; }
static uint32_t toy_subtables(const void *ctx) { (void)ctx; return 1; }

static uint64_t toy_size(const void *ctx, uint32_t sub)
{
    (void)ctx;
    (void)sub;
    return CELLS;
}

static void toy_goals(const void *ctx, uint32_t sub,
                      void (*emit)(void *arg, uint64_t idx), void *arg)
{
    (void)ctx;
    (void)sub;
    emit(arg, 0);
}

static int toy_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    (void)ctx;
    (void)sub;
    return idx == 0;
}

static unsigned toy_moves(const void *ctx, uint32_t sub, uint64_t idx,
                          ptb_move *out)
{
    static const int step[3] = { -2, -1, 1 };
    unsigned n = 0;
    (void)ctx;
    (void)sub;
    for (unsigned i = 0; i < 3; i++) {
        long to = (long)idx + step[i];
        if (to >= 0 && to < CELLS) {
            out[n].to = (uint64_t)to;
            out[n].code = (uint32_t)(step[i] + 2);
            n++;
        }
    }
    return n;
}

/* Before x: x + 2 and x + 1 (moved left), x - 1 (moved right). */
static unsigned toy_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                            uint64_t *out)
{
    static const int back[3] = { 2, 1, -1 };
    unsigned n = 0;
    (void)ctx;
    (void)sub;
    for (unsigned i = 0; i < 3; i++) {
        long from = (long)idx + back[i];
        if (from >= 0 && from < CELLS)
            out[n++] = (uint64_t)from;
    }
    return n;
}

static int read_cell(const char *what, const char *s, size_t len,
                     unsigned *cell, char *err, size_t cap)
{
    unsigned v = 0;
    if (len == 0 || len > 2)
        return ptb_errf(err, cap, "%s: expected a cell 0..63, got '%.*s'",
                        what, (int)len, s);
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return ptb_errf(err, cap, "%s: expected a cell 0..63, got '%.*s'",
                            what, (int)len, s);
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v >= CELLS)
        return ptb_errf(err, cap, "%s: expected a cell 0..63, got '%.*s'",
                        what, (int)len, s);
    *cell = v;
    return PTB_OK;
}

static int toy_parse(const void *ctx, const char *text,
                     const char *const *opt, ptb_position out[2],
                     unsigned *n, char *err, size_t cap)
{
    unsigned cell = 0;
    int rc;
    (void)ctx;
    if (opt[1] && strcmp(opt[1], "yes") && strcmp(opt[1], "no"))
        return ptb_errf(err, cap, "twice: expected yes or no, got '%s'",
                        opt[1]);
    if (opt[0]) {
        rc = read_cell("from", opt[0], strlen(opt[0]), &cell, err, cap);
    } else {
        ptb_token t[2];
        unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, t, 2);
        if (rows != 1)
            return ptb_errf(err, cap, "expected one number, got %u", rows);
        char where[32];
        snprintf(where, sizeof where, "line %u, column %u", t[0].line,
                 t[0].col);
        rc = read_cell(where, t[0].s, t[0].len, &cell, err, cap);
    }
    if (rc != PTB_OK)
        return rc;
    if (opt[1] && !strcmp(opt[1], "yes")) {
        if (2 * cell >= CELLS)
            return ptb_errf(err, cap, "twice: 2 x %u is off the row", cell);
        cell *= 2;
    }
    memset(out, 0, sizeof *out);
    out[0].idx = cell;
    *n = 1;
    return PTB_OK;
}

static unsigned toy_record_lines(const void *ctx, const char *first_line)
{
    (void)ctx;
    (void)first_line;
    return 1;
}

static void toy_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    (void)ctx;
    p->idx = m->to;
}

static int toy_format_board(const void *ctx, const ptb_position *p,
                            char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u", (unsigned)p->idx);
}

static int toy_format_move(const void *ctx, const ptb_position *before,
                           const ptb_move *m, char *buf, size_t cap)
{
    (void)ctx;
    (void)before;
    return snprintf(buf, cap, "%+d", (int)m->code - 2);
}

static int toy_format_answer(const void *ctx, const ptb_solution *s,
                             char *buf, size_t cap)
{
    (void)ctx;
    return snprintf(buf, cap, "%u\n", s->distance);
}

static const ptb_option toy_options[] = {
    { "from", "X", "the token's cell, 0..63", PTB_OPT_POSITION },
    { "twice", "yes|no", "double the cell read", 0 },
    { NULL, NULL, NULL, 0 }
};

const ptb_puzzle ptb_puzzle_toy = {
    .name = "toy",
    .summary = "test-only: a token hops 1 or 2 cells left, 1 right, to 0",
    .metrics = toy_metrics,
    .reversible = 0,
    .options = toy_options,
    .open = toy_open,
    .close = toy_close,
    .subtables = toy_subtables,
    .size = toy_size,
    .goals = toy_goals,
    .is_goal = toy_is_goal,
    .moves = toy_moves,
    .unmoves = toy_unmoves,
    .parse = toy_parse,
    .record_lines = toy_record_lines,
    .apply = toy_apply,
    .format_board = toy_format_board,
    .format_move = toy_format_move,
    .format_answer = toy_format_answer,
    .format_code = NULL,
};
