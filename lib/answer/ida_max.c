/* lib/answer/ida_max.c: optimal answers past a full table for any
 * described puzzle, by IDA* guided by its abstractions' tables combined by
 * maximum (ptb_patterns_solve() of a description with 'abstraction'
 * lines; lib/puzzles/abstract.h for what an abstraction is and why its
 * distance is a lower bound).
 *
 * The search moves the engine's boards (layouts) by the engine's moves,
 * never ranking a board in the puzzle's own space, and keeps for each
 * abstraction the exact distance of the board's image.  A move reads
 * each abstraction's stored value of the new image and takes the one of
 * the old distance -1, 0 or +1 that it is (exact tables), or that has its
 * residue (mod-3 tables: A. Breyer and R. E. Korf, 1.6-bit pattern
 * databases, AAAI 2010), or keeps the old one when the abstraction leaves
 * the moving piece out; the images of neighbours are neighbours or the
 * same, so no other value can be right, and a table that says otherwise
 * is reported damaged.  The start's distances are walked down each table
 * (ptb_distance()).  The bound is their largest (each is a lower bound,
 * so their maximum is: the abstractions need not be disjoint).  A move
 * that merely undoes the one before, or that the one before and it make
 * in one move (the same piece again in the move metric, or again along
 * the same line in the line metric), is never on a shortest line, and is
 * not tried.  Moves come in the engine's fixed order, so on one thread the
 * answer is the same every time; threads (ptb_bound_threads()) share the
 * boards they meet and find a line as short, which one depending on their
 * pace (met()).  The line is replayed through the puzzle's own moves into
 * the same ptb_solution as a table's (ptb_replay()).
 *
 * May touch: its arguments, the heap, the tables (read only) and the
 * clock.  No I/O of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "core/core.h"
#include "puzzles/abstract.h"

#define FOUND PTB_FOUND
#define SEEN_BITS 18             /* boards the search remembers in a
                                    bound: 2^18, n + 2 bytes each */
#define SEEN_PROBES 4
#define PROVE_MAX ((uint64_t)1 << 17)   /* states of a table proven when it
                                           opens: 0.1 s at most */

struct ptb_abstractions {
    const ptb_space *s;
    const sl_desc *d;
    unsigned metric;                     /* SL_STEP, SL_LINE or SL_MOVE */
    unsigned n;                          /* abstractions */
    uint8_t map[SL_MAX_PATTERNS][SL_MAX_KINDS];   /* sl_kind_map() */
    unsigned modulus[SL_MAX_PATTERNS];   /* of each table: 0, 3 or 4 */
    ptb_puzzle *puzzle[SL_MAX_PATTERNS];
    ptb_space *space[SL_MAX_PATTERNS];
    ptb_table *table[SL_MAX_PATTERNS];
};

/* A depth of the search: the boards of its moves, their codes and each
 * abstraction's distance of each; the one taken. */
typedef struct level {
    unsigned char *board;
    uint32_t *code;
    unsigned n, taken;
} level;

/* A candidate's start: its board and distances. */
typedef struct start {
    unsigned char *board;
    unsigned h[SL_MAX_PATTERNS];
    unsigned f;                          /* its bound, or UINT32_MAX */
} start;

/* The boards met in a bound, each with the least depth it was met at
 * (0xFFFF: a free slot): a board met again no shallower is not searched
 * again (met()).  A cache: a board that finds no slot is searched.  The
 * threads share it, a slot locked while read or written. */
typedef struct seen {
    unsigned char *board;                /* d->n bytes a slot */
    uint16_t *depth;
    uint8_t *lock;
} seen;

/* One search. */
typedef struct mx {
    const ptb_abstractions *a;
    const struct mx *root;               /* a thread's: the search it
                                            shares a bound of */
    const start *from;                   /* the start searched */
    ptb_reader *r[SL_MAX_PATTERNS];
    size_t bsize;
    level *lv;                           /* made as the search goes deeper */
    unsigned nlv;
    unsigned char *root_boards;          /* the candidates' boards */
    unsigned char *scratch;              /* a board replayed */
    unsigned len;                        /* the line found */
    ptb_limits lim;
    int rc;
    seen *seen;                          /* the root's, shared */
} mx;

