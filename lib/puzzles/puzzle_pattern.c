/* lib/puzzles/puzzle_pattern.c: the pattern spaces of a tile puzzle
 * (pattern.h) as puzzles whose tables tbgen builds like any other.
 *
 * The description of group N's space is its puzzle's with 'pattern N'
 * (ptb_puzzle_pattern()); its name is NAME-pattern-N.  A state is a
 * drawing of g's tiles and the empty cell, the other tiles shown as '*'
 * (any letter but g's reads as one).  Moves cost one and can be taken
 * back, so the table stores distances mod 3, and a search that knows a
 * state's distance finds its neighbours' from those (pattern.h: they
 * differ by at most one).  Only the states whose empty cell is the first
 * of its region are reached; the table keeps the others as unsolvable.
 *
 * May touch: its arguments and the heap.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pattern.h"

typedef struct pt_ctx {
    const sl_desc *d;
    sl_tiles t;
    unsigned g;                          /* the group */
    uint64_t goal_tiles;                 /* the rank of the goal's tiles
                                            (idx % tiles) */
} pt_ctx;

void sl_tiles_make(const sl_desc *d, sl_tiles *t)
{
    memset(t, 0, sizeof *t);
    for (unsigned c = 0; c < d->n; c++) {
        t->open[c] = -1;
        if (!(d->walls >> c & 1)) {
            t->open[c] = (int8_t)t->m;
            t->cell[t->m++] = (uint8_t)c;
        }
    }
    for (unsigned o = 0; o < t->m; o++) {
        unsigned c = t->cell[o], r = c / d->w, col = c % d->w;
        int near[4] = { r ? (int)(c - d->w) : -1,
                        r + 1 < d->h ? (int)(c + d->w) : -1,
                        col ? (int)c - 1 : -1,
                        col + 1 < d->w ? (int)c + 1 : -1 };
        for (unsigned i = 0; i < 4; i++)
            if (near[i] >= 0 && t->open[near[i]] >= 0)
                t->nbr[o] |= (uint64_t)1 << t->open[near[i]];
    }
    t->grid = !d->walls;
    t->w = d->w;
    t->all = t->m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << t->m) - 1;
    for (unsigned c = 0; c < d->n; c += d->w) {
        t->first |= (uint64_t)1 << c;
        t->last |= (uint64_t)1 << (c + d->w - 1);
    }
    const sl_goal *gl = &d->goal[0];
    uint64_t placed = 0;
    for (unsigned i = 0; i < gl->n; i++)
        placed |= (uint64_t)1 << t->open[gl->anchor[i]];
    uint64_t all = t->m == 64 ? ~(uint64_t)0 : ((uint64_t)1 << t->m) - 1;
    t->ngroups = d->npatterns;
    for (unsigned g = 0; g < d->npatterns; g++) {
        uint64_t taken = 0;
        for (unsigned k = 0; k < d->nkinds; k++) {
            if (!(d->pattern[g] >> k & 1))
                continue;
            unsigned i = 0;
            while (gl->kind[i] != k)
                i++;                    /* (describe.c: the goal places k) */
            t->group_of[k] = (uint8_t)(g + 1);
            t->slot_of[k] = (uint8_t)t->k[g];
            t->kind[g][t->k[g]] = (uint8_t)k;
            t->goal[g][t->k[g]++] = (uint8_t)t->open[gl->anchor[i]];
            taken |= (uint64_t)1 << t->open[gl->anchor[i]];
        }
        /* the goal's empty cell where it has one, else any free cell */
        uint64_t hole = gl->n == d->npieces ? all & ~placed : 0;
        for (uint64_t e = gl->empty; e; e &= e - 1)
            hole |= (uint64_t)1 << t->open[__builtin_ctzll(e)];
        t->goal_empty[g] = __builtin_popcountll(hole) == 1
                               ? sl_region(t, taken, __builtin_ctzll(hole))
                               : all & ~taken;
        t->tiles[g] = 1;
        for (unsigned i = 0; i < t->k[g]; i++)
            t->tiles[g] *= t->m - i;
        t->size[g] = t->tiles[g] * (t->m - t->k[g]);
    }
}

/* The cells of state idx: each digit of idx picks a cell among the ones
 * not yet taken, in order (the inverse of sl_pattern_rank()).  On 16 open
 * cells or fewer, the cells not taken are the nibbles of one word, in
 * order, and a pick is a shift and a mask where a search of the word's
 * bits would take a step a cell before it; the digits come from a 32-bit
 * division where the rank fits, which is cheaper than a 64-bit one. */
