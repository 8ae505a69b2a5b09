/* lib/puzzles/slide_fold.c: the mirror image folded (puzzle_slide.c has
 * the design): the fold rows and their paths made or read from a table,
 * each checked as a walk first comes to it, and the row hash. */
#include "slide_engine.h"

/* ==== the mirror image: one state for a layout and its mirror ========== */

/* When the board, the kinds of pieces and the goals are their own mirror
 * images (left and right swapped: sl_foldable()), a layout and its mirror
 * image are equally far from the goals, and a table of layouts keeps one
 * state for the two: the one that comes first in the programme's order
 * (cell by cell in reading order, empty before the kinds in order), the
 * canonical one.  l comes before its mirror image M(l) when, at the first
 * row where the two differ, l's row does: every piece is anchored in the
 * row of its mirror image's anchor, so above that row the pieces are
 * their own mirror images, and so are the cells they cover, and the first
 * cell where the rows differ is free in both.  The canonical layouts are
 * ranked by a programme over the rows, on top of the graph: at a row's
 * first cell, a node v that rows equal to their mirror images lead to (a
 * fold row) has its paths through the row in order, each with its plain
 * completions before it (off), its node at the next row, and whether the
 * row is before its mirror image or the same (a row after it is left
 * out); F(v), the canonical completions of v, adds total(end) for a row
 * before, F(end) for a row the same, and F of the end of the board is 1.
 * A canonical layout's rank adds at each fold row the F-counts of the
 * paths before its own; from its first row before its mirror image on,
 * the plain completions before its own choices (fold_row, fold_path).
 * On a graph made here (tbgen's search) a rank takes each row by one
 * look-up in a hash of all the graph's rows (sl_row_hash(), row_rank()). */

/* The cell in the mirror image of cell c; the mirror image of cells. */
static unsigned mirror_cell(const sl_desc *d, unsigned c)
{
    return c - c % d->w + d->w - 1 - c % d->w;
}

static uint64_t mirror_cells(const sl_desc *d, uint64_t cells)
{
    uint64_t m = 0;
    for (; cells; cells &= cells - 1)
        m |= (uint64_t)1 << mirror_cell(d, ptb_low_bit(cells));
    return m;
}

/* The anchor of the mirror image of a piece of kind k anchored at a. */
static unsigned mirror_anchor(const sl_desc *d, unsigned k, unsigned a)
{
    return ptb_low_bit(mirror_cells(d, d->kind[k].shape << a));
}

/* Whether the description is its own mirror image: the walls; each kind's
 * mirror image a kind (into mirror[]) with as many pieces, the same label
 * (a distinct piece must be its own mirror image) and the same axis; and
 * each goal's mirror image a goal.  Only for the programme's tables
 * without a parity. */
