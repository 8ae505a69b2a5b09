/* lib/answer/searched.c: what the searches past a full table share
 * (answer.h): the clock and the limits of a search, and the replay of the
 * line it found through the puzzle's own moves (ida.c, ida_max.c).
 *
 * May touch: its arguments, the heap and the clock.  No I/O.
 */
#include <stdlib.h>
#include <time.h>

#include "answer.h"
#include "core/core.h"

#define CHECK_EVERY 65536u       /* nodes between looks at the clock */

double ptb_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ptb_limits_reached(ptb_limits *l)
{
    return ++l->nodes % CHECK_EVERY == 0 &&
           ((l->max_nodes && l->nodes >= l->max_nodes) ||
            (l->deadline > 0 && ptb_clock() >= l->deadline))
               ? PTB_ELIMIT : PTB_OK;
}

int ptb_replay(const ptb_space *s, unsigned len, ptb_is_step is_step,
               const void *arg, ptb_solution *out)
{
    ptb_move *mv = ptb_move_list(s, sizeof *mv);
    ptb_position cur = out->start;
    unsigned i = 0;
    if (!mv)
        return PTB_ENOMEM;
    for (; i < len; i++) {
        unsigned n = s->p->position_moves
                         ? s->p->position_moves(s->ctx, &cur, mv)
                         : s->p->moves(s->ctx, cur.sub, cur.idx, mv), j;
        for (j = 0; j < n; j++) {
            ptb_position next = cur;
            s->p->apply(s->ctx, &next, &mv[j]);
            if (is_step(arg, i, &cur, &next)) {
                out->move[i] = mv[j];
                out->after[i] = cur = next;
                break;
            }
        }
        if (j == n)
            break;
    }
    free(mv);
    return i == len && (len == 0 || s->p->is_goal(s->ctx, cur.sub, cur.idx))
               ? PTB_OK : PTB_ECORRUPT;
}
