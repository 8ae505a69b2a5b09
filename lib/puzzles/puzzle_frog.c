/* lib/puzzles/puzzle_frog.c: the frog puzzle (swap n white and n black pieces).
 *
 * Rules.  A row of 2n+1 cells holds n white pieces (W) on the left, an empty
 * cell, and n black pieces (B) on the right.  White moves only right, black
 * only left: a piece steps into the adjacent empty cell, or jumps over one
 * piece of the other colour into it.  The goal is the row with the colours
 * exchanged (n B, the empty cell, n W); the standard start takes n(n+2)
 * moves.  Pieces never move back, so most arrangements are dead ends.
 *
 * Symmetry.  Reversing the row and swapping the colours (together: either
 * alone changes the direction a colour moves in) maps moves to moves and the
 * goal and the start to themselves, so a row and its mirror image are
 * equally far from the goal.  The table keeps one row of each such pair:
 * the 88,918,352 rows of n = 1..12 are 44,463,271 pairs.  Measured before
 * the change with tests/bench/symmetry (build/bench/symmetry frog, values
 * compressed as the tables do): 399,567 bytes for every row, 187,965 for
 * one a pair (2.13x smaller).  After it, side by side on 2 cores: the
 * table went from 589,824 bytes to 299,008, and tbgen --puzzle frog from
 * 1.9 s to 1.05 s of CPU time (6.7 s to 3.4 s wall on a loaded machine).
 *
 * State space.  One subtable per n = 1..12 (sub = n - 1).  A row is its
 * empty cell e (0..2n, from the left) and the string of its 2n pieces read
 * without the empty cell (bit k set: the k-th piece from the left is
 * white).  The string's low n bits hold j white pieces, its high n bits the
 * other n - j; a = rank(high), b = rank(low), with rank() the colex rank of
 * a mask among the masks of its popcount.  The mirror image has the empty
 * cell at 2n - e and the string reversed and complemented, rc(), which
 * swaps the halves: (high, low) becomes (rc(low), rc(high)).  So:
 *   - e < n: every string, P = C(2n, n) of them:
 *         idx = e * P + off[j] + a * C(n, j) + b,
 *         off[j] = sum of C(n, i)^2 for i < j (Vandermonde: off[n+1] = P);
 *   - e > n: the row is stored as its mirror image (which has e < n);
 *   - e = n: with c = rank(rc(low)) (a mask with n - j bits, like high),
 *     the mirror image swaps a and c, so the table keeps a >= c:
 *         idx = n * P + mid[j] + a (a + 1) / 2 + c,
 *         mid[j] = sum of m(m + 1) / 2 for m = C(n, i), i < j,
 *     which makes (P + 2^n) / 2 rows (the 2^n with a = c are their own
 *     mirror image, among them the start and the goal).
 * A subtable has n * P + (P + 2^n) / 2 states.  A step keeps the string
 * and moves the empty cell by one; a jump moves it by two and swaps two
 * adjacent bits; either way the successor is then stored as itself or as
 * its mirror image, so moves are a few table look-ups.  moves() lists every
 * move of the row, so a row that is its own mirror image (the start) may
 * have two moves to one state; unmoves() lists each state once.  Moves are
 * not reversible, and the table keeps exact distances.
 * The rank and reversal tables and the per-n numbers are made at build
 * time (PTB_MKTABLES, at the end of this file), so open() does no work.
 *
 * Position view: aux = 1 when the user's row is the mirror image of the
 * table's state (then moves and boards are mirrored when printed), else 0.
 *
 * Native text.  A row such as "WWW.BBB", one line read by the shared
 * reader (lib/puzzles/text.c): W, w or U+25CB (white circle) for a white piece,
 * B, b or U+25CF (black circle) for a black one, '.' for the empty cell.
 * Spaces: when the row has a '.', spaces and tabs only separate cells
 * ("○ ○ ○ . ● ● ●"); without a '.', the row must hold exactly one space,
 * which is the empty cell ("○○○ ●●●").  The text must be one line.  A move
 * code is from * 32 + to (cells); a move prints as "W 3-4" (colour, cells
 * 1-based from the left).  The answer lists every board of the solution,
 * numbered from the start as in the classic program: "No.  0: WWW.BBB".
 *
 * May touch: its arguments and its context only.  No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "text.h"

#define MAX_N 12
#define MAX_CELLS (2 * MAX_N + 1)

/* Per n: the numbers that split an index into its parts. */
typedef struct frog_sub {
    unsigned n;
    uint32_t pieces;               /* C(2n, n): strings of the pieces */
    uint32_t off[MAX_N + 2];       /* first rank, j whites in the low half */
    uint32_t choose[MAX_N + 1];    /* C(n, j) */
    uint32_t mid[MAX_N + 2];       /* first middle rank, j whites low */
    uint64_t size;                 /* states: n * pieces + middle rows */
    uint64_t goal;                 /* index of B..B.W..W */
    uint64_t start;                /* index of W..W.B..B */
} frog_sub;

