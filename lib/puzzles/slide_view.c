/* lib/puzzles/slide_view.c: the engine's states as a notation over it
 * sees them (slide.h, "A notation over the engine"): a state's layout, a
 * layout's state, and a table move on a drawing.  They read a context
 * the engine's open() made and change nothing.
 *
 * May touch: its arguments only.  No I/O. */
#include "slide_engine.h"

void sl_puzzle_free(ptb_puzzle *p)
{
    if (p) {
        sl_free((sl_desc *)p->data);
        free(p);
    }
}

const sl_desc *sl_ctx_desc(const void *ctx)
{
    return ((const sl_ctx *)ctx)->d;
}

void sl_ctx_layout(const void *ctx, uint64_t idx, uint8_t *at)
{
    const sl_ctx *x = ctx;
    layout l;
    sl_unrank(x, idx, &l, NULL);
    memcpy(at, l.at, x->d->n);
}

uint64_t sl_ctx_state(const void *ctx, const uint8_t *at, uint32_t *aux)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    layout l;
    clear_layout(d, &l);
    *aux = 0;
    for (unsigned a = 0; a < d->n; a++) {
        unsigned k = at[a] - 1u;
        if (!at[a])
            continue;
        if (k >= d->nkinds || !(d->kind[k].fit >> a & 1) ||
            (l.occ & d->kind[k].shape << a))
            return UINT64_MAX;
        put_piece(d, &l, k, a);
        l.anchor[l.np++] = (uint8_t)a;
    }
    uint64_t idx = sl_rank_kept(x, &l);
    if (idx != UINT64_MAX)
        *aux = sl_mirrored(x, &l);
    return idx;
}

uint32_t sl_ctx_move(const void *ctx, const ptb_position *p,
                     const ptb_move *m)
{
    return sl_native(ctx, p, m->code) & 0xFFFFu;
}