int sl_foldable(sl_ctx *x)
{
    const sl_desc *d = x->d;
    if (x->level || x->npar > 1 || mirror_cells(d, d->walls) != d->walls)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++) {
        const sl_kind *kd = &d->kind[k];
        uint64_t m = kd->fit ? mirror_cells(d, kd->shape <<
                                                   ptb_low_bit(kd->fit))
                             : 0;
        int j = -1;
        for (unsigned i = 0; m && i < d->nkinds; i++)
            if (d->kind[i].shape == m >> ptb_low_bit(m) &&
                d->kind[i].count == kd->count && x->most[i] == x->most[k] &&
                d->kind[i].label == kd->label && d->kind[i].axis == kd->axis)
                j = (int)i;
        if (j < 0)
            return 0;
        x->mirror[k] = (int8_t)j;
        for (uint64_t f = kd->fit; f; f &= f - 1)
            place_of(x, k, ptb_low_bit(f))->mimage =
                (uint64_t)(j + 1)
                << 8 * (mirror_anchor(d, k, ptb_low_bit(f)) % d->w);
    }
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        int found = 0;
        for (unsigned h = 0; h < d->ngoals && !found; h++) {
            const sl_goal *gh = &d->goal[h];
            found = gh->n == gl->n &&
                    gh->empty == mirror_cells(d, gl->empty);
            for (unsigned i = 0; found && i < gl->n; i++) {
                unsigned a = mirror_anchor(d, gl->kind[i], gl->anchor[i]);
                int has = 0;
                for (unsigned j = 0; j < gh->n; j++)
                    has |= gh->anchor[j] == a &&
                           gh->kind[j] == (unsigned)x->mirror[gl->kind[i]];
                found = has;
            }
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* The paths through the row of cells c0.. from node v, in order, into
 * out[] (rows after their mirror images left out); on a graph read from
 * a table, each node checked (PTB_ECORRUPT when one fails).  With want
 * (check_row()), each path found is compared with the next of want[0 ..
 * nwant) instead, sum the F-counts of those before it (PTB_ECORRUPT at
 * the first that differs). */
typedef struct row_walk {
    const sl_ctx *x;
    unsigned c0;
    uint8_t at[SL_MAX_CELLS];    /* the row's anchors so far, else 0 */
    fold_path *out;
    size_t n, cap;
    uint64_t *rows;              /* or NULL: each path's row_bytes() */
    size_t rcap;
    int all;                     /* 1: rows after their mirror image too */
    int rc;
    const fold_path *want;       /* or NULL */
    size_t nwant;
    uint64_t sum;
} row_walk;

static uint64_t path_count(const sl_ctx *x, const fold_path *p, unsigned c0);

/* A path of row_paths() ended at node v, off its plain completions before
 * it and m its row's mirror image (below). */
static inline void row_end(row_walk *rw, uint32_t v, uint64_t off,
                           uint64_t m)
{
    const sl_ctx *x = rw->x;
    uint64_t b = row_bytes(x, rw->at, rw->c0);
    if (rw->all)
        m = b;
    if (row_order(b) > row_order(m))
        return;
    if (rw->want) {
        const fold_path *p = rw->want + rw->n;
        uint64_t t;
        if (rw->n >= rw->nwant || p->off != off || p->end != v ||
            p->same != (b == m) || p->before != rw->sum ||
            (t = path_count(x, p, rw->c0)) > MAX_LAYOUTS) {
            rw->rc = PTB_ECORRUPT;
            return;
        }
        rw->sum += t;
        rw->n++;
        return;
    }
    if ((rw->rc = push((void **)&rw->out, &rw->cap, rw->n,
                       sizeof *rw->out, MAX_FOLD_PATHS)) != PTB_OK ||
        (rw->rows &&
         (rw->rc = push((void **)&rw->rows, &rw->rcap, rw->n,
                        sizeof *rw->rows, MAX_FOLD_PATHS)) != PTB_OK))
        return;
    if (rw->rows)
        rw->rows[rw->n] = b;
    rw->out[rw->n++] = (fold_path){ off, 0, v, b == m };
}

/* (c: a cell of the row, before its end; m: the mirror image of the row
 * so far, mirror_row()'s, made a piece at a time; the paths' ends taken
 * here, not by a call more each) */
static void row_paths(row_walk *rw, unsigned c, uint32_t v, uint64_t off,
                      uint64_t m)
{
    const sl_ctx *x = rw->x;
    const int last = c + 1 == rw->c0 + x->d->w;
    if (x->lazy && !node_checked(x, v, c)) {
        rw->rc = PTB_ECORRUPT;
        return;
    }
    for (uint32_t ch = x->graph[v].node.choice; ch && !rw->rc; ch &= ch - 1) {
        const sl_edge *e = &x->graph[v + EDGES + ptb_low_bit(ch)].edge;
        int k = e->kind;
        uint64_t mk = k >= 0 ? m | place_of(x, (unsigned)k, c)->mimage : m;
        rw->at[c] = (uint8_t)(k >= 0 ? k + 1 : 0);
        if (last)
            row_end(rw, e->next, off + e->before, mk);
        else
            row_paths(rw, c + 1, e->next, off + e->before, mk);
    }
    rw->at[c] = 0;
}

/* A path's off or before, the field at byte 'at'. */
static inline uint64_t path_key(const fold_path *p, size_t at)
{
    uint64_t k;
    memcpy(&k, (const char *)p + at, sizeof k);
    return k;
}

/* Makes a fold row's guide into guide[]; or, guide NULL, whether want[]
 * is that guide.  Part b's least key is ceil(b range / n), kept as its
 * quotient q and remainder e of (b range + n - 1) / n from part to part
 * (no division a part); each path's key read at the offset of its
 * field. */
static int make_guide(const sl_ctx *x, const fold_row *fr, int by_off,
                      uint32_t *guide, const uint32_t *want)
{
    const fold_path *p = x->fpath + fr->first;
    const size_t at = by_off ? offsetof(fold_path, off)
                             : offsetof(fold_path, before);
    uint32_t n = row_n(fr), j = 0;
    if (!n)
        return 1;
    uint64_t range = guide_range(x, fr, by_off), qs = range / n,
             es = range % n, q = 0, e = n - 1;
    for (uint32_t b = 0; b < n; b++) {
        while (j + 1 < n && path_key(&p[j + 1], at) <= q)
            j++;
        if (guide)
            guide[b] = j;
        else if (want[b] != j)
            return 0;
        q += qs;                        /* (the next part's) */
        if ((e += es) >= n) {
            e -= n;
            q++;
        }
    }
    return 1;
}

/* F of the node that ends path p of a fold row at cell c0 (the end of the
 * board's is 1); UINT64_MAX when that node's fold row is not its own
 * (only in a table). */
static uint64_t path_count(const sl_ctx *x, const fold_path *p, unsigned c0)
{
    uint32_t f = x->graph[p->end].node.frow;
    if (!p->same)
        return x->graph[p->end].node.total;
    if (c0 + x->d->w == x->d->n)
        return 1;
    return f - 1u < x->nfrow && x->frow[f - 1].node == p->end
               ? x->frow[f - 1].count : UINT64_MAX;
}

/* The cell of a graph's node v (lo[] falls cell by cell). */
unsigned sl_node_cell(const sl_ctx *x, uint32_t v)
{
    unsigned c = 0;
    while (c + 1 < x->d->n && v < x->lo[c])
        c++;
    return c;
}

/* Folds the mirror image when the description allows it: the fold rows,
 * found from the root down, then counted from the bottom up; the space is
 * then the canonical layouts.  A board whose rows have too many paths to
 * list (MAX_FOLD_PATHS) is left unfolded.  (A graph read from a table
 * came with its fold rows: load_graph().) */
int sl_make_fold(sl_ctx *x)
{
    const sl_desc *d = x->d;
    row_walk rw = { .x = x, .cap = 1024, .rc = PTB_OK };
    size_t rcap = 64;
    if (x->lazy || x->size > MAX_LAYOUTS || !sl_foldable(x))
        return PTB_OK;                  /* (past it: no table, no fold) */
    x->frow = malloc(rcap * sizeof *x->frow);
    rw.out = malloc(rw.cap * sizeof *rw.out);
    if (!x->frow || !rw.out) {
        free(rw.out);
        return PTB_ENOMEM;
    }
    x->frow[x->nfrow++] = (fold_row){ 0, x->root, 0 };
    x->graph[x->root].node.frow = 1;
    for (size_t i = 0; i < x->nfrow && rw.rc == PTB_OK; i++) {
        unsigned c0 = rw.c0 = sl_node_cell(x, x->frow[i].node);
        x->frow[i].first = (uint32_t)rw.n;
        row_paths(&rw, c0, x->frow[i].node, 0, 0);
        for (size_t j = x->frow[i].first; j < rw.n; j++) {
            uint32_t u = rw.out[j].end;
            if (!rw.out[j].same || c0 + d->w == d->n ||
                x->graph[u].node.frow)
                continue;
            int rc = push((void **)&x->frow, &rcap, x->nfrow + 1,
                          sizeof *x->frow, SIZE_MAX);
            if (rc != PTB_OK) {
                free(rw.out);
                return rc;
            }
            x->frow[x->nfrow] = (fold_row){ 0, u, 0 };
            x->graph[u].node.frow = (uint32_t)++x->nfrow;
        }
    }
    x->fpath = rw.out;
    x->nfpath = rw.n;
    if (rw.rc == PTB_EINVAL) {          /* too many rows to list: the
                                           layouts unfolded */
        for (size_t i = 0; i < x->nfrow; i++)
            x->graph[x->frow[i].node].node.frow = 0;
        free(x->frow);
        free(x->fpath);
        x->frow = NULL, x->fpath = NULL;
        x->nfrow = x->nfpath = 0;
        return PTB_OK;
    }
    if (rw.rc != PTB_OK)
        return rw.rc;
    x->frow[x->nfrow] = (fold_row){ 0, 0, (uint32_t)x->nfpath };
    for (size_t i = x->nfrow; i-- > 0;) {   /* a fold row's ends are below */
        fold_row *fr = &x->frow[i];
        unsigned c0 = sl_node_cell(x, fr->node);
        uint64_t sum = 0;
        for (uint32_t j = fr->first; j < fr[1].first; j++) {
            x->fpath[j].before = sum;
            sum += path_count(x, &x->fpath[j], c0);
        }
        fr->count = sum;
    }
    int rc = (x->fguide = malloc((2 * x->nfpath + 1) *
                                 sizeof *x->fguide)) ? PTB_OK : PTB_ENOMEM;
    for (size_t i = 0; rc == PTB_OK && i < x->nfrow; i++)
        for (int by_off = 0; by_off < 2; by_off++)
            make_guide(x, &x->frow[i], by_off,
                       guide_of(x, &x->frow[i], by_off), NULL);
    if (rc == PTB_OK) {
        x->fold = 1;
        x->size = x->frow[0].count;
    }
    return rc;
}

/* Whether fold row f - 1 of a graph read from a table holds as node v's
 * at cell c (a row's first): its paths are the ones row_paths() finds
 * from v, each with the F-counts of the ones before it, its count theirs
 * all, and its guides make_guide()'s; so sl_fold_find() on a checked row
 * answers as on the row sl_make_fold() makes. */
static int check_row(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c)
{
    const fold_row *fr = &x->frow[f - 1];
    if (fr->node != v || c % x->d->w || fr->first > fr[1].first ||
        fr[1].first > x->nfpath)
        return 0;
    row_walk rw = { .x = x, .c0 = c, .rc = PTB_OK,
                    .want = x->fpath + fr->first, .nwant = row_n(fr) };
    row_paths(&rw, c, v, 0, 0);
    int ok = rw.rc == PTB_OK && rw.n == rw.nwant && rw.sum == fr->count &&
             rw.sum <= MAX_LAYOUTS;
    for (int by_off = 0; ok && by_off < 2; by_off++)
        ok = make_guide(x, fr, by_off, NULL, guide_of(x, fr, by_off));
    return ok;
}

/* Whether fold row f - 1 may be used as node v's (at cell c): on a graph
 * read from a table, once check_row() has found it to hold (else, or when
 * there is no such row, the space is damaged). */
int sl_row_checked(const sl_ctx *x, uint32_t f, uint32_t v, unsigned c)
{
    if (f - 1u >= x->nfrow)
        return damage(x);
    if (!x->lazy || (x->frow[f - 1].node == v && held(x->fok, f - 1)))
        return 1;
    if (check_row(x, f, v, c)) {
        hold(x->fok, f - 1);
        return 1;
    }
    return damage(x);
}

/* Lists node v's rows (from cell c) into rw; the rows' number. */
static size_t node_rows(row_walk *rw, unsigned c, uint32_t v)
{
    rw->c0 = c;
    rw->n = 0;
    row_paths(rw, c, v, 0, 0);
    return rw->n;
}

/* For the row-start nodes of few completions (at most BY_RANK_MOST, not
 * ONE_EACH), the place of the row of each completion among the node's rows
 * (rdir from rdir_at[v], BY_RANK in their n), so that an unrank takes the
 * row at once (row_at()); as many as MAX_BY_RANK allows, from the last
 * row's up, where unranks start most often. */
static int rows_by_rank(sl_ctx *x)
{
    const sl_desc *d = x->d;
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        total = 0;
        for (unsigned row = d->h; row-- > 0;) {
            unsigned c = row * d->w;
            uint32_t hi = c ? x->lo[c - 1] : x->nunits;
            for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v)) {
                row_entry *e = &x->rrow[x->rfirst[v]];
                uint64_t t = x->graph[v].node.total;
                uint32_t n = ROWS_OF(e->n);
                if ((e->n & ONE_EACH) || t > BY_RANK_MOST || n > 0xFFFF ||
                    total + t > MAX_BY_RANK)
                    continue;
                if (pass) {
                    x->rdir_at[v] = (uint32_t)total;
                    for (uint32_t j = 0; j < n; j++) {
                        uint64_t to = j + 1 < n ? e[j + 1].off : t;
                        for (uint64_t r = e[j].off; r < to; r++)
                            x->rdir[total + r] = (uint16_t)j;
                    }
                    for (uint32_t j = 0; j < n; j++)
                        e[j].n |= BY_RANK;
                }
                total += t;
            }
        }
        if (!pass) {
            x->rdir = malloc((total ? total : 1) * sizeof *x->rdir);
            x->rdir_at = calloc(x->nunits, sizeof *x->rdir_at);
            if (!x->rdir || !x->rdir_at)
                return PTB_ENOMEM;
        }
    }
    return PTB_OK;
}

