/* lib/answer/walk.c: answering a query.
 *
 * ptb_solve() walks a table: from the start, take at each step the first move
 * (in the puzzle's fixed order) whose successor is one closer: a stored value
 * of d - 1 in exact tables, (v + M - 1) mod M in tables of the distance mod M
 * (3 or 4), where every neighbour of a state at distance d is at d - 1, d or
 * d + 1, so the residue picks out d - 1.  O(distance) value reads; a walk
 * that cannot descend, or that reaches a goal at the wrong value, reports
 * corruption.  Each step's moves come from the position the walk carries (the
 * puzzle's position_moves(), when it has one), not from unranking the index;
 * a puzzle with first_move() makes them only up to the one taken (and
 * may make the next one too, its value asked for while the one before is
 * tested).
 * Mod-M tables store unsolvable states as 0 like all their neighbours: a
 * start stored 0 that is no goal and has no successor stored M - 1 is
 * unsolvable, found at the first step (mod-4 tables have none).
 *
 * ptb_search() answers the same query with no table, by a forward BFS from
 * the candidates until the first goal: the independent check and baseline.
 */
#include <stdlib.h>
#include <string.h>

#include "answer.h"

/* The moves out of a position, in the puzzle's order. */
static unsigned moves_of(const ptb_space *s, const ptb_position *p,
                         ptb_move *mv)
{
    return s->p->position_moves ? s->p->position_moves(s->ctx, p, mv)
                                : s->p->moves(s->ctx, p->sub, p->idx, mv);
}

/* What first_move() gives pick(): the table, and the value wanted. */
typedef struct wanted {
    const ptb_table *t;
    ptb_reader *r;
    uint32_t sub;
    unsigned want;
    int rc;                    /* a read's error (it ends the moves), or
                                  PTB_OK */
} wanted;

static int has_value(void *arg, const ptb_move *m)
{
    wanted *w = arg;
    unsigned v;
    w->rc = ptb_table_get(w->t, w->r, w->sub, m->to, &v);
    return w->rc != PTB_OK || v == w->want;
}

/* A move's value asked for before it is tested (first_move()'s ahead),
 * when the table's values stored in place pass AHEAD_BYTES: below, they
 * stay in the cache once read, and the move made ahead of its test (one a
 * step more than the walk takes) costs more than the wait it hides
 * (`--batch --count` of positions at every distance, 2026-11-30: century,
 * quzzle, ma, rush-60 and eight 3 % to 22 % slower with it; klotski, 3
 * MB, 8 % faster). */
#define AHEAD_BYTES (1u << 20)

static void value_ahead(void *arg, const ptb_move *m)
{
    const wanted *w = arg;
    ptb_table_prefetch(w->t, w->sub, m->to);
}

/* The first move out of p (in the puzzle's order) to a state of value
 * want into *m; *found 0 when there is none.  mv: a list for p's moves
 * (ptb_move_list()), unless the puzzle makes them one at a time
 * (first_move()).  Returns a read's error or PTB_OK. */
static int first_to(const ptb_space *s, const ptb_table *t, ptb_reader *r,
                    const ptb_position *p, unsigned want, ptb_move *mv,
                    ptb_move *m, int *found)
{
    if (s->p->first_move) {
        wanted w = { t, r, p->sub, want, PTB_OK };
        *found = s->p->first_move(
                     s->ctx, p, has_value,
                     ptb_table_in_place_bytes(t) > AHEAD_BYTES ? value_ahead
                                                                : NULL,
                     &w, m) != 0 &&
                 w.rc == PTB_OK;
        return w.rc;
    }
    unsigned n = moves_of(s, p, mv), i;
    int rc = ptb_first_at(t, r, p->sub, mv, n, want, &i);
    *found = rc == PTB_OK && i < n;
    if (*found)
        *m = mv[i];
    return rc;
}

/* A reader for the caller's r, or a temporary one when a table needs it:
 * free it with drop_reader(). */
static int take_reader(const ptb_table *t, ptb_reader *r, ptb_reader **out)
{
    *out = r;
    return r || !ptb_table_needs_reader(t) ? PTB_OK : ptb_reader_new(t, out);
}

static void drop_reader(ptb_reader *r, ptb_reader *given)
{
    if (r != given)
        ptb_reader_free(r);
}

