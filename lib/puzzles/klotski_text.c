/* lib/puzzles/klotski_text.c: the built-in Klotski's notations: the
 * native view (the user's board, mirrored or not), the query readers
 * (the board in seed 002's text, CommonCode, ShortCode) and the JSON. */
#include "klotski.h"

/* Sets the state of the user's layout l: the index, KL_MIRRORED and the
 * kept layout. */
static void kl_set_state(ptb_position *p, const kl_layout *l)
{
    kl_layout m;
    int flip;
    p->idx = kl_state_of(l, &flip);
    if (flip) {
        kl_mirror(l, &m);
        l = &m;
        p->aux |= KL_MIRRORED;
    }
    kl_keep(p, l);
}

static char kl_empty_mark(const ptb_position *p)
{
    return p->aux & 0xFF ? (char)(p->aux & 0xFF) : 'K';
}

/* The cells showing the same letter as cell c. */
static uint32_t kl_letter_cells(const ptb_position *p, unsigned c)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (p->cell[i] == p->cell[c])
            m |= 1u << i;
    return m;
}

/* The top-left cell of the piece covering cell c: pieces are at most 2x2
 * and show one letter each, so it is c, or one cell left or up of it, or
 * both. */
static unsigned kl_piece_corner(const ptb_position *p, unsigned c)
{
    unsigned char x = p->cell[c];
    if (c % 4 && p->cell[c - 1] == x)
        c--;
    if (c >= 4 && p->cell[c - 4] == x)
        c -= 4;
    return c;
}

/* The cells of the piece whose top-left cell is c (the same as
 * kl_letter_cells(p, c), read from the two cells right of and below c). */
static uint32_t kl_piece_cells(const ptb_position *p, unsigned c)
{
    unsigned char x = p->cell[c];
    uint32_t row = c % 4 < 3 && p->cell[c + 1] == x ? 3u : 1u;
    return (c + 4 < KL_CELLS && p->cell[c + 4] == x ? row | row << 4 : row)
           << c;
}

static uint32_t kl_empty_cells(const ptb_position *p)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (p->cell[i] == (unsigned char)kl_empty_mark(p))
            m |= 1u << i;
    return m;
}

/* Type of a solid piece covering mask m (top-left cell p), or KL_EMPTY. */
static unsigned kl_piece_type(uint32_t m, unsigned p)
{
    for (unsigned ty = KL_HORZ; ty <= KL_BLOCK; ty++)
        if (m == kl_shape[ty] << p && kl_fit(ty, m) == 1u << p)
            return ty;
    return KL_EMPTY;
}

/* Names the pieces of a layout as a general grid: A the 2x2 block, B, C,
 * ... the others in row-major order, '.' empty. */
static void kl_name_pieces(const kl_layout *l, ptb_position *pos)
{
    char next = 'B';
    pos->aux = '.';
    memset(pos->cell, 0, sizeof pos->cell);
    memset(pos->cell, '.', KL_CELLS);
    uint32_t pieces = l->h | l->v | l->s | 1u << l->head;
    for (; pieces; pieces &= pieces - 1) {
        unsigned p = ptb_low_bit(pieces), ty = kl_type_at(l, p);
        char c = ty == KL_BLOCK ? 'A' : next++;
        for (unsigned i = 0; i < KL_CELLS; i++)
            if ((kl_shape[ty] << p) >> i & 1)
                pos->cell[i] = (unsigned char)c;
    }
}

/* A table move on the user's board: the top-left cells of its piece before
 * and after.  On a mirrored board the piece is the one under the mirror of
 * the state's cell, and a move right in the state is a move left. */
static void kl_user_move(const ptb_position *p, const ptb_move *m,
                         unsigned *from, unsigned *to)
{
    unsigned a = m->code & 31, b = m->code >> 5 & 31;
    if (!(p->aux & KL_MIRRORED)) {
        *from = a;
        *to = b;
        return;
    }
    *from = kl_piece_corner(p, a + 3 - 2 * (a % 4));
    *to = (unsigned)((int)*from + 4 * ((int)(b / 4) - (int)(a / 4))
                     - ((int)(b % 4) - (int)(a % 4)));
}

