/* lib/answer/family_config.c: every component of a family's layouts that
 * holds a goal, searched once, and the minimal ones kept (fam_configs(),
 * for family_run.c); how, in family.c's header ("The computation,
 * per space", "Minimal", "Upside down", "Threads").
 *
 * May touch: its arguments and the heap.  No I/O.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family.h"

#define MAX_DENSE ((uint64_t)UINT32_MAX)   /* a configuration's numbers
                                              (tbgen(1)) */
#define MAX_NEAR ((uint64_t)1 << 28)   /* near_dense()'s numbers; past them
                                          fam_near() searches */
#define SMALL ((uint64_t)1 << 24)      /* a configuration whose arrays a
                                          worker keeps for the next */
#define NUMBER_BYTES 5                 /* a number's: dist, lab */
#define REACHED_BYTES 16               /* a layout reached: its key, number
                                          and place in the order */

/* ---- a configuration's components ----------------------------------- */

/* A layout in the making: its cells, its placements' numbers (a field of
 * bits a line) and its number. */
typedef struct part {
    uint64_t occ, key;
    uint32_t idx;
} part;

/* A configuration: its lines with pieces, each one's sequence, the place
 * of its field in a key and its weight in a number. */
typedef struct cfg {
    unsigned n, np;
    const ltab *t[MAX_LINES];
    unsigned shift[MAX_LINES], first[MAX_LINES];   /* first: its first
                                                      piece's number */
    unsigned lev[MAX_LINES];     /* its level in the search (fspace.tab) */
    uint64_t mask[MAX_LINES];
    uint32_t R[MAX_LINES];
    uint64_t size;
} cfg;

#define TASK_LINES 3             /* lines a task fixes (job) */

typedef struct plist {
    part *a;
    size_t n, cap;
} plist;

/* One thread's share: the space it works in, its configuration and
 * buffers, its searches near a layout (on the space's board and the
 * base's), and the puzzles it kept. */
typedef struct worker {
    const run *r;
    const fspace *sp;
    cfg c;
    plist lvl[MAX_LINES];
    uint8_t *dist;               /* of each number: FAR, or its distance */
    uint32_t *lab, gen;          /* its goal's label; once the components
                                    are sorted, moved()'s marks */
    uint64_t cap;                /* of dist and lab */
    ptb_budget *mem;
    uint64_t held;               /* of mem's budget */
    uint64_t *qkey, *mkey;       /* the layouts reached, and moved()'s */
    uint32_t *qidx, *midx, *ord;
    size_t qcap, mcap, ocap;
    uint32_t *parent, *cid, *count;   /* of each goal label */
    cfg less;                    /* near_dense()'s configuration */
    uint8_t *dist2;              /* its distances (FAR: not reached) */
    uint64_t cap2, *nkey;
    uint32_t *nidx;
    size_t ncap;
    size_t gcap;
    csearch near, base;
    component comp;
    ptb_family kept;
    unsigned force[TASK_LINES];  /* the task's first lines (job) */
    int plan;                    /* count the configurations, no search */
    ptb_family_counts pl;          /* the counts (plan) */
    uint64_t numbers;            /* numbers searched or counted, in all */
    int rc;
} worker;

static uint64_t decode(const cfg *c, uint64_t key, uint32_t *p)
{
    uint64_t occ = 0;
    for (unsigned i = 0; i < c->n; i++) {
        p[i] = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        occ |= c->t[i]->cells[p[i]];
    }
    return occ;
}

/* decode(), and the cells swapped (swap_axes()) into *swapped. */
static uint64_t decode2(const cfg *c, uint64_t key, uint32_t *p,
                        uint64_t *swapped)
{
    uint64_t occ = 0, sw = 0;
    for (unsigned i = 0; i < c->n; i++) {
        p[i] = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        occ |= c->t[i]->cells[p[i]];
        sw |= c->t[i]->swapped[p[i]];
    }
    *swapped = sw;
    return occ;
}

/* The moves from placement p of line table t that the layout's cells
 * (occ, and sw swapped) leave open, bit e for move t->first[p] + e. */
static inline unsigned open_moves(const ltab *t, uint32_t p, uint64_t occ,
                                  uint64_t sw)
{
    if (t->free)
        return t->free[(size_t)p << t->len |
                       ((t->down ? sw : occ) >> t->at &
                        ((1u << t->len) - 1))];
    unsigned m = 0;
    for (uint32_t e = t->first[p]; e < t->first[p + 1]; e++)
        m |= (unsigned)!(t->move[e].swept & occ) << (e - t->first[p]);
    return m;
}

/* The pieces of the layout of key, lines in order (piece c->first[i] + j
 * is piece j of line i). */
static void layout_of(const sl_desc *d, const cfg *c, uint64_t key,
                      pieces *pc)
{
    pc->np = 0;
    for (unsigned i = 0; i < c->n; i++) {
        const ltab *t = c->t[i];
        uint32_t p = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        for (unsigned j = 0; j < t->np; j++) {
            pc->kind[pc->np] = t->kind[j];
            pc->anchor[pc->np++] = t->anchor[(size_t)p * t->np + j];
        }
    }
    fam_order_of(d, pc);
}