/* The constant tables: one const object in build/gen/frog_tables.h, made at
 * build time by the PTB_MKTABLES section below; open() hands out its
 * address. */
typedef struct frog_ctx {
    uint16_t rank[1u << MAX_N];    /* colex rank among masks of its popcount */
    uint16_t unrank[1u << MAX_N];  /* masks sorted by popcount, then value */
    uint16_t first[MAX_N + 2];     /* where popcount k starts in unrank */
    uint16_t rev[1u << MAX_N];     /* the 12 low bits reversed */
    frog_sub sub[MAX_N];
} frog_ctx;

/* A decoded state: the empty cell and the string of the pieces. */
typedef struct frog_state {
    unsigned empty;
    uint32_t white;                /* bit k: the k-th piece is white */
} frog_state;

static const char *const metrics[] = { "move", NULL };

/* ---- ranking ---------------------------------------------------------- */

/* rc() of an n-bit mask: reversed and complemented. */
static uint32_t rc(const frog_ctx *c, unsigned n, uint32_t m)
{
    return c->rev[~m & ((1u << n) - 1)] >> (MAX_N - n);
}

/* The table index of a row; *mirrored = 1 when the table stores it as its
 * mirror image (a row that is its own image counts as stored as itself). */
static uint64_t encode_view(const frog_ctx *c, const frog_sub *f,
                            const frog_state *s, unsigned *mirrored)
{
    unsigned n = f->n, e = s->empty;
    uint32_t low = s->white & ((1u << n) - 1), high = s->white >> n;
    *mirrored = 0;
    if (e > n) {
        uint32_t l = rc(c, n, high);
        high = rc(c, n, low);
        low = l;
        e = 2 * n - e;
        *mirrored = 1;
    }
    unsigned j = ptb_popcount(low);
    uint32_t a = c->rank[high];
    if (e < n)
        return (uint64_t)e * f->pieces + f->off[j] + a * f->choose[j] +
               c->rank[low];
    uint32_t cr = c->rank[rc(c, n, low)];
    if (cr > a) {
        uint32_t t = a;
        a = cr;
        cr = t;
        *mirrored = 1;
    }
    return (uint64_t)n * f->pieces + f->mid[j] + (uint64_t)a * (a + 1) / 2 +
           cr;
}

static uint64_t encode(const frog_ctx *c, const frog_sub *f,
                       const frog_state *s)
{
    unsigned mirrored;
    return encode_view(c, f, s, &mirrored);
}

/* The row a state stands for, as stored (never with e > n). */
static void decode(const frog_ctx *c, const frog_sub *f, uint64_t idx,
                   frog_state *s)
{
    unsigned n = f->n, j = 0;
    uint64_t e = idx / f->pieces;
    if (e < n) {
        uint32_t pieces = (uint32_t)(idx % f->pieces);
        while (pieces >= f->off[j + 1])
            j++;
        pieces -= f->off[j];
        uint32_t high = pieces / f->choose[j], low = pieces % f->choose[j];
        s->empty = (unsigned)e;
        s->white = c->unrank[c->first[j] + low] |
                   (uint32_t)c->unrank[c->first[n - j] + high] << n;
        return;
    }
    uint64_t t = idx - (uint64_t)n * f->pieces;
    while (j < n && t >= f->mid[j + 1])
        j++;
    t -= f->mid[j];
    uint64_t a = 0, hi = f->choose[j];     /* the largest a with */
    while (a + 1 < hi) {                    /* a (a + 1) / 2 <= t */
        uint64_t m = (a + hi) / 2;
        if (m * (m + 1) / 2 <= t)
            a = m;
        else
            hi = m;
    }
    uint32_t cr = (uint32_t)(t - a * (a + 1) / 2);
    uint32_t high = c->unrank[c->first[n - j] + a];
    uint32_t low = rc(c, n, c->unrank[c->first[n - j] + cr]);
    s->empty = n;
    s->white = low | high << n;
}

