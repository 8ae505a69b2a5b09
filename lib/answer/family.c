/* lib/answer/family.c: every puzzle of a family (ptb_family_solve): the
 * layouts a description covers with 'covers mixes' split into their
 * components, each solvable one solved once, and the "interesting" ones
 * kept, as Michael Fogleman's Rush Hour database keeps them (github
 * fogleman/rush, cpp/src/cluster.cpp; "Rush Hour", 2018).  The
 * definitions below follow his, so that the results compare with his
 * program's one to one (tests/t_family.sh); nothing here knows Rush Hour:
 * the family is its description (doc/guide.md, "Families").
 *
 * The family.  A description with 'covers mixes N' (every layout of its
 * distinct pieces and any number of the others), every piece moving along
 * its axis, plus lines 'family KEY VALUE' this file reads:
 *   family walls W     at most W (0 or 1) more walls, each on any cell:
 *                      the same description with a wall there is one more
 *                      space (sl_walled());
 *   family alone       no other piece moves along a distinct piece's
 *                      line: its row when it moves across, else its
 *                      column;
 *   family open-lines  no row is filled by walls and pieces that move
 *                      across, and no column by pieces that move down
 *                      (Fogleman's enumerator leaves such boards out; it
 *                      counts walls in a row, not in a column).
 * Pieces never pass each other on their line, so those are properties of a
 * component, tested on the goal its search would start from.
 *
 * The order.  Layouts compare as Fogleman's boards do: by the cells of the
 * pieces that move across and the walls, as a binary number in which cell
 * c weighs 2^c, then by the cells of the pieces that move down.
 *
 * The computation, per space.  Every component that holds a goal is
 * searched once, from a goal of the space's list (the goals that pass the
 * filters, in rank order, from the engine's walk of them:
 * sl_state_goals()) whose component was not searched yet.  A search finds
 * the component's layouts by a hash of their anchors, makes their moves
 * itself (every piece slides along its axis) and keeps them as edges;
 * then a breadth-first search from its goals over those edges gives the
 * component's size, its histogram of distances and its farthest layout
 * least in the order (his "unsolved" board).  Its goals' ranks
 * (sl_state_index()) mark them searched, in a bit array, and the least of
 * them claims the component: threads share the goals, and when two search
 * one component at once, one keeps it.  In a space with a family wall, a
 * goal none of whose pieces moves along a line of the wall is left out:
 * its component is one of the base space's, the wall changing none of its
 * moves, so not minimal (meets()).
 *
 * Minimal.  Every piece but the distinct ones, and the family wall,
 * matters: the farthest layout without it (D moves from a goal) has a goal
 * nearer.  A piece that some optimal line from it moves matters (the line
 * less that piece's moves is shorter): the optimal lines' moves, followed
 * over the edges, give those (moved()); for each other piece, and the
 * wall, a breadth-first search from the layout without it looks for a goal
 * at most D - 1 moves away (without the wall: on the base space's board).
 * Fogleman tests the pieces his solver's one solution leaves in place,
 * each by solving the board without it: the same test, as a piece that
 * solution moves matters anyway.  His canonical board, the least of the
 * component, serves only to letter the pieces, and any layout of the
 * component letters them alike: pieces keep their order on their lines.
 *
 * Upside down.  When the family is its own image upside down (flips()),
 * the space with the wall in a row below the middle is not searched: the
 * one with the wall at the image cell gives its puzzles, each component
 * turned (keep_flipped(): its farthest layout least in the order once
 * turned, tested for minimality and drawn turned; minimality is decided on
 * that one layout, so a component and its image need not both be kept).
 * In a space that is its own image (the base space, or a wall in the
 * middle row), a component and its image, when they are two, are found by
 * one search and claimed together (the least rank of either's goals).
 *
 * Threads.  The spaces with a family wall need nothing of each other (the
 * base space's board serves their minimality, not its results): threads
 * share them, a space a thread; the base space's goals are shared instead.
 *
 * A kept puzzle is printed as his program prints it: the moves (two
 * digits at least), the farthest layout, a character a cell in reading
 * order ('.' empty, 'x' a wall, the pieces lettered from 'A' in the order
 * his enumerator adds them to the canonical board: the distinct pieces,
 * then the rows, the first distinct piece's row first, each left to right
 * with its walls and pieces that move across, then the columns left to
 * right, each top to bottom with its pieces that move down), the
 * component's size and its histogram.  Puzzles are ordered by moves,
 * then by board.
 *
 * May touch: its arguments and the heap.  No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "puzzles/slide.h"

#define FAR 0xFF                 /* a distance: not reached */
#define MAX_FAMILY_WALLS 1
#define MAX_FAMILY_LAYOUTS ((uint64_t)1 << 32)   /* a space's states: its
                                                    goals' list and bits */
#define KEY_PIECES 21            /* the most pieces of a layout (ckey) */

typedef struct fam_level {
    unsigned moves;
    uint64_t states;
    char board[SL_MAX_CELLS + 1];
    uint64_t *hist;              /* moves + 1 counts */
} fam_level;

struct ptb_family {
    size_t n, cap;
    fam_level *level;
    char name[32];               /* the description's */
    char *text;                  /* the family as given (levels.c) */
};

typedef struct fam_opts {
    unsigned walls;
    int alone, open_lines;
} fam_opts;

/* A space of the family: the description with its family walls. */
typedef struct variant {
    const sl_desc *d;
    ptb_space *s;
    uint64_t n, extra;           /* its states; its family walls */
    uint64_t *seen;              /* a bit a state: a goal whose component
                                    was searched */
    uint64_t *list, listed;      /* its goals */
    int mirrored;                /* its puzzles stand for their images
                                    upside down too, in the space with
                                    the image wall (flips()) */
    int flip;                    /* it is its own image upside down: a
                                    component's image is one of its own */
    int8_t next[SL_MAX_KINDS][SL_MAX_CELLS][2];   /* make_steps() */
} variant;

/* A layout's pieces and its place in the order. */
typedef struct pieces {
    unsigned np;
    uint8_t kind[SL_MAX_PIECES], anchor[SL_MAX_PIECES];
    uint64_t across, down;
} pieces;

typedef struct run {
    fam_opts o;
    const variant *base;         /* the family without family walls */
    ptb_family *out;
    unsigned threads;
    int8_t (*base_next)[SL_MAX_CELLS][2];   /* the base's steps */
    int8_t flipped[SL_MAX_KINDS][SL_MAX_CELLS];   /* of each kind and
                                                     anchor, flip_anchor()
                                                     on the base's board */
} run;

/* ---- the family's lines --------------------------------------------- */

