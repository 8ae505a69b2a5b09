/* lib/puzzles/slide_component.c: a component table (covers reachable,
 * not a tile puzzle): the search from the start, the keys of its layouts
 * and the trie that ranks them, saved in a table and read back; and the
 * goals' layouts found by the programme. */
#include "slide_engine.h"

static void key_put(sl_key *k, unsigned j, uint64_t a)
{
    unsigned bits = 6 * j;
    if (bits < 64)
        k->hi |= bits + 6 <= 64 ? a << (58 - bits) : a >> (bits - 58);
    if (bits + 6 > 64)
        k->lo |= a << (122 - bits);
}

/* The first digit where two different keys differ. */
static unsigned key_diff(sl_key a, sl_key b)
{
    return a.hi != b.hi ? (unsigned)__builtin_clzll(a.hi ^ b.hi) / 6
                        : (64 + (unsigned)__builtin_clzll(a.lo ^ b.lo)) / 6;
}

/* A layout's key in the search: its anchors slot by slot. */
static sl_key key_of(const sl_desc *d, const layout *l)
{
    uint8_t a[SL_MAX_PIECES] = { 0 };
    sl_key key = { 0, 0 };
    sl_slots_of(d, l, a);
    for (unsigned j = 0; j < d->npieces; j++)
        key_put(&key, j, a[j]);
    return key;
}

static void layout_of_key(const sl_desc *d, sl_key key, layout *l)
{
    uint8_t a[SL_MAX_PIECES];
    for (unsigned j = 0; j < d->npieces; j++)
        a[j] = (uint8_t)sl_key_get(key, j);
    sl_layout_of_slots(d, a, l);
}

static int key_cmp(sl_key a, sl_key b)
{
    return a.hi != b.hi ? (a.hi < b.hi ? -1 : 1)
           : a.lo != b.lo ? (a.lo < b.lo ? -1 : 1) : 0;
}

static int key_qsort(const void *a, const void *b)
{
    return key_cmp(*(const sl_key *)a, *(const sl_key *)b);
}

/* The trie from a stored ranking: PTB_EFORMAT unless it holds a level for
 * each slot, each slot once, every alphabet ascending and of anchors
 * where the slot's kind lies on the board, and each level's bits for its
 * nodes, no more (the unused bits of its last word clear). */
static int load_trie(sl_ctx *x, const unsigned char *p, size_t len)
{
    const sl_desc *d = x->d;
    const unsigned char *end = p + len;
    uint8_t kind_of[SL_MAX_PIECES];
    uint64_t slots = 0, nodes = 1;
    for (unsigned k = 0, j = 0; k < d->nkinds; k++)
        for (unsigned i = 0; i < d->kind[k].count; i++)
            kind_of[j++] = (uint8_t)k;
    if (len < 4 || ptb_get_le(p, 4) != d->npieces)
        return PTB_EFORMAT;
    p += 4;
    if (!(x->level = calloc(d->npieces, sizeof *x->level)))
        return PTB_ENOMEM;
    for (unsigned j = 0; j < d->npieces; j++) {
        trie_level *lv = &x->level[j];
        if (end - p < 2)
            return PTB_EFORMAT;
        lv->slot = p[0];
        lv->radix = p[1];
        p += 2;
        if (lv->slot >= d->npieces || (slots >> lv->slot & 1) ||
            !lv->radix || end - p < lv->radix)
            return PTB_EFORMAT;
        slots |= (uint64_t)1 << lv->slot;
        uint64_t fit = d->kind[kind_of[lv->slot]].fit;
        for (unsigned t = 0; t < lv->radix; t++, p++) {
            if (*p >= d->n || !(fit >> *p & 1) ||
                (t && *p <= lv->alpha[t - 1]))
                return PTB_EFORMAT;
            lv->alpha[t] = *p;
            lv->digit[*p] = (uint8_t)(t + 1);
        }
    }
    for (unsigned j = 0; j < d->npieces; j++) {
        trie_level *lv = &x->level[j];
        uint64_t bits = nodes * lv->radix;
        lv->nodes = nodes;
        lv->nwords = (bits + 63) / 64;
        if ((uint64_t)(end - p) / 8 < lv->nwords)
            return PTB_EFORMAT;
        lv->word = malloc(lv->nwords * sizeof *lv->word);
        lv->cum = malloc(lv->nwords * sizeof *lv->cum);
        if (!lv->word || !lv->cum)
            return PTB_ENOMEM;
        nodes = 0;
        for (uint64_t w = 0; w < lv->nwords; w++, p += 8) {
            lv->word[w] = ptb_get_le64(p);
            lv->cum[w] = nodes;
            nodes += (uint64_t)ptb_popcount64(lv->word[w]);
        }
        if ((bits % 64 && lv->word[lv->nwords - 1] >> (bits % 64)) || !nodes)
            return PTB_EFORMAT;
    }
    if (p != end || nodes > MAX_COMPONENT)
        return PTB_EFORMAT;
    x->size = nodes;
    return PTB_OK;
}