/* The mirror image of a row of n a side. */
static frog_state mirror(const frog_ctx *c, unsigned n, const frog_state *s)
{
    uint32_t low = s->white & ((1u << n) - 1), high = s->white >> n;
    frog_state m = { 2 * n - s->empty, rc(c, n, high) | rc(c, n, low) << n };
    return m;
}

#ifdef PTB_MKTABLES
static uint64_t binomial(unsigned n, unsigned k)
{
    uint64_t r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

static void init_sub(const frog_ctx *c, frog_sub *f, unsigned n)
{
    f->n = n;
    f->pieces = (uint32_t)binomial(2 * n, n);
    f->off[0] = f->mid[0] = 0;
    for (unsigned j = 0; j <= n; j++) {
        uint32_t m = f->choose[j] = (uint32_t)binomial(n, j);
        f->off[j + 1] = f->off[j] + m * m;
        f->mid[j + 1] = f->mid[j] + m * (m + 1) / 2;
    }
    f->size = (uint64_t)n * f->pieces + f->mid[n + 1];
    uint32_t all = (1u << n) - 1;
    frog_state goal = { n, all << n }, start = { n, all };
    f->goal = encode(c, f, &goal);
    f->start = encode(c, f, &start);
}

static int frog_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    if (metric != 0)
        return PTB_EINVAL;
    frog_ctx *c = malloc(sizeof *c);
    if (!c)
        return PTB_ENOMEM;
    unsigned at = 0;
    for (unsigned k = 0; k <= MAX_N; k++) {
        c->first[k] = (uint16_t)at;
        for (uint32_t m = 0; m < (1u << MAX_N); m++)
            if (ptb_popcount(m) == k) {   /* ascending masks: colex order */
                c->rank[m] = (uint16_t)(at - c->first[k]);
                c->unrank[at++] = (uint16_t)m;
            }
    }
    c->first[MAX_N + 1] = (uint16_t)at;
    for (uint32_t m = 0; m < (1u << MAX_N); m++) {
        c->rev[m] = 0;
        for (unsigned b = 0; b < MAX_N; b++)
            c->rev[m] |= (uint16_t)((m >> b & 1) << (MAX_N - 1 - b));
    }
    for (unsigned n = 1; n <= MAX_N; n++)
        init_sub(c, &c->sub[n - 1], n);
    *out = c;
    return PTB_OK;
}

static void frog_close(void *ctx)
{
    free(ctx);
}
#else
#include "frog_tables.h"           /* static const frog_ctx frog_tables */

/* Nothing to build: every process shares the tables in the binary. */
static int frog_open(const ptb_puzzle *self, unsigned metric,
                     void **out)
{
    (void)self;
    if (metric != 0)
        return PTB_EINVAL;
    *out = (void *)&frog_tables;
    return PTB_OK;
}

static void frog_close(void *ctx)
{
    (void)ctx;
}
#endif

/* The subtable of sub, or NULL when out of range. */
static const frog_sub *sub_of(const void *ctx, uint32_t sub)
{
    const frog_ctx *c = ctx;
    return sub < MAX_N ? &c->sub[sub] : NULL;
}

static uint64_t sub_size(const frog_sub *f)
{
    return f->size;
}

/* Colour of a cell: 'W', 'B' or '.'. */
static char cell_at(const frog_state *s, unsigned cell)
{
    if (cell == s->empty)
        return '.';
    unsigned k = cell < s->empty ? cell : cell - 1;
    return s->white >> k & 1 ? 'W' : 'B';
}

/* ---- state space ------------------------------------------------------ */

static uint32_t frog_subtables(const void *ctx)
{
    (void)ctx;
    return MAX_N;
}

static uint64_t frog_size(const void *ctx, uint32_t sub)
{
    const frog_sub *f = sub_of(ctx, sub);
    return f ? sub_size(f) : 0;
}

static void frog_goals(const void *ctx, uint32_t sub,
                       void (*emit)(void *arg, uint64_t idx), void *arg)
{
    const frog_sub *f = sub_of(ctx, sub);
    if (f)
        emit(arg, f->goal);
}

static int frog_is_goal(const void *ctx, uint32_t sub, uint64_t idx)
{
    const frog_sub *f = sub_of(ctx, sub);
    return f && idx == f->goal;
}

