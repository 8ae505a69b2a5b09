/* lib/puzzles/slide_rank.c: the hot path of a described puzzle: a
 * layout ranked (the programme's graph, the fold's rows, the trie) and
 * unranked, and its moves listed and ranked from its path, for the BFS
 * and the walk (puzzle_slide.c has the design). */
#include "slide_engine.h"

/* Puts into path p (may be NULL) at cell c: node v, rank r so far, same. */
static inline void set_path(prefix *p, unsigned c, uint32_t v, uint64_t r,
                            int same)
{
    if (p) {
        p->node[c] = v;
        p->r[c] = r;
        p->same[c] = (uint8_t)same;
    }
}

/* The completions of the choices before at[]'s own at each free cell of
 * c0..c1-1, following the graph from node *v, which gets the node reached;
 * UINT64_MAX when the graph does not hold at[] (a piece on a covered cell,
 * or a choice without completions).  A node's edges are in the order of
 * its choices' bits, so at[c]'s is the number of bits below its own. */
static inline uint64_t walk_(const sl_ctx *x, const uint8_t *at,
                             uint32_t *v, unsigned c0, unsigned c1, int lazy)
{
    uint64_t r = 0;
    uint32_t u = *v;
    for (unsigned c = c0; c < c1; c++) {
        unsigned own = at[c];           /* 0: empty; else kind + 1 */
        const sl_edge *e = &x->graph[u + EDGES + own].edge;
        if ((lazy && !node_checked(x, u, c)) ||
            !(x->graph[u].node.choice >> own & 1))
            return UINT64_MAX;
        r += e->before;
        u = e->next;
    }
    *v = u;
    return r;
}

/* walk_() on a graph read from a table, each node checked (out of line,
 * so that the BFS's walks on a graph made here stay small). */
static NEVER_INLINE uint64_t walk_lazy(const sl_ctx *x, const uint8_t *at,
                                       uint32_t *v, unsigned c0, unsigned c1)
{
    return walk_(x, at, v, c0, c1, 1);
}

static inline uint64_t walk(const sl_ctx *x, const uint8_t *at, uint32_t *v,
                            unsigned c0, unsigned c1)
{
    return x->lazy ? walk_lazy(x, at, v, c0, c1) : walk_(x, at, v, c0, c1, 0);
}

/* Where the path being ranked meets pre's at cell c (a row's first when
 * folded) with rank r so far: the rest of *out is pre's, its ranks
 * r - pre->r[c] apart (mod 2^64); returns the whole rank. */
static uint64_t follow(const sl_ctx *x, const prefix *pre, unsigned c,
                       uint64_t r, prefix *out)
{
    const unsigned n = x->d->n, step = x->fold ? x->d->w : 1;
    for (unsigned i = c; i <= n; i += step) {
        out->node[i] = pre->node[i];
        out->r[i] = pre->r[i] + (r - pre->r[c]);
        out->same[i] = pre->same[i];
    }
    return r + pre->r[n] - pre->r[c];
}

/* The path of a layout through the graph: its rank, the completions of the
 * choices before its own at each free cell; when pre is not NULL, the
 * path of a layout that agrees with l before cell 'from' and from cell
 * 'join' on, walked from 'from' until it meets pre's, and with out (may
 * be NULL; needs pre) l's whole path into *out, cells 0 to from - 1
 * already there.  UINT64_MAX for a layout the graph does not hold (a tile
 * puzzle's layout of the other class). */
static ALWAYS_INLINE uint64_t dp_rank(const sl_ctx *x, const layout *l,
                                      const prefix *pre, unsigned from,
                                      unsigned join, prefix *out)
{
    const unsigned n = x->d->n;
    uint32_t v = x->root;
    if (!pre)
        return walk(x, l->at, &v, 0, n);
    v = pre->node[from];
    uint64_t r = pre->r[from];
    unsigned c = from;
    if (!out) {                         /* (up to join in one go) */
        uint64_t e = walk(x, l->at, &v, from, join);
        if (e == UINT64_MAX)
            return e;
        r += e;
        c = join;
    }
    for (; c < n; c++) {
        if ((!out || c >= join) && v == pre->node[c])   /* (c >= join) */
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[n] - pre->r[c];
        set_path(out, c, v, r, 0);
        /* (a cell's walk inline, not walk_lazy(): a call a cell) */
        uint64_t e = x->lazy ? walk_(x, l->at, &v, c, c + 1, 1)
                             : walk_(x, l->at, &v, c, c + 1, 0);
        if (e == UINT64_MAX)
            return e;
        r += e;
    }
    set_path(out, n, v, r, 0);
    return r;
}

/* Node v's last edge whose completions before it are at most r.  (Its
 * first edge is most often choice 0's: read at once with the header.) */
static const sl_edge *edges_after(const sl_ctx *x, uint32_t v, uint64_t r)
{
    const sl_unit *n = &x->graph[v];
    uint32_t m = n->node.choice;
    const sl_edge *e = &n[EDGES].edge;
    if (!(m & 1))
        e = &n[EDGES + ptb_low_bit(m)].edge;
    for (m &= m - 1; m; m &= m - 1) {
        const sl_edge *f = &n[EDGES + ptb_low_bit(m)].edge;
        if (f->before > r)
            break;
        e = f;
    }
    return e;
}

/* Cells c0..c1-1 of the layout of rank r among the completions of node
 * *v into l, following the graph (*v gets the node reached); their path
 * into *pre when pre is not NULL, the rank before c0 being 'done'.
 * Returns the rank left: the layout's among the completions of the node
 * reached. */
static uint64_t unwalk(const sl_ctx *x, uint64_t r, uint32_t *vp,
                       unsigned c0, unsigned c1, layout *l, prefix *pre,
                       uint64_t done)
{
    const sl_desc *d = x->d;
    uint64_t r0 = r;
    uint32_t v = *vp;
    const int lazy = x->lazy;
    for (unsigned c = c0; c < c1; c++) {
        if (lazy && !node_checked(x, v, c))
            break;                      /* (the space damaged) */
        const sl_edge *e = edges_after(x, v, r);
        if (pre) {
            pre->node[c] = v;
            pre->r[c] = done + (r0 - r);
        }
        r -= e->before;
        if (e->kind >= 0) {
            put_piece(d, l, (unsigned)e->kind, c);
            l->anchor[l->np++] = (uint8_t)c;
        }
        v = e->next;
    }
    if (pre) {
        pre->node[c1] = v;
        pre->r[c1] = done + (r0 - r);
    }
    *vp = v;
    return r;
}

/* Keeps of l (unranked: its anchors ascending) the pieces anchored before
 * cell c. */
static void keep_before(const sl_desc *d, layout *l, unsigned c)
{
    while (l->np && l->anchor[l->np - 1] >= c) {   /* (the last go) */
        unsigned a = l->anchor[--l->np];
        take_piece(d, l, l->at[a] - 1u, a);
    }
}

/* The layout of rank r; its path into *pre when pre is not NULL.  With
 * 'from' > 0, l and *pre hold a layout whose cells before 'from' are this
 * one's, and its path; only the cells from 'from' on are unranked. */
static void dp_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre,
                      unsigned from)
{
    uint32_t v = from ? pre->node[from] : x->root;
    if (from)
        keep_before(x->d, l, from);
    else
        clear_layout(x->d, l);
    unwalk(x, r - (from ? pre->r[from] : 0), &v, from, x->d->n, l, pre,
           from ? pre->r[from] : 0);
}

/* The anchors of l's canonical layout: l's own or buf, its mirror image,
 * given that the rows above cell c0 (the start of a row) are their own
 * mirror images: only cells c0.. are compared, row by row until one is
 * not its own mirror image, and written to buf (its bytes from c0 on).
 * *own (may be NULL) gets whether l is its own mirror image. */
