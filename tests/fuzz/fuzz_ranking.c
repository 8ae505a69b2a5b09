/* tests/fuzz/fuzz_ranking.c: libFuzzer harness for a described puzzle's
 * stored ranking (tables/FORMAT.md, "ranking"): the record a reader makes
 * the counting programme's graph from instead of searching for its nodes,
 * or a component's trie, untrusted like the rest of a table.
 *
 * The input's first byte picks one of the descriptions below (one of them
 * its own mirror image, so its states are pairs of mirror images); the rest is
 * the ranking, given to the puzzle as if read from its table.  The space
 * must open from the true ranking (the seeds hold them).  When it opens
 * from any input, every state is unranked and its moves ranked, each
 * move's index must lie in the space, and the goals are listed.  A crash,
 * a sanitizer report, a hang or a leak is a finding; a refusal is not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "puzzles/puzzles.h"

static const char *const desc[] = {   /* a seed's first byte: its index */
    /* a mix of shapes, a wall, a goal for the 2x2 block */
    "name m\ndistinct A\ncovers mixes 1\nstart AAB/AAB/C.D/EE#\n"
    "goal \?\?\?/\?\?\?/AA\?/AA\?\n",
    /* a tile puzzle: the parity in the programme's state */
    "name t\ndistinct all\ncovers reachable\nstart 12#/345/67.\n"
    "goal 12#/345/67.\n",
    /* every layout of a few pieces, two metrics */
    "name l\nmetrics step move\nstart AB./CC./D..\ngoal \?\?A/\?\?\?/\?\?\?\n",
    /* its own mirror image: a state for a layout and its mirror image */
    "name f\nstart a.b./ccd./..d.\ngoal \?\?\?\?/\?\?\?\?/\?cc\?\n",
    /* components, ranked by a trie: cars along their axes ... */
    "name j\nmetrics line\ndistinct A\naxis all\ncovers reachable\n"
    "start .BB.C/AA.DC/..ED./FFE..\ngoal \?\?\?\?\?/\?\?\?AA/\?\?\?\?\?/\?\?\?\?\?\n",
    /* ... and interchangeable pieces that move freely, walls */
    "name r\nmetrics move\ncovers reachable\nstart ab#/c../..#\n"
    "goal \?\?#/\?a\?/\?\?#\n",
};
#define NDESC (sizeof desc / sizeof desc[0])

static void check_goal(void *arg, uint64_t idx)
{
    if (idx >= *(const uint64_t *)arg)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptb_puzzle *p, *q;
    ptb_space *s, *truth;
    static ptb_move mv[PTB_MAX_SUCCESSORS];     /* (any space's moves) */
    static uint64_t back[PTB_MAX_SUCCESSORS];
    if (size < 1)
        return 0;
    if (ptb_puzzle_load(desc[data[0] % NDESC], &p, NULL, 0) ||
        ptb_puzzle_load(desc[data[0] % NDESC], &q, NULL, 0))
        abort();
    if (ptb_puzzle_keep(p, data + 1, size - 1) != PTB_OK ||
        ptb_space_new(q, NULL, &truth) != PTB_OK)
        abort();
    size_t len;
    const unsigned char *own = ptb_space_index(truth, &len);
    int rc = ptb_space_new(p, NULL, &s);
    if (len == size - 1 && !memcmp(own, data + 1, len) && rc != PTB_OK)
        abort();                         /* the true ranking must open */
    if (rc == PTB_OK) {
        uint64_t n = s->p->size(s->ctx, 0);
        for (uint64_t i = 0; i < n && i < 4096; i++) {
            unsigned k = s->p->moves(s->ctx, 0, i, mv);
            unsigned b = s->p->unmoves(s->ctx, 0, i, back);
            for (unsigned j = 0; j < k; j++)
                if (mv[j].to >= n)
                    abort();
            for (unsigned j = 0; j < b; j++)
                if (back[j] >= n)
                    abort();
            (void)s->p->is_goal(s->ctx, 0, i);
        }
        s->p->goals(s->ctx, 0, check_goal, &n);
        ptb_space_close(s);
    } else if (rc != PTB_EFORMAT && rc != PTB_EINVAL) {
        abort();
    }
    ptb_space_close(truth);
    ptb_puzzle_free(p);
    ptb_puzzle_free(q);
    return 0;
}
