/* lib/puzzles/slide_abstract.c: a described puzzle's boards and their
 * images in its abstractions, for a search past a full table
 * (abstract.h).  A board is the engine's layout; its moves are the
 * engine's successors(), its images ranked by sl_rank(), so the search
 * moves pieces exactly as a table's build does.
 *
 * May touch: its arguments.  No I/O.
 */
#include <string.h>

#include "abstract.h"
#include "slide_engine.h"

size_t sl_board_size(void)
{
    return sizeof(layout);
}

void sl_board_of(const ptb_space *s, const ptb_position *p, sl_board *b)
{
    const sl_ctx *x = s->ctx;
    sl_layout_of(x->d, p->cell, b);
}

unsigned sl_board_kind(const sl_board *b, unsigned c)
{
    return b->at[c] - 1u;
}

int sl_board_is_goal(const ptb_space *s, const sl_board *b)
{
    const sl_ctx *x = s->ctx;
    return sl_is_goal_layout(x->d, b);
}

int sl_board_same(const ptb_space *s, const sl_board *a, const sl_board *b)
{
    const sl_ctx *x = s->ctx;
    return !memcmp(a->at, b->at, x->d->n);
}

/* Where sl_board_moves() puts the boards: next[], at most 'most'. */
typedef struct board_list {
    unsigned char *next;
    uint32_t *code;
    unsigned n, most;
} board_list;

static int add_board(void *arg, const layout *l, uint32_t code)
{
    board_list *bl = arg;
    if (bl->n == bl->most)
        return 1;                        /* (never: most is the bound) */
    memcpy(bl->next + bl->n * sizeof *l, l, offsetof(layout, kinds));
    bl->code[bl->n++] = code;
    return 0;
}

unsigned sl_board_moves(const ptb_space *s, const sl_board *b, void *next,
                        uint32_t *code)
{
    board_list bl = { next, code, 0, s->max_moves };
    successors(s->ctx, b, 0, add_board, &bl);
    return bl.n;
}

void sl_kind_map(const sl_desc *d, unsigned g, const sl_desc *a,
                 uint8_t *map)
{
    for (unsigned k = 0; k < d->nkinds; k++) {
        int ak = d->pattern[g] >> k & 1
                     ? sl_kind_of(a, d->kind[k].shown, d->kind[k].shape)
                     : -1;
        map[k] = (uint8_t)(ak + 1);
    }
}

void sl_board_erase(const ptb_space *s, const uint8_t *map,
                    const sl_board *b, unsigned char *cell)
{
    const sl_ctx *x = s->ctx;
    for (unsigned i = 0; i < b->np; i++) {
        unsigned c = b->anchor[i], k = b->at[c] - 1u;
        if (map[k])
            continue;
        for (uint64_t m = x->d->kind[k].shape << c; m; m &= m - 1)
            cell[ptb_low_bit(m)] = '.';
    }
}

uint64_t sl_board_image(const ptb_space *a, const uint8_t *map,
                        const sl_board *b)
{
    const sl_ctx *x = a->ctx;
    layout l;
    clear_layout(x->d, &l);
    for (unsigned i = 0; i < b->np; i++) {
        unsigned c = b->anchor[i], k = map[b->at[c] - 1u];
        if (k) {
            put_piece(x->d, &l, k - 1, c);
            l.anchor[l.np++] = (uint8_t)c;
        }
    }
    return sl_rank(x, &l, NULL, 0, 0, NULL);
}
