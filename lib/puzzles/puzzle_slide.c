/* lib/puzzles/puzzle_slide.c: the engine of every described sliding-block
 * puzzle (lib/puzzles/slide.h; doc/guide.md, "Describing a puzzle").
 *
 * Rules.  A move takes one piece; the others stay.  In the step metric it
 * moves one cell up, down, left or right; in the line metric any number of
 * cells in one of those directions; in the move metric to any place it can
 * reach by such steps, turning corners.  A piece that moves along its axis
 * moves only across (a piece wider than tall) or only down and up.  Every
 * move can be taken back and costs one, so the puzzle is reversible and a
 * table stores distances mod 3.
 *
 * States.  With 'covers layouts' the table covers every layout of the
 * start's pieces: every way to place, without overlap and off the walls,
 * as many pieces of each kind as the start has.  Pieces of one kind are
 * interchangeable, so a layout is which kind stands at which anchor.
 * Layouts are ranked densely and perfectly by counting completions cell by
 * cell in reading order (a dynamic programme): at cell c, with 'win' the
 * cells from c on already covered by pieces anchored before c, and 's' the
 * pieces still to place (mixed radix over the kinds), T(c, win, s) is the
 * number of ways to fill the rest.  A free cell is empty or the anchor of a
 * piece of some kind that fits there; the choices are ordered (empty
 * first, then the kinds), and a layout's rank adds, at each free cell, the
 * completions of the choices before its own.  Unranking makes the same
 * choices from the top.  The window holds one bit per cell a piece can
 * reach past its anchor.  When the space opens, T is counted over the
 * states a layout can pass through and kept as a graph whose edges carry
 * those sums, so ranking follows one edge a cell.
 *
 * With 'covers mixes N' the table covers every layout of the labelled
 * pieces the start has and any number of pieces of the other kinds, the
 * free kinds, with at least N empty cells.  Their counts never limit a
 * layout (no more fit than the board holds), so s has no digit for them,
 * and one more, the highest, for the empty cells still needed (N down to
 * 0): the states a layout passes through are the few that differ in what
 * its rest may hold (Klotski 4x5: 1,129 nodes against 20,174 when s
 * counted every kind).
 *
 * With 'covers reachable' the table covers the start's component: for a
 * tile puzzle (tile_puzzle()), half the layouts, ranked by the same
 * programme with a parity bit in its state; otherwise the layouts a search
 * from the start finds, indexed by a trie over the pieces that the table
 * stores (the component's trie, below).
 *
 * When the board, its pieces and its goals are their own mirror images, a
 * layout and its mirror image are one state (make_fold()).
 *
 * The native view (ptb_position.cell) is the user's drawing, a character a
 * cell; aux holds the character the user draws empty cells with, and
 * MIRRORED when the drawing is the mirror image of the table's state (its
 * moves, made on the state, are mirrored onto the drawing: native()).
 *
 * May touch: its arguments, the heap and its thread's last state
 * (state_moves()).  No I/O.
 */
#include "slide_engine.h"

static uint64_t spaces;          /* opened (atomic): sl_ctx.space */

/* The anchor one cell from a in direction dir that a piece of kind k can
 * take on the empty board (its axis allowing), or -1: sl_place.step. */
static int step_of(const sl_desc *d, unsigned k, unsigned a, unsigned dir)
{
    const sl_kind *kd = &d->kind[k];
    int b;
    if ((kd->axis == SL_ACROSS && dir < LEFT) ||
        (kd->axis == SL_DOWN && dir >= LEFT))
        return -1;
    switch (dir) {
    case UP:    b = a >= d->w ? (int)(a - d->w) : -1; break;
    case DOWN:  b = a + d->w < d->n ? (int)(a + d->w) : -1; break;
    case LEFT:  b = a % d->w ? (int)a - 1 : -1; break;
    default:    b = a % d->w < d->w - 1 ? (int)a + 1 : -1; break;
    }
    return b >= 0 && (kd->fit >> b & 1) ? b : -1;
}

/* ==== the puzzle's state-space ops ====================================== */

static void slide_close(void *ctx)
{
    sl_ctx *x = ctx;
    if (x) {
        if (!x->shared)
            free(x->graph);
        free(x->ok);
        free(x->avail);
        free(x->placed);
        free(x->flips);
        for (unsigned j = 0; x->level && j < x->d->npieces; j++) {
            free(x->level[j].word);
            free(x->level[j].cum);
        }
        free(x->level);
        free(x->own_saved);
        if (!x->shared) {
            free(x->frow);
            free(x->fpath);
            free(x->fguide);
        }
        free(x->fok);
        free(x->rslot);
        free(x->rrow);
        free(x->rfirst);
        free(x->rdir);
        free(x->rdir_at);
        free(x->rt_at);
        free(x->rt_ent);
        free(x->rt_sq);
        free(x->rt_fold_at);
        free(x->rt_fold);
        free(x->rt_mc);
        free(x->rt_node);
        free(x->rt_fold_node);
        free(x->place);
        if (x->searched)
            pthread_mutex_destroy(&x->lock);
    }
    free(x);
}