void ptb_abstractions_close(ptb_abstractions *a)
{
    if (!a)
        return;
    for (unsigned g = 0; g < SL_MAX_PATTERNS; g++) {
        ptb_table_close(a->table[g]);
        ptb_space_close(a->space[g]);
        ptb_puzzle_free(a->puzzle[g]);
    }
    free(a);
}

/* A small abstraction's table t (of space s), proven as --verify proves
 * it (every value against its neighbours) before the search trusts it: a
 * crafted table whose checksums hold but whose values are too high would
 * make a bound too high, and an answer too long.  A bigger one (past
 * PROVE_MAX states: seconds to prove) is checked as any table is read,
 * block by block (RELIABILITY.md).  PTB_OK, PTB_ECORRUPT, PTB_ENOMEM. */
static int prove(const ptb_space *s, const ptb_table *t)
{
    ptb_verify_result res;
    if (s->offset[s->subtables] > PROVE_MAX)
        return PTB_OK;
    return ptb_verify(t, 1, &res);
}

int ptb_abstractions_open(const ptb_space *s, const char *dir,
                          ptb_abstractions **out)
{
    const ptb_puzzle *p = ptb_space_puzzle(s);
    const sl_desc *d = p->data;
    *out = NULL;
    ptb_abstractions *a = calloc(1, sizeof *a);
    if (!a)
        return PTB_ENOMEM;
    a->s = s;
    a->d = d;
    a->metric = d->metric[s->metric];
    a->n = ptb_puzzle_patterns(p);
    int rc = PTB_OK;
    for (unsigned g = 0; rc == PTB_OK && g < a->n; g++) {
        if ((rc = ptb_puzzle_pattern(p, g, &a->puzzle[g])) != PTB_OK ||
            (rc = ptb_space_new(a->puzzle[g], ptb_space_metric(s),
                                &a->space[g])) != PTB_OK ||
            (rc = ptb_table_open(a->space[g], dir, &a->table[g])) != PTB_OK ||
            (rc = prove(a->space[g], a->table[g])) != PTB_OK)
            break;
        a->modulus[g] = ptb_table_modulus(a->table[g]);
        sl_kind_map(d, g, a->puzzle[g]->data, a->map[g]);
    }
    if (rc != PTB_OK) {
        ptb_abstractions_close(a);
        return rc;
    }
    *out = a;
    return PTB_OK;
}

/* The largest of the distances h[0..n). */
static unsigned largest(const unsigned *h, unsigned n)
{
    unsigned m = 0;
    for (unsigned g = 0; g < n; g++)
        m = h[g] > m ? h[g] : m;
    return m;
}

/* Each abstraction's exact distance of the image of position p (board
 * b), walked down its table from the image drawn, into h[].  PTB_NOTFOUND
 * when an image cannot reach its goal (nor then the board). */
static int start_distances(mx *x, const ptb_position *p, const void *b,
                           unsigned *h)
{
    const ptb_abstractions *a = x->a;
    const sl_desc *d = a->d;
    for (unsigned g = 0; g < a->n; g++) {
        unsigned char cell[SL_MAX_CELLS];
        char text[SL_MAX_CELLS + 1], err[160];
        ptb_position q[2];
        unsigned nq, i;
        memcpy(cell, p->cell, d->n);
        sl_board_erase(a->s, a->map[g], b, cell);
        for (i = 0; i < d->n; i++)
            text[i] = cell[i] == (unsigned char)p->aux ? '.' : (char)cell[i];
        text[i] = '\0';
        int rc = ptb_parse(a->space[g], text, NULL, q, &nq, err, sizeof err);
        if (rc == PTB_OK && q[0].idx != sl_board_image(a->space[g],
                                                       a->map[g], b))
            rc = PTB_ECORRUPT;            /* (never: one ranking) */
        if (rc == PTB_OK)
            rc = ptb_distance(a->table[g], x->r[g], &q[0], &h[g]);
        if (rc != PTB_OK)
            return rc == PTB_EPARSE ? PTB_EINVAL : rc;
    }
    return PTB_OK;
}

