/* lib/answer/family.c: every puzzle of a family (ptb_family_solve): the
 * layouts a description covers with 'covers mixes' split into their
 * components, each solvable one solved once, and the "interesting" ones
 * kept, as Michael Fogleman's Rush Hour database keeps them (github
 * fogleman/rush, cpp/src/cluster.cpp; "Rush Hour", 2018).  The
 * definitions below follow his, so that the results compare with his
 * program's one to one (tests/t_family.sh); nothing here knows Rush Hour:
 * the family is its description (doc/guide.md, "Families").  This file
 * reads a family and holds the definitions (which layouts count, the
 * searches near a layout, the drawing); family_config.c the computation
 * below, family_resume.c its checkpoint, family_run.c ptb_family_solve().
 *
 * The family.  A description with 'covers mixes N' (every layout of its
 * distinct pieces and any number of the others), every piece moving along
 * its axis, plus lines 'family KEY VALUE' this file reads:
 *   family walls W     at most W (0, 1 or 2) more walls, each on any
 *                      cell: the same description with walls there is
 *                      one more space (sl_walled()), a cell or a pair of
 *                      cells;
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
 * space with family walls, a configuration none of whose pieces moves
 * along a line of one of them is left out: its components are those of
 * the space without that wall, the wall changing none of their moves, so
 * not minimal (fam_meets()).
 *
 * Minimal.  Every piece but the distinct ones, and each family wall,
 * matters: the farthest layout without it (D moves from a goal) has a goal
 * nearer.  A piece that some optimal line from it moves matters (the line
 * less that piece's moves is shorter): the optimal lines' moves, followed
 * back from it, give those (moved()); for each other piece, and each
 * family wall, a breadth-first search from the layout without it looks for a goal
 * at most D - 1 moves away: over the numbers of its configuration, the
 * line's shorter sequence (near_dense()), or over a hash of its layouts
 * when that sequence has no table (fam_near(); without a family wall: on the
 * board with the others alone).
 * Fogleman tests the pieces his solver's one solution leaves in place,
 * each by solving the board without it: the same test, as a piece that
 * solution moves matters anyway.  His canonical board, the least of the
 * component, serves only to letter the pieces, and any layout of the
 * component letters them alike: pieces keep their order on their lines.
 *
 * Upside down.  When the family is its own image upside down (flips()),
 * of a space with family walls and the space of their image, the one
 * whose walls read as the greater binary number (for one wall: in a row
 * below the middle) is not searched: the other gives its puzzles, each component
 * turned (its farthest layout least in the order once turned, tested for
 * minimality and drawn turned; minimality is decided on that one layout,
 * so a component and its image need not both be kept).  In a space that
 * is its own image (the base space, a wall in the middle row, two walls
 * each other's image or both in the middle row), of a
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

#include "family.h"







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
        && rest[strspn(rest, " \t")] != '-' && w <= MAX_WALLS)
        o->walls = w;
    else if (at && !strcmp(key, "blocks") &&
             sscanf(rest, "%u %c", &w, &more) == 1 &&
             rest[strspn(rest, " \t")] != '-' && w >= 1 && w <= 64)
        o->blocks = w;
    else if (alone && !strcmp(key, "alone"))
        o->alone = 1;
    else if (alone && !strcmp(key, "open-lines"))
        o->open_lines = 1;
    else
        return ptb_errf(err, errcap, "line %u: family: expected 'walls 0', "
                        "'walls 1', 'walls 2', 'alone', 'open-lines' or "
                        "'blocks N', got '%s'",
                        line, buf + strspn(buf, " \t"));
    return PTB_OK;
}

/* The description without its family lines (each made blank, so that line
 * numbers hold), into *desc (malloc'd); the family's options into *o. */
