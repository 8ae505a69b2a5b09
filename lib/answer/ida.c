/* lib/answer/ida.c: optimal answers past a full table, by IDA* guided by
 * a tile puzzle's pattern tables (puzzletb.h, ptb_patterns_solve();
 * lib/puzzles/pattern.h for the tables' meaning).
 *
 * The search moves the real tiles on its own board (a kind a cell) and
 * keeps, for each group, its tiles' cells and its exact distance in the
 * group's pattern space.  A move of a group's tile reads that group's
 * value of the new state, stored mod 3, and takes the one of the old
 * distance -1, 0 or +1 with that residue (the two states are neighbours
 * in the pattern space, whose distances differ by at most one: A. Breyer
 * and R. E. Korf, 1.6-bit pattern databases, AAAI 2010); a move of any
 * other tile changes no group's.  The start's distances are walked down
 * each table (ptb_distance()).  The bound, their sum, never exceeds the
 * moves left, nor does the sum of the board's reflection about the main
 * diagonal when the board and its goal are their own reflection (a view
 * of its own, kept the same way; the bound is the larger); so IDA* finds
 * a shortest line first.  It never undoes the move it just made, and
 * tries the empty cell's neighbours in reading order, so the answer is
 * the same every time, on one thread or several (which share out each
 * bound's nodes at a small depth, the first in order with a line
 * winning).  The line is then replayed through the puzzle's own moves,
 * so that the answer is the same ptb_solution, in the user's letters, as
 * a table's.  A small table is decoded when the tables open; a big one is
 * read where it lies.
 *
 * May touch: its arguments, the heap, the tables (read only) and the
 * clock.  No I/O of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "core/core.h"
#include "puzzles/pattern.h"

#define FOUND PTB_FOUND
#define DECODE_MAX ((uint64_t)1 << 27)   /* states of a table decoded at
                                            open: 32 MB */

struct ptb_patterns {
    const ptb_space *s;
    const sl_desc *d;
    sl_tiles t;
    uint8_t goal[SL_MAX_CELLS];          /* of each open cell: 1 + the kind
                                            the goal puts there, 0 empty,
                                            0xFF any */
    /* The views the bound takes the larger of: the board itself, and
     * when the board and its goal are their own reflection about the
     * main diagonal, the reflected board, its tiles renamed to those the
     * goal has at the reflected cells (Korf and Felner 2002): each
     * view's cell of a cell, and kind of a kind. */
    unsigned nviews;
    uint8_t cell[2][SL_MAX_CELLS];
    uint8_t kind[2][SL_MAX_KINDS];
    ptb_puzzle *puzzle[SL_MAX_PATTERNS];
    ptb_space *space[SL_MAX_PATTERNS];
    ptb_table *table[SL_MAX_PATTERNS];
    ptb_abstractions *max;               /* or: abstractions by maximum
                                            (ida_max.c), and nothing above
                                            but s */
    uint8_t *residue[SL_MAX_PATTERNS];   /* each table's values, decoded
                                            and checked: 2 bits a state;
                                            NULL for a big table, read in
                                            place as the search goes */
};

/* The board as one view sees it: each group's tiles, cells and distance. */
typedef struct view {
    uint8_t pos[SL_MAX_PATTERNS][SL_MAX_KINDS];
    uint64_t taken[SL_MAX_PATTERNS];
    unsigned h[SL_MAX_PATTERNS];
    unsigned sum;                        /* their sum: a lower bound */
} view;

/* One search's state. */
typedef struct ida {
    const ptb_patterns *pt;
    ptb_reader *r[SL_MAX_PATTERNS];
    uint8_t at[SL_MAX_CELLS];            /* of each open cell: 1 + kind, or
                                            0 (the empty cell) */
    unsigned e;                          /* the empty cell */
    view v[2];
    uint16_t line[PTB_MAX_DISTANCE];     /* where the empty cell went */
    unsigned len;                        /* ... so many times */
    ptb_limits lim;
    int rc;                              /* a read's error, or a limit */
    const struct ida *root;              /* a thread's: the search it
                                            shares a bound of */
} ida;

/* A move: for each view, its group's state after, or none. */
typedef struct step {
    unsigned c;                          /* the tile's cell */
    unsigned g[2];                       /* 1 + its group in each view */
    uint64_t idx[2];
} step;