static int family_key(fam_opts *o, const char *s, size_t len, unsigned line,
                      char *err, size_t errcap)
{
    char key[32], buf[64], more;
    unsigned w;
    int at = 0;
    if (len >= sizeof buf)
        return ptb_errf(err, errcap, "line %u: family: a line too long",
                        line);
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (sscanf(buf, " family %31s%n", key, &at) != 1)
        at = 0;
    const char *rest = buf + at;
    int alone = at && rest[strspn(rest, " \t\r")] == '\0';
    if (at && !strcmp(key, "walls") && sscanf(rest, "%u %c", &w, &more) == 1
        && rest[strspn(rest, " \t")] != '-' && w <= MAX_FAMILY_WALLS)
        o->walls = w;
    else if (alone && !strcmp(key, "alone"))
        o->alone = 1;
    else if (alone && !strcmp(key, "open-lines"))
        o->open_lines = 1;
    else
        return ptb_errf(err, errcap, "line %u: family: expected 'walls 0', "
                        "'walls 1', 'alone' or 'open-lines', got '%s'",
                        line, buf + strspn(buf, " \t"));
    return PTB_OK;
}

/* The description without its family lines (each made blank, so that line
 * numbers hold), into *desc (malloc'd); the family's options into *o. */
static int split_family(const char *text, fam_opts *o, char **desc,
                        char *err, size_t errcap)
{
    size_t n = strlen(text);
    char *out = malloc(n + 1);
    unsigned line = 1;
    if (!out)
        return PTB_ENOMEM;
    memcpy(out, text, n + 1);
    memset(o, 0, sizeof *o);
    for (char *s = out; *s; line++) {
        char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        size_t b = strspn(s, " \t");
        if (len >= b + 7 && !memcmp(s + b, "family", 6) &&
            (s[b + 6] == ' ' || s[b + 6] == '\t')) {
            int rc = family_key(o, s, len, line, err, errcap);
            if (rc != PTB_OK) {
                free(out);
                return rc;
            }
            memset(s, ' ', len);
        }
        s += len + (end != NULL);
    }
    *desc = out;
    return PTB_OK;
}

/* Whether the family's description fits the computation. */
static int check_desc(const sl_desc *d, char *err, size_t errcap)
{
    unsigned distinct = 0;
    if (!d->mixes)
        return ptb_errf(err, errcap, "a family's description covers mixes "
                        "('covers mixes N'), not '%s'", d->reachable
                        ? "covers reachable" : "covers layouts");
    for (unsigned k = 0; k < d->nkinds; k++) {
        if (d->kind[k].axis == SL_FREE)
            return ptb_errf(err, errcap, "piece '%c' moves both ways: in a "
                            "family every piece moves along its axis "
                            "('axis all')", d->kind[k].shown);
        distinct += d->kind[k].label != 0;
    }
    if (!distinct)
        return ptb_errf(err, errcap, "a family needs a distinct piece "
                        "('distinct X'), the one its goals move");
    unsigned open = 0, least = SL_MAX_CELLS;
    for (unsigned c = 0; c < d->n; c++)
        open += !(d->walls >> c & 1);
    for (unsigned k = 0; k < d->nkinds; k++)
        least = d->kind[k].cells < least ? d->kind[k].cells : least;
    if (open / least > KEY_PIECES)
        return ptb_errf(err, errcap, "a family's layouts may hold %u "
                        "pieces, more than %u", open / least, KEY_PIECES);
    return PTB_OK;
}

/* ---- a component's search ------------------------------------------ */

/* A layout in a component: where each of the seed's pieces stands on its
 * line, in the seed's order (pieces never leave their line nor pass each
 * other, and one kind's are told apart by their place), three bits each
 * (a line has at most 8 cells), piece j at bit 3j. */
typedef struct ckey {
    uint64_t w;
} ckey;

static unsigned key_get(const ckey *k, unsigned j)
{
    return (unsigned)(k->w >> 3 * j & 7);
}

static void key_set(ckey *k, unsigned j, unsigned pos)
{
    k->w = (k->w & ~((uint64_t)7 << 3 * j)) | (uint64_t)pos << 3 * j;
}

static int key_same(const ckey *a, const ckey *b)
{
    return a->w == b->w;
}

static uint64_t key_hash(const ckey *k)
{
    uint64_t h = k->w * 0x9e3779b97f4a7c15u;
    return h ^ h >> 29;
}

/* A slot of the hash: a layout's key and 1 + its number, in use when gen
 * is the search's. */
typedef struct cslot {
    ckey key;
    uint32_t id, gen;
} cslot;

/* A component's layouts, found again by their hash; each one's moves as
 * edges between them (first[m] .. first[m + 1]); the distances of a
 * breadth-first search from its goals. */
typedef struct csearch {
    const sl_desc *d;
    int8_t (*next)[SL_MAX_CELLS][2];   /* steps (make_steps()) */
    unsigned np, metric;
    uint8_t kind[KEY_PIECES];
    uint8_t line[KEY_PIECES], step[KEY_PIECES];   /* of each piece, the
                                                     anchor at place 0 of
                                                     its line and from one
                                                     place to the next */
    uint8_t place[2][SL_MAX_CELLS];  /* of each cell, its column, its row */
    int8_t distinct[SL_MAX_KINDS];   /* of a distinct kind, its piece; -1 */
    ckey *key;
    uint8_t *dist, *mark;
    uint32_t *first, *edge, *queue, gen;
    cslot *slot;
    uint64_t size, cap, nedge, mask;
    size_t edgecap;
} csearch;

static void cs_free(csearch *cs)
{
    free(cs->key);
    free(cs->dist);
    free(cs->mark);
    free(cs->first);
    free(cs->edge);
    free(cs->slot);
    free(cs->queue);
}

static void cs_put(csearch *cs, const ckey *k, uint32_t m)
{
    uint64_t h = key_hash(k) & cs->mask;
    while (cs->slot[h].gen == cs->gen)
        h = (h + 1) & cs->mask;
    cs->slot[h].key = *k;
    cs->slot[h].id = m;
    cs->slot[h].gen = cs->gen;
}

/* Room for twice the layouts, and the hash made again. */
static int cs_grow(csearch *cs)
{
    uint64_t cap = cs->cap ? 2 * cs->cap : 1024;
    ckey *key = realloc(cs->key, cap * sizeof *key);
    if (key)
        cs->key = key;
    uint8_t *dist = realloc(cs->dist, cap), *mark = realloc(cs->mark, cap);
    if (dist)
        cs->dist = dist;
    if (mark)
        cs->mark = mark;
    uint32_t *first = realloc(cs->first, (cap + 1) * sizeof *first);
    if (first)
        cs->first = first;
    uint32_t *queue = realloc(cs->queue, cap * sizeof *queue);
    if (queue)
        cs->queue = queue;
    free(cs->slot);
    cs->slot = calloc(2 * cap, sizeof *cs->slot);
    if (!key || !dist || !mark || !first || !queue || !cs->slot ||
        cap >> 31)
        return PTB_ENOMEM;
    cs->cap = cap;
    cs->mask = 2 * cap - 1;
    cs->gen = 1;
    for (uint64_t m = 0; m < cs->size; m++)
        cs_put(cs, &cs->key[m], (uint32_t)m);
    return PTB_OK;
}