/* Lists each row-start node's rows of a folded graph (made here, or read
 * from a table with every node and fold row checked: hash_late()) in rank
 * order, so that an unrank takes a row at once (fold_unrank()) and the row
 * table can be made (sl_row_table()); on a graph made here, also hashes
 * every row by its node and anchors, with what a walk through it gives
 * and its fold path (row_lookup()), so that a rank takes a row with one
 * look-up instead of cell by cell (row_rank(): the search's ranks).  A
 * graph read from a table is not hashed here: its walks rank by the row
 * table, which the 2 MB of slots (klotski-4x5), 512 pages first written,
 * served not at all (sl_row_slots() hashes its rows when it gets no row
 * table).  Sets hashed (ROWS_HASHED, or ROWS_LISTED) when done.  With
 * more than MAX_ROW_HASH rows, or short of memory, none (ranks walk).
 * (Unfolded graphs walk: on a klotski-4x5 with its goal at the side, a
 * hash saved 7 % of the instructions and no time.) */
int sl_row_hash(sl_ctx *x)
{
    const sl_desc *d = x->d;
    row_walk rw = { .x = x, .cap = 64, .rcap = 64, .all = 1 };
    size_t total = 0, slots = 16, nrow = 0;
    rw.out = malloc(rw.cap * sizeof *rw.out);
    rw.rows = malloc(rw.rcap * sizeof *rw.rows);
    int rc = rw.out && rw.rows ? PTB_OK : PTB_ENOMEM;
    for (int pass = 0; pass < 2 && rc == PTB_OK; pass++) {
        for (unsigned c = 0; c < d->n && rc == PTB_OK; c += d->w) {
            uint32_t hi = c ? x->lo[c - 1] : x->nunits;
            for (uint32_t v = x->lo[c]; v < hi && rc == PTB_OK;
                 v += node_units(x, v)) {
                size_t n = node_rows(&rw, c, v);
                if ((rc = rw.rc) != PTB_OK || !pass) {
                    total += n;
                    continue;
                }
                x->rfirst[v] = (uint32_t)nrow;
                uint32_t one = x->graph[v].node.total == n ? ONE_EACH : 0;
                for (size_t j = 0; j < n; j++)
                    if (rw.out[j].off != j)
                        one = 0;
                for (size_t j = 0; j < n; j++) {
                    uint32_t h = row_slot_of(x, rw.rows[j], v);
                    while (x->rslot && x->rslot[h].node)
                        h = (h + 1) & x->rmask;
                    if (x->rslot)
                        x->rslot[h] = (row_slot){ rw.rows[j], rw.out[j].off,
                                                  v, rw.out[j].end, 0, 0 };
                    x->rrow[nrow++] = (row_entry){ rw.out[j].off, rw.rows[j],
                                                   rw.out[j].end,
                                                   one | (uint32_t)n };
                }
            }
        }
        if (pass || rc != PTB_OK || total > MAX_ROW_HASH)
            break;                      /* (past the most: ranks walk) */
        while (slots < 8 * total)       /* (a look-up most often finds its
                                           row in the first slot) */
            slots *= 2;
        if (!x->lazy && !(x->rslot = calloc(slots, sizeof *x->rslot)))
            rc = PTB_ENOMEM;
        x->rrow = malloc(total * sizeof *x->rrow);
        x->rfirst = malloc(x->nunits * sizeof *x->rfirst);
        if (!x->rrow || !x->rfirst)
            rc = PTB_ENOMEM;
        x->rmask = (uint32_t)slots - 1;
    }
    if (rc == PTB_OK && x->rrow)
        rc = rows_by_rank(x);
    rw.all = 0;                         /* each fold row's paths, in order */
    for (size_t i = 0; x->rslot && rc == PTB_OK && i < x->nfrow; i++) {
        const fold_row *fr = &x->frow[i];
        size_t n = node_rows(&rw, sl_node_cell(x, fr->node), fr->node);
        if ((rc = rw.rc) == PTB_OK && n != row_n(fr))
            rc = PTB_EINVAL;            /* (cannot be: sl_make_fold()'s) */
        for (size_t j = 0; rc == PTB_OK && j < n; j++) {
            row_slot *sl = (row_slot *)row_lookup(x, fr->node, rw.rows[j]);
            if (!sl)
                rc = PTB_EINVAL;        /* (cannot be: every row listed) */
            else
                sl->path = fr->first + (uint32_t)j + 1;
        }
    }
    free(rw.out);
    free(rw.rows);
    if (rc == PTB_OK && x->rrow) {
        __atomic_store_n(&x->hashed, x->rslot ? ROWS_HASHED : ROWS_LISTED,
                         __ATOMIC_RELEASE);
    } else {
        free(x->rslot);
        free(x->rrow);
        free(x->rfirst);                /* (rdir: at slide_close()) */
        x->rslot = NULL;
        x->rrow = NULL;
        x->rfirst = NULL;
    }
    return rc;
}