/* The cells next to a set of cells (up, down, left, right). */
static uint64_t around(const sl_desc *d, uint64_t cells)
{
    uint64_t first = 0;                 /* the first column */
    for (unsigned c = 0; c < d->n; c += d->w)
        first |= (uint64_t)1 << c;
    return cells << d->w | cells >> d->w | (cells & ~first) >> 1 |
           (cells & ~(first << (d->w - 1))) << 1;
}

/* The cells of 'open' that steps inside it reach from its lowest cell. */
static uint64_t connected(const sl_desc *d, uint64_t open)
{
    uint64_t seen = open & -open, grow = seen;
    while (grow) {
        grow = around(d, grow) & open & ~seen;
        seen |= grow;
    }
    return seen;
}

/* Whether the description is a tile puzzle whose reachable positions are
 * known without a search: every piece a distinct 1x1 tile moving freely,
 * one empty cell, and the open cells forming a 2-connected graph that is
 * not a cycle.  A move swaps the empty cell with a neighbour, so it
 * changes both the parity of the permutation of the cells' contents and
 * the colour (row + column mod 2) of the empty cell; the board is
 * bipartite, and by Wilson's theorem (R. M. Wilson, Graph puzzles,
 * homotopy, and the alternating group, J. Combin. Theory B 16, 1974) every
 * layout whose two parities add up as the start's is reachable: half the
 * layouts, ranked by the programme with the parity in its state. */
static int tile_puzzle(const sl_desc *d)
{
    uint64_t open = ~d->walls & (d->n < 64 ? ((uint64_t)1 << d->n) - 1
                                           : ~(uint64_t)0);
    unsigned cells = (unsigned)__builtin_popcountll(open), cycle = 1;
    if (d->npieces + 1 != cells || cells < 4)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        if (d->kind[k].count != 1 || d->kind[k].shape != 1 ||
            d->kind[k].axis != SL_FREE)
            return 0;
    for (unsigned c = 0; c < d->n; c++) {
        uint64_t one = (uint64_t)1 << c, rest = open & ~one;
        if (!(open & one))
            continue;
        if (connected(d, rest) != rest)
            return 0;                           /* not 2-connected */
        cycle &= __builtin_popcountll(around(d, one) & open) == 2;
    }
    return !cycle;
}

/* A tile puzzle's colour of the empty cell when a goal is met, when every
 * goal pattern fixes it to one colour; -1 otherwise. */
int sl_goal_colour(const sl_desc *d)
{
    int colour = -1;
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        uint64_t hole = gl->empty;
        if (!hole && gl->n == d->npieces) {
            hole = ~d->walls & (((uint64_t)2 << (d->n - 1)) - 1);
            for (unsigned i = 0; i < gl->n; i++)
                hole &= ~((uint64_t)1 << gl->anchor[i]);
        }
        if (__builtin_popcountll(hole) != 1)
            return -1;
        unsigned c = ptb_low_bit(hole);
        int own = (int)((c / d->w + c % d->w) & 1);
        if (colour >= 0 && own != colour)
            return -1;
        colour = own;
    }
    return colour;
}

/* A tile puzzle's class of a layout, 0 or 1: the parity of its
 * permutation of the tiles and the empty cell (the kinds in reading
 * order, the empty cell as 0) and of the empty cell's colour.  A move
 * swaps the empty cell with a neighbour, so it keeps the class; on a
 * 2-connected bipartite board that is no cycle, the layouts of one class
 * are all reachable from each other (R. M. Wilson, Graph puzzles,
 * homotopy, and the alternating group, J. Combin. Theory B 16, 1974). */
static unsigned tile_class(const sl_desc *d, const layout *l)
{
    uint8_t seq[SL_MAX_CELLS];
    unsigned n = 0, cls = 0;
    for (unsigned c = 0; c < d->n; c++)
        if (!(d->walls >> c & 1)) {
            seq[n++] = l->at[c];
            if (!l->at[c])
                cls ^= (c / d->w + c % d->w) & 1;
        }
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++)
            cls ^= seq[i] > seq[j];
    return cls;
}

/* Whether d's space is searched: a tile puzzle whose description has a
 * 'patterns' line, answered by a search (or by a table, when one is
 * built).  *layouts gets its layouts, (open cells)!/2 (UINT64_MAX past
 * it): fifteen's 16!/2 = 10,461,394,944,000. */
