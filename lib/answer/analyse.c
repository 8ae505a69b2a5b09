/* lib/answer/analyse.c: analysis of positions for people and programs: every
 * move ranked (ptb_analyse), the number of optimal solutions
 * (ptb_count_solutions) and positions drawn at a chosen distance
 * (ptb_random_at).
 *
 * Only the public table calls read values (ptb_successors, ptb_table_value,
 * ptb_table_get_info), so this file works on any table format; the puzzle's
 * callbacks give the moves and the goals.
 *
 * Counting solutions.  The optimal lines from a start at distance d pass
 * through layers of states at distances d, d-1, ..., 0; a move from layer k
 * is optimal when its successor is at k-1, which a mod-3 table tells by the
 * residue (every neighbour of a state at k is at k-1, k or k+1).  The number
 * of optimal sequences that reach a state is the sum over its optimal
 * predecessors in the layer above, so each layer is a sorted list of states
 * with their counts, built from the layer above by sorting (successor,
 * source) pairs.  Counts are binary numbers of 32-bit limbs, as many per
 * entry as the layer needs: a state has at most M = 2^b predecessors (the
 * space's max_moves, rounded up to a power of two), so when every count of
 * a layer is below 2^(32L - b) the next layer fits L limbs, else it gets
 * L + 1 (the goals' sum gets one more, as the last layer has fewer than
 * 2^32 states).  Over at most PTB_MAX_DISTANCE (1022) layers the count
 * stays below PTB_MAX_SUCCESSORS^1022 = 2^12264, which has at most 3,692
 * decimal digits.
 *
 * Drawing at a distance.  Exact tables: the states at the distance are
 * counted (the header's histogram, or a scan of one subtable), distinct ranks
 * among them are drawn (Floyd's algorithm), and one scan maps ranks to
 * states.  Tables of the distance mod M (3 or 4): a search outward from the
 * goals through the residues, layer k + 1 being the predecessors of layer k
 * with residue (k + 1) mod M, collects the states at exactly the distance,
 * then a partial Fisher-Yates shuffle draws them.  Layer k + 1 comes from the
 * states one move before layer k (unmoves), as the build's BFS does: in a
 * state space that keeps one of some mirror pairs, moves() from a state need
 * not lead back to every state that moves to it.  The subtable's values are
 * first read in index order into 2 bits per state (random reads would decode
 * a block per read), and a bitmap of one bit per state marks the states seen.
 * Random numbers: splitmix64 from the seed, in a local state.
 *
 * May touch: its arguments only.  No I/O.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"

const char *ptb_category_name(int category)
{
    switch (category) {
    case PTB_CAT_GOAL:     return "goal";
    case PTB_CAT_SOLVABLE: return "solvable";
    default:               return "unsolvable";
    }
}

static int category_of(unsigned distance)
{
    return distance == 0 ? PTB_CAT_GOAL
         : distance <= PTB_MAX_DISTANCE ? PTB_CAT_SOLVABLE
         : PTB_CAT_UNSOLVABLE;
}

/* ==== every move ranked =============================================== */

/* Stable: equal distances keep the puzzle's move order. */
static void rank_moves(ptb_successor *m, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        ptb_successor x = m[i];
        unsigned j = i;
        for (; j > 0 && m[j - 1].distance > x.distance; j--)
            m[j] = m[j - 1];
        m[j] = x;
    }
}

int ptb_analyse(const ptb_table *t, ptb_reader *reader,
                const ptb_position *given, unsigned n, ptb_analysis *out)
{
    ptb_reader *r = reader;
    ptb_position starts[2];
    unsigned d, k;
    if (n == 0 || n > 2)
        return PTB_EINVAL;
    for (unsigned i = 0; i < n; i++)
        starts[i] = *ptb_ranked(ptb_table_space(t), &given[i], &starts[i]);
    int rc = r ? PTB_OK : ptb_reader_new(t, &r);
    out->distance = PTB_UNSOLVABLE + 1;
    out->n = 0;
    for (unsigned i = 0; rc == PTB_OK && i < n; i++) {
        /* the second candidate is analysed only when it is nearer */
        ptb_successor *m = i ? malloc(sizeof out->move) : out->move;
        if (!m) {
            rc = PTB_ENOMEM;
            break;
        }
        rc = ptb_successors(t, r, &starts[i], &d, m, &k);
        if (rc == PTB_OK && d < out->distance) {
            out->position = starts[i];
            out->distance = d;
            out->n = k;
            if (m != out->move)
                memcpy(out->move, m, k * sizeof *m);
        }
        if (m != out->move)
            free(m);
    }
    if (r != reader)
        ptb_reader_free(r);
    if ((rc = ptb_space_checked(ptb_table_space(t), rc)) != PTB_OK)
        return rc;
    out->category = category_of(out->distance);
    rank_moves(out->move, out->n);
    return PTB_OK;
}