void ptb_patterns_close(ptb_patterns *pt)
{
    if (!pt)
        return;
    ptb_abstractions_close(pt->max);
    for (unsigned g = 0; g < SL_MAX_PATTERNS; g++) {
        free(pt->residue[g]);
        ptb_table_close(pt->table[g]);
        ptb_space_close(pt->space[g]);
        ptb_puzzle_free(pt->puzzle[g]);
    }
    free(pt);
}

/* Group g's values, when its table is small (DECODE_MAX states), every
 * one read and checked (each block's check and the table's digest) into
 * pt->residue[g]: the search then reads a value in a few instructions.
 * A bigger one (the 8 tiles of 7-8 groups: 4,151,347,200 states) would
 * take half a minute to decode; the search reads it where it lies, each
 * block or chunk checked when first read. */
static int decode(ptb_patterns *pt, unsigned g)
{
    const char *what;
    if (ptb_table_modulus(pt->table[g]) != 3)
        return PTB_EFORMAT;
    if (pt->t.size[g] > DECODE_MAX)
        return PTB_OK;
    size_t bytes = (size_t)((pt->t.size[g] + 3) / 4);
    if (!(pt->residue[g] = calloc(bytes ? bytes : 1, 1)))
        return PTB_ENOMEM;
    return ptb_table_decode_all(pt->table[g], pt->residue[g], 1, &what);
}

/* The views (ptb_patterns): the board, and its reflection when a square
 * board without walls and its goal, every cell of it given, are their
 * own reflection with each tile renamed to one of its own kind. */
static void make_views(ptb_patterns *pt)
{
    const sl_tiles *t = &pt->t;
    unsigned w = pt->d->w;
    pt->nviews = 1;
    for (unsigned c = 0; c < SL_MAX_CELLS; c++)
        pt->cell[0][c] = (uint8_t)c;
    for (unsigned k = 0; k < SL_MAX_KINDS; k++)
        pt->kind[0][k] = (uint8_t)k;
    if (!t->grid || w != pt->d->h)
        return;
    for (unsigned k = 0; k < pt->d->nkinds; k++)
        if (pt->d->kind[k].count != 1)
            return;
    for (unsigned c = 0; c < t->m; c++) {
        unsigned r = c % w * w + c / w;
        if (pt->goal[c] == 0xFF || (pt->goal[c] == 0) != (pt->goal[r] == 0))
            return;
        pt->cell[1][c] = (uint8_t)r;
        if (pt->goal[c])
            pt->kind[1][pt->goal[c] - 1] = (uint8_t)(pt->goal[r] - 1);
    }
    pt->nviews = 2;
}

int ptb_patterns_open(const ptb_space *s, const char *dir,
                      ptb_patterns **out)
{
    const ptb_puzzle *p = s->p;
    unsigned ng = ptb_puzzle_patterns(p);
    *out = NULL;
    if (!ng)
        return PTB_EINVAL;
    ptb_patterns *pt = calloc(1, sizeof *pt);
    if (!pt)
        return PTB_ENOMEM;
    pt->s = s;
    pt->d = p->data;
    if (pt->d->nkeeps) {
        int rc = ptb_abstractions_open(s, dir, &pt->max);
        if (rc != PTB_OK) {
            free(pt);
            return rc;
        }
        *out = pt;
        return PTB_OK;
    }
    sl_tiles_make(pt->d, &pt->t);
    const sl_desc *d = pt->d;
    const sl_goal *gl = &d->goal[0];
    memset(pt->goal, 0xFF, sizeof pt->goal);
    for (uint64_t e = gl->empty; e; e &= e - 1)
        pt->goal[pt->t.open[__builtin_ctzll(e)]] = 0;
    for (unsigned i = 0; i < gl->n; i++)
        pt->goal[pt->t.open[gl->anchor[i]]] = (uint8_t)(gl->kind[i] + 1);
    make_views(pt);
    int rc = PTB_OK;
    for (unsigned g = 0; rc == PTB_OK && g < ng; g++)
        if ((rc = ptb_puzzle_pattern(p, g, &pt->puzzle[g])) == PTB_OK &&
            (rc = ptb_space_new(pt->puzzle[g], NULL, &pt->space[g])) ==
                PTB_OK)
            rc = ptb_table_open(pt->space[g], dir, &pt->table[g]);
    for (unsigned g = 0; rc == PTB_OK && g < ng; g++)
        rc = decode(pt, g);
    if (rc != PTB_OK) {
        ptb_patterns_close(pt);
        return rc;
    }
    *out = pt;
    return PTB_OK;
}