/* The trie of the component's n keys (sorted), as a table stores it, into
 * own_saved: the slots with fewer anchors come first, which keeps the
 * levels near the root narrow (Rush Hour levels: about 8 bits a layout). */
static int save_trie(sl_ctx *x, sl_key *keys, uint64_t n)
{
    const sl_desc *d = x->d;
    unsigned L = d->npieces, order[SL_MAX_PIECES], radix[SL_MAX_PIECES];
    uint64_t used[SL_MAX_PIECES] = { 0 }, nodes[SL_MAX_PIECES];
    uint64_t at[SL_MAX_PIECES];
    for (uint64_t i = 0; i < n; i++)
        for (unsigned j = 0; j < L; j++)
            used[j] |= (uint64_t)1 << sl_key_get(keys[i], j);
    for (unsigned j = 0; j < L; j++) {      /* fewer anchors first */
        unsigned i = j, r = ptb_popcount64(used[j]);
        for (; i > 0 && radix[i - 1] > r; i--) {
            order[i] = order[i - 1];
            radix[i] = radix[i - 1];
        }
        order[i] = j;
        radix[i] = r;
    }
    for (uint64_t i = 0; i < n; i++) {      /* digits in level order */
        sl_key k = { 0, 0 };
        for (unsigned j = 0; j < L; j++) {
            unsigned a = sl_key_get(keys[i], order[j]);
            uint64_t below = used[order[j]] & (((uint64_t)1 << a) - 1);
            key_put(&k, j, ptb_popcount64(below));
        }
        keys[i] = k;
    }
    qsort(keys, n, sizeof *keys, key_qsort);
    size_t len = 4;
    for (unsigned j = 0; j < L; j++)
        nodes[j] = 1;
    for (uint64_t i = 1; i < n; i++)
        for (unsigned j = key_diff(keys[i - 1], keys[i]) + 1; j < L; j++)
            nodes[j]++;
    for (unsigned j = 0; j < L; j++)
        len += 2 + radix[j];
    for (unsigned j = 0; j < L; j++) {
        at[j] = len;
        len += 8 * ((nodes[j] * radix[j] + 63) / 64);
    }
    unsigned char *p = x->own_saved = calloc(len, 1);
    if (!p)
        return PTB_ENOMEM;
    x->saved = p;
    x->saved_len = len;
    ptb_put_le(p, L, 4);
    p += 4;
    for (unsigned j = 0; j < L; j++) {
        *p++ = (unsigned char)order[j];
        *p++ = (unsigned char)radix[j];
        for (uint64_t u = used[order[j]]; u; u &= u - 1)
            *p++ = (unsigned char)ptb_low_bit(u);
    }
    memset(nodes, 0, sizeof nodes);
    for (uint64_t i = 0; i < n; i++) {
        unsigned fd = i ? key_diff(keys[i - 1], keys[i]) : 0;
        for (unsigned j = fd; j < L; j++) {
            nodes[j] += i && j > fd;
            uint64_t pos = nodes[j] * radix[j] + sl_key_get(keys[i], j);
            x->own_saved[at[j] + pos / 8] |= (unsigned char)(1u << pos % 8);
        }
    }
    return PTB_OK;
}

static uint64_t key_hash(sl_key k)
{
    uint64_t h = (k.hi ^ (k.lo * 0x9E3779B97F4A7C15u)) * 0xBF58476D1CE4E5B9u;
    return h ^ h >> 31;
}

int sl_grow(search *sr)
{
    uint64_t cap = sr->cap ? 2 * sr->cap : 1024;
    sl_key *slot = calloc(cap, sizeof *slot);
    uint8_t *used = calloc(cap, 1);
    sl_key *queue = realloc(sr->queue, cap / 2 * sizeof *queue);
    if (!slot || !used || !queue) {
        free(slot);
        free(used);
        if (queue)
            sr->queue = queue;
        return PTB_ENOMEM;
    }
    sr->queue = queue;
    for (uint64_t i = 0; i < sr->n; i++) {
        uint64_t h = key_hash(queue[i]) & (cap - 1);
        while (used[h])
            h = (h + 1) & (cap - 1);
        used[h] = 1;
        slot[h] = queue[i];
    }
    free(sr->slot);
    free(sr->used);
    sr->slot = slot;
    sr->used = used;
    sr->cap = cap;
    return PTB_OK;
}