/* Each abstraction's distance of board b's image into h[], from the
 * distances old[] of a neighbour's (ptb_next_distance()), b made by a
 * move of a piece of kind k: an abstraction that leaves k out keeps its
 * image, and its distance, unread.  PTB_OK;
 * PTB_NOTFOUND when an image cannot reach its goal (an exact table's
 * PTB_UNSOLVABLE); a table's error, or PTB_ECORRUPT when a value is none
 * of the three. */
static int distances(mx *x, const void *b, unsigned k, const unsigned *old,
                     unsigned *h)
{
    const ptb_abstractions *a = x->a;
    for (unsigned g = 0; g < a->n; g++) {
        unsigned v;
        if (!a->map[g][k]) {
            h[g] = old[g];
            continue;
        }
        uint64_t idx = sl_board_image(a->space[g], a->map[g], b);
        int rc = ptb_table_get(a->table[g], x->r[g], 0, idx, &v);
        if (rc != PTB_OK)
            return rc;
        if (!a->modulus[g] && v == PTB_UNSOLVABLE)
            return PTB_NOTFOUND;
        if ((h[g] = ptb_next_distance(old[g], v, a->modulus[g])) ==
            PTB_UNSOLVABLE)
            return PTB_ECORRUPT;
    }
    return PTB_OK;
}

/* Whether the move 'code' after the move 'last' (0: none) is one no
 * shortest line makes: the same piece back where it was, or again when
 * the two make one move (module header). */
static int needless(const mx *x, uint32_t last, uint32_t code)
{
    unsigned a = last & 0xFF, b = last >> 8 & 0xFF;
    unsigned from = code & 0xFF, to = code >> 8 & 0xFF, w = x->a->d->w;
    if (!last || from != b)
        return 0;                        /* (another piece) */
    if (to == a || x->a->metric == SL_MOVE)
        return 1;
    return x->a->metric == SL_LINE &&
           ((a / w == b / w && b / w == to / w) ||
            (a % w == b % w && b % w == to % w));
}

/* Whether board b at depth 'depth' was met before in this bound at a depth
 * no greater: then all that lies below it within the bound is searched
 * from there (a move that this search leaves out as needless there, after
 * the move that led to it, leads to a board one move nearer the start, so
 * searched too), and it is not searched again: the transpositions of a
 * puzzle whose pieces move independently would cost a search exponentially
 * many repetitions.  On several threads the search from there may be
 * another thread's, still under way: it finds any line that passes there
 * (or a line is found elsewhere first), so a shortest line is found still,
 * though which one depends on the threads' pace.  A board on the way to a
 * front node is met as 'mine' (follow()): the same board met there at the
 * same depth is on the way to other nodes too, each searched on its own.
 * Else remembers it. */
static int met_as(mx *x, const void *b, unsigned depth, int mine)
{
    const unsigned char *at = b;         /* (a layout begins with at[]) */
    seen *sn = x->seen;
    unsigned n = x->a->d->n;
    uint64_t h = 0xcbf29ce484222325u;
    for (unsigned i = 0; i < n; i++)
        h = (h ^ at[i]) * 0x100000001b3u;
    size_t mask = ((size_t)1 << SEEN_BITS) - 1, slot = (size_t)(h >> 20);
    for (unsigned i = 0; i < SEEN_PROBES; i++) {
        size_t j = (slot + i) & mask;
        int free, same, prune = 0;
        while (__atomic_exchange_n(&sn->lock[j], 1, __ATOMIC_ACQUIRE))
            ;
        free = sn->depth[j] == 0xFFFF;
        same = !free && !memcmp(sn->board + j * n, at, n);
        if (same)
            prune = sn->depth[j] < depth || (sn->depth[j] == depth && !mine);
        if (free || (same && !prune)) {
            memcpy(sn->board + j * n, at, n);
            sn->depth[j] = (uint16_t)depth;
        }
        __atomic_store_n(&sn->lock[j], 0, __ATOMIC_RELEASE);
        if (free || same)
            return prune;
    }
    return 0;
}

static int met(mx *x, const void *b, unsigned depth)
{
    return met_as(x, b, depth, 0);
}

/* The cache emptied, for a new bound. */
static void forget(seen *sn)
{
    memset(sn->depth, 0xFF, sizeof *sn->depth << SEEN_BITS);
}