static int searched(const sl_desc *d, uint64_t *layouts)
{
    uint64_t n = 1;
    if (!d->reachable || !tile_puzzle(d) || !d->npatterns || d->nkeeps ||
        d->abstract)
        return 0;
    for (unsigned i = 3; i <= d->npieces + 1; i++)   /* cells! / 2 */
        n = n > UINT64_MAX / i ? UINT64_MAX : n * i;
    *layouts = n;
    return 1;
}

/* The index: the programme's graph (or the component's trie), its fold,
 * row hash and table, the ranking a table stores and the move classes. */
static int make_index(sl_ctx *x)
{
    const ptb_puzzle *p = x->puzzle;
    layout start;
    sl_layout_of(x->d, (const unsigned char *)x->d->start, &start);
    int rc = x->d->reachable && x->npar == 1
                 ? sl_make_component(x, &start, p->stored, p->stored_len)
                 : sl_make_table(x, &start, p->stored, p->stored_len);
    if (rc == PTB_OK)
        rc = sl_make_fold(x);
    if (rc == PTB_OK && x->fold && !x->lazy)   /* (made here) */
        rc = sl_row_hash(x);
    if (rc == PTB_OK && hashed(x) && x->npar == 1)
        rc = sl_row_table(x);
    if (rc == PTB_OK && !x->saved)      /* the ranking a table stores */
        rc = sl_save_graph(x);
    if (rc == PTB_OK)
        sl_make_classes(x);
    return rc;
}

static int slide_open(const ptb_puzzle *p, unsigned metric, void **ctx)
{
    sl_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return PTB_ENOMEM;
    x->space = __atomic_add_fetch(&spaces, 1, __ATOMIC_RELAXED);
    x->d = p->data;
    x->metric = x->d->metric[metric];
    x->max_moves = x->d->most[metric];
    for (unsigned c = 0; c < x->d->n; c++) {
        x->row[c] = (uint8_t)(c - c % x->d->w);
        x->first_col |= (uint64_t)(c % x->d->w == 0) << c;
        x->last_col |= (uint64_t)(c % x->d->w == x->d->w - 1) << c;
    }
    x->row_mask = x->d->w == 8 ? UINT64_MAX
                               : ((uint64_t)1 << 8 * x->d->w) - 1;
    x->n = x->d->n;
    if (!(x->place = calloc((size_t)x->d->nkinds * x->n + 1,
                            sizeof *x->place))) {
        free(x);
        return PTB_ENOMEM;
    }
    for (unsigned k = 0; k < x->d->nkinds; k++)
        for (unsigned a = 0; a < x->d->n; a++)
            for (unsigned dir = 0; dir < 4; dir++) {
                sl_place *pl = place_of(x, k, a);
                int b = step_of(x->d, k, a, dir);
                pl->step[dir] = (int8_t)b;
                if (b >= 0) {
                    pl->need[dir] = x->d->kind[k].shape << b &
                                    ~(x->d->kind[k].shape << a);
                    pl->halo |= pl->need[dir];
                }
            }
    x->npar = x->d->reachable && tile_puzzle(x->d) ? 2 : 1;
    x->goal_colour = p->parity ? (unsigned)sl_goal_colour(x->d) : 0;
    x->puzzle = p;
    int rc = PTB_OK;
    if (searched(x->d, &x->size)) {
        layout start;
        sl_layout_of(x->d, (const unsigned char *)x->d->start, &start);
        x->start_class = tile_class(x->d, &start);
        if (pthread_mutex_init(&x->lock, NULL))
            rc = PTB_ENOMEM;
        else
            x->searched = 1;
    } else {
        rc = make_index(x);
    }
    if (rc != PTB_OK) {
        slide_close(x);
        return rc;
    }
    *ctx = x;
    return PTB_OK;
}

/* A searched space's index, made when first needed: 1 when it is there,
 * else 0 (made_rc says why: slide_status()). */
static int indexed(const sl_ctx *cx)
{
    sl_ctx *x = (sl_ctx *)(uintptr_t)cx;
    if (!x->searched)
        return 1;
    if (__atomic_load_n(&x->made, __ATOMIC_ACQUIRE))
        return x->made_rc == PTB_OK;
    pthread_mutex_lock(&x->lock);
    if (!__atomic_load_n(&x->made, __ATOMIC_RELAXED)) {
        uint64_t layouts = x->size;
        x->made_rc = layouts > MAX_SEARCHED ? PTB_EINVAL   /* (no index
                                                          holds them) */
                     : make_index(x);
        if (x->made_rc == PTB_OK && x->size != layouts)
            x->made_rc = PTB_ECORRUPT;
        if (x->made_rc != PTB_OK)
            x->size = layouts;
        __atomic_store_n(&x->made, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&x->lock);
    return x->made_rc == PTB_OK;
}

static uint32_t slide_subtables(const void *ctx)
{
    (void)ctx;
    return 1;
}

static uint64_t slide_size(const void *ctx, uint32_t sub)
{
    return sub == 0 ? ((const sl_ctx *)ctx)->size : 0;
}

static int slide_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const sl_ctx *x = ctx;
    const layout *l;
    return sub == 0 && idx < x->size && (l = sl_last_layout(x, idx)) &&
           sl_is_goal_layout(x->d, l);
}

