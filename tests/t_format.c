/* tests/t_format.c: format 6 through the public API.
 *
 * Without arguments, on the generated tables: every table states an
 * encoding that fits its values (mod3: packed3 or zstd; mod4: packed1, every
 * state solvable; exact: packed4, sparse or zstd) with the block size
 * FORMAT.md gives; ptb_distance() gives the same
 * distance as a search from scratch (ptb_search) on random swap queries and
 * Klotski layouts; an unsolvable Klotski layout is stored 0 like all its
 * neighbours, and ptb_distance() says PTB_NOTFOUND; forcing an encoding
 * that cannot hold the values is refused.
 *
 * With "--build PUZZLE DIR ENCODING" it builds one table with the encoding
 * forced (tests/t_format.sh uses it for a packed3 table, since tbgen picks
 * the encoding itself). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzletb.h"
#include "tables.h"

static int build(const char *puzzle, const char *dir, const char *enc)
{
    ptb_space *s;
    ptb_build_opts o;
    ptb_table_info in;
    ptb_build_opts_init(&o);
    o.encoding = enc;
    int rc = ptb_space_open(puzzle, NULL, &s);
    if (rc == PTB_OK)
        rc = ptb_build(s, dir, &o, &in);
    if (rc != PTB_OK)
        fprintf(stderr, "t_format: %s: %s\n", puzzle, ptb_strerror(rc));
    ptb_space_close(s);
    return rc == PTB_OK ? 0 : 1;
}

static void encodings_are_stated(void)
{
    static const char *const names[][2] = {
        { "swap", NULL }, { "four", NULL }, { "frog", NULL },
        { "klotski", "step" }, { "klotski", "line" }, { "klotski", "move" }
    };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        tables tb;
        ptb_table_info in;
        if (!tables_open(names[i][0], names[i][1], &tb))
            continue;
        ptb_table_get_info(tb.t, &in);
        int zstd = !strcmp(in.encoding, "zstd") && in.block_values > 0;
        int ok = in.exact ? zstd ||
                                (!strcmp(in.encoding, "packed4") &&
                                 in.block_values == 0 &&
                                 in.max_distance <= 14) ||
                                (!strcmp(in.encoding, "sparse") &&
                                 in.block_values == 65536)
            : in.modulus == 4 ? !strcmp(in.encoding, "packed1") &&
                                    in.block_values == 0 &&
                                    in.solvable == in.states
                              : zstd || (!strcmp(in.encoding, "packed3") &&
                                         in.block_values == 0);
        check(ok && in.modulus == (in.exact ? 0 : in.modulus == 4 ? 4 : 3),
              "%s %s: %s values (modulus %u), encoding %s, %u values a "
              "block", names[i][0], names[i][1] ? names[i][1] : "",
              in.exact ? "exact" : "residue", in.modulus, in.encoding,
              in.block_values);
        tables_close(&tb);
    }
}

/* Random swap queries: ptb_distance against ptb_search. */
static void distance_agrees_with_search(void)
{
    tables tb;
    ptb_solution *sol = malloc(sizeof *sol);
    unsigned bad = 0, done = 0;
    if (!sol || !tables_open("swap", NULL, &tb)) {
        free(sol);
        return;
    }
    srand(7);
    for (unsigned q = 0; q < 200; q++) {
        char text[41];
        ptb_position pos[2];
        unsigned n, k = 0, d;
        for (unsigned i = 0; i < 16; i++)
            k += (text[i + i / 4] = (char)('0' + rand() % 2)) == '1';
        for (unsigned i = 0; i < 16; i++)
            text[20 + i + i / 4] = i < k ? '1' : '0';  /* k black first */
        for (unsigned i = 4; i < 40; i += 5)
            text[i] = '\n';
        text[40] = '\0';
        if (ptb_parse(tb.s, text, NULL, pos, &n, NULL, 0) != PTB_OK)
            continue;
        int rs = ptb_search(tb.s, pos, 1, sol);
        int rd = ptb_distance(tb.t, q % 2 ? tb.r : NULL, &pos[0], &d);
        bad += rs != rd || (rs == PTB_OK && d != sol->distance);
        done++;
    }
    check(done > 20 && bad == 0,
          "ptb_distance equals a search from scratch on %u swap queries "
          "(%u differ)", done, bad);
    free(sol);
    tables_close(&tb);
}