void kl_apply(const void *ctx, ptb_position *p, const ptb_move *m)
{
    unsigned from, to;
    (void)ctx;
    kl_user_move(p, m, &from, &to);
    unsigned char letter = p->cell[from];
    uint32_t cells = kl_piece_cells(p, from);
    for (uint32_t c = cells; c; c &= c - 1)
        p->cell[ptb_low_bit(c)] = (unsigned char)kl_empty_mark(p);
    for (uint32_t c = cells; c; c &= c - 1)
        p->cell[ptb_low_bit(c) - from + to] = letter;
    if (m->code & KL_FLIP)
        p->aux ^= KL_MIRRORED;
    p->idx = m->to;
    kl_layout s, after, mirror;
    unsigned a = m->code & 31;
    kl_kept_layout(p, &s);
    kl_move(&s, kl_type_at(&s, a), a, m->code >> 5 & 31, &after);
    if (m->code & KL_FLIP)
        kl_mirror(&after, &mirror);
    kl_keep(p, m->code & KL_FLIP ? &mirror : &after);
}

static void kl_board_text(const ptb_position *p, char out[KL_BOARD_TEXT])
{
    for (unsigned r = 0; r < KL_ROWS; r++) {
        memcpy(out + 5 * r, p->cell + 4 * r, 4);
        out[5 * r + 4] = '\n';
    }
    out[KL_BOARD_TEXT - 1] = '\0';
}

int kl_format_board(const void *ctx, const ptb_position *p, char *buf,
                    size_t cap)
{
    char text[KL_BOARD_TEXT];
    size_t len = 0;
    (void)ctx;
    kl_board_text(p, text);
    ptb_catf(buf, cap, &len, "%s", text);
    return (int)len;
}

/* A shortest path of cell steps (U, D, L, R) from placement a to b within
 * the placements fit; writes the letters and a NUL, returns the length.
 * When a straight line from a to b is open it is the only shortest path,
 * and it is found without the search (every step and line move). */
static unsigned kl_path(uint32_t fit, unsigned a, unsigned b, char *out)
{
    static const char dir[4] = { 'U', 'D', 'L', 'R' };
    signed char via[KL_CELLS];
    unsigned queue[KL_CELLS], head = 0, tail = 0, n = 0;
    for (unsigned d = 0; d < 4; d++) {
        n = 0;
        for (uint32_t y = kl_shift(1u << a, d) & fit; y;
             y = kl_shift(y, d) & fit) {
            out[n++] = dir[d];
            if (y == 1u << b) {
                out[n] = '\0';
                return n;
            }
        }
    }
    n = 0;
    memset(via, -1, sizeof via);
    via[a] = 4;
    queue[tail++] = a;
    while (head < tail && via[b] < 0) {
        unsigned c = queue[head++];
        for (unsigned d = 0; d < 4; d++) {
            uint32_t y = kl_shift(1u << c, d) & fit;
            if (y && via[ptb_low_bit(y)] < 0) {
                via[ptb_low_bit(y)] = (signed char)d;
                queue[tail++] = ptb_low_bit(y);
            }
        }
    }
    char rev[KL_CELLS];
    for (unsigned c = b; c != a && via[c] >= 0 && via[c] < 4;) {
        unsigned d = (unsigned)via[c];
        rev[n++] = dir[d];
        c = d == 0 ? c + 4 : d == 1 ? c - 4 : d == 2 ? c + 1 : c - 1;
    }
    for (unsigned i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    out[n] = '\0';
    return n;
}

static unsigned kl_move_text(const ptb_position *before, const ptb_move *m,
                             char out[KL_MOVE_TEXT])
{
    unsigned from, to;
    kl_user_move(before, m, &from, &to);
    unsigned char letter = before->cell[from];
    uint32_t cells = kl_piece_cells(before, from);
    uint32_t empty = kl_empty_cells(before);
    unsigned ty = kl_piece_type(cells, from);
    out[0] = (char)letter;
    out[1] = ' ';
    return 2 + kl_path(kl_fit(ty ? ty : KL_ONE, empty | cells), from, to,
                       out + 2);
}

int kl_format_move(const void *ctx, const ptb_position *before,
                   const ptb_move *m, char *buf, size_t cap)
{
    char text[KL_MOVE_TEXT];
    size_t len = 0;
    (void)ctx;
    kl_move_text(before, m, text);
    ptb_catf(buf, cap, &len, "%s", text);
    return (int)len;
}

/* v (below 1000) in decimal at out; returns the length. */
static unsigned kl_decimal(unsigned v, char *out)
{
    unsigned n = v >= 100 ? 3 : v >= 10 ? 2 : 1;
    for (unsigned i = n; i-- > 0; v /= 10)
        out[i] = (char)('0' + v % 10);
    return n;
}

/* The count, then per move "N LETTER PATH", the board after it and a blank
 * line: each move's text put together here and appended whole, as
 * ptb_catf(..., "%u %s\n%s\n\n", N, move, board) would write it. */
int kl_format_answer(const void *ctx, const ptb_solution *s, char *buf,
                     size_t cap)
{
    size_t len = 0;
    char step[4 + KL_MOVE_TEXT + KL_BOARD_TEXT + 2];
    (void)ctx;
    ptb_catf(buf, cap, &len, "%u\n", s->distance);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        char *o = step + kl_decimal(i + 1, step);
        *o++ = ' ';
        o += kl_move_text(before, &s->move[i], o);
        *o++ = '\n';
        kl_board_text(&s->after[i], o);
        o += KL_BOARD_TEXT - 1;
        memcpy(o, "\n\n", 3);
        ptb_catf(buf, cap, &len, "%s", step);
    }
    return (int)len;
}