/* The search's board from a position's drawing, and each view's groups:
 * PTB_EINVAL when it is not a board of the puzzle's tiles. */
static int board_of(ida *x, const ptb_position *p)
{
    const ptb_patterns *pt = x->pt;
    const sl_tiles *t = &pt->t;
    unsigned empties = 0, count[2][SL_MAX_PATTERNS] = { { 0 } };
    memset(x->v, 0, sizeof x->v);
    for (unsigned o = 0; o < t->m; o++) {
        char ch = (char)p->cell[t->cell[o]];
        int empty = ch == (char)p->aux || sl_is_empty(pt->d, ch);
        int k = empty ? -1 : sl_kind_of(pt->d, ch, 1);
        x->at[o] = (uint8_t)(k + 1);
        if (empty) {
            x->e = o;
            empties++;
            continue;
        }
        if (k < 0)
            return PTB_EINVAL;
        for (unsigned i = 0; i < pt->nviews; i++) {
            unsigned kk = pt->kind[i][k], g = t->group_of[kk], c;
            if (!g--)
                continue;
            c = pt->cell[i][o];
            x->v[i].pos[g][t->slot_of[kk]] = (uint8_t)c;
            x->v[i].taken[g] |= (uint64_t)1 << c;
            count[i][g]++;
        }
    }
    for (unsigned i = 0; i < pt->nviews; i++)
        for (unsigned g = 0; g < t->ngroups; g++)
            if (count[i][g] != t->k[g])
                return PTB_EINVAL;
    return empties == 1 ? PTB_OK : PTB_EINVAL;
}

/* The bound of the board: the larger of the views' sums. */
static unsigned bound(const ida *x)
{
    unsigned h = x->v[0].sum;
    return x->pt->nviews > 1 && x->v[1].sum > h ? x->v[1].sum : h;
}

/* The exact distance of every group's image of the board, in each view,
 * walked down its table; the bound into *h.  PTB_NOTFOUND when an image
 * cannot reach its goal (nor then the board). */
static int start_bound(ida *x, unsigned *h)
{
    const ptb_patterns *pt = x->pt;
    const sl_tiles *t = &pt->t;
    for (unsigned i = 0; i < pt->nviews; i++) {
        view *v = &x->v[i];
        v->sum = 0;
        for (unsigned g = 0; g < t->ngroups; g++) {
            ptb_position q = { .sub = 0 };
            q.idx = sl_pattern_index(t, g, v->pos[g], v->taken[g],
                                     pt->cell[i][x->e]);
            int rc = ptb_distance(pt->table[g], x->r[g], &q, &v->h[g]);
            if (rc != PTB_OK)
                return rc;
            v->sum += v->h[g];
        }
    }
    *h = bound(x);
    return PTB_OK;
}

static int at_goal(const ida *x)
{
    const uint8_t *goal = x->pt->goal;
    for (unsigned o = 0; o < x->pt->t.m; o++)
        if (goal[o] != 0xFF && goal[o] != x->at[o])
            return 0;
    return 1;
}

/* The move of the tile on open cell c into the empty cell: in each view,
 * its group's state after, its value fetched meanwhile. */
static void make_step(ida *x, unsigned c, step *st)
{
    const ptb_patterns *pt = x->pt;
    const sl_tiles *t = &pt->t;
    st->c = c;
    for (unsigned i = 0; i < pt->nviews; i++) {
        unsigned k = pt->kind[i][x->at[c] - 1u], g = t->group_of[k];
        st->g[i] = g;
        if (!g--)
            continue;
        view *v = &x->v[i];
        unsigned slot = t->slot_of[k], to = pt->cell[i][x->e];
        unsigned from = pt->cell[i][c];
        v->pos[g][slot] = (uint8_t)to;
        st->idx[i] = sl_pattern_index(t, g, v->pos[g], v->taken[g] ^
                                      ((uint64_t)1 << from |
                                       (uint64_t)1 << to), from);
        v->pos[g][slot] = (uint8_t)from;
#if defined(__GNUC__)
        if (pt->residue[g])
            __builtin_prefetch(&pt->residue[g][st->idx[i] / 4]);
#endif
    }
}