void sl_pattern_unrank(const sl_tiles *t, unsigned g, uint64_t idx,
                       uint8_t *pos, unsigned *e)
{
    unsigned k = t->k[g], digit[SL_MAX_KINDS];
    uint64_t hole = idx / t->tiles[g], rest = idx - hole * t->tiles[g];
    if (rest <= UINT32_MAX)
        for (uint32_t r = (uint32_t)rest, i = k; i-- > 0;) {
            uint32_t q = r / (t->m - i);
            digit[i] = r - q * (t->m - i);
            r = q;
        }
    else
        for (unsigned i = k; i-- > 0;) {
            digit[i] = (unsigned)(rest % (t->m - i));
            rest /= t->m - i;
        }
    if (t->m <= 16) {
        uint64_t left = 0xFEDCBA9876543210u;    /* the cells not taken */
        for (unsigned i = 0; i < k; i++) {
            unsigned at = 4 * digit[i];
            uint64_t below = ((uint64_t)1 << at) - 1;
            pos[i] = (uint8_t)(left >> at & 15);
            left = (left & below) | (left >> 4 & ~below);
        }
        *e = (unsigned)(left >> 4 * hole & 15);
        return;
    }
    uint64_t used = 0;
    for (unsigned i = 0; i < k; i++) {
        uint64_t left = ~used;
        for (unsigned j = 0; j < digit[i]; j++)
            left &= left - 1;
        pos[i] = (uint8_t)__builtin_ctzll(left);
        used |= (uint64_t)1 << pos[i];
    }
    uint64_t left = ~used;
    for (uint64_t j = hole; j > 0; j--)
        left &= left - 1;
    *e = (unsigned)__builtin_ctzll(left);
}

static int pt_open(const ptb_puzzle *p, unsigned metric, void **ctx)
{
    const sl_desc *d = p->data;
    if (metric != 0 || p->stored_len)
        return metric ? PTB_EINVAL : PTB_EFORMAT;  /* (no index stored) */
    pt_ctx *x = malloc(sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->d = d;
    x->g = d->abstract - 1;
    sl_tiles_make(d, &x->t);
    x->goal_tiles = sl_pattern_rank(&x->t, x->g, x->t.goal[x->g], 0);
    *ctx = x;
    return PTB_OK;
}

static void pt_close(void *ctx)
{
    free(ctx);
}

static uint32_t pt_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

static uint64_t pt_size(const void *ctx, uint32_t sub)
{
    const pt_ctx *x = ctx;
    return sub == 0 ? x->t.size[x->g] : 0;
}

static int pt_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const pt_ctx *x = ctx;
    uint8_t pos[SL_MAX_KINDS];
    unsigned e;
    if (sub != 0 || idx >= x->t.size[x->g] ||
        idx % x->t.tiles[x->g] != x->goal_tiles)
        return 0;                       /* (the tiles are not the goal's) */
    sl_pattern_unrank(&x->t, x->g, idx, pos, &e);
    uint64_t taken = 0;
    for (unsigned i = 0; i < x->t.k[x->g]; i++)
        taken |= (uint64_t)1 << pos[i];
    return !memcmp(pos, x->t.goal[x->g], x->t.k[x->g]) &&
           (x->t.goal_empty[x->g] >> e & 1) &&
           __builtin_ctzll(sl_region(&x->t, taken, e)) == (int)e;
}

static void pt_goals(const void *ctx, uint32_t sub,
                     void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const pt_ctx *x = ctx;
    if (sub != 0)
        return;
    const uint8_t *pos = x->t.goal[x->g];
    uint64_t taken = 0;
    for (unsigned i = 0; i < x->t.k[x->g]; i++)
        taken |= (uint64_t)1 << pos[i];
    for (uint64_t e = x->t.goal_empty[x->g]; e; ) {   /* region by region */
        unsigned c = (unsigned)__builtin_ctzll(e);
        emit(arg, sl_pattern_rank(&x->t, x->g, pos, c));
        e &= ~sl_region(&x->t, taken, c);
    }
}

static unsigned pt_max_moves(const void *ctx)
{
    const pt_ctx *x = ctx;
    return 4 * x->t.k[x->g];
}