/* The row hash of a graph whose rows sl_row_hash() listed without it (a
 * graph read from a table) and that has no row table (sl_row_table(): past
 * MAX_ROW_TABLE), so that its walks take a row by one look-up
 * (row_rank()), as before its rows were listed without the hash; each
 * fold row's paths found among its rows by their plain completions before
 * them (both in rank order).  Sets hashed to ROWS_HASHED when done. */
int sl_row_slots(sl_ctx *x)
{
    const sl_desc *d = x->d;
    size_t total = 0, slots = 16;
    for (unsigned c = 0; c < d->n; c += d->w) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v))
            total += ROWS_OF(x->rrow[x->rfirst[v]].n);
    }
    while (slots < 8 * total)
        slots *= 2;
    if (!(x->rslot = calloc(slots, sizeof *x->rslot)))
        return PTB_ENOMEM;
    x->rmask = (uint32_t)slots - 1;
    for (unsigned c = 0; c < d->n; c += d->w) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v)) {
            const row_entry *e = &x->rrow[x->rfirst[v]];
            for (uint32_t j = 0; j < ROWS_OF(e->n); j++) {
                uint32_t h = row_slot_of(x, e[j].row, v);
                while (x->rslot[h].node)
                    h = (h + 1) & x->rmask;
                x->rslot[h] = (row_slot){ e[j].row, e[j].off, v, e[j].end,
                                          0, 0 };
            }
        }
    }
    for (size_t f = 0; f < x->nfrow; f++) {
        uint32_t v = x->frow[f].node, k = x->frow[f].first;
        const row_entry *e = &x->rrow[x->rfirst[v]];
        for (uint32_t j = 0; j < ROWS_OF(e->n); j++) {
            row_slot *sl = (row_slot *)row_lookup(x, v, e[j].row);
            if (!sl)
                return PTB_EINVAL;      /* (cannot be: every row hashed) */
            if (k < x->frow[f + 1].first && x->fpath[k].off == e[j].off)
                sl->path = ++k;
        }
        if (k != x->frow[f + 1].first)
            return PTB_EINVAL;          /* (cannot be: every path a row) */
    }
    __atomic_store_n(&x->hashed, ROWS_HASHED, __ATOMIC_RELEASE);
    return PTB_OK;
}