/* In view i, group g's tile of kind k goes from cell a to cell b. */
static void shift(ida *x, unsigned i, unsigned g, unsigned k, unsigned a,
                  unsigned b)
{
    const ptb_patterns *pt = x->pt;
    view *v = &x->v[i];
    unsigned from = pt->cell[i][a], to = pt->cell[i][b];
    v->pos[g][pt->t.slot_of[pt->kind[i][k]]] = (uint8_t)to;
    v->taken[g] ^= (uint64_t)1 << from | (uint64_t)1 << to;
}

/* Makes the move st: each view's group reads its new distance (its
 * residue: 0, +1 or -1 from the old, pattern.h).  Returns the new bound,
 * or FOUND after an error in x->rc; old[] gets the distances it changed. */
static unsigned slide(ida *x, const step *st, unsigned *old)
{
    const ptb_patterns *pt = x->pt;
    unsigned c = st->c, e = x->e;
    for (unsigned i = 0; i < pt->nviews; i++) {
        unsigned g = st->g[i], r;
        if (!g--)
            continue;
        view *v = &x->v[i];
        int rc = PTB_OK;
        if (pt->residue[g])
            r = pt->residue[g][st->idx[i] / 4] >> 2 * (st->idx[i] % 4) & 3;
        else
            rc = ptb_table_get(pt->table[g], x->r[g], 0, st->idx[i], &r);
        unsigned h = rc == PTB_OK ? ptb_next_distance(v->h[g], r, 3)
                                  : PTB_UNSOLVABLE;
        if (h == PTB_UNSOLVABLE) {
            x->rc = rc != PTB_OK ? rc : PTB_ECORRUPT;
            return FOUND;
        }
        old[i] = v->h[g];
        shift(x, i, g, x->at[c] - 1u, c, e);
        v->h[g] = h;
        v->sum = v->sum - old[i] + v->h[g];
    }
    x->at[e] = x->at[c];
    x->at[c] = 0;
    x->e = c;
    return bound(x);
}

/* Takes back slide(x, st, old) made with the empty cell at e. */
static void unslide(ida *x, const step *st, unsigned e, const unsigned *old)
{
    unsigned c = st->c;
    x->at[c] = x->at[e];
    x->at[e] = 0;
    x->e = e;
    for (unsigned i = 0; i < x->pt->nviews; i++) {
        unsigned g = st->g[i];
        if (!g--)
            continue;
        view *v = &x->v[i];
        shift(x, i, g, x->at[c] - 1u, e, c);
        v->sum = v->sum - v->h[g] + old[i];
        v->h[g] = old[i];
    }
}

/* The moves out of the board but back (the empty cell's last cell),
 * each made ready (make_step()) before any is made: at most 4. */
static unsigned steps(ida *x, uint64_t back, step *st)
{
    unsigned n = 0;
    for (uint64_t nb = x->pt->t.nbr[x->e] & ~back; nb && n < 4; nb &= nb - 1)
        make_step(x, (unsigned)__builtin_ctzll(nb), &st[n++]);
    return n;
}

/* The search below depth 'depth' with h the bound of the board: FOUND
 * (x->line holds the line; or an error or limit in x->rc), or the least
 * depth + bound past 'limit' that it met. */
static unsigned dfs(ida *x, unsigned depth, unsigned limit, unsigned h,
                    uint64_t back)
{
    if (depth + h > limit)
        return depth + h;
    if (h == 0 && at_goal(x)) {
        x->len = depth;
        return FOUND;
    }
    if ((x->rc = ptb_limits_reached(&x->lim)) != PTB_OK)
        return FOUND;
    if (depth >= PTB_MAX_DISTANCE)
        return UINT32_MAX - 1;
    step st[4];
    unsigned best = UINT32_MAX - 1, e = x->e, n = steps(x, back, st);
    for (unsigned i = 0; i < n; i++) {
        unsigned old[2];
        unsigned nh = slide(x, &st[i], old);
        unsigned got = nh == FOUND ? FOUND
                       : dfs(x, depth + 1, limit, nh, (uint64_t)1 << e);
        if (got == FOUND) {
            x->line[depth] = (uint16_t)st[i].c;
            return FOUND;
        }
        unslide(x, &st[i], e, old);
        best = got < best ? got : best;
    }
    return best;
}

