/* puzzles.h: the puzzles layer's registry (registry.c) as the layers
 * above it see it, besides the public header: the built-in puzzles and a
 * loaded puzzle's stored index. */
#ifndef PTB_PUZZLES_H
#define PTB_PUZZLES_H

#include "core/core.h"

/* Every registered puzzle, declared from the registry.  A test build adds
 * its own puzzles with -DPTB_TEST_PUZZLES='"FILE.def"' (tests/t_toy.sh). */
#define PTB_PUZZLE(n) extern const ptb_puzzle ptb_puzzle_##n;
#include "puzzles.def"
#ifdef PTB_TEST_PUZZLES
#include PTB_TEST_PUZZLES
#endif
#undef PTB_PUZZLE

/* Gives a loaded puzzle a copy of bytes as the index its table stores
 * (puzzle.h, stored).  PTB_OK; PTB_ENOMEM. */
int ptb_puzzle_keep(ptb_puzzle *p, const void *bytes, size_t len);

#endif