/* The goals of the programme's graph, each given to gw's emit. */
static void goal_walks(const sl_ctx *x, goal_walk *gw)
{
    for (gw->g = 0; gw->g < x->d->ngoals; gw->g++) {
        const sl_goal *gl = &x->d->goal[gw->g];
        memset(gw->want, 0, sizeof gw->want);
        for (unsigned i = 0; i < gl->n; i++)
            gw->want[gl->anchor[i]] = (uint8_t)(gl->kind[i] + 1);
        clear_layout(x->d, &gw->l);
        sl_goal_layouts(gw, 0, x->root, 0, x->fold, x->root, 0);
    }
}

static void slide_goals(const void *ctx, uint32_t sub,
                        void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const sl_ctx *x = ctx;
    if (sub != 0)
        return;
    if (x->level) {
        for (uint64_t i = 0; i < x->size; i++)
            if (slide_is_goal(ctx, sub, i))
                emit(arg, i);
        return;
    }
    goal_walk gw = { .x = x, .emit = emit, .arg = arg };
    goal_walks(x, &gw);
}

/* ==== the native view =================================================== */

static int parse_error(char *err, size_t cap, const ptb_token *t,
                       unsigned ntok, unsigned c, unsigned w,
                       const char *what, char ch)
{
    const ptb_token *row = ntok == 1 ? &t[0] : &t[c / w];
    unsigned off = ntok == 1 ? c : c % w;
    return ptb_errf(err, cap, "line %u, column %u: %s '%c'", row->line,
                    ptb_text_column(row, off), what, ch);
}

/* The user's drawing: h rows of w cells, or all cells in one row. */
/* The pieces of a drawing read cell by cell (parse()): each one's cells
 * touching, of a shape the puzzle has, as many of each kind as the table
 * covers. */
static int parse_pieces(const sl_desc *d, const ptb_position *p,
                        const ptb_token *t, unsigned rows, char *err,
                        size_t errcap)
{
    unsigned counts[SL_MAX_KINDS] = { 0 };
    uint64_t done = d->walls;
    for (unsigned c = 0; c < d->n; c++) {
        char ch = (char)p->cell[c];
        if ((done >> c & 1) || sl_is_empty(d, ch))
            continue;
        uint64_t m = 0;
        for (unsigned i = c; i < d->n; i++)
            if (p->cell[i] == (unsigned char)ch)
                m |= (uint64_t)1 << i;
        done |= m;
        int k = sl_kind_of(d, ch, m >> c);
        if (connected(d, m) != m)
            return parse_error(err, errcap, t, rows, c, d->w, "the cells "
                               "of a piece must touch: two pieces show",
                               ch);
        if (k < 0)
            return parse_error(err, errcap, t, rows, c, d->w, "no piece of "
                               "this puzzle has the shape of", ch);
        counts[k]++;
    }
    for (unsigned k = 0; k < d->nkinds; k++)
        if (counts[k] != d->kind[k].count && !(d->mixes && !d->kind[k].label)) {
            if (d->kind[k].label)
                return ptb_errf(err, errcap, "piece '%c' is missing",
                                d->kind[k].label);
            return ptb_errf(err, errcap, "expected %u pieces shaped like "
                            "'%c' of the start, found %u", d->kind[k].count,
                            d->kind[k].shown, counts[k]);
        }
    return PTB_OK;
}

/* A position written as numbers ('numbers'): one a cell off the walls, in
 * reading order, 0 for an empty cell and i for the i-th letter, as the
 * drawing of one row into row.  0 when the text is no such list (then a
 * drawing), 1 when it is, PTB_EPARSE after a message. */
static int numbers_row(const sl_desc *d, const char *text, char *row,
                       char *err, size_t errcap)
{
    ptb_token t[SL_MAX_CELLS + 1];
    unsigned open = 0, n = ptb_text_split(text, PTB_TEXT_GRID, t,
                                          SL_MAX_CELLS + 1);
    for (unsigned c = 0; c < d->n; c++)
        open += !(d->walls >> c & 1);
    if (!d->numbers[0] || n != open || open < 2)
        return 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < t[i].len; j++)
            if (t[i].s[j] < '0' || t[i].s[j] > '9')
                return 0;
    for (unsigned c = 0, i = 0; c < d->n; c++) {
        unsigned v = 0;
        if (d->walls >> c & 1) {
            row[c] = '#';
            continue;
        }
        for (unsigned j = 0; j < t[i].len && v <= SL_MAX_PIECES; j++)
            v = 10 * v + (unsigned)(t[i].s[j] - '0');
        if (v > strlen(d->numbers))
            return ptb_errf(err, errcap, "line %u, column %u: %.*s is no "
                            "number of this puzzle (0 for the empty cell, "
                            "1 to %u)", t[i].line, t[i].col,
                            (int)(t[i].len > 8 ? 8 : t[i].len), t[i].s,
                            (unsigned)strlen(d->numbers));
        row[c] = v ? d->numbers[v - 1] : '.';
        i++;
    }
    row[d->n] = '\0';
    return 1;
}