int ptb_format_analysis(const ptb_space *s, const ptb_analysis *a,
                        int boards, char *buf, size_t cap)
{
    size_t len = 0;
    char text[512];
    if (cap)
        buf[0] = '\0';
    if (a->distance <= PTB_MAX_DISTANCE)
        ptb_catf(buf, cap, &len, "%s %u\n", ptb_category_name(a->category),
                 a->distance);
    else
        ptb_catf(buf, cap, &len, "unsolvable -\n");
    for (unsigned i = 0; i < a->n; i++) {
        const ptb_successor *m = &a->move[i];
        s->p->format_move(s->ctx, &a->position, &m->move, text, sizeof text);
        ptb_catf(buf, cap, &len, "%s ", text);
        if (m->distance <= PTB_MAX_DISTANCE)
            ptb_catf(buf, cap, &len, "%u\n", m->distance);
        else
            ptb_catf(buf, cap, &len, "-\n");
        if (boards) {
            s->p->format_board(s->ctx, &m->after, text, sizeof text);
            ptb_catf(buf, cap, &len, "%s\n\n", text);
        }
    }
    return (int)len;
}

/* ==== counting optimal solutions ====================================== */

/* One layer: states (ascending) and their counts, L limbs each, least
 * significant first. */
typedef struct layer {
    uint64_t *idx;
    uint32_t *count;
    size_t n;
    unsigned limbs;
} layer;

typedef struct edge {
    uint64_t to;
    uint32_t from;     /* entry in the layer above */
} edge;

static int edge_cmp(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

static void layer_free(layer *l)
{
    free(l->idx);
    free(l->count);
    memset(l, 0, sizeof *l);
}

/* dst (dlimbs) += src (slimbs <= dlimbs), the carry going up through dst;
 * the caller has made room for the sum. */
static void add_count(uint32_t *dst, unsigned dlimbs, const uint32_t *src,
                      unsigned slimbs)
{
    uint64_t carry = 0;
    for (unsigned i = 0; i < dlimbs && (i < slimbs || carry); i++) {
        carry += (uint64_t)dst[i] + (i < slimbs ? src[i] : 0);
        dst[i] = (uint32_t)carry;
        carry >>= 32;
    }
}

/* Limbs the next layer needs (see the header comment), in a space whose
 * states have at most max_moves moves. */
static unsigned next_limbs(const layer *l, unsigned max_moves)
{
    unsigned spare = 1;                  /* bits of the most predecessors */
    while (spare < 32 && (1u << spare) < max_moves)
        spare++;
    for (size_t i = 0; i < l->n; i++)
        if (l->count[i * l->limbs + l->limbs - 1] >> (32 - spare))
            return l->limbs + 1;
    return l->limbs;
}

/* Whether a successor's stored value puts it at distance want, in a table
 * of modulus m (0: exact). */
static int at_distance(unsigned m, unsigned value, unsigned want)
{
    return m ? value == want % m : value == want;
}

/* The optimal moves out of layer up (at distance k + 1) as sorted edges. */
static int optimal_edges(const ptb_table *t, ptb_reader *r, uint32_t sub,
                         const layer *up, unsigned k, unsigned m, edge **out,
                         size_t *nout)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_move *mv = ptb_move_list(s, sizeof *mv);
    size_t n = 0, cap = up->n * 4 + 16;
    edge *e = malloc(cap * sizeof *e);
    int rc = e && mv ? PTB_OK : PTB_ENOMEM;
    for (size_t i = 0; rc == PTB_OK && i < up->n; i++) {
        unsigned nm = s->p->moves(s->ctx, sub, up->idx[i], mv), v;
        for (unsigned j = 0; rc == PTB_OK && j < nm; j++) {
            rc = ptb_table_value(t, r, sub, mv[j].to, &v);
            if (rc != PTB_OK || !at_distance(m, v, k))
                continue;
            if (n == cap) {
                edge *g = realloc(e, 2 * cap * sizeof *e);
                if (!g) {
                    rc = PTB_ENOMEM;
                    break;
                }
                e = g;
                cap *= 2;
            }
            e[n++] = (edge){ mv[j].to, (uint32_t)i };
        }
    }
    free(mv);
    if (rc != PTB_OK) {
        free(e);
        return rc;
    }
    qsort(e, n, sizeof *e, edge_cmp);
    *out = e;
    *nout = n;
    return PTB_OK;
}