/* The layout of key k, added when new; UINT32_MAX: out of memory. */
static uint32_t cs_find(csearch *cs, const ckey *k)
{
    uint64_t h = key_hash(k) & cs->mask;
    for (; cs->slot[h].gen == cs->gen; h = (h + 1) & cs->mask)
        if (key_same(&cs->slot[h].key, k))
            return cs->slot[h].id;
    if (cs->size == cs->cap) {
        if (cs_grow(cs) != PTB_OK)
            return UINT32_MAX;
        h = key_hash(k) & cs->mask;
        while (cs->slot[h].gen == cs->gen)
            h = (h + 1) & cs->mask;
    }
    cs->key[cs->size] = *k;
    cs->slot[h].key = *k;
    cs->slot[h].id = (uint32_t)cs->size;
    cs->slot[h].gen = cs->gen;
    return (uint32_t)cs->size++;
}

static int cs_edge(csearch *cs, uint32_t to)
{
    void *e = cs->edge;
    if (cs->nedge >> 32 ||
        ptb_room(&e, &cs->edgecap, cs->nedge, sizeof *cs->edge, 8192))
        return PTB_ENOMEM;
    cs->edge = e;
    cs->edge[cs->nedge++] = to;
    return PTB_OK;
}

/* Of each kind and anchor, the anchor a step back and a step on along its
 * axis where it lies on the board, or -1. */
static void make_steps(const sl_desc *d, int8_t (*next)[SL_MAX_CELLS][2])
{
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned a = 0; a < d->n; a++)
            for (unsigned i = 0; i < 2; i++) {
                const sl_kind *kd = &d->kind[k];
                int b = (int)a + (i ? 1 : -1) *
                        (kd->axis == SL_ACROSS ? 1 : (int)d->w);
                int ok = b >= 0 && b < (int)d->n && kd->fit >> a & 1 &&
                         kd->fit >> b & 1 &&
                         (kd->axis != SL_ACROSS || b / d->w == a / d->w);
                next[k][a][i] = (int8_t)(ok ? b : -1);
            }
}

/* The anchors a piece of kind k at anchor a may move to along its axis
 * in the metric, the other pieces covering 'other'. */
static unsigned dests(const csearch *cs, unsigned k, unsigned a,
                      uint64_t other, uint8_t *out)
{
    const uint64_t shape = cs->d->kind[k].shape;
    unsigned n = 0;
    for (unsigned i = 0; i < 2; i++)
        for (int b = cs->next[k][a][i];
             b >= 0 && !(shape << b & other); b = cs->next[k][b][i]) {
            out[n++] = (uint8_t)b;
            if (cs->metric == SL_STEP)
                break;
        }
    return n;
}

static uint64_t cells_of(const csearch *cs, const uint8_t *a)
{
    uint64_t occ = 0;
    for (unsigned j = 0; j < cs->np; j++)
        occ |= cs->d->kind[cs->kind[j]].shape << a[j];
    return occ;
}

static void anchors_of(const csearch *cs, const ckey *k, uint8_t *a)
{
    for (unsigned j = 0; j < cs->np; j++)
        a[j] = (uint8_t)(cs->line[j] + key_get(k, j) * cs->step[j]);
}

/* The place on piece j's line of anchor a. */
static unsigned place_of(const csearch *cs, unsigned j, unsigned a)
{
    return cs->place[cs->step[j] != 1][a];
}

/* Layout m's moves, their layouts added: as its edges, or (edges 0) with
 * the new ones one farther than m. */
static int cs_moves(csearch *cs, uint64_t m, int edges)
{
    uint8_t a[KEY_PIECES], to[SL_MAX_CELLS];
    ckey k = cs->key[m];
    anchors_of(cs, &k, a);
    uint64_t occ = cells_of(cs, a);
    for (unsigned j = 0; j < cs->np; j++) {
        unsigned kd = cs->kind[j];
        uint64_t other = occ & ~(cs->d->kind[kd].shape << a[j]);
        unsigned n = dests(cs, kd, a[j], other, to);
        for (unsigned i = 0; i < n; i++) {
            key_set(&k, j, place_of(cs, j, to[i]));
            uint64_t size = cs->size;
            uint32_t t = cs_find(cs, &k);
            if (t == UINT32_MAX || (edges && cs_edge(cs, t) != PTB_OK))
                return PTB_ENOMEM;
            if (!edges && cs->size > size)
                cs->dist[t] = (uint8_t)(cs->dist[m] + 1);
        }
        key_set(&k, j, place_of(cs, j, a[j]));
    }
    return PTB_OK;
}

/* Whether a distinct piece that goal gl places stands elsewhere. */
static int goal_misses(const csearch *cs, const sl_goal *gl, const ckey *k)
{
    for (unsigned i = 0; i < gl->n; i++) {
        int j = cs->distinct[gl->kind[i]];
        if (j >= 0 && cs->line[j] + key_get(k, (unsigned)j) * cs->step[j] !=
                          gl->anchor[i])
            return 1;
    }
    return 0;
}

static int cs_goal(const csearch *cs, const ckey *k)
{
    uint8_t a[KEY_PIECES];
    int decoded = 0;
    uint64_t occ = 0;
    for (unsigned g = 0; g < cs->d->ngoals; g++) {
        const sl_goal *gl = &cs->d->goal[g];
        if (goal_misses(cs, gl, k))
            continue;
        if (!decoded) {
            anchors_of(cs, k, a);
            occ = cells_of(cs, a);
            decoded = 1;
        }
        unsigned met = 0;
        for (unsigned i = 0; i < gl->n; i++)
            for (unsigned j = 0; j < cs->np; j++)
                met += a[j] == gl->anchor[i] && cs->kind[j] == gl->kind[i];
        if (!(occ & gl->empty) && met == gl->n)
            return 1;
    }
    return 0;
}

/* The distances from the goals, by a breadth-first search on the edges. */
static int cs_distances(csearch *cs)
{
    uint64_t head = 0, tail = 0;
    for (uint64_t m = 0; m < cs->size; m++) {
        cs->dist[m] = cs_goal(cs, &cs->key[m]) ? 0 : FAR;
        if (!cs->dist[m])
            cs->queue[tail++] = (uint32_t)m;
    }
    while (head < tail) {
        uint32_t m = cs->queue[head++];
        unsigned d = cs->dist[m] + 1u;
        for (uint64_t e = cs->first[m]; e < cs->first[m + 1]; e++)
            if (cs->dist[cs->edge[e]] == FAR) {
                if (d >= FAR)
                    return PTB_ERANGE;
                cs->dist[cs->edge[e]] = (uint8_t)d;
                cs->queue[tail++] = cs->edge[e];
            }
    }
    return PTB_OK;
}