int fam_split_family(const char *text, fam_opts *o, char **desc,
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
int fam_check_desc(const sl_desc *d, char *err, size_t errcap)
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



void fam_cs_free(csearch *cs)
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
void fam_make_steps(const sl_desc *d, int8_t (*next)[SL_MAX_CELLS][2])
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
int fam_near(csearch *cs, const pieces *pc, unsigned limit, int *near)
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

void fam_order_of(const sl_desc *d, pieces *pc)
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


/* The family's filters, on a layout of the component (they hold for all
 * or none). */
int fam_passes(const fam_opts *o, const sl_desc *d, const pieces *pc)
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

/* Whether, for each family wall of 'walls', a piece of pc may ever cover
 * its cell on the board without it: one that moves across on its row, or
 * down in its column.  When none may, that wall changes no move of the
 * component, which is then one of the space without it (the same moves,
 * distances and farthest layout), and so not minimal. */
int fam_meets(const sl_desc *d, const pieces *pc, uint64_t walls)
{
    uint64_t row = ((uint64_t)1 << d->w) - 1, col = 0, lines = 0;
    for (unsigned y = 0; y < d->h; y++)
        col |= (uint64_t)1 << y * d->w;
    for (unsigned y = 0; y < d->h; y++)
        lines |= pc->across & row << y * d->w ? row << y * d->w : 0;
    for (unsigned x = 0; x < d->w; x++)
        lines |= pc->down & col << x ? col << x : 0;
    for (; walls; walls &= walls - 1)
        if (!(lines & walls & -walls))
            return 0;
    return 1;
}

/* The boards less each family wall of 'extra' (n of them): the base with
 * the others (less_own[i], or the base itself for one wall), and their
 * steps. */
int fam_less(const sl_desc *base, uint64_t extra, unsigned *n,
             const sl_desc **less, sl_desc **less_own,
             int8_t (*next)[SL_MAX_KINDS][SL_MAX_CELLS][2])
{
    uint64_t e = extra;
    for (*n = 0; e; e &= e - 1, ++*n) {
        uint64_t keep = extra & ~(e & -e);
        int rc;
        if (keep && (rc = sl_walled(base, keep, &less_own[*n])) != PTB_OK)
            return rc;
        less[*n] = keep ? less_own[*n] : base;
        fam_make_steps(less[*n], next[*n]);
    }
    return PTB_OK;
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

int fam_keep(ptb_family *fam, const sl_desc *d, uint64_t walls,
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
uint64_t fam_flip_cells(const sl_desc *d, uint64_t cells)
{
    uint64_t f = 0;
    for (unsigned c = 0; c < d->n; c++)
        if (cells >> c & 1)
            f |= (uint64_t)1 << ((d->h - 1 - c / d->w) * d->w + c % d->w);
    return f;
}

/* The anchor of a piece of kind k at a upside down, when it is a piece of
 * the same kind that lies on the board; -1 otherwise. */
int fam_flip_anchor(const sl_desc *d, unsigned k, unsigned a)
{
    uint64_t f = fam_flip_cells(d, d->kind[k].shape << a);
    unsigned b = ptb_low_bit(f);
    return f && d->kind[k].shape << b == f && d->kind[k].fit >> b & 1
           ? (int)b : -1;
}

/* Whether the family is its own image upside down: the walls, each kind
 * at each anchor, and the set of goals.  Then the space with a family
 * wall at a cell and the one with it at the cell's image hold the mirror
 * images of each other's puzzles. */
int fam_flips(const sl_desc *d)
{
    if (fam_flip_cells(d, d->walls) != d->walls)
        return 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        for (unsigned a = 0; a < d->n; a++)
            if (d->kind[k].fit >> a & 1 && fam_flip_anchor(d, k, a) < 0)
                return 0;
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        sl_goal f = { .empty = fam_flip_cells(d, gl->empty), .n = gl->n };
        for (unsigned i = 0; i < gl->n; i++) {
            int b = fam_flip_anchor(d, gl->kind[i], gl->anchor[i]);
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
int fam_gather(ptb_family *fam, ptb_family *kept)
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
    int rc = fam_split_family(text, &o, &desc, err, errcap);
    if (rc != PTB_OK)
        return rc;
    rc = sl_read(desc, NULL, out, err, errcap);
    free(desc);
    if (rc == PTB_OK && !o.blocks &&
        (rc = fam_check_desc(*out, err, errcap)) != PTB_OK) {
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