/* Depth i's level, made when first needed: PTB_ENOMEM if it cannot be. */
static int level_at(mx *x, unsigned i)
{
    if (i < x->nlv)
        return PTB_OK;
    unsigned most = ptb_space_max_moves(x->a->s);
    level *more = realloc(x->lv, (i + 1) * sizeof *more);
    if (!more)
        return PTB_ENOMEM;
    x->lv = more;
    level *l = &x->lv[i];
    memset(l, 0, sizeof *l);
    x->nlv = i + 1;
    l->board = malloc(most * x->bsize);
    l->code = malloc(most * sizeof *l->code);
    return l->board && l->code ? PTB_OK : PTB_ENOMEM;
}

/* The search below board b at depth 'depth', h its distances: FOUND (the
 * levels' taken moves hold the line; or an error or a limit in x->rc), or
 * the least depth + bound past 'limit' that it met. */
static unsigned dfs(mx *x, const void *b, unsigned depth, unsigned limit,
                    const unsigned *h, uint32_t last)
{
    unsigned f = depth + largest(h, x->a->n);
    if (f > limit)
        return f;
    if (f == depth && sl_board_is_goal(x->a->s, b)) {
        x->len = depth;
        return FOUND;
    }
    if ((x->rc = ptb_limits_reached(&x->lim)) != PTB_OK ||
        (x->rc = level_at(x, depth)) != PTB_OK)
        return FOUND;
    if (depth >= PTB_MAX_DISTANCE || met(x, b, depth))
        return UINT32_MAX - 1;
    level *l = &x->lv[depth];
    unsigned best = UINT32_MAX - 1, nh[SL_MAX_PATTERNS];
    l->n = sl_board_moves(x->a->s, b, l->board, l->code);
    for (unsigned j = 0; j < x->lv[depth].n; j++) {
        const unsigned char *next = x->lv[depth].board + j * x->bsize;
        uint32_t code = x->lv[depth].code[j];
        if (needless(x, last, code))
            continue;
        unsigned k = sl_board_kind((const sl_board *)next, code >> 8 & 0xFF);
        int rc = distances(x, next, k, h, nh);
        if (rc == PTB_NOTFOUND)
            continue;
        if (rc != PTB_OK) {
            x->rc = rc;
            return FOUND;
        }
        unsigned got = dfs(x, next, depth + 1, limit, nh, code);
        if (got == FOUND) {
            x->lv[depth].taken = j;
            return FOUND;
        }
        best = got < best ? got : best;
    }
    return best;
}

/* Follows the moves path[0..len) (their places in the engine's lists)
 * from the start x->from, the levels taking them: the board they lead to
 * into *b, its distances into h[], the last move into *last.  With
 * 'meet', each board on the way is met (met_as(), mine) as a search on
 * one thread meets it.  PTB_OK; PTB_NOTFOUND when a board on the way has
 * an image that cannot reach its goal, or was met before (nothing to
 * search below it here); PTB_ECORRUPT for a move that is not there
 * (never); a table's error; PTB_ENOMEM. */
static int follow(mx *x, const uint16_t *path, unsigned len, int meet,
                  const unsigned char **b, unsigned *h, uint32_t *last)
{
    *b = x->from->board;
    *last = 0;
    memcpy(h, x->from->h, x->a->n * sizeof *h);
    for (unsigned d = 0; d < len; d++) {
        if (meet && met_as(x, *b, d, 1))
            return PTB_NOTFOUND;
        int rc = level_at(x, d);
        if (rc != PTB_OK)
            return rc;
        level *l = &x->lv[d];
        l->n = sl_board_moves(x->a->s, (const sl_board *)*b, l->board, l->code);
        if (path[d] >= l->n)
            return PTB_ECORRUPT;
        const unsigned char *next = l->board + path[d] * x->bsize;
        uint32_t code = l->code[path[d]];
        unsigned k = sl_board_kind((const sl_board *)next, code >> 8 & 0xFF);
        unsigned nh[SL_MAX_PATTERNS];
        if ((rc = distances(x, next, k, h, nh)) != PTB_OK)
            return rc;
        memcpy(h, nh, x->a->n * sizeof *h);
        l->taken = path[d];
        *b = next;
        *last = code;
    }
    return PTB_OK;
}

/* ---- one bound on several threads (ptb_bound_threads()) ------------- */

