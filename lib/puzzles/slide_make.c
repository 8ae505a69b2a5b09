/* lib/puzzles/slide_make.c: a space's programme made (puzzle_slide.c has
 * the design): its graph built from the description, or read from a
 * table's ranking with its fold rows, only their frame checked here; and
 * saved as a table stores it (FORMAT.md, "ranking"); the search's moves'
 * classes (sl_make_classes()). */
#include "slide_engine.h"

int sl_save_graph(sl_ctx *x)
{
    const sl_desc *d = x->d;
    size_t at = GRAPH_AT(d->n) + 16 * (size_t)x->nunits;
    size_t len = at + (sl_foldable(x) ? FOLD_BYTES(x->nfrow, x->nfpath) : 0);
    unsigned char *p = x->own_saved = calloc(1, len), *u;
    if (!p)
        return PTB_ENOMEM;
    x->saved = p;
    x->saved_len = len;
    ptb_put_le(p + 4, d->n, 4);
    for (unsigned c = 0; c < d->n; c++)
        ptb_put_le(p + 8 + 4 * c, x->lo[c], 4);
    ptb_put_le(p + 8 + 4 * d->n, x->nunits, 4);
    u = p + GRAPH_AT(d->n);
    ptb_put_le(u, 1, 8);                /* the end */
    for (uint32_t v = EDGES; v < x->nunits; v += node_units(x, v)) {
        const sl_node *nd = &x->graph[v].node;
        ptb_put_le(u + 16 * v, nd->total, 8);
        ptb_put_le(u + 16 * v + 8, nd->choice, 4);
        ptb_put_le(u + 16 * v + 12, nd->frow, 4);
        ptb_put_le(u + 16 * (v + 1), x->graph[v + 1].state[0], 8);
        for (uint32_t m = nd->choice; m; m &= m - 1) {
            const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(m)].edge;
            unsigned char *q = u + 16 * (v + EDGES + ptb_low_bit(m));
            ptb_put_le(q, e->before, 8);
            ptb_put_le(q + 8, e->next, 4);
            ptb_put_le(q + 12, (uint32_t)e->kind, 4);
        }
    }
    if (len == at)
        return PTB_OK;
    p += at;
    ptb_put_le(p, x->nfrow, 4);
    ptb_put_le(p + 4, x->nfpath, 4);
    p += 16;
    for (size_t i = 0; i < x->nfrow; i++, p += 16) {
        ptb_put_le(p, x->frow[i].count, 8);
        ptb_put_le(p + 8, x->frow[i].node, 4);
        ptb_put_le(p + 12, x->frow[i].first, 4);
    }
    ptb_put_le(p + 12, x->nfpath, 4);   /* the one past them */
    p += 16;
    for (size_t j = 0; j < x->nfpath; j++, p += 24) {
        ptb_put_le(p, x->fpath[j].off, 8);
        ptb_put_le(p + 8, x->fpath[j].before, 8);
        ptb_put_le(p + 16, x->fpath[j].end, 4);
        ptb_put_le(p + 20, x->fpath[j].same, 4);
    }
    for (size_t j = 0; j < 2 * x->nfpath; j++, p += 4)
        ptb_put_le(p, x->fguide[j], 4);
    return PTB_OK;
}

/* The fold rows of a graph read from a table (sl_save_graph()), in place
 * when the graph is, else a copy; only their frame checked here, and the
 * root's row (so the space's size); the others when sl_fold_find() first
 * comes to one (check_row()). */
