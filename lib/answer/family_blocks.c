/* lib/answer/family_blocks.c: a family of general sliding blocks
 * ('family blocks N'): every layout of pieces of any shape of at most N
 * cells on the description's board, as Neil Bickford's search of the
 * "simple^3" 4x4 puzzles has them ("Sliding Block Puzzles", parts 2 to 4,
 * 2011-2013; github Nbickford/SbpUtilities, SBPFinder and SBPSearcher).
 *
 * The rules.  A layout covers the board's cells with pieces (each a set of
 * cells joined by their sides, of at most N cells) and empty cells, at
 * least one.  Pieces of one shape (the same cells up to a translation)
 * are interchangeable, but for the goal piece.  A move takes one piece
 * to another place in the description's first metric: 'move' anywhere
 * it can reach by steps of one cell over empty cells, turning corners
 * (Bickford's), 'line' any distance in one straight direction, 'step'
 * one cell.  The goal piece is the one that covers the board's bottom
 * right cell in a goal layout; a goal layout is any layout with it there
 * (its bounding box in the bottom right corner, which it must cover).  A
 * puzzle starts with the goal piece at the top left (its bounding box in
 * the top left corner).  A component of layouts (linked by moves) that
 * holds a goal gives one puzzle when some start of it is at least one
 * move from every goal: its farthest start ("simple^3": of the starts, the
 * farthest from the goals), ties broken by the least board (below).
 * Bickford's searcher reads the goal layouts in which the goal piece can
 * move a cell up or left (his "justsolved" boards), searches the
 * component of each once from all its goals, and keeps the farthest start
 * with its distance: the same puzzles, as a component whose goal piece
 * never leaves the goal has no start a move away.
 *
 * The computation.  Every goal layout is listed (the first cell not yet
 * decided is left empty or covered by a piece placed there, in reading
 * order: each layout once, Bickford's part 4); for each in which the goal
 * piece can move and which no earlier search met, its component is found
 * by a breadth-first search (a hash of its layouts, numbered as found, its
 * moves kept as edges between the numbers), the goals met marked; then a
 * breadth-first search over the edges from all the component's goals at
 * once gives every layout its distance, and the farthest start is kept.
 * Every component with a goal the piece can leave is searched once, and
 * no other.  A component keeps its pieces: the threads take a piece count
 * each (the layouts listed are those of that count), each with its own
 * sets, and the puzzles are gathered at the end.
 *
 * A layout's key: the pieces lettered 1.. in the reading order of their
 * first cells, five bits a cell (0 empty), the goal piece's number in the
 * top bits: two layouts are the same, up to the order of interchangeable
 * pieces, when their keys are.  Cells are bits of a board with a spare
 * column on the right and a spare row above and below, so that a shift by
 * one cell or one row never wraps onto the board.
 *
 * A kept puzzle: the moves, the farthest start (a character a cell in
 * reading order: '.' empty, the goal piece 'A', the others 'B', 'C', ...
 * in the reading order of their first cells), the component's layouts and
 * their histogram of distances from the goals, its last count every
 * layout at least the puzzle's moves away (so the counts sum to the
 * layouts).
 *
 * May touch: its arguments and the heap.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "family.h"

#define BLK_CELLS 24             /* the most cells: 5 bits each + goal */
#define BLK_FAR 0xFFFF
#define LEVEL_MOVES_MAX_BLK 254  /* a levels table's most */

typedef struct bkey {
    uint64_t lo, hi;
} bkey;

/* The board and its pieces' places. */
typedef struct blk {
    unsigned w, h, n, pw, metric, most;
    uint64_t board;              /* its cells, as bits */
    uint8_t cell[64];            /* of each bit on the board, its cell */
    uint8_t at[64];              /* and its key's bit: 5 x cell */
    uint8_t bit[BLK_CELLS];
    uint64_t *place;             /* every piece's places, by first cell */
    uint32_t first[BLK_CELLS + 1];
    unsigned corner;             /* the bottom right cell's bit */
} blk;

/* A layout: its pieces' cells and the goal piece. */
typedef struct lay {
    unsigned np, goal;
    uint64_t piece[BLK_CELLS];
} lay;

/* The layouts met by a search, numbered, and their distances. */
typedef struct bset {
    bkey *key;
    uint16_t *dist;
    uint8_t *flag;               /* IS_GOAL, IS_START */
    uint32_t *slot;              /* 1 + number; 0 free */
    uint64_t size, cap, mask;
    uint32_t *edge;              /* the moves of layout m: edge[off[m]]
                                    to edge[off[m + 1]] */
    uint64_t *off, nedge, capedge;
} bset;

enum { IS_GOAL = 1, IS_START = 2 };

/* ---- the board ------------------------------------------------------ */

static unsigned low(uint64_t m)
{
    return (unsigned)__builtin_ctzll(m);
}