static int slide_parse(const void *ctx, const char *text,
                       const char *const *opt, ptb_position out[2],
                       unsigned *n, char *err, size_t errcap)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    ptb_token t[SL_MAX_H];
    ptb_position *p = &out[0];
    char row[SL_MAX_CELLS + 1];
    (void)opt;
    int numeric = numbers_row(d, text, row, err, errcap);
    if (numeric < 0)
        return numeric;
    if (numeric)
        text = row;
    unsigned rows = ptb_text_split(text, PTB_TEXT_GRID, t, SL_MAX_H);
    int one = rows == 1 && t[0].len == d->n && d->h > 1;
    if (!one && rows != d->h)
        return ptb_errf(err, errcap, "expected %u rows of %u cells (or the "
                        "%u cells in one row), found %u rows", d->h, d->w,
                        d->n, rows);
    for (unsigned r = 0; !one && r < rows; r++)
        if (t[r].len != d->w)
            return ptb_errf(err, errcap, "line %u, column %u: expected %u "
                            "cells in a row, found %u", t[r].line, t[r].col,
                            d->w, t[r].len);
    p->aux = '.';
    for (unsigned c = 0; c < d->n; c++) {
        char ch = one ? t[0].s[c] : t[c / d->w].s[c % d->w];
        int wall = d->walls >> c & 1;
        p->cell[c] = (unsigned char)ch;
        if (sl_is_wall(d, ch) != wall)
            return parse_error(err, errcap, t, rows, c, d->w, wall ?
                               "the board has a wall here, expected '#', got"
                               : "the board has no wall here, got", ch);
        if (wall)
            continue;
        if (sl_is_empty(d, ch)) {
            p->aux = (unsigned char)ch;
            continue;
        }
        if (ch <= ' ' || ch >= 127 || ch == '?' || ch == '/' ||
            ch == '"' || ch == '\\')
            return parse_error(err, errcap, t, rows, c, d->w,
                               "unexpected", ch);
    }
    int rc = parse_pieces(d, p, t, rows, err, errcap);
    if (rc != PTB_OK)
        return rc;
    layout l;
    sl_layout_of(d, p->cell, &l);
    p->sub = 0;
    if (x->searched) {                  /* (no rank: the drawing says all) */
        p->idx = PTB_NO_INDEX;
        if (tile_class(d, &l) == x->start_class)
            return *n = 1, PTB_OK;
    } else {
        p->idx = sl_rank_kept(ctx, &l);
        p->aux |= sl_mirrored(ctx, &l);
    }
    if (x->searched)
        return ptb_errf(err, errcap, "this position is not one of those "
                        "reachable from the description's start: its tiles' "
                        "order and the empty cell's place have the other "
                        "parity");
    if (p->idx == UINT64_MAX)
        return ptb_errf(err, errcap, "this position is not one of the %llu "
                        "the table covers: %s",
                        (unsigned long long)x->size,
                        d->mixes ? "it leaves too few empty cells"
                                 : "those reachable from the description's "
                                   "start");
    *n = 1;
    return PTB_OK;
}

static unsigned slide_record_lines(const void *ctx, const char *first_line)
{
    return sl_record_lines(((const sl_ctx *)ctx)->d, first_line);
}

/* The moving piece's cells before a move of code m. */
static uint64_t moving_cells(const sl_desc *d, const ptb_position *p,
                             uint32_t code)
{
    unsigned char ch = p->cell[code & 0xFF];
    uint64_t m = 0;
    for (unsigned i = 0; i < d->n; i++)
        if (p->cell[i] == ch)
            m |= (uint64_t)1 << i;
    return m;
}

static void slide_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    uint32_t code = sl_native(ctx, p, m->code);
    unsigned from = code & 0xFF, to = code >> 8 & 0xFF;
    unsigned char ch = p->cell[from];
    uint64_t cells = moving_cells(d, p, code);
    for (uint64_t b = cells; b; b &= b - 1)
        p->cell[ptb_low_bit(b)] = (unsigned char)p->aux;
    for (uint64_t b = cells; b; b &= b - 1)
        p->cell[ptb_low_bit(b) + to - from] = ch;
    p->idx = m->to;
    if (m->code & CODE_OWN)             /* the drawing: as parse() says */
        p->aux &= ~MIRRORED;
    else if (m->code & CODE_TURNS)
        p->aux ^= MIRRORED;
}