/* The string with pieces k and k+1 exchanged (a jump). */
static uint32_t swap_pair(uint32_t white, unsigned k)
{
    return white ^ (3u << k);   /* called only when the two bits differ */
}

/* Adds the state of the row (empty, white) to out; when unique, not if out
 * has it already (two rows that are each other's mirror image, one before
 * a row that is its own, are one state). */
static void push(const frog_ctx *c, const frog_sub *f, unsigned empty,
                 uint32_t white, uint64_t *out, unsigned *n, int unique)
{
    frog_state t = { empty, white };
    uint64_t idx = encode(c, f, &t);
    for (unsigned i = 0; unique && i < *n; i++)
        if (out[i] == idx)
            return;
    out[(*n)++] = idx;
}

static unsigned frog_moves(const void *ctx, uint32_t sub, uint64_t idx,
                           ptb_move *out)
{
    const frog_sub *f = sub_of(ctx, sub);
    uint64_t to[4];
    uint32_t code[4];
    unsigned n = 0;
    frog_state s;
    if (!f || idx >= sub_size(f))
        return 0;
    decode(ctx, f, idx, &s);
    unsigned e = s.empty, last = 2 * f->n;
    uint32_t w = s.white;
    /* Piece k of the string is at cell k left of the empty cell, k+1 right
     * of it; moves in order of the cell they start from. */
    if (e >= 2 && (w >> (e - 2) & 3) == 1) {        /* W jumps over B */
        code[n] = (e - 2) * 32 + e;
        push(ctx, f, e - 2, swap_pair(w, e - 2), to, &n, 0);
    }
    if (e >= 1 && (w >> (e - 1) & 1)) {             /* W steps right */
        code[n] = (e - 1) * 32 + e;
        push(ctx, f, e - 1, w, to, &n, 0);
    }
    if (e + 1 <= last && !(w >> e & 1)) {           /* B steps left */
        code[n] = (e + 1) * 32 + e;
        push(ctx, f, e + 1, w, to, &n, 0);
    }
    if (e + 2 <= last && (w >> e & 3) == 1) {       /* B jumps over W */
        code[n] = (e + 2) * 32 + e;
        push(ctx, f, e + 2, swap_pair(w, e), to, &n, 0);
    }
    for (unsigned i = 0; i < n; i++) {
        out[i].to = to[i];
        out[i].code = code[i];
    }
    return n;
}

static unsigned frog_unmoves(const void *ctx, uint32_t sub, uint64_t idx,
                             uint64_t *out)
{
    const frog_sub *f = sub_of(ctx, sub);
    unsigned n = 0;
    frog_state s;
    if (!f || idx >= sub_size(f))
        return 0;
    decode(ctx, f, idx, &s);
    unsigned e = s.empty, last = 2 * f->n;
    uint32_t w = s.white;
    /* The piece that moved last now stands next to, or two from, the empty
     * cell, which it came from. */
    if (e >= 2 && (w >> (e - 2) & 3) == 2)          /* B jumped from e */
        push(ctx, f, e - 2, swap_pair(w, e - 2), out, &n, 1);
    if (e >= 1 && !(w >> (e - 1) & 1))              /* B stepped from e */
        push(ctx, f, e - 1, w, out, &n, 1);
    if (e + 1 <= last && (w >> e & 1))              /* W stepped from e */
        push(ctx, f, e + 1, w, out, &n, 1);
    if (e + 2 <= last && (w >> e & 3) == 2)         /* W jumped from e */
        push(ctx, f, e + 2, swap_pair(w, e), out, &n, 1);
    return n;
}

/* ---- queries ---------------------------------------------------------- */

/* One parsed row: its first cells as W/B/. and what was counted. */
typedef struct frog_row {
    char cell[MAX_CELLS];
    unsigned cells, white, black, empty, spaces;
} frog_row;

static void add_cell(frog_row *r, char ch)
{
    if (r->cells < MAX_CELLS)
        r->cell[r->cells] = ch;
    r->cells++;
    r->white += ch == 'W';
    r->black += ch == 'B';
    r->empty += ch == '.';
}

/* Reads the characters of one row.  A blank is the empty cell when
 * blank_is_empty, else a separator; either way it is counted. */