/* Places the row-start nodes of a hashed graph (sl_row_hash()) in the
 * row table: rt_at[] of each, base | cover << RT_COVER; returns the
 * table's entries, or 0 when past MAX_ROW_TABLE or a node's completions
 * need more than 32 bits. */
static size_t number_rows(sl_ctx *x)
{
    const sl_desc *d = x->d;
    size_t entries = 0;
    for (unsigned c = 0; c < d->n; c += d->w) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v)) {
            uint32_t cover = (uint32_t)((WIN(x->graph[v + 1].state[0]) |
                                         d->walls >> c) &
                                        ((1u << d->w) - 1));
            size_t rows = 1;
            for (unsigned i = 0; i < d->w; i++)
                rows *= cover >> i & 1 ? 1 : d->nkinds + 1;
            if (x->graph[v].node.total > UINT32_MAX ||
                entries + rows > MAX_ROW_TABLE)
                return 0;
            x->rt_at[v] = (uint32_t)entries | cover << RT_COVER;
            entries += rows;
        }
    }
    return entries;
}

/* The fold rows' part of the row table (rt_fold) and the mirror images'
 * codes (rt_mc), full the number of full codes; made after the rest of
 * the row table, whose places a fold row's rows lead to.  None when past
 * MAX_ROW_TABLE (the rows from a fold row are then ranked by the row
 * hash). */
