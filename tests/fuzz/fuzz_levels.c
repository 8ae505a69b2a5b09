/* tests/fuzz/fuzz_levels.c: libFuzzer harness for the levels table reader
 * (ptb_levels_open and what reads an open table), fed whole files as
 * rush-4x4's levels table, whose generated table (tables/) seeds the
 * corpus (tests/fuzz/run).
 *
 * Each input is written over the file (rewrite.h), the table is opened,
 * and when it opens: every level read and formatted in both forms, the
 * levels of each number of moves found and drawn from, and the hardest
 * level played (ptb_level_solve: its component searched).  An error code
 * is the expected answer to a hostile file (a level's block is checked
 * when it is read: PTB_ECORRUPT there too); a crash, a sanitizer report,
 * a hang, a leak, or a level that passed its block's checks and then
 * breaks a rule they promise (the moves the statistics give its place,
 * hardest first, the histogram's sum the component's size) is a finding
 * (abort()). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzletb.h"
#include "rewrite.h"

#define FAMILY "rush-4x4"

static int fd = -1;

/* Reads every level, as a reader of the table would. */
static void probe(const ptb_levels *l)
{
    static char buf[1 << 16];
    size_t n = ptb_levels_count(l), first, got, pick[4];
    unsigned before = ~0u;
    for (size_t i = 0; i < n; i++) {
        ptb_level v;
        uint64_t sum = 0;
        int rc = ptb_levels_get(l, i, &v);
        if (rc == PTB_ECORRUPT || rc == PTB_ENOMEM)
            continue;            /* its block refused */
        if (rc != PTB_OK || v.moves > before ||
            strlen(v.board) > PTB_LEVEL_CELLS)
            abort();
        for (unsigned d = 0; d <= v.moves; d++)
            sum += v.histogram[d];
        ptb_levels_range(l, v.moves, v.moves, &first, &got);
        if (sum != v.states || i < first || i >= first + got)
            abort();
        before = v.moves;
        ptb_format_level(l, i, buf, sizeof buf);
        ptb_format_level_json(l, i, buf, sizeof buf);
    }
    for (unsigned m = 0; n && m <= PTB_LEVEL_MOVES + 1; m++) {
        ptb_levels_range(l, m, m, &first, &got);
        if (got && first + got > n)
            abort();
        ptb_levels_draw(l, first, got, m, 4, pick);
    }
    if (n) {
        ptb_puzzle *p;
        ptb_space *s;
        ptb_solution *sol = malloc(sizeof *sol);
        if (sol && ptb_level_solve(l, 0, &p, &s, sol) == PTB_OK) {
            ptb_space_close(s);
            ptb_puzzle_free(p);
        }
        free(sol);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0)
        fd = input_file(FAMILY ".levels.mdb");
    rewrite(fd, data, size);
    ptb_levels *l = NULL;
    if (ptb_levels_open(input_dir, FAMILY, &l) == PTB_OK)
        probe(l);
    ptb_levels_close(l);
    return 0;
}