/* Layer k from layer k + 1: every optimal successor, its count the sum of
 * its predecessors'. */
static int next_layer(const ptb_table *t, ptb_reader *r, uint32_t sub,
                      const layer *up, unsigned k, unsigned m, layer *down)
{
    edge *e;
    size_t ne, n = 0;
    int rc = optimal_edges(t, r, sub, up, k, m, &e, &ne);
    if (rc != PTB_OK)
        return rc;
    memset(down, 0, sizeof *down);
    down->limbs = next_limbs(up, ptb_table_space(t)->max_moves);
    size_t states = 0;
    for (size_t i = 0; i < ne; i++)
        states += i == 0 || e[i].to != e[i - 1].to;
    down->idx = malloc((states ? states : 1) * sizeof *down->idx);
    down->count = calloc((states ? states : 1) * down->limbs,
                         sizeof *down->count);
    if (!down->idx || !down->count) {
        free(e);
        layer_free(down);
        return PTB_ENOMEM;
    }
    for (size_t i = 0; i < ne; i++) {
        if (i == 0 || e[i].to != e[i - 1].to)
            down->idx[n++] = e[i].to;
        add_count(down->count + (n - 1) * down->limbs, down->limbs,
                  up->count + (size_t)e[i].from * up->limbs, up->limbs);
    }
    down->n = n;
    free(e);
    return n ? PTB_OK : PTB_ECORRUPT;    /* no optimal move: not descending */
}

/* Writes the binary number (limbs, least significant first) in decimal,
 * destroying it. */
static int to_decimal(uint32_t *num, unsigned limbs, char *buf, size_t cap)
{
    char digits[PTB_COUNT_DIGITS];
    size_t n = 0;
    unsigned top = limbs;
    do {
        uint64_t rem = 0;
        while (top > 0 && num[top - 1] == 0)
            top--;
        for (unsigned i = top; i-- > 0;) {
            uint64_t cur = rem << 32 | num[i];
            num[i] = (uint32_t)(cur / 1000000000u);
            rem = cur % 1000000000u;
        }
        while (top > 0 && num[top - 1] == 0)
            top--;
        for (unsigned j = 0; j < 9 && (top > 0 || rem > 0 || j == 0); j++) {
            if (n + 1 >= sizeof digits)
                return PTB_EINVAL;
            digits[n++] = (char)('0' + rem % 10);
            rem /= 10;
        }
    } while (top > 0);
    if (n + 1 > cap)
        return PTB_EINVAL;
    for (size_t i = 0; i < n; i++)
        buf[i] = digits[n - 1 - i];
    buf[n] = '\0';
    return PTB_OK;
}

/* Counts from one start at distance d. */
static int count_from(const ptb_table *t, ptb_reader *r, const ptb_position *p,
                      unsigned d, char *buf, size_t cap)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_table_info info;
    layer up = { 0 }, down;
    int rc = ptb_table_get_info(t, &info);
    up.idx = malloc(sizeof *up.idx);
    up.count = calloc(1, sizeof *up.count);
    if (!up.idx || !up.count)
        rc = PTB_ENOMEM;
    if (rc == PTB_OK) {
        up.idx[0] = p->idx;
        up.count[0] = 1;
        up.n = 1;
        up.limbs = 1;
    }
    for (unsigned k = d; rc == PTB_OK && k-- > 0;) {
        rc = next_layer(t, r, p->sub, &up, k, info.modulus, &down);
        if (rc == PTB_OK) {
            layer_free(&up);
            up = down;
        }
    }
    /* every state of the last layer must be a goal; their sum */
    uint32_t *sum = rc == PTB_OK ? calloc(up.limbs + 1, sizeof *sum) : NULL;
    if (rc == PTB_OK && !sum)
        rc = PTB_ENOMEM;
    for (size_t i = 0; rc == PTB_OK && i < up.n; i++) {
        if (!s->p->is_goal(s->ctx, p->sub, up.idx[i]))
            rc = PTB_ECORRUPT;
        else
            add_count(sum, up.limbs + 1, up.count + i * up.limbs,
                      up.limbs);
    }
    if (rc == PTB_OK)
        rc = to_decimal(sum, up.limbs + 1, buf, cap);
    free(sum);
    layer_free(&up);
    return rc;
}