/* Adds a layout's key when new; stops the search on a failure. */
static int add_key(void *arg, const layout *l, uint32_t code)
{
    search *sr = arg;
    sl_key k = key_of(sr->x->d, l);
    (void)code;
    if ((sr->n + 1) * 2 > sr->cap &&
        (sr->n >= MAX_COMPONENT || sl_grow(sr) != PTB_OK)) {
        sr->full = 1;
        return 1;
    }
    uint64_t h = key_hash(k) & (sr->cap - 1);
    for (; sr->used[h]; h = (h + 1) & (sr->cap - 1))
        if (!key_cmp(sr->slot[h], k))
            return 0;
    sr->used[h] = 1;
    sr->slot[h] = k;
    sr->queue[sr->n++] = k;
    return 0;
}

/* The positions reachable from the start: a trie read from a table's
 * stored ranking, or made from a search over layouts; PTB_EFORMAT when a
 * stored one does not hold the start. */
int sl_make_component(sl_ctx *x, const layout *start,
                      const unsigned char *saved, size_t saved_len)
{
    const sl_desc *d = x->d;
    int rc = PTB_OK;
    if (!saved) {
        search sr = { x, NULL, NULL, 0, 0, NULL, 0 };
        if (d->npieces > MAX_KEY_PIECES)
            return PTB_EINVAL;
        add_key(&sr, start, 0);
        for (uint64_t i = 0; i < sr.n && !sr.full; i++) {
            layout l;
            layout_of_key(d, sr.queue[i], &l);
            successors(x, &l, 0, add_key, &sr);
        }
        free(sr.slot);
        free(sr.used);
        if (sr.full)
            rc = sr.n >= MAX_COMPONENT ? PTB_EINVAL : PTB_ENOMEM;
        else
            rc = save_trie(x, sr.queue, sr.n);
        free(sr.queue);
        saved = x->saved;
        saved_len = x->saved_len;
    }
    if (rc == PTB_OK)
        rc = load_trie(x, saved, saved_len);
    if (rc == PTB_OK && sl_trie_rank(x, start) == UINT64_MAX)
        rc = PTB_EFORMAT;
    x->saved = saved;
    x->saved_len = saved_len;
    return rc;
}

static int matches(const sl_goal *gl, const layout *l)
{
    if (l->occ & gl->empty)
        return 0;
    for (unsigned i = 0; i < gl->n; i++)
        if (l->at[gl->anchor[i]] != gl->kind[i] + 1u)
            return 0;
    return 1;
}

int sl_is_goal_layout(const sl_desc *d, const layout *l)
{
    for (unsigned g = 0; g < d->ngoals; g++)
        if (matches(&d->goal[g], l))
            return 1;
    return 0;
}

void sl_goal_layouts(goal_walk *gw, unsigned c, uint32_t v, uint64_t r,
                     int same, uint32_t v0, uint64_t r0)
{
    const sl_ctx *x = gw->x;
    const sl_desc *d = x->d;
    if (c % d->w == 0) {                /* a row's end, the next's start */
        if (same && c) {
            const fold_path *p = sl_fold_find(x, v0, c - d->w, r - r0, 1);
            if (!p || p->off != r - r0)
                return;                 /* (or a fold row read from a table
                                           failed: damaged) */
            r = r0 + p->before;
            same = p->same;
        }
        v0 = v;
        r0 = r;
    }
    if (c == d->n) {
        for (unsigned g = 0; g < gw->g; g++)
            if (matches(&d->goal[g], &gw->l))
                return;
        gw->emit(gw->arg, r);
        return;
    }
    int hole = d->goal[gw->g].empty >> c & 1, want = gw->want[c] - 1;
    if (x->lazy && !node_checked(x, v, c))
        return;
    for (uint32_t m = x->graph[v].node.choice; m; m &= m - 1) {
        const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(m)].edge;
        if (e->kind == PASS ? want < 0 && !hole
                            : want >= 0 ? e->kind == want
                                        : !hole || e->kind < 0) {
            if (e->kind >= 0)
                put_piece(d, &gw->l, (unsigned)e->kind, c);
            sl_goal_layouts(gw, c + 1, e->next, r + e->before, same, v0, r0);
            if (e->kind >= 0)
                take_piece(d, &gw->l, (unsigned)e->kind, c);
        }
    }
}