/* An unsolvable Klotski layout: the 2x2 block boxed in by 1x2 pieces that
 * can never turn (doc/guide.md: unsolvable).  Stored 0, like every neighbour. */
static void unsolvable_is_stored_zero(void)
{
    tables tb;
    ptb_position pos[2], start;
    ptb_solution *sol = malloc(sizeof *sol);
    ptb_successor *succ = malloc(PTB_MAX_SUCCESSORS * sizeof *succ);
    unsigned n, v = 99, d = 0, ns = 0, bad = 0;
    if (!sol || !succ || !tables_open("klotski", "step", &tb)) {
        free(sol);
        free(succ);
        return;
    }
    int rc = ptb_parse(tb.s, "AAB. AAB. CCDD EEFF GGHH", NULL, pos, &n, NULL,
                       0);
    start = pos[0];
    check(rc == PTB_OK && ptb_search(tb.s, &start, 1, sol) == PTB_NOTFOUND,
          "a search from scratch finds the boxed-in layout unsolvable");
    rc = ptb_table_value(tb.t, NULL, start.sub, start.idx, &v);
    check(rc == PTB_OK && v == 0, "its stored value is 0 (got %u)", v);
    rc = ptb_distance(tb.t, tb.r, &start, &d);
    check(rc == PTB_NOTFOUND && d == PTB_UNSOLVABLE,
          "ptb_distance says PTB_NOTFOUND (%s)", ptb_strerror(rc));
    rc = ptb_successors(tb.t, tb.r, &start, &d, succ, &ns);
    for (unsigned i = 0; rc == PTB_OK && i < ns; i++) {
        rc = ptb_table_value(tb.t, tb.r, succ[i].after.sub,
                             succ[i].after.idx, &v);
        bad += v != 0 || succ[i].distance != PTB_UNSOLVABLE;
    }
    check(rc == PTB_OK && ns > 0 && bad == 0,
          "all %u successors are stored 0 and unsolvable", ns);
    rc = ptb_solve(tb.t, tb.r, &start, 1, sol);
    check(rc == PTB_NOTFOUND, "ptb_solve says PTB_NOTFOUND (%s)",
          ptb_strerror(rc));
    free(sol);
    free(succ);
    tables_close(&tb);
}

/* Each refused before anything is written (the directory does not exist:
 * an accepted encoding would fail with ENOENT instead). */
static void unfit_encodings_refused(void)
{
    static const char *const cases[][3] = {
        { "four", "packed3", "packed3 forced on exact values" },
        { "four", "lz4", "an unknown encoding" },
        { "frog", "packed4", "packed4 forced on distances over 14 (frog)" },
        { "swap", "packed4", "packed4 forced on mod3 values" },
        { "swap", "sparse", "sparse forced on mod3 values" },
        { "four", "packed1", "packed1 forced on exact values" },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptb_space *s;
        ptb_build_opts o;
        ptb_table_info in;
        ptb_build_opts_init(&o);
        o.encoding = cases[i][1];
        int rc = ptb_space_open(cases[i][0], NULL, &s);
        if (rc == PTB_OK)
            rc = ptb_build(s, "/nonexistent", &o, &in);
        check(rc == PTB_EINVAL, "%s: PTB_EINVAL (%s)", cases[i][2],
              ptb_strerror(rc));
        ptb_space_close(s);
    }
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--build"))
        return build(argv[2], argv[3], argv[4]);
    encodings_are_stated();
    distance_agrees_with_search();
    unsolvable_is_stored_zero();
    unfit_encodings_refused();
    return check_done();
}