static const uint8_t *canonical(const sl_ctx *x, const layout *l,
                                uint8_t *buf, unsigned c0, int *own)
{
    const sl_desc *d = x->d;
    if (own)
        *own = 0;
    for (unsigned c = c0; c < d->n; c += d->w) {
        uint64_t b = row_bytes(x, l->at, c), m = mirror_row(x, b, c);
        if (m == b)
            continue;
        if (row_order(m) > row_order(b))
            return l->at;
        memcpy(buf + c0, l->at + c0, c - c0);   /* (their own images) */
        for (;;) {      /* (each row's 8 bytes: the next row's come after) */
            memcpy(buf + c, &m, sizeof m);
            if ((c += d->w) >= d->n)
                return buf;
            m = mirror_row(x, row_bytes(x, l->at, c), c);
        }
    }
    if (own)
        *own = 1;
    return l->at;
}

/* Of the fold row of node v at cell c, the last path whose off (by_off)
 * or before is at most key (< the range: keys are at most 2^40, a row's
 * paths 2^22), or its first; NULL when it has none, or (a graph read from
 * a table) when the row does not hold: the space is then damaged. */
const fold_path *sl_fold_find(const sl_ctx *x, uint32_t v, unsigned c,
                              uint64_t key, int by_off)
{
    uint32_t f = x->graph[v].node.frow;
    if (!row_checked(x, f, v, c))
        return NULL;
    const fold_row *fr = &x->frow[f - 1];
    const fold_path *p = x->fpath + fr->first, *end = x->fpath + fr[1].first;
    uint64_t range = guide_range(x, fr, by_off);
    uint32_t n = row_n(fr);
    if (!n)
        return NULL;
    p += guide_of(x, fr, by_off)[key < range ? key * n / range : n - 1];
    while (p + 1 < end && (by_off ? p[1].off : p[1].before) <= key)
        p++;
    return p;
}

/* sl_row_hash() (its rows listed, not hashed) and sl_row_table() on a
 * folded graph read from a table, once HASH_AFTER states' moves were
 * listed (state_moves(); by the one thread that lists the last of them,
 * the others walking meanwhile), or the row hash when there is no row
 * table (sl_row_slots()): every node and fold row checked first, as its
 * walks are not (when one does not hold, the space is damaged and there
 * is neither). */
static NEVER_INLINE void hash_late(const sl_ctx *cx)
{
    sl_ctx *x = (sl_ctx *)(uintptr_t)cx;
    const sl_desc *d = x->d;
    for (unsigned c = 0; c < d->n; c++) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v))
            if (!node_checked(x, v, c))
                return;
    }
    for (uint32_t f = 1; f <= x->nfrow; f++) {
        uint32_t v = x->frow[f - 1].node;
        if (v >= x->nunits || !sl_row_checked(x, f, v, sl_node_cell(x, v)))
            return;
    }
    if (sl_row_hash(x) == PTB_OK && hashed(x) && x->npar == 1)
        (void)sl_row_table(x);          /* (for the walks: tabled()) */
    if (hashed(x) == ROWS_LISTED && !tabled(x))
        (void)sl_row_slots(x);          /* (no row table: the hash) */
}

/* The place of a canonical layout among them, from the row at cell c0 on,
 * the rows above leading to node v with rank r so far, and same when they
 * are their own mirror images; UINT64_MAX when the graph does not hold
 * it.  With pre (may be NULL), the path of a canonical layout whose cells
 * from 'join' on are at[]'s: the rest of the rank is pre's from the first
 * row at or past join where the two paths meet.  With out (may be NULL),
 * the path from row c0 on into *out, as dp_rank()'s. */
static uint64_t fold_rank(const sl_ctx *x, const uint8_t *at, unsigned c0,
                          uint32_t v, uint64_t r, int same, const prefix *pre,
                          unsigned join, prefix *out)
{
    const sl_desc *d = x->d;
    for (unsigned c = c0; c < d->n; c += d->w) {
        if (pre && c >= join && v == pre->node[c] &&
            same == pre->same[c])
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[d->n] - pre->r[c];
        set_path(out, c, v, r, same);
        uint32_t u = v;
        /* (walk_() inlined, not walk_lazy(): a row's walk is short) */
        uint64_t off = x->lazy ? walk_(x, at, &u, c, c + d->w, 1)
                               : walk_(x, at, &u, c, c + d->w, 0);
        if (off == UINT64_MAX)
            return UINT64_MAX;
        if (!same) {
            r += off;
        } else {
            const fold_path *p = sl_fold_find(x, v, c, off, 1);
            if (!p || p->off != off)
                return UINT64_MAX;      /* (a row after its mirror image) */
            r += p->before;
            same = p->same;
        }
        v = u;
    }
    set_path(out, d->n, v, r, same);
    return r;
}

/* Of node v's rows (a row's first; x->rrow), the last whose plain
 * completions before it are at most r (< v's total): the r-th at once
 * when each row has one (ONE_EACH: the last row's nodes, where every
 * unrank ends), by one read when v has few completions (BY_RANK: most
 * nodes of the row above), else by a binary search. */
static inline const row_entry *row_at(const sl_ctx *x, uint32_t v,
                                      uint64_t r)
{
    const row_entry *e = &x->rrow[x->rfirst[v]];
    if (e->n & ONE_EACH)
        return e + (r < ROWS_OF(e->n) ? r : 0);
    if (e->n & BY_RANK)
        return e + x->rdir[x->rdir_at[v] + r];
    for (uint32_t n = e->n; n > 1;) {
        uint32_t half = n / 2;
        e = e[half].off <= r ? e + half : e;
        n -= half;
    }
    return e;
}

/* Puts the pieces of row_bytes() b of the row at cell c into l, their
 * anchors after l's: at[] from c written 8 bytes at once (as row_bytes()
 * reads them), so the rows below are put after it, or are empty. */
static inline void put_row(const sl_desc *d, layout *l, unsigned c,
                           uint64_t b)
{
    memcpy(l->at + c, &b, sizeof b);
    while (b) {
        unsigned i = (unsigned)__builtin_ctzll(b) / 8, k = (b >> 8 * i) & 0xFF;
        l->occ |= d->kind[k - 1].shape << (c + i);
        l->kinds[k - 1] |= (uint64_t)1 << (c + i);
        l->anchor[l->np++] = (uint8_t)(c + i);
        b &= ~((uint64_t)0xFF << 8 * i);
    }
}

/* The thread's last layout (sl_last_layout()) at each row start an
 * unrank passed, from row lo on (SL_MAX_H: none): the cells covered and
 * the number of anchors above it, so that the next unrank from that row
 * puts the layout back at once (keep_before() takes the pieces off one
 * by one).  tail: when the rows above the last are not their own mirror
 * images and each row of the last row's node has one completion
 * (ONE_EACH), that node's first row, else NULL: an unrank that shares
 * the rows above takes its last row at once, without a search.  end2:
 * the rank past the completions of the node of the row above the last
 * when the rows above that are not their own mirror images, else 0: an
 * unrank that shares those rows starts there, without a search. */
typedef struct row_snaps {
    unsigned lo;
    uint64_t occ[SL_MAX_H];
    uint8_t np[SL_MAX_H];
    const row_entry *tail;
    uint64_t end2;
} row_snaps;

/* l as it was at the start of row i (cell c), from s; its at[] from c
 * on left as it is unless 'clear' (put_row() writes a row's whole). */