/* Room for n layouts in the arrays *k and *i of *cap each. */
static int room2(uint64_t **k, uint32_t **i, size_t *cap, size_t n)
{
    if (n <= *cap)
        return PTB_OK;
    size_t c = *cap ? *cap : 4096;
    while (c < n)
        c *= 2;
    uint64_t *nk = realloc(*k, c * sizeof *nk);
    if (nk)
        *k = nk;
    uint32_t *ni = realloc(*i, c * sizeof *ni);
    if (ni)
        *i = ni;
    if (!nk || !ni)
        return PTB_ENOMEM;
    *cap = c;
    return PTB_OK;
}

static int push(worker *w, size_t n, uint64_t key, uint32_t idx)
{
    if (n >= w->qcap && room2(&w->qkey, &w->qidx, &w->qcap, n + 1))
        return PTB_ENOMEM;
    w->qkey[n] = key;
    w->qidx[n] = idx;
    return PTB_OK;
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The pieces that some optimal line from the layout of key (number idx,
 * in a component of 'size' layouts) moves, a bit each: the moves one
 * nearer, from it and from every layout they lead to (marked in
 * lab[], free once the components are sorted). */
static int moved(worker *w, uint64_t key, uint32_t idx, size_t size,
                 uint64_t *out)
{
    const cfg *c = &w->c;
    uint64_t bits = 0, all = c->np < 64 ? ((uint64_t)1 << c->np) - 1
                                        : UINT64_MAX;
    size_t head = 0, tail = 0;
    if (room2(&w->mkey, &w->midx, &w->mcap, size) != PTB_OK)
        return PTB_ENOMEM;
    if (++w->gen == 0) {
        memset(w->lab, 0, w->cap * sizeof *w->lab);
        w->gen = 1;
    }
    w->lab[idx] = w->gen;
    w->mkey[tail] = key;
    w->midx[tail++] = idx;
    while (head < tail && bits != all) {
        uint32_t p[MAX_LINES];
        key = w->mkey[head];
        idx = w->midx[head++];
        uint64_t sw, occ = decode2(c, key, p, &sw);
        unsigned du = w->dist[idx];
        for (unsigned i = 0; i < c->n; i++) {
            const ltab *t = c->t[i];
            const lmove *from = t->move + t->first[p[i]];
            for (unsigned m = open_moves(t, p[i], occ, sw); m; m &= m - 1) {
                const lmove *mv = from + __builtin_ctz(m);
                uint32_t ni = idx + (mv->q - p[i]) * c->R[i];
                if (w->dist[ni] + 1u != du)
                    continue;
                bits |= (uint64_t)1 << (c->first[i] + mv->piece);
                if (w->lab[ni] == w->gen)
                    continue;
                w->lab[ni] = w->gen;
                w->mkey[tail] = (key & ~(c->mask[i] << c->shift[i])) |
                                (uint64_t)mv->q << c->shift[i];
                w->midx[tail++] = ni;
            }
        }
    }
    *out = bits;
    return PTB_OK;
}

/* Whether the layout of key is a goal of the space. */
static int is_goal(const worker *w, const cfg *c, uint64_t key, uint64_t occ)
{
    const sl_desc *d = w->sp->d;
    pieces pc;
    layout_of(d, c, key, &pc);
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        unsigned met = 0;
        for (unsigned i = 0; i < gl->n; i++)
            for (unsigned j = 0; j < pc.np; j++)
                met += pc.anchor[j] == gl->anchor[i] &&
                       pc.kind[j] == gl->kind[i];
        if (!(occ & gl->empty) && met == gl->n)
            return 1;
    }
    return 0;
}

/* The configuration w->c less piece jj of its line i, into w->less, with
 * the number and key of the layout of key less that piece into *nidx and
 * *nkey: 0 when the shorter sequence has no table (the filters left it
 * out) or the numbers would be too many; then fam_near() searches. */
