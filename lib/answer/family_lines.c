/* lib/answer/family_lines.c: the lines of a family's board, the
 * sequences of kinds each line may hold with their placements and moves
 * along it (its tables), and the family's spaces, the board with each
 * choice of family walls (fam_spaces(), for family_config.c); how, in
 * family.c's header and doc/design.md ("Families").
 *
 * May touch: its arguments and the heap.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "family.h"

static unsigned line_axis(const sl_desc *d, unsigned l)
{
    return l < d->h ? SL_ACROSS : SL_DOWN;
}

static unsigned line_len(const sl_desc *d, unsigned l)
{
    return l < d->h ? d->w : d->h;
}

/* The cell at place i of line l. */
static unsigned line_cell(const sl_desc *d, unsigned l, unsigned i)
{
    return l < d->h ? l * d->w + i : i * d->w + (l - d->h);
}

static void ltab_free(ltab *t)
{
    free(t->swapped);
    free(t->free);
    free(t->anchor);
    free(t->cells);
    free(t->turned);
    free(t->first);
    free(t->seed);
    free(t->isseed);
    free(t->move);
}

typedef struct tbuild {
    const fspace *sp;
    unsigned l;
    ltab *t;
    uint8_t at[LINE_PIECES];
    int rc;
} tbuild;

static void place_rec(tbuild *b, unsigned i, unsigned from, uint64_t occ)
{
    const sl_desc *d = b->sp->d;
    ltab *t = b->t;
    if (b->rc != PTB_OK)
        return;
    if (i == t->np) {
        void *a = t->anchor, *c = t->cells;
        size_t cap = t->cap;
        if (ptb_room(&a, &cap, t->n * t->np + t->np, 1, 64) ||
            (t->anchor = a, ptb_room(&c, &t->mcap, t->n, sizeof *t->cells,
                                     16))) {
            b->rc = PTB_ENOMEM;
            return;
        }
        t->cap = cap;
        t->cells = c;
        memcpy(t->anchor + (size_t)t->n * t->np, b->at, t->np);
        t->cells[t->n++] = occ;
        return;
    }
    const sl_kind *k = &d->kind[t->kind[i]];
    for (unsigned pos = from; pos < line_len(d, b->l); pos++) {
        unsigned a = line_cell(d, b->l, pos);
        if (!(k->fit >> a & 1) || (k->shape << a & occ))
            continue;
        b->at[i] = (uint8_t)a;
        place_rec(b, i + 1, pos + 1, occ | k->shape << a);
    }
}

/* The place on line l of cell a. */
static unsigned line_place(const sl_desc *d, unsigned l, unsigned a)
{
    return l < d->h ? a % d->w : a / d->w;
}

/* t's moves, seeds and cells upside down, from its placements. */
static int tab_moves(const fspace *sp, unsigned l, ltab *t)
{
    const sl_desc *d = sp->d;
    size_t mcap = 0;
    uint8_t at[LINE_PIECES];
    if (!(t->first = malloc((t->n + 1) * sizeof *t->first)) ||
        !(t->seed = malloc(t->n * sizeof *t->seed)) ||
        !(t->isseed = calloc(t->n, 1)) ||
        !(t->turned = malloc(t->n * sizeof *t->turned)))
        return PTB_ENOMEM;
    for (uint32_t p = 0; p < t->n; p++) {
        const uint8_t *pa = t->anchor + (size_t)p * t->np;
        int seed = 1;
        t->first[p] = (uint32_t)t->nmove;
        t->turned[p] = fam_flip_cells(d, t->cells[p]);
        for (unsigned j = 0; j < t->np; j++) {
            const sl_kind *k = &d->kind[t->kind[j]];
            uint64_t own = k->shape << pa[j], others = t->cells[p] & ~own;
            if (k->label && !(sp->gset[t->kind[j]] >> pa[j] & 1))
                seed = 0;
            for (int dir = -1; dir <= 1; dir += 2) {
                int pos = (int)line_place(d, l, pa[j]);
                uint64_t swept = 0;
                for (;;) {
                    pos += dir;
                    if (pos < 0 || pos >= (int)line_len(d, l))
                        break;
                    unsigned a = line_cell(d, l, (unsigned)pos);
                    if (!(k->fit >> a & 1) || (k->shape << a & others))
                        break;
                    swept |= k->shape << a;
                    memcpy(at, pa, t->np);
                    at[j] = (uint8_t)a;
                    uint32_t q = 0;
                    while (q < t->n &&
                           memcmp(t->anchor + (size_t)q * t->np, at, t->np))
                        q++;
                    void *m = t->move;
                    if (q == t->n)
                        return PTB_EINVAL;       /* (cannot happen) */
                    if (ptb_room(&m, &mcap, t->nmove, sizeof *t->move, 16))
                        return PTB_ENOMEM;
                    t->move = m;
                    t->move[t->nmove].swept = swept & ~own;
                    t->move[t->nmove].q = q;
                    t->move[t->nmove++].piece = (uint8_t)j;
                    if (d->metric[0] == SL_STEP)
                        break;
                }
            }
        }
        if (seed)
            t->seed[t->nseed++] = p;
        t->isseed[p] = (uint8_t)seed;
    }
    t->first[t->n] = (uint32_t)t->nmove;
    while (((uint64_t)1 << t->bits) < t->n)
        t->bits++;
    return PTB_OK;
}

