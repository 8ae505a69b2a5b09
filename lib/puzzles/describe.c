/* lib/puzzles/describe.c: reads a sliding-block puzzle's description and writes
 * its canonical text.
 *
 * A description is lines of "key value" (doc/guide.md, "Describing a puzzle";
 * man page puzzletb-description(5)):
 *
 *     name     century
 *     summary  J. H. Conway's Century
 *     metrics  move line
 *     start
 *     ABBC
 *     ...
 *     goal     ????/????/????/?BB?/?BB?
 *
 * A drawing (start, goal) follows its key on the same line, rows joined by
 * '/' or blanks, or on the lines after it, one row a line (blanks between
 * cells allowed), up to a blank line, the next key or the end.  Outside drawings, a line
 * whose first character is '#' is a comment.  Every mistake is one message
 * with its line and column.  The canonical text lists the keys in a fixed
 * order, each drawing inline: the form a table stores and every reader
 * reads back (the same bytes for the same description).
 *
 * May touch: its arguments, and the heap for the result.  No I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slide.h"

#define MAX_SOURCES 8
#define MAX_FIELD 240            /* bytes of a summary or source line */

/* A drawing as read: rows of cells, each cell's place for messages. */
typedef struct grid {
    unsigned key_line;
    unsigned rows, w;
    char c[SL_MAX_CELLS];
    unsigned line[SL_MAX_CELLS], col[SL_MAX_CELLS];
} grid;

typedef struct reader {
    sl_desc *d;
    int (*taken)(const char *name);
    char *err;
    size_t errcap;
    const char *sources[MAX_SOURCES];
    unsigned source_len[MAX_SOURCES], nsources;
    grid start, goals[SL_MAX_GOALS];
    int have_start;
    char distinct[SL_MAX_PIECES + 1], axis[SL_MAX_PIECES + 1];
    int distinct_all, axis_all;
    char patterns[SL_MAX_PIECES + SL_MAX_PATTERNS + 1];   /* groups, ' ' */
    char keep[SL_MAX_PATTERNS][SL_MAX_PIECES + 1];   /* 'abstraction's */
    unsigned keep_line[SL_MAX_PATTERNS];
    unsigned seen;               /* keys given, a bit each */
    /* for messages about the letters of 'distinct' and 'axis' */
    unsigned distinct_line, axis_line, covers_line, metrics_line;
    unsigned patterns_line, pattern_line, numbers_line;
} reader;

static const char *const keys[] = { "name", "summary", "source", "metrics",
                                    "distinct", "axis", "empty", "wall",
                                    "covers", "numbers", "patterns",
                                    "abstraction", "pattern", "start",
                                    "goal", NULL };
enum { K_NAME, K_SUMMARY, K_SOURCE, K_METRICS, K_DISTINCT, K_AXIS, K_EMPTY,
       K_WALL, K_COVERS, K_NUMBERS, K_PATTERNS, K_ABSTRACTION, K_PATTERN,
       K_START, K_GOAL };
static const unsigned repeatable = 1u << K_SOURCE | 1u << K_GOAL |
                                   1u << K_ABSTRACTION;   /* keys */
static const char *const metric_names[] = { "step", "line", "move", NULL };

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* A character that can draw a piece: printable ASCII but for the marks. */
static int is_letter(char c)
{
    return c > ' ' && c < 127 && !strchr(".#?/\"\\", c);
}

int sl_is_empty(const sl_desc *d, char c)
{
    return c == '.' || (c && d->empty[0] && strchr(d->empty, c));
}

int sl_is_wall(const sl_desc *d, char c)
{
    return c == '#' || (c && d->wall[0] && strchr(d->wall, c));
}

/* ==== lines and drawings ================================================ */

/* The row of text s[0..len) into g as row g->rows: blanks are skipped. */
static int add_row(reader *r, grid *g, const char *s, unsigned len,
                   unsigned line, unsigned col)
{
    unsigned n = 0;
    char what[16];
    if (g->rows >= SL_MAX_H)
        return ptb_errf(r->err, r->errcap, "line %u, column %u: a board has "
                        "at most %u rows", line, col, SL_MAX_H);
    for (unsigned i = 0; i < len; i++, col++) {
        if (is_blank(s[i]))
            continue;
        if ((unsigned char)s[i] < 33 || (unsigned char)s[i] > 126) {
            ptb_text_char(s + i, len - i, what, sizeof what);
            return ptb_errf(r->err, r->errcap, "line %u, column %u: "
                            "unexpected %s in a drawing", line, col, what);
        }
        if (n >= SL_MAX_W)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: a board "
                            "has at most %u columns", line, col, SL_MAX_W);
        unsigned c = g->rows * SL_MAX_W + n++;
        g->c[c] = s[i];
        g->line[c] = line;
        g->col[c] = col;
    }
    if (g->rows && n != g->w)
        return ptb_errf(r->err, r->errcap, "line %u: expected %u cells in "
                        "this row, as in the first, found %u", line, g->w,
                        n);
    g->w = n;
    g->rows++;
    return PTB_OK;
}

/* An inline drawing: rows joined by '/' or blanks. */
static int inline_rows(reader *r, grid *g, const char *s, unsigned len,
                       unsigned line, unsigned col)
{
    unsigned i = 0;
    while (i < len) {
        while (i < len && (is_blank(s[i]) || s[i] == '/'))
            i++;
        unsigned from = i;
        while (i < len && !is_blank(s[i]) && s[i] != '/')
            i++;
        if (i > from) {
            int rc = add_row(r, g, s + from, i - from, line, col + from);
            if (rc != PTB_OK)
                return rc;
        }
    }
    return PTB_OK;
}

/* A line of a drawing on its own lines: one row, or rows joined by '/';
 * blanks between cells are skipped. */
static int block_rows(reader *r, grid *g, const char *s, unsigned len,
                      unsigned line, unsigned col)
{
    const char *slash;
    while ((slash = memchr(s, '/', len)) != NULL) {
        unsigned n = (unsigned)(slash - s);
        int rc = add_row(r, g, s, n, line, col);
        if (rc != PTB_OK)
            return rc;
        s += n + 1;
        len -= n + 1;
        col += n + 1;
    }
    return add_row(r, g, s, len, line, col);
}

/* The board's cells in reading order of width w from the grid's rows. */
static char cell(const grid *g, unsigned c, unsigned w)
{
    return g->c[c / w * SL_MAX_W + c % w];
}

static unsigned cell_line(const grid *g, unsigned c, unsigned w)
{
    return g->line[c / w * SL_MAX_W + c % w];
}

static unsigned cell_col(const grid *g, unsigned c, unsigned w)
{
    return g->col[c / w * SL_MAX_W + c % w];
}

/* ==== keys ============================================================== */

