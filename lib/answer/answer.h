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

/* ---- family.c ------------------------------------------------------- */

struct sl_desc;
/* The text a family was solved from, as given. */
const char *ptb_family_text(const ptb_family *f);
/* The description of a family's text (its family lines left out), when
 * it is one a family may have: PTB_OK, *out to sl_free(); the errors of
 * ptb_family_solve() with err; PTB_ENOMEM. */
int ptb_family_desc(const char *text, struct sl_desc **out, char *err,
                    size_t errcap);

#endif