int ptb_first_at(const ptb_table *t, ptb_reader *r, uint32_t sub,
                 const ptb_move *mv, unsigned n, unsigned want, unsigned *i)
{
    for (*i = 0; *i < n; ++*i) {
        unsigned w;
        int rc = ptb_table_get(t, r, sub, mv[*i].to, &w);
        if (rc != PTB_OK || w == want)
            return rc;
    }
    return PTB_OK;
}

/* walk() with list for a state's moves (first_to()). */
static int walk_with(ptb_reader *r, const ptb_table *t,
                     const ptb_position *start, ptb_move *list,
                     ptb_solution *out, unsigned *dist)
{
    const ptb_space *s = ptb_table_space(t);
    const ptb_puzzle *p = s->p;
    unsigned m = ptb_table_modulus(t);
    int exact = m == 0;
    ptb_position pos = *start;
    ptb_move mv;
    unsigned v, steps = 0;
    int rc = ptb_table_get(t, r, pos.sub, pos.idx, &v);
    if (rc != PTB_OK)
        return rc;
    if (exact && v == PTB_UNSOLVABLE)
        return PTB_NOTFOUND;
    for (;;) {
        int goal = p->is_goal(s->ctx, pos.sub, pos.idx);
        if (goal && v != 0)
            return PTB_ECORRUPT;
        if (goal || (exact && v == 0))
            break;
        if (steps == PTB_MAX_DISTANCE)
            return PTB_ECORRUPT;
        unsigned want = exact ? v - 1 : (v + m - 1) % m;
        int found;
        if ((rc = first_to(s, t, r, &pos, want, list, &mv, &found)) !=
            PTB_OK)
            return rc;
        if (!found && !exact && steps == 0 && v == 0)
            return PTB_NOTFOUND;   /* stored 0 like all its neighbours */
        if (!found)
            return PTB_ECORRUPT;   /* no successor one closer */
        p->apply(s->ctx, &pos, &mv);
        if (out) {
            out->move[steps] = mv;
            out->after[steps] = pos;
        }
        v = want;
        steps++;
    }
    if (exact && !p->is_goal(s->ctx, pos.sub, pos.idx))
        return PTB_ECORRUPT;      /* value 0 on a state that is no goal */
    *dist = steps;
    return PTB_OK;
}

/* Walks from start to a goal; records the line in out when out != NULL.
 * *dist gets the number of moves. */
static int walk(ptb_reader *r, const ptb_table *t, const ptb_position *start,
                ptb_solution *out, unsigned *dist)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_move *list = s->p->first_move ? NULL
                                      : ptb_move_list(s, sizeof *list);
    if (!s->p->first_move && !list)
        return PTB_ENOMEM;
    int rc = walk_with(r, t, start, list, out, dist);
    free(list);
    return rc;
}

/* The distance of a candidate: read directly, or walked for mod-M tables. */
static int distance_of(ptb_reader *r, const ptb_table *t,
                       const ptb_position *start, unsigned *dist)
{
    unsigned v = PTB_UNSOLVABLE;
    int rc = ptb_table_modulus(t) == 0
                 ? ptb_table_get(t, r, start->sub, start->idx, &v)
                 : walk(r, t, start, NULL, &v);
    if (rc == PTB_OK && v == PTB_UNSOLVABLE)
        rc = PTB_NOTFOUND;
    *dist = rc == PTB_OK ? v : PTB_UNSOLVABLE;
    return rc;
}

int ptb_distance(const ptb_table *t, ptb_reader *reader,
                 const ptb_position *given, unsigned *distance)
{
    ptb_reader *r;
    ptb_position own;
    const ptb_position *p = ptb_ranked(ptb_table_space(t), given, &own);
    *distance = PTB_UNSOLVABLE;
    if (!ptb_in_space(ptb_table_space(t), p->sub, p->idx))
        return PTB_EINVAL;
    int rc = take_reader(t, reader, &r);
    if (rc == PTB_OK)
        rc = distance_of(r, t, p, distance);
    drop_reader(r, reader);
    return ptb_space_checked(ptb_table_space(t), rc);
}