/* Cells with rows and columns swapped: the cell of row r and column x
 * at bit x * h + r, so that a column's cells are bits in a row. */
static uint64_t swap_axes(const sl_desc *d, uint64_t cells)
{
    uint64_t out = 0;
    for (; cells; cells &= cells - 1) {
        unsigned a = (unsigned)__builtin_ctzll(cells);
        out |= (uint64_t)1 << (a % d->w * d->h + a / d->w);
    }
    return out;
}

#define MOST_FREE ((size_t)1 << 20)   /* entries of a table's free[] */

/* t's cells swapped and, when its moves sweep only its line's cells, the
 * moves each covering of the line leaves open (t->free). */
static int tab_free(const fspace *sp, unsigned l, ltab *t)
{
    const sl_desc *d = sp->d;
    uint64_t on = 0;
    uint32_t most = 0;
    t->len = line_len(d, l);
    t->down = l >= d->h;
    t->at = t->down ? (l - d->h) * d->h : l * d->w;
    if (!(t->swapped = malloc(t->n * sizeof *t->swapped)))
        return PTB_ENOMEM;
    for (uint32_t p = 0; p < t->n; p++) {
        t->swapped[p] = swap_axes(d, t->cells[p]);
        if (t->first[p + 1] - t->first[p] > most)
            most = t->first[p + 1] - t->first[p];
    }
    if (most > 16)
        return PTB_EINVAL;       /* (cannot happen: a piece moves over the
                                    gaps beside it, at most 2 x 8) */
    for (unsigned i = 0; i < t->len; i++)
        on |= (uint64_t)1 << line_cell(d, l, i);
    for (size_t e = 0; e < t->nmove; e++)
        if (t->move[e].swept & ~on)
            return PTB_OK;
    if (((size_t)t->n << t->len) > MOST_FREE)
        return PTB_OK;
    if (!(t->free = malloc(((size_t)t->n << t->len) * sizeof *t->free)))
        return PTB_ENOMEM;
    for (uint32_t p = 0; p < t->n; p++) {
        unsigned sw[16], nm = t->first[p + 1] - t->first[p];
        for (unsigned e = 0; e < nm; e++) {
            sw[e] = 0;
            for (unsigned i = 0; i < t->len; i++)
                sw[e] |= (unsigned)(t->move[t->first[p] + e].swept >>
                                    line_cell(d, l, i) & 1) << i;
        }
        for (unsigned b = 0; b < 1u << t->len; b++) {
            unsigned m = 0;
            for (unsigned e = 0; e < nm; e++)
                m |= (unsigned)!(sw[e] & b) << e;
            t->free[(size_t)p << t->len | b] = (uint16_t)m;
        }
    }
    return PTB_OK;
}

/* Whether every layout with sequence t on line l fails the family's
 * filters, whatever the other lines hold: a distinct piece not alone on
 * its line, a row filled by its straight pieces and walls, a column by
 * its straight pieces. */
static int tab_fails(const run *r, const fspace *sp, unsigned l,
                     const ltab *t)
{
    const sl_desc *d = sp->d;
    unsigned cells = 0, straight = 1, len = line_len(d, l);
    if (r->o.alone && t->distinct && t->np > 1)
        return 1;
    for (unsigned j = 0; j < t->np; j++) {
        const sl_kind *k = &d->kind[t->kind[j]];
        unsigned a = t->anchor[j], top = line_place(d, l, a);
        uint64_t on = 0;
        for (unsigned i = top; i < len; i++)
            on |= (uint64_t)1 << line_cell(d, l, i);
        straight &= (k->shape << a & ~on) == 0;
        cells += k->cells;
    }
    if (l < d->h)
        for (unsigned i = 0; i < len; i++)
            cells += (unsigned)(d->walls >> line_cell(d, l, i) & 1);
    return r->o.open_lines && straight && cells == len;
}