static int one_word(reader *r, const char *v, unsigned len, unsigned line,
                    const char *key)
{
    for (unsigned i = 0; i < len; i++)
        if (is_blank(v[i]))
            return ptb_errf(r->err, r->errcap, "line %u: %s takes one word",
                            line, key);
    return PTB_OK;
}

static int read_name(reader *r, const char *v, unsigned len, unsigned line)
{
    int ok = len > 0 && len < sizeof r->d->name &&
             ((v[0] >= 'a' && v[0] <= 'z') || (v[0] >= '0' && v[0] <= '9'));
    for (unsigned i = 0; ok && i < len; i++)
        ok = (v[i] >= 'a' && v[i] <= 'z') || (v[i] >= '0' && v[i] <= '9') ||
             v[i] == '-';
    if (!ok)
        return ptb_errf(r->err, r->errcap, "line %u: a name is 1 to %u "
                        "lower-case letters, digits and '-', starting with a "
                        "letter or digit", line,
                        (unsigned)sizeof r->d->name - 1);
    memcpy(r->d->name, v, len);
    r->d->name[len] = '\0';
    if (r->taken && r->taken(r->d->name))
        return ptb_errf(r->err, r->errcap, "line %u: '%s' is a built-in "
                        "puzzle's name", line, r->d->name);
    return PTB_OK;
}

/* A line of free text: UTF-8, no control characters. */
static int read_text(reader *r, const char *v, unsigned len, unsigned line,
                     const char *key)
{
    if (len > MAX_FIELD)
        return ptb_errf(r->err, r->errcap, "line %u: a %s has at most %u "
                        "bytes", line, key, MAX_FIELD);
    for (unsigned i = 0; i < len; i++)
        if ((unsigned char)v[i] < 32 || v[i] == 127)
            return ptb_errf(r->err, r->errcap, "line %u: a control "
                            "character in the %s", line, key);
    return PTB_OK;
}

static int read_metrics(reader *r, const char *v, unsigned len,
                        unsigned line, unsigned col)
{
    sl_desc *d = r->d;
    unsigned i = 0;
    while (i < len) {
        while (i < len && is_blank(v[i]))
            i++;
        unsigned from = i, m = 0;
        while (i < len && !is_blank(v[i]))
            i++;
        if (i == from)
            break;
        while (metric_names[m] && (strlen(metric_names[m]) != i - from ||
                                   memcmp(metric_names[m], v + from,
                                          i - from)))
            m++;
        if (!metric_names[m])
            return ptb_errf(r->err, r->errcap, "line %u, column %u: unknown "
                            "metric '%.*s' (step, line or move)", line,
                            col + from, (int)(i - from), v + from);
        for (unsigned k = 0; k < d->nmetrics; k++)
            if (d->metric[k] == m)
                return ptb_errf(r->err, r->errcap, "line %u, column %u: "
                                "metric '%s' is listed twice", line,
                                col + from, metric_names[m]);
        d->metric[d->nmetrics++] = m;
    }
    r->metrics_line = line;
    if (!d->nmetrics)
        return ptb_errf(r->err, r->errcap, "line %u: metrics names at least "
                        "one of step, line, move", line);
    return PTB_OK;
}

/* "all", or letters (blanks between them allowed) into set. */
static int read_letters(reader *r, const char *v, unsigned len,
                        unsigned line, unsigned col, char *set, int *all)
{
    unsigned n = 0;
    if (len == 3 && !memcmp(v, "all", 3)) {
        *all = 1;
        return PTB_OK;
    }
    for (unsigned i = 0; i < len; i++) {
        if (is_blank(v[i]))
            continue;
        if (!is_letter(v[i]))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: '%c' "
                            "cannot be a piece's letter", line, col + i,
                            v[i]);
        if (n >= SL_MAX_PIECES || memchr(set, v[i], n))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: '%c' "
                            "is listed twice", line, col + i, v[i]);
        set[n++] = v[i];
    }
    set[n] = '\0';
    return n ? PTB_OK : ptb_errf(r->err, r->errcap, "line %u: expected "
                                 "'all' or letters of pieces", line);
}

/* Characters that stand for an empty cell or a wall in drawings. */
static int read_marks(reader *r, const char *v, unsigned len, unsigned line,
                      unsigned col, char *set, size_t cap)
{
    unsigned n = 0;
    for (unsigned i = 0; i < len; i++) {
        if (is_blank(v[i]))
            continue;
        if (!is_letter(v[i]) || strchr(r->d->empty, v[i]) ||
            strchr(r->d->wall, v[i]))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: '%c' "
                            "cannot mark a cell (or marks one already)",
                            line, col + i, v[i]);
        if (n + 1 >= cap)
            return ptb_errf(r->err, r->errcap, "line %u: at most %u "
                            "characters", line, (unsigned)cap - 1);
        set[n++] = v[i];
    }
    set[n] = '\0';
    return n ? PTB_OK : ptb_errf(r->err, r->errcap, "line %u: expected "
                                 "characters", line);
}

/* A "covers" value: layouts, reachable or mixes N. */
static int read_covers(reader *r, const char *v, unsigned vl, unsigned line,
                       unsigned col)
{
    sl_desc *d = r->d;
    if (vl == 7 && !memcmp(v, "layouts", 7))
        return PTB_OK;
    if (vl == 9 && !memcmp(v, "reachable", 9)) {
        d->reachable = 1;
        return PTB_OK;
    }
    if (vl >= 5 && !memcmp(v, "mixes", 5)) {
        unsigned i = 5, n = 0;
        while (i < vl && is_blank(v[i]))
            i++;
        while (i < vl && v[i] >= '0' && v[i] <= '9' && n <= SL_MAX_CELLS)
            n = 10 * n + (unsigned)(v[i++] - '0');
        if (i == vl && n <= SL_MAX_CELLS) {
            d->mixes = 1;
            d->min_empty = n;
            return PTB_OK;
        }
    }
    return ptb_errf(r->err, r->errcap, "line %u, column %u: covers "
                    "takes 'layouts' (every layout of the start's "
                    "pieces), 'reachable' (the positions reachable "
                    "from the start) or 'mixes N' (every layout of any "
                    "number of the pieces that are not distinct, with "
                    "at least N empty cells)", line, col);
}

/* A "patterns" value: groups of letters, blanks between groups. */
static int read_patterns(reader *r, const char *v, unsigned vl,
                         unsigned line, unsigned col)
{
    unsigned n = 0, groups = 0;
    for (unsigned i = 0; i < vl; i++) {
        if (is_blank(v[i])) {
            if (n && r->patterns[n - 1] != ' ')
                r->patterns[n++] = ' ';
            continue;
        }
        if (!is_letter(v[i]) || memchr(r->patterns, v[i], n))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: '%c' %s",
                            line, col + i, v[i], is_letter(v[i])
                            ? "is in two groups" : "cannot be a piece's letter");
        groups += !n || r->patterns[n - 1] == ' ';
        if (groups > SL_MAX_PATTERNS)
            return ptb_errf(r->err, r->errcap, "line %u: at most %u pattern "
                            "groups", line, SL_MAX_PATTERNS);
        r->patterns[n++] = v[i];
    }
    if (n && r->patterns[n - 1] == ' ')
        n--;
    r->patterns[n] = '\0';
    r->d->npatterns = groups;
    r->patterns_line = line;
    return PTB_OK;
}