int kl_format_code(const void *ctx, uint32_t sub, uint64_t idx,
                   char *buf, size_t cap)
{
    kl_layout l;
    size_t len = 0;
    (void)ctx;
    kl_rowinfo ri;
    if (sub != 0 || idx >= kl_states())
        return -1;
    kl_unrank((uint32_t)idx, &l, &ri);
    ptb_catf(buf, cap, &len, "%09llX",
             (unsigned long long)kl_common_code(&l));
    return (int)len;
}

/* ==== JSON ============================================================ */

/* The layout shown by the native view (the user's own board). */
static void kl_layout_of_view(const ptb_position *p, kl_layout *l)
{
    uint64_t t = 0;
    unsigned head = 0;
    uint32_t seen = kl_empty_cells(p);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        unsigned ty = kl_piece_type(m, i);
        seen |= m;
        if (ty == KL_BLOCK)
            head = i;
        else
            t |= (uint64_t)(ty & 3) << 2 * i;
    }
    kl_from_rows(t, head, l);
}

/* "common_code" and "short_code" of the user's layout, and "code": the
 * board on one line, rows split by blanks, which parse() reads back with
 * the same letters. */
int kl_format_query_json(const void *ctx, const ptb_position *p,
                         char *buf, size_t cap)
{
    (void)ctx;
    kl_layout l;
    char shortcode[6];
    size_t len = 0;
    kl_layout_of_view(p, &l);
    uint32_t rank = kl_short_rank(&l);
    for (int i = 4; i >= 0; i--, rank /= 32)
        shortcode[i] = kl_b32[rank % 32];
    shortcode[5] = '\0';
    ptb_catf(buf, cap, &len, "\"common_code\":\"%09llX\",\"short_code\":"
             "\"%s\",\"code\":\"", (unsigned long long)kl_common_code(&l),
             shortcode);
    for (unsigned r = 0; r < KL_ROWS; r++)
        ptb_catf(buf, cap, &len, "%s%.4s", r ? " " : "",
                 (const char *)p->cell + 4 * r);
    ptb_catf(buf, cap, &len, "\"");
    return (int)len;
}

/* "piece", "from" and "to" (the piece's top-left cell), "path" (one
 * direction per cell stepped), and "direction" when the path is straight. */
int kl_format_move_json(const void *ctx, const ptb_position *before,
                        const ptb_move *m, char *buf, size_t cap)
{
    static const char *const name[] = { "up", "down", "left", "right" };
    unsigned from = m->code & 31, to = m->code >> 5 & 31;
    char text[64];
    size_t len = 0, k = 0;
    kl_format_move(ctx, before, m, text, sizeof text);
    const char *dirs = text + 2;
    ptb_catf(buf, cap, &len, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":"
             "[%u,%u],\"path\":[", text[0], from / 4 + 1, from % 4 + 1,
             to / 4 + 1, to % 4 + 1);
    for (; dirs[k]; k++)
        ptb_catf(buf, cap, &len, "%s\"%s\"", k ? "," : "",
                 name[strchr("UDLR", dirs[k]) - "UDLR"]);
    ptb_catf(buf, cap, &len, "]");
    if (k && strspn(dirs, (char[2]){ dirs[0], 0 }) == k)
        ptb_catf(buf, cap, &len, ",\"direction\":\"%s\"",
                 name[strchr("UDLR", dirs[0]) - "UDLR"]);
    ptb_catf(buf, cap, &len, "}");
    return (int)len;
}

