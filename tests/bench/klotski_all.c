/* tests/bench/klotski_all.c: every state of Klotski 4x5 from its
 * description (puzzles/klotski-4x5.txt) against the built-in engine, in
 * each metric.  A measurement for issue 21, not a test (it takes minutes):
 *
 *     build/bench/klotski_all DESCRIBED_DIR [TABLES_DIR]
 *
 * DESCRIBED_DIR holds the description's tables (`tbgen --puzzle
 * klotski-4x5 --out DIR`), TABLES_DIR (default tables) the built-in ones.
 * Each of the description's states (its 29,334,498 layouts up to the
 * mirror image: 14,673,066, as the built-in's) is written as a board
 * (ptb_format_code) and read by the built-in puzzle (ptb_parse), which
 * gives its place in the built-in table; no two may share one.  Then, per
 * metric, each engine's exact distances come from its own BFS (what
 * --verify proves a table against), and for every state the two must be
 * equal and each table's stored value must be that distance mod 3 (0 with
 * no solution).  Prints a line for the states and one per metric; exit
 * status 1 on any difference. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "format/format.h"

static const char *const metric[] = { "step", "line", "move" };

static int fail(const char *what, int rc)
{
    fprintf(stderr, "klotski_all: %s: %s\n", what, ptb_strerror(rc));
    return 2;
}

static unsigned residue(unsigned d)
{
    return d == PTB_UNSOLVABLE ? 0 : d % 3;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    const char *tables = argc > 2 ? argv[2] : "tables";
    ptb_puzzle *g;
    ptb_space *gs, *ks;
    ptb_position pos[2];
    char code[256], err[160];
    unsigned n;
    int status = 0, rc;
    if (!dir) {
        fprintf(stderr, "usage: klotski_all DESCRIBED_DIR [TABLES_DIR]\n");
        return 2;
    }
    if ((rc = ptb_puzzle_lookup(dir, "klotski-4x5", &g)) != PTB_OK)
        return fail(dir, rc);
    /* each state's place among the built-in ones */
    if ((rc = ptb_space_new(g, "step", &gs)) != PTB_OK ||
        (rc = ptb_space_open("klotski", "step", &ks)) != PTB_OK)
        return fail("open", rc);
    uint64_t total = gs->offset[1];
    uint32_t *place = malloc(total * sizeof *place);
    if (!place)
        return fail("map", PTB_ENOMEM);
    for (uint64_t i = 0; i < total; i++) {
        ptb_format_code(gs, 0, i, code, sizeof code);
        if (ptb_parse(ks, code, NULL, pos, &n, err, sizeof err) != PTB_OK ||
            n != 1) {
            fprintf(stderr, "klotski_all: layout %" PRIu64 " (%s): %s\n", i,
                    code, err);
            return 1;
        }
        place[i] = (uint32_t)ptb_global(ks, pos[0].sub, pos[0].idx);
    }
    /* one state for one: the same classes on both sides */
    uint64_t kstates = ks->offset[ks->subtables], twice = 0;
    uint8_t *hit = calloc(kstates, 1);
    if (!hit)
        return fail("map", PTB_ENOMEM);
    for (uint64_t i = 0; i < total; i++)
        twice += hit[place[i]]++ != 0;
    printf("states: %" PRIu64 " described, %" PRIu64 " built in, %" PRIu64
           " built-in states met twice\n", total, kstates, twice);
    if (twice || total != kstates)
        status = 1;
    free(hit);
    ptb_space_close(gs);
    ptb_space_close(ks);
    for (unsigned m = 0; m < 3; m++) {
        ptb_table *gt, *kt;
        ptb_values gvals, kvals;
        uint16_t *gd, *kd;
        uint8_t *gv, *kv;
        const char *what = "";
        ptb_build_opts o;
        ptb_build_opts_init(&o);
        if ((rc = ptb_space_new(g, metric[m], &gs)) != PTB_OK ||
            (rc = ptb_space_open("klotski", metric[m], &ks)) != PTB_OK ||
            (rc = ptb_table_open(gs, dir, &gt)) != PTB_OK ||
            (rc = ptb_table_open(ks, tables, &kt)) != PTB_OK)
            return fail(metric[m], rc);
        uint64_t kn = ks->offset[ks->subtables];
        gv = malloc(total);
        kv = malloc(kn);
        if (!gv || !kv)
            return fail(metric[m], PTB_ENOMEM);
        if ((rc = ptb_distances(gs, &o, 0, NULL, &gvals)) != PTB_OK ||
            (rc = ptb_distances(ks, &o, 0, NULL, &kvals)) != PTB_OK ||
            (rc = ptb_table_decode_all(gt, gv, 0, &what)) != PTB_OK ||
            (rc = ptb_table_decode_all(kt, kv, 0, &what)) != PTB_OK)
            return fail(metric[m], rc);
        gd = gvals.dist;
        kd = kvals.dist;
        uint64_t diff = 0, solvable = 0, first = UINT64_MAX;
        unsigned max = 0;
        for (uint64_t i = 0; i < total; i++) {
            unsigned d = gd[i], k = kd[place[i]];
            if (d != k || gv[i] != residue(d) || kv[place[i]] != residue(k)) {
                diff++;
                if (first == UINT64_MAX)
                    first = i;
            }
            if (d != PTB_UNSOLVABLE) {
                solvable++;
                max = d > max ? d : max;
            }
        }
        printf("%s: %" PRIu64 " states, %" PRIu64 " solvable, at most %u "
               "moves; %" PRIu64 " differences", metric[m], total, solvable,
               max, diff);
        if (diff) {
            ptb_format_code(gs, 0, first, code, sizeof code);
            printf(" (the first: %s)", code);
            status = 1;
        }
        printf("\n");
        fflush(stdout);
        free(gd);
        free(kd);
        free(gv);
        free(kv);
        ptb_table_close(gt);
        ptb_table_close(kt);
        ptb_space_close(gs);
        ptb_space_close(ks);
    }
    free(place);
    ptb_puzzle_free(g);
    return status;
}
