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
 * The computation, per space.  A layout's pieces never leave their line
 * (a row for those that move across, a column for the others) nor pass
 * each other on it, so its configuration (the kinds on each line, in
 * order) holds for its whole component, and the configuration's layouts
 * are numbered densely: a line's placements (every way to put its kinds
 * on it, in order, off the walls) in a table with their moves along the
 * line, a layout's number its lines' placements in mixed radix.  A search
 * over the lines lists the configurations with their candidate goals
 * (each distinct piece where a goal puts it), pruned as it goes: a line
 * whose sequence fails the filters, a placement that overlaps the lines
 * before it.  For each configuration that passes the filters, one
 * breadth-first search from all its goals at once, over arrays indexed by
 * number (no hash), gives every layout its distance and the goal it was
 * reached from; goals whose layouts meet are of one component (a
 * union-find); then each component's size, histogram of distances and
 * farthest layout least in the order (his "unsolved" board).  Every
 * component that holds a goal is so searched once, and no other.  In a
 * space with a family wall, a configuration none of whose pieces moves
 * along a line of the wall is left out: its components are the base
 * space's, the wall changing none of their moves, so not minimal
 * (meets()).
 *
 * Minimal.  Every piece but the distinct ones, and the family wall,
 * matters: the farthest layout without it (D moves from a goal) has a goal
 * nearer.  A piece that some optimal line from it moves matters (the line
 * less that piece's moves is shorter): the optimal lines' moves, followed
 * back from it, give those (moved()); for each other piece, and the
 * wall, a breadth-first search from the layout without it looks for a goal
 * at most D - 1 moves away: over the numbers of its configuration, the
 * line's shorter sequence (near_dense()), or over a hash of its layouts
 * when that sequence has no table (cs_near(); without the wall: on the
 * base space's board).
 * Fogleman tests the pieces his solver's one solution leaves in place,
 * each by solving the board without it: the same test, as a piece that
 * solution moves matters anyway.  His canonical board, the least of the
 * component, serves only to letter the pieces, and any layout of the
 * component letters them alike: pieces keep their order on their lines.
 *
 * Upside down.  When the family is its own image upside down (flips()),
 * the space with the wall in a row below the middle is not searched: the
 * one with the wall at the image cell gives its puzzles, each component
 * turned (its farthest layout least in the order once turned, tested for
 * minimality and drawn turned; minimality is decided on that one layout,
 * so a component and its image need not both be kept).  In a space that
 * is its own image (the base space, or a wall in the middle row), of a
 * configuration and its image, when they are two, the one whose code
 * (config_code()) is less is searched and gives the other's puzzles
 * turned.
 *
 * Threads.  Configurations need nothing of each other: threads share the
 * work a task at a time, a task a space and the sequences of the first
 * three lines the search takes.
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
#define MAX_FAMILY_LAYOUTS ((uint64_t)1 << 32)   /* the most layouts of a
                                                    family (tbgen(1)) */
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

/* A layout's pieces and its place in the order. */
typedef struct pieces {
    unsigned np;
    uint8_t kind[SL_MAX_PIECES], anchor[SL_MAX_PIECES];
    uint64_t across, down;
} pieces;

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

/* The layouts near a layout (cs_near()), found again by their hash, and
 * their distances from it. */
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
    uint8_t *dist;
    uint32_t gen;
    cslot *slot;
    uint64_t size, cap, mask;
} csearch;

static void cs_free(csearch *cs)
{
    free(cs->key);
    free(cs->dist);
    free(cs->slot);
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
    uint8_t *dist = realloc(cs->dist, cap);
    if (dist)
        cs->dist = dist;
    free(cs->slot);
    cs->slot = calloc(2 * cap, sizeof *cs->slot);
    if (!key || !dist || !cs->slot || cap >> 31)
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

/* Layout m's moves, their new layouts one farther than m. */
static int cs_moves(csearch *cs, uint64_t m)
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
            if (t == UINT32_MAX)
                return PTB_ENOMEM;
            if (cs->size > size)
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
    cs->size = 0;
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
            rc = cs_moves(cs, m);
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

/* What the search of a component finds. */
typedef struct component {
    uint64_t size, hist[FAR];
    unsigned moves;
    uint32_t at;                 /* the farthest layout's number */
    pieces far;
} component;

/* The family's filters, on a layout of the component (they hold for all
 * or none). */
static int passes(const fam_opts *o, const sl_desc *d, const pieces *pc)
{
    uint64_t row = ((uint64_t)1 << d->w) - 1, col = 0;
    for (unsigned y = 0; y < d->h; y++)
        col |= (uint64_t)1 << y * d->w;
    for (unsigned j = 0; o->alone && j < pc->np; j++) {
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
    for (unsigned y = 0; o->open_lines && y < d->h; y++)
        if (((pc->across | d->walls) >> y * d->w & row) == row)
            return 0;
    for (unsigned x = 0; o->open_lines && x < d->w; x++)
        if ((pc->down & col << x) == col << x)
            return 0;
    return 1;
}

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

/* ---- lines and configurations --------------------------------------- */

/* A line of the board is a row (the pieces anchored on it that move
 * across) or a column (those that move down): line l < h is row l, line
 * h + x column x.  Its pieces keep their order on it, so a layout's
 * configuration, the kinds on each line in order, holds for its whole
 * component, and the layouts of a configuration are numbered densely: a
 * placement a line (ltab), the number of the layout the placements' in
 * mixed radix. */
#define MAX_LINES (SL_MAX_H + SL_MAX_W)
#define LINE_PIECES SL_MAX_W     /* the most pieces on a line (one cell of
                                    it each) */
#define MAX_DENSE ((uint64_t)1 << 28)   /* a configuration's numbers */

/* A move on a line from a placement: piece 'piece' of the line slides,
 * to placement q, over the cells 'swept' (besides its own), which the
 * other lines' pieces must leave empty. */
typedef struct lmove {
    uint64_t swept;
    uint32_t q;
    uint8_t piece;
} lmove;

/* The placements of a sequence of kinds on a line: every way to put them
 * on it in that order, each on an anchor where it lies (off the walls),
 * none overlapping; of each, its anchors, cells (and upside down), and
 * moves along the line; 'seed' the placements a goal may have (each
 * distinct piece on an anchor some goal gives it, or any). */
typedef struct ltab {
    unsigned np, bits;           /* pieces; bits of a placement number */
    uint32_t n, nseed;           /* placements; those in seed[] */
    uint8_t kind[LINE_PIECES];
    uint32_t distinct;           /* its distinct kinds, a bit each */
    uint8_t *anchor;             /* n x np */
    uint64_t *cells, *turned;
    uint32_t *first, *seed;      /* moves of p: first[p] .. first[p + 1] */
    uint8_t *isseed;             /* of each placement: in seed[] */
    lmove *move;
    size_t cap, mcap, nmove;
} ltab;

/* A space of the family: the description with its family wall, if any. */
typedef struct fspace {
    const sl_desc *d;
    sl_desc *own;                /* d when it is a walled copy */
    uint64_t extra;              /* its family wall */
    int mirrored;                /* its puzzles stand for their images
                                    upside down too, in the space with the
                                    image wall (flips()) */
    int flip;                    /* it is its own image upside down: a
                                    configuration's image is one of its
                                    own */
    int simple;                  /* a layout whose distinct pieces stand
                                    where its goal puts them is a goal */
    uint64_t gset[SL_MAX_KINDS]; /* of a distinct kind, the anchors a goal
                                    puts it on (all: some goal puts it
                                    anywhere) */
    int8_t next[SL_MAX_KINDS][SL_MAX_CELLS][2];   /* make_steps() */
    unsigned ntab[MAX_LINES];
    ltab *tab[MAX_LINES];        /* each line's sequences, the lines in
                                    the search's order (order_lines()) */
    uint32_t later[MAX_LINES + 1];   /* the distinct kinds some sequence
                                        of line l or after holds */
} fspace;

typedef struct run {
    fam_opts o;
    const sl_desc *base;         /* the family without family walls */
    fspace *sp;
    unsigned nsp;
    uint32_t distinct;           /* the distinct kinds, a bit each */
    int8_t flipped[SL_MAX_KINDS][SL_MAX_CELLS];   /* of each kind and
                                                     anchor, flip_anchor()
                                                     on the base's board */
} run;

static unsigned n_lines(const sl_desc *d)
{
    return d->h + d->w;
}

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
        t->turned[p] = flip_cells(d, t->cells[p]);
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

static void space_free(fspace *sp)
{
    for (unsigned l = 0; l < MAX_LINES; l++) {
        for (unsigned i = 0; i < sp->ntab[l]; i++)
            ltab_free(&sp->tab[l][i]);
        free(sp->tab[l]);
    }
    sl_free(sp->own);
    memset(sp, 0, sizeof *sp);
}

/* The lines in the order the search takes them: those with a distinct
 * piece first, then each time the line that crosses most of the cells the
 * lines taken may cover (their goals' placements for a distinct piece),
 * so that overlaps cut the candidates early. */
static void order_lines(fspace *sp)
{
    const sl_desc *d = sp->d;
    unsigned nl = n_lines(d), n = 0, taken[MAX_LINES] = { 0 };
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
    make_steps(d, sp->next);
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
    for (unsigned l = 0; l < n_lines(d); l++) {
        uint8_t kinds[LINE_PIECES];
        tabs ts = { NULL, 0, 0 };
        int rc = seq_rec(r, sp, l, kinds, 0, 0, &ts);
        sp->tab[l] = ts.t;          /* (by line, until order_lines()) */
        sp->ntab[l] = ts.n;
        if (rc != PTB_OK)
            return rc;
    }
    order_lines(sp);
    for (unsigned l = n_lines(d); l-- > 0;) {
        sp->later[l] = sp->later[l + 1];
        for (unsigned i = 0; i < sp->ntab[l]; i++)
            sp->later[l] |= sp->tab[l][i].distinct;
    }
    return PTB_OK;
}

/* ---- a configuration's components ----------------------------------- */

/* A layout in the making: its cells, its placements' numbers (a field of
 * bits a line) and its number. */
typedef struct part {
    uint64_t occ, key;
    uint32_t idx;
} part;

/* A configuration: its lines with pieces, each one's sequence, the place
 * of its field in a key and its weight in a number. */
typedef struct cfg {
    unsigned n, np;
    const ltab *t[MAX_LINES];
    unsigned shift[MAX_LINES], first[MAX_LINES];   /* first: its first
                                                      piece's number */
    unsigned lev[MAX_LINES];     /* its level in the search (fspace.tab) */
    uint64_t mask[MAX_LINES];
    uint32_t R[MAX_LINES];
    uint64_t size;
} cfg;

#define TASK_LINES 3             /* lines a task fixes (job) */

typedef struct plist {
    part *a;
    size_t n, cap;
} plist;

/* One thread's share: the space it works in, its configuration and
 * buffers, its searches near a layout (on the space's board and the
 * base's), and the puzzles it kept. */
typedef struct worker {
    const run *r;
    const fspace *sp;
    cfg c;
    plist lvl[MAX_LINES];
    uint8_t *dist;               /* of each number: FAR, or its distance */
    uint32_t *lab, *stamp, gen;  /* its goal's label; moved()'s marks */
    uint64_t cap;                /* of dist, lab and stamp */
    uint64_t *qkey, *mkey;       /* the layouts reached, and moved()'s */
    uint32_t *qidx, *midx, *ord;
    size_t qcap, mcap, ocap;
    uint32_t *parent, *cid, *count;   /* of each goal label */
    cfg less;                    /* near_dense()'s configuration */
    uint8_t *dist2;              /* its distances (FAR: not reached) */
    uint64_t cap2, *nkey;
    uint32_t *nidx;
    size_t ncap;
    size_t gcap;
    csearch near, base;
    component comp;
    ptb_family kept;
    unsigned force[TASK_LINES];  /* the task's first lines (job) */
    int rc;
} worker;

static uint64_t decode(const cfg *c, uint64_t key, uint32_t *p)
{
    uint64_t occ = 0;
    for (unsigned i = 0; i < c->n; i++) {
        p[i] = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        occ |= c->t[i]->cells[p[i]];
    }
    return occ;
}

/* The pieces of the layout of key, lines in order (piece c->first[i] + j
 * is piece j of line i). */
static void layout_of(const sl_desc *d, const cfg *c, uint64_t key,
                      pieces *pc)
{
    pc->np = 0;
    for (unsigned i = 0; i < c->n; i++) {
        const ltab *t = c->t[i];
        uint32_t p = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        for (unsigned j = 0; j < t->np; j++) {
            pc->kind[pc->np] = t->kind[j];
            pc->anchor[pc->np++] = t->anchor[(size_t)p * t->np + j];
        }
    }
    order_of(d, pc);
}

/* Room for n layouts in the arrays *k and *i of *cap each. */
static int room2(uint64_t **k, uint32_t **i, size_t *cap, size_t n)
{
    if (n <= *cap)
        return PTB_OK;
    size_t c = *cap ? *cap : 4096;
    while (c < n)
        c *= 2;
    uint64_t *nk = realloc(*k, c * sizeof *nk);
    if (nk)
        *k = nk;
    uint32_t *ni = realloc(*i, c * sizeof *ni);
    if (ni)
        *i = ni;
    if (!nk || !ni)
        return PTB_ENOMEM;
    *cap = c;
    return PTB_OK;
}

static int push(worker *w, size_t n, uint64_t key, uint32_t idx)
{
    if (n >= w->qcap && room2(&w->qkey, &w->qidx, &w->qcap, n + 1))
        return PTB_ENOMEM;
    w->qkey[n] = key;
    w->qidx[n] = idx;
    return PTB_OK;
}

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* The pieces that some optimal line from the layout of key (number idx,
 * in a component of 'size' layouts) moves, a bit each: the moves one
 * nearer, from it and from every layout they lead to (marked in
 * stamp[]). */
static int moved(worker *w, uint64_t key, uint32_t idx, size_t size,
                 uint64_t *out)
{
    const cfg *c = &w->c;
    uint64_t bits = 0, all = c->np < 64 ? ((uint64_t)1 << c->np) - 1
                                        : UINT64_MAX;
    size_t head = 0, tail = 0;
    if (room2(&w->mkey, &w->midx, &w->mcap, size) != PTB_OK)
        return PTB_ENOMEM;
    if (++w->gen == 0) {
        memset(w->stamp, 0, w->cap * sizeof *w->stamp);
        w->gen = 1;
    }
    w->stamp[idx] = w->gen;
    w->mkey[tail] = key;
    w->midx[tail++] = idx;
    while (head < tail && bits != all) {
        uint32_t p[MAX_LINES];
        key = w->mkey[head];
        idx = w->midx[head++];
        uint64_t occ = decode(c, key, p);
        unsigned du = w->dist[idx];
        for (unsigned i = 0; i < c->n; i++) {
            const ltab *t = c->t[i];
            for (uint32_t e = t->first[p[i]]; e < t->first[p[i] + 1]; e++) {
                const lmove *mv = &t->move[e];
                if (mv->swept & occ)
                    continue;
                uint32_t ni = idx + (mv->q - p[i]) * c->R[i];
                if (w->dist[ni] + 1u != du)
                    continue;
                bits |= (uint64_t)1 << (c->first[i] + mv->piece);
                if (w->stamp[ni] == w->gen)
                    continue;
                w->stamp[ni] = w->gen;
                w->mkey[tail] = (key & ~(c->mask[i] << c->shift[i])) |
                                (uint64_t)mv->q << c->shift[i];
                w->midx[tail++] = ni;
            }
        }
    }
    *out = bits;
    return PTB_OK;
}

/* Whether the layout of key is a goal of the space. */
static int is_goal(const worker *w, const cfg *c, uint64_t key, uint64_t occ)
{
    const sl_desc *d = w->sp->d;
    pieces pc;
    layout_of(d, c, key, &pc);
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        unsigned met = 0;
        for (unsigned i = 0; i < gl->n; i++)
            for (unsigned j = 0; j < pc.np; j++)
                met += pc.anchor[j] == gl->anchor[i] &&
                       pc.kind[j] == gl->kind[i];
        if (!(occ & gl->empty) && met == gl->n)
            return 1;
    }
    return 0;
}

/* The configuration w->c less piece jj of its line i, into w->less, with
 * the number and key of the layout of key less that piece into *nidx and
 * *nkey: 0 when the shorter sequence has no table (the filters left it
 * out) or the numbers would be too many; then cs_near() searches. */
static int less_cfg(worker *w, uint64_t key, unsigned i, unsigned jj,
                    uint64_t *nkey, uint32_t *nidx)
{
    const fspace *sp = w->sp;
    const cfg *c = &w->c;
    cfg *o = &w->less;
    const ltab *t = c->t[i], *u = NULL;
    uint32_t pu = 0;
    if (t->np > 1) {
        uint8_t kinds[LINE_PIECES], at[LINE_PIECES];
        uint32_t p = (uint32_t)(key >> c->shift[i] & c->mask[i]);
        unsigned n = 0;
        for (unsigned j = 0; j < t->np; j++)
            if (j != jj) {
                kinds[n] = t->kind[j];
                at[n++] = t->anchor[(size_t)p * t->np + j];
            }
        for (unsigned x = 0; !u && x < sp->ntab[c->lev[i]]; x++) {
            const ltab *v = &sp->tab[c->lev[i]][x];
            if (v->np == n && !memcmp(v->kind, kinds, n))
                u = v;
        }
        if (!u)
            return 0;
        while (pu < u->n && memcmp(u->anchor + (size_t)pu * n, at, n))
            pu++;
        if (pu == u->n)
            return 0;
    }
    unsigned shift = 0;
    uint64_t R = 1;
    *nkey = 0;
    *nidx = 0;
    o->n = 0;
    for (unsigned k = 0; k < c->n; k++) {
        const ltab *tk = k == i ? u : c->t[k];
        uint32_t p = k == i ? pu : (uint32_t)(key >> c->shift[k] &
                                             c->mask[k]);
        if (!tk)
            continue;
        if (R * tk->n > MAX_DENSE)
            return 0;
        o->t[o->n] = tk;
        o->shift[o->n] = shift;
        o->mask[o->n] = ((uint64_t)1 << tk->bits) - 1;
        o->R[o->n] = (uint32_t)R;
        o->lev[o->n] = c->lev[k];
        o->first[o->n] = o->n ? o->first[o->n - 1] + o->t[o->n - 1]->np : 0;
        *nkey |= (uint64_t)p << shift;
        *nidx += p * (uint32_t)R;
        shift += tk->bits;
        R *= tk->n;
        o->n++;
    }
    o->size = R;
    return 1;
}

/* Whether a goal lies at most 'limit' moves from the layout of key
 * (number idx) of configuration w->less, into *near: a breadth-first
 * search from it over the configuration's numbers, cut at that depth. */
static int near_dense(worker *w, uint64_t key, uint32_t idx, unsigned limit,
                      int *near)
{
    const cfg *o = &w->less;
    size_t n = 0;
    int rc = PTB_OK;
    *near = 0;
    if (o->size > w->cap2) {
        free(w->dist2);
        w->cap2 = 0;
        if (!(w->dist2 = malloc(o->size)))
            return PTB_ENOMEM;
        memset(w->dist2, FAR, o->size);
        w->cap2 = o->size;
    }
    if (room2(&w->nkey, &w->nidx, &w->ncap, 1) != PTB_OK)
        return PTB_ENOMEM;
    w->nkey[n] = key;
    w->nidx[n++] = idx;
    w->dist2[idx] = 0;
    for (size_t h = 0; rc == PTB_OK && h < n; h++) {
        uint32_t p[MAX_LINES];
        key = w->nkey[h];
        idx = w->nidx[h];
        uint64_t occ = decode(o, key, p);
        int goal = 1;
        if (w->sp->simple)
            for (unsigned i = 0; i < o->n; i++)
                goal &= !o->t[i]->distinct || o->t[i]->isseed[p[i]];
        else
            goal = is_goal(w, o, key, occ);
        if (goal) {
            *near = 1;
            break;
        }
        unsigned du = w->dist2[idx] + 1u;
        if (du > limit)
            continue;
        for (unsigned i = 0; rc == PTB_OK && i < o->n; i++) {
            const ltab *t = o->t[i];
            for (uint32_t e = t->first[p[i]]; e < t->first[p[i] + 1]; e++) {
                const lmove *mv = &t->move[e];
                if (mv->swept & occ)
                    continue;
                uint32_t ni = idx + (mv->q - p[i]) * o->R[i];
                if (w->dist2[ni] != FAR)
                    continue;
                if ((rc = room2(&w->nkey, &w->nidx, &w->ncap, n + 1)))
                    break;
                w->dist2[ni] = (uint8_t)du;
                w->nkey[n] = (key & ~(o->mask[i] << o->shift[i])) |
                             (uint64_t)mv->q << o->shift[i];
                w->nidx[n++] = ni;
            }
        }
    }
    for (size_t h = 0; h < n; h++)
        w->dist2[w->nidx[h]] = FAR;
    return rc;
}

/* Whether the component's layout f, D = 'moves' from a goal, is minimal,
 * into *ok: every piece but the distinct ones, and the family wall,
 * matters (the layout without it has no goal nearer than D).  A piece
 * that an optimal line moves (mv, a bit each) matters (the line less its
 * moves is shorter); the others are tried. */
static int minimal(worker *w, const pieces *f, uint64_t key, uint64_t mv,
                   unsigned moves, int *ok)
{
    const sl_desc *d = w->sp->d;
    const cfg *c = &w->c;
    pieces less;
    int near = 1, rc = PTB_OK;
    for (unsigned j = 0, i = 0; rc == PTB_OK && near && j < f->np; j++) {
        uint64_t lkey;
        uint32_t lidx;
        while (i + 1 < c->n && c->first[i + 1] <= j)
            i++;                 /* (piece j is of line i) */
        if (d->kind[f->kind[j]].label || (mv >> j & 1))
            continue;
        near = 0;
        if (moves > 0 && less_cfg(w, key, i, j - c->first[i], &lkey, &lidx)) {
            rc = near_dense(w, lkey, lidx, moves - 1, &near);
            continue;
        }
        less.np = 0;
        for (unsigned i = 0; i < f->np; i++)
            if (i != j) {
                less.kind[less.np] = f->kind[i];
                less.anchor[less.np++] = f->anchor[i];
            }
        near = 0;
        if (moves > 0)
            rc = cs_near(&w->near, &less, moves - 1, &near);
    }
    if (rc == PTB_OK && near && w->sp->extra) {
        near = 0;
        if (moves > 0)
            rc = cs_near(&w->base, f, moves - 1, &near);
    }
    *ok = near;
    return rc;
}

/* The component of layouts ord[s..e) (numbers in the queue, in order of
 * distance), kept when minimal; its image upside down too when 'mirror'
 * (its farthest layout least in the order once turned, tested as any
 * and drawn turned: the image's own puzzle). */
static int one_component(worker *w, size_t s, size_t e, int mirror)
{
    const sl_desc *d = w->sp->d;
    const cfg *c = &w->c;
    component *cp = &w->comp;
    uint32_t p[MAX_LINES];
    uint64_t best[2][2] = { { 0 } }, bkey[2] = { 0 }, mv;
    uint32_t bidx[2] = { 0 };
    int found = 0, ok, rc;
    unsigned moves = w->dist[w->qidx[w->ord[e - 1]]];
    cp->size = e - s;
    cp->moves = moves;
    memset(cp->hist, 0, (moves + 1) * sizeof *cp->hist);
    for (size_t j = s; j < e; j++)
        cp->hist[w->dist[w->qidx[w->ord[j]]]]++;
    for (size_t j = e; j > s && w->dist[w->qidx[w->ord[j - 1]]] == moves;
         j--) {
        uint32_t q = w->ord[j - 1];
        uint64_t key = w->qkey[q], o[2][2] = { { 0 } };
        decode(c, key, p);
        for (unsigned i = 0; i < c->n; i++) {
            unsigned down = d->kind[c->t[i]->kind[0]].axis != SL_ACROSS;
            o[0][down] |= c->t[i]->cells[p[i]];
            o[1][down] |= c->t[i]->turned[p[i]];
        }
        for (unsigned m = 0; m < 1u + (mirror != 0); m++)
            if (!found || o[m][0] < best[m][0] ||
                (o[m][0] == best[m][0] && o[m][1] < best[m][1])) {
                best[m][0] = o[m][0];
                best[m][1] = o[m][1];
                bkey[m] = key;
                bidx[m] = w->qidx[q];
            }
        found = 1;
    }
    for (unsigned m = 0; m < 1u + (mirror != 0); m++) {
        layout_of(d, c, bkey[m], &cp->far);
        if ((rc = moved(w, bkey[m], bidx[m], cp->size, &mv)) != PTB_OK ||
            (rc = minimal(w, &cp->far, bkey[m], mv, moves, &ok)) != PTB_OK)
            return rc;
        if (!ok)
            continue;
        if (m == 1) {
            for (unsigned j = 0; j < cp->far.np; j++)
                cp->far.anchor[j] = (uint8_t)
                    w->r->flipped[cp->far.kind[j]][cp->far.anchor[j]];
            order_of(d, &cp->far);
        }
        if ((rc = keep(&w->kept, d, m ? flip_cells(d, d->walls) : d->walls,
                       cp)) != PTB_OK)
            return rc;
    }
    return PTB_OK;
}

/* Room for the configuration's numbers and for ng goal labels. */
static int dense_room(worker *w, uint64_t size, size_t ng)
{
    if (size > w->cap) {
        free(w->dist);
        free(w->lab);
        free(w->stamp);
        w->dist = malloc(size);
        w->lab = malloc(size * sizeof *w->lab);
        w->stamp = calloc(size, sizeof *w->stamp);
        w->gen = 0;
        w->cap = w->dist && w->lab && w->stamp ? size : 0;
        if (!w->cap)
            return PTB_ENOMEM;
        memset(w->dist, FAR, size);
    }
    if (ng > w->gcap) {
        size_t cap = ng + ng / 2 + 1024;
        free(w->parent);
        free(w->cid);
        free(w->count);
        w->parent = malloc(cap * sizeof *w->parent);
        w->cid = malloc(cap * sizeof *w->cid);
        w->count = malloc((cap + 1) * sizeof *w->count);
        w->gcap = w->parent && w->cid && w->count ? cap : 0;
        if (!w->gcap)
            return PTB_ENOMEM;
    }
    return PTB_OK;
}

/* Every component of the configuration that holds one of the candidate
 * goals g[0..ng): a breadth-first search from all its goals at once, each
 * layout labelled with the goal it was reached from, labels of one
 * component joined when their layouts meet; then each component from its
 * layouts, in order of distance. */
static int explore(worker *w, const part *g, size_t ng, int mirror)
{
    const cfg *c = &w->c;
    size_t n = 0;
    int rc = dense_room(w, c->size, ng);
    for (size_t i = 0; rc == PTB_OK && i < ng; i++) {
        if (!w->sp->simple && !is_goal(w, &w->c, g[i].key, g[i].occ))
            continue;
        w->dist[g[i].idx] = 0;
        w->lab[g[i].idx] = (uint32_t)n;
        w->parent[n] = (uint32_t)n;
        rc = push(w, n++, g[i].key, g[i].idx);
    }
    size_t ngoal = n;
    for (size_t h = 0; rc == PTB_OK && h < n; h++) {
        uint64_t key = w->qkey[h];
        uint32_t idx = w->qidx[h], p[MAX_LINES];
        uint32_t lu = find(w->parent, w->lab[idx]);   /* (labels given
                                                         as roots meet
                                                         less often) */
        unsigned du = w->dist[idx] + 1u;
        uint64_t occ = decode(c, key, p);
        for (unsigned i = 0; rc == PTB_OK && i < c->n; i++) {
            const ltab *t = c->t[i];
            for (uint32_t e = t->first[p[i]]; e < t->first[p[i] + 1]; e++) {
                const lmove *mv = &t->move[e];
                if (mv->swept & occ)
                    continue;
                uint32_t ni = idx + (mv->q - p[i]) * c->R[i];
                if (w->dist[ni] == FAR) {
                    if (du >= FAR) {
                        rc = PTB_ERANGE;
                        break;
                    }
                    w->dist[ni] = (uint8_t)du;
                    w->lab[ni] = lu;
                    rc = push(w, n++, (key & ~(c->mask[i] << c->shift[i])) |
                              (uint64_t)mv->q << c->shift[i], ni);
                    if (rc != PTB_OK)
                        break;
                } else if (w->lab[ni] != lu) {
                    uint32_t o = find(w->parent, w->lab[ni]);
                    if (o != lu) {      /* (the less the root) */
                        w->parent[o > lu ? o : lu] = o > lu ? lu : o;
                        lu = o > lu ? lu : o;
                    }
                }
            }
        }
    }
    size_t ncomp = 0;
    if (rc == PTB_OK && n > w->ocap) {
        uint32_t *o = realloc(w->ord, (n + n / 2) * sizeof *o);
        if (!o)
            rc = PTB_ENOMEM;
        else {
            w->ord = o;
            w->ocap = n + n / 2;
        }
    }
    for (size_t i = 0; rc == PTB_OK && i < ngoal; i++) {
        uint32_t root = find(w->parent, (uint32_t)i);
        w->cid[i] = root == i ? (uint32_t)ncomp++ : w->cid[root];
    }
    if (rc == PTB_OK) {
        memset(w->count, 0, (ncomp + 1) * sizeof *w->count);
        for (size_t h = 0; h < n; h++)
            w->count[w->cid[w->lab[w->qidx[h]]] + 1]++;
        for (size_t k = 0; k < ncomp; k++)
            w->count[k + 1] += w->count[k];
        for (size_t h = 0; h < n; h++)
            w->ord[w->count[w->cid[w->lab[w->qidx[h]]]]++] = (uint32_t)h;
        for (size_t k = 0, s = 0; rc == PTB_OK && k < ncomp; k++) {
            rc = one_component(w, s, w->count[k], mirror);
            s = w->count[k];
        }
    }
    for (size_t h = 0; h < n; h++)
        w->dist[w->qidx[h]] = FAR;
    return rc;
}

/* The code of a layout's configuration: its pieces by line and place,
 * each its line and kind (2 bytes a piece). */
static void config_code(const sl_desc *d, const pieces *pc, uint8_t *code)
{
    uint16_t at[SL_MAX_PIECES];
    uint8_t kind[SL_MAX_PIECES];
    for (unsigned j = 0; j < pc->np; j++) {
        unsigned a = pc->anchor[j], k = pc->kind[j], i = j;
        unsigned line = d->kind[k].axis == SL_ACROSS ? a / d->w
                                                     : d->h + a % d->w;
        uint16_t v = (uint16_t)(line << 8 | a);
        for (; i > 0 && at[i - 1] > v; i--) {
            at[i] = at[i - 1];
            kind[i] = kind[i - 1];
        }
        at[i] = v;
        kind[i] = (uint8_t)k;
    }
    for (unsigned j = 0; j < pc->np; j++) {
        code[2 * j] = (uint8_t)(at[j] >> 8);
        code[2 * j + 1] = kind[j];
    }
}

/* A configuration with its candidate goals g[0..ng) (ng > 0): left out
 * when it fails the filters, when it is the image upside down of one
 * searched instead, or (in a space with a family wall) when no piece
 * meets the wall (its components are the base space's: meets()). */
static int leaf(worker *w, const part *g, size_t ng)
{
    const sl_desc *d = w->sp->d;
    pieces pc, turned;
    int mirror = w->sp->mirrored;
    layout_of(d, &w->c, g[0].key, &pc);
    unsigned open = d->n - (unsigned)__builtin_popcountll(d->walls);
    if (open - (unsigned)__builtin_popcountll(g[0].occ) < d->min_empty ||
        !passes(&w->r->o, d, &pc) ||
        (w->sp->extra && !meets(d, &pc, w->sp->extra)))
        return PTB_OK;
    if (w->sp->flip) {
        uint8_t a[2 * SL_MAX_PIECES], b[2 * SL_MAX_PIECES];
        turned = pc;
        for (unsigned j = 0; j < pc.np; j++)
            turned.anchor[j] = (uint8_t)
                w->r->flipped[pc.kind[j]][pc.anchor[j]];
        config_code(d, &pc, a);
        config_code(d, &turned, b);
        int cmp = memcmp(a, b, 2 * pc.np);
        if (cmp > 0)
            return PTB_OK;
        mirror = cmp < 0;
    }
    w->c.np = pc.np;
    return explore(w, g, ng, mirror);
}

static int dfs(worker *w, unsigned l, uint32_t used, const part *in,
               size_t nin);

/* Line l of the configuration given sequence t (NULL: none), the
 * candidates in[0..nin) extended by its seeds, and the lines after it. */
static int step(worker *w, unsigned l, const ltab *t, uint32_t used,
                const part *in, size_t nin)
{
    cfg *c = &w->c;
    if (!t)
        return dfs(w, l + 1, used, in, nin);
    unsigned k = c->n, shift = k ? c->shift[k - 1] + c->t[k - 1]->bits : 0;
    uint64_t R = k ? c->R[k - 1] * (uint64_t)c->t[k - 1]->n : 1;
    if (shift + t->bits > 64 || R * t->n > MAX_DENSE)
        return PTB_EINVAL;
    plist *o = &w->lvl[l];
    void *a = o->a;
    if (ptb_room(&a, &o->cap, nin * t->nseed, sizeof *o->a, 1024))
        return PTB_ENOMEM;
    o->a = a;
    part *out = o->a;
    for (size_t i = 0; i < nin; i++)
        for (uint32_t s = 0; s < t->nseed; s++) {
            uint32_t p = t->seed[s];
            out->occ = in[i].occ | t->cells[p];
            out->key = in[i].key | (uint64_t)p << shift;
            out->idx = in[i].idx + p * (uint32_t)R;
            out += !(t->cells[p] & in[i].occ);
        }
    o->n = (size_t)(out - o->a);
    if (!o->n)
        return PTB_OK;
    c->t[k] = t;
    c->shift[k] = shift;
    c->mask[k] = ((uint64_t)1 << t->bits) - 1;
    c->R[k] = (uint32_t)R;
    c->lev[k] = l;
    c->first[k] = k ? c->first[k - 1] + c->t[k - 1]->np : 0;
    c->n = k + 1;
    c->size = R * t->n;
    int rc = dfs(w, l + 1, used | t->distinct, o->a, o->n);
    c->n = k;
    return rc;
}

/* Every configuration from line l on, the lines before it chosen (w->c),
 * with the candidate goals in[0..nin) of those lines. */
static int dfs(worker *w, unsigned l, uint32_t used, const part *in,
               size_t nin)
{
    const fspace *sp = w->sp;
    if ((used | sp->later[l]) != w->r->distinct)
        return PTB_OK;           /* (a distinct piece would be missing) */
    if (l == n_lines(sp->d)) {
        const cfg *c = &w->c;
        w->c.size = c->n ? c->R[c->n - 1] * (uint64_t)c->t[c->n - 1]->n : 1;
        return leaf(w, in, nin);
    }
    if (l < TASK_LINES) {        /* (the task's choice) */
        unsigned f = w->force[l];
        if (f && (sp->tab[l][f - 1].distinct & used))
            return PTB_OK;
        return step(w, l, f ? &sp->tab[l][f - 1] : NULL, used, in, nin);
    }
    int rc = step(w, l, NULL, used, in, nin);
    for (unsigned i = 0; rc == PTB_OK && i < sp->ntab[l]; i++)
        if (!(sp->tab[l][i].distinct & used))
            rc = step(w, l, &sp->tab[l][i], used, in, nin);
    return rc;
}

/* The work, shared by the threads a task at a time: a space and the
 * sequences of its first TASK_LINES lines (the lines in the search's
 * order), a number in mixed radix, the digit of each line 0 for none or i
 * for its tab[i - 1]. */
typedef struct task {
    unsigned sp, first;
} task;

typedef struct job {
    const run *r;
    task *task;
    unsigned ntask, next, taken;    /* (atomic) */
    worker *w;
} job;

/* The tasks of space sp: the product of its first lines' choices. */
static unsigned space_tasks(const fspace *sp)
{
    unsigned n = 1;
    for (unsigned l = 0; l < TASK_LINES && l < n_lines(sp->d); l++)
        n *= 1 + sp->ntab[l];
    return n;
}

static void *job_thread(void *arg)
{
    job *j = arg;
    worker *w = &j->w[__atomic_fetch_add(&j->taken, 1, __ATOMIC_RELAXED)];
    const run *r = j->r;
    for (;;) {
        unsigned i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        if (i >= j->ntask || w->rc != PTB_OK)
            break;
        const fspace *sp = &r->sp[j->task[i].sp];
        part root = { 0, 0, 0 };
        w->sp = sp;
        w->near.d = sp->d;
        w->near.next = (int8_t (*)[SL_MAX_CELLS][2])sp->next;
        w->c.n = 0;
        unsigned f = j->task[i].first;
        for (unsigned l = 0; l < TASK_LINES; l++) {
            w->force[l] = l < n_lines(sp->d) ? f % (1 + sp->ntab[l]) : 0;
            f /= l < n_lines(sp->d) ? 1 + sp->ntab[l] : 1;
        }
        w->rc = dfs(w, 0, 0, &root, 1);
    }
    return NULL;
}

static void worker_free(worker *w)
{
    for (unsigned l = 0; l < MAX_LINES; l++)
        free(w->lvl[l].a);
    free(w->dist);
    free(w->lab);
    free(w->stamp);
    free(w->qkey);
    free(w->qidx);
    free(w->mkey);
    free(w->midx);
    free(w->ord);
    free(w->parent);
    free(w->cid);
    free(w->count);
    free(w->dist2);
    free(w->nkey);
    free(w->nidx);
    cs_free(&w->near);
    cs_free(&w->base);
    for (size_t j = 0; j < w->kept.n; j++)
        free(w->kept.level[j].hist);
    free(w->kept.level);
}

/* ---- the family ----------------------------------------------------- */

static int level_cmp(const void *a, const void *b)
{
    const fam_level *x = a, *y = b;
    if (x->moves != y->moves)
        return x->moves < y->moves ? -1 : 1;
    return strcmp(x->board, y->board);
}

/* The family's spaces: the base, then one a family wall's cell (none on
 * the base's walls, none without goals, none in a row below the middle
 * when the family is its own image upside down: the space with the wall
 * at the image cell gives its puzzles). */
static int spaces(run *r, const sl_desc *d)
{
    int flip = flips(d), rc;
    if (!(r->sp = calloc(1 + (r->o.walls ? d->n : 0), sizeof *r->sp)))
        return PTB_ENOMEM;
    rc = space_open(r, &r->sp[r->nsp++], d, NULL, 0);
    r->sp[0].flip = flip;
    for (unsigned c = 0; rc == PTB_OK && r->o.walls && c < d->n; c++) {
        uint64_t extra = (uint64_t)1 << c;
        unsigned y = c / d->w, image = d->h - 1 - y;
        sl_desc *wd;
        if (d->walls & extra || (flip && y > image))
            continue;
        if ((rc = sl_walled(d, extra, &wd)) != PTB_OK)
            break;
        if (!wd->ngoals) {
            sl_free(wd);
            continue;
        }
        fspace *sp = &r->sp[r->nsp++];
        rc = space_open(r, sp, wd, wd, extra);
        sp->mirrored = flip && y < image;
        sp->flip = flip && y == image;
    }
    return rc;
}

/* Whether the family's layouts can be ranked by the engine (the same
 * limits as any description's: at most 2^32, and not its own mirror
 * image), into err when not. */
static int check_space(sl_desc *d, ptb_puzzle **p, char *err, size_t errcap)
{
    ptb_space *s;
    int rc = sl_puzzle(d, p);
    if (rc != PTB_OK) {
        sl_free(d);
        return rc;
    }
    if ((rc = ptb_space_new(*p, NULL, &s)) != PTB_OK) {
        if (rc == PTB_EINVAL)
            ptb_errf(err, errcap, "the family's layouts are too many to "
                     "rank");
        return rc;
    }
    uint64_t n = s->p->size(s->ctx, 0);
    if (!sl_space_desc(s))
        rc = ptb_errf(err, errcap, "a family's description may not be its "
                      "own mirror image (give its goals a side)");
    else if (n > MAX_FAMILY_LAYOUTS) {
        ptb_errf(err, errcap, "the family has %llu layouts, more than %llu "
                 "(2^32) that a family may have", (unsigned long long)n,
                 (unsigned long long)MAX_FAMILY_LAYOUTS);
        rc = PTB_EINVAL;
    }
    ptb_space_close(s);
    return rc;
}

static int solve(const char *desc, const fam_opts *o, unsigned threads,
                 ptb_family *fam, char *err, size_t errcap)
{
    sl_desc *d;
    ptb_puzzle *p = NULL;
    int rc = sl_read(desc, NULL, &d, err, errcap);
    if (rc != PTB_OK)
        return rc;
    if ((rc = check_desc(d, err, errcap)) != PTB_OK) {
        sl_free(d);
        return rc;
    }
    snprintf(fam->name, sizeof fam->name, "%s", d->name);
    threads = threads < 1 ? 1 : threads > 256 ? 256 : threads;
    run r = { .o = *o, .base = d };
    job j = { .r = &r };
    if ((rc = check_space(d, &p, err, errcap)) == PTB_OK)
        rc = spaces(&r, d);
    for (unsigned k = 0; rc == PTB_OK && k < d->nkinds; k++) {
        r.distinct |= d->kind[k].label ? 1u << k : 0;
        for (unsigned a = 0; a < d->n; a++)
            r.flipped[k][a] = (int8_t)flip_anchor(d, k, a);
    }
    for (unsigned s = 0; rc == PTB_OK && s < r.nsp; s++)
        j.ntask += space_tasks(&r.sp[s]);
    if (rc == PTB_OK && (!(j.task = calloc(j.ntask, sizeof *j.task)) ||
                         !(j.w = calloc(threads, sizeof *j.w))))
        rc = PTB_ENOMEM;
    if (rc == PTB_OK) {
        unsigned t = 0;
        for (unsigned s = 0; s < r.nsp; s++)
            for (unsigned f = 0; f < space_tasks(&r.sp[s]); f++)
                j.task[t++] = (task){ s, f };
        for (unsigned i = 0; i < threads; i++) {
            csearch cs = { .d = d, .metric = d->metric[0],
                           .next = r.sp[0].next };
            j.w[i].r = &r;
            j.w[i].near = j.w[i].base = cs;
        }
        ptb_run_threads(job_thread, &j, threads);
        for (unsigned i = 0; i < threads; i++) {
            rc = rc != PTB_OK ? rc : j.w[i].rc;
            if (rc == PTB_OK)
                rc = gather(fam, &j.w[i].kept);
        }
        if (rc == PTB_EINVAL)
            ptb_errf(err, errcap, "a configuration of the family has more "
                     "than %llu layouts", (unsigned long long)MAX_DENSE);
    }
    for (unsigned i = 0; j.w && i < threads; i++)
        worker_free(&j.w[i]);
    free(j.w);
    free(j.task);
    for (unsigned s = 0; s < r.nsp; s++)
        space_free(&r.sp[s]);
    free(r.sp);
    if (p)
        ptb_puzzle_free(p);      /* (and d; without p, check_space() freed
                                    it) */
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