static int less_cfg(worker *w, uint64_t key, unsigned i, unsigned jj,
                    uint64_t *nkey, uint32_t *nidx)
{
    const fspace *sp = w->sp;
    const cfg *c = &w->c;
    cfg *o = &w->less;
    const ltab *t = c->t[i], *u = NULL;
    uint32_t pu = 0;
    if (t->np > 1) {
        uint8_t kinds[LINE_PIECES], at[LINE_PIECES];
        uint32_t p = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        unsigned n = 0;
        for (unsigned j = 0; j < t->np; j++)
            if (j != jj) {
                kinds[n] = t->kind[j];
                at[n++] = t->anchor[(size_t)p * t->np + j];
            }
        for (unsigned x = 0; !u && x < sp->ntab[c->lev[i]]; x++) {
            const ltab *v = &sp->tab[c->lev[i]][x];
            if (v->np == n && !memcmp(v->kind, kinds, n))
                u = v;
        }
        if (!u)
            return 0;
        while (pu < u->n && memcmp(u->anchor + (size_t)pu * n, at, n))
            pu++;
        if (pu == u->n)
            return 0;
    }
    unsigned shift = 0;
    uint64_t R = 1;
    *nkey = 0;
    *nidx = 0;
    o->n = 0;
    for (unsigned k = 0; k < c->n; k++) {
        const ltab *tk = k == i ? u : c->t[k];
        uint32_t p = k == i ? pu : (uint32_t)(key >> c->shift[k] &
                                             c->mask[k]);
        if (!tk)
            continue;
        if (R * tk->n > MAX_NEAR)
            return 0;
        o->t[o->n] = tk;
        o->shift[o->n] = shift;
        o->mask[o->n] = ((uint64_t)1 << tk->bits) - 1;
        o->R[o->n] = (uint32_t)R;
        o->lev[o->n] = c->lev[k];
        o->first[o->n] = o->n ? o->first[o->n - 1] + o->t[o->n - 1]->np : 0;
        *nkey |= (uint64_t)p << shift;
        *nidx += p * (uint32_t)R;
        shift += tk->bits;
        R *= tk->n;
        o->n++;
    }
    o->size = R;
    return 1;
}

/* Whether a goal lies at most 'limit' moves from the layout of key
 * (number idx) of configuration w->less, into *near: a breadth-first
 * search from it over the configuration's numbers, cut at that depth. */
static int near_dense(worker *w, uint64_t key, uint32_t idx, unsigned limit,
                      int *near)
{
    const cfg *o = &w->less;
    size_t n = 0;
    int rc = PTB_OK;
    *near = 0;
    if (o->size > w->cap2) {
        free(w->dist2);
        w->cap2 = 0;
        if (!(w->dist2 = malloc(o->size)))
            return PTB_ENOMEM;
        memset(w->dist2, FAR, o->size);
        w->cap2 = o->size;
    }
    if (room2(&w->nkey, &w->nidx, &w->ncap, 1) != PTB_OK)
        return PTB_ENOMEM;
    w->nkey[n] = key;
    w->nidx[n++] = idx;
    w->dist2[idx] = 0;
    for (size_t h = 0; rc == PTB_OK && h < n; h++) {
        uint32_t p[MAX_LINES];
        key = w->nkey[h];
        idx = w->nidx[h];
        uint64_t sw, occ = decode2(o, key, p, &sw);
        int goal = 1;
        if (w->sp->simple)
            for (unsigned i = 0; i < o->n; i++)
                goal &= !o->t[i]->distinct || o->t[i]->isseed[p[i]];
        else
            goal = is_goal(w, o, key, occ);
        if (goal) {
            *near = 1;
            break;
        }
        unsigned du = w->dist2[idx] + 1u;
        if (du > limit)
            continue;
        for (unsigned i = 0; rc == PTB_OK && i < o->n; i++) {
            const ltab *t = o->t[i];
            const lmove *from = t->move + t->first[p[i]];
            for (unsigned m = open_moves(t, p[i], occ, sw); m; m &= m - 1) {
                const lmove *mv = from + __builtin_ctz(m);
                uint32_t ni = idx + (mv->q - p[i]) * o->R[i];
                if (w->dist2[ni] != FAR)
                    continue;
                if ((rc = room2(&w->nkey, &w->nidx, &w->ncap, n + 1)))
                    break;
                w->dist2[ni] = (uint8_t)du;
                w->nkey[n] = (key & ~(o->mask[i] << o->shift[i])) |
                             (uint64_t)mv->q << o->shift[i];
                w->nidx[n++] = ni;
            }
        }
    }
    for (size_t h = 0; h < n; h++)
        w->dist2[w->nidx[h]] = FAR;
    return rc;
}

/* Whether the component's layout f, D = 'moves' from a goal, is minimal,
 * into *ok: every piece but the distinct ones, and each family wall,
 * matters (the layout without it has no goal nearer than D).  A piece
 * that an optimal line moves (mv, a bit each) matters (the line less its
 * moves is shorter); the others are tried. */