static int load_fold(sl_ctx *x, const unsigned char *p, size_t len)
{
    if (len < 16 || ptb_get_le64(p + 8))
        return PTB_EFORMAT;
    x->nfrow = (uint32_t)ptb_get_le(p, 4);
    x->nfpath = (uint32_t)ptb_get_le(p + 4, 4);
    if (x->nfrow > x->nunits || x->nfpath > MAX_FOLD_PATHS ||
        len != FOLD_BYTES(x->nfrow, x->nfpath))
        return PTB_EFORMAT;
    p += 16;
    if (x->shared) {
        x->frow = (fold_row *)(uintptr_t)p;
        x->fpath = (fold_path *)(uintptr_t)(p + 16 * (x->nfrow + 1));
        x->fguide = (uint32_t *)(uintptr_t)(p + 16 * (x->nfrow + 1) +
                                            24 * x->nfpath);
    } else {
        x->frow = malloc((x->nfrow + 1) * sizeof *x->frow);
        x->fpath = malloc((x->nfpath + 1) * sizeof *x->fpath);
        x->fguide = malloc((2 * x->nfpath + 1) * sizeof *x->fguide);
        if (!x->frow || !x->fpath || !x->fguide)
            return PTB_ENOMEM;
        for (size_t i = 0; i <= x->nfrow; i++, p += 16)
            x->frow[i] = (fold_row){ ptb_get_le64(p),
                                     (uint32_t)ptb_get_le(p + 8, 4),
                                     (uint32_t)ptb_get_le(p + 12, 4) };
        for (size_t j = 0; j < x->nfpath; j++, p += 24)
            x->fpath[j] = (fold_path){ ptb_get_le64(p), ptb_get_le64(p + 8),
                                       (uint32_t)ptb_get_le(p + 16, 4),
                                       (uint32_t)ptb_get_le(p + 20, 4) };
        for (size_t j = 0; j < 2 * x->nfpath; j++, p += 4)
            x->fguide[j] = (uint32_t)ptb_get_le(p, 4);
    }
    if (x->frow[x->nfrow].first != x->nfpath || (!x->nfrow && x->nfpath) ||
        x->frow[x->nfrow].count || x->frow[x->nfrow].node)
        return PTB_EFORMAT;
    if (!x->nfrow)
        return PTB_OK;                  /* left unfolded */
    if (!(x->fok = calloc(x->nfrow / 64 + 1, sizeof *x->fok)))
        return PTB_ENOMEM;
    if (x->graph[x->root].node.frow != 1 ||
        !sl_row_checked(x, 1, x->root, 0))
        return PTB_EFORMAT;
    x->fold = 1;
    x->size = x->frow[0].count;
    return PTB_OK;
}

/* The graph of a stored ranking in its graph form, used where it lies
 * (or, on a big-endian machine or unaligned, a copy): only its frame is
 * checked here, and the root; the nodes, lazily (node_checked()), and the fold
 * rows (load_fold()).  PTB_EFORMAT unless the units' ranges hold. */
static int load_graph(sl_ctx *x, const unsigned char *p, size_t len)
{
    const sl_desc *d = x->d;
    size_t at;
    if (len < GRAPH_AT(d->n) || ptb_get_le(p, 4) ||
        ptb_get_le(p + 4, 4) != d->n)
        return PTB_EFORMAT;
    x->nunits = (uint32_t)ptb_get_le(p + 8 + 4 * d->n, 4);
    at = GRAPH_AT(d->n) + 16 * (size_t)x->nunits;
    if (x->nunits < 2 || x->nunits > MAX_GRAPH || len < at ||
        (sl_foldable(x) ? len == at : len != at))   /* (fold rows: below) */
        return PTB_EFORMAT;
    for (unsigned c = d->n; c-- > 0;) {
        x->lo[c] = (uint32_t)ptb_get_le(p + 8 + 4 * c, 4);
        if (x->lo[c] <= (c + 1 < d->n ? x->lo[c + 1] : 0) ||
            x->lo[c] >= x->nunits)
            return PTB_EFORMAT;
    }
    if (x->lo[d->n - 1] != EDGES)
        return PTB_EFORMAT;
    const unsigned char *u = p + GRAPH_AT(d->n);
    const union { uint16_t i; uint8_t b; } one = { 1 };
    if (one.b && !((uintptr_t)u % _Alignof(sl_unit))) {
        x->graph = (sl_unit *)(uintptr_t)u;
        x->shared = 1;
    } else {
        if (!(x->graph = malloc((size_t)x->nunits * sizeof *x->graph)))
            return PTB_ENOMEM;
        for (uint32_t v = 0; v < x->nunits; v++) {   /* either view */
            x->graph[v].node.total = ptb_get_le64(u + 16 * v);
            x->graph[v].node.choice = (uint32_t)ptb_get_le(u + 16 * v + 8, 4);
            x->graph[v].node.frow = (uint32_t)ptb_get_le(u + 16 * v + 12, 4);
        }
    }
    const sl_node *end = &x->graph[0].node;
    if (end->total != 1 || end->choice || end->frow)
        return PTB_EFORMAT;
    if (!(x->ok = calloc(x->nunits / 64 + 1, sizeof *x->ok)))
        return PTB_ENOMEM;
    x->lazy = 1;
    x->root = x->lo[0];
    if (x->graph[x->root + 1].state[0] != STATE(0, 0, x->full))
        return PTB_EFORMAT;
    x->size = x->graph[x->root].node.total;    /* (folded: load_fold()'s) */
    int rc = len > at ? load_fold(x, p + at, len - at) : PTB_OK;
    return rc != PTB_OK ? rc                   /* (after nfrow, which
                                                  check_node() reads) */
           : node_checked(x, x->root, 0) ? PTB_OK : PTB_EFORMAT;
}