static inline void back_to_row(const sl_desc *d, layout *l,
                               const row_snaps *s, unsigned i, unsigned c,
                               int clear)
{
    const uint64_t keep = ((uint64_t)1 << c) - 1, zero = 0;   /* (c < 64) */
    l->occ = s->occ[i];
    l->np = s->np[i];
    for (unsigned k = 0; k < d->nkinds; k++)
        l->kinds[k] &= keep;
    for (; clear && c < d->n; c += d->w)   /* (8 bytes a row: row_bytes()) */
        memcpy(l->at + c, &zero, sizeof zero);
}

/* The canonical layout of place r; its path row by row into *pre when
 * pre is not NULL; from row i (i > 0: l and *pre hold a layout whose
 * rows above are this one's, and its path), as dp_unrank()'s 'from';
 * with s (may be NULL; needs pre), l's snapshots (row_snaps).  r is the
 * place left among the canonical completions of v while the rows are
 * their own mirror images, then among the plain ones. */
static void fold_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre,
                        unsigned i, row_snaps *s)
{
    const sl_desc *d = x->d;
    const unsigned from = i * d->w, lastc = d->n - d->w;
    uint64_t r0 = r;
    uint32_t v = x->root;
    int same = 1;
    if (from) {
        v = pre->node[from];
        same = pre->same[from];
        r -= pre->r[from];
        if (s && i >= s->lo)
            back_to_row(d, l, s, i, from, !hashed(x));
        else
            keep_before(d, l, from);
    } else {
        clear_layout(x->d, l);
    }
    if (s) {
        s->lo = i < s->lo ? i : s->lo;
        s->tail = NULL;
        if (i + 2 <= d->h)
            s->end2 = 0;
    }
    for (unsigned c = from; c < d->n; c += d->w, i++) {
        set_path(pre, c, v, r0 - r, same);
        if (s) {
            s->occ[i] = l->occ;
            s->np[i] = (uint8_t)l->np;
        }
        uint64_t plain = r;             /* the row's plain rank from v */
        int was_same = same;
        if (s && !same && c + 2 * d->w == d->n)
            s->end2 = r0 - r + x->graph[v].node.total;
        if (same) {
            const fold_path *p = sl_fold_find(x, v, c, r, 0);   /* (r < F(v):
                                                                one with
                                                                F > 0) */
            if (!p) {                   /* (the space damaged) */
                if (pre)
                    pre->same[c] = 0;
                if (s)
                    s->lo = SL_MAX_H;
                return;
            }
            r -= p->before;
            same = p->same;
            plain = p->off + (same ? 0 : r);
        }
        uint64_t left;
        if (hashed(x)) {                /* the row at once */
            const row_entry *e = row_at(x, v, plain);
            if (s && c == lastc && !was_same &&
                (x->rrow[x->rfirst[v]].n & ONE_EACH))
                s->tail = &x->rrow[x->rfirst[v]];
            put_row(d, l, c, e->row);
            v = e->end;
            left = plain - e->off;
        } else {
            left = unwalk(x, plain, &v, c, c + d->w, l, NULL, 0);
        }
        if (!same)
            r = left;
    }
    set_path(pre, d->n, v, r0 - r, same);
}

/* The row of slot s taken on a folded path with rank *r so far, while
 * the rows above are their own mirror images (*same) by its fold path
 * (the row not after its mirror image), else by its plain completions;
 * returns its node at the next row. */
static ALWAYS_INLINE uint32_t take_row(const sl_ctx *x,
                                       const row_slot *s, uint64_t *r,
                                       int *same)
{
    if (*same) {
        const fold_path *p = &x->fpath[s->path - 1];
        *r += p->before;
        *same = (int)p->same;
    } else {
        *r += s->off;
    }
    return s->end;
}

/* The search's parent layout (class_moves()) as its mirror image ranks,
 * made when a successor first needs it (turned_rank()): from the row
 * 'from' of its first row that is not its own mirror image, the node of
 * each row and the plain completions before it from there. */
typedef struct mirror_path {
    const layout *l;
    const prefix *pre;
    int made;
    unsigned from;
    uint32_t node[SL_MAX_CELLS + 1];
    uint64_t r[SL_MAX_CELLS + 1];
} mirror_path;

static void make_mirror_path(const sl_ctx *x, mirror_path *mp)
{
    const sl_desc *d = x->d;
    unsigned c = 0;
    while (c < d->n && mp->pre->same[c + d->w])
        c += d->w;                      /* (its rows above c + w: their own) */
    uint32_t v = mp->pre->node[c];
    uint64_t r = 0;
    mp->made = 1;
    mp->from = c;
    for (; c < d->n; c += d->w) {
        mp->node[c] = v;
        mp->r[c] = r;
        const row_slot *s = row_lookup(x, v, mirror_row(x, row_bytes(
                                           x, mp->l->at, c), c));
        if (!s) {
            mp->from = d->n;            /* (none: the walks go on) */
            return;
        }
        r += s->off;
        v = s->end;
    }
    mp->node[c] = v;
    mp->r[c] = r;
}

/* The rank of the mirror image of layout at, a successor of mp's layout
 * that agrees with it from cell 'join' on, whose rows above c are their
 * own mirror images and whose row c comes after its mirror image; from
 * node v with rank r so far.  Its walk stops where it meets the path of
 * the parent's mirror image (mp; made here when needed). */
static NEVER_INLINE uint64_t turned_rank(const sl_ctx *x, const uint8_t *at,
                                         unsigned c, uint32_t v, uint64_t r,
                                         unsigned join, mirror_path *mp)
{
    const sl_desc *d = x->d;
    int same = 1;
    if (!mp->made)
        make_mirror_path(x, mp);
    for (; c < d->n; c += d->w) {
        if (!same && c >= join && c >= mp->from && v == mp->node[c])
            return r + mp->r[d->n] - mp->r[c];
        const row_slot *s = row_lookup(x, v, mirror_row(x, row_bytes(x, at,
                                                                   c), c));
        if (!s || (same && !s->path))
            return UINT64_MAX;
        v = take_row(x, s, &r, &same);
    }
    return r;
}

/* fold_rank() by the row hash, of layout l itself: canonical() is folded
 * in.  Of l's rows that are not their own mirror images, the first has a
 * fold path when l is canonical and none when its mirror image is, whose
 * rows are then ranked from there.  *turn as sl_rank()'s; with out (may be
 * NULL), the state's path from row c on, as rank_path()'s; with mp (may
 * be NULL; not with out), the mirror image ranked by turned_rank() (and
 * *turn not set). */
static ALWAYS_INLINE uint64_t row_rank(const sl_ctx *x, const layout *l,
                                       unsigned c, uint32_t v, uint64_t r,
                                       int same, const prefix *pre,
                                       unsigned join, uint32_t *turn,
                                       prefix *out, mirror_path *mp)
{
    const sl_desc *d = x->d;
    uint8_t buf[SL_MAX_CELLS];
    const uint8_t *at = l->at;
    for (; c < d->n; c += d->w) {
        if (pre && c >= join && v == pre->node[c] && same == pre->same[c]) {
            if (same && pre->same[d->n])
                *turn = CODE_OWN;       /* (pre's rows from c: l's) */
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[d->n] - pre->r[c];
        }
        set_path(out, c, v, r, same);
        uint64_t row = row_bytes(x, at, c);
        const row_slot *s = row_lookup(x, v, row);
        if (!s)
            return UINT64_MAX;
        if (same && !s->path && mp)     /* after its mirror image */
            return turned_rank(x, l->at, c, v, r, join, mp);
        if (same && !s->path) {
            for (unsigned b = c; b < d->n; b += d->w) {
                uint64_t m = mirror_row(x, row_bytes(x, l->at, b), b);
                memcpy(buf + b, &m, sizeof m);   /* (then the next row's) */
            }
            at = buf;
            pre = NULL;
            *turn = CODE_TURNS;
            if (!(s = row_lookup(x, v, row_bytes(x, at, c))) || !s->path)
                return UINT64_MAX;
        }
        v = take_row(x, s, &r, &same);
    }
    if (same)
        *turn = CODE_OWN;
    set_path(out, d->n, v, r, same);
    return r;
}