/* The path of a move: its directions, "DDL", into path (NUL-ended). */
static unsigned move_path(const sl_ctx *x, const ptb_position *before,
                          uint32_t code, char *path)
{
    const sl_desc *d = x->d;
    unsigned a = code & 0xFF, b = code >> 8 & 0xFF, n = 0;
    uint64_t cells = moving_cells(d, before, code), occ = 0;
    uint8_t to[SL_MAX_CELLS], from[SL_MAX_CELLS], way[SL_MAX_CELLS];
    for (unsigned i = 0; i < d->n; i++)
        if (!(cells >> i & 1) && !sl_is_empty(d, (char)before->cell[i]) &&
            !(d->walls >> i & 1))
            occ |= (uint64_t)1 << i;
    int k = sl_kind_of(d, (char)before->cell[a], cells >> a);
    unsigned m = k < 0 ? 0 : reach(x, (unsigned)k, occ, a, to, from);
    for (unsigned c = b; c != a && n < SL_MAX_CELLS;) {
        unsigned j = 0;
        while (j < m && to[j] != c)
            j++;
        if (j == m)
            break;
        unsigned f = from[j];
        way[n++] = (uint8_t)(c + d->w == f ? UP : f + d->w == c ? DOWN
                             : c + 1 == f ? LEFT : RIGHT);
        c = f;
    }
    for (unsigned i = 0; i < n; i++)
        path[i] = dir_letter[way[n - 1 - i]];
    path[n] = '\0';
    return n;
}

static int slide_format_board(const void *ctx, const ptb_position *p,
                              char *buf, size_t cap)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    size_t len = 0;
    sl_grid_text(d, (const char *)p->cell, '\n', buf, cap, &len);
    return (int)len;
}

static int slide_format_move(const void *ctx, const ptb_position *before,
                             const ptb_move *m, char *buf, size_t cap)
{
    char path[SL_MAX_CELLS + 1];
    size_t len = 0;
    uint32_t code = sl_native(ctx, before, m->code);
    move_path(ctx, before, code, path);
    ptb_catf(buf, cap, &len, "%c %s", before->cell[code & 0xFF], path);
    return (int)len;
}

/* The count, then per move "N PIECE PATH", the board after it and a blank
 * line. */
static int slide_format_answer(const void *ctx, const ptb_solution *s,
                               char *buf, size_t cap)
{
    size_t len = 0;
    char move[SL_MAX_CELLS + 8], board[SL_MAX_CELLS + SL_MAX_H + 1];
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        slide_format_move(ctx, before, &s->move[i], move, sizeof move);
        slide_format_board(ctx, &s->after[i], board, sizeof board);
        ptb_catf(buf, cap, &len, "%u %s\n%s\n\n", i + 1, move, board);
    }
    return (int)len;
}

/* A state as a drawing parse() reads back: rows joined by '/', a letter a
 * piece (a distinct piece's own, then the first free ones; where pieces
 * of one shape move two ways, those of 'axis' for the axis ones and no
 * other's). */
static int code_text(const sl_desc *d, const layout *lp, char *buf,
                     size_t cap)
{
    const layout l = *lp;
    char cells[SL_MAX_CELLS];
    size_t len = 0;
    for (unsigned c = 0; c < d->n; c++)
        cells[c] = d->walls >> c & 1 ? '#' : '.';
    const char *pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                       "0123456789!$%&()*+,-:;<=>@[]^_`{|}~'";
    const char *listed = d->axis;        /* (each once) */
    int twins = 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        twins |= d->kind[k].twin != 0;
    for (unsigned i = 0; i < l.np; i++) {
        unsigned a = l.anchor[i], k = l.at[a] - 1u;
        char ch = d->kind[k].label;
        if (!ch && d->kind[k].twin && d->kind[k].axis != SL_FREE)
            while (!ch && *listed)
                if (sl_kind_of(d, *listed++, d->kind[k].shape) == (int)k)
                    ch = listed[-1];
        while (!ch) {
            ch = *pool++;
            for (unsigned j = 0; ch && j < d->nkinds; j++)
                if (d->kind[j].label == ch)
                    ch = 0;
            if (ch && (sl_is_empty(d, ch) || sl_is_wall(d, ch) ||
                       (twins && strchr(d->axis, ch))))
                ch = 0;
        }
        for (unsigned o = 0; o < 64; o++)
            if (d->kind[k].shape >> o & 1)
                cells[a + o] = ch;
    }
    sl_grid_text(d, cells, '/', buf, cap, &len);
    return (int)len;
}