static int minimal(worker *w, const pieces *f, uint64_t key, uint64_t mv,
                   unsigned moves, int *ok)
{
    const sl_desc *d = w->sp->d;
    const cfg *c = &w->c;
    pieces less;
    int near = 1, rc = PTB_OK;
    for (unsigned j = 0, i = 0; rc == PTB_OK && near && j < f->np; j++) {
        uint64_t lkey;
        uint32_t lidx;
        while (i + 1 < c->n && c->first[i + 1] <= j)
            i++;                 /* (piece j is of line i) */
        if (d->kind[f->kind[j]].label || (mv >> j & 1))
            continue;
        near = 0;
        if (moves > 0 && less_cfg(w, key, i, j - c->first[i], &lkey, &lidx)) {
            rc = near_dense(w, lkey, lidx, moves - 1, &near);
            continue;
        }
        less.np = 0;
        for (unsigned i = 0; i < f->np; i++)
            if (i != j) {
                less.kind[less.np] = f->kind[i];
                less.anchor[less.np++] = f->anchor[i];
            }
        near = 0;
        if (moves > 0)
            rc = fam_near(&w->near, &less, moves - 1, &near);
    }
    for (unsigned i = 0; rc == PTB_OK && near && i < w->sp->nless; i++) {
        near = 0;
        w->base.d = w->sp->less[i];
        w->base.next = w->sp->less_next[i];
        if (moves > 0)
            rc = fam_near(&w->base, f, moves - 1, &near);
    }
    *ok = near;
    return rc;
}

/* The component of layouts ord[s..e) (numbers in the queue, in order of
 * distance), kept when minimal; its image upside down too when 'mirror'
 * (its farthest layout least in the order once turned, tested as any
 * and drawn turned: the image's own puzzle). */
static int one_component(worker *w, size_t s, size_t e, int mirror)
{
    const sl_desc *d = w->sp->d;
    const cfg *c = &w->c;
    component *cp = &w->comp;
    uint32_t p[MAX_LINES];
    uint64_t best[2][2] = { { 0 } }, bkey[2] = { 0 }, mv;
    uint32_t bidx[2] = { 0 };
    int found = 0, ok, rc;
    unsigned moves = w->dist[w->qidx[w->ord[e - 1]]];
    cp->size = e - s;
    cp->moves = moves;
    memset(cp->hist, 0, (moves + 1) * sizeof *cp->hist);
    for (size_t j = s; j < e; j++)
        cp->hist[w->dist[w->qidx[w->ord[j]]]]++;
    for (size_t j = e; j > s && w->dist[w->qidx[w->ord[j - 1]]] == moves;
         j--) {
        uint32_t q = w->ord[j - 1];
        uint64_t key = w->qkey[q], o[2][2] = { { 0 } };
        decode(c, key, p);
        for (unsigned i = 0; i < c->n; i++) {
            unsigned down = d->kind[c->t[i]->kind[0]].axis != SL_ACROSS;
            o[0][down] |= c->t[i]->cells[p[i]];
            o[1][down] |= c->t[i]->turned[p[i]];
        }
        for (unsigned m = 0; m < 1u + (mirror != 0); m++)
            if (!found || o[m][0] < best[m][0] ||
                (o[m][0] == best[m][0] && o[m][1] < best[m][1])) {
                best[m][0] = o[m][0];
                best[m][1] = o[m][1];
                bkey[m] = key;
                bidx[m] = w->qidx[q];
            }
        found = 1;
    }
    for (unsigned m = 0; m < 1u + (mirror != 0); m++) {
        layout_of(d, c, bkey[m], &cp->far);
        if ((rc = moved(w, bkey[m], bidx[m], cp->size, &mv)) != PTB_OK ||
            (rc = minimal(w, &cp->far, bkey[m], mv, moves, &ok)) != PTB_OK)
            return rc;
        if (!ok)
            continue;
        if (m == 1) {
            for (unsigned j = 0; j < cp->far.np; j++)
                cp->far.anchor[j] = (uint8_t)
                    w->r->flipped[cp->far.kind[j]][cp->far.anchor[j]];
            fam_order_of(d, &cp->far);
        }
        uint64_t walls = m ? fam_flip_cells(d, d->walls) : d->walls;
        if ((rc = fam_keep(&w->kept, d, walls, cp)) != PTB_OK)
            return rc;
    }
    return PTB_OK;
}

/* The arrays of a layout number and of a layout reached, freed. */
static void dense_free(worker *w)
{
    free(w->dist);
    free(w->lab);
    free(w->qkey);
    free(w->qidx);
    free(w->ord);
    free(w->mkey);
    free(w->midx);
    w->dist = NULL;
    w->mkey = NULL;
    w->midx = NULL;
    w->lab = NULL;
    w->qkey = NULL;
    w->qidx = NULL;
    w->ord = NULL;
    w->cap = w->qcap = w->ocap = w->mcap = 0;
}

/* Room for the configuration's numbers and for ng goal labels. */
static int dense_room(worker *w, uint64_t size, size_t ng)
{
    if (size > w->cap) {
        free(w->dist);
        free(w->lab);
        w->dist = malloc(size);
        w->lab = malloc(size * sizeof *w->lab);
        w->cap = w->dist && w->lab ? size : 0;
        if (!w->cap)
            return PTB_ENOMEM;
        memset(w->dist, FAR, size);
    }
    if (ng > w->gcap) {
        size_t cap = ng + ng / 2 + 1024;
        free(w->parent);
        free(w->cid);
        free(w->count);
        w->parent = malloc(cap * sizeof *w->parent);
        w->cid = malloc(cap * sizeof *w->cid);
        w->count = malloc((cap + 1) * sizeof *w->count);
        w->gcap = w->parent && w->cid && w->count ? cap : 0;
        if (!w->gcap)
            return PTB_ENOMEM;
    }
    return PTB_OK;
}