typedef struct tabs {
    ltab *t;
    unsigned n;
    size_t cap;
} tabs;

/* Every sequence on line l that starts with kinds[0..np) and fits, into
 * ts (each table with a placement and, with a distinct piece, a seed). */
static int seq_rec(const run *r, const fspace *sp, unsigned l,
                   uint8_t *kinds, unsigned np, uint32_t distinct, tabs *ts)
{
    const sl_desc *d = sp->d;
    if (np == LINE_PIECES)
        return PTB_OK;
    for (unsigned k = 0; k < d->nkinds; k++) {
        if (d->kind[k].axis != line_axis(d, l) ||
            (d->kind[k].label && distinct >> k & 1))
            continue;
        ltab t = { .np = np + 1 };
        memcpy(t.kind, kinds, np);
        t.kind[np] = (uint8_t)k;
        t.distinct = distinct | (d->kind[k].label ? 1u << k : 0);
        tbuild b = { sp, l, &t, { 0 }, PTB_OK };
        place_rec(&b, 0, 0, 0);
        int rc = b.rc;
        if (rc == PTB_OK && t.n)
            rc = tab_moves(sp, l, &t);
        if (rc == PTB_OK && t.n)
            rc = tab_free(sp, l, &t);
        if (rc != PTB_OK || !t.n || tab_fails(r, sp, l, &t)) {
            ltab_free(&t);
            if (rc != PTB_OK)
                return rc;
            continue;        /* (longer sequences fail as this one) */
        }
        if (!t.distinct || t.nseed) {
            void *a = ts->t;
            if (ptb_room(&a, &ts->cap, ts->n, sizeof t, 8)) {
                ltab_free(&t);
                return PTB_ENOMEM;
            }
            ts->t = a;
            ts->t[ts->n++] = t;
        } else
            ltab_free(&t);
        if ((rc = seq_rec(r, sp, l, t.kind, np + 1, t.distinct, ts)))
            return rc;
    }
    return PTB_OK;
}

void fam_space_free(fspace *sp)
{
    for (unsigned l = 0; l < MAX_LINES; l++) {
        for (unsigned i = 0; i < sp->ntab[l]; i++)
            ltab_free(&sp->tab[l][i]);
        free(sp->tab[l]);
    }
    sl_free(sp->own);
    for (unsigned i = 0; i < sp->nless; i++)
        sl_free(sp->less_own[i]);
    free(sp->less_next);
    memset(sp, 0, sizeof *sp);
}

/* The lines in the order the search takes them: those with a distinct
 * piece first, then each time the line that crosses most of the cells the
 * lines taken may cover (their goals' placements for a distinct piece),
 * so that overlaps cut the candidates early. */
static void order_lines(fspace *sp)
{
    const sl_desc *d = sp->d;
    unsigned nl = fam_n_lines(d), n = 0, taken[MAX_LINES] = { 0 };
    unsigned ntab[MAX_LINES];
    ltab *tab[MAX_LINES];
    uint64_t covered = 0;
    while (n < nl) {
        unsigned best = nl, most = 0;
        int dist = 0;
        for (unsigned l = 0; l < nl; l++) {
            uint64_t on = 0;
            int has = 0;
            if (taken[l])
                continue;
            for (unsigned i = 0; i < line_len(d, l); i++)
                on |= (uint64_t)1 << line_cell(d, l, i);
            for (unsigned i = 0; i < sp->ntab[l]; i++)
                has |= sp->tab[l][i].distinct != 0;
            unsigned cross = (unsigned)__builtin_popcountll(on & covered);
            if (best == nl || has > dist || (has == dist && cross > most)) {
                best = l;
                most = cross;
                dist = has;
            }
        }
        taken[best] = 1;
        tab[n] = sp->tab[best];
        ntab[n++] = sp->ntab[best];
        for (unsigned i = 0; i < sp->ntab[best]; i++) {
            const ltab *t = &sp->tab[best][i];
            for (uint32_t s = 0; s < t->nseed; s++)
                covered |= t->cells[t->seed[s]];
        }
    }
    memcpy(sp->tab, tab, nl * sizeof *tab);
    memcpy(sp->ntab, ntab, nl * sizeof *ntab);
}