/* Every move of state idx: a tile of the group into any cell of the empty
 * cell's region next to it; its code, the tile's open cells from and to.
 * A state whose empty cell is not the first of its region has none. */
static unsigned pt_moves(const void *ctx, uint32_t sub, uint64_t idx,
                         ptb_move *out)
{
    const pt_ctx *x = ctx;
    const sl_tiles *t = &x->t;
    uint8_t pos[SL_MAX_KINDS];
    unsigned e, n = 0, k = t->k[x->g];
    if (sub != 0 || idx >= t->size[x->g])
        return 0;
    sl_pattern_unrank(t, x->g, idx, pos, &e);
    uint64_t taken = 0;
    for (unsigned i = 0; i < k; i++)
        taken |= (uint64_t)1 << pos[i];
    uint64_t region = sl_region(t, taken, e);
    if (__builtin_ctzll(region) != (int)e)
        return 0;                       /* not a state of the space */
    for (unsigned i = 0; i < k; i++) {
        unsigned from = pos[i];
        for (uint64_t to = t->nbr[from] & region; to; to &= to - 1) {
            pos[i] = (uint8_t)__builtin_ctzll(to);
            uint64_t now = taken ^ (uint64_t)1 << from ^ (to & -to);
            out[n].to = sl_pattern_index(t, x->g, pos, now, from);
            out[n++].code = from | (uint32_t)pos[i] << 8;
        }
        pos[i] = (uint8_t)from;
    }
    return n;
}

static unsigned pt_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                           uint64_t *out)
{
    ptb_move m[4 * SL_MAX_KINDS];
    unsigned n = pt_moves(ctx, sub, idx, m);
    for (unsigned i = 0; i < n; i++)
        out[i] = m[i].to;
    return n;
}

/* ---- queries: a drawing of the group's tiles, the empty cell and '*' -- */

static int pt_parse(const void *ctx, const char *text,
                    const char *const *opt, ptb_position out[2],
                    unsigned *n, char *err, size_t errcap)
{
    const pt_ctx *x = ctx;
    const sl_desc *d = x->d;
    const sl_tiles *t = &x->t;
    ptb_token tok[SL_MAX_H];
    char cells[SL_MAX_CELLS];
    (void)opt;
    unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, tok, SL_MAX_H), c = 0;
    for (unsigned r = 0; r < rows && c <= d->n; r++)
        for (unsigned i = 0; i < tok[r].len && c <= d->n; i++)
            cells[c++] = tok[r].s[i];
    if (c != d->n)
        return ptb_errf(err, errcap, "expected %u cells, %u rows of %u",
                        d->n, d->h, d->w);
    uint8_t pos[SL_MAX_KINDS];
    unsigned seen = 0, e = 0, empties = 0;
    for (c = 0; c < d->n; c++) {
        int wall = t->open[c] < 0;
        if (sl_is_wall(d, cells[c]) != wall)
            return ptb_errf(err, errcap, "cell %u: %s", c + 1, wall ?
                            "the board has a wall here" : "no wall here");
        if (wall)
            continue;
        if (sl_is_empty(d, cells[c])) {
            e = (unsigned)t->open[c];
            empties++;
            continue;
        }
        for (unsigned i = 0; i < t->k[x->g]; i++)
            if (d->kind[t->kind[x->g][i]].label == cells[c]) {
                pos[i] = (uint8_t)t->open[c];
                seen |= 1u << i;
            }
    }
    if (empties != 1 || seen != (1u << t->k[x->g]) - 1)
        return ptb_errf(err, errcap, "expected one empty cell and each tile "
                        "of the pattern once");
    memset(&out[0], 0, sizeof out[0]);
    memcpy(out[0].cell, cells, d->n);
    out[0].aux = '.';
    uint64_t taken = 0;
    for (unsigned i = 0; i < t->k[x->g]; i++)
        taken |= (uint64_t)1 << pos[i];
    out[0].idx = sl_pattern_index(t, x->g, pos, taken, e);
    *n = 1;
    return PTB_OK;
}

/* The drawing of state idx into cells. */
static void pt_cells(const pt_ctx *x, uint64_t idx, char *cells)
{
    const sl_desc *d = x->d;
    uint8_t pos[SL_MAX_KINDS];
    unsigned e;
    sl_pattern_unrank(&x->t, x->g, idx, pos, &e);
    for (unsigned c = 0; c < d->n; c++)
        cells[c] = x->t.open[c] < 0 ? '#' : '*';
    cells[x->t.cell[e]] = '.';
    for (unsigned i = 0; i < x->t.k[x->g]; i++)
        cells[x->t.cell[pos[i]]] = d->kind[x->t.kind[x->g][i]].label;
}