/* A "numbers" value: the letters numbers 1, 2, ... stand for. */
static int read_numbers(reader *r, const char *v, unsigned vl, unsigned line,
                        unsigned col)
{
    int all = 0;
    r->numbers_line = line;
    if (read_letters(r, v, vl, line, col, r->d->numbers, &all) != PTB_OK)
        return PTB_EPARSE;
    return all ? ptb_errf(r->err, r->errcap, "line %u: numbers takes "
                          "letters, in the order 1, 2, ... stand for", line)
               : PTB_OK;
}

/* An "abstraction" value: the letters of the pieces it keeps. */
static int read_abstraction(reader *r, const char *v, unsigned vl,
                            unsigned line, unsigned col)
{
    sl_desc *d = r->d;
    int all = 0;
    if (d->nkeeps >= SL_MAX_PATTERNS)
        return ptb_errf(r->err, r->errcap, "line %u: at most %u "
                        "abstractions", line, SL_MAX_PATTERNS);
    if (read_letters(r, v, vl, line, col, r->keep[d->nkeeps], &all) !=
        PTB_OK)
        return PTB_EPARSE;
    if (all)
        return ptb_errf(r->err, r->errcap, "line %u, column %u: an "
                        "abstraction names the pieces it keeps, not all",
                        line, col);
    r->keep_line[d->nkeeps++] = line;
    return PTB_OK;
}

/* A "pattern" value: the group N whose pattern space this is. */
static int read_pattern(reader *r, const char *v, unsigned vl,
                        unsigned line, unsigned col)
{
    unsigned n = 0, i = 0;
    while (i < vl && v[i] >= '0' && v[i] <= '9' && n <= SL_MAX_PATTERNS)
        n = 10 * n + (unsigned)(v[i++] - '0');
    if (i != vl || n < 1 || n > SL_MAX_PATTERNS)
        return ptb_errf(r->err, r->errcap, "line %u, column %u: pattern "
                        "takes the number of a group of 'patterns' or of an "
                        "'abstraction', from 1",
                        line, col);
    r->d->abstract = n;
    r->pattern_line = line;
    return PTB_OK;
}

/* A "summary" value, kept. */
static int read_summary(reader *r, const char *v, unsigned vl, unsigned line)
{
    sl_desc *d = r->d;
    if (read_text(r, v, vl, line, "summary") != PTB_OK)
        return PTB_EPARSE;
    free(d->summary);
    if (!(d->summary = malloc(vl + 1)))
        return PTB_ENOMEM;
    memcpy(d->summary, v, vl);
    d->summary[vl] = '\0';
    return PTB_OK;
}

/* One "key value" line; a drawing's key may leave the value empty, and
 * *grid_out then gets the drawing its next lines fill. */
static int read_key(reader *r, const char *s, unsigned len, unsigned line,
                    grid **grid_out)
{
    sl_desc *d = r->d;
    unsigned k = 0, kl = 0, col;
    while (kl < len && !is_blank(s[kl]))
        kl++;
    while (keys[k] && (strlen(keys[k]) != kl || memcmp(keys[k], s, kl)))
        k++;
    if (!keys[k])
        return ptb_errf(r->err, r->errcap, "line %u: unknown key '%.*s' "
                        "(name, summary, source, metrics, distinct, axis, "
                        "empty, wall, covers, numbers, patterns, "
                        "abstraction, pattern, start, goal)", line,
                        (int)(kl > 40 ? 40 : kl), s);
    if (r->seen >> k & ~repeatable >> k & 1)
        return ptb_errf(r->err, r->errcap, "line %u: %s is given twice",
                        line, keys[k]);
    r->seen |= 1u << k;
    const char *v = s + kl;
    while (v < s + len && is_blank(*v))
        v++;
    unsigned vl = (unsigned)(s + len - v);
    col = (unsigned)(v - s) + 1;
    if (!vl && k != K_START && k != K_GOAL)
        return ptb_errf(r->err, r->errcap, "line %u: %s needs a value", line,
                        keys[k]);
    switch (k) {
    case K_NAME:
        if (one_word(r, v, vl, line, "name") != PTB_OK)
            return PTB_EPARSE;
        return read_name(r, v, vl, line);
    case K_SUMMARY:
        return read_summary(r, v, vl, line);
    case K_SOURCE:
        if (r->nsources >= MAX_SOURCES)
            return ptb_errf(r->err, r->errcap, "line %u: at most %u source "
                            "lines", line, MAX_SOURCES);
        r->sources[r->nsources] = v;
        r->source_len[r->nsources++] = vl;
        return read_text(r, v, vl, line, "source");
    case K_METRICS:
        return read_metrics(r, v, vl, line, col);
    case K_DISTINCT:
        r->distinct_line = line;
        return read_letters(r, v, vl, line, col, r->distinct,
                            &r->distinct_all);
    case K_AXIS:
        r->axis_line = line;
        return read_letters(r, v, vl, line, col, r->axis, &r->axis_all);
    case K_EMPTY:
        return read_marks(r, v, vl, line, col, d->empty, sizeof d->empty);
    case K_WALL:
        return read_marks(r, v, vl, line, col, d->wall, sizeof d->wall);
    case K_COVERS:
        r->covers_line = line;
        return read_covers(r, v, vl, line, col);
    case K_NUMBERS:
        return read_numbers(r, v, vl, line, col);
    case K_PATTERNS:
        return read_patterns(r, v, vl, line, col);
    case K_ABSTRACTION:
        return read_abstraction(r, v, vl, line, col);
    case K_PATTERN:
        return read_pattern(r, v, vl, line, col);
    default: {                           /* start, goal */
        grid *g = k == K_START ? &r->start : &r->goals[d->ngoals];
        if (k == K_GOAL && d->ngoals >= SL_MAX_GOALS)
            return ptb_errf(r->err, r->errcap, "line %u: at most %u goals",
                            line, SL_MAX_GOALS);
        d->ngoals += k == K_GOAL;
        r->have_start |= k == K_START;
        g->key_line = line;
        if (!vl) {
            *grid_out = g;
            return PTB_OK;
        }
        return inline_rows(r, g, v, vl, line, col);
    }
    }
}

/* Whether a line starts with a key: the key, then a blank or the end. */
static int starts_key(const char *s, unsigned len)
{
    for (unsigned k = 0; keys[k]; k++) {
        unsigned kl = (unsigned)strlen(keys[k]);
        if (len >= kl && !memcmp(s, keys[k], kl) &&
            (len == kl || is_blank(s[kl])))
            return 1;
    }
    return 0;
}