/* The n layouts reached from ngoal goals (in the queue, in order of
 * distance) split into their components by their goals' roots, a
 * counting sort keeping that order, and each one_component(). */
static int components(worker *w, size_t n, size_t ngoal, int mirror)
{
    int rc = PTB_OK;
    size_t ncomp = 0;
    if (n > w->ocap) {
        uint32_t *o = realloc(w->ord, (n + n / 2) * sizeof *o);
        if (!o)
            return PTB_ENOMEM;
        w->ord = o;
        w->ocap = n + n / 2;
    }
    for (size_t i = 0; i < ngoal; i++) {
        uint32_t root = find(w->parent, (uint32_t)i);
        w->cid[i] = root == i ? (uint32_t)ncomp++ : w->cid[root];
    }
    memset(w->count, 0, (ncomp + 1) * sizeof *w->count);
    for (size_t h = 0; h < n; h++)
        w->count[w->cid[w->lab[w->qidx[h]]] + 1]++;
    for (size_t k = 0; k < ncomp; k++)
        w->count[k + 1] += w->count[k];
    for (size_t h = 0; h < n; h++)
        w->ord[w->count[w->cid[w->lab[w->qidx[h]]]]++] = (uint32_t)h;
    for (size_t h = 0; h < n; h++)
        w->lab[w->qidx[h]] = 0;  /* (moved()'s marks from here) */
    w->gen = 0;
    for (size_t k = 0, s = 0; rc == PTB_OK && k < ncomp; k++) {
        rc = one_component(w, s, w->count[k], mirror);
        s = w->count[k];
    }
    return rc;
}

/* Every component of the configuration that holds one of the candidate
 * goals g[0..ng): a breadth-first search from all its goals at once, each
 * layout labelled with the goal it was reached from, labels of one
 * component joined when their layouts meet; then each component from its
 * layouts, in order of distance. */
static int explore_in(worker *w, const part *g, size_t ng, int mirror)
{
    const cfg *c = &w->c;
    size_t n = 0;
    int rc = dense_room(w, c->size, ng);
    for (size_t i = 0; rc == PTB_OK && i < ng; i++) {
        if (!w->sp->simple && !is_goal(w, &w->c, g[i].key, g[i].occ))
            continue;
        w->dist[g[i].idx] = 0;
        w->lab[g[i].idx] = (uint32_t)n;
        w->parent[n] = (uint32_t)n;
        rc = push(w, n++, g[i].key, g[i].idx);
    }
    size_t ngoal = n;
    for (size_t h = 0; rc == PTB_OK && h < n; h++) {
        uint64_t key = w->qkey[h];
        uint32_t idx = w->qidx[h], p[MAX_LINES];
        uint32_t lu = find(w->parent, w->lab[idx]);   /* (labels given
                                                         as roots meet
                                                         less often) */
        unsigned du = w->dist[idx] + 1u;
        uint64_t sw, occ = decode2(c, key, p, &sw);
        for (unsigned i = 0; rc == PTB_OK && i < c->n; i++) {
            const ltab *t = c->t[i];
            const lmove *from = t->move + t->first[p[i]];
            for (unsigned m = open_moves(t, p[i], occ, sw); m; m &= m - 1) {
                const lmove *mv = from + __builtin_ctz(m);
                uint32_t ni = idx + (mv->q - p[i]) * c->R[i];
                if (w->dist[ni] == FAR) {
                    if (du >= FAR) {
                        rc = PTB_ERANGE;
                        break;
                    }
                    w->dist[ni] = (uint8_t)du;
                    w->lab[ni] = lu;
                    rc = push(w, n++, (key & ~(c->mask[i] << c->shift[i])) |
                              (uint64_t)mv->q << c->shift[i], ni);
                    if (rc != PTB_OK)
                        break;
                } else if (w->lab[ni] != lu) {
                    uint32_t o = find(w->parent, w->lab[ni]);
                    if (o != lu) {      /* (the less the root) */
                        w->parent[o > lu ? o : lu] = o > lu ? lu : o;
                        lu = o > lu ? lu : o;
                    }
                }
            }
        }
    }
    if (rc == PTB_OK)
        rc = components(w, n, ngoal, mirror);
    for (size_t h = 0; h < n; h++)
        w->dist[w->qidx[h]] = FAR;
    return rc;
}

/* explore_in(); a configuration past SMALL numbers within the workers'
 * memory budget: the worker holds its arrays' worst case for the next
 * (their numbers set back, none cleared whole); when more does not fit
 * it frees them and takes what it needs, waiting if it must, and while
 * another worker waits it keeps no more than this configuration needs. */