static void pt_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    const pt_ctx *x = ctx;
    pt_cells(x, m->to, (char *)p->cell);
    p->idx = m->to;
}

static int pt_format_board(const void *ctx, const ptb_position *p,
                           char *buf, size_t cap)
{
    const pt_ctx *x = ctx;
    char cells[SL_MAX_CELLS];
    size_t len = 0;
    pt_cells(x, p->idx, cells);
    sl_grid_text(x->d, cells, '\n', buf, cap, &len);
    return (int)len;
}

static int pt_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                          char *buf, size_t cap)
{
    const pt_ctx *x = ctx;
    char cells[SL_MAX_CELLS];
    size_t len = 0;
    if (sub != 0 || idx >= x->t.size[x->g])
        return -1;
    pt_cells(x, idx, cells);
    sl_grid_text(x->d, cells, '/', buf, cap, &len);
    return (int)len;
}

/* "TILE DIRECTION" (U, D, L or R) */
static int pt_format_move(const void *ctx, const ptb_position *before,
                          const ptb_move *m, char *buf, size_t cap)
{
    const pt_ctx *x = ctx;
    unsigned from = x->t.cell[m->code & 0xFF];
    unsigned to = x->t.cell[m->code >> 8 & 0xFF];
    char way = to + x->d->w == from ? 'U' : from + x->d->w == to ? 'D'
               : to + 1 == from ? 'L' : 'R';
    size_t len = 0;
    ptb_catf(buf, cap, &len, "%c %c", before->cell[from], way);
    return (int)len;
}

static int pt_format_answer(const void *ctx, const ptb_solution *s,
                            char *buf, size_t cap)
{
    size_t len = 0;
    char move[8];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        pt_format_move(ctx, i ? &s->after[i - 1] : &s->start, &s->move[i],
                       move, sizeof move);
        ptb_catf(buf, cap, &len, "%u %s\n", i + 1, move);
    }
    return (int)len;
}

static int pt_format_query_json(const void *ctx, const ptb_position *p,
                                char *buf, size_t cap)
{
    size_t len = 0;
    ptb_catf(buf, cap, &len, "\"code\":\"");
    len += (size_t)pt_format_code(ctx, 0, p->idx, len < cap ? buf + len : NULL,
                                  len < cap ? cap - len : 0);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

static int pt_format_move_json(const void *ctx, const ptb_position *before,
                               const ptb_move *m, char *buf, size_t cap)
{
    const pt_ctx *x = ctx;
    unsigned w = x->d->w, from = x->t.cell[m->code & 0xFF];
    unsigned to = x->t.cell[m->code >> 8 & 0xFF];
    size_t len = 0;
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u]}", before->cell[from], from / w + 1, from % w + 1,
             to / w + 1, to % w + 1);
    return (int)len;
}

static unsigned pt_record_lines(const void *ctx, const char *first_line)
{
    return sl_record_lines(((const pt_ctx *)ctx)->d, first_line);
}

static const ptb_puzzle pattern_ops = {
    .reversible = 1,
    .open = pt_open,
    .close = pt_close,
    .subtables = pt_subtables,
    .size = pt_size,
    .goals = pt_goals,
    .is_goal = pt_is_goal,
    .max_moves = pt_max_moves,
    .moves = pt_moves,
    .unmoves = pt_unmoves,
    .parse = pt_parse,
    .record_lines = pt_record_lines,
    .apply = pt_apply,
    .format_board = pt_format_board,
    .format_move = pt_format_move,
    .format_answer = pt_format_answer,
    .format_code = pt_format_code,
    .format_query_json = pt_format_query_json,
    .format_move_json = pt_format_move_json,
};

int sl_pattern_puzzle(sl_desc *d, ptb_puzzle **out)
{
    ptb_puzzle *p = malloc(sizeof *p);
    if (!p)
        return PTB_ENOMEM;
    *p = pattern_ops;
    p->name = d->pattern_name;
    p->summary = d->summary;
    p->metrics = d->metric_name;
    p->description = d->text;
    p->data = d;
    *out = p;
    return PTB_OK;
}