/* Every line: keys, comments, and the rows of block drawings. */
static int read_lines(reader *r, const char *text)
{
    grid *block = NULL;
    unsigned line = 0;
    const char *s = text;
    if (!strncmp(s, "\xef\xbb\xbf", 3))
        s += 3;
    while (*s) {
        const char *end = strchr(s, '\n');
        if (!end)
            end = s + strlen(s);
        line++;
        const char *a = s, *b = end;
        while (a < b && is_blank(*a))
            a++;
        while (b > a && is_blank(b[-1]))
            b--;
        unsigned col = (unsigned)(a - s) + 1, len = (unsigned)(b - a);
        int rc = PTB_OK;
        if (!len) {
            if (block && !block->rows)
                return ptb_errf(r->err, r->errcap, "line %u: the drawing "
                                "of line %u has no rows", line,
                                block->key_line);
            block = NULL;
        } else if (block && !starts_key(a, len)) {
            rc = block_rows(r, block, a, len, line, col);
        } else if (*a != '#' || block) {
            if (block && !block->rows)
                return ptb_errf(r->err, r->errcap, "line %u: the drawing "
                                "of line %u has no rows", line,
                                block->key_line);
            block = NULL;
            rc = read_key(r, a, len, line, &block);
        }
        if (rc != PTB_OK)
            return rc;
        s = *end ? end + 1 : end;
    }
    if (block && !block->rows)
        return ptb_errf(r->err, r->errcap, "line %u: the drawing has no "
                        "rows", block->key_line);
    return PTB_OK;
}

/* ==== the start: pieces and kinds ======================================= */

/* The cells of letter x in g, and whether they are 4-connected. */
static uint64_t letter_cells(const grid *g, unsigned w, unsigned n, char x)
{
    uint64_t m = 0;
    for (unsigned c = 0; c < n; c++)
        if (cell(g, c, w) == x)
            m |= (uint64_t)1 << c;
    return m;
}

static int connected(uint64_t m, unsigned w)
{
    uint64_t seen = m & (~m + 1), grow;
    do {
        grow = seen;
        for (uint64_t s = seen; s; s &= s - 1) {   /* (its cells alone) */
            unsigned c = ptb_low_bit(s);
            if (c % w) grow |= (uint64_t)1 << (c - 1);
            if (c % w < w - 1) grow |= (uint64_t)1 << (c + 1);
            if (c >= w) grow |= (uint64_t)1 << (c - w);
            if (c + w < 64) grow |= (uint64_t)1 << (c + w);
        }
        grow &= m;
        if (grow == seen)
            break;
        seen = grow;
    } while (1);
    return seen == m;
}

/* A piece's cells as offsets from its anchor, with its bounding box. */
typedef struct shape {
    uint64_t bits;       /* the offsets, for a board of width w */
    unsigned anchor;
    int dr[SL_MAX_CELLS], dc[SL_MAX_CELLS];
    unsigned n, rows, cols;
} shape;

static void shape_of(uint64_t m, unsigned w, shape *s)
{
    int minc = SL_MAX_W, maxc = 0, maxr = 0;
    s->anchor = ptb_low_bit(m);
    s->n = 0;
    s->bits = 0;
    for (unsigned c = 0; c < 64; c++)
        if (m >> c & 1) {
            int dr = (int)(c / w) - (int)(s->anchor / w);
            int dc = (int)(c % w) - (int)(s->anchor % w);
            s->dr[s->n] = dr;
            s->dc[s->n++] = dc;
            s->bits |= (uint64_t)1 << (c - s->anchor);
            minc = dc < minc ? dc : minc;
            maxc = dc > maxc ? dc : maxc;
            maxr = dr > maxr ? dr : maxr;
        }
    s->rows = (unsigned)maxr + 1;
    s->cols = (unsigned)(maxc - minc) + 1;
}

/* The anchors where a shape lies on the board, off the walls. */
static uint64_t fit_of(const sl_desc *d, const shape *s)
{
    uint64_t fit = 0;
    for (unsigned a = 0; a < d->n; a++) {
        int ok = 1;
        for (unsigned i = 0; ok && i < s->n; i++) {
            int r = (int)(a / d->w) + s->dr[i], c = (int)(a % d->w) + s->dc[i];
            ok = r >= 0 && r < (int)d->h && c >= 0 && c < (int)d->w &&
                 !(d->walls >> (unsigned)(r * (int)d->w + c) & 1);
        }
        if (ok)
            fit |= (uint64_t)1 << a;
    }
    return fit;
}

static int listed(const char *set, int all, char x)
{
    return all || strchr(set, x);
}

/* The kind of the piece drawn x with shape s: an old one it shares, or a
 * new one. */
static int add_piece(reader *r, char x, const shape *s, unsigned line,
                     unsigned col)
{
    sl_desc *d = r->d;
    int distinct = listed(r->distinct, r->distinct_all, x);
    unsigned axis = SL_FREE;
    if (listed(r->axis, r->axis_all, x)) {
        if (s->rows == s->cols)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: piece "
                            "'%c' is as tall as it is wide: it has no long "
                            "axis to move along", line, col, x);
        axis = s->cols > s->rows ? SL_ACROSS : SL_DOWN;
    }
    int twin = 0;
    for (unsigned k = 0; !distinct && k < d->nkinds; k++) {
        sl_kind *o = &d->kind[k];
        if (o->label || o->shape != s->bits)
            continue;
        if (o->axis == axis) {
            o->count++;
            return PTB_OK;
        }
        if (d->mixes)   /* (a mix may hold more than the letters listed) */
            return ptb_errf(r->err, r->errcap, "line %u, column %u: pieces "
                            "'%c' and '%c' have one shape but move "
                            "differently, which covers mixes cannot tell "
                            "apart: list one of them as distinct",
                            line, col, o->shown, x);
        twin = (int)k + 1;
    }
    if (d->nkinds >= SL_MAX_KINDS)
        return ptb_errf(r->err, r->errcap, "line %u, column %u: more than "
                        "%u kinds of piece (a distinct piece is a kind of "
                        "its own)", line, col, SL_MAX_KINDS);
    sl_kind *k = &d->kind[d->nkinds++];
    k->shape = s->bits;
    k->fit = fit_of(d, s);
    k->cells = s->n;
    k->count = 1;
    k->axis = axis;
    k->label = distinct ? x : 0;
    k->shown = x;
    k->twin = twin;
    if (twin)
        d->kind[twin - 1].twin = (int)d->nkinds;
    return PTB_OK;
}

/* The kind of the start's piece drawn x; -1 if none. */
static int kind_of_letter(const sl_desc *d, char x)
{
    uint64_t m = 0;
    for (unsigned c = 0; c < d->n; c++)
        if (d->start[c] == x)
            m |= (uint64_t)1 << c;
    return m ? sl_kind_of(d, x, m >> ptb_low_bit(m)) : -1;
}