/* The row table's entry of the row of full code q at a row-start node of
 * place 'at' (rt_at[]), and of a fold row's (rt_fold_at[]). */
static inline const rt_entry *rt_row(const sl_ctx *x, uint32_t at,
                                     uint32_t q)
{
    return &x->rt_ent[(at & RT_BASE) +
                      x->rt_sq[q << x->d->w | at >> RT_COVER]];
}
static inline const rt_fold *rt_fold_row(const sl_ctx *x, uint32_t at,
                                         uint32_t q)
{
    return &x->rt_fold[(at & RT_BASE) +
                       x->rt_sq[q << x->d->w | at >> RT_COVER]];
}
/* The full code of the mirror image of the row at cell c of full code q. */
static inline uint32_t rt_mirror(const sl_ctx *x, unsigned c, uint32_t q)
{
    return x->rt_mc[x->rt_mrow[c] + q];
}

/* row_rank() by the row table (tabled(), with its fold rows' part), of
 * a layout of the space (a walk's successor: a row the graph does not
 * hold would not be found out): each row's completions before it and its
 * node at the next row read at once by the row's full code, while the
 * rows are their own mirror images from rt_fold (a row after its mirror
 * image turning the rest, as row_rank()'s), then from rt_ent. */
static ALWAYS_INLINE uint64_t table_row_rank(const sl_ctx *x,
                                             const layout *l, unsigned c,
                                             uint32_t v, uint64_t r, int same,
                                             const prefix *pre, unsigned join,
                                             uint32_t *turn, prefix *out)
{
    const sl_desc *d = x->d;
    const unsigned w = d->w;
    int turned = 0;
    for (; c < d->n; c += w) {
        if (pre && c >= join && v == pre->node[c] && same == pre->same[c]) {
            if (same && pre->same[d->n])
                *turn = CODE_OWN;       /* (pre's rows from c: l's) */
            return out ? follow(x, pre, c, r, out)
                       : r + pre->r[d->n] - pre->r[c];
        }
        set_path(out, c, v, r, same);
        uint32_t q = row_code(x, l->at, c);
        if (turned)
            q = rt_mirror(x, c, q);
        if (same) {
            uint32_t at = x->rt_fold_at[v];
            uint32_t i = (at & RT_BASE) + x->rt_sq[q << w | at >> RT_COVER];
            if (x->rt_fold[i].kind == RT_AFTER) {   /* its mirror image */
                turned = 1;
                pre = NULL;
                *turn = CODE_TURNS;
                q = rt_mirror(x, c, q);
                i = (at & RT_BASE) + x->rt_sq[q << w | at >> RT_COVER];
                if (x->rt_fold[i].kind == RT_AFTER)
                    return UINT64_MAX;  /* (cannot be) */
            }
            r += x->rt_fold[i].before;
            same = x->rt_fold[i].kind == RT_SAME;
            v = x->rt_fold_node[i];
        } else {
            uint32_t at = x->rt_at[v];
            uint32_t i = (at & RT_BASE) + x->rt_sq[q << w | at >> RT_COVER];
            r += x->rt_ent[i].off;
            v = x->rt_node[i];
        }
    }
    if (same)
        *turn = CODE_OWN;
    set_path(out, d->n, v, r, same);
    return r;
}

/* MIRRORED when layout l is not its class's canonical one, else 0. */
uint32_t sl_mirrored(const sl_ctx *x, const layout *l)
{
    uint8_t buf[SL_MAX_CELLS];
    return x->fold && canonical(x, l, buf, 0, NULL) != l->at ? MIRRORED : 0;
}

/* ==== the component: slots, keys and the trie =========================== */

/* A piece's place in a layout, its slot: kind by kind, each kind's pieces
 * in the order of their anchors, by rows (reading order), or by columns
 * for a kind that moves down and up.  So a piece that keeps to its row or
 * column keeps its slot (a Rush Hour car is a slot).  The anchors of l's
 * pieces (l->anchor[], in any order) slot by slot into a[]; 0 when l does
 * not hold each kind's number of pieces (a layout a forged table leads
 * to). */
int sl_slots_of(const sl_desc *d, const layout *l, uint8_t *a)
{
    unsigned first[SL_MAX_KINDS], n[SL_MAX_KINDS] = { 0 }, at = 0;
    uint8_t key[SL_MAX_PIECES];         /* (its order in its kind) */
    for (unsigned k = 0; k < d->nkinds; k++) {
        first[k] = at;
        at += d->kind[k].count;
    }
    for (unsigned i = 0; i < l->np; i++) {   /* (each into its place) */
        unsigned c = l->anchor[i], k = l->at[c] - 1u;
        if (k >= d->nkinds || n[k] == d->kind[k].count)
            return 0;                   /* (before kind[k] is read) */
        unsigned y = d->kind[k].axis == SL_DOWN ? c % d->w * d->h + c / d->w
                                                : c;
        unsigned j = first[k] + n[k]++;
        for (; j > first[k] && key[j - 1] > y; j--) {
            key[j] = key[j - 1];
            a[j] = a[j - 1];
        }
        key[j] = (uint8_t)y;
        a[j] = (uint8_t)c;
    }
    for (unsigned k = 0; k < d->nkinds; k++)
        if (n[k] != d->kind[k].count)
            return 0;
    return 1;
}

/* The layout whose pieces stand at a[] slot by slot. */
void sl_layout_of_slots(const sl_desc *d, const uint8_t *a, layout *l)
{
    unsigned j = 0;
    clear_layout(d, l);
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned i = 0; i < d->kind[k].count; i++)
            put_piece(d, l, k, a[j++]);
    for (unsigned c = 0; c < d->n; c++)
        if (l->at[c])
            l->anchor[l->np++] = (uint8_t)c;
}

/* Digit j of a key (6 bits, j < MAX_KEY_PIECES), and setting it. */
unsigned sl_key_get(sl_key k, unsigned j)
{
    unsigned bits = 6 * j;
    return (unsigned)((bits + 6 <= 64 ? k.hi >> (58 - bits)
                       : bits >= 64 ? k.lo >> (122 - bits)
                       : k.hi << (bits - 58) | k.lo >> (122 - bits)) & 63);
}

/* The component's trie (FORMAT.md, "ranking"): a level a slot, in an
 * order the table gives.  The nodes of level j are the distinct choices
 * of anchors for the slots of levels 0 .. j - 1 (level 0: one node, none
 * chosen); each has a bit for each anchor of level j's alphabet (the
 * anchors its slot takes in the component), set when some layout of the
 * component goes on with it, laid node after node.  The set bits of level
 * j are, in order, the nodes of level j + 1; those of the last level are
 * the layouts, and a layout's index is the number of set bits before its
 * own.  Ranking goes down a level at a time (a count and a popcount),
 * unranking up (a select). */
uint64_t sl_trie_rank(const sl_ctx *x, const layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    uint64_t node = 0;
    if (!sl_slots_of(x->d, l, a))
        return UINT64_MAX;
    for (unsigned j = 0; j < x->d->npieces; j++) {
        const trie_level *lv = &x->level[j];
        unsigned t = lv->digit[a[lv->slot]];
        if (!t)
            return UINT64_MAX;
        uint64_t pos = node * lv->radix + t - 1, w = lv->word[pos / 64];
        if (!(w >> pos % 64 & 1))
            return UINT64_MAX;
        node = lv->cum[pos / 64] + (uint64_t)ptb_popcount64(
                                       w & (((uint64_t)1 << pos % 64) - 1));
    }
    return node;
}