/* The front below board b at depth 'depth', h its distances: its nodes
 * at depth 'want', path[] the places of the moves on the way. */
static int list_at(mx *x, ptb_front *f, const void *b, unsigned depth,
                   unsigned want, unsigned limit, const unsigned *h,
                   uint32_t last, uint16_t *path)
{
    unsigned bound = depth + largest(h, x->a->n);
    if (bound > limit) {
        ptb_front_cut(f, bound);
        return PTB_OK;
    }
    if (depth == want || (bound == depth && sl_board_is_goal(x->a->s, b)))
        return ptb_front_add(f, path, depth);
    int rc = level_at(x, depth);
    if (rc != PTB_OK)
        return rc;
    level *l = &x->lv[depth];
    l->n = sl_board_moves(x->a->s, b, l->board, l->code);
    for (unsigned j = 0; j < x->lv[depth].n; j++) {   /* (lv may move) */
        const unsigned char *next = x->lv[depth].board + j * x->bsize;
        uint32_t code = x->lv[depth].code[j];
        unsigned nh[SL_MAX_PATTERNS];
        if (needless(x, last, code))
            continue;
        unsigned k = sl_board_kind((const sl_board *)next, code >> 8 & 0xFF);
        rc = distances(x, next, k, h, nh);
        if (rc == PTB_NOTFOUND)
            continue;
        path[depth] = (uint16_t)j;
        if (rc != PTB_OK ||
            (rc = list_at(x, f, next, depth + 1, want, limit, nh, code,
                          path)) != PTB_OK)
            return rc;
    }
    return PTB_OK;
}

static int list(void *root, ptb_front *f, unsigned depth, unsigned limit)
{
    mx *x = root;
    uint16_t path[PTB_FRONT_MAX];
    return list_at(x, f, x->from->board, 0, depth, limit, x->from->h, 0,
                   path);
}

static void search_free(mx *x);
static mx *search_new(const ptb_abstractions *a, const ptb_limits *lim,
                      const mx *root);

/* A thread's search: levels and table readers of its own, the root's
 * boards met. */
static void *worker(void *root)
{
    const mx *r = root;
    mx *x = search_new(r->a, &r->lim, r);
    if (x)
        x->from = r->from;
    return x;
}

static void done(void *w)
{
    search_free(w);
}

static unsigned below(void *w, const ptb_front *f, size_t i,
                      unsigned limit, ptb_limits *lim, uint16_t *line,
                      unsigned *n, int *rc)
{
    mx *x = w;
    const unsigned char *b;
    unsigned h[SL_MAX_PATTERNS], got = FOUND;
    uint32_t last;
    x->lim = *lim;
    unsigned len;
    const uint16_t *path = ptb_front_path(f, i, &len);
    x->rc = follow(x, path, len, 1, &b, h, &last);
    if (x->rc == PTB_NOTFOUND) {
        x->rc = PTB_OK;
        got = UINT32_MAX - 1;
    } else if (x->rc == PTB_OK)
        got = dfs(x, b, len, limit, h, last);
    *lim = x->lim;
    *rc = x->rc;
    if (got == FOUND && x->rc == PTB_OK) {
        for (unsigned d = 0; d < x->len; d++)
            line[d] = (uint16_t)x->lv[d].taken;
        *n = x->len;
    }
    return got;
}

static const ptb_bound_search by_threads = { list, worker, done, below };

/* Whether 'after' is the board the search made at step i (ptb_replay()). */
static int is_step(const void *arg, unsigned i, const ptb_position *before,
                   const ptb_position *after)
{
    const mx *x = arg;
    const level *l = &x->lv[i];
    (void)before;
    sl_board_of(x->a->s, after, (sl_board *)x->scratch);
    return sl_board_same(x->a->s, (const sl_board *)x->scratch,
                         (const sl_board *)(l->board + l->taken * x->bsize));
}

/* IDA* from the candidates: one bound after another, each candidate in
 * turn, so the nearest is found first. */