int sl_kind_of(const sl_desc *d, char x, uint64_t shape)
{
    for (unsigned k = 0; k < d->nkinds; k++)
        if (d->kind[k].label == x)
            return d->kind[k].shape == shape ? (int)k : -1;
    for (unsigned k = 0; k < d->nkinds; k++)
        if (!d->kind[k].label && d->kind[k].shape == shape &&
            (!d->kind[k].twin ||
             (d->kind[k].axis != SL_FREE) == (strchr(d->axis, x) != NULL)))
            return (int)k;
    return -1;
}

static int read_start(reader *r)
{
    sl_desc *d = r->d;
    const grid *g = &r->start;
    if (!r->have_start)
        return ptb_errf(r->err, r->errcap, "no start: draw the board after "
                        "'start'");
    if (!g->rows)
        return ptb_errf(r->err, r->errcap, "line %u: the start draws no "
                        "cells", g->key_line);
    if (!r->axis_all)
        memcpy(d->axis, r->axis, sizeof d->axis);
    d->w = g->w;
    d->h = g->rows;
    d->n = d->w * d->h;
    for (unsigned c = 0; c < d->n; c++) {
        char x = cell(g, c, d->w);
        d->start[c] = sl_is_empty(d, x) ? '.' : sl_is_wall(d, x) ? '#' : x;
        if (x == '?' || (!is_letter(x) && !strchr(".#", d->start[c])))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: %s",
                            cell_line(g, c, d->w), cell_col(g, c, d->w),
                            x == '?' ? "'?' belongs in goals; the start "
                                       "draws every cell"
                                     : "this character cannot draw a piece");
        if (d->start[c] == '#')
            d->walls |= (uint64_t)1 << c;
    }
    uint64_t done = d->walls;
    for (unsigned c = 0; c < d->n; c++) {
        char x = d->start[c];
        if (x == '.' || (done >> c & 1))
            continue;
        uint64_t m = letter_cells(g, d->w, d->n, cell(g, c, d->w));
        unsigned line = cell_line(g, c, d->w), col = cell_col(g, c, d->w);
        if (!connected(m, d->w))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: piece "
                            "'%c' is not connected (a piece is one "
                            "4-connected group of cells)", line, col, x);
        if (d->npieces >= SL_MAX_PIECES)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: more "
                            "than %u pieces", line, col, SL_MAX_PIECES);
        d->npieces++;
        done |= m;
        shape s;
        shape_of(m, d->w, &s);
        int rc = add_piece(r, x, &s, line, col);
        if (rc != PTB_OK)
            return rc;
    }
    return PTB_OK;
}

/* Every letter of 'distinct' and 'axis' is a piece of the start. */
static int check_listed(reader *r, const char *set, unsigned line)
{
    for (const char *x = set; *x; x++)
        if (!memchr(r->d->start, *x, r->d->n))
            return ptb_errf(r->err, r->errcap, "line %u: '%c' is no piece "
                            "of the start", line, *x);
    return PTB_OK;
}

/* ==== goals ============================================================= */

static int read_goal(reader *r, const grid *g, sl_goal *goal)
{
    sl_desc *d = r->d;
    uint64_t done = 0;
    if (g->w != d->w || g->rows != d->h)
        return ptb_errf(r->err, r->errcap, "line %u: the goal is %ux%u, the "
                        "start %ux%u (width x height)", g->key_line, g->w,
                        g->rows, d->w, d->h);
    for (unsigned c = 0; c < d->n; c++) {
        char x = cell(g, c, d->w);
        unsigned line = cell_line(g, c, d->w), col = cell_col(g, c, d->w);
        int wall = d->walls >> c & 1;
        if (x == '?' || (done >> c & 1))
            continue;
        if (sl_is_wall(d, x) != wall)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: the "
                            "board has %s here", line, col,
                            wall ? "a wall" : "no wall");
        if (wall)
            continue;
        if (sl_is_empty(d, x)) {
            goal->empty |= (uint64_t)1 << c;
            continue;
        }
        int k = kind_of_letter(d, x);
        if (k < 0)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: goal "
                            "piece '%c' is not in the start", line, col, x);
        uint64_t m = letter_cells(g, d->w, d->n, x);
        done |= m;
        if ((m >> ptb_low_bit(m)) != d->kind[k].shape ||
            !connected(m, d->w))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: goal "
                            "piece '%c' is not drawn in its start's shape",
                            line, col, x);
        if (!(d->kind[k].fit >> ptb_low_bit(m) & 1))
            return ptb_errf(r->err, r->errcap, "line %u, column %u: goal "
                            "piece '%c' cannot stand there", line, col, x);
        unsigned same = 0;
        for (unsigned i = 0; i < goal->n; i++)
            same += goal->kind[i] == (unsigned)k;
        if (same >= d->kind[k].count)
            return ptb_errf(r->err, r->errcap, "line %u, column %u: the "
                            "goal has more pieces like '%c' than the start",
                            line, col, x);
        goal->kind[goal->n] = (uint8_t)k;
        goal->anchor[goal->n++] = (uint8_t)ptb_low_bit(m);
    }
    return PTB_OK;
}

/* ==== the canonical text ================================================ */

unsigned sl_record_lines(const sl_desc *d, const char *first_line)
{
    ptb_token t[2];
    if (ptb_text_split(first_line, PTB_TEXT_GRID, t, 2) == 1 &&
        t[0].len == d->n && d->h > 1)
        return 1;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, d->h);
}

void sl_grid_text(const sl_desc *d, const char *cells, char sep, char *buf,
                  size_t cap, size_t *len)
{
    char t[SL_MAX_CELLS + SL_MAX_H];
    size_t n = 0;
    for (unsigned r = 0; r < d->h; r++, n += d->w) {
        if (r)
            t[n++] = sep;
        memcpy(t + n, cells + r * d->w, d->w);
    }
    t[n] = '\0';
    ptb_catf(buf, cap, len, "%s", t);
}

/* The letter of the start's j-th piece (in reading order) of kind k. */
static char start_letter(const sl_desc *d, unsigned k, unsigned j)
{
    uint64_t done = 0;
    for (unsigned c = 0; c < d->n; c++) {
        char x = d->start[c];
        if (x == '.' || x == '#' || (done >> c & 1))
            continue;
        uint64_t m = 0;
        for (unsigned i = c; i < d->n; i++)
            if (d->start[i] == x)
                m |= (uint64_t)1 << i;
        done |= m;
        if (sl_kind_of(d, x, m >> c) == (int)k && j-- == 0)
            return x;
    }
    return '?';                          /* never: read_goal counted them */
}

/* A goal drawn: each required piece in the letter of a start's piece of
 * its kind, no two alike. */