/* The layout of index r (r < size). */
static void trie_unrank(const sl_ctx *x, uint64_t r, layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    for (unsigned j = x->d->npieces; j-- > 0;) {
        const trie_level *lv = &x->level[j];
        uint64_t lo = ptb_last_at_most(lv->cum, lv->nwords, r);  /* bit r's */
        uint64_t w = lv->word[lo];
        for (uint64_t i = r - lv->cum[lo]; i; i--)
            w &= w - 1;
        uint64_t pos = lo * 64 + ptb_low_bit(w);
        a[lv->slot] = lv->alpha[pos % lv->radix];
        r = pos / lv->radix;
    }
    sl_layout_of_slots(x->d, a, l);
}

/* Of the path from, the cells before c (a row's first when folded, the
 * only cells a folded path has) into *to. */
static void copy_path(const sl_ctx *x, prefix *to, const prefix *from,
                      unsigned c)
{
    const unsigned step = x->fold ? x->d->w : 1;
    for (unsigned i = 0; i < c; i += step) {
        to->node[i] = from->node[i];
        to->r[i] = from->r[i];
        to->same[i] = from->same[i];
    }
}

/* sl_rank() and rank_path(): with out (may be NULL), l's path; mp as
 * row_rank()'s. */
static ALWAYS_INLINE uint64_t rank_(const sl_ctx *x, const layout *l,
                                    const prefix *pre, unsigned from,
                                    unsigned join, uint32_t *turn,
                                    prefix *out, mirror_path *mp)
{
    uint8_t buf[SL_MAX_CELLS];
    uint32_t ignored;
    *(turn = turn ? turn : &ignored) = 0;
    unsigned c0 = pre && x->fold ? x->row[from] : pre ? from : 0;
    if (out)                            /* (the cells above: pre's) */
        copy_path(x, out, pre, c0);
    if (x->fold) {                      /* its class: the canonical one */
        int same = !pre || pre->same[c0], own = 0;
        if (hashed(x) == ROWS_HASHED)   /* (made here: row_lookup()) */
            return row_rank(x, l, c0, pre ? pre->node[c0] : x->root,
                            pre ? pre->r[c0] : 0, same, pre, join, turn,
                            out, mp);
        const uint8_t *at = same ? canonical(x, l, buf, c0, &own) : l->at;
        *turn = own ? CODE_OWN : at != l->at ? CODE_TURNS : 0;
        return fold_rank(x, at, c0, pre ? pre->node[c0] : x->root,
                         pre ? pre->r[c0] : 0, same,
                         at == l->at ? pre : NULL, join, out);
    }
    return x->level ? sl_trie_rank(x, l) : dp_rank(x, l, pre, from, join, out);
}

/* The index of a layout: its rank among the layouts, or its place in the
 * component (UINT64_MAX when it is not in it).  pre (may be NULL): the
 * path of a layout that agrees with l before cell 'from' and from cell
 * 'join' on.  *turn (may be NULL) gets CODE_TURNS when the state stands
 * for l's mirror image, CODE_OWN when l is its own, else 0. */
uint64_t sl_rank(const sl_ctx *x, const layout *l, const prefix *pre,
                 unsigned from, unsigned join, uint32_t *turn)
{
    return rank_(x, l, pre, from, join, turn, NULL, NULL);
}

/* Whether rank_path() can give a layout's path: not through a trie. */
static int ranks_path(const sl_ctx *x)
{
    return !x->level;
}

/* sl_rank(); with out (may be NULL; needs pre and ranks_path()), the path of
 * the state's layout into *out: l's, or its mirror image's when *turn
 * gets CODE_TURNS (keep_moved()). */
static ALWAYS_INLINE uint64_t rank_path(const sl_ctx *x, const layout *l,
                                        const prefix *pre, unsigned from,
                                        unsigned join, uint32_t *turn,
                                        prefix *out)
{
    return rank_(x, l, pre, from, join, turn, out, NULL);
}

/* The layout of an index; with pre (may be NULL), a ranked layout's
 * path. */
void sl_unrank(const sl_ctx *x, uint64_t r, layout *l, prefix *pre)
{
    if (x->level)
        trie_unrank(x, r, l);
    else if (x->fold)
        fold_unrank(x, r, l, pre, 0, NULL);
    else
        dp_unrank(x, r, l, pre, 0);
}

/* Whether r is one of the layouts (canonical ones, while the rows above
 * are their own mirror images) that share pre's cells before cell c (a
 * row's first when folded): the completions of its node there. */
static int shares(const sl_ctx *x, const prefix *pre, unsigned c, uint64_t r)
{
    const sl_node *v = &x->graph[pre->node[c]].node;
    uint64_t most = !x->fold || !pre->same[c] ? v->total
                    : v->frow - 1u < x->nfrow ? x->frow[v->frow - 1].count
                                              : 0;   /* (damaged) */
    return r >= pre->r[c] && r - pre->r[c] < most;
}

/* sl_unrank() of r with its path, where l and *pre hold another layout of
 * the space (not a component's) and its path, and (folded) s its
 * snapshots: from the last row start (or cell, unfolded) whose
 * completions hold r, as the layouts there share the rows above.  Each
 * one's completions hold the next one's, so those that hold r come
 * first: a binary search finds the last, after a look at the last row's
 * (s->tail: the next state of the search most often shares the rows
 * above it). */
static void unrank_near(const sl_ctx *x, uint64_t r, layout *l, prefix *pre,
                        row_snaps *s)
{
    const sl_desc *d = x->d;
    unsigned step = x->fold ? d->w : 1, lo = 0,
             hi = x->fold ? d->h - 1 : d->n - 1;   /* (no division) */
    if (x->fold && s->tail) {
        const unsigned c = d->n - d->w;
        const uint64_t k = r - pre->r[c];
        if (r >= pre->r[c] && k < ROWS_OF(s->tail->n)) {
            const row_entry *e = s->tail + k;   /* (as fold_unrank()) */
            back_to_row(d, l, s, d->h - 1, c, 0);
            put_row(d, l, c, e->row);
            pre->node[d->n] = e->end;
            pre->r[d->n] = r - (k - e->off);
            return;
        }
        if (r < s->end2 && r >= pre->r[c - d->w]) {   /* (end2 > 0: h > 1) */
            fold_unrank(x, r, l, pre, d->h - 2, s);
            return;
        }
    }
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (shares(x, pre, mid * step, r))
            lo = mid;
        else
            hi = mid - 1;
    }
    if (x->fold)
        fold_unrank(x, r, l, pre, lo, s);
    else
        dp_unrank(x, r, l, pre, lo * step);
}

/* The places a piece of kind k at anchor a can reach in the move metric,
 * as a set (reach() lists the same ones in order, with their paths): its
 * component among the anchors where it fits clear of occ, the other
 * pieces' cells, grown a step in every direction its axis allows at a
 * time. */
uint64_t sl_reach_set(const sl_ctx *x, unsigned k, uint64_t occ,
                      unsigned a)
{
    const sl_kind *kd = &x->d->kind[k];
    const unsigned w = x->d->w;
    uint64_t clear = kd->fit, r = (uint64_t)1 << a, last = 0;
    for (uint64_t m = kd->shape; m; m &= m - 1)
        clear &= ~(occ >> ptb_low_bit(m));
    while (r != last) {
        last = r;
        if (kd->axis != SL_DOWN)
            r |= ((r & ~x->last_col) << 1 | (r & ~x->first_col) >> 1) & clear;
        if (kd->axis != SL_ACROSS)
            r |= (r << w | r >> w) & clear;
    }
    return r & ~((uint64_t)1 << a);
}

/* The layout a thread last found moves of, and its path: the BFS takes
 * states in index order, and the next one, which most often shares the
 * first rows, is unranked from where the two part (unrank_near()); a walk
 * takes the move it picked, whose layout and path add_move() keeps.  A
 * space is known by a number it gets at open, never reused. */