/* ---- one bound on several threads (ptb_bound_threads()) ------------- */

/* The front below depth 'depth' with h the bound of the board: its
 * nodes at depth 'want', path[] the empty cell's cells on the way. */
static int list_at(ida *x, ptb_front *f, unsigned depth, unsigned want,
                   unsigned limit, unsigned h, uint64_t back, uint16_t *path)
{
    if (depth + h > limit) {
        ptb_front_cut(f, depth + h);
        return PTB_OK;
    }
    if (depth == want || (h == 0 && at_goal(x)))
        return ptb_front_add(f, path, depth);
    step st[4];
    unsigned e = x->e, n = steps(x, back, st);
    for (unsigned i = 0; i < n; i++) {
        unsigned old[2], nh = slide(x, &st[i], old);
        if (nh == FOUND)
            return x->rc;
        path[depth] = (uint16_t)st[i].c;
        int rc = list_at(x, f, depth + 1, want, limit, nh, (uint64_t)1 << e,
                         path);
        unslide(x, &st[i], e, old);
        if (rc != PTB_OK)
            return rc;
    }
    return PTB_OK;
}

static int list(void *root, ptb_front *f, unsigned depth, unsigned limit)
{
    uint16_t path[PTB_FRONT_MAX];
    return list_at(root, f, 0, depth, limit, bound(root), 0, path);
}

static void done(void *worker)
{
    ida *x = worker;
    for (unsigned g = 0; g < SL_MAX_PATTERNS; g++)
        ptb_reader_free(x->r[g]);
    free(x);
}

/* A thread's search: the root's, with readers of its own. */
static void *worker(void *root)
{
    ida *x = malloc(sizeof *x);
    if (!x)
        return NULL;
    memcpy(x, root, sizeof *x);
    memset(x->r, 0, sizeof x->r);
    x->root = root;
    for (unsigned g = 0; g < x->pt->t.ngroups; g++)
        if (ptb_reader_new(x->pt->table[g], &x->r[g]) != PTB_OK) {
            done(x);
            return NULL;
        }
    return x;
}

static unsigned below(void *w, const ptb_front *f, size_t i,
                      unsigned limit, ptb_limits *lim, uint16_t *line,
                      unsigned *n, int *rc)
{
    ida *x = w;
    unsigned len;
    const uint16_t *path = ptb_front_path(f, i, &len);
    const ida *root = x->root;
    ptb_reader *r[SL_MAX_PATTERNS];
    memcpy(r, x->r, sizeof r);
    memcpy(x, root, sizeof *x);
    memcpy(x->r, r, sizeof r);
    x->root = root;
    x->lim = *lim;
    unsigned h = bound(x), got = FOUND;
    uint64_t back = 0;
    for (unsigned d = 0; d < len && h != FOUND; d++) {
        unsigned old[2], e = x->e;
        step st;
        make_step(x, path[d], &st);
        h = slide(x, &st, old);
        back = (uint64_t)1 << e;
        x->line[d] = path[d];
    }
    if (h != FOUND)
        got = dfs(x, len, limit, h, back);
    *lim = x->lim;
    *rc = x->rc;
    if (got == FOUND && x->rc == PTB_OK) {
        memcpy(line, x->line, x->len * sizeof *line);
        *n = x->len;
    }
    return got;
}

static const ptb_bound_search by_threads = { list, worker, done, below };

/* Whether 'after' is step i of the line x->line (ptb_replay()): the
 * tile on open cell x->line[i] moved into the empty cell of 'before'. */
static int is_step(const void *arg, unsigned i, const ptb_position *before,
                   const ptb_position *after)
{
    const ida *x = arg;
    const ptb_patterns *pt = x->pt;
    unsigned char want[sizeof before->cell];
    unsigned empty = 0, to = pt->t.cell[x->line[i]];
    while (empty < pt->d->n && (pt->d->walls >> empty & 1 ||
                                before->cell[empty] !=
                                    (unsigned char)before->aux))
        empty++;
    if (empty == pt->d->n)
        return 0;
    memcpy(want, before->cell, sizeof want);
    want[empty] = before->cell[to];
    want[to] = (unsigned char)before->aux;
    return !memcmp(after->cell, want, pt->d->n);
}