int ptb_count_solutions(const ptb_table *t, ptb_reader *reader,
                        const ptb_position *starts, unsigned n, char *buf,
                        size_t cap)
{
    ptb_reader *r = reader;
    ptb_analysis *a = malloc(sizeof *a);
    if (cap)
        buf[0] = '\0';
    if (!a)
        return PTB_ENOMEM;
    int rc = r ? PTB_OK : ptb_reader_new(t, &r);
    if (rc == PTB_OK)
        rc = ptb_analyse(t, r, starts, n, a);
    if (rc == PTB_OK && a->distance > PTB_MAX_DISTANCE) {
        rc = PTB_NOTFOUND;
        if (cap >= 2)
            strcpy(buf, "0");
    }
    if (rc == PTB_OK)
        rc = count_from(t, r, &a->position, a->distance, buf, cap);
    if (r != reader)
        ptb_reader_free(r);
    free(a);
    return ptb_space_checked(ptb_table_space(t), rc);
}

/* ==== drawing states at a distance ==================================== */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in 0..k-1 (k > 0), without modulo bias. */
static uint64_t rng_below(rng *g, uint64_t k)
{
    uint64_t floor = (0 - k) % k, x;
    do
        x = rng_next(g);
    while (x < floor);
    return x % k;
}

typedef struct found {
    uint32_t *sub;
    uint64_t *idx;
    size_t n, cap;
} found;

/* Exchanges entries i and j (a step of a Fisher-Yates shuffle). */
static void found_swap(found *f, size_t i, size_t j)
{
    uint32_t ts = f->sub[i];
    uint64_t ti = f->idx[i];
    f->sub[i] = f->sub[j];
    f->idx[i] = f->idx[j];
    f->sub[j] = ts;
    f->idx[j] = ti;
}

static int found_add(found *f, uint32_t sub, uint64_t idx)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 1024;
        uint32_t *s = realloc(f->sub, cap * sizeof *s);
        if (s)
            f->sub = s;
        uint64_t *i = realloc(f->idx, cap * sizeof *i);
        if (i)
            f->idx = i;
        if (!s || !i)
            return PTB_ENOMEM;
        f->cap = cap;
    }
    f->sub[f->n] = sub;
    f->idx[f->n++] = idx;
    return PTB_OK;
}

/* Exact tables: the states of subtables [lo, hi) whose value is d. When
 * ranks is NULL they are counted into *count; else the states whose rank
 * (in scan order) is in the sorted list ranks[0..m) are added to f. */
static int scan_exact(const ptb_table *t, ptb_reader *r, uint32_t lo,
                      uint32_t hi, unsigned d, const uint64_t *ranks,
                      size_t m, uint64_t *count, found *f)
{
    const ptb_space *s = ptb_table_space(t);
    uint64_t seen = 0;
    size_t next = 0;
    for (uint32_t sub = lo; sub < hi; sub++) {
        uint64_t size = s->p->size(s->ctx, sub);
        for (uint64_t i = 0; i < size && (!ranks || next < m); i++) {
            unsigned v;
            int rc = ptb_table_value(t, r, sub, i, &v);
            if (rc != PTB_OK)
                return rc;
            if (v != d)
                continue;
            for (; ranks && next < m && ranks[next] == seen; next++)
                if ((rc = found_add(f, sub, i)) != PTB_OK)
                    return rc;
            seen++;
        }
    }
    if (count)
        *count = seen;
    return ranks && next < m ? PTB_ECORRUPT : PTB_OK;
}

/* m distinct ranks below k (Floyd), ascending. */
static int draw_ranks(rng *g, uint64_t k, size_t m, uint64_t **out)
{
    uint64_t *r = malloc((m ? m : 1) * sizeof *r);
    if (!r)
        return PTB_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        uint64_t j = k - m + i, x = rng_below(g, j + 1);
        for (size_t q = 0; q < i; q++)
            if (r[q] == x) {
                x = j;
                break;
            }
        r[i] = x;
    }
    ptb_sort_u64(r, m);
    *out = r;
    return PTB_OK;
}

static int draw_exact(const ptb_table *t, ptb_reader *r, uint32_t lo,
                      uint32_t hi, unsigned d, const ptb_table_info *info,
                      rng *g, unsigned n, found *f)
{
    uint64_t k = info->histogram[d], *ranks;
    int whole = lo == 0 && hi == ptb_table_space(t)->subtables;
    int rc = whole ? PTB_OK : scan_exact(t, r, lo, hi, d, NULL, 0, &k, NULL);
    if (rc != PTB_OK)
        return rc;
    if (k == 0)
        return PTB_NOTFOUND;
    size_t m = n < k ? n : (size_t)k;
    if ((rc = draw_ranks(g, k, m, &ranks)) != PTB_OK)
        return rc;
    rc = scan_exact(t, r, lo, hi, d, ranks, m, NULL, f);
    free(ranks);
    return rc;
}