static _Thread_local struct {
    uint64_t space;
    uint64_t idx;
    layout l;
    prefix pre;
    row_snaps snap;              /* (folded: l's) */
} last;

/* The moves of a layout, as add_move() ranks them: into out (their codes
 * successors()', with CODE_TURNS or CODE_OWN) or their indices into idx;
 * with pick, each in turn into out[0] until pick takes one. */
typedef struct move_list {
    const sl_ctx *x;
    ptb_move *out;
    uint64_t *idx;
    unsigned n;
    const prefix *pre;           /* the layout's path, or NULL */
    int (*pick)(void *arg, const ptb_move *m);   /* or NULL: every move */
    void (*ahead)(void *arg, const ptb_move *m); /* or NULL */
    void *arg;
    int picked;                  /* what pick returned */
    struct held_move *hold;      /* with ahead */
} move_list;

/* With first_move()'s ahead, the move made but not yet given to pick
 * (when 'any'), its piece's anchors before and after, whether its state
 * is its layout's mirror image, and its path (one of paths[]: the held
 * move's and the next one's). */
typedef struct held_move {
    int any, turned;
    ptb_move m;
    unsigned from, to;
    prefix *path, paths[2];
} held_move;

/* The layout of state idx, with its path, as the thread's last: that of
 * the move a walk picked, the layout whose moves are being listed (the
 * thread's last) with its piece at anchor a moved to b, or that one's
 * mirror image when 'turned', as an unranked layout (its anchors
 * ascending), made from it in place, so that the walk's next step need
 * not unrank it. */
static void keep_moved(const sl_ctx *x, unsigned a, unsigned b, uint64_t idx,
                       const prefix *path, int turned)
{
    const sl_desc *d = x->d;
    unsigned k = last.l.at[a] - 1u;
    if (turned) {                       /* row by row, mirrored */
        uint8_t at[SL_MAX_CELLS];
        memcpy(at, last.l.at, sizeof at);
        at[a] = 0;
        at[b] = (uint8_t)(k + 1);
        clear_layout(d, &last.l);
        for (unsigned c = 0; c < d->n; c += d->w)
            put_row(d, &last.l, c, mirror_row(x, row_bytes(x, at, c), c));
    } else {
        take_piece(d, &last.l, k, a);
        put_piece(d, &last.l, k, b);
        uint8_t *an = last.l.anchor;
        unsigned i = 0;
        while (an[i] != a)
            i++;
        for (; i > 0 && an[i - 1] > b; i--)
            an[i] = an[i - 1];
        for (; i + 1 < last.l.np && an[i + 1] < b; i++)
            an[i] = an[i + 1];
        an[i] = (uint8_t)b;
    }
    copy_path(x, &last.pre, path, d->n + 1);
    last.idx = idx;
    last.snap.lo = SL_MAX_H;
    last.snap.tail = NULL;
    last.snap.end2 = 0;
}

/* sl_rank() of a layout from a drawing (its anchors not listed); folded,
 * with its path, the state's layout (l or its mirror image, row by row:
 * its anchors ascending, as unranked) and path kept as the thread's last,
 * so that a walk from it starts without unranking it (sl_last_layout()). */
uint64_t sl_rank_kept(const sl_ctx *x, const layout *l)
{
    uint32_t turn;
    if (!x->fold)
        return sl_rank(x, l, NULL, 0, 0, NULL);
    uint64_t r = rank_path(x, l, NULL, 0, 0, &turn, &last.pre);
    if (r == UINT64_MAX) {
        last.space = 0;                 /* (its path cut short) */
        return r;
    }
    clear_layout(x->d, &last.l);
    for (unsigned c = 0; c < x->d->n; c += x->d->w) {
        uint64_t b = row_bytes(x, l->at, c);
        put_row(x->d, &last.l, c, turn == CODE_TURNS ? mirror_row(x, b, c)
                                                      : b);
    }
    last.space = x->space;
    last.idx = r;
    last.snap.lo = SL_MAX_H;
    last.snap.tail = NULL;
    last.snap.end2 = 0;
    return r;
}

/* rank_path() of a walk's successor: by the row table once there is
 * one (tabled(): a graph read from a table gets it with its rows
 * listed), else by the row hash or the graph. */
static ALWAYS_INLINE uint64_t walk_rank(const sl_ctx *x, const layout *l,
                                        const prefix *pre, unsigned from,
                                        unsigned join, uint32_t *turn,
                                        prefix *out)
{
    if (pre && x->fold && tabled(x)) {
        unsigned c0 = x->row[from];
        *turn = 0;
        if (out)                        /* (the rows above: pre's) */
            copy_path(x, out, pre, c0);
        return table_row_rank(x, l, c0, pre->node[c0], pre->r[c0],
                              pre->same[c0], pre, join, turn, out);
    }
    return rank_path(x, l, pre, from, join, turn, out);
}

/* The held move given to pick, into out[0]: when taken, its layout and
 * path become the thread's last (keep_moved()); returns whether it was. */
static int take_held(move_list *ml)
{
    held_move *h = ml->hold;
    h->any = 0;
    *ml->out = h->m;
    if ((ml->picked = ml->pick(ml->arg, ml->out)) == 0)
        return 0;
    if (h->path)
        keep_moved(ml->x, h->from, h->to, h->m.to, h->path, h->turned);
    return 1;
}

/* add_move() of a walk: each move in turn given to pick until it takes
 * one; with ml->hold, each told to ahead first and given to pick after the
 * next one is made and told (so that the read of its value, asked for,
 * need not wait for it), the last after successors()
 * (slide_first_move()). */
static NEVER_INLINE int pick_move(move_list *ml, const layout *next, unsigned a,
                                  unsigned b)
{
    uint32_t turn;
    held_move *h = ml->hold;
    prefix path, *out = ml->pre && ranks_path(ml->x) ? &path : NULL;
    if (h && out)
        out = &h->paths[ml->n & 1];
    uint64_t r = walk_rank(ml->x, next, ml->pre, a < b ? a : b,
                           (a > b ? a : b) + 1, &turn, out);
    if (r == UINT64_MAX)
        return 0;
    if (!h) {
        ml->out->to = r;
        ml->out->code = a | b << 8 | turn;
        if ((ml->picked = ml->pick(ml->arg, ml->out)) == 0)
            return ++ml->n >= ml->x->max_moves;
        if (out)
            keep_moved(ml->x, a, b, r, out, turn == CODE_TURNS);
        return 1;
    }
    ptb_move m = { .to = r, .code = a | b << 8 | turn };
    ml->ahead(ml->arg, &m);
    if (h->any && take_held(ml))
        return 1;
    h->any = 1;
    h->turned = turn == CODE_TURNS;
    h->m = m;
    h->from = a;
    h->to = b;
    h->path = out;
    return ++ml->n >= ml->x->max_moves;
}

static ALWAYS_INLINE int add_move(void *arg, const layout *next,
                                  uint32_t code)
{
    move_list *ml = arg;
    unsigned a = code & 0xFF, b = code >> 8;
    if (ml->pick)
        return pick_move(ml, next, a, b);
    uint32_t turn;
    uint64_t r = rank_(ml->x, next, ml->pre, a < b ? a : b,
                       (a > b ? a : b) + 1, &turn, NULL, NULL);
    if (r == UINT64_MAX)     /* not in the space: only under a ranking a */
        return 0;            /* table forged (its check is --verify's) */
    if (ml->out) {
        ml->out[ml->n].to = r;
        ml->out[ml->n].code = code | turn;
    } else {
        ml->idx[ml->n] = r;
    }
    return ++ml->n >= ml->x->max_moves;
}