static int slide_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                             char *buf, size_t cap)
{
    const sl_ctx *x = ctx;
    layout l;
    if (sub != 0 || idx >= x->size)
        return -1;
    sl_unrank(x, idx, &l, NULL);
    return code_text(x->d, &l, buf, cap);
}

static int slide_format_query_json(const void *ctx, const ptb_position *p,
                                   char *buf, size_t cap)
{
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    size_t len = 0;
    ptb_catf(buf, cap, &len, "\"code\":\"");
    sl_grid_text(d, (const char *)p->cell, '/', buf, cap, &len);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

static int slide_format_move_json(const void *ctx, const ptb_position *before,
                                  const ptb_move *m, char *buf, size_t cap)
{
    static const char *const name[] = { "up", "down", "left", "right" };
    const sl_desc *d = ((const sl_ctx *)ctx)->d;
    uint32_t code = sl_native(ctx, before, m->code);
    unsigned from = code & 0xFF, to = code >> 8 & 0xFF;
    char path[SL_MAX_CELLS + 1];
    size_t len = 0, k;
    move_path(ctx, before, code, path);
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"path\":[", before->cell[from], from / d->w + 1,
             from % d->w + 1, to / d->w + 1, to % d->w + 1);
    for (k = 0; path[k]; k++)
        ptb_catf(buf, cap, &len, "%s\"%s\"", k ? "," : "",
                 name[strchr(dir_letter, path[k]) - dir_letter]);
    ptb_catf(buf, cap, &len, "]");
    if (k && strspn(path, (char[2]){ path[0], 0 }) == k)
        ptb_catf(buf, cap, &len, ",\"direction\":\"%s\"",
                 name[strchr(dir_letter, path[0]) - dir_letter]);
    ptb_catf(buf, cap, &len, "}");
    return (int)len;
}

/* The ranking a table stores: the graph (sl_save_graph()) or the
 * component's trie. */
static const unsigned char *slide_index(const void *ctx, size_t *len)
{
    const sl_ctx *x = ctx;
    *len = x->saved_len;
    return x->saved;
}

static int slide_status(const void *ctx)
{
    const sl_ctx *x = ctx;
    if (x->searched && __atomic_load_n(&x->made, __ATOMIC_ACQUIRE) &&
        x->made_rc != PTB_OK)
        return x->made_rc;
    return __atomic_load_n(&x->damaged, __ATOMIC_RELAXED) ? PTB_ECORRUPT
                                                          : PTB_OK;
}

static unsigned slide_max_moves(const void *ctx)
{
    return ((const sl_ctx *)ctx)->max_moves;
}

static const ptb_puzzle slide_ops = {
    .reversible = 1,
    .open = slide_open,
    .close = slide_close,
    .subtables = slide_subtables,
    .size = slide_size,
    .goals = slide_goals,
    .is_goal = slide_is_goal,
    .max_moves = slide_max_moves,
    .moves = slide_moves,
    .unmoves = slide_unmoves,
    .parse = slide_parse,
    .record_lines = slide_record_lines,
    .apply = slide_apply,
    .first_move = slide_first_move,
    .format_board = slide_format_board,
    .format_move = slide_format_move,
    .format_answer = slide_format_answer,
    .format_code = slide_format_code,
    .format_query_json = slide_format_query_json,
    .format_move_json = slide_format_move_json,
    .index = slide_index,
    .status = slide_status,
};

/* A tile puzzle's distance mod 2: every move changes the colour of the
 * empty cell. */
static unsigned slide_parity(const void *ctx, uint32_t sub, uint64_t idx)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    layout l;
    if (sub != 0 || idx >= x->size)
        return 0;
    sl_unrank(x, idx, &l, NULL);
    unsigned c = ptb_low_bit(~l.occ & ~d->walls);
    return (unsigned)(x->black >> c & 1) ^ x->goal_colour;
}

/* ==== a searched space (searched()): its index made when first asked == */

static int searched_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    return indexed(ctx) && slide_is_goal(ctx, sub, idx);
}

static void searched_goals(const void *ctx, uint32_t sub,
                           void (*emit)(void *arg, uint64_t idx), void *arg)
{
    if (indexed(ctx))
        slide_goals(ctx, sub, emit, arg);
}

static unsigned searched_moves(const void *ctx, uint32_t sub, uint64_t idx,
                               ptb_move *out)
{
    return indexed(ctx) ? slide_moves(ctx, sub, idx, out) : 0;
}

static unsigned searched_unmoves(const void *ctx, uint32_t sub,
                                 uint64_t idx, uint64_t *out)
{
    return indexed(ctx) ? slide_unmoves(ctx, sub, idx, out) : 0;
}

static unsigned searched_parity(const void *ctx, uint32_t sub, uint64_t idx)
{
    return indexed(ctx) ? slide_parity(ctx, sub, idx) : 0;
}

static int searched_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                                char *buf, size_t cap)
{
    return indexed(ctx) ? slide_format_code(ctx, sub, idx, buf, cap) : -1;
}