/* The programme's graph (with the ranking it saves), from a table's
 * stored ranking when saved is not NULL. */
int sl_make_table(sl_ctx *x, const layout *start,
                  const unsigned char *saved, size_t saved_len)
{
    const sl_desc *d = x->d;
    uint64_t span = 0;
    x->nleft = 1;
    for (unsigned c = 0; c < d->n; c++) {
        x->before[c] = (uint8_t)x->open;
        x->open += !(d->walls >> c & 1);
        x->black |= (uint64_t)((c / d->w + c % d->w) & 1) << c;
    }
    for (unsigned k = 0; k < d->nkinds; k++) {
        if (d->mixes && !d->kind[k].label) {
            x->free |= 1u << k;
        } else {
            x->most[k] = d->kind[k].count;
            x->radix[k] = x->nleft;
            x->nleft *= x->most[k] + 1;        /* at most 2^25 * 65 */
        }
        if (x->nleft > MAX_LEFT)
            return PTB_EINVAL;
        x->full += x->most[k] * x->radix[k];
        span |= d->kind[k].shape;
    }
    x->radix_e = x->nleft;
    if (d->mixes) {
        x->nleft *= d->min_empty + 1;
        x->full += d->min_empty * x->radix_e;
        if (x->nleft > MAX_LEFT)
            return PTB_EINVAL;
    }
    x->wbits = 64 - (unsigned)__builtin_clzll(span | 1);
    if (x->wbits > 25)
        return PTB_EINVAL;
    x->nwin = (uint64_t)1 << x->wbits;
    x->avail = malloc(x->nleft * sizeof *x->avail);
    if (!x->avail)
        return PTB_ENOMEM;
    /* s counted up digit by digit (kind 0's the lowest), the kinds with a
     * piece left kept as it goes: no division a state */
    unsigned digit[SL_MAX_KINDS] = { 0 };
    uint32_t left = 0;
    for (uint64_t s = 0; s < x->nleft; s++) {
        x->avail[s] = left | x->free;
        for (unsigned k = 0; k < d->nkinds; k++) {
            if (++digit[k] <= x->most[k]) {
                left |= 1u << k;
                break;
            }
            digit[k] = 0;
            left &= ~(1u << k);
        }
    }
    if (x->npar > 1) {
        x->placed = malloc(x->nleft);
        x->flips = calloc(x->nleft, sizeof *x->flips);
        if (!x->placed || !x->flips)
            return PTB_ENOMEM;
        for (uint64_t s = 0; s < x->nleft; s++) {
            uint32_t placed = ~x->avail[s] & UINT32_MAX >> (32 - d->nkinds);
            x->placed[s] = (uint8_t)ptb_popcount(placed);
            for (unsigned k = 0; k < d->nkinds; k++)
                x->flips[s] |= (ptb_popcount(placed >> k >> 1) & 1u) << k;
        }
        x->target = sl_parity_of(x, start);
    }
    /* the graph: a table's stored one, or its nodes found and linked */
    layers ly = { .st = NULL };
    int rc;
    if (saved) {
        rc = load_graph(x, saved, saved_len);
    } else if ((rc = sl_reach_states(x, &ly)) == PTB_OK) {
        rc = sl_link_nodes(x, &ly);
    }
    if (rc == PTB_OK && saved) {        /* what it read, as it was */
        x->saved = saved;
        x->saved_len = saved_len;
    }
    free(ly.st);
    return rc != PTB_OK ? rc : x->size > MAX_SEARCHED ? PTB_EINVAL : PTB_OK;
}