/* The component of the layout pc (at most KEY_PIECES pieces): every layout
 * a move away, again and again, and their distances. */
/* A new search whose only layout is pc's. */
static int cs_start(csearch *cs, const pieces *pc)
{
    ckey k = { 0 };
    const sl_desc *d = cs->d;
    cs->np = pc->np;
    memcpy(cs->kind, pc->kind, pc->np);
    for (unsigned c = 0; c < d->n; c++) {
        cs->place[0][c] = (uint8_t)(c % d->w);
        cs->place[1][c] = (uint8_t)(c / d->w);
    }
    memset(cs->distinct, -1, sizeof cs->distinct);
    for (unsigned j = 0; j < pc->np; j++) {
        unsigned a = pc->anchor[j];
        int across = d->kind[pc->kind[j]].axis == SL_ACROSS;
        if (d->kind[pc->kind[j]].label)
            cs->distinct[pc->kind[j]] = (int8_t)j;
        cs->step[j] = (uint8_t)(across ? 1 : d->w);
        cs->line[j] = (uint8_t)(across ? a - a % d->w : a % d->w);
        key_set(&k, j, place_of(cs, j, a));
    }
    cs->size = cs->nedge = 0;
    if (++cs->gen == 0) {            /* (every slot free again) */
        memset(cs->slot, 0, (cs->mask + 1) * sizeof *cs->slot);
        cs->gen = 1;
    }
    int rc = cs->cap ? PTB_OK : cs_grow(cs);
    if (rc == PTB_OK && cs_find(cs, &k) == UINT32_MAX)
        rc = PTB_ENOMEM;
    if (rc == PTB_OK)
        cs->dist[0] = 0;
    return rc;
}

/* Whether a goal lies at most 'limit' moves from the layout pc, into
 * *near: a breadth-first search from it, cut at that depth. */
static int cs_near(csearch *cs, const pieces *pc, unsigned limit, int *near)
{
    int rc = cs_start(cs, pc);
    *near = 0;
    for (uint64_t m = 0; rc == PTB_OK && m < cs->size && !*near; m++)
        if (cs_goal(cs, &cs->key[m]))
            *near = 1;
        else if (cs->dist[m] < limit)
            rc = cs_moves(cs, m, 0);
    return rc;
}

static int cs_run(csearch *cs, const pieces *pc)
{
    int rc = cs_start(cs, pc);
    for (uint64_t m = 0; rc == PTB_OK && m < cs->size; m++) {
        cs->first[m] = (uint32_t)cs->nedge;
        rc = cs_moves(cs, m, 1);
    }
    if (rc == PTB_OK) {
        cs->first[cs->size] = (uint32_t)cs->nedge;
        rc = cs_distances(cs);
    }
    return rc;
}

/* ---- a component ---------------------------------------------------- */

static void order_of(const sl_desc *d, pieces *pc)
{
    pc->across = pc->down = 0;
    for (unsigned j = 0; j < pc->np; j++) {
        const sl_kind *k = &d->kind[pc->kind[j]];
        if (k->axis == SL_ACROSS)
            pc->across |= k->shape << pc->anchor[j];
        else
            pc->down |= k->shape << pc->anchor[j];
    }
}

static int before(const pieces *a, const pieces *b)
{
    return a->across != b->across ? a->across < b->across
                                  : a->down < b->down;
}

/* What the search of a component finds. */
typedef struct component {
    uint64_t size, hist[FAR];
    unsigned moves;
    uint32_t at;                 /* the farthest layout's number */
    pieces far;
} component;

/* The component's figures from its search, and the ranks of its goals
 * into rank[] (their number into *ng). */
static void sum_up(const csearch *cs, const variant *v, component *c,
                   uint64_t *rank, uint64_t *ng)
{
    pieces pc;
    memset(c, 0, sizeof *c);
    c->size = cs->size;
    pc.np = cs->np;
    memcpy(pc.kind, cs->kind, cs->np);
    *ng = 0;
    for (uint64_t m = 0; m < cs->size; m++) {
        unsigned d = cs->dist[m];
        c->hist[d]++;
        if (d == 0 || d >= c->moves)
            anchors_of(cs, &cs->key[m], pc.anchor);
        if (d == 0)
            rank[(*ng)++] = sl_state_index(v->s, pc.np, pc.kind, pc.anchor);
        if (d < c->moves)
            continue;
        order_of(v->d, &pc);
        if (d > c->moves || c->hist[d] == 1 || before(&pc, &c->far)) {
            c->far = pc;
            c->moves = d;
            c->at = (uint32_t)m;
        }
    }
}

/* The component's goals marked searched, when this search is the first
 * to claim it (another thread's may have found it too): 1, or 0 when
 * another did. */
static int claim(variant *v, const uint64_t *rank, uint64_t ng)
{
    uint64_t least = 0;
    for (uint64_t i = 1; i < ng; i++)
        least = rank[i] < rank[least] ? i : least;
    uint64_t bit = (uint64_t)1 << rank[least] % 64;
    if (__atomic_fetch_or(&v->seen[rank[least] / 64], bit,
                          __ATOMIC_RELAXED) & bit)
        return 0;
    for (uint64_t i = 0; i < ng; i++)
        __atomic_fetch_or(&v->seen[rank[i] / 64],
                          (uint64_t)1 << rank[i] % 64, __ATOMIC_RELAXED);
    return 1;
}

/* The family's filters, on a layout of the component (they hold for all
 * or none). */
static int passes(const run *r, const variant *v, const pieces *pc)
{
    const sl_desc *d = v->d;
    uint64_t row = ((uint64_t)1 << d->w) - 1, col = 0;
    for (unsigned y = 0; y < d->h; y++)
        col |= (uint64_t)1 << y * d->w;
    for (unsigned j = 0; r->o.alone && j < pc->np; j++) {
        const sl_kind *k = &d->kind[pc->kind[j]];
        uint64_t cells = k->shape << pc->anchor[j], line = 0;
        if (!k->label)
            continue;
        for (unsigned y = 0; k->axis == SL_ACROSS && y < d->h; y++)
            line |= cells & row << y * d->w ? row << y * d->w : 0;
        for (unsigned x = 0; k->axis != SL_ACROSS && x < d->w; x++)
            line |= cells & col << x ? col << x : 0;
        if (((k->axis == SL_ACROSS ? pc->across : pc->down) & line) != cells)
            return 0;
    }
    for (unsigned y = 0; r->o.open_lines && y < d->h; y++)
        if (((pc->across | d->walls) >> y * d->w & row) == row)
            return 0;
    for (unsigned x = 0; r->o.open_lines && x < d->w; x++)
        if ((pc->down & col << x) == col << x)
            return 0;
    return 1;
}

/* ---- a space's goals ------------------------------------------------ */