/* "line 3, column 2": where cell i came from. */
static const char *kl_where(const kl_text *tx, unsigned i, char *buf,
                            size_t cap)
{
    size_t len = 0;
    ptb_catf(buf, cap, &len, "line %u, column %u", tx->line[i], tx->col[i]);
    return buf;
}

/* Takes n cells from a row. */
static void kl_take(const ptb_token *t, unsigned n, unsigned at, kl_text *tx)
{
    for (unsigned k = 0; k < n; k++) {
        tx->cell[at + k] = t->s[k];
        tx->line[at + k] = t->line;
        tx->col[at + k] = ptb_text_column(t, k);
    }
}

/* A row of the wrong length: a character that is no cell (not ASCII), or
 * the count. */
static int kl_bad_row(const ptb_token *t, unsigned want, char *err,
                      size_t errcap)
{
    unsigned chars = ptb_text_column(t, t->len) - t->col;
    char what[24];
    for (unsigned k = 0; chars == want && k < t->len; k++)
        if ((unsigned char)t->s[k] >= 0x80) {
            ptb_text_char(t->s + k, t->len - k, what, sizeof what);
            return ptb_errf(err, errcap, "line %u, column %u: unexpected %s",
                            t->line, ptb_text_column(t, k), what);
        }
    if (want == KL_CELLS)
        return ptb_errf(err, errcap, "line %u, column %u: %u cells; "
                        "expected 5 rows of 4 cells, a CommonCode or a "
                        "ShortCode", t->line, t->col, chars);
    return ptb_errf(err, errcap, "line %u, column %u: %u cells, expected 4",
                    t->line, t->col, chars);
}

/* Splits a grid query into its cells by the shared reader's rules (rows as
 * lines, joined by '/' or separated by blanks): 5 rows of 4 cells, or the
 * 20 cells as one word. */
static int kl_split(const char *text, kl_text *tx, char *err, size_t errcap)
{
    ptb_token tok[KL_ROWS + 1];
    unsigned n = ptb_text_split(text, PTB_TEXT_GRID, tok, KL_ROWS + 1);
    memset(tx, 0, sizeof *tx);
    if (n == 0)
        return ptb_errf(err, errcap, "empty query; expected 5 rows of 4 "
                        "cells, a CommonCode or a ShortCode");
    if (n == 1) {
        if (tok[0].len != KL_CELLS)
            return kl_bad_row(&tok[0], KL_CELLS, err, errcap);
        kl_take(&tok[0], KL_CELLS, 0, tx);
        return PTB_OK;
    }
    if (n > KL_ROWS)
        return ptb_errf(err, errcap, "%u rows; expected 5 rows of 4 cells "
                        "(row 6 is at line %u, column %u)", n,
                        tok[KL_ROWS].line, tok[KL_ROWS].col);
    if (n < KL_ROWS)
        return ptb_errf(err, errcap, "%u rows; expected 5 rows of 4 cells, "
                        "a CommonCode or a ShortCode", n);
    for (unsigned r = 0; r < KL_ROWS; r++) {
        if (tok[r].len != KL_COLS)
            return kl_bad_row(&tok[r], KL_COLS, err, errcap);
        kl_take(&tok[r], KL_COLS, KL_COLS * r, tx);
    }
    return PTB_OK;
}

static int kl_is_label(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9');
}

/* Checks the letters of the A-K notation: A the 2x2 block, B-F two-cell
 * pieces, G-J 1x1 pieces. */
static int kl_check_seed_letter(char c, unsigned ty, const kl_text *tx,
                                unsigned i, char *err, size_t errcap)
{
    char where[32];
    const char *want = c == 'A' ? "the 2x2 block"
        : c <= 'F' ? "a 1x2 or 2x1 piece" : "a 1x1 piece";
    int ok = c == 'A' ? ty == KL_BLOCK
        : c <= 'F' ? ty == KL_HORZ || ty == KL_VERT : ty == KL_ONE;
    if (ok)
        return PTB_OK;
    return ptb_errf(err, errcap, "%s: piece '%c' must be %s in the A-K "
                    "notation (A 2x2, B-F 1x2 or 2x1, G-J 1x1, K empty)",
                    kl_where(tx, i, where, sizeof where), c, want);
}

