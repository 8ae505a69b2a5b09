/* common/registry.c: the list of built-in puzzles, expanded from puzzles.def,
 * and the accessors of the public header that read it. */
#include <string.h>

#include "puzzle.h"

#define PTB_PUZZLE(n) &ptb_puzzle_##n,
static const ptb_puzzle *const registry[] = {
#include "puzzles.def"
#ifdef PTB_TEST_PUZZLES
#include PTB_TEST_PUZZLES      /* a test build's own puzzles */
#endif
};
#undef PTB_PUZZLE

unsigned ptb_puzzle_count(void)
{
    return (unsigned)(sizeof registry / sizeof registry[0]);
}

const ptb_puzzle *ptb_puzzle_at(unsigned i)
{
    return i < ptb_puzzle_count() ? registry[i] : NULL;
}

const ptb_puzzle *ptb_puzzle_find(const char *name)
{
    for (unsigned i = 0; name && i < ptb_puzzle_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *ptb_puzzle_name(const ptb_puzzle *p) { return p->name; }
const char *ptb_puzzle_summary(const ptb_puzzle *p) { return p->summary; }

const char *ptb_puzzle_metric(const ptb_puzzle *p, unsigned i)
{
    for (unsigned k = 0; p->metrics[k]; k++)
        if (k == i)
            return p->metrics[k];
    return NULL;
}

const ptb_option *ptb_puzzle_option(const ptb_puzzle *p, unsigned i)
{
    for (unsigned k = 0; p->options && p->options[k].name; k++)
        if (k == i)
            return &p->options[k];
    return NULL;
}