static uint64_t spread(const blk *b, uint64_t m)
{
    return (m << 1 | m >> 1 | m << b->pw | m >> b->pw) & b->board;
}

static int joined(const blk *b, uint64_t m)
{
    uint64_t f = m & -m, g;
    while ((g = (f | spread(b, f)) & m) != f)
        f = g;
    return f == m;
}

/* The place of m's shape with its bounding box in the top left corner. */
static uint64_t top_left(const blk *b, uint64_t m)
{
    unsigned minx = b->w, miny = b->h;
    for (uint64_t r = m; r; r &= r - 1) {
        unsigned c = b->cell[low(r)];
        minx = c % b->w < minx ? c % b->w : minx;
        miny = c / b->w < miny ? c / b->w : miny;
    }
    return m >> (miny * b->pw + minx);
}

/* Every piece's places (every set of at most 'most' joined cells), listed
 * by their first cell. */
static int make_places(blk *b)
{
    size_t cap = 0, n = 0;
    uint64_t *pl = NULL;
    for (unsigned c = 0; c < b->n; c++) {
        b->first[c] = (uint32_t)n;
        uint64_t rest = (uint64_t)1 << (b->n - c - 1);
        for (uint64_t s = 0; s < rest; s++) {
            uint64_t m = (uint64_t)1 << b->bit[c];
            for (unsigned i = 0; i + c + 1 < b->n; i++)
                if (s >> i & 1)
                    m |= (uint64_t)1 << b->bit[c + 1 + i];
            if ((unsigned)__builtin_popcountll(m) > b->most || !joined(b, m))
                continue;
            void *p = pl;
            if (ptb_room(&p, &cap, n + 1, sizeof *pl, 1024)) {
                free(pl);
                return PTB_ENOMEM;
            }
            pl = p;
            pl[n++] = m;
        }
    }
    b->first[b->n] = (uint32_t)n;
    b->place = pl;
    return PTB_OK;
}

static int blk_init(blk *b, const sl_desc *d, unsigned most, char *err,
                    size_t errcap)
{
    memset(b, 0, sizeof *b);
    b->w = d->w;
    b->h = d->h;
    b->n = d->n;
    b->pw = d->w + 1;
    b->most = most;
    b->metric = d->metric[0];
    if (d->walls)
        return ptb_errf(err, errcap, "family blocks: the board has walls "
                        "(a blocks family's board has none)");
    if (d->n > BLK_CELLS || (d->h + 2) * b->pw > 64 || d->n < 2)
        return ptb_errf(err, errcap, "family blocks: a board of %u x %u: "
                        "at least 2 cells and at most %u (and (width + 1) x "
                        "(height + 2) at most 64)", d->w, d->h, BLK_CELLS);
    if (most < 1 || most >= d->n)
        return ptb_errf(err, errcap, "family blocks: pieces of %u cells at "
                        "most on %u cells: from 1 to %u", most, d->n,
                        d->n - 1);
    for (unsigned c = 0; c < b->n; c++) {
        b->bit[c] = (uint8_t)((c / b->w + 1) * b->pw + c % b->w);
        b->cell[b->bit[c]] = (uint8_t)c;
        b->at[b->bit[c]] = (uint8_t)(5 * c);
        b->board |= (uint64_t)1 << b->bit[c];
    }
    b->corner = b->bit[b->n - 1];
    return make_places(b);
}

/* ---- layouts and their keys ----------------------------------------- */

/* Piece m lettered v into key k. */
static void key_add(const blk *b, bkey *k, uint64_t m, uint64_t v)
{
    for (; m; m &= m - 1) {
        unsigned at = b->at[low(m)];
        if (at < 64)
            k->lo |= v << at;
        if (at > 59)
            k->hi |= at < 64 ? v >> (64 - at) : v << (at - 64);
    }
}