/* Lists the classes of the search's moves (sl_class): each kind's steps
 * each way.  None (the moves piece by piece: successors()) for a
 * component's trie, when a step newly covers more than CLASS_OFFS cells,
 * or with more than three classes a piece (the tile puzzles, a kind a
 * tile: their few movable pieces are found faster one by one). */
void sl_make_classes(sl_ctx *x)
{
    const sl_desc *d = x->d;
    const int delta[4] = { -(int)d->w, (int)d->w, -1, 1 };   /* UDLR */
    x->open_cells = ~d->walls & (d->n < 64 ? ((uint64_t)1 << d->n) - 1
                                           : ~(uint64_t)0);
    x->ncls = 0;
    for (unsigned k = 0; k < d->nkinds; k++) {
        unsigned a = d->kind[k].fit ? ptb_low_bit(d->kind[k].fit) : 0;
        uint64_t last = d->kind[k].shape << a;
        x->below[k] = (uint8_t)(((63u - (unsigned)__builtin_clzll(last)) / d->w -
                                 a / d->w) * d->w);
    }
    for (unsigned k = 0; !x->level && d->nkinds <= CLASS_KINDS &&
                         k < d->nkinds; k++)
        for (unsigned dir = 0; dir < 4; dir++) {
            sl_class *cl = &x->cls[x->ncls];
            *cl = (sl_class){ .kind = (uint8_t)k,
                              .delta = (int8_t)delta[dir] };
            int a0 = -1;
            unsigned i = 0;
            for (uint64_t f = d->kind[k].fit; f; f &= f - 1)
                if (place_of(x, k, ptb_low_bit(f))->step[dir] >= 0) {
                    a0 = (int)ptb_low_bit(f);
                    cl->ok |= (uint64_t)1 << a0;
                }
            if (a0 < 0)
                continue;
            for (uint64_t m = place_of(x, k, (unsigned)a0)->need[dir]; m;
                 m &= m - 1, i++) {
                int off = (int)ptb_low_bit(m) - a0;
                if (i == CLASS_OFFS) {
                    x->ncls = 0;
                    return;
                }
                cl->rs[i] = (uint8_t)(off > 0 ? off : 0);
                cl->ls[i] = (uint8_t)(off < 0 ? -off : 0);
            }
            cl->noff = (uint8_t)i;
            x->ncls += i > 0;           /* (a step covers a new cell) */
        }
    x->cls_offs = 0;
    for (unsigned j = 0; j < x->ncls; j++)
        if (x->cls[j].noff > x->cls_offs)
            x->cls_offs = x->cls[j].noff;
    x->nshift = 0;
    for (unsigned j = 0; j < x->ncls; j++)
        for (unsigned i = 0; i < CLASS_OFFS; i++) {
            sl_class *cl = &x->cls[j];
            unsigned f = 0;
            if (i >= cl->noff) {
                cl->rs[i] = cl->rs[0];
                cl->ls[i] = cl->ls[0];
            }
            while (f < x->nshift && (x->cls_rs[f] != cl->rs[i] ||
                                     x->cls_ls[f] != cl->ls[i]))
                f++;
            if (f == x->nshift) {
                x->cls_rs[f] = cl->rs[i];
                x->cls_ls[f] = cl->ls[i];
                x->nshift++;
            }
            cl->shift[i] = (uint8_t)f;
        }
    if (x->ncls > 3 * d->npieces)       /* (eight's 32 classes for 8 */
        x->ncls = 0;                    /* tiles cost 4 % more) */
}