static int fold_table(sl_ctx *x, size_t full)
{
    const sl_desc *d = x->d;
    const unsigned w = d->w;
    size_t entries = 0;
    for (size_t f = 0; f < x->nfrow; f++) {
        uint32_t cover = x->rt_at[x->frow[f].node] >> RT_COVER;
        size_t rows = 1;
        for (unsigned i = 0; i < w; i++)
            rows *= cover >> i & 1 ? 1 : d->nkinds + 1;
        if (entries + rows > MAX_ROW_TABLE)
            return PTB_OK;
        entries += rows;
    }
    x->rt_fold_at = calloc(x->nunits, sizeof *x->rt_fold_at);
    x->rt_fold = calloc(entries ? entries : 1, sizeof *x->rt_fold);
    x->rt_fold_node = calloc(entries ? entries : 1,
                             sizeof *x->rt_fold_node);
    x->rt_mc = calloc(full * d->h, sizeof *x->rt_mc);
    if (!x->rt_fold_at || !x->rt_fold || !x->rt_fold_node || !x->rt_mc)
        return PTB_ENOMEM;
    entries = 0;
    for (size_t f = 0; f < x->nfrow; f++) {
        uint32_t v = x->frow[f].node, cover = x->rt_at[v] >> RT_COVER;
        size_t rows = 1;
        for (unsigned i = 0; i < w; i++)
            rows *= cover >> i & 1 ? 1 : d->nkinds + 1;
        x->rt_fold_at[v] = (uint32_t)entries | cover << RT_COVER;
        entries += rows;
    }
    for (size_t f = 0; f < x->nfrow; f++) {
        uint32_t v = x->frow[f].node, at = x->rt_fold_at[v];
        unsigned c = sl_node_cell(x, v);
        const row_entry *e = &x->rrow[x->rfirst[v]];
        /* (its paths are its rows not after their mirror images, in the
         * same order, each with the same plain completions before it) */
        const fold_path *p = x->fpath + x->frow[f].first,
                        *pend = x->fpath + x->frow[f + 1].first;
        for (uint32_t j = 0; j < ROWS_OF(e->n); j++) {
            uint8_t cells[SL_MAX_CELLS + 8] = { 0 };
            memcpy(cells + c, &e[j].row, sizeof e[j].row);
            uint32_t i = (at & RT_BASE) +
                         x->rt_sq[row_code(x, cells, c) << w |
                                  at >> RT_COVER];
            rt_fold *rf = &x->rt_fold[i];
            if (p < pend && p->off < e[j].off)
                return PTB_EINVAL;      /* (cannot be: every path a row) */
            if (p < pend && p->off == e[j].off) {
                x->rt_fold_node[i] = p->end;
                *rf = (rt_fold){ p->before, p->same ? x->rt_fold_at[p->end]
                                                    : x->rt_at[p->end],
                                 p->same ? RT_SAME : RT_BEFORE };
                p++;
            }
        }
        if (p != pend)
            return PTB_EINVAL;          /* (cannot be, as above) */
    }
    for (unsigned c = 0; c < d->n; c += w) {   /* the mirror images */
        x->rt_mrow[c] = (uint32_t)(c / w * full);
        for (uint32_t q = 0; q < full; q++) {
            uint32_t m = 0, rest = q;
            for (unsigned i = 0; i < w; i++, rest /= d->nkinds + 1) {
                if (!(rest % (d->nkinds + 1)))
                    continue;
                uint64_t b = place_of(x, rest % (d->nkinds + 1) - 1u,
                                      c + i)->mimage;   /* (0 off its fit) */
                unsigned j = b ? ptb_low_bit(b) / 8 : 0;
                m += (uint32_t)(b >> 8 * j & 0xFF) * x->rt_digit[c + j];
            }
            x->rt_mc[x->rt_mrow[c] + q] = m;
        }
    }
    return PTB_OK;
}