int ptb_solve(const ptb_table *t, ptb_reader *reader,
              const ptb_position *given, unsigned n, ptb_solution *out)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_reader *r = reader;
    ptb_position starts[2];
    unsigned best = n, bestd = PTB_UNSOLVABLE, d;
    if (n == 0 || n > 2)
        return PTB_EINVAL;
    for (unsigned i = 0; i < n; i++)
        starts[i] = *ptb_ranked(s, &given[i], &starts[i]);
    for (unsigned i = 0; i < n; i++)
        if (!ptb_in_space(s, starts[i].sub, starts[i].idx))
            return PTB_EINVAL;
    int rc = take_reader(t, reader, &r);
    if (n == 1)
        best = 0;            /* one candidate: walk it once, no comparison */
    for (unsigned i = 0; rc == PTB_OK && n > 1 && i < n; i++) {
        rc = distance_of(r, t, &starts[i], &d);
        if (rc == PTB_NOTFOUND)
            rc = PTB_OK;
        else if (rc == PTB_OK && d < bestd)
            best = i, bestd = d;
    }
    out->start = starts[best < n ? best : 0];
    out->distance = PTB_UNSOLVABLE;
    if (rc == PTB_OK && best == n)
        rc = PTB_NOTFOUND;
    if (rc == PTB_OK)
        rc = walk(r, t, &starts[best], out, &out->distance);
    drop_reader(r, reader);
    return ptb_space_checked(s, rc);
}

/* The distance of a neighbour of a state at distance d, from its stored
 * value: itself in exact tables (m = 0); in mod-m tables one of d - 1, d,
 * d + 1. */
static unsigned neighbour_distance(unsigned m, unsigned d, unsigned v)
{
    if (m == 0 || v == PTB_UNSOLVABLE)
        return v;
    if (d == PTB_UNSOLVABLE)
        return PTB_UNSOLVABLE;    /* cannot happen in a consistent table */
    for (unsigned e = d ? d - 1 : 0; e <= d + 1; e++)
        if (e % m == v)
            return e;
    return PTB_UNSOLVABLE;
}

int ptb_successors(const ptb_table *t, ptb_reader *reader,
                   const ptb_position *given, unsigned *distance,
                   ptb_successor *out, unsigned *n)
{
    const ptb_space *s = ptb_table_space(t);
    ptb_position own;
    const ptb_position *p = ptb_ranked(s, given, &own);
    ptb_move *mv;
    ptb_reader *r = reader;
    unsigned d, v, m = ptb_table_modulus(t);
    *n = 0;
    if (!ptb_in_space(s, p->sub, p->idx))
        return PTB_EINVAL;
    if (!(mv = ptb_move_list(s, sizeof *mv)))
        return PTB_ENOMEM;
    int rc = take_reader(t, reader, &r);
    if (rc == PTB_OK) {
        rc = distance_of(r, t, p, &d);
        if (rc == PTB_NOTFOUND) {
            d = PTB_UNSOLVABLE;
            rc = PTB_OK;
        }
    }
    unsigned k = rc == PTB_OK ? moves_of(s, p, mv) : 0;
    for (unsigned i = 0; rc == PTB_OK && i < k; i++) {
        rc = ptb_table_get(t, r, p->sub, mv[i].to, &v);
        out[i].move = mv[i];
        out[i].after = *p;
        s->p->apply(s->ctx, &out[i].after, &mv[i]);
        out[i].distance = neighbour_distance(m, d, v);
    }
    if (rc == PTB_OK) {
        *distance = d;
        *n = k;
    }
    drop_reader(r, reader);
    free(mv);
    return ptb_space_checked(s, rc);
}

/* ==== search from scratch ==== */

typedef struct node {
    uint64_t idx;
    uint32_t parent;      /* node number; itself for a start */
    uint32_t code;        /* move from the parent */
} node;

typedef struct search {
    node *nodes;
    uint32_t count, cap;
    uint32_t *slot;       /* hash of idx -> node number + 1; 0 = empty */
    uint64_t mask;
} search;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int grow(search *h)
{
    uint64_t size = h->mask ? 2 * (h->mask + 1) : 1024;
    uint32_t *slot = calloc(size, sizeof *slot);
    node *nodes = realloc(h->nodes, (size / 2) * sizeof *nodes);
    if (!slot || !nodes) {
        free(slot);
        if (nodes)
            h->nodes = nodes;
        return PTB_ENOMEM;
    }
    h->nodes = nodes;
    h->cap = (uint32_t)(size / 2);
    h->mask = size - 1;
    free(h->slot);
    h->slot = slot;
    for (uint32_t i = 0; i < h->count; i++) {
        uint64_t j = mix(nodes[i].idx) & h->mask;
        while (slot[j])
            j = (j + 1) & h->mask;
        slot[j] = i + 1;
    }
    return PTB_OK;
}