static void goal_cells(const sl_desc *d, const sl_goal *g, char *out)
{
    for (unsigned c = 0; c < d->n; c++)
        out[c] = d->walls >> c & 1 ? '#' : g->empty >> c & 1 ? '.' : '?';
    for (unsigned i = 0; i < g->n; i++) {
        const sl_kind *k = &d->kind[g->kind[i]];
        unsigned j = 0;
        for (unsigned e = 0; e < i; e++)
            j += g->kind[e] == g->kind[i];
        char x = start_letter(d, g->kind[i], j);
        for (unsigned o = 0; o < 64; o++)
            if (k->shape >> o & 1)
                out[g->anchor[i] + o] = x;
    }
}

/* The canonical text into buf (cap bytes; NULL and 0 measure it): its
 * length, as snprintf's. */
static size_t canonical_text(const reader *r, char *buf, size_t cap)
{
    const sl_desc *d = r->d;
    char cells[SL_MAX_CELLS];
    size_t len = 0;
    ptb_catf(buf, cap, &len, "name %s\n", d->name);
    if (d->summary[0])
        ptb_catf(buf, cap, &len, "summary %s\n", d->summary);
    for (unsigned i = 0; i < r->nsources; i++)
        ptb_catf(buf, cap, &len, "source %.*s\n", (int)r->source_len[i],
                 r->sources[i]);
    ptb_catf(buf, cap, &len, "metrics");
    for (unsigned i = 0; i < d->nmetrics; i++)
        ptb_catf(buf, cap, &len, " %s", metric_names[d->metric[i]]);
    ptb_catf(buf, cap, &len, "\n");
    if (r->distinct_all || r->distinct[0])
        ptb_catf(buf, cap, &len, "distinct %s\n",
                 r->distinct_all ? "all" : r->distinct);
    if (r->axis_all || r->axis[0])
        ptb_catf(buf, cap, &len, "axis %s\n", r->axis_all ? "all" : r->axis);
    if (d->empty[0])
        ptb_catf(buf, cap, &len, "empty %s\n", d->empty);
    if (d->wall[0])
        ptb_catf(buf, cap, &len, "wall %s\n", d->wall);
    if (d->mixes)
        ptb_catf(buf, cap, &len, "covers mixes %u\n", d->min_empty);
    else
        ptb_catf(buf, cap, &len, "covers %s\n",
                 d->reachable ? "reachable" : "layouts");
    if (d->numbers[0])
        ptb_catf(buf, cap, &len, "numbers %s\n", d->numbers);
    if (d->npatterns && !d->nkeeps)
        ptb_catf(buf, cap, &len, "patterns %s\n", r->patterns);
    for (unsigned g = 0; g < d->nkeeps; g++)
        ptb_catf(buf, cap, &len, "abstraction %s\n", r->keep[g]);
    if (d->abstract)
        ptb_catf(buf, cap, &len, "pattern %u\n", d->abstract);
    ptb_catf(buf, cap, &len, "start ");
    sl_grid_text(d, d->start, '/', buf, cap, &len);
    for (unsigned i = 0; i < d->ngoals; i++) {
        goal_cells(d, &d->goal[i], cells);
        ptb_catf(buf, cap, &len, "\ngoal ");
        sl_grid_text(d, cells, '/', buf, cap, &len);
    }
    ptb_catf(buf, cap, &len, "\n");
    return len;
}

/* d->text, made in a buffer of its size: first on the stack (most fit in
 * SHORT_TEXT bytes), else measured first; a buffer of SL_MAX_TEXT would
 * cost a query the pages it never uses. */
enum { SHORT_TEXT = 1024 };
static int canonical(reader *r)
{
    sl_desc *d = r->d;
    char buf[SHORT_TEXT];
    size_t slen = 0, len = canonical_text(r, buf, sizeof buf);
    sl_grid_text(d, d->start, '/', d->start_text, sizeof d->start_text, &slen);
    if (len >= SL_MAX_TEXT)
        return ptb_errf(r->err, r->errcap, "the description is longer than "
                        "%u bytes", SL_MAX_TEXT - 1);
    if (!(d->text = malloc(len + 1)))
        return PTB_ENOMEM;
    if (len < sizeof buf)
        memcpy(d->text, buf, len + 1);
    else
        canonical_text(r, d->text, len + 1);
    return PTB_OK;
}

/* ==== reading =========================================================== */

/* The cells off the walls. */
static unsigned open_cells(const sl_desc *d)
{
    unsigned open = 0;
    for (unsigned c = 0; c < d->n; c++)
        open += !(d->walls >> c & 1);
    return open;
}

/* The most moves a piece of kind k can have in a layout with e empty
 * cells, in metric m: its steps, its places along its row and column, or
 * every place it fits; and at most 2e (a move to an anchor after its own
 * covers a new last cell, before it a new first cell: an empty one either
 * way; one cell, e). */
static unsigned piece_moves(const sl_desc *d, const sl_kind *kd, unsigned m,
                            unsigned e)
{
    unsigned across = kd->axis != SL_DOWN, down = kd->axis != SL_ACROSS;
    unsigned most = m == SL_STEP ? 2 * (across + down)
                    : m == SL_LINE ? across * (d->w - 1) + down * (d->h - 1)
                                   : (unsigned)__builtin_popcountll(kd->fit) - 1;
    unsigned room = kd->cells == 1 ? e : 2 * e;
    return most < room ? most : room;
}

/* The most moves a layout can have in metric m, over the layouts the
 * table covers (with 'covers mixes', for each number of pieces of the
 * free kinds, each as small as the smallest and as mobile as the most):
 * the size of the arrays a state's moves are listed in (puzzle.h,
 * max_moves()). */
static unsigned most_moves(const sl_desc *d, unsigned m)
{
    unsigned open = open_cells(d), fixed = 0, smallest = SL_MAX_CELLS;
    unsigned most = 0;
    for (unsigned k = 0; k < d->nkinds; k++)
        if (d->mixes && !d->kind[k].label) {
            if (d->kind[k].cells < smallest)
                smallest = d->kind[k].cells;
        } else {
            fixed += d->kind[k].count * d->kind[k].cells;
        }
    for (unsigned more = 0; fixed + more * smallest <= open; more++) {
        unsigned e = open - fixed - more * smallest, sum = 0, best = 0;
        if (d->mixes && e < d->min_empty)
            break;
        for (unsigned k = 0; k < d->nkinds; k++) {
            unsigned pm = piece_moves(d, &d->kind[k], m, e);
            if (d->mixes && !d->kind[k].label)
                best = pm > best ? pm : best;
            else
                sum += d->kind[k].count * pm;
        }
        sum += more * best;
        most = sum > most ? sum : most;
        if (smallest == SL_MAX_CELLS)
            break;                      /* (no free kind: one count) */
    }
    return most;
}