/* Reads a grid into a layout and the native view. */
static int kl_parse_grid(const kl_text *tx, ptb_position *p, char *err,
                         size_t errcap)
{
    char where[32];
    int seed = 1;
    for (unsigned i = 0; i < KL_CELLS; i++)
        if (tx->cell[i] == '.')
            seed = 0;
    memset(p, 0, sizeof *p);
    p->aux = seed ? 'K' : '.';
    for (unsigned i = 0; i < KL_CELLS; i++) {
        char c = tx->cell[i];
        if (seed ? !(c >= 'A' && c <= 'K') : c != '.' && !kl_is_label(c)) {
            kl_where(tx, i, where, sizeof where);
            if (seed)
                return ptb_errf(err, errcap, "%s: unexpected '%c' (the A-K "
                                "notation uses A-K; a general grid uses "
                                "letters and '.' for empty)", where, c);
            return ptb_errf(err, errcap, "%s: unexpected '%c' (use a letter "
                            "or digit per piece, '.' for empty)", where, c);
        }
        p->cell[i] = (unsigned char)c;
    }
    unsigned blocks = 0;
    uint32_t seen = kl_empty_cells(p);
    for (unsigned i = 0; i < KL_CELLS; i++) {
        if (seen >> i & 1)
            continue;
        uint32_t m = kl_letter_cells(p, i);
        unsigned ty = kl_piece_type(m, i);
        char c = (char)p->cell[i];
        seen |= m;
        if (ty == KL_EMPTY)
            return ptb_errf(err, errcap, "%s: piece '%c' is not one solid "
                            "1x1, 1x2, 2x1 or 2x2 rectangle",
                            kl_where(tx, i, where, sizeof where), c);
        if (seed && kl_check_seed_letter(c, ty, tx, i, err, errcap))
            return PTB_EPARSE;
        if (ty == KL_BLOCK && blocks++)
            return ptb_errf(err, errcap, "%s: a second 2x2 block '%c' "
                            "(a layout has exactly one)",
                            kl_where(tx, i, where, sizeof where), c);
    }
    if (!blocks)
        return ptb_errf(err, errcap, "no 2x2 block (a layout has exactly "
                        "one)");
    unsigned empty = ptb_popcount(kl_empty_cells(p));
    if (empty < KL_MIN_EMPTY)
        return ptb_errf(err, errcap, "%u empty cell%s, at least 2 needed",
                        empty, empty == 1 ? "" : "s");
    kl_layout l;
    kl_layout_of_view(p, &l);          /* (the drawing checked above) */
    kl_set_state(p, &l);
    return PTB_OK;
}

static int kl_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int kl_b32_digit(char c)
{
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    const char *at = c ? strchr(kl_b32, c) : NULL;
    return at ? (int)(at - kl_b32) : -1;
}

/* A ShortCode (exactly 5 characters) into a layout. */
static int kl_read_short(const char *w, size_t n, kl_layout *l, char *err,
                         size_t errcap)
{
    uint64_t v = 0;
    if (n != 5)
        return ptb_errf(err, errcap, "ShortCode '%.*s': %u characters, "
                        "expected 5", (int)n, w, (unsigned)n);
    for (size_t i = 0; i < n; i++) {
        int d = kl_b32_digit(w[i]);
        if (d < 0)
            return ptb_errf(err, errcap, "ShortCode '%.5s': character %u "
                            "'%c' is not one of %s (a 5-character word is a "
                            "ShortCode; a CommonCode has 6-9 hex digits, or "
                            "write common:%.5s)", w, (unsigned)i + 1, w[i],
                            kl_b32, w);
        v = v * 32 + (unsigned)d;
    }
    if (v >= kl_layouts())
        return ptb_errf(err, errcap, "ShortCode '%.5s' is %llu, past the "
                        "last layout %lu", w, (unsigned long long)v,
                        (unsigned long)kl_layouts() - 1);
    kl_unrank_short((uint32_t)v, l);
    return PTB_OK;
}

/* A CommonCode (1-9 hex digits, trailing zeros optional) into a layout. */
static int kl_read_common(const char *w, size_t n, kl_layout *l, char *err,
                          size_t errcap)
{
    uint64_t v = 0;
    if (n < 1 || n > 9)
        return ptb_errf(err, errcap, "CommonCode '%.*s': %u digits, expected "
                        "1 to 9", (int)n, w, (unsigned)n);
    for (size_t i = 0; i < n; i++) {
        int d = kl_hex_digit(w[i]);
        if (d < 0)
            return ptb_errf(err, errcap, "CommonCode '%.*s': character %u "
                            "'%c' is not a hex digit", (int)n, w,
                            (unsigned)i + 1, w[i]);
        v = v * 16 + (unsigned)d;
    }
    for (size_t i = n; i < 9; i++)
        v *= 16;
    const char *why = kl_decode(v, l);
    if (why)
        return ptb_errf(err, errcap, "CommonCode '%.*s' is not a layout: %s",
                        (int)n, w, why);
    return PTB_OK;
}