/* Mod-M tables: every state of subtable sub at exactly distance d. */
typedef struct frontier {
    uint64_t *idx;
    size_t n, cap;
} frontier;

static int frontier_add(frontier *f, uint64_t idx)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 1024;
        uint64_t *p = realloc(f->idx, cap * sizeof *p);
        if (!p)
            return PTB_ENOMEM;
        f->idx = p;
        f->cap = cap;
    }
    f->idx[f->n++] = idx;
    return PTB_OK;
}

typedef struct goal_sink {
    frontier *f;
    uint64_t *seen;
    int rc;
} goal_sink;

static void add_goal(void *arg, uint64_t idx)
{
    goal_sink *g = arg;
    if (g->rc == PTB_OK && !(g->seen[idx / 64] >> idx % 64 & 1)) {
        g->seen[idx / 64] |= 1ULL << idx % 64;
        g->rc = frontier_add(g->f, idx);
    }
}

/* The stored values of a subtable, 2 bits each (residues 0..3), read in
 * index order so that every block is decoded once. */
static int read_residues(const ptb_table *t, ptb_reader *r, uint32_t sub,
                         uint64_t size, uint8_t **out)
{
    uint8_t *res = calloc(size / 4 + 1, 1);
    if (!res)
        return PTB_ENOMEM;
    for (uint64_t i = 0; i < size; i++) {
        unsigned v;
        int rc = ptb_table_value(t, r, sub, i, &v);
        if (rc != PTB_OK) {
            free(res);
            return rc;
        }
        res[i / 4] |= (uint8_t)((v & 3u) << 2 * (i % 4));
    }
    *out = res;
    return PTB_OK;
}

static unsigned residue(const uint8_t *res, uint64_t i)
{
    return res[i / 4] >> 2 * (i % 4) & 3;
}

static int layer_at(const ptb_table *t, ptb_reader *r, uint32_t sub,
                    unsigned d, found *f)
{
    const ptb_space *s = ptb_table_space(t);
    unsigned m = ptb_table_modulus(t);
    uint64_t size = s->p->size(s->ctx, sub);
    uint64_t *seen = calloc(size / 64 + 1, sizeof *seen);
    uint8_t *res = NULL;
    frontier a = { 0 }, b = { 0 };
    uint64_t *pre = ptb_move_list(s, sizeof *pre);
    goal_sink gs = { &a, seen, seen && pre ? PTB_OK : PTB_ENOMEM };
    if (seen)
        gs.rc = read_residues(t, r, sub, size, &res);
    if (gs.rc == PTB_OK)
        s->p->goals(s->ctx, sub, add_goal, &gs);
    int rc = gs.rc;
    for (unsigned k = 0; rc == PTB_OK && k < d && a.n; k++) {
        b.n = 0;
        for (size_t i = 0; rc == PTB_OK && i < a.n; i++) {
            unsigned np = s->p->unmoves(s->ctx, sub, a.idx[i], pre);
            for (unsigned j = 0; rc == PTB_OK && j < np; j++) {
                uint64_t x = pre[j];
                if (seen[x / 64] >> x % 64 & 1 ||
                    residue(res, x) != (k + 1) % m)
                    continue;
                seen[x / 64] |= 1ULL << x % 64;
                rc = frontier_add(&b, x);
            }
        }
        frontier tmp = a;
        a = b;
        b = tmp;
    }
    for (size_t i = 0; rc == PTB_OK && i < a.n; i++)
        rc = found_add(f, sub, a.idx[i]);
    free(a.idx);
    free(b.idx);
    free(seen);
    free(res);
    free(pre);
    return rc;
}

/* Whether state idx of subtable sub, in a table of the distance mod m, is
 * at exactly distance d: its residue, then a walk down the forward moves,
 * a successor one closer each step, that must end at a goal in d steps. */
static int at_exactly(const ptb_table *t, ptb_reader *r, uint32_t sub,
                      uint64_t idx, unsigned d, unsigned m, ptb_move *mv,
                      int *yes)
{
    const ptb_space *s = ptb_table_space(t);
    unsigned v;
    int rc = ptb_table_value(t, r, sub, idx, &v);
    *yes = 0;
    if (rc != PTB_OK || v != d % m)
        return rc;
    for (unsigned k = d;; k--) {
        if (s->p->is_goal(s->ctx, sub, idx)) {
            *yes = k == 0;
            return PTB_OK;
        }
        unsigned n = k ? s->p->moves(s->ctx, sub, idx, mv) : 0, i;
        v = (v + m - 1) % m;
        if ((rc = ptb_first_at(t, r, sub, mv, n, v, &i)) != PTB_OK ||
            i == n)
            return rc;          /* farther than d, or unsolvable */
        idx = mv[i].to;
    }
}