/* The row table of a hashed graph (rt_ent), from its rows listed by
 * sl_row_hash(), the short code of every full code and cover (rt_sq), and
 * each cell's weight in its row's full code; none (ranks by the row hash)
 * when the codes are past MAX_ROW_CODES or number_rows() finds the table
 * too large. */
int sl_row_table(sl_ctx *x)
{
    const sl_desc *d = x->d;
    const unsigned w = d->w, base = d->nkinds + 1;
    size_t entries, full = 1;
    for (unsigned i = 0; i < w; i++)
        if ((full *= base) > MAX_ROW_CODES >> w)
            return PTB_OK;
    for (unsigned c = 0; c < d->n; c++)
        x->rt_digit[c] = c % w ? x->rt_digit[c - 1] * base : 1;
    x->rt_at = calloc(x->nunits, sizeof *x->rt_at);
    x->rt_sq = malloc((full << w) * sizeof *x->rt_sq);
    if (!x->rt_at || !x->rt_sq)
        return PTB_ENOMEM;
    if (!(entries = number_rows(x)))
        return PTB_OK;
    x->rt_ent = calloc(entries, sizeof *x->rt_ent);
    x->rt_node = calloc(entries, sizeof *x->rt_node);
    if (!x->rt_ent || !x->rt_node)
        return PTB_ENOMEM;
    for (uint32_t q = 0; q < full; q++)
        for (uint32_t cover = 0; cover < 1u << w; cover++) {
            uint32_t sq = 0, m = 1, rest = q;
            for (unsigned i = 0; i < w; i++, rest /= base)
                if (!(cover >> i & 1)) {
                    sq += rest % base * m;
                    m *= base;
                }
            x->rt_sq[q << w | cover] = (uint16_t)sq;   /* (sq < full:
                                                      2^16 at most from 4
                                                      columns on, 17^3
                                                      below) */
        }
    for (unsigned c = 0; c < d->n; c += w) {
        uint32_t hi = c ? x->lo[c - 1] : x->nunits;
        for (uint32_t v = x->lo[c]; v < hi; v += node_units(x, v)) {
            uint32_t at = x->rt_at[v];
            const row_entry *e = &x->rrow[x->rfirst[v]];
            for (uint32_t j = 0; j < ROWS_OF(e->n); j++) {
                uint8_t cells[SL_MAX_CELLS + 8] = { 0 };
                memcpy(cells + c, &e[j].row, sizeof e[j].row);
                uint32_t i = (at & RT_BASE) +
                             x->rt_sq[row_code(x, cells, c) << w |
                                      at >> RT_COVER];
                x->rt_ent[i] = (rt_entry){ (uint32_t)e[j].off,
                                           x->rt_at[e[j].end] };
                x->rt_node[i] = e[j].end;
            }
        }
    }
    int rc = fold_table(x, full);
    if (rc == PTB_OK && x->rt_fold)
        __atomic_store_n(&x->tabled, 1, __ATOMIC_RELEASE);
    return rc;
}

/* A move of the state (code: from anchor | to anchor << 8) as a move of
 * the drawing p: the same, or its mirror image when p is MIRRORED (the
 * piece's anchor in the drawing, and the move's rows down and columns
 * across mirrored). */
uint32_t sl_native(const sl_ctx *x, const ptb_position *p,
                   uint32_t code)
{
    const sl_desc *d = x->d;
    unsigned a = code & 0xFF, b = code >> 8 & 0xFF, na = 0;
    if (!(p->aux & MIRRORED))
        return code;
    unsigned char ch = p->cell[mirror_cell(d, a)];
    while (p->cell[na] != ch)
        na++;
    unsigned nb = na + b / d->w * d->w - a / d->w * d->w + a % d->w -
                  b % d->w;
    return na | nb << 8;
}