static int explore(worker *w, const part *g, size_t ng, int mirror)
{
    uint64_t size = w->c.size,
             need = size > SMALL ? size * (NUMBER_BYTES + REACHED_BYTES) : 0;
    if (w->held > need && ptb_budget_wanted(w->mem)) {
        dense_free(w);
        ptb_budget_give(w->mem, w->held);
        w->held = 0;
    }
    if (size <= SMALL)
        return explore_in(w, g, ng, mirror);
    uint64_t keep = (size > w->cap ? size : w->cap) * NUMBER_BYTES +
                    size * REACHED_BYTES;
    if (keep > w->held && !ptb_budget_try(w->mem, keep - w->held)) {
        dense_free(w);
        ptb_budget_give(w->mem, w->held);
        ptb_budget_take(w->mem, need);
        w->held = need;
    } else if (keep > w->held)
        w->held = keep;
    return explore_in(w, g, ng, mirror);
}

/* The code of a layout's configuration: its pieces by line and place,
 * each its line and kind (2 bytes a piece). */
static void config_code(const sl_desc *d, const pieces *pc, uint8_t *code)
{
    uint16_t at[SL_MAX_PIECES];
    uint8_t kind[SL_MAX_PIECES];
    for (unsigned j = 0; j < pc->np; j++) {
        unsigned a = pc->anchor[j], k = pc->kind[j], i = j;
        unsigned line = d->kind[k].axis == SL_ACROSS ? a / d->w
                                                     : d->h + a % d->w;
        uint16_t v = (uint16_t)(line << 8 | a);
        for (; i > 0 && at[i - 1] > v; i--) {
            at[i] = at[i - 1];
            kind[i] = kind[i - 1];
        }
        at[i] = v;
        kind[i] = (uint8_t)k;
    }
    for (unsigned j = 0; j < pc->np; j++) {
        code[2 * j] = (uint8_t)(at[j] >> 8);
        code[2 * j + 1] = kind[j];
    }
}

/* A configuration with its candidate goals g[0..ng) (ng > 0): left out
 * when it fails the filters, when it is the image upside down of one
 * searched instead, or (in a space with family walls) when no piece
 * meets one of them (its components are those of the space without it:
 * fam_meets()). */
static int leaf(worker *w, const part *g, size_t ng)
{
    const sl_desc *d = w->sp->d;
    pieces pc, turned;
    int mirror = w->sp->mirrored;
    layout_of(d, &w->c, g[0].key, &pc);
    unsigned open = d->n - (unsigned)__builtin_popcountll(d->walls);
    if (open - (unsigned)__builtin_popcountll(g[0].occ) < d->min_empty ||
        !fam_passes(&w->r->o, d, &pc) ||
        !fam_meets(d, &pc, w->sp->extra))
        return PTB_OK;
    if (w->sp->flip) {
        uint8_t a[2 * SL_MAX_PIECES], b[2 * SL_MAX_PIECES];
        turned = pc;
        for (unsigned j = 0; j < pc.np; j++)
            turned.anchor[j] = (uint8_t)
                w->r->flipped[pc.kind[j]][pc.anchor[j]];
        config_code(d, &pc, a);
        config_code(d, &turned, b);
        int cmp = memcmp(a, b, 2 * pc.np);
        if (cmp > 0)
            return PTB_OK;
        mirror = cmp < 0;
    }
    w->c.np = pc.np;
    w->numbers += w->c.size;
    if (w->plan) {
        w->pl.configs++;
        w->pl.goals += ng;
        w->pl.big += w->c.size > SMALL;
        if (w->c.size > w->pl.largest)
            w->pl.largest = w->c.size;
        return PTB_OK;
    }
    return explore(w, g, ng, mirror);
}

static int dfs(worker *w, unsigned l, uint32_t used, const part *in,
               size_t nin);

/* Line l of the configuration given sequence t (NULL: none), the
 * candidates in[0..nin) extended by its seeds, and the lines after it. */
static int step(worker *w, unsigned l, const ltab *t, uint32_t used,
                const part *in, size_t nin)
{
    cfg *c = &w->c;
    if (!t)
        return dfs(w, l + 1, used, in, nin);
    unsigned k = c->n, shift = k ? c->shift[k - 1] + c->t[k - 1]->bits : 0;
    uint64_t R = k ? c->R[k - 1] * (uint64_t)c->t[k - 1]->n : 1;
    if (shift + t->bits > 64 || R * t->n > MAX_DENSE)
        return PTB_EINVAL;
    plist *o = &w->lvl[l];
    void *a = o->a;
    if (ptb_room(&a, &o->cap, nin * t->nseed, sizeof *o->a, 1024))
        return PTB_ENOMEM;
    o->a = a;
    part *out = o->a;
    for (size_t i = 0; i < nin; i++)
        for (uint32_t s = 0; s < t->nseed; s++) {
            uint32_t p = t->seed[s];
            out->occ = in[i].occ | t->cells[p];
            out->key = in[i].key | (uint64_t)p << shift;
            out->idx = in[i].idx + p * (uint32_t)R;
            out += !(t->cells[p] & in[i].occ);
        }
    o->n = (size_t)(out - o->a);
    if (!o->n)
        return PTB_OK;
    c->t[k] = t;
    c->shift[k] = shift;
    c->mask[k] = ((uint64_t)1 << t->bits) - 1;
    c->R[k] = (uint32_t)R;
    c->lev[k] = l;
    c->first[k] = k ? c->first[k - 1] + c->t[k - 1]->np : 0;
    c->n = k + 1;
    c->size = R * t->n;
    int rc = dfs(w, l + 1, used | t->distinct, o->a, o->n);
    c->n = k;
    return rc;
}