/* Draws of a whole mod-M table by sampling: states drawn uniformly from
 * all, kept when at exactly distance d and not drawn before, are uniform
 * among the k states at d.  PTB_NOTFOUND when 'most' draws were not
 * enough (the caller then searches). */
static int draw_sampled(const ptb_table *t, ptb_reader *r, unsigned d,
                        uint64_t total, uint64_t most, rng *g, unsigned n,
                        found *f)
{
    const ptb_space *s = ptb_table_space(t);
    unsigned m = ptb_table_modulus(t);
    ptb_move *mv = ptb_move_list(s, sizeof *mv);
    int rc = mv ? PTB_OK : PTB_ENOMEM;
    for (uint64_t tries = 0; rc == PTB_OK && f->n < n; tries++) {
        uint32_t sub;
        uint64_t idx;
        int yes;
        if (tries == most) {
            rc = PTB_NOTFOUND;
            break;
        }
        ptb_locate(s, rng_below(g, total), &sub, &idx);
        if ((rc = at_exactly(t, r, sub, idx, d, m, mv, &yes)) != PTB_OK)
            break;
        for (size_t i = 0; yes && i < f->n; i++)
            yes = f->sub[i] != sub || f->idx[i] != idx;
        if (yes)
            rc = found_add(f, sub, idx);
    }
    free(mv);
    return rc;
}

/* Mod-M tables: the farthest states the stats record lists when they are
 * all of them; else sampling when its expected work is below the search's;
 * else the search outward from the goals.  In reads of a value: sampling
 * reads one a draw, and walks 1 draw in m down at most d steps, about the
 * mean distance (a step's moves and reads: some STEP_READS reads); the
 * search reads every value, then makes the moves into every state up to
 * d (as much as a step). */
#define STEP_READS 20.0
static int draw_residues(const ptb_table *t, ptb_reader *r, uint32_t lo,
                         uint32_t hi, unsigned d, const ptb_table_info *info,
                         rng *g, unsigned n, found *f)
{
    const ptb_space *s = ptb_table_space(t);
    found all = { 0 };
    int rc = PTB_OK, whole = lo == 0 && hi == s->subtables, listed = 0;
    uint64_t k = info->histogram[d], near = 0;
    double mean = 0;
    for (unsigned i = 0; i <= info->max_distance; i++) {
        near += i <= d ? info->histogram[i] : 0;
        mean += (double)i * (double)info->histogram[i] /
                (double)info->solvable;
    }
    double draws = (double)n * (double)info->states / (double)k;
    double walk = 1.0 + (mean < d ? mean : d) * STEP_READS /
                            ptb_table_modulus(t);
    double search = (double)info->states + STEP_READS * (double)near;
    if (whole && d == info->max_distance && k == info->n_farthest) {
        listed = 1;
        for (unsigned i = 0; rc == PTB_OK && i < info->n_farthest; i++)
            rc = found_add(&all, info->far_sub[i], info->far_idx[i]);
    } else if (whole && n <= k / 2 && draws * walk < search) {
        rc = draw_sampled(t, r, d, info->states, (uint64_t)(4 * draws) + 1000,
                          g, n, f);
        if (rc != PTB_NOTFOUND)
            return rc;
        f->n = 0;               /* unlucky: search instead */
        rc = PTB_OK;
    }
    for (uint32_t sub = lo; rc == PTB_OK && !listed && sub < hi; sub++)
        rc = layer_at(t, r, sub, d, &all);
    if (rc == PTB_OK && whole && all.n != k)
        rc = PTB_ECORRUPT;      /* the residues disagree with the header */
    if (rc == PTB_OK && all.n == 0)
        rc = PTB_NOTFOUND;
    size_t m = n < all.n ? n : all.n;
    for (size_t i = 0; rc == PTB_OK && i < m; i++) {
        found_swap(&all, i, i + (size_t)rng_below(g, all.n - i));
        rc = found_add(f, all.sub[i], all.idx[i]);
    }
    free(all.sub);
    free(all.idx);
    return rc;
}