static int scan_row(const ptb_token *t, int blank_is_empty, frog_row *r,
                    char *err, size_t errcap)
{
    static const char white_utf8[] = "\xe2\x97\x8b";   /* U+25CB */
    static const char black_utf8[] = "\xe2\x97\x8f";   /* U+25CF */
    char what[16];
    for (unsigned i = 0; i < t->len; i++) {
        const char *p = t->s + i;
        unsigned left = t->len - i;
        char ch = ptb_upper(*p);
        if (ch == 'W' || ch == 'B' || ch == '.') {
            add_cell(r, ch);
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            if (blank_is_empty)
                add_cell(r, '.');
            r->spaces++;
        } else if (left >= 3 && memcmp(p, white_utf8, 3) == 0) {
            add_cell(r, 'W');
            i += 2;
        } else if (left >= 3 && memcmp(p, black_utf8, 3) == 0) {
            add_cell(r, 'B');
            i += 2;
        } else {
            ptb_text_char(p, left, what, sizeof what);
            return ptb_errf(err, errcap, "line %u, column %u: unexpected "
                            "%s (expected W, B, '.', \xe2\x97\x8b or "
                            "\xe2\x97\x8f)", t->line, ptb_text_column(t, i),
                            what);
        }
    }
    return PTB_OK;
}

/* Reads one row (one line of text, through the shared reader).  Blanks
 * separate cells when the row has a '.'; without one, the row's single
 * blank is the empty cell. */
static int read_row(const char *text, frog_row *r, char *err, size_t errcap)
{
    ptb_token row[2];
    unsigned rows = ptb_text_split(text, PTB_TEXT_LINES, row, 2);
    memset(r, 0, sizeof *r);
    if (rows == 0)
        return ptb_errf(err, errcap, "empty input (expected a row such as "
                        "WWW.BBB)");
    if (rows > 1)
        return ptb_errf(err, errcap, "line %u: expected one row, got a "
                        "second line", row[1].line);
    int has_dot = memchr(row[0].s, '.', row[0].len) != NULL;
    int rc = scan_row(&row[0], !has_dot, r, err, errcap);
    if (rc != PTB_OK)
        return rc;
    if (!has_dot && r->spaces > 1)
        return ptb_errf(err, errcap, "%u blanks and no '.': mark the empty "
                        "cell with '.'", r->spaces);
    if (r->empty != 1)
        return ptb_errf(err, errcap, "expected one empty cell '.', got %u",
                        r->empty);
    if (r->white != r->black)
        return ptb_errf(err, errcap, "unequal counts: %u W and %u B",
                        r->white, r->black);
    if (r->white > MAX_N)
        return ptb_errf(err, errcap, "n = %u: the tables hold n from 1 to %d",
                        r->white, MAX_N);
    if (r->white == 0)
        return ptb_errf(err, errcap, "no pieces: expected n W and n B, "
                        "n from 1 to %d", MAX_N);
    return PTB_OK;
}

static void set_position(const frog_sub *f, uint64_t idx, ptb_position *p)
{
    memset(p, 0, sizeof *p);
    p->sub = f->n - 1;
    p->idx = idx;
}

static int frog_parse(const void *ctx, const char *text,
                      const char *const *opt, ptb_position out[2],
                      unsigned *n, char *err, size_t errcap)
{
    const frog_ctx *c = ctx;
    frog_row r;
    if (opt[0]) {
        char *end;
        unsigned long size = strtoul(opt[0], &end, 10);
        if (!*opt[0] || *end || opt[0][0] == '-' || opt[0][0] == '+' ||
            size < 1 || size > MAX_N)
            return ptb_errf(err, errcap, "n: expected a number from 1 to %d,"
                            " got '%s'", MAX_N, opt[0]);
        set_position(&c->sub[size - 1], c->sub[size - 1].start, &out[0]);
        *n = 1;
        return PTB_OK;
    }
    int rc = read_row(text, &r, err, errcap);
    if (rc != PTB_OK)
        return rc;
    const frog_sub *f = &c->sub[r.white - 1];
    frog_state s = { 0, 0 };
    for (unsigned i = 0, k = 0; i < r.cells; i++) {
        if (r.cell[i] == '.')
            s.empty = i;
        else if (r.cell[i] == 'W')
            s.white |= 1u << k++;
        else
            k++;
    }
    unsigned mirrored;
    set_position(f, encode_view(c, f, &s, &mirrored), &out[0]);
    out[0].aux = mirrored;
    *n = 1;
    return PTB_OK;
}