/* Every configuration from line l on, the lines before it chosen (w->c),
 * with the candidate goals in[0..nin) of those lines. */
static int dfs(worker *w, unsigned l, uint32_t used, const part *in,
               size_t nin)
{
    const fspace *sp = w->sp;
    if ((used | sp->later[l]) != w->r->distinct)
        return PTB_OK;           /* (a distinct piece would be missing) */
    if (l == fam_n_lines(sp->d)) {
        const cfg *c = &w->c;
        w->c.size = c->n ? c->R[c->n - 1] * (uint64_t)c->t[c->n - 1]->n : 1;
        return leaf(w, in, nin);
    }
    if (l < TASK_LINES) {        /* (the task's choice) */
        unsigned f = w->force[l];
        if (f && (sp->tab[l][f - 1].distinct & used))
            return PTB_OK;
        return step(w, l, f ? &sp->tab[l][f - 1] : NULL, used, in, nin);
    }
    int rc = step(w, l, NULL, used, in, nin);
    for (unsigned i = 0; rc == PTB_OK && i < sp->ntab[l]; i++)
        if (!(sp->tab[l][i].distinct & used))
            rc = step(w, l, &sp->tab[l][i], used, in, nin);
    return rc;
}

/* The work, shared by the threads a task at a time: a space and the
 * sequences of its first TASK_LINES lines (the lines in the search's
 * order), a number in mixed radix, the digit of each line 0 for none or i
 * for its tab[i - 1]. */
typedef struct task {
    unsigned sp, first;
} task;

typedef struct job {
    const run *r;
    task *task;
    unsigned taken;              /* (atomic) */
    worker *w;
    int plan;                    /* a pass that counts (worker.plan) */
    fam_tasks t;                 /* done, weights (numbers), checkpoint,
                                    progress; its lock take()'s and give()'s
                                    too */
    const ptb_family_opts *o;
} job;

/* The tasks of space sp: the product of its first lines' choices. */
static unsigned space_tasks(const fspace *sp)
{
    unsigned n = 1;
    for (unsigned l = 0; l < TASK_LINES && l < fam_n_lines(sp->d); l++)
        n *= 1 + sp->ntab[l];
    return n;
}

static void *job_thread(void *arg)
{
    job *j = arg;
    worker *w = &j->w[__atomic_fetch_add(&j->taken, 1, __ATOMIC_RELAXED)];
    const run *r = j->r;
    unsigned i;
    int more = 0;
    while (w->rc == PTB_OK && (more = fam_tasks_next(&j->t, &i)) > 0) {
        size_t first = w->kept.n;
        uint64_t before = w->numbers;
        const fspace *sp = &r->sp[j->task[i].sp];
        part root = { 0, 0, 0 };
        w->sp = sp;
        w->near.d = sp->d;
        w->near.next = (int8_t (*)[SL_MAX_CELLS][2])sp->next;
        w->c.n = 0;
        unsigned f = j->task[i].first;
        for (unsigned l = 0; l < TASK_LINES; l++) {
            w->force[l] = l < fam_n_lines(sp->d) ? f % (1 + sp->ntab[l]) : 0;
            f /= l < fam_n_lines(sp->d) ? 1 + sp->ntab[l] : 1;
        }
        w->rc = dfs(w, 0, 0, &root, 1);
        if (w->rc != PTB_OK)
            break;
        if (j->plan)
            j->t.weight[i] = w->numbers - before;
        else
            w->rc = fam_tasks_end(&j->t, i, w->kept.level + first,
                                  w->kept.n - first);
        if (w->rc != PTB_OK)
            break;
    }
    if (w->rc == PTB_OK && more < 0)
        w->rc = more;
    dense_free(w);               /* (a worker waiting for memory waits for
                                    this one's) */
    ptb_budget_give(w->mem, w->held);
    w->held = 0;
    return NULL;
}

static void worker_free(worker *w)
{
    for (unsigned l = 0; l < MAX_LINES; l++)
        free(w->lvl[l].a);
    dense_free(w);
    free(w->parent);
    free(w->cid);
    free(w->count);
    free(w->dist2);
    free(w->nkey);
    free(w->nidx);
    fam_cs_free(&w->near);
    fam_cs_free(&w->base);
    for (size_t j = 0; j < w->kept.n; j++)
        free(w->kept.level[j].hist);
    free(w->kept.level);
}