int ptb_random_at(const ptb_table *t, unsigned distance, uint32_t sub,
                  uint64_t seed, unsigned n, uint32_t *sub_out,
                  uint64_t *idx_out, unsigned *got)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_table_info info;
    ptb_reader *r = NULL;
    found f = { 0 };
    rng g = { seed };
    uint32_t lo = sub == PTB_ANY_SUBTABLE ? 0 : sub;
    uint32_t hi = sub == PTB_ANY_SUBTABLE ? s->subtables : sub + 1;
    *got = 0;
    if (lo >= s->subtables || hi > s->subtables)
        return PTB_EINVAL;
    int rc = ptb_table_get_info(t, &info);
    if (rc != PTB_OK)
        return rc;
    if (distance > info.max_distance || info.histogram[distance] == 0 ||
        n == 0)
        return n == 0 ? PTB_OK : PTB_NOTFOUND;
    if ((rc = ptb_reader_new(t, &r)) != PTB_OK)
        return rc;
    rc = info.exact ? draw_exact(t, r, lo, hi, distance, &info, &g, n, &f)
                    : draw_residues(t, r, lo, hi, distance, &info, &g, n, &f);
    ptb_reader_free(r);
    /* exact draws come out in index order: shuffle them too */
    for (size_t i = 0; rc == PTB_OK && info.exact && i + 1 < f.n; i++)
        found_swap(&f, i, i + (size_t)rng_below(&g, f.n - i));
    for (size_t i = 0; rc == PTB_OK && i < f.n; i++) {
        sub_out[i] = f.sub[i];
        idx_out[i] = f.idx[i];
    }
    rc = ptb_space_checked(s, rc);
    if (rc == PTB_OK)
        *got = (unsigned)f.n;
    free(f.sub);
    free(f.idx);
    return rc;
}

/* ==== histogram picture =============================================== */

/* n with thousands separated by commas. */
static void cat_count(char *buf, size_t cap, size_t *len, uint64_t n)
{
    char d[32];
    int k = snprintf(d, sizeof d, "%" PRIu64, n);
    for (int i = 0; i < k; i++)
        ptb_catf(buf, cap, len, "%s%c", i && (k - i) % 3 == 0 ? "," : "",
                 d[i]);
}

/* A tick step of 1, 2 or 5 times a power of ten giving at most 8 ticks. */
static uint64_t tick_step(uint64_t top)
{
    static const unsigned mult[3] = { 1, 2, 5 };
    for (uint64_t p = 1;; p *= 10)
        for (unsigned i = 0; i < 3; i++)
            if (top / (p * mult[i]) < 8)
                return p * mult[i];
}

enum { SVG_W = 860, SVG_H = 420, LEFT = 100, RIGHT = 130, TOP = 60,
       BOTTOM = 70 };

/* The histogram's axes, their ticks and labels: counts up to top by
 * step, distances up to dmax. */
static void cat_axes(char *buf, size_t cap, size_t *lenp, const ptb_space *s,
                     uint64_t top, uint64_t step, unsigned dmax)
{
    size_t len = *lenp;
    const double plot_w = SVG_W - LEFT - RIGHT, plot_h = SVG_H - TOP - BOTTOM;
    const double bar_w = plot_w / (dmax + 1);
    ptb_catf(buf, cap, &len, "<g class=\"axes\" stroke=\"black\">"
             "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
             "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/></g>\n",
             LEFT, TOP, LEFT, SVG_H - BOTTOM, LEFT, SVG_H - BOTTOM,
             LEFT + plot_w, SVG_H - BOTTOM);
    for (uint64_t y = 0; y <= top; y += step) {
        double py = SVG_H - BOTTOM - plot_h * (double)y / (double)top;
        ptb_catf(buf, cap, &len, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" "
                 "y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
                 "text-anchor=\"end\">", LEFT, py, LEFT + plot_w, py,
                 LEFT - 6, py + 4);
        cat_count(buf, cap, &len, y);
        ptb_catf(buf, cap, &len, "</text>\n");
    }
    static const unsigned steps[] = { 1, 2, 5, 10, 20, 50 };
    unsigned every = 100;
    for (unsigned i = 6; i-- > 0;)
        if ((dmax + 1) / steps[i] <= 20)
            every = steps[i];
    for (unsigned d = 0; d <= dmax; d += every)
        ptb_catf(buf, cap, &len, "<text x=\"%.1f\" y=\"%d\" text-anchor="
                 "\"middle\">%u</text>\n", LEFT + bar_w * (d + 0.5),
                 SVG_H - BOTTOM + 16, d);
    ptb_catf(buf, cap, &len, "<text class=\"xlabel\" x=\"%.1f\" y=\"%d\" "
             "text-anchor=\"middle\">distance to the goal (moves, metric %s)"
             "</text>\n"
             "<text class=\"ylabel\" transform=\"translate(24 %.1f) "
             "rotate(-90)\" text-anchor=\"middle\">table states</text>\n",
             LEFT + plot_w / 2, SVG_H - BOTTOM + 40, s->p->metrics[s->metric],
             TOP + plot_h / 2);
    *lenp = len;
}