/* The space of d with family wall 'extra' (d is owned when own): its
 * goals' anchors and every line's sequences. */
static int space_open(const run *r, fspace *sp, const sl_desc *d,
                      sl_desc *own, uint64_t extra)
{
    memset(sp, 0, sizeof *sp);
    sp->d = d;
    sp->own = own;
    sp->extra = extra;
    fam_make_steps(d, sp->next);
    sp->simple = d->ngoals == 1 && d->goal[0].empty == 0;
    for (unsigned k = 0; k < d->nkinds; k++) {
        for (unsigned g = 0; g < d->ngoals; g++) {
            const sl_goal *gl = &d->goal[g];
            unsigned named = 0;
            for (unsigned i = 0; i < gl->n; i++)
                if (gl->kind[i] == k) {
                    sp->gset[k] |= (uint64_t)1 << gl->anchor[i];
                    named++;
                }
            if (!named)
                sp->gset[k] = UINT64_MAX;
            if (d->kind[k].label && named != 1)
                sp->simple = 0;
            if (!d->kind[k].label && named)
                sp->simple = 0;
        }
    }
    for (unsigned l = 0; l < fam_n_lines(d); l++) {
        uint8_t kinds[LINE_PIECES];
        tabs ts = { NULL, 0, 0 };
        int rc = seq_rec(r, sp, l, kinds, 0, 0, &ts);
        sp->tab[l] = ts.t;          /* (by line, until order_lines()) */
        sp->ntab[l] = ts.n;
        if (rc != PTB_OK)
            return rc;
    }
    order_lines(sp);
    for (unsigned l = fam_n_lines(d); l-- > 0;) {
        sp->later[l] = sp->later[l + 1];
        for (unsigned i = 0; i < sp->ntab[l]; i++)
            sp->later[l] |= sp->tab[l][i].distinct;
    }
    return PTB_OK;
}

/* The space of the family walls 'extra' into r->sp (none when no goal is
 * left); 'flip': the family is its own image upside down. */
static int wall_space(run *r, const sl_desc *d, uint64_t extra, int flip)
{
    uint64_t image = flip ? fam_flip_cells(d, extra) : extra;
    sl_desc *wd;
    int rc = sl_walled(d, extra, &wd);
    if (rc != PTB_OK)
        return rc;
    if (!wd->ngoals) {
        sl_free(wd);
        return PTB_OK;
    }
    fspace *sp = &r->sp[r->nsp++];
    if ((rc = space_open(r, sp, wd, wd, extra)) == PTB_OK &&
        !(sp->less_next = calloc(MAX_WALLS, sizeof *sp->less_next)))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        rc = fam_less(d, extra, &sp->nless, sp->less, sp->less_own,
                      sp->less_next);
    sp->mirrored = flip && image > extra;
    sp->flip = flip && image == extra;
    return rc;
}

/* The family's spaces: the base, then one a family wall's cell, then (for
 * 'walls 2') one a pair of cells, the second cell after the first (none
 * on the base's walls, none without goals; when the family is its own
 * image upside down, of walls and their image, the one whose cells read
 * as the greater binary number is not searched: the other, its image,
 * gives its puzzles; for one wall, none in a row below the middle). */
int fam_spaces(run *r, const sl_desc *d)
{
    int flip = fam_flips(d), rc;
    size_t n = 1;
    if (r->o.walls >= 1)
        n += d->n;
    if (r->o.walls >= 2)
        n += (size_t)d->n * (d->n - 1) / 2;
    if (!(r->sp = calloc(n, sizeof *r->sp)))
        return PTB_ENOMEM;
    rc = space_open(r, &r->sp[r->nsp++], d, NULL, 0);
    r->sp[0].flip = flip;
    for (unsigned c = 0; rc == PTB_OK && r->o.walls >= 1 && c < d->n; c++) {
        uint64_t extra = (uint64_t)1 << c;
        if (!(d->walls & extra) &&
            (!flip || fam_flip_cells(d, extra) >= extra))
            rc = wall_space(r, d, extra, flip);
    }
    for (unsigned a = 0; rc == PTB_OK && r->o.walls >= 2 && a < d->n; a++)
        for (unsigned b = a + 1; rc == PTB_OK && b < d->n; b++) {
            uint64_t extra = (uint64_t)1 << a | (uint64_t)1 << b;
            if (!(d->walls & extra) &&
                (!flip || fam_flip_cells(d, extra) >= extra))
                rc = wall_space(r, d, extra, flip);
        }
    return rc;
}