typedef struct goal_arg {
    const run *r;
    variant *v;
    size_t cap;
    int rc;
} goal_arg;

/* Whether a piece of pc may ever cover a cell of 'wall' (a family wall)
 * on the board without it: one that moves across on a row of the wall, or
 * down in a column of it.  When none may, the wall changes no move of the
 * component, which is then one of the base space (the same moves,
 * distances and farthest layout), and so not minimal. */
static int meets(const sl_desc *d, const pieces *pc, uint64_t wall)
{
    uint64_t row = ((uint64_t)1 << d->w) - 1, col = 0, lines = 0;
    for (unsigned y = 0; y < d->h; y++)
        col |= (uint64_t)1 << y * d->w;
    for (unsigned y = 0; y < d->h; y++)
        lines |= pc->across & row << y * d->w ? row << y * d->w : 0;
    for (unsigned x = 0; x < d->w; x++)
        lines |= pc->down & col << x ? col << x : 0;
    return (lines & wall) != 0;
}

/* Goal i, whose layout has the kind + 1 of each anchor in at[], listed
 * when it passes the family's filters (and, in a space with a family
 * wall, some piece may meet the wall: meets()). */
static void add_goal(void *arg, uint64_t i, const uint8_t *at)
{
    goal_arg *g = arg;
    variant *v = g->v;
    pieces pc = { .np = 0 };
    for (unsigned c = 0; c < v->d->n; c++)
        if (at[c] && pc.np < SL_MAX_PIECES) {
            pc.kind[pc.np] = (uint8_t)(at[c] - 1);
            pc.anchor[pc.np++] = (uint8_t)c;
        }
    order_of(v->d, &pc);
    void *l = v->list;
    if (g->rc != PTB_OK || !passes(g->r, v, &pc) ||
        (v->extra && !meets(v->d, &pc, v->extra)) ||
        (g->rc = ptb_room(&l, &g->cap, v->listed, sizeof i, 4096)))
        return;
    v->list = l;
    v->list[v->listed++] = i;
}

/* ---- a kept puzzle -------------------------------------------------- */

/* The place of piece j of pc on its line among the pieces of its axis
 * (not distinct) that share the line, from the left or the top. */
static unsigned on_line(const sl_desc *d, const pieces *pc, unsigned j)
{
    const sl_kind *k = &d->kind[pc->kind[j]];
    unsigned a = pc->anchor[j], n = 0;
    for (unsigned i = 0; i < pc->np; i++) {
        const sl_kind *o = &d->kind[pc->kind[i]];
        unsigned b = pc->anchor[i];
        n += !o->label && o->axis == k->axis && b < a &&
             (k->axis == SL_ACROSS ? b / d->w == a / d->w
                                   : b % d->w == a % d->w);
    }
    return n;
}

/* The letter of each piece of the least layout (Fogleman's piece order,
 * above), by line and place: across[row][place], down[column][place]. */
typedef struct letters {
    char across[SL_MAX_H][SL_MAX_W], down[SL_MAX_W][SL_MAX_H];
    char distinct[SL_MAX_KINDS];
} letters;

static void letter_rows(const sl_desc *d, uint64_t walls, const pieces *pc,
                        unsigned y, char *next, letters *lt)
{
    for (unsigned c = y * d->w; c < (y + 1) * d->w; c++) {
        if (walls >> c & 1) {
            (*next)++;
            continue;
        }
        for (unsigned j = 0; j < pc->np; j++) {
            const sl_kind *k = &d->kind[pc->kind[j]];
            if (pc->anchor[j] == c && !k->label && k->axis == SL_ACROSS)
                lt->across[y][on_line(d, pc, j)] = (*next)++;
        }
    }
}

static void letter(const sl_desc *d, uint64_t walls, const pieces *pc,
                   letters *lt)
{
    char next = 'A';
    unsigned first = d->h;
    memset(lt, 0, sizeof *lt);
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned j = 0; d->kind[k].label && j < pc->np; j++)
            if (pc->kind[j] == k) {
                lt->distinct[k] = next++;
                first = first < d->h ? first : pc->anchor[j] / d->w;
            }
    if (first < d->h)
        letter_rows(d, walls, pc, first, &next, lt);
    for (unsigned y = 0; y < d->h; y++)
        if (y != first)
            letter_rows(d, walls, pc, y, &next, lt);
    for (unsigned c = 0; c < d->n; c++) {       /* (columns, then rows) */
        unsigned a = c % d->h * d->w + c / d->h;
        for (unsigned j = 0; j < pc->np; j++) {
            const sl_kind *k = &d->kind[pc->kind[j]];
            if (pc->anchor[j] == a && !k->label && k->axis == SL_DOWN)
                lt->down[a % d->w][on_line(d, pc, j)] = next++;
        }
    }
}

/* A layout drawn with its letters (the same from any layout of its
 * component: the pieces keep their order on their lines). */
static void draw(const sl_desc *d, uint64_t walls, const pieces *f,
                 char *board)
{
    letters lt;
    letter(d, walls, f, &lt);
    for (unsigned i = 0; i < d->n; i++)
        board[i] = walls >> i & 1 ? 'x' : '.';
    board[d->n] = '\0';
    for (unsigned j = 0; j < f->np; j++) {
        const sl_kind *k = &d->kind[f->kind[j]];
        unsigned a = f->anchor[j], at = on_line(d, f, j);
        char ch = k->label ? lt.distinct[f->kind[j]]
                  : k->axis == SL_ACROSS ? lt.across[a / d->w][at]
                                         : lt.down[a % d->w][at];
        for (unsigned o = 0; o < 64; o++)
            if (k->shape >> o & 1)
                board[a + o] = ch;
    }
}

/* Room for n puzzles in fam. */
static int fam_room(ptb_family *fam, size_t n)
{
    void *l = fam->level;
    int rc = n ? ptb_room(&l, &fam->cap, n - 1, sizeof *fam->level, 256)
               : PTB_OK;
    fam->level = l;
    return rc;
}

static int keep(ptb_family *fam, const sl_desc *d, uint64_t walls,
                const component *c)
{
    if (fam_room(fam, fam->n + 1) != PTB_OK)
        return PTB_ENOMEM;
    fam_level *l = &fam->level[fam->n];
    if (!(l->hist = malloc((c->moves + 1) * sizeof *l->hist)))
        return PTB_ENOMEM;
    memcpy(l->hist, c->hist, (c->moves + 1) * sizeof *l->hist);
    l->moves = c->moves;
    l->states = c->size;
    draw(d, walls, &c->far, l->board);
    fam->n++;
    return PTB_OK;
}

/* ---- the board turned upside down ------------------------------------ */

/* Cells upside down: (r, c) to (h - 1 - r, c). */
static uint64_t flip_cells(const sl_desc *d, uint64_t cells)
{
    uint64_t f = 0;
    for (unsigned c = 0; c < d->n; c++)
        if (cells >> c & 1)
            f |= (uint64_t)1 << ((d->h - 1 - c / d->w) * d->w + c % d->w);
    return f;
}