/* The unsolvable states apart, a bar of their share of all states. */
static void cat_unsolvable(char *buf, size_t cap, size_t *lenp,
                           const ptb_table_info *in, double plot_h)
{
    size_t len = *lenp;
    uint64_t unsolvable = in->states - in->solvable;
    double share = in->states ? (double)unsolvable / (double)in->states : 0;
    double ux = SVG_W - RIGHT + 40;
    ptb_catf(buf, cap, &len, "<rect class=\"frame\" x=\"%.1f\" y=\"%d\" "
             "width=\"40\" height=\"%.1f\" fill=\"none\" stroke=\"#999\"/>\n"
             "<rect class=\"unsolvable\" data-count=\"%" PRIu64 "\" "
             "x=\"%.1f\" y=\"%.2f\" width=\"40\" height=\"%.2f\" "
             "fill=\"#cc0000\"><title>unsolvable: ", ux, TOP, plot_h,
             unsolvable, ux, TOP + plot_h * (1 - share), plot_h * share);
    cat_count(buf, cap, &len, unsolvable);
    ptb_catf(buf, cap, &len, " states</title></rect>\n<text x=\"%.1f\" "
             "y=\"%d\" text-anchor=\"middle\">unsolvable</text>\n<text "
             "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", ux + 20,
             SVG_H - BOTTOM + 16, ux + 20, SVG_H - BOTTOM + 32);
    cat_count(buf, cap, &len, unsolvable);
    ptb_catf(buf, cap, &len, "</text>\n<text x=\"%.1f\" y=\"%d\" "
             "text-anchor=\"middle\">(%.1f%% of all)</text>\n</svg>\n",
             ux + 20, SVG_H - BOTTOM + 48, 100 * share);
    *lenp = len;
}

int ptb_format_histogram_svg(const ptb_space *s, const ptb_table_info *in,
                             char *buf, size_t cap)
{
    size_t len = 0;
    unsigned dmax = in->max_distance <= PTB_MAX_DISTANCE ? in->max_distance
                                                         : 0;
    uint64_t top = 1;
    for (unsigned d = 0; d <= dmax; d++)
        top = in->histogram[d] > top ? in->histogram[d] : top;
    uint64_t step = tick_step(top);
    top = (top + step - 1) / step * step;
    const double plot_w = SVG_W - LEFT - RIGHT, plot_h = SVG_H - TOP - BOTTOM;
    const double bar_w = plot_w / (dmax + 1);
    if (cap)
        buf[0] = '\0';
    ptb_catf(buf, cap, &len, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
             "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
             "fill=\"white\"/>\n<text class=\"title\" x=\"%d\" y=\"24\" "
             "text-anchor=\"middle\" font-size=\"15\">%s, metric %s: ",
             SVG_W, SVG_H, SVG_W, SVG_H, SVG_W / 2, s->p->name,
             s->p->metrics[s->metric]);
    cat_count(buf, cap, &len, in->states);
    ptb_catf(buf, cap, &len, " states, ");
    cat_count(buf, cap, &len, in->solvable);
    ptb_catf(buf, cap, &len, " solvable, max distance %u</text>\n", dmax);
    cat_axes(buf, cap, &len, s, top, step, dmax);
    /* one bar per distance */
    for (unsigned d = 0; d <= dmax; d++) {
        double h = plot_h * (double)in->histogram[d] / (double)top;
        ptb_catf(buf, cap, &len, "<rect class=\"bar\" data-distance=\"%u\" "
                 "data-count=\"%" PRIu64 "\" x=\"%.2f\" y=\"%.2f\" "
                 "width=\"%.2f\" height=\"%.2f\" fill=\"#3465a4\"><title>"
                 "distance %u: ", d, in->histogram[d], LEFT + bar_w * d,
                 SVG_H - BOTTOM - h, bar_w > 2 ? bar_w - 1 : bar_w, h, d);
        cat_count(buf, cap, &len, in->histogram[d]);
        ptb_catf(buf, cap, &len, " states</title></rect>\n");
    }
    cat_unsolvable(buf, cap, &len, in, plot_h);
    return (int)len;
}