/* add_move() of moves() once there is a row table: ranked by it, as a
 * walk's (--verify's moves 5 % faster on klotski-4x5 than by rank_()). */
static ALWAYS_INLINE int add_table_move(void *arg, const layout *next,
                                        uint32_t code)
{
    move_list *ml = arg;
    unsigned a = code & 0xFF, b = code >> 8;
    uint32_t turn;
    uint64_t r = walk_rank(ml->x, next, ml->pre, a < b ? a : b,
                           (a > b ? a : b) + 1, &turn, NULL);
    if (r == UINT64_MAX)     /* (as add_move()'s) */
        return 0;
    ml->out[ml->n].to = r;
    ml->out[ml->n].code = code | turn;
    return ++ml->n >= ml->x->max_moves;
}

/* The layout of state idx (< x->size), into the thread's last with its
 * path: unranked from where the last one parts, or not at all when it is
 * the last (a walk asks whether a state is a goal, then for its moves).
 * NULL when the space is damaged. */
const layout *sl_last_layout(const sl_ctx *x, uint64_t idx)
{
    if (last.space != x->space || last.idx != idx) {
        if (last.space == x->space && !x->level)
            unrank_near(x, idx, &last.l, &last.pre, &last.snap);
        else if (x->fold && !x->level)
            fold_unrank(x, idx, &last.l, &last.pre, 0, &last.snap);
        else
            sl_unrank(x, idx, &last.l, &last.pre);
        last.space = x->space;
        last.idx = idx;
    }
    if (__atomic_load_n(&x->damaged, __ATOMIC_RELAXED)) {
        last.space = 0;                 /* (its path may be cut short) */
        return NULL;
    }
    return &last.l;
}

/* ==== the search's moves by classes ===================================== */

/* The anchors of ok from which a piece of class cl steps, the free cells
 * being free (the first cell it needs first: most often not free). */
static inline uint64_t steps_from(const sl_class *cl, uint64_t ok,
                                  uint64_t free)
{
    ok &= free >> cl->rs[0] << cl->ls[0];
    for (unsigned i = 1; ok && i < cl->noff; i++)
        ok &= free >> cl->rs[i] << cl->ls[i];
    return ok;
}


/* The rank of a successor of the layout of path pre (whose rows from c
 * on are not their own mirror images' concern: pre->same[c] is 0) that
 * agrees with it outside the rows of cells c .. end - 1 (row starts),
 * code[] the full codes of its rows there (row_code()): those rows' plain
 * completions read from the row table, the others' from pre.  The node
 * where a row starts depends only on the anchors above it and the cells
 * they cover, so from row 'end' on the two paths are one. */
static ALWAYS_INLINE uint64_t table_rank(const sl_ctx *x,
                                         const uint32_t *code,
                                         const prefix *pre, unsigned c,
                                         unsigned end)
{
    const unsigned w = x->d->w;
    uint64_t r = pre->r[c] + pre->r[x->d->n] - pre->r[end];
    uint32_t at = x->rt_at[pre->node[c]];
    for (; c < end; c += w) {
        const rt_entry *e = rt_row(x, at, code[c]);
        r += e->off;
        at = e->next;
    }
    return r;
}

/* fold_table_rank() from the first row c of the successor that comes after
 * its mirror image (the rows above are their own), at the fold row of
 * place 'at', with rank r so far: the rank of its mirror image, row by
 * row to the last.  (Joining the path of the parent's mirror image past
 * the rows the move changes needs that path, made for each parent: more
 * work than the few rows left.) */
static NEVER_INLINE uint64_t turned_table_rank(const sl_ctx *x,
                                               const uint32_t *code,
                                               unsigned c, uint32_t at,
                                               uint64_t r)
{
    const sl_desc *d = x->d;
    const rt_fold *f = rt_fold_row(x, at, rt_mirror(x, c, code[c]));
    r += f->before;                     /* (RT_BEFORE: the mirror image's
                                           row comes before its own) */
    at = f->next;
    for (c += d->w; c < d->n; c += d->w) {
        const rt_entry *e = rt_row(x, at, rt_mirror(x, c, code[c]));
        r += e->off;
        at = e->next;
    }
    return r;
}

/* table_rank() of a successor of the layout of path pre whose rows above
 * c are their own mirror images (pre->same[c]): from the fold row there
 * on, while the successor's rows are their own mirror images, the
 * canonical completions of the paths before each (rt_fold); from its first
 * row before its mirror image, the plain completions; from a row after
 * it, its mirror image's rank (turned_table_rank()).  From row 'end' on,
 * where the two layouts agree, the rest is pre's once both are past
 * their own mirror images or both are not. */
static ALWAYS_INLINE uint64_t fold_table_rank(const sl_ctx *x,
                                              const uint32_t *code,
                                              mirror_path *mp, unsigned c,
                                              unsigned end)
{
    const prefix *pre = mp->pre;
    const unsigned w = x->d->w, n = x->d->n;
    uint64_t r = pre->r[c];
    uint32_t at = x->rt_fold_at[pre->node[c]];
    for (;;) {
        const rt_fold *f = rt_fold_row(x, at, code[c]);
        if (f->kind == RT_AFTER)
            return turned_table_rank(x, code, c, at, r);
        r += f->before;
        at = f->next;
        c += w;
        if (f->kind == RT_BEFORE)
            break;
        if (c >= n)
            return r;                   /* (its own mirror image) */
        if (c >= end && pre->same[c])
            return r + pre->r[n] - pre->r[c];
    }
    for (; c < n; c += w) {
        if (c >= end && !pre->same[c])
            return r + pre->r[n] - pre->r[c];
        const rt_entry *e = rt_row(x, at, code[c]);
        r += e->off;
        at = e->next;
    }
    return r;
}

/* Ranks into idx[*n] the layout t, whose piece of kind k has moved from
 * anchor a (t.at[a] cleared, and its digit taken from code[], t's rows'
 * full codes when there is a row table: table) to b, as add_move() does, from
 * the path of its parent (mp, as rank_()'s); t.at[] and code[] are left as
 * they were.  Returns whether the moves are at their most. */
static ALWAYS_INLINE int rank_move(const sl_ctx *x, layout *t,
                                   uint32_t *code, mirror_path *mp,
                                   unsigned k, unsigned a, unsigned b,
                                   uint64_t *idx, unsigned *n, int table)
{
    uint32_t turn;
    unsigned c = x->row[a < b ? a : b];
    uint64_t r;
    t->at[b] = (uint8_t)(k + 1);
    if (table && (!mp->pre->same[c] || x->rt_fold)) {
        uint32_t digit = (k + 1) * x->rt_digit[b];
        unsigned end = x->row[a > b ? a : b] + x->below[k] + x->d->w;
        code[x->row[b]] += digit;
        r = mp->pre->same[c] ? fold_table_rank(x, code, mp, c, end)
                             : table_rank(x, code, mp->pre, c, end);
        code[x->row[b]] -= digit;
    } else {
        r = rank_(x, t, mp->pre, a < b ? a : b, (a > b ? a : b) + 1, &turn,
                  NULL, mp);
    }
    t->at[b] = 0;
    if (r == UINT64_MAX)         /* (as add_move()'s) */
        return 0;
    idx[(*n)++] = r;
    return *n >= x->max_moves;
}

/* The search's moves of layout l (path pre) ranked into idx[], by
 * classes: their anchors found at once from the free cells, their ranks
 * as add_move()'s (in another order, which the search allows); returns
 * their number.  metric: x->metric; table: whether x has the row table
 * (x->rt_ent); each a constant where inlined. */