/* One pass over the tasks not done, on 'threads' threads: a count
 * (j->plan, into *pl) or the search (the puzzles into fam). */
static int pass(job *j, unsigned threads, ptb_budget *mem, ptb_family *fam,
                ptb_family_counts *pl)
{
    const run *r = j->r;
    int rc = PTB_OK;
    j->t.next = j->taken = 0;
    if (!(j->w = calloc(threads, sizeof *j->w)))
        return PTB_ENOMEM;
    for (unsigned i = 0; i < threads; i++) {
        csearch cs = { .d = r->base, .metric = r->base->metric[0],
                       .next = r->sp[0].next };
        j->w[i].r = r;
        j->w[i].mem = mem;
        j->w[i].plan = j->plan;
        j->w[i].near = j->w[i].base = cs;
    }
    ptb_run_threads(job_thread, j, threads);
    for (unsigned i = 0; i < threads; i++) {
        worker *w = &j->w[i];
        rc = rc != PTB_OK ? rc : w->rc;
        if (rc == PTB_OK && j->plan) {
            pl->configs += w->pl.configs;
            pl->numbers += w->numbers;
            pl->goals += w->pl.goals;
            pl->big += w->pl.big;
            if (w->pl.largest > pl->largest)
                pl->largest = w->pl.largest;
        }
        if (rc == PTB_OK && !j->plan)
            rc = fam_gather(fam, &w->kept);
    }
    for (unsigned i = 0; i < threads; i++)
        worker_free(&j->w[i]);
    free(j->w);
    j->w = NULL;
    return rc;
}

/* The pass that counts the tasks not done: their weights, the progress's
 * total and (pl) the plan's counts; the weights kept beside the
 * checkpoint (fam_tasks_counted()). */
static int count_pass(job *j, unsigned threads, ptb_budget *mem,
                      ptb_family_counts *pl)
{
    ptb_family_counts count = { 0 };
    j->plan = 1;
    int rc = pass(j, threads, mem, NULL, &count);
    j->plan = 0;
    count.tasks = j->t.ntask;
    count.memory = count.largest * (NUMBER_BYTES + REACHED_BYTES);
    if (pl)
        *pl = count;
    if (rc == PTB_OK)
        fam_tasks_counted(&j->t);
    return rc;
}

int fam_configs(const sl_desc *d, const fam_opts *o, const char *text,
                const ptb_family_opts *fo, ptb_family *fam,
                ptb_family_counts *pl, char *err, size_t errcap)
{
    unsigned threads = fo->threads < 1 ? 1 : fo->threads > 256 ? 256
                                                              : fo->threads;
    unsigned ntask = 0;
    run r = { .o = *o, .base = d };
    job j = { .r = &r, .o = fo };
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    ptb_budget mem;
    ptb_budget_init(&mem, pages > 0 && page > 0
                              ? (uint64_t)pages * (uint64_t)page / 4 * 3
                              : (uint64_t)8 << 30);
    int rc = fam_spaces(&r, d);
    for (unsigned k = 0; rc == PTB_OK && k < d->nkinds; k++) {
        r.distinct |= d->kind[k].label ? 1u << k : 0;
        for (unsigned a = 0; a < d->n; a++)
            r.flipped[k][a] = (int8_t)fam_flip_anchor(d, k, a);
    }
    for (unsigned s = 0; rc == PTB_OK && s < r.nsp; s++)
        ntask += space_tasks(&r.sp[s]);
    if (rc == PTB_OK && !(j.task = calloc(ntask, sizeof *j.task)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK) {
        unsigned t = 0;
        for (unsigned s = 0; s < r.nsp; s++)
            for (unsigned f = 0; f < space_tasks(&r.sp[s]); f++)
                j.task[t++] = (task){ s, f };
    }
    /* The progress's size: the weights of the tasks left, read from
     * beside the checkpoint when a run counted them, else counted (and
     * kept there). */
    int trc = fam_tasks_open(&j.t, fo, text, ntask, pl || rc != PTB_OK,
                             fo->progress != NULL, "search", err, errcap);
    rc = rc != PTB_OK ? rc : trc;
    if (rc == PTB_OK && !j.t.counted && (pl || (fo->progress && !fo->take)))
        rc = count_pass(&j, threads, &mem, pl);
    if (rc == PTB_OK && !pl)
        rc = pass(&j, threads, &mem, fam, NULL);
    if (rc == PTB_EINVAL)
        ptb_errf(err, errcap, "a configuration of the family has more "
                 "than %llu layouts", (unsigned long long)MAX_DENSE);
    rc = fam_tasks_close(&j.t, rc, pl ? NULL : fam);
    free(j.task);
    for (unsigned s = 0; s < r.nsp; s++)
        fam_space_free(&r.sp[s]);
    free(r.sp);
    ptb_budget_destroy(&mem);
    return rc;
}
