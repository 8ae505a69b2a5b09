/* tests/fuzz/fuzz_patterns.c: libFuzzer harness for a search guided by
 * pattern tables (ptb_patterns_open, ptb_patterns_solve), fed whole files
 * as the first group's pattern table of tests/fuzz/tiles.txt, the
 * 8-puzzle in two groups; the second group's table is the one make
 * fuzz-build generated (build/fuzz/tables/fz-tiles-pattern-2.mdb).
 *
 * The harness runs from the top of the tree (tests/fuzz/run).  At the
 * first input it answers a fixed position of 31 moves (one of the two farthest) from the generated
 * tables; then each input is written over the first table (as
 * fuzz_table.c does), the tables are opened, and the same position is
 * searched with a limit of nodes.  An error code is the expected answer
 * to a hostile file; a crash, a sanitizer report, a hang, a leak, or an
 * answer of another length than the intact tables' (abort(): a table
 * that passed its checks and gave a wrong bound) is a finding.  The
 * corpus starts from the generated first table (tests/fuzz/run). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "puzzletb.h"
#include "rewrite.h"

#define DESCRIPTION "tests/fuzz/tiles.txt"
#define GENERATED "build/fuzz/tables/fz-tiles-pattern-"
#define QUERY "8672543.1"

static ptb_puzzle *puzzle;
static ptb_space *space;
static char dir[64], path[2][192];
static ptb_position query[2];
static unsigned nquery, length;
static int fd = -1;                    /* the first table, kept open */
static ptb_solution sol;
static const ptb_search_opts limit = { 1, 100000, 0 };

static void cleanup(void)
{
    if (fd >= 0)
        close(fd);
    unlink(path[0]);
    unlink(path[1]);
    rmdir(dir);
}

/* copies the generated table of group g (1 or 2) to path[g - 1] */
static void copy_generated(unsigned g)
{
    char from[96], buf[65536];
    snprintf(from, sizeof from, GENERATED "%u.mdb", g);
    FILE *in = fopen(from, "rb"), *out = fopen(path[g - 1], "wb");
    size_t n;
    if (!in || !out)
        abort();
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            abort();
    if (ferror(in) || fclose(in) || fclose(out))
        abort();
}

static void setup(void)
{
    char err[200];
    ptb_patterns *pt = NULL;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/fuzz_patterns.XXXXXX", tmp);
    if (ptb_puzzle_load_file(DESCRIPTION, &puzzle, err, sizeof err) ||
        ptb_space_new(puzzle, NULL, &space) ||
        ptb_parse(space, QUERY, NULL, query, &nquery, err, sizeof err) ||
        !mkdtemp(dir))
        abort();
    for (unsigned g = 1; g <= 2; g++)
        snprintf(path[g - 1], sizeof path[0], "%s/fz-tiles-pattern-%u.mdb",
                 dir, g);
    atexit(cleanup);
    copy_generated(1);
    copy_generated(2);
    if (ptb_patterns_open(space, dir, &pt) ||
        ptb_patterns_solve(pt, query, nquery, &limit, &sol, NULL))
        abort();
    length = sol.distance;
    ptb_patterns_close(pt);
    if ((fd = open(path[0], O_RDWR | O_TRUNC | O_CLOEXEC)) < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!space)
        setup();
    rewrite(fd, data, size);
    ptb_patterns *pt = NULL;
    if (ptb_patterns_open(space, dir, &pt) == PTB_OK &&
        ptb_patterns_solve(pt, query, nquery, &limit, &sol, NULL) == PTB_OK &&
        sol.distance != length)
        abort();
    ptb_patterns_close(pt);
    return 0;
}