static const unsigned char *searched_index(const void *ctx, size_t *len)
{
    *len = 0;
    return indexed(ctx) ? slide_index(ctx, len) : NULL;
}

/* The moves of a position: a tile next to the empty cell slides into it
 * (code: its cell | the empty cell << 8; no index after); those of
 * moves() when it has an index. */
static unsigned searched_position_moves(const void *ctx,
                                        const ptb_position *p, ptb_move *out)
{
    const sl_ctx *x = ctx;
    const sl_desc *d = x->d;
    unsigned e = 0, n = 0;
    if (p->idx != PTB_NO_INDEX)
        return searched_moves(ctx, p->sub, p->idx, out);
    while (e < d->n && (d->walls >> e & 1 ||
                        (p->cell[e] != (unsigned char)p->aux &&
                         !sl_is_empty(d, (char)p->cell[e]))))
        e++;
    for (unsigned c = 0; e < d->n && c < d->n; c++) {
        int k = d->walls >> c & 1 || c == e ? -1
                : sl_kind_of(d, (char)p->cell[c], 1);
        for (unsigned dir = 0; k >= 0 && dir < 4; dir++)
            if (place_of(x, (unsigned)k, c)->step[dir] == (int)e)
                out[n++] = (ptb_move){ .to = PTB_NO_INDEX,
                                       .code = c | e << 8 };
    }
    return n;
}

static int searched_first_move(const void *ctx, const ptb_position *p,
                               int (*pick)(void *arg, const ptb_move *m),
                               void (*ahead)(void *arg, const ptb_move *m),
                               void *arg, ptb_move *out)
{
    ptb_move mv[4];
    if (p->idx != PTB_NO_INDEX)
        return indexed(ctx) ? slide_first_move(ctx, p, pick, ahead, arg, out)
                              : 0;
    for (unsigned i = 0, n = searched_position_moves(ctx, p, mv); i < n; i++) {
        int got = pick(arg, &mv[i]);
        if (got) {
            *out = mv[i];
            return got;
        }
    }
    return 0;
}

static int searched_position_is_goal(const void *ctx, const ptb_position *p)
{
    const sl_ctx *x = ctx;
    layout l;
    if (p->idx != PTB_NO_INDEX)
        return searched_is_goal(ctx, p->sub, p->idx);
    sl_layout_of(x->d, p->cell, &l);
    return sl_is_goal_layout(x->d, &l);
}

static void searched_position_rank(const void *ctx, ptb_position *p)
{
    layout l;
    if (p->idx != PTB_NO_INDEX || !indexed(ctx))
        return;
    sl_layout_of(((const sl_ctx *)ctx)->d, p->cell, &l);
    p->idx = sl_rank(ctx, &l, NULL, 0, 0, NULL);
    if (p->idx != PTB_NO_INDEX)
        p->aux |= sl_mirrored(ctx, &l);
}

static int searched_format_position_code(const void *ctx,
                                         const ptb_position *p, char *buf,
                                         size_t cap)
{
    const sl_ctx *x = ctx;
    layout l;
    if (p->idx != PTB_NO_INDEX)
        return searched_format_code(ctx, p->sub, p->idx, buf, cap);
    sl_layout_of(x->d, p->cell, &l);
    return code_text(x->d, &l, buf, cap);
}

int sl_puzzle(sl_desc *d, ptb_puzzle **out)
{
    ptb_puzzle *p = malloc(sizeof *p);
    if (!p)
        return PTB_ENOMEM;
    *p = slide_ops;
    p->name = d->name;
    p->summary = d->summary;
    p->metrics = d->metric_name;
    p->description = d->text;
    p->start = d->start_text;
    p->data = d;
    if (d->reachable && tile_puzzle(d) && sl_goal_colour(d) >= 0)
        p->parity = slide_parity;
    uint64_t layouts;
    if (searched(d, &layouts)) {        /* (the same ops, asked first) */
        p->is_goal = searched_is_goal;
        p->goals = searched_goals;
        p->moves = searched_moves;
        p->unmoves = searched_unmoves;
        p->first_move = searched_first_move;
        p->format_code = searched_format_code;
        p->index = searched_index;
        p->parity = p->parity ? searched_parity : NULL;
        p->position_moves = searched_position_moves;
        p->position_is_goal = searched_position_is_goal;
        p->position_rank = searched_position_rank;
        p->format_position_code = searched_format_position_code;
    }
    *out = p;
    return PTB_OK;
}

/* ==== a family's check of its space (lib/answer/family_config.c) ====== */

const sl_desc *sl_space_desc(const ptb_space *s)
{
    const sl_ctx *x = s->p->open == slide_open ? s->ctx : NULL;
    return x && !x->level && !x->fold ? x->d : NULL;
}