/* The letters of 'patterns' are distinct tiles of a tile puzzle (1x1
 * pieces, one empty cell, the step metric) that the one goal places. */
/* A tile puzzle of 16 or more open cells (more positions than a table
 * ranks, 2^40) that names no 'patterns' gets groups of its tiles in the
 * reading order of their goal cells, each of the most tiles k whose
 * pattern space, (m - k) m! / (m - k)! states on m open cells, holds at
 * most 2^26 (seconds to build), the last group the rest: 6-6-3 on the
 * 15-puzzle's board. */
static void default_patterns(reader *r)
{
    sl_desc *d = r->d;
    const sl_goal *gl = &d->goal[0];
    unsigned m = open_cells(d), k = 0, n = 0;
    if (d->npatterns || d->nkeeps || d->abstract || m < 16 ||
        m != d->npieces + 1 ||
        !d->reachable || d->ngoals != 1 || gl->n != d->npieces ||
        d->nmetrics != 1 || d->metric[0] != SL_STEP)
        return;
    for (unsigned j = 0; j < d->nkinds; j++)
        if (!d->kind[j].label || d->kind[j].cells != 1 ||
            d->kind[j].axis != SL_FREE)
            return;
    for (uint64_t places = m; places * (m - k - 1) <= ((uint64_t)1 << 26);
         places *= m - k)
        k++;
    if (!k || (d->npieces + k - 1) / k > SL_MAX_PATTERNS)
        return;
    unsigned in_group = 0;
    for (unsigned c = 0; c < d->n; c++)
        for (unsigned i = 0; i < gl->n; i++)
            if (gl->anchor[i] == c) {
                if (in_group == k) {
                    r->patterns[n++] = ' ';
                    in_group = 0;
                }
                r->patterns[n++] = d->kind[gl->kind[i]].label;
                in_group++;
            }
    d->npatterns = (d->npieces + k - 1) / k;
    r->patterns[n] = '\0';
}

/* Each 'abstraction' keeps whole kinds (a letter keeps its piece and
 * every piece interchangeable with it), and every kind a goal places: so
 * that a goal's image is a goal of the abstraction (doc/design.md,
 * "Abstractions").  Not with 'patterns', nor with 'covers mixes', whose
 * layouts hold any number of some pieces. */
static int check_abstractions(reader *r)
{
    sl_desc *d = r->d;
    if (!d->nkeeps)
        return PTB_OK;
    if (d->npatterns)
        return ptb_errf(r->err, r->errcap, "line %u: 'patterns' and "
                        "'abstraction' do not go together (additive groups "
                        "of tiles, or abstractions combined by maximum)",
                        r->keep_line[0]);
    if (d->mixes)
        return ptb_errf(r->err, r->errcap, "line %u: abstractions need "
                        "'covers layouts' or 'covers reachable', not mixes",
                        r->keep_line[0]);
    for (unsigned g = 0; g < d->nkeeps; g++) {
        for (const char *x = r->keep[g]; *x; x++) {
            int k = kind_of_letter(d, *x);
            if (k < 0)
                return ptb_errf(r->err, r->errcap, "line %u: '%c' is no "
                                "piece of the start", r->keep_line[g], *x);
            d->pattern[g] |= 1u << k;
        }
        for (unsigned i = 0; i < d->ngoals; i++)
            for (unsigned j = 0; j < d->goal[i].n; j++)
                if (!(d->pattern[g] >> d->goal[i].kind[j] & 1))
                    return ptb_errf(r->err, r->errcap, "line %u: the "
                                    "abstraction keeps no '%c', which a "
                                    "goal places (each keeps every piece "
                                    "the goals name)", r->keep_line[g],
                                    d->kind[d->goal[i].kind[j]].shown);
    }
    d->npatterns = d->nkeeps;
    return PTB_OK;
}

static int check_patterns(reader *r)
{
    sl_desc *d = r->d;
    unsigned line = r->patterns_line, g = 0;
    int rc = check_abstractions(r);
    if (rc != PTB_OK)
        return rc;
    if (d->abstract && d->abstract > d->npatterns)
        return ptb_errf(r->err, r->errcap, "line %u: pattern %u, but "
                        "%s %u %s", r->pattern_line, d->abstract,
                        d->nkeeps ? "the description has" : "'patterns' lists",
                        d->npatterns, d->nkeeps ? "abstractions" : "groups");
    if (d->abstract)
        snprintf(d->pattern_name, sizeof d->pattern_name, "%s-pattern-%u",
                 d->name, d->abstract);
    if (!d->npatterns || d->nkeeps)
        return PTB_OK;
    int tiles = open_cells(d) == d->npieces + 1 && d->reachable;
    for (unsigned k = 0; k < d->nkinds; k++)
        tiles &= d->kind[k].cells == 1 && d->kind[k].axis == SL_FREE;
    if (!tiles || d->nmetrics != 1 || d->metric[0] != SL_STEP ||
        d->ngoals != 1)
        return ptb_errf(r->err, r->errcap, "line %u: patterns need a tile "
                        "puzzle: 1x1 pieces moving freely, one empty cell, "
                        "'covers reachable', the step metric alone and one "
                        "goal", line);
    for (const char *x = r->patterns; *x; x++) {
        if (*x == ' ') {
            g++;
            continue;
        }
        int k = kind_of_letter(d, *x);
        unsigned placed = 0;
        for (unsigned i = 0; k >= 0 && i < d->goal[0].n; i++)
            placed |= d->goal[0].kind[i] == (unsigned)k;
        if (k < 0 || !d->kind[k].label)
            return ptb_errf(r->err, r->errcap, "line %u: '%c' is no "
                            "distinct piece of the start", line, *x);
        if (!placed)
            return ptb_errf(r->err, r->errcap, "line %u: the goal does not "
                            "place '%c'", line, *x);
        d->pattern[g] |= 1u << k;
    }
    return PTB_OK;
}

static int check(reader *r)
{
    sl_desc *d = r->d;
    int rc;
    if (!d->name[0])
        return ptb_errf(r->err, r->errcap, "no name: give 'name NAME'");
    if ((rc = read_start(r)) != PTB_OK ||
        (rc = check_listed(r, r->distinct, r->distinct_line)) != PTB_OK ||
        (rc = check_listed(r, r->axis, r->axis_line)) != PTB_OK ||
        (rc = check_listed(r, d->numbers, r->numbers_line)) != PTB_OK)
        return rc;
    if (d->mixes) {
        unsigned open = open_cells(d), covered = 0;
        for (unsigned k = 0; k < d->nkinds; k++)
            covered += d->kind[k].count * d->kind[k].cells;
        if (open - covered < d->min_empty)
            return ptb_errf(r->err, r->errcap, "line %u: covers mixes %u, "
                            "but the start has %u empty cells",
                            r->covers_line, d->min_empty, open - covered);
    }
    if (!d->ngoals)
        return ptb_errf(r->err, r->errcap, "no goal: draw one after 'goal'");
    for (unsigned i = 0; i < d->ngoals; i++)
        if ((rc = read_goal(r, &r->goals[i], &d->goal[i])) != PTB_OK)
            return rc;
    if (!d->nmetrics)
        d->metric[d->nmetrics++] = SL_STEP;
    for (unsigned i = 0; i < d->nmetrics; i++) {
        d->most[i] = most_moves(d, d->metric[i]);
        d->metric_name[i] = metric_names[d->metric[i]];
    }
    default_patterns(r);
    if ((rc = check_patterns(r)) != PTB_OK)
        return rc;
    if (!d->summary && !(d->summary = calloc(1, 1)))
        return PTB_ENOMEM;
    return canonical(r);
}