/* Batch input: one row a record. */
static unsigned frog_record_lines(const void *ctx, const char *first_line)
{
    (void)ctx;
    (void)first_line;
    return 1;
}

/* The user's row: the table's state, or its mirror image (aux 1). */
static int user_row(const frog_ctx *c, const ptb_position *p, frog_state *s)
{
    const frog_sub *f = sub_of(c, p->sub);
    if (!f || p->idx >= sub_size(f))
        return 0;
    decode(c, f, p->idx, s);
    if (p->aux & 1)
        *s = mirror(c, f->n, s);
    return 1;
}

/* The user's cells of a move made from p (codes are in the table's row). */
static void user_move(const frog_sub *f, const ptb_position *p,
                      const ptb_move *m, unsigned *from, unsigned *to)
{
    *from = m->code / 32 % 32;
    *to = m->code % 32;
    if (p->aux & 1) {
        *from = 2 * f->n - *from;
        *to = 2 * f->n - *to;
    }
}

/* Plays the move on the user's row and notes how the table stores the
 * result. */
static void frog_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    const frog_sub *f = sub_of(ctx, p->sub);
    frog_state s;
    unsigned from, to, mirrored = 0;
    if (user_row(ctx, p, &s)) {
        user_move(f, p, m, &from, &to);
        if (from <= 2 * f->n && to <= 2 * f->n && s.empty == to) {
            unsigned a = from < to ? from : to;   /* a jump swaps pieces */
            if (from + 2 == to || to + 2 == from)
                s.white = swap_pair(s.white, a);
            s.empty = from;
            encode_view(ctx, f, &s, &mirrored);
        }
    }
    p->idx = m->to;
    p->aux = mirrored;
}

/* The row as W/B/. text, in the user's orientation (aux 1: mirrored). */
static int row_text(const void *ctx, uint32_t sub, uint64_t idx,
                    uint32_t aux, char *buf, size_t cap)
{
    const frog_sub *f = sub_of(ctx, sub);
    ptb_position p = { .sub = sub, .aux = aux, .idx = idx };
    char text[MAX_CELLS + 1];
    size_t len = 0;
    frog_state s;
    if (!user_row(ctx, &p, &s)) {
        ptb_catf(buf, cap, &len, "?");
        return (int)len;
    }
    for (unsigned i = 0; i <= 2 * f->n; i++)
        text[i] = cell_at(&s, i);
    text[2 * f->n + 1] = 0;
    len = 2 * f->n + 1;
    if (cap) {
        size_t k = len < cap ? len : cap - 1;
        memcpy(buf, text, k);
        buf[k] = 0;
    }
    return (int)len;
}

static int frog_format_board(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap)
{
    return row_text(ctx, p->sub, p->idx, p->aux, buf, cap);
}

static int frog_format_move(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap)
{
    const frog_sub *f = sub_of(ctx, before->sub);
    unsigned from = m->code / 32 % 32, to = m->code % 32;
    char colour = '?';
    size_t len = 0;
    frog_state s;
    if (user_row(ctx, before, &s)) {
        user_move(f, before, m, &from, &to);
        if (from <= 2 * f->n)
            colour = cell_at(&s, from);
    }
    ptb_catf(buf, cap, &len, "%c %u-%u", colour, from + 1, to + 1);
    return (int)len;
}

/* Every board from the start to the goal, numbered from 0.  Nothing for an
 * unsolvable position (distance PTB_UNSOLVABLE). */
static int frog_format_answer(const void *ctx, const ptb_solution *s,
                              char *buf, size_t cap)
{
    /* "No. %2u: ROW\n" a line, built directly: vsnprintf per line was
     * half of a 168-move answer's instructions */
    char line[16 + MAX_CELLS + 2];
    size_t len = 0;
    if (cap)
        buf[0] = 0;
    for (unsigned i = 0; s->distance <= PTB_MAX_DISTANCE && i <= s->distance;
         i++) {
        const ptb_position *p = i == 0 ? &s->start : &s->after[i - 1];
        size_t n = 4;
        memcpy(line, "No. ", 4);
        if (i >= 100)
            line[n++] = (char)('0' + i / 100);
        line[n++] = i >= 10 ? (char)('0' + i / 10 % 10) : ' ';
        line[n++] = (char)('0' + i % 10);
        line[n++] = ':';
        line[n++] = ' ';
        n += (size_t)row_text(ctx, p->sub, p->idx, p->aux, line + n,
                              sizeof line - n - 1);
        line[n++] = '\n';
        if (len + n < cap)
            memcpy(buf + len, line, n), buf[len + n] = 0;
        else if (len < cap)
            buf[cap - 1] = 0;          /* truncated, as snprintf would */
        len += n;
    }
    return (int)len;
}