static int deepen(mx *x, const ptb_position *starts, unsigned n,
                  unsigned threads, ptb_solution *out, ptb_search_stats *st)
{
    start s[2];
    unsigned limit = UINT32_MAX;
    for (unsigned i = 0; i < n; i++) {
        s[i].board = x->root_boards + i * x->bsize;
        sl_board_of(x->a->s, &starts[i], (sl_board *)s[i].board);
        int rc = start_distances(x, &starts[i], s[i].board, s[i].h);
        if (rc != PTB_OK && rc != PTB_NOTFOUND)
            return rc;
        s[i].f = rc == PTB_OK ? largest(s[i].h, x->a->n) : UINT32_MAX;
        limit = s[i].f < limit ? s[i].f : limit;
    }
    st->bound = limit;
    while (limit <= PTB_MAX_DISTANCE) {
        unsigned next = UINT32_MAX;
        st->iterations++;
        for (unsigned i = 0; i < n; i++) {
            if (s[i].f > limit) {          /* (its turn comes later) */
                next = s[i].f < next ? s[i].f : next;
                continue;
            }
            unsigned got;
            x->from = &s[i];
            forget(x->seen);
            if (threads > 1) {
                uint16_t *line = malloc(PTB_MAX_DISTANCE * sizeof *line);
                const unsigned char *b;
                unsigned h[SL_MAX_PATTERNS];
                uint32_t last;
                if (!line)
                    return PTB_ENOMEM;
                got = ptb_bound_threads(&by_threads, x, limit, threads,
                                        &x->lim, line, &x->len, &x->rc);
                if (got == FOUND && x->rc == PTB_OK)   /* (the levels) */
                    x->rc = follow(x, line, x->len, 0, &b, h, &last);
                free(line);
            } else {
                got = dfs(x, s[i].board, 0, limit, s[i].h, 0);
            }
            if (x->rc != PTB_OK)
                return x->rc;
            if (got == FOUND) {
                out->start = starts[i];
                out->distance = x->len;
                return ptb_replay(x->a->s, x->len, is_step, x, out);
            }
            next = got < next ? got : next;
        }
        limit = next;
    }
    return PTB_NOTFOUND;
}

static void search_free(mx *x)
{
    if (!x)
        return;
    for (unsigned g = 0; g < x->a->n; g++)
        ptb_reader_free(x->r[g]);
    for (unsigned i = 0; i < x->nlv; i++) {
        free(x->lv[i].board);
        free(x->lv[i].code);
    }
    free(x->lv);
    free(x->root_boards);
    if (!x->root && x->seen) {
        free(x->seen->board);
        free(x->seen->depth);
        free(x->seen->lock);
        free(x->seen);
    }
    free(x);
}

/* A search of the abstractions a within the limits lim, a thread's of
 * root's bound or (root NULL) a search's own: NULL when it cannot be made
 * (memory, or a table's reader). */
static mx *search_new(const ptb_abstractions *a, const ptb_limits *lim,
                      const mx *root)
{
    mx *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->a = a;
    x->lim = *lim;
    x->bsize = sl_board_size();
    x->root_boards = malloc(3 * x->bsize);
    int rc = x->root_boards ? PTB_OK : PTB_ENOMEM;
    if (rc == PTB_OK && !root) {
        seen *sn = x->seen = calloc(1, sizeof *sn);
        if (!sn || !(sn->board = malloc((size_t)a->d->n << SEEN_BITS)) ||
            !(sn->depth = malloc(sizeof *sn->depth << SEEN_BITS)) ||
            !(sn->lock = calloc((size_t)1 << SEEN_BITS, 1)))
            rc = PTB_ENOMEM;
    } else
        x->seen = root->seen;
    x->root = root;
    for (unsigned g = 0; rc == PTB_OK && g < a->n; g++)
        rc = ptb_reader_new(a->table[g], &x->r[g]);
    if (rc != PTB_OK) {
        search_free(x);
        return NULL;
    }
    x->scratch = x->root_boards + 2 * x->bsize;
    return x;
}

int ptb_abstractions_solve(const ptb_abstractions *a,
                           const ptb_position *starts, unsigned n,
                           unsigned threads, const ptb_limits *lim,
                           ptb_solution *out, ptb_search_stats *st)
{
    mx *x = search_new(a, lim, NULL);
    if (!x)
        return PTB_ENOMEM;
    int rc = deepen(x, starts, n, threads, out, st);
    st->nodes = x->lim.nodes;
    search_free(x);
    return rc;
}