/* Reads a code of the given kind into the native view: the layout as a
 * general grid, the state of its representative. */
static int kl_parse_code(int kind, const char *w, size_t n, ptb_position *p,
                         char *err, size_t errcap)
{
    kl_layout l;
    int rc;
    if (kind == KL_BARE)
        return ptb_errf(err, errcap, "'%.*s': a word of %u characters is "
                        "no position (a ShortCode has 5 characters, a "
                        "CommonCode 6-9 hex digits or the prefix common:, a "
                        "board 5 rows of 4 cells)", (int)n, w, (unsigned)n);
    rc = kind == KL_SHORT ? kl_read_short(w, n, &l, err, errcap)
                          : kl_read_common(w, n, &l, err, errcap);
    if (rc != PTB_OK)
        return rc;
    memset(p, 0, sizeof *p);
    kl_name_pieces(&l, p);
    kl_set_state(p, &l);
    return PTB_OK;
}

/* Does text start with prefix, in any case? */
static int kl_prefix(const char *text, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != prefix[i])
            return 0;
    }
    return 1;
}

/* A query of one word (by the shared reader's rules) is a code when it has
 * a prefix (short:, common:) or at most 9 characters: sets the word
 * (without its prefix) and its kind. */
static int kl_code_word(const char *text, const char **w, size_t *n,
                        int *kind)
{
    ptb_token tok[2];
    if (ptb_text_split(text, PTB_TEXT_GRID, tok, 2) != 1)
        return 0;
    *w = tok[0].s;
    *n = tok[0].len;
    if (kl_prefix(*w, *n, "short:") || kl_prefix(*w, *n, "common:")) {
        *kind = kl_prefix(*w, *n, "short:") ? KL_SHORT : KL_COMMON;
        size_t skip = *kind == KL_SHORT ? 6 : 7;
        *w += skip;
        *n -= skip;
        return 1;
    }
    *kind = *n == 5 ? KL_SHORT : *n >= 6 ? KL_COMMON : KL_BARE;
    return *n >= 1 && *n <= 9;
}

int kl_parse(const void *ctx, const char *text,
             const char *const *opt, ptb_position out[2],
             unsigned *n, char *err, size_t errcap)
{
    const char *w;
    size_t wn;
    kl_text tx;
    int rc, kind;
    (void)ctx;
    (void)opt;
    *n = 0;
    if (kl_code_word(text, &w, &wn, &kind))
        rc = kl_parse_code(kind, w, wn, &out[0], err, errcap);
    else if ((rc = kl_split(text, &tx, err, errcap)) == PTB_OK)
        rc = kl_parse_grid(&tx, &out[0], err, errcap);
    if (rc == PTB_OK)
        *n = 1;
    return rc;
}

/* Batch records: a code or the 20 cells as one word is one line; else the
 * shared reader's rule for 5 rows (a line of one 4-cell row starts 5
 * lines). */
unsigned kl_record_lines(const void *ctx, const char *first_line)
{
    ptb_token tok[2];
    unsigned n = ptb_text_split(first_line, PTB_TEXT_GRID, tok, 2);
    (void)ctx;
    if (n == 1 && tok[0].len != KL_COLS)
        return 1;
    return ptb_text_record_lines(first_line, PTB_TEXT_GRID, KL_ROWS);
}

/* The puzzle: the engine's ops (puzzle_klotski.c), these notations. */
const ptb_puzzle ptb_puzzle_klotski = {
    .name = "klotski",
    .summary = "Klotski (Huarong Dao) on 4x5: move the 2x2 block to the "
               "bottom middle",
    .metrics = kl_metrics,
    .reversible = 1,
    .open = kl_open,
    .close = kl_close,
    .subtables = kl_subtables,
    .size = kl_size,
    .goals = kl_goals,
    .is_goal = kl_is_goal,
    .moves = kl_moves,
    .unmoves = kl_unmoves,
    .parse = kl_parse,
    .record_lines = kl_record_lines,
    .apply = kl_apply,
    .position_moves = kl_position_moves,
    .format_board = kl_format_board,
    .format_move = kl_format_move,
    .format_answer = kl_format_answer,
    .format_code = kl_format_code,
    .format_query_json = kl_format_query_json,
    .format_move_json = kl_format_move_json,
};
