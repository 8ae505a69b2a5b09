/* tests/fuzz/fuzz_table.c: libFuzzer harness for the table reader, fed
 * whole table files; built once per puzzle with -DFUZZ_PUZZLE='"four"'
 * (and -DFUZZ_METRIC='"line"' for another than the default metric).
 *
 * Each input is written as the puzzle's table file in a private temporary
 * folder on $TMPDIR (tests/fuzz/run puts it on /dev/shm when it can): the
 * file is created once and kept open, and each input replaces its whole
 * content with pwrite() and ftruncate(), cheaper than creating and
 * truncating the file every time.  Then the library opens it by path with
 * ptb_table_open(), as any reader would.  When it opens: its info, a
 * reader, a few ptb_table_value() calls (indices taken from the input's
 * last bytes, in range or not), ptb_solve() and ptb_successors() of the
 * fixed query, then close.  Any outcome but a crash, a sanitizer report, a
 * hang, a leak or an out-of-memory is fine: an error code is the expected
 * answer to a hostile file.  The corpus starts from the generated tables
 * (tests/fuzz/run copies them in). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzletb.h"
#include "rewrite.h"

#ifndef FUZZ_METRIC
#define FUZZ_METRIC NULL
#endif

/* A query per puzzle that the harness solves: its text and an option. */
static const struct query {
    const char *puzzle, *text, *option;
} queries[] = {
    { "swap", "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n", NULL },
    { "four", "BWBO\nWBWB\nBWBW\nWBWO\n", "first=B" },
    { "frog", NULL, "n=3" },
    { "klotski", "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\n", NULL },
    { "toy", "37", NULL },               /* tests/toy: build/fuzz/table_toy */
    { "grid", "37 52", NULL },           /* tests/toy: packed1 */
    { "line", "555", NULL },             /* tests/toy: distances past 254 */
};

static ptb_space *space;
static ptb_position query[2];
static unsigned nquery;
static int fd = -1;                    /* the table file, kept open */
static ptb_solution sol;
static ptb_successor next[PTB_MAX_SUCCESSORS];

static void setup(void)
{
    char file[96], err[160];
    const struct query *q = NULL;
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
        if (strcmp(queries[i].puzzle, FUZZ_PUZZLE) == 0)
            q = &queries[i];
    if (!q)
        abort();
    const char *opt[2] = { q->option, NULL };
    if (ptb_space_open(FUZZ_PUZZLE, FUZZ_METRIC, &space) != PTB_OK ||
        ptb_space_file(space, file, sizeof file) < 0 ||
        ptb_parse(space, q->text, opt, query, &nquery, err, sizeof err))
        abort();
    fd = input_file(file);
}

static uint64_t tail64(const uint8_t *data, size_t size, size_t back)
{
    uint64_t v = 0;
    for (size_t i = 0; i < 8 && back + i < size; i++)
        v = v << 8 | data[size - 1 - back - i];
    return v;
}

static void probe(ptb_table *t, const uint8_t *data, size_t size)
{
    ptb_table_info info;
    ptb_reader *r = NULL;
    unsigned v, d, n;
    ptb_table_get_info(t, &info);
    if (ptb_reader_new(t, &r) != PTB_OK)
        return;
    uint64_t pick[4] = { 0, 1, tail64(data, size, 0),
                         tail64(data, size, 8) % (info.states + 1) };
    for (unsigned i = 0; i < 4; i++)
        ptb_table_value(t, r, (uint32_t)(i & 1 ? pick[i] >> 40 : 0), pick[i],
                        &v);
    ptb_table_value(t, NULL, 0, pick[3], &v);   /* a temporary reader */
    ptb_solve(t, r, query, nquery, &sol);
    ptb_successors(t, r, &query[0], &d, next, &n);
    ptb_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!space)
        setup();
    rewrite(fd, data, size);
    ptb_table *t = NULL;
    if (ptb_table_open(space, input_dir, &t) == PTB_OK)
        probe(t, data, size);
    ptb_table_close(t);
    return 0;
}