/* The anchor of a piece of kind k at a upside down, when it is a piece of
 * the same kind that lies on the board; -1 otherwise. */
static int flip_anchor(const sl_desc *d, unsigned k, unsigned a)
{
    uint64_t f = flip_cells(d, d->kind[k].shape << a);
    unsigned b = ptb_low_bit(f);
    return f && d->kind[k].shape << b == f && d->kind[k].fit >> b & 1
           ? (int)b : -1;
}

/* Whether the family is its own image upside down: the walls, each kind
 * at each anchor, and the set of goals.  Then the space with a family
 * wall at a cell and the one with it at the cell's image hold the mirror
 * images of each other's puzzles. */
static int flips(const sl_desc *d)
{
    if (flip_cells(d, d->walls) != d->walls)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned a = 0; a < d->n; a++)
            if (d->kind[k].fit >> a & 1 && flip_anchor(d, k, a) < 0)
                return 0;
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        sl_goal f = { .empty = flip_cells(d, gl->empty), .n = gl->n };
        for (unsigned i = 0; i < gl->n; i++) {
            int b = flip_anchor(d, gl->kind[i], gl->anchor[i]);
            f.kind[i] = gl->kind[i];
            f.anchor[i] = (uint8_t)(b < 0 ? 0 : b);
            if (b < 0)
                return 0;
        }
        int found = 0;
        for (unsigned h = 0; h < d->ngoals && !found; h++)
            found = d->goal[h].empty == f.empty && d->goal[h].n == f.n &&
                    !memcmp(d->goal[h].kind, f.kind, f.n) &&
                    !memcmp(d->goal[h].anchor, f.anchor, f.n);
        if (!found)
            return 0;
    }
    return 1;
}

/* ---- a space of the family ------------------------------------------ */

/* One thread's share of a space's components: its searches (of a
 * component; near a layout, on the space's board and on the base's), and
 * the puzzles it kept. */
typedef struct worker {
    csearch cs, near, base;
    component c;
    uint64_t *rank;              /* of the component's goals */
    uint64_t rankcap;
    ptb_family kept;
    int rc;
} worker;

/* A space's components, shared by the threads: the goals, taken CHUNK at
 * a time. */
#define CHUNK 1024
typedef struct sweep {
    const run *r;
    variant *v;
    worker *w;
    unsigned taken;              /* workers taken by a thread (atomic) */
    uint64_t next;               /* the next goal to take (atomic) */
} sweep;

/* The pieces that some optimal line from layout m of the search moves, a
 * bit each: the moves one nearer, from m and from every layout they lead
 * to (a search over them, marked in mark[]). */
static uint64_t moved(csearch *cs, uint32_t m)
{
    uint64_t bits = 0, all = cs->np < 64 ? ((uint64_t)1 << cs->np) - 1
                                         : UINT64_MAX;
    uint64_t head = 0, tail = 0;
    memset(cs->mark, 0, cs->size);
    cs->queue[tail++] = m;
    cs->mark[m] = 1;
    while (head < tail && bits != all) {
        m = cs->queue[head++];
        for (uint64_t e = cs->first[m]; e < cs->first[m + 1]; e++) {
            uint32_t t = cs->edge[e];
            if (cs->dist[t] + 1u != cs->dist[m])
                continue;
            for (unsigned j = 0; j < cs->np; j++)
                if (key_get(&cs->key[m], j) != key_get(&cs->key[t], j))
                    bits |= (uint64_t)1 << j;
            if (!cs->mark[t]) {
                cs->mark[t] = 1;
                cs->queue[tail++] = t;
            }
        }
    }
    return bits;
}

/* Whether the component w searched is minimal, into *ok: every piece but
 * the distinct ones, and its family wall, matters (the farthest layout
 * without it has a goal nearer).  A piece that an optimal line moves
 * matters (the line less its moves is shorter); the others are tried. */
static int minimal(worker *w, const variant *v, int *ok)
{
    const component *c = &w->c;
    const pieces *f = &c->far;
    uint64_t mv = moved(&w->cs, c->at);
    pieces less;
    int near = 1, rc = PTB_OK;
    for (unsigned j = 0; rc == PTB_OK && near && j < f->np; j++) {
        if (v->d->kind[f->kind[j]].label || (mv >> j & 1))
            continue;
        less.np = 0;
        for (unsigned i = 0; i < f->np; i++)
            if (i != j) {
                less.kind[less.np] = f->kind[i];
                less.anchor[less.np++] = f->anchor[i];
            }
        near = 0;
        if (c->moves > 0)
            rc = cs_near(&w->near, &less, c->moves - 1, &near);
    }
    if (rc == PTB_OK && near && v->extra) {
        near = 0;
        if (c->moves > 0)
            rc = cs_near(&w->base, f, c->moves - 1, &near);
    }
    *ok = near;
    return rc;
}

/* The mirror image (upside down) of the component w searched in space v,
 * kept when minimal: the farthest layout least in the order once turned
 * is tested as minimal() tests any (the test is the same upside down),
 * and drawn turned (its pieces' anchors turned by 'flipped', the run's
 * table on the board without family walls; the walls turned). */
static int keep_flipped(worker *w, const variant *v,
                        const int8_t (*flipped)[SL_MAX_CELLS])
{
    const csearch *cs = &w->cs;
    component *c = &w->c;
    pieces pc, turned, least;
    uint32_t at = 0;
    int first = 1, ok;
    pc.np = turned.np = cs->np;
    memcpy(pc.kind, cs->kind, cs->np);
    memcpy(turned.kind, cs->kind, cs->np);
    for (uint64_t m = 0; m < cs->size; m++) {
        if (cs->dist[m] != c->moves)
            continue;
        anchors_of(cs, &cs->key[m], pc.anchor);
        for (unsigned j = 0; j < pc.np; j++)
            turned.anchor[j] = (uint8_t)flipped[pc.kind[j]][pc.anchor[j]];
        order_of(v->d, &turned);
        if (first || before(&turned, &least)) {
            least = turned;
            c->far = pc;
            at = (uint32_t)m;
        }
        first = 0;
    }
    order_of(v->d, &c->far);
    c->at = at;
    int rc = minimal(w, v, &ok);
    if (rc != PTB_OK || !ok)
        return rc;
    c->far = least;
    return keep(&w->kept, v->d, flip_cells(v->d, v->d->walls), c);
}

/* The component of goal g, unless it was searched or it fails the
 * filters: searched, and kept when this search claims it and it is
 * minimal. */
/* In a space that is its own image upside down, the ranks of the images
 * of the component's ng goals after theirs in rank[]: their number, or 0
 * when the component is its own image (then those are its own goals). */