/* Adds idx unless present; *added tells which.  Keeps the load under 1/2. */
static int visit(search *h, uint64_t idx, uint32_t parent, uint32_t code,
                 int *added)
{
    *added = 0;
    if (h->count + 1 > h->cap && grow(h) != PTB_OK)
        return PTB_ENOMEM;
    uint64_t j = mix(idx) & h->mask;
    for (; h->slot[j]; j = (j + 1) & h->mask)
        if (h->nodes[h->slot[j] - 1].idx == idx)
            return PTB_OK;
    h->nodes[h->count] = (node){ idx, parent, code };
    h->slot[j] = ++h->count;
    *added = 1;
    return PTB_OK;
}

/* Replays the line that ends at node 'end' into out. */
static int replay(const ptb_space *s, const search *h, uint32_t end,
                  const ptb_position *starts, unsigned nstarts,
                  ptb_solution *out)
{
    uint32_t line[PTB_MAX_DISTANCE + 1];
    unsigned len = 0;
    uint32_t k = end;
    for (; h->nodes[k].parent != k; k = h->nodes[k].parent) {
        if (len == PTB_MAX_DISTANCE)
            return PTB_ERANGE;
        line[len++] = k;
    }
    for (unsigned i = 0; i < nstarts; i++)
        if (starts[i].idx == h->nodes[k].idx) {
            out->start = starts[i];
            break;
        }
    ptb_position pos = out->start;
    for (unsigned i = 0; i < len; i++) {
        const node *nd = &h->nodes[line[len - 1 - i]];
        ptb_move m = { nd->idx, nd->code };
        s->p->apply(s->ctx, &pos, &m);
        out->move[i] = m;
        out->after[i] = pos;
    }
    out->distance = len;
    return PTB_OK;
}

int ptb_search(const ptb_space *s, const ptb_position *given, unsigned n,
               ptb_solution *out)
{
    const ptb_puzzle *p = s->p;
    search h = { 0 };
    ptb_move *mv;
    ptb_position starts[2];
    int rc = PTB_NOTFOUND, added;
    long found = -1;
    if (n == 0 || n > 2)
        return PTB_EINVAL;
    for (unsigned i = 0; i < n; i++)
        starts[i] = *ptb_ranked(s, &given[i], &starts[i]);
    for (unsigned i = 0; i < n; i++)
        if (!ptb_in_space(s, starts[i].sub, starts[i].idx) ||
            starts[i].sub != starts[0].sub)
            return PTB_EINVAL;
    if (!(mv = ptb_move_list(s, sizeof *mv)))
        return PTB_ENOMEM;
    uint32_t sub = starts[0].sub;
    out->start = starts[0];
    out->distance = PTB_UNSOLVABLE;
    for (unsigned i = 0; i < n && found < 0; i++) {
        if (visit(&h, starts[i].idx, h.count, 0, &added) != PTB_OK)
            goto nomem;
        if (added && p->is_goal(s->ctx, sub, starts[i].idx))
            found = h.count - 1;
    }
    for (uint32_t q = 0; q < h.count && found < 0; q++) {
        unsigned k = p->moves(s->ctx, sub, h.nodes[q].idx, mv);
        for (unsigned i = 0; i < k && found < 0; i++) {
            if (visit(&h, mv[i].to, q, mv[i].code, &added) != PTB_OK)
                goto nomem;
            if (added && p->is_goal(s->ctx, sub, mv[i].to))
                found = h.count - 1;
        }
    }
    if (found >= 0)
        rc = replay(s, &h, (uint32_t)found, starts, n, out);
    free(h.nodes);
    free(h.slot);
    free(mv);
    return ptb_space_checked(s, rc);
nomem:
    free(h.nodes);
    free(h.slot);
    free(mv);
    return PTB_ENOMEM;
}
