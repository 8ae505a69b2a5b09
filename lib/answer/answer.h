/* answer.h: what the answer layer's files share (the walk's step, for
 * the analysis). */
#ifndef PTB_ANSWER_H
#define PTB_ANSWER_H

#include "format/format.h"

/* ---- walk.c --------------------------------------------------------- */

/* The first of the n moves mv out of a state of subtable sub whose
 * successor's stored value is want, into *i (n when none).  PTB_OK, or
 * the error reading a value. */
int ptb_first_at(const ptb_table *t, ptb_reader *r, uint32_t sub,
                 const ptb_move *mv, unsigned n, unsigned want, unsigned *i);

#endif