/* r's table of anchors upside down, as a constant. */
static const int8_t (*cflip(const run *r))[SL_MAX_CELLS]
{
    return (const int8_t (*)[SL_MAX_CELLS])r->flipped;
}

static uint64_t image_goals(const csearch *cs, const variant *v,
                            const int8_t (*flipped)[SL_MAX_CELLS],
                            uint64_t *rank, uint64_t ng)
{
    pieces pc;
    uint64_t n = 0;
    pc.np = cs->np;
    memcpy(pc.kind, cs->kind, cs->np);
    for (uint64_t m = 0; m < cs->size; m++) {
        if (cs->dist[m] != 0)
            continue;
        anchors_of(cs, &cs->key[m], pc.anchor);
        for (unsigned j = 0; j < pc.np; j++)
            pc.anchor[j] = (uint8_t)flipped[pc.kind[j]][pc.anchor[j]];
        rank[ng + n] = sl_state_index(v->s, pc.np, pc.kind, pc.anchor);
        for (uint64_t i = 0; n == 0 && i < ng; i++)
            if (rank[i] == rank[ng])
                return 0;
        n++;
    }
    return n;
}

/* The component of goal g, unless it was searched or it fails the
 * filters: searched, and kept when this search claims it and it is
 * minimal; its image upside down with it (keep_flipped()) when that is a
 * component of its own, of this space (claimed with it) or of the space
 * with the image wall. */
static int from_goal(const run *r, variant *v, worker *w, uint64_t g)
{
    pieces seed;
    uint64_t ng, images = 0;
    int ok;
    if (__atomic_load_n(&v->seen[g / 64], __ATOMIC_RELAXED) >> g % 64 & 1)
        return PTB_OK;
    seed.np = sl_state_pieces(v->s, g, seed.kind, seed.anchor);
    order_of(v->d, &seed);
    int rc = cs_run(&w->cs, &seed);
    if (rc == PTB_OK && 2 * w->cs.size > w->rankcap) {
        uint64_t *rank = realloc(w->rank, 2 * w->cs.cap * sizeof *rank);
        if (!rank)
            return PTB_ENOMEM;
        w->rank = rank;
        w->rankcap = 2 * w->cs.cap;
    }
    if (rc != PTB_OK)
        return rc;
    sum_up(&w->cs, v, &w->c, w->rank, &ng);
    if (v->flip)
        images = image_goals(&w->cs, v, cflip(r), w->rank, ng);
    if (!claim(v, w->rank, ng + images))
        return PTB_OK;
    rc = minimal(w, v, &ok);
    if (rc == PTB_OK && ok)
        rc = keep(&w->kept, v->d, v->d->walls, &w->c);
    if (rc == PTB_OK && (v->mirrored || images))
        rc = keep_flipped(w, v, cflip(r));
    return rc;
}

static void *sweep_thread(void *arg)
{
    sweep *sw = arg;
    worker *w = &sw->w[__atomic_fetch_add(&sw->taken, 1, __ATOMIC_RELAXED)];
    variant *v = sw->v;
    for (;;) {
        uint64_t q = __atomic_fetch_add(&sw->next, CHUNK, __ATOMIC_RELAXED);
        for (uint64_t e = q + CHUNK; w->rc == PTB_OK && q < e &&
                                      q < v->listed; q++)
            w->rc = from_goal(sw->r, v, w, v->list[q]);
        if (w->rc != PTB_OK || q >= v->listed)
            break;
    }
    return NULL;
}

/* The puzzles a worker kept, moved to fam. */
static int gather(ptb_family *fam, ptb_family *kept)
{
    if (fam_room(fam, fam->n + kept->n) != PTB_OK)
        return PTB_ENOMEM;
    if (kept->n)
        memcpy(fam->level + fam->n, kept->level,
               kept->n * sizeof *kept->level);
    fam->n += kept->n;
    kept->n = 0;
    return PTB_OK;
}

/* Every component of v that holds a goal, once each (from a goal whose
 * component was not searched yet), searched when it passes the filters,
 * and kept when minimal, into out, on 'threads' threads. */
static int components(const run *r, variant *v, unsigned threads,
                      ptb_family *out)
{
    sweep sw = { .r = r, .v = v };
    int rc = PTB_OK;
    make_steps(v->d, v->next);
    if (!(sw.w = calloc(threads, sizeof *sw.w)))
        return PTB_ENOMEM;
    for (unsigned i = 0; i < threads; i++) {
        csearch cs = { .d = v->d, .metric = v->d->metric[0],
                       .next = v->next };
        sw.w[i].cs = sw.w[i].near = cs;
        cs.d = r->base->d;
        cs.next = r->base_next;
        sw.w[i].base = cs;
    }
    ptb_run_threads(sweep_thread, &sw, threads);
    for (unsigned i = 0; i < threads; i++) {
        worker *w = &sw.w[i];
        rc = rc != PTB_OK ? rc : w->rc;
        if (rc == PTB_OK)
            rc = gather(out, &w->kept);
        for (size_t j = 0; j < w->kept.n; j++)
            free(w->kept.level[j].hist);
        free(w->kept.level);
        free(w->rank);
        cs_free(&w->cs);
        cs_free(&w->near);
        cs_free(&w->base);
    }
    free(sw.w);
    return rc;
}

static void variant_close(variant *v)
{
    const ptb_puzzle *p = v->s ? v->s->p : NULL;
    ptb_space_close(v->s);
    ptb_puzzle_free((ptb_puzzle *)p);
    free(v->seen);
    free(v->list);
    memset(v, 0, sizeof *v);
}

/* Opens the space of d with the family walls extra (d is then its
 * puzzle's, or freed) and lists its goals that pass r's filters. */
static int variant_open(const run *r, variant *v, sl_desc *d, uint64_t extra,
                        char *err, size_t errcap)
{
    ptb_puzzle *p;
    memset(v, 0, sizeof *v);
    int rc = sl_puzzle(d, &p);
    if (rc != PTB_OK) {
        sl_free(d);
        return rc;
    }
    if ((rc = ptb_space_new(p, NULL, &v->s)) != PTB_OK) {
        ptb_puzzle_free(p);
        if (rc == PTB_EINVAL)
            ptb_errf(err, errcap, "the family's layouts are too many to "
                     "rank");
        return rc;
    }
    v->d = d;
    v->extra = extra;
    v->n = v->s->p->size(v->s->ctx, 0);
    if (!sl_space_desc(v->s))
        return ptb_errf(err, errcap, "a family's description may not be its "
                        "own mirror image (give its goals a side)");
    if (v->n > MAX_FAMILY_LAYOUTS) {
        ptb_errf(err, errcap, "the family has %llu layouts, more than %llu "
                 "(2^32) that a family may have", (unsigned long long)v->n,
                 (unsigned long long)MAX_FAMILY_LAYOUTS);
        return PTB_EINVAL;
    }
    if (!(v->seen = calloc(v->n / 64 + 1, sizeof *v->seen)))
        return PTB_ENOMEM;
    goal_arg g = { r, v, 0, PTB_OK };
    sl_state_goals(v->s, add_goal, &g);
    return g.rc;
}