/* A candidate's start, its board and views made once. */
typedef struct start {
    uint8_t at[SL_MAX_CELLS];
    unsigned e, h;                       /* h: its bound, or UINT32_MAX */
    view v[2];
} start;

/* IDA* from the candidates: one bound after another, each candidate in
 * turn, so the nearest is found first. */
static int deepen(ida *x, const ptb_position *starts, unsigned n,
                  unsigned threads, ptb_solution *out, ptb_search_stats *st)
{
    start s[2];
    unsigned limit = UINT32_MAX;
    for (unsigned i = 0; i < n; i++) {
        int rc = board_of(x, &starts[i]);
        if (rc == PTB_OK)
            rc = start_bound(x, &s[i].h);
        if (rc == PTB_NOTFOUND)
            s[i].h = UINT32_MAX;
        else if (rc != PTB_OK)
            return rc;
        memcpy(s[i].at, x->at, sizeof s[i].at);
        memcpy(s[i].v, x->v, sizeof s[i].v);
        s[i].e = x->e;
        limit = s[i].h < limit ? s[i].h : limit;
    }
    st->bound = limit;
    while (limit <= PTB_MAX_DISTANCE) {
        unsigned next = UINT32_MAX;
        st->iterations++;
        for (unsigned i = 0; i < n; i++) {
            if (s[i].h > limit) {          /* (its turn comes later) */
                next = s[i].h < next ? s[i].h : next;
                continue;
            }
            memcpy(x->at, s[i].at, sizeof s[i].at);
            memcpy(x->v, s[i].v, sizeof s[i].v);
            x->e = s[i].e;
            unsigned got = threads > 1
                               ? ptb_bound_threads(&by_threads, x, limit,
                                                   threads, &x->lim, x->line,
                                                   &x->len, &x->rc)
                               : dfs(x, 0, limit, s[i].h, 0);
            if (x->rc != PTB_OK)
                return x->rc;
            if (got == FOUND) {
                out->start = starts[i];
                out->distance = x->len;
                return ptb_replay(x->pt->s, x->len, is_step, x, out);
            }
            next = got < next ? got : next;
        }
        limit = next;
    }
    return PTB_NOTFOUND;
}

/* The tile search: ptb_patterns_solve() of a puzzle with 'patterns'. */
static int solve_tiles(const ptb_patterns *pt, const ptb_position *starts,
                       unsigned n, unsigned threads, const ptb_limits *lim,
                       ptb_solution *out, ptb_search_stats *st)
{
    ida *x = calloc(1, sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->pt = pt;
    x->lim = *lim;
    int rc = PTB_OK;
    for (unsigned g = 0; rc == PTB_OK && g < pt->t.ngroups; g++)
        rc = ptb_reader_new(pt->table[g], &x->r[g]);
    if (rc == PTB_OK)
        rc = deepen(x, starts, n, threads, out, st);
    for (unsigned g = 0; g < pt->t.ngroups; g++)
        ptb_reader_free(x->r[g]);
    st->nodes = x->lim.nodes;
    free(x);
    return rc;
}

int ptb_patterns_solve(const ptb_patterns *pt, const ptb_position *starts,
                       unsigned n, const ptb_search_opts *opts,
                       ptb_solution *out, ptb_search_stats *stats)
{
    ptb_search_stats own;
    ptb_search_stats *st = stats ? stats : &own;
    memset(st, 0, sizeof *st);
    if (n == 0 || n > 2)
        return PTB_EINVAL;
    double t0 = ptb_clock();
    ptb_limits lim = { .max_nodes = opts ? opts->nodes : 0 };
    lim.deadline = opts && opts->seconds > 0 ? t0 + opts->seconds : 0;
    unsigned threads = opts && opts->threads ? opts->threads : 1;
    threads = threads > 256 ? 256 : threads;
    out->start = starts[0];
    out->distance = PTB_UNSOLVABLE;
    int rc = pt->max ? ptb_abstractions_solve(pt->max, starts, n, threads,
                                              &lim, out, st)
                     : solve_tiles(pt, starts, n, threads, &lim, out, st);
    if (rc != PTB_OK && rc != PTB_NOTFOUND)
        out->distance = PTB_UNSOLVABLE;
    st->seconds = ptb_clock() - t0;
    return rc;
}