static int frog_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                            char *buf, size_t cap)
{
    return row_text(ctx, sub, idx, 0, buf, cap);
}

/* "n" and "code" (the row, as the input reads it back). */
static int frog_format_query_json(const void *ctx, const ptb_position *p,
                                  char *buf, size_t cap)
{
    char row[MAX_CELLS + 2];
    size_t len = 0;
    row_text(ctx, p->sub, p->idx, p->aux, row, sizeof row);
    ptb_catf(buf, cap, &len, "\"n\":%u,\"code\":\"%s\"", p->sub + 1, row);
    return (int)len;
}

/* Cells are numbered from 1 on the left of the user's row (the state's
 * mirror image when the position is stored as its mirror: user_move(), as
 * in the text); a jump passes over one piece. */
static int frog_format_move_json(const void *ctx, const ptb_position *before,
                                 const ptb_move *m, char *buf, size_t cap)
{
    char text[32];
    size_t len = 0;
    unsigned from = m->code / 32 % 32, to = m->code % 32;
    frog_state s;
    if (user_row(ctx, before, &s))
        user_move(sub_of(ctx, before->sub), before, m, &from, &to);
    frog_format_move(ctx, before, m, text, sizeof text);
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":%u,\"to\":%u,"
             "\"direction\":\"%s\",\"jump\":%s}", text[0], from + 1, to + 1,
             to > from ? "right" : "left",
             to + 2 == from || from + 2 == to ? "true" : "false");
    return (int)len;
}

static const ptb_option frog_options[] = {
    { "n", "N", "solve the standard start with N frogs a side (1..12)",
      PTB_OPT_POSITION },
    { NULL, NULL, NULL, 0 }
};

const ptb_puzzle ptb_puzzle_frog = {
    .name = "frog",
    .summary = "swap n white and n black frogs in a row, n = 1..12",
    .metrics = metrics,
    .reversible = 0,
    .options = frog_options,
    .open = frog_open,
    .close = frog_close,
    .subtables = frog_subtables,
    .size = frog_size,
    .goals = frog_goals,
    .is_goal = frog_is_goal,
    .moves = frog_moves,
    .unmoves = frog_unmoves,
    .parse = frog_parse,
    .record_lines = frog_record_lines,
    .apply = frog_apply,
    .format_board = frog_format_board,
    .format_move = frog_format_move,
    .format_answer = frog_format_answer,
    .format_code = frog_format_code,
    .format_query_json = frog_format_query_json,
    .format_move_json = frog_format_move_json,
};

#ifdef PTB_MKTABLES
/* ---- the generator: prints build/gen/frog_tables.h ---- */
#include "mktables.h"

int main(void)
{
    frog_ctx *c;
    if (frog_open(NULL, 0, (void **)&c) != PTB_OK) {
        fprintf(stderr, "mktables_frog: out of memory\n");
        return 1;
    }
    printf("/* Made by build/gen/mktables_frog from lib/puzzles/puzzle_frog.c. */"
           "\nstatic const frog_ctx frog_tables = {\n");
    MK_FIELD(c, rank, 1u << MAX_N);
    MK_FIELD(c, unrank, 1u << MAX_N);
    MK_FIELD(c, first, MAX_N + 2);
    MK_FIELD(c, rev, 1u << MAX_N);
    printf("    .sub = {\n");
    for (unsigned i = 0; i < MAX_N; i++) {
        const frog_sub *f = &c->sub[i];
        printf("    {\n    .n = %u,\n    .pieces = %lu,\n", f->n,
               (unsigned long)f->pieces);
        MK_FIELD(f, off, MAX_N + 2);
        MK_FIELD(f, choose, MAX_N + 1);
        MK_FIELD(f, mid, MAX_N + 2);
        printf("    .size = %llu,\n    .goal = %llu,\n    .start = %llu,\n"
               "    },\n", (unsigned long long)f->size,
               (unsigned long long)f->goal, (unsigned long long)f->start);
    }
    printf("    },\n};\n");
    frog_close(c);
    return ferror(stdout) ? 1 : 0;
}
#endif