int sl_read(const char *text, int (*taken)(const char *name), sl_desc **out,
            char *err, size_t errcap)
{
    reader r = { .taken = taken };
    *out = NULL;
    if (err && errcap)
        err[0] = '\0';
    if (!(r.d = calloc(1, sizeof *r.d)))
        return PTB_ENOMEM;
    r.err = err;
    r.errcap = errcap;
    int rc = read_lines(&r, text);
    if (rc == PTB_OK)
        rc = check(&r);
    if (rc != PTB_OK) {
        sl_free(r.d);
        return rc;
    }
    *out = r.d;
    return PTB_OK;
}

void sl_free(sl_desc *d)
{
    if (!d)
        return;
    free(d->summary);
    free(d->text);
    free(d);
}

/* d with more walls, for a family (slide.h). */
int sl_walled(const sl_desc *d, uint64_t extra, sl_desc **out)
{
    *out = NULL;
    if (!d->mixes || (d->walls & extra))
        return PTB_EINVAL;
    sl_desc *w = malloc(sizeof *w);
    if (!w)
        return PTB_ENOMEM;
    *w = *d;
    size_t ns = strlen(d->summary) + 1, nt = strlen(d->text) + 1;
    if ((w->summary = malloc(ns)))
        memcpy(w->summary, d->summary, ns);
    if ((w->text = malloc(nt)))
        memcpy(w->text, d->text, nt);
    if (!w->summary || !w->text) {
        sl_free(w);
        return PTB_ENOMEM;
    }
    w->walls |= extra;
    for (unsigned k = 0; k < w->nkinds; k++)
        for (unsigned a = 0; a < w->n; a++)
            if (w->kind[k].shape << a & extra)
                w->kind[k].fit &= ~((uint64_t)1 << a);
    w->ngoals = 0;
    for (unsigned g = 0; g < d->ngoals; g++) {
        const sl_goal *gl = &d->goal[g];
        uint64_t need = gl->empty;
        for (unsigned i = 0; i < gl->n; i++)
            need |= d->kind[gl->kind[i]].shape << gl->anchor[i];
        if (!(need & extra))
            w->goal[w->ngoals++] = *gl;
    }
    for (unsigned c = 0; c < w->n; c++)       /* (a piece's cells: its char) */
        if (extra >> c & 1 && w->start[c] != '.' && w->start[c] != '#') {
            char x = w->start[c];
            for (unsigned e = 0; e < w->n; e++)
                if (w->start[e] == x)
                    w->start[e] = '.';
        }
    for (unsigned c = 0; c < w->n; c++)
        if (extra >> c & 1)
            w->start[c] = '#';
    *out = w;
    return PTB_OK;
}

/* The description of abstraction g's puzzle: d's board, metrics and
 * goals, and the start's pieces that g keeps, the others taken off; every
 * layout of them (covers layouts), each piece told apart and moving as in
 * d.  Written as text and read, so that every figure of it (kinds, the
 * most moves a layout may have) is the reader's. */
static int abstraction_text(const sl_desc *d, unsigned g, char *buf,
                            size_t cap)
{
    char cells[SL_MAX_CELLS], distinct[SL_MAX_PIECES + 1];
    char axis[SL_MAX_PIECES + 1];
    unsigned nd = 0, na = 0;
    size_t len = 0;
    for (unsigned c = 0; c < d->n; c++) {
        char x = d->start[c];
        int k = x == '.' || x == '#' ? -1 : kind_of_letter(d, x);
        cells[c] = k >= 0 && !(d->pattern[g] >> k & 1) ? '.' : x;
        if (k < 0 || cells[c] == '.' || memchr(cells, x, c))
            continue;
        if (d->kind[k].label)
            distinct[nd++] = x;
        if (d->kind[k].axis != SL_FREE)
            axis[na++] = x;
    }
    distinct[nd] = axis[na] = '\0';
    ptb_catf(buf, cap, &len, "name %s\nmetrics", d->name);
    for (unsigned i = 0; i < d->nmetrics; i++)
        ptb_catf(buf, cap, &len, " %s", metric_names[d->metric[i]]);
    ptb_catf(buf, cap, &len, "\n");
    if (nd)
        ptb_catf(buf, cap, &len, "distinct %s\n", distinct);
    if (na)
        ptb_catf(buf, cap, &len, "axis %s\n", axis);
    if (d->empty[0])
        ptb_catf(buf, cap, &len, "empty %s\n", d->empty);
    if (d->wall[0])
        ptb_catf(buf, cap, &len, "wall %s\n", d->wall);
    ptb_catf(buf, cap, &len, "start ");
    sl_grid_text(d, cells, '/', buf, cap, &len);
    for (unsigned i = 0; i < d->ngoals; i++) {
        goal_cells(d, &d->goal[i], cells);
        ptb_catf(buf, cap, &len, "\ngoal ");
        sl_grid_text(d, cells, '/', buf, cap, &len);
    }
    ptb_catf(buf, cap, &len, "\n");
    return len < cap ? PTB_OK : PTB_EINVAL;
}

int sl_abstraction(const sl_desc *d, sl_desc **out)
{
    char text[SL_MAX_TEXT];
    sl_desc *a;
    *out = NULL;
    if (!d->nkeeps || !d->abstract)
        return PTB_EINVAL;
    int rc = abstraction_text(d, d->abstract - 1, text, sizeof text);
    if (rc != PTB_OK || (rc = sl_read(text, NULL, &a, NULL, 0)) != PTB_OK)
        return rc == PTB_EPARSE ? PTB_EINVAL : rc;   /* (never) */
    size_t nt = strlen(d->text) + 1, ns = strlen(d->summary) + 1;
    free(a->text);
    free(a->summary);
    a->summary = malloc(ns);
    if (!(a->text = malloc(nt)) || !a->summary) {
        sl_free(a);
        return PTB_ENOMEM;
    }
    memcpy(a->text, d->text, nt);
    memcpy(a->summary, d->summary, ns);
    a->abstract = d->abstract;
    memcpy(a->pattern_name, d->pattern_name, sizeof a->pattern_name);
    *out = a;
    return PTB_OK;
}