/* ---- the family ----------------------------------------------------- */

static int level_cmp(const void *a, const void *b)
{
    const fam_level *x = a, *y = b;
    if (x->moves != y->moves)
        return x->moves < y->moves ? -1 : 1;
    return strcmp(x->board, y->board);
}

/* The spaces with a family wall, one a cell, shared by the threads: each
 * opened, searched on one thread and let go. */
typedef struct walls_job {
    const run *r;
    const sl_desc *d;
    int flip;                    /* the family is its own image upside
                                    down: flips() */
    ptb_family *out;             /* a thread's */
    unsigned next, taken;        /* the next cell, the threads (atomic) */
    int rc;                      /* the first error (atomic) */
    char err[256];               /* its message, when it has one */
} walls_job;

static int one_wall(walls_job *j, unsigned c, ptb_family *out, char *err,
                    size_t errcap)
{
    sl_desc *w;
    variant v;
    uint64_t extra = (uint64_t)1 << c;
    unsigned y = c / j->d->w, image = j->d->h - 1 - y;
    if (j->d->walls & extra || (j->flip && y > image))
        return PTB_OK;           /* (the image of row 'image''s puzzles) */
    int rc = sl_walled(j->d, extra, &w);
    if (rc != PTB_OK || !w->ngoals) {
        sl_free(w);
        return rc;
    }
    rc = variant_open(j->r, &v, w, extra, err, errcap);
    v.mirrored = j->flip && y < image;
    v.flip = j->flip && y == image;
    if (rc == PTB_OK)
        rc = components(j->r, &v, 1, out);
    variant_close(&v);
    return rc;
}

static void *walls_thread(void *arg)
{
    walls_job *j = arg;
    ptb_family *out = &j->out[__atomic_fetch_add(&j->taken, 1,
                                                  __ATOMIC_RELAXED)];
    char err[256] = "";
    for (;;) {
        unsigned c = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (c >= j->d->n || __atomic_load_n(&j->rc, __ATOMIC_RELAXED))
            break;
        int rc = one_wall(j, c, out, err, sizeof err), ok = PTB_OK;
        if (rc != PTB_OK && __atomic_compare_exchange_n(
                &j->rc, &ok, rc, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            memcpy(j->err, err, sizeof err);
    }
    return NULL;
}

static int walled(const run *r, const sl_desc *d, char *err, size_t errcap)
{
    walls_job j = { .r = r, .d = d, .flip = flips(d) };
    int rc = PTB_OK;
    if (!r->o.walls)
        return PTB_OK;
    if (!(j.out = calloc(r->threads, sizeof *j.out)))
        return PTB_ENOMEM;
    ptb_run_threads(walls_thread, &j, r->threads);
    for (unsigned i = 0; i < r->threads; i++) {
        if (j.rc == PTB_OK && (rc = gather(r->out, &j.out[i])) != PTB_OK)
            j.rc = rc;
        for (size_t k = 0; k < j.out[i].n; k++)
            free(j.out[i].level[k].hist);
        free(j.out[i].level);
    }
    free(j.out);
    if (j.rc != PTB_OK && j.err[0])
        snprintf(err, errcap, "%s", j.err);
    return j.rc;
}

static int solve(const char *desc, const fam_opts *o, unsigned threads,
                 ptb_family *fam, char *err, size_t errcap)
{
    sl_desc *d;
    variant base;
    int rc = sl_read(desc, NULL, &d, err, errcap);
    if (rc != PTB_OK)
        return rc;
    if ((rc = check_desc(d, err, errcap)) != PTB_OK) {
        sl_free(d);
        return rc;
    }
    snprintf(fam->name, sizeof fam->name, "%s", d->name);
    run r = { .o = *o, .base = &base, .out = fam,
              .threads = threads < 1 ? 1 : threads > 256 ? 256 : threads };
    rc = variant_open(&r, &base, d, 0, err, errcap);
    if (rc == PTB_OK) {
        r.base_next = base.next;
        base.flip = flips(base.d);
        for (unsigned k = 0; k < base.d->nkinds; k++)
            for (unsigned a = 0; a < base.d->n; a++)
                r.flipped[k][a] = (int8_t)flip_anchor(base.d, k, a);
        rc = components(&r, &base, r.threads, fam);
    }
    if (rc == PTB_OK)
        rc = walled(&r, base.d, err, errcap);
    variant_close(&base);
    return rc;
}

int ptb_family_solve(const char *text, unsigned threads, ptb_family **out,
                     char *err, size_t errcap)
{
    fam_opts o;
    char *desc;
    *out = NULL;
    ptb_family *fam = calloc(1, sizeof *fam);
    if (!fam)
        return PTB_ENOMEM;
    int rc = split_family(text, &o, &desc, err, errcap);
    if (rc == PTB_OK) {
        rc = solve(desc, &o, threads, fam, err, errcap);
        free(desc);
    }
    if (rc != PTB_OK) {
        ptb_family_free(fam);
        return rc;
    }
    qsort(fam->level, fam->n, sizeof *fam->level, level_cmp);
    if (!(fam->text = strdup(text))) {
        ptb_family_free(fam);
        return PTB_ENOMEM;
    }
    *out = fam;
    return PTB_OK;
}

const char *ptb_family_name(const ptb_family *f)
{
    return f->name;
}

const char *ptb_family_text(const ptb_family *f)
{
    return f->text;
}

int ptb_family_desc(const char *text, sl_desc **out, char *err,
                    size_t errcap)
{
    fam_opts o;
    char *desc;
    *out = NULL;
    int rc = split_family(text, &o, &desc, err, errcap);
    if (rc != PTB_OK)
        return rc;
    rc = sl_read(desc, NULL, out, err, errcap);
    free(desc);
    if (rc == PTB_OK && (rc = check_desc(*out, err, errcap)) != PTB_OK) {
        sl_free(*out);
        *out = NULL;
    }
    return rc;
}

size_t ptb_family_count(const ptb_family *f)
{
    return f ? f->n : 0;
}

int ptb_family_line(const ptb_family *f, size_t i, char *buf, size_t cap)
{
    size_t len = 0;
    if (!f || i >= f->n)
        return -1;
    const fam_level *l = &f->level[i];
    ptb_catf(buf, cap, &len, "%02u %s %llu ", l->moves, l->board,
             (unsigned long long)l->states);
    for (unsigned d = 0; d <= l->moves; d++)
        ptb_catf(buf, cap, &len, d ? ",%llu" : "%llu",
                 (unsigned long long)l->hist[d]);
    return (int)len;
}

void ptb_family_free(ptb_family *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->level[i].hist);
    free(f->level);
    free(f->text);
    free(f);
}