static ALWAYS_INLINE unsigned class_moves(const sl_ctx *x, const layout *l,
                                          const prefix *pre, uint64_t *idx,
                                          unsigned metric, int table)
{
    const sl_desc *d = x->d;
    uint64_t free = x->open_cells & ~l->occ, moving = 0;
    unsigned n = 0;
    mirror_path mp;                     /* (its arrays: once made) */
    mp.l = l;
    mp.pre = pre;
    mp.made = 0;
    layout t;                           /* (its at[] alone: what ranks) */
    memcpy(t.at, l->at, sizeof t.at);
    uint32_t code[SL_MAX_CELLS];        /* (at each row's first cell) */
    if (table)
        for (unsigned c = 0; c < d->n; c += d->w)
            code[c] = row_code(x, l->at, c);
    uint64_t ms[4 * CLASS_KINDS], has = 0,
             shifted[4 * CLASS_KINDS * CLASS_OFFS];
    for (unsigned i = 0; i < x->nshift; i++)
        shifted[i] = free >> x->cls_rs[i] << x->cls_ls[i];
    if (x->cls_offs <= 2)               /* (without a branch) */
        for (unsigned i = 0; i < x->ncls; i++) {
            const sl_class *cl = &x->cls[i];
            uint64_t m = l->kinds[cl->kind] & cl->ok &
                         shifted[cl->shift[0]] & shifted[cl->shift[1]];
            ms[i] = m;
            moving |= m;
            has |= (uint64_t)(m != 0) << i;
        }
    else
        for (unsigned i = 0; i < x->ncls; i++) {
            const sl_class *cl = &x->cls[i];
            uint64_t m = l->kinds[cl->kind] & cl->ok;
            for (unsigned j = 0; j < x->cls_offs; j++)
                m &= shifted[cl->shift[j]];
            ms[i] = m;
            moving |= m;
            has |= (uint64_t)(m != 0) << i;
        }
    if (metric != SL_MOVE)
        moving = 0;
    for (; metric != SL_MOVE && has; has &= has - 1) {
        const sl_class *cl = &x->cls[ptb_low_bit(has)];
        for (uint64_t m = ms[ptb_low_bit(has)]; m; m &= m - 1) {
            unsigned a = ptb_low_bit(m), k = cl->kind, b = a;
            uint64_t own = free | d->kind[k].shape << a;
            uint32_t digit = table ? (k + 1) * x->rt_digit[a] : 0;
            t.at[a] = 0;
            if (table)
                code[x->row[a]] -= digit;
            do {                        /* (the line metric: on) */
                b = (unsigned)((int)b + cl->delta);
                if (rank_move(x, &t, code, &mp, k, a, b, idx, &n, table))
                    return n;
            } while (metric == SL_LINE && (cl->ok >> b & 1) &&
                     steps_from(cl, (uint64_t)1 << b, own));
            t.at[a] = (uint8_t)(k + 1);
            if (table)
                code[x->row[a]] += digit;
        }
    }
    for (; moving; moving &= moving - 1) {
        unsigned a = ptb_low_bit(moving), k = l->at[a] - 1u;
        uint32_t digit = table ? (k + 1) * x->rt_digit[a] : 0;
        t.at[a] = 0;
        if (table)
            code[x->row[a]] -= digit;
        for (uint64_t m = sl_reach_set(x, k, l->occ & ~(d->kind[k].shape << a),
                                       a); m; m &= m - 1)
            if (rank_move(x, &t, code, &mp, k, a, ptb_low_bit(m), idx, &n,
                          table))
                return n;
        t.at[a] = (uint8_t)(k + 1);
        if (table)
            code[x->row[a]] += digit;
    }
    return n;
}

/* class_moves() with its metric, and whether there is a row table, a
 * constant (without one, none of its work is done). */
static ALWAYS_INLINE unsigned search_moves(const sl_ctx *x,
                                           const layout *l,
                                           const prefix *pre, uint64_t *idx)
{
    if (x->rt_ent && !x->lazy)          /* (a graph read from a table
                                           gets its row table while other
                                           threads list moves: its walks
                                           alone take it, by tabled()) */
        switch (x->metric) {
        case SL_STEP:
            return class_moves(x, l, pre, idx, SL_STEP, 1);
        case SL_LINE:
            return class_moves(x, l, pre, idx, SL_LINE, 1);
        default:
            return class_moves(x, l, pre, idx, SL_MOVE, 1);
        }
    switch (x->metric) {
    case SL_STEP:
        return class_moves(x, l, pre, idx, SL_STEP, 0);
    case SL_LINE:
        return class_moves(x, l, pre, idx, SL_LINE, 0);
    default:
        return class_moves(x, l, pre, idx, SL_MOVE, 0);
    }
}

/* The layout of state idx, with the thread's last path in ml (NULL when
 * idx is no state), for state_moves() and table_moves(). */
static ALWAYS_INLINE const layout *state_layout(uint32_t sub, uint64_t idx,
                                                move_list *ml)
{
    const sl_ctx *x = ml->x;
    const layout *l;
    if (sub != 0 || idx >= x->size || !(l = sl_last_layout(x, idx)))
        return NULL;
    if (x->lazy && x->fold &&
        __atomic_load_n(&x->asked, __ATOMIC_RELAXED) < HASH_AFTER &&
        __atomic_add_fetch(&((sl_ctx *)(uintptr_t)x)->asked, 1,
                           __ATOMIC_RELAXED) == HASH_AFTER)
        hash_late(x);
    ml->pre = &last.pre;
    return l;
}

/* unmoves() and first_move(): the same moves of state idx into ml (none
 * when idx is no state); and moves() without a row table. */
static void state_moves(uint32_t sub, uint64_t idx, move_list *ml)
{
    const sl_ctx *x = ml->x;
    const layout *l = state_layout(sub, idx, ml);
    if (!l)
        return;
    if (ml->idx && x->ncls)
        ml->n = search_moves(x, l, ml->pre, ml->idx);
    else
        successors(x, l, ml->idx != NULL, add_move, ml);
}

/* moves() once there is a row table: state_moves()' by add_table_move()
 * (a function of its own: the search's moves, inlined into state_moves(),
 * took 1.4 % more instructions in century's tbgen beside it). */
static NEVER_INLINE void table_moves(uint32_t sub, uint64_t idx,
                                     move_list *ml)
{
    const layout *l = state_layout(sub, idx, ml);
    if (l)
        successors(ml->x, l, 0, add_table_move, ml);
}

unsigned slide_moves(const void *ctx, uint32_t sub, uint64_t idx,
                     ptb_move *out)
{
    const sl_ctx *x = ctx;
    move_list ml = { .x = x, .out = out };
    if (x->fold && tabled(x))
        table_moves(sub, idx, &ml);
    else
        state_moves(sub, idx, &ml);
    return ml.n;
}

unsigned slide_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                       uint64_t *out)
{
    move_list ml = { .x = ctx, .idx = out };
    state_moves(sub, idx, &ml);
    return ml.n;
}

/* first_move(): ahead told of the moves only when they are ranked by the
 * row table (a graph read from a table, once it has one; rank_path()'s
 * ranks, a query's first thousands of states', cost more than the wait a
 * value read ahead hides: 横刀立马 in 1.376 M instructions with them
 * against 1.276 M without). */
int slide_first_move(const void *ctx, const ptb_position *p,
                     int (*pick)(void *arg, const ptb_move *m),
                     void (*ahead)(void *arg, const ptb_move *m),
                     void *arg, ptb_move *out)
{
    held_move h;
    move_list ml = { .x = ctx, .out = out, .pick = pick, .ahead = ahead,
                     .arg = arg, .hold = ahead && tabled(ctx) ? &h : NULL };
    h.any = 0;
    state_moves(p->sub, p->idx, &ml);
    if (ml.hold && h.any && !ml.picked)
        take_held(&ml);
    return ml.picked;
}