static bkey key_of(const blk *b, const lay *l)
{
    uint64_t order[BLK_CELLS];
    unsigned np = l->np, gl = 0;
    for (unsigned i = 0; i < np; i++)      /* first cell, then index */
        order[i] = (uint64_t)low(l->piece[i]) << 8 | i;
    for (unsigned i = 1; i < np; i++)
        for (unsigned j = i; j && order[j - 1] > order[j]; j--) {
            uint64_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    bkey k = { 0, 0 };
    for (unsigned i = 0; i < np; i++) {
        unsigned p = (unsigned)(order[i] & 0xFF);
        gl = p == l->goal ? i + 1 : gl;
        key_add(b, &k, l->piece[p], i + 1);
    }
    k.hi |= (uint64_t)gl << 59;
    return k;
}

/* key_of() of layout l with its piece p moved to 'to', l's pieces in the
 * order of their first cells (lay_of()'s): the moved piece's letter found
 * among the others', no sort. */
static bkey key_moved(const blk *b, const lay *l, unsigned p, uint64_t to)
{
    bkey k = { 0, 0 };
    unsigned v = 1, gl = 0, at = low(to), put = 0;
    for (unsigned i = 0; i < l->np; i++) {
        if (i == p)
            continue;
        if (!put && low(l->piece[i]) > at) {
            gl = p == l->goal ? v : gl;
            key_add(b, &k, to, v++);
            put = 1;
        }
        gl = i == l->goal ? v : gl;
        key_add(b, &k, l->piece[i], v++);
    }
    if (!put) {
        gl = p == l->goal ? v : gl;
        key_add(b, &k, to, v);
    }
    k.hi |= (uint64_t)gl << 59;
    return k;
}

static unsigned key_cell(const bkey *k, unsigned c)
{
    unsigned at = 5 * c;
    uint64_t v = at < 64 ? k->lo >> at : 0;
    if (at > 59)
        v |= at < 64 ? k->hi << (64 - at) : k->hi >> (at - 64);
    return (unsigned)(v & 31);
}

static void lay_of(const blk *b, const bkey *k, lay *l)
{
    memset(l, 0, sizeof *l);
    for (unsigned c = 0; c < b->n; c++) {
        unsigned v = key_cell(k, c);
        if (v) {
            l->piece[v - 1] |= (uint64_t)1 << b->bit[c];
            l->np = v > l->np ? v : l->np;
        }
    }
    l->goal = (unsigned)(k->hi >> 59) - 1;
}

static int is_goal(const blk *b, const lay *l)
{
    return l->piece[l->goal] >> b->corner & 1;
}

static int is_start(const blk *b, const lay *l)
{
    uint64_t g = l->piece[l->goal];
    return g == top_left(b, g);
}

/* The layout's board: '.' empty, the goal piece 'A', the others from 'B'
 * in the reading order of their first cells. */
static void draw(const blk *b, const bkey *k, char *out)
{
    unsigned gl = (unsigned)(k->hi >> 59);
    for (unsigned c = 0; c < b->n; c++) {
        unsigned v = key_cell(k, c);
        out[c] = !v ? '.' : v == gl ? 'A' : (char)('A' + v - (v > gl));
    }
    out[b->n] = '\0';
}

/* ---- moves ---------------------------------------------------------- */

/* The places piece p may move to in the metric, into to[] (their count). */
static unsigned dests(const blk *b, const lay *l, unsigned p, uint64_t *to)
{
    uint64_t free = b->board, m = l->piece[p], seen = 0;
    for (unsigned i = 0; i < l->np; i++)
        if (i != p)
            free &= ~l->piece[i];
    unsigned n = 0, head = 0;
    uint64_t q[BLK_CELLS + 1];
    q[0] = m;
    seen = (uint64_t)1 << low(m);
    for (unsigned nq = 1; head < nq; head++) {
        uint64_t at = q[head];
        uint64_t nb[4] = { at << 1, at >> 1, at << b->pw, at >> b->pw };
        for (unsigned dir = 0; dir < 4; dir++) {
            uint64_t t = nb[dir];
            while (!(t & ~free)) {   /* (a shift never leaves the bits:
                                          the spare rows) */
                if (!(seen >> low(t) & 1)) {
                    seen |= (uint64_t)1 << low(t);
                    to[n++] = t;
                    if (b->metric == SL_MOVE)
                        q[nq++] = t;
                }
                if (b->metric != SL_LINE)
                    break;
                t = dir == 0 ? t << 1 : dir == 1 ? t >> 1
                  : dir == 2 ? t << b->pw : t >> b->pw;
            }
        }
    }
    return n;
}

/* ---- the set of a search's layouts ----------------------------------- */

static uint64_t key_hash(const bkey *k)
{
    uint64_t h = (k->lo ^ k->hi * 0xff51afd7ed558ccdu) * 0x9e3779b97f4a7c15u;
    return h ^ h >> 31;
}

static void bset_free(bset *s)
{
    free(s->key);
    free(s->dist);
    free(s->flag);
    free(s->slot);
    free(s->edge);
    free(s->off);
    memset(s, 0, sizeof *s);
}

static int bset_grow(bset *s)
{
    uint64_t cap = s->cap ? 2 * s->cap : 4096;
    bkey *key = realloc(s->key, cap * sizeof *key);
    if (key)
        s->key = key;
    uint16_t *dist = realloc(s->dist, cap * sizeof *dist);
    if (dist)
        s->dist = dist;
    uint8_t *flag = realloc(s->flag, cap);
    if (flag)
        s->flag = flag;
    uint64_t *off = realloc(s->off, (cap + 1) * sizeof *off);
    if (off)
        s->off = off;
    free(s->slot);
    s->slot = calloc(2 * cap, sizeof *s->slot);
    if (!key || !dist || !flag || !off || !s->slot || cap >> 31)
        return PTB_ENOMEM;
    s->cap = cap;
    s->mask = 2 * cap - 1;
    for (uint64_t m = 0; m < s->size; m++) {
        uint64_t h = key_hash(&s->key[m]) & s->mask;
        while (s->slot[h])
            h = (h + 1) & s->mask;
        s->slot[h] = (uint32_t)m + 1;
    }
    return PTB_OK;
}

/* The number of k in s (*added when new), or UINT32_MAX: no memory. */
static uint32_t bset_find(bset *s, const bkey *k, int *added)
{
    uint64_t h = key_hash(k) & s->mask;
    *added = 0;
    if (s->cap)
        for (; s->slot[h]; h = (h + 1) & s->mask) {
            const bkey *o = &s->key[s->slot[h] - 1];
            if (o->lo == k->lo && o->hi == k->hi)
                return s->slot[h] - 1;
        }
    if (s->size == s->cap) {
        if (bset_grow(s) != PTB_OK)
            return UINT32_MAX;
        h = key_hash(k) & s->mask;
        while (s->slot[h])
            h = (h + 1) & s->mask;
    }
    s->key[s->size] = *k;
    s->dist[s->size] = BLK_FAR;
    s->slot[h] = (uint32_t)s->size + 1;
    *added = 1;
    return (uint32_t)s->size++;
}

static int bset_has(const bset *s, const bkey *k)
{
    if (!s->cap)
        return 0;
    for (uint64_t h = key_hash(k) & s->mask; s->slot[h];
         h = (h + 1) & s->mask) {
        const bkey *o = &s->key[s->slot[h] - 1];
        if (o->lo == k->lo && o->hi == k->hi)
            return 1;
    }
    return 0;
}

/* s emptied: the slots of its layouts found again and freed, or (when
 * they fill more than an eighth of the slots) all cleared at once. */
static void bset_clear(bset *s)
{
    if (s->size > s->cap / 4)
        memset(s->slot, 0, 2 * s->cap * sizeof *s->slot);
    else
        for (uint64_t m = 0; m < s->size; m++) {
            uint64_t h = key_hash(&s->key[m]) & s->mask;
            while (s->slot[h] != m + 1)   /* (never stops at a slot freed
                                             before: it is further on) */
                h = (h + 1) & s->mask;
            s->slot[h] = 0;
        }
    s->size = 0;
    s->nedge = 0;
}

/* ---- a component ----------------------------------------------------- */

/* Whether the goal piece can move a cell up or left (a "justsolved"
 * goal). */
static int can_leave(const blk *b, const lay *l)
{
    uint64_t free = b->board, g = l->piece[l->goal];
    for (unsigned i = 0; i < l->np; i++)
        if (i != l->goal)
            free &= ~l->piece[i];
    return !((g >> 1) & ~free) || !((g >> b->pw) & ~free);
}

/* The numbers of the layouts one move from layout l (lay_of()'s) into
 * out[] (*nout of them), the new ones added to s; PTB_ENOMEM. */
static int expand(const blk *b, bset *s, const lay *l, uint32_t *out,
                  unsigned *nout)
{
    uint64_t to[64];
    *nout = 0;
    for (unsigned p = 0; p < l->np; p++) {
        unsigned n = dests(b, l, p, to);
        for (unsigned i = 0; i < n; i++) {
            int added;
            bkey nk = key_moved(b, l, p, to[i]);
            uint32_t id = bset_find(s, &nk, &added);
            if (id == UINT32_MAX)
                return PTB_ENOMEM;
            out[(*nout)++] = id;
        }
    }
    return PTB_OK;
}

/* The moves out of layout m (out[], *nout of them) kept as its edges. */
static int add_edges(bset *s, uint64_t m, const uint32_t *out, unsigned nout)
{
    void *e = s->edge;
    if (ptb_room(&e, &s->capedge, s->nedge + nout, sizeof *s->edge, 4096))
        return PTB_ENOMEM;
    s->edge = e;
    s->off[m] = s->nedge;
    memcpy(s->edge + s->nedge, out, nout * sizeof *out);
    s->nedge += nout;
    return PTB_OK;
}

/* The component of goal layout k into s (numbered in the order found,
 * with its moves and which layouts are goals and starts), its goals the
 * goal piece can leave added to seen; *starts whether it has a start. */
static int find_component(const blk *b, const bkey *k, bset *s, bset *seen,
                          int *starts)
{
    uint32_t out[BLK_CELLS * 64];
    unsigned nout;
    int added, rc = PTB_OK;
    bset_clear(s);
    *starts = 0;
    if (bset_find(s, k, &added) == UINT32_MAX)
        rc = PTB_ENOMEM;
    for (uint64_t m = 0; rc == PTB_OK && m < s->size; m++) {
        lay l;
        bkey mk = s->key[m];
        lay_of(b, &mk, &l);
        s->flag[m] = (uint8_t)((is_goal(b, &l) ? IS_GOAL : 0) |
                               (is_start(b, &l) ? IS_START : 0));
        *starts |= s->flag[m] & IS_START;
        if (s->flag[m] & IS_GOAL && can_leave(b, &l) &&
            bset_find(seen, &mk, &added) == UINT32_MAX)
            rc = PTB_ENOMEM;
        if (rc == PTB_OK && (rc = expand(b, s, &l, out, &nout))
            == PTB_OK)
            rc = add_edges(s, m, out, nout);
    }
    if (rc == PTB_OK)
        s->off[s->size] = s->nedge;
    return rc;
}

/* The distances of s's layouts from its goals, over its moves; the
 * farthest start into *far (UINT32_MAX when none), the least board of
 * those as far. */
static int distances(const blk *b, bset *s, uint32_t *far, char *err,
                     size_t errcap)
{
    uint32_t *queue = malloc(s->size * sizeof *queue);
    uint64_t head = 0, tail = 0;
    char best[BLK_CELLS + 1], cur[BLK_CELLS + 1];
    if (!queue)
        return PTB_ENOMEM;
    for (uint64_t m = 0; m < s->size; m++) {
        s->dist[m] = s->flag[m] & IS_GOAL ? 0 : BLK_FAR;
        if (!s->dist[m])
            queue[tail++] = (uint32_t)m;
    }
    *far = UINT32_MAX;
    while (head < tail) {
        uint32_t m = queue[head++];
        if (s->flag[m] & IS_START) {
            draw(b, &s->key[m], cur);
            if (*far == UINT32_MAX || s->dist[m] > s->dist[*far] ||
                strcmp(cur, best) < 0) {   /* (never nearer: in order) */
                *far = m;
                memcpy(best, cur, sizeof cur);
            }
        }
        for (uint64_t e = s->off[m]; e < s->off[m + 1]; e++) {
            uint32_t t = s->edge[e];
            if (s->dist[t] != BLK_FAR)
                continue;
            if (s->dist[m] + 1 > LEVEL_MOVES_MAX_BLK) {
                free(queue);
                return ptb_errf(err, errcap, "family blocks: a layout "
                                "more than %u moves from the goals",
                                LEVEL_MOVES_MAX_BLK);
            }
            s->dist[t] = (uint16_t)(s->dist[m] + 1);
            queue[tail++] = t;
        }
    }
    free(queue);
    return PTB_OK;
}

/* ---- the family ------------------------------------------------------ */

/* Component s as a kept puzzle (its farthest start far, when a move or
 * more from the goals) into fam. */
static int keep(const blk *b, const bset *s, uint32_t far, ptb_family *fam)
{
    unsigned moves = s->dist[far];
    if (!moves)
        return PTB_OK;
    void *lv = fam->level;
    if (ptb_room(&lv, &fam->cap, fam->n + 1, sizeof *fam->level, 256))
        return PTB_ENOMEM;
    fam->level = lv;
    fam_level *l = &fam->level[fam->n];
    if (!(l->hist = calloc(moves + 1, sizeof *l->hist)))
        return PTB_ENOMEM;
    for (uint64_t m = 0; m < s->size; m++)
        l->hist[s->dist[m] < moves ? s->dist[m] : moves]++;
    l->moves = moves;
    l->states = s->size;
    draw(b, &s->key[far], l->board);
    fam->n++;
    return PTB_OK;
}

/* ---- the tasks ------------------------------------------------------ */

/* A task: the goal layouts of one goal piece's place (covering the
 * bottom right cell) and one piece count.  Both hold for a component (a
 * piece keeps its shape, and the goal piece's place in a goal layout is
 * its shape's), so the tasks' searches meet nothing of each other's, and
 * each keeps its own set of the goals met.  Tasks are numbered by place
 * (in the order of b->place), then by piece count (from 1 to the cells
 * the goal piece leaves); a place's tasks are counted together. */
typedef struct btask {
    uint32_t place;
    unsigned pieces;
} btask;

/* A thread's share: its sets, its count or search, its puzzles. */
typedef struct walk {
    const blk *b;
    unsigned pieces;             /* the task's piece count; 0: every count
                                    (the count of a place's goal layouts) */
    uint64_t *tally;             /* (count) of each piece count, the goal
                                    layouts the goal piece can leave */
    uint64_t goals;              /* (count) goal layouts, all */
    bset comp, seen;
    ptb_family kept;
    int rc;
    char err[256];
} walk;

/* The work the threads share: the tasks, the places counted, the
 * progress and the checkpoint (t: its weights the goal layouts the goal
 * piece can leave). */
typedef struct job {
    const blk *b;
    btask *task;
    uint32_t *corner, *first;    /* of each place with a goal: its index in
                                    b->place, its first task */
    unsigned ncorner, next, taken;   /* (atomic) */
    int known;                   /* t's weights counted or read */
    walk *w;
    fam_tasks t;
} job;

/* A goal layout listed: its component searched unless met before. */
static int goal_layout(walk *w, const lay *l)
{
    const blk *b = w->b;
    int starts;
    uint32_t far;
    if (!can_leave(b, l))
        return PTB_OK;
    bkey k = key_of(b, l);
    if (bset_has(&w->seen, &k))
        return PTB_OK;
    int rc = find_component(b, &k, &w->comp, &w->seen, &starts);
    if (rc != PTB_OK || !starts)
        return rc;
    if ((rc = distances(b, &w->comp, &far, w->err, sizeof w->err))
        != PTB_OK)
        return rc;
    return far == UINT32_MAX ? PTB_OK : keep(b, &w->comp, far, &w->kept);
}

/* Every layout from cell c on (cells before it decided: used) with the
 * goal piece placed (piece 0) and the walk's piece count (any when 0):
 * the goal layouts searched, or counted. */
static int fill(walk *w, lay *l, unsigned c, uint64_t used, unsigned empty)
{
    const blk *b = w->b;
    while (c < b->n && used >> b->bit[c] & 1)
        c++;
    if (w->pieces && (l->np > w->pieces ||
                      l->np + __builtin_popcountll(b->board & ~used) <
                      w->pieces))
        return PTB_OK;
    if (c == b->n) {
        if (!empty || (w->pieces && l->np != w->pieces))
            return PTB_OK;
        if (w->pieces)
            return goal_layout(w, l);
        w->goals++;
        w->tally[l->np] += (uint64_t)can_leave(b, l);
        return PTB_OK;
    }
    int rc = fill(w, l, c + 1, used | (uint64_t)1 << b->bit[c], empty + 1);
    for (uint32_t i = b->first[c]; rc == PTB_OK && i < b->first[c + 1];
         i++) {
        uint64_t pl = b->place[i];
        if (pl & used)
            continue;
        l->piece[l->np++] = pl;
        rc = fill(w, l, c + 1, used | pl, empty);
        l->np--;
    }
    return rc;
}

/* The layouts of place p as the goal piece (p a goal piece's place) and
 * of w->pieces pieces (any when 0). */
static int fill_goal(walk *w, uint64_t p)
{
    lay l;
    memset(&l, 0, sizeof l);
    l.np = 1;
    l.piece[0] = p;
    l.goal = 0;
    return fill(w, &l, 0, p, 0);
}

/* A thread of the count: the places with a goal taken one at a time,
 * each one's tasks' weights set. */
static void *count_thread(void *arg)
{
    job *j = arg;
    walk *w = &j->w[__atomic_fetch_add(&j->taken, 1, __ATOMIC_RELAXED)];
    uint64_t tally[BLK_CELLS + 1];
    w->tally = tally;
    for (;;) {
        unsigned k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (k >= j->ncorner || w->rc != PTB_OK)
            return NULL;
        uint64_t p = j->b->place[j->corner[k]];
        unsigned ntask = j->b->n - (unsigned)__builtin_popcountll(p);
        memset(tally, 0, sizeof tally);
        w->rc = fill_goal(w, p);
        for (unsigned c = 1; c <= ntask; c++)
            j->t.weight[j->first[k] + c - 1] = tally[c];
    }
}

/* A thread of the search: tasks taken one at a time (those with no goal
 * the goal piece can leave, once counted, skipped), searched, and each
 * one's puzzles handed to the checkpoint (or to the process that shares
 * the tasks out). */
static void *search_thread(void *arg)
{
    job *j = arg;
    walk *w = &j->w[__atomic_fetch_add(&j->taken, 1, __ATOMIC_RELAXED)];
    unsigned i;
    int more = 0;
    while (w->rc == PTB_OK && (more = fam_tasks_next(&j->t, &i)) > 0) {
        if (j->known && !j->t.weight[i]) {
            w->rc = fam_tasks_skip(&j->t, i);
            continue;
        }
        size_t first = w->kept.n;
        w->pieces = j->task[i].pieces;
        w->rc = fill_goal(w, j->b->place[j->task[i].place]);
        bset_free(&w->seen);
        if (w->rc == PTB_OK)
            w->rc = fam_tasks_end(&j->t, i, w->kept.level + first,
                                  w->kept.n - first);
    }
    if (w->rc == PTB_OK && more < 0)
        w->rc = more;
    return NULL;
}

/* The tasks of b into j (j->t opened with their number). */
static int make_tasks(const blk *b, job *j, unsigned *ntask)
{
    unsigned n = 0, nc = 0;
    for (uint32_t i = 0; i < b->first[b->n]; i++)
        if (b->place[i] >> b->corner & 1) {
            nc++;
            n += b->n - (unsigned)__builtin_popcountll(b->place[i]);
        }
    if (!(j->task = malloc((n ? n : 1) * sizeof *j->task)) ||
        !(j->corner = malloc((nc ? nc : 1) * sizeof *j->corner)) ||
        !(j->first = malloc((nc ? nc : 1) * sizeof *j->first)))
        return PTB_ENOMEM;
    n = 0;
    for (uint32_t i = 0; i < b->first[b->n]; i++)
        if (b->place[i] >> b->corner & 1) {
            unsigned most = b->n - (unsigned)__builtin_popcountll(b->place[i]);
            j->corner[j->ncorner] = i;
            j->first[j->ncorner++] = n;
            for (unsigned c = 1; c <= most; c++)
                j->task[n++] = (btask){ i, c };
        }
    *ntask = n;
    return PTB_OK;
}

/* The bytes of a set of n layouts (bset_grow()'s capacity). */
static uint64_t set_bytes(uint64_t n)
{
    uint64_t cap = 4096;
    while (cap <= n)
        cap *= 2;
    return cap * (sizeof(bkey) + sizeof(uint16_t) + 1 + sizeof(uint64_t) +
                  2 * sizeof(uint32_t));
}

/* A task and its weight, to order them. */
typedef struct weighed {
    uint64_t weight;
    unsigned task;
} weighed;

/* Heaviest first, then by number. */
static int by_weight(const void *x, const void *y)
{
    const weighed *a = x, *b = y;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return a->task < b->task ? -1 : a->task > b->task;
}

/* The plan's counts from the weights: pl->goals those the goal piece can
 * leave, the largest task's, the tasks with some, those of the sample;
 * the memory the sets of the 'threads' largest tasks' goals. */
static void plan_counts(const job *j, unsigned threads, unsigned every,
                        ptb_family_counts *pl)
{
    const fam_tasks *t = &j->t;
    uint64_t top[256] = { 0 };
    pl->blocks = 1;
    pl->tasks = t->ntask;
    for (unsigned i = 0; i < t->ntask; i++) {
        uint64_t g = t->weight[t->order[i]];
        pl->goals += g;
        pl->configs += g > 0;
        if (every > 1 && i % every == every / 2)
            pl->sampled += g;
        for (unsigned k = 0; k < threads; k++)
            if (g > top[k]) {
                memmove(top + k + 1, top + k,
                        (threads - k - 1) * sizeof *top);
                top[k] = g;
                break;
            }
    }
    pl->largest = top[0];
    for (unsigned k = 0; k < threads; k++)
        pl->memory += top[k] ? set_bytes(top[k]) : 0;
}

/* The count of every place's goal layouts, on 'threads' threads: the
 * tasks' weights, the order heaviest first, the progress's total. */
static int count_pass(job *j, unsigned threads, ptb_family_counts *pl)
{
    int rc = PTB_OK;
    j->next = j->taken = 0;
    ptb_run_threads(count_thread, j, threads);
    for (unsigned k = 0; k < threads; k++) {
        rc = rc != PTB_OK ? rc : j->w[k].rc;
        if (pl)
            pl->numbers += j->w[k].goals;
    }
    if (rc != PTB_OK)
        return rc;
    fam_tasks_counted(&j->t);
    return PTB_OK;
}

/* The order of the search: the heaviest tasks first, so that the threads
 * end together. */
static int order_tasks(job *j)
{
    unsigned n = j->t.ntask;
    weighed *wd = malloc((n ? n : 1) * sizeof *wd);
    unsigned *order = malloc((n ? n : 1) * sizeof *order);
    if (!wd || !order) {
        free(wd);
        free(order);
        return PTB_ENOMEM;
    }
    for (unsigned i = 0; i < n; i++)
        wd[i] = (weighed){ j->t.weight[i], i };
    qsort(wd, n, sizeof *wd, by_weight);
    for (unsigned i = 0; i < n; i++)
        order[i] = wd[i].task;
    free(wd);
    j->t.order = order;
    return PTB_OK;
}

/* The search of the tasks not done, on 'threads' threads, the puzzles
 * into fam. */
static int search_pass(job *j, unsigned threads, ptb_family *fam,
                       char *err, size_t errcap)
{
    int rc = PTB_OK;
    j->taken = 0;
    ptb_run_threads(search_thread, j, threads);
    for (unsigned k = 0; k < threads; k++) {
        walk *w = &j->w[k];
        if (rc == PTB_OK && w->rc != PTB_OK) {
            rc = w->rc;
            if (w->err[0])
                ptb_errf(err, errcap, "%s", w->err);
        }
        if (rc == PTB_OK)
            rc = fam_gather(fam, &w->kept);
    }
    return rc;
}

int fam_blocks(const sl_desc *d, unsigned most, const char *text,
               const ptb_family_opts *fo, ptb_family *fam,
               ptb_family_counts *pl, char *err, size_t errcap)
{
    blk b;
    job j;
    unsigned ntask = 0, every = fo->every;
    unsigned threads = fo->threads < 1 ? 1 : fo->threads > 256 ? 256
                                                              : fo->threads;
    memset(&j, 0, sizeof j);
    int rc = blk_init(&b, d, most, err, errcap);
    if (rc != PTB_OK)
        return rc;
    j.b = &b;
    rc = make_tasks(&b, &j, &ntask);
    if (rc == PTB_OK && !(j.w = calloc(threads, sizeof *j.w)))
        rc = PTB_ENOMEM;
    for (unsigned k = 0; rc == PTB_OK && k < threads; k++)
        j.w[k].b = &b;
    int trc = fam_tasks_open(&j.t, fo, text, ntask, pl || rc != PTB_OK, 1,
                             "goals", err, errcap);
    rc = rc != PTB_OK ? rc : trc;
    /* The weights order the search (and a sample: one task in 'every' of
     * that order, heavy and light alike) and leave out the tasks with
     * nothing to search from: counted unless read. */
    j.known = j.t.counted;
    if (rc == PTB_OK && !j.known) {
        rc = count_pass(&j, threads, pl);
        j.known = rc == PTB_OK;
    }
    if (rc == PTB_OK)
        rc = order_tasks(&j);
    if (rc == PTB_OK && pl)
        plan_counts(&j, threads, every, pl);
    if (rc == PTB_OK && !pl)
        rc = search_pass(&j, threads, fam, err, errcap);
    rc = fam_tasks_close(&j.t, rc, pl ? NULL : fam);
    for (unsigned k = 0; j.w && k < threads; k++) {
        bset_free(&j.w[k].comp);
        bset_free(&j.w[k].seen);
        for (size_t i = 0; i < j.w[k].kept.n; i++)
            free(j.w[k].kept.level[i].hist);
        free(j.w[k].kept.level);
    }
    free(j.w);
    free(j.task);
    free(j.corner);
    free(j.first);
    free(b.place);
    return rc;
}

/* ---- a level played -------------------------------------------------- */

/* A level of a blocks family as a description of its own: its board the
 * start (the letters as drawn: every piece its own, 'A' distinct), its
 * goal 'A' in the bottom right corner, the family's name and metric. */
int ptb_family_level_puzzle(const char *family, const char *board,
                            ptb_puzzle **p)
{
    fam_opts o;
    char *desc, text[1024], err[256];
    sl_desc *d, *ld;
    size_t len = 0;
    *p = NULL;
    int rc = fam_split_family(family, &o, &desc, NULL, 0);
    if (rc != PTB_OK)
        return rc == PTB_ENOMEM ? rc : PTB_EFORMAT;
    if (!o.blocks) {
        free(desc);
        return PTB_EINVAL;
    }
    rc = sl_read(desc, NULL, &d, NULL, 0);
    free(desc);
    if (rc != PTB_OK)
        return rc == PTB_ENOMEM ? rc : PTB_EFORMAT;
    unsigned w = d->w, h = d->h, maxx = 0, maxy = 0;
    ptb_catf(text, sizeof text, &len, "name %s\nmetrics %s\ndistinct A\n"
             "start\n", d->name, d->metric_name[0]);
    for (unsigned c = 0; c < w * h; c++) {
        ptb_catf(text, sizeof text, &len, "%c%s", board[c],
                 c % w == w - 1 ? "\n" : "");
        if (board[c] == 'A') {
            maxx = c % w > maxx ? c % w : maxx;
            maxy = c / w > maxy ? c / w : maxy;
        }
    }
    ptb_catf(text, sizeof text, &len, "\ngoal ");
    for (unsigned c = 0; c < w * h; c++) {   /* A moved to the corner */
        unsigned x = c % w, y = c / w, dx = w - 1 - maxx, dy = h - 1 - maxy;
        int in = x >= dx && y >= dy &&
                 board[(y - dy) * w + (x - dx)] == 'A';
        ptb_catf(text, sizeof text, &len, "%c%s", in ? 'A' : '?',
                 x == w - 1 && y < h - 1 ? "/" : "");
    }
    ptb_catf(text, sizeof text, &len, "\n");
    sl_free(d);
    if ((rc = sl_read(text, NULL, &ld, err, sizeof err)) != PTB_OK)
        return rc == PTB_ENOMEM ? rc : PTB_ECORRUPT;
    if ((rc = sl_puzzle(ld, p)) != PTB_OK)
        sl_free(ld);
    return rc;
}
