/* tests/t_frog.c: the frog puzzle against a model of the rules written here
 * from the statement: a row of W/B/. chars, its own move generator, and a
 * brute-force search of every arrangement for small n.
 *
 * Covers: the table keeps one state for each row and its mirror image (the
 * row reversed with the colours swapped), and the ranking is a bijection
 * onto those pairs; moves(), unmoves(), goals() agree with the model;
 * parse() reads W/B/. rows and the classic circles, and refuses bad input
 * with one line.  Through the table (tables/frog.mdb): every standard start
 * takes n(n+2) moves along a legal line; every value for n <= 7 is the
 * brute force's; every solvable value for n <= 9 obeys the closed form
 * (displacement minus crossings); for every n the solvable states are those
 * of the model's own backward BFS, sampled distances agree; dead ends are
 * unsolvable; a row and its mirror image are equally far and each answer
 * replays on the row as the user typed it.  The table part reports one skip
 * when the table is missing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzles/puzzles.h"
#include "check.h"
#include "tables.h"

static const ptb_puzzle *const P = &ptb_puzzle_frog;

#define MAX_N 12
#define MODEL_N 7          /* the brute force covers n = 1..MODEL_N */
#define FULL_N 9           /* every state is checked up to here */

static void *ctx;

/* ---- the model: a row of 2n+1 chars ------------------------------------ */

typedef struct row {
    char c[2 * MAX_N + 2];
    int len;
} row;

static row row_from(const char *text)
{
    row r;
    r.len = (int)strlen(text);
    memcpy(r.c, text, (size_t)r.len + 1);
    return r;
}

/* Rows after each legal move: W right, B left, a step or a jump over one
 * piece of the other colour. */
static int model_moves(const row *r, row out[4])
{
    int n = 0;
    for (int from = 0; from < r->len; from++) {
        char who = r->c[from];
        int dir = who == 'W' ? 1 : who == 'B' ? -1 : 0;
        for (int dist = 1; dir && dist <= 2; dist++) {
            int to = from + dir * dist;
            if (to < 0 || to >= r->len || r->c[to] != '.')
                continue;
            if (dist == 2 && r->c[from + dir] != (who == 'W' ? 'B' : 'W'))
                continue;
            out[n] = *r;
            out[n].c[to] = who;
            out[n].c[from] = '.';
            n++;
        }
    }
    return n;
}

static int model_is_goal(const row *r)
{
    int n = r->len / 2;
    for (int i = 0; i < r->len; i++)
        if (r->c[i] != (i < n ? 'B' : i == n ? '.' : 'W'))
            return 0;
    return 1;
}

/* The row reversed, with the colours swapped. */
static row model_mirror(const row *r)
{
    row m = *r;
    for (int i = 0; i < r->len; i++) {
        char ch = r->c[r->len - 1 - i];
        m.c[i] = ch == 'W' ? 'B' : ch == 'B' ? 'W' : '.';
    }
    return m;
}

/* The k-th row of n a side in the model's own order (empty cell e, then
 * the pieces as the bits of a 2n-bit counter); 0 past the last, or when
 * the counter has not n whites. */
static int model_row(int n, uint64_t k, row *r)
{
    uint64_t strings = 1ull << (2 * n), e = k / strings, w = k % strings;
    if (e > (uint64_t)(2 * n) || __builtin_popcountll(w) != n)
        return 0;
    r->len = 2 * n + 1;
    for (int i = 0, b = 0; i < r->len; i++)
        r->c[i] = (uint64_t)i == e ? '.' : w >> b++ & 1 ? 'W' : 'B';
    r->c[r->len] = 0;
    return 1;
}

static uint32_t model_key(const row *r)
{
    uint32_t k = 0;
    for (int i = 0; i < r->len; i++)
        k = k * 3 + (r->c[i] == 'W' ? 1u : r->c[i] == 'B' ? 2u : 0u);
    return k;
}

/* Least moves to the goal by exhaustive search, memoized by key (pieces
 * only move forward, so the graph has no cycle): -1 when unreachable. */
static int model_distance(const row *r, signed char *memo)
{
    uint32_t k = model_key(r);
    if (memo[k] != -2)
        return memo[k];
    int best = -1;
    if (model_is_goal(r)) {
        best = 0;
    } else {
        row next[4];
        int n = model_moves(r, next);
        for (int i = 0; i < n; i++) {
            int d = model_distance(&next[i], memo);
            if (d >= 0 && (best < 0 || d + 1 < best))
                best = d + 1;
        }
    }
    memo[k] = (signed char)best;
    return best;
}

/* (2n+1)!/(n!n!) = (2n+1) * C(2n, n). */
static uint64_t multinomial(int n)
{
    uint64_t c = 1;
    for (int i = 1; i <= n; i++)
        c = c * (uint64_t)(n + i) / (uint64_t)i;
    return (uint64_t)(2 * n + 1) * c;
}

/* ---- bridges between the model and the puzzle's ops -------------------- */

static row row_of(uint32_t sub, uint64_t idx)
{
    ptb_position p = { .sub = sub, .idx = idx };
    row r;
    r.len = P->format_board(ctx, &p, r.c, sizeof r.c);
    return r;
}

static int parse_text(const char *text, unsigned size, ptb_position *out,
                      char *err, size_t cap)
{
    char value[16];
    const char *opt[2] = { size ? value : NULL, NULL };
    snprintf(value, sizeof value, "%u", size);
    ptb_position pos[2];
    unsigned n = 0;
    err[0] = 0;
    int rc = P->parse(ctx, size ? NULL : text, opt, pos, &n, err, cap);
    if (rc == PTB_OK && n != 1)
        return PTB_EINVAL;
    if (rc == PTB_OK)
        *out = pos[0];
    return rc;
}

/* (sub, idx) of a row through parse(); idx UINT64_MAX on error. */
static ptb_position position_of(const row *r)
{
    ptb_position p = { .sub = UINT32_MAX, .idx = UINT64_MAX };
    char err[128];
    parse_text(r->c, 0, &p, err, sizeof err);
    return p;
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* ---- the state space --------------------------------------------------- */

/* Rows of n a side that are their own mirror image: counted for n <=
 * FULL_N; above, 2^n (the empty cell in the middle, the right half the
 * mirror of any left half), which the counts below FULL_N bear out. */
static uint64_t self_mirrors(int n)
{
    uint64_t count = 0;
    row r;
    if (n > FULL_N)
        return self_mirrors(FULL_N) == 1u << FULL_N ? 1ull << n : 0;
    for (uint64_t k = 0; k < (uint64_t)(2 * n + 1) << (2 * n); k++)
        if (model_row(n, k, &r)) {
            row m = model_mirror(&r);
            count += strcmp(m.c, r.c) == 0;
        }
    return count;
}

static void sizes_count_mirror_pairs(void)
{
    int ok = P->subtables(ctx) == MAX_N;
    for (int n = 1; n <= MAX_N; n++)
        ok &= P->size(ctx, (uint32_t)n - 1) ==
              (multinomial(n) + self_mirrors(n)) / 2;
    check(ok, "12 subtables, n = sub + 1, of one state for each row and "
          "its mirror image: ((2n+1)!/(n!n!) + self-mirrored rows) / 2 "
          "(n = 12: %llu)", (unsigned long long)P->size(ctx, 11));
}

/* Every row of the model, n <= MODEL_N, parses to a state whose row is it
 * or its mirror image, and the states cover the subtable exactly. */
static void rows_map_onto_mirror_pairs(void)
{
    uint64_t bad = 0, rows = 0;
    for (int n = 1; n <= MODEL_N; n++) {
        uint32_t sub = (uint32_t)n - 1;
        uint64_t size = P->size(ctx, sub);
        unsigned char *hit = calloc(size, 1);
        row r;
        for (uint64_t k = 0; k < (uint64_t)(2 * n + 1) << (2 * n); k++) {
            if (!model_row(n, k, &r))
                continue;
            rows++;
            ptb_position p = position_of(&r);
            if (p.sub != sub || p.idx >= size) {
                bad++;
                continue;
            }
            row t = row_of(sub, p.idx), m = model_mirror(&r);
            bad += strcmp(t.c, r.c) != 0 && strcmp(t.c, m.c) != 0;
            hit[p.idx] = 1;
        }
        for (uint64_t i = 0; i < size; i++)
            bad += !hit[i];
        free(hit);
    }
    check(bad == 0, "each of the %llu rows for n <= %d is stored as itself "
          "or its mirror image, and every state stands for some row",
          (unsigned long long)rows, MODEL_N);
}

/* Checks idx -> row -> idx for one state; 1 when it fails. */
static int round_trip_fails(uint32_t sub, uint64_t idx)
{
    row r = row_of(sub, idx);
    ptb_position p = position_of(&r);
    return r.len != 2 * (int)sub + 3 || p.sub != sub || p.idx != idx;
}

static void ranking_is_a_bijection(void)
{
    uint64_t bad = 0, tried = 0;
    for (uint32_t sub = 0; sub < FULL_N; sub++)
        for (uint64_t idx = 0; idx < P->size(ctx, sub); idx++, tried++)
            bad += (uint64_t)round_trip_fails(sub, idx);
    check(bad == 0, "every index for n <= %d survives format_board and "
          "parse (%llu states, %llu fail)", FULL_N,
          (unsigned long long)tried, (unsigned long long)bad);
    bad = 0;
    for (uint32_t sub = FULL_N; sub < MAX_N; sub++) {
        uint64_t size = P->size(ctx, sub);
        for (int i = 0; i < 200000; i++)
            bad += (uint64_t)round_trip_fails(sub, rng() % size);
        bad += (uint64_t)round_trip_fails(sub, 0);
        bad += (uint64_t)round_trip_fails(sub, size - 1);
    }
    check(bad == 0, "random indices for n > %d survive format_board and "
          "parse (%llu fail)", FULL_N, (unsigned long long)bad);
}

/* moves() of one state against the model; 1 when they differ. */
static int moves_differ(uint32_t sub, uint64_t idx)
{
    row r = row_of(sub, idx), next[4];
    ptb_move m[PTB_MAX_MOVES];
    int n = model_moves(&r, next);
    unsigned k = P->moves(ctx, sub, idx, m);
    uint64_t want[4], got[4];
    if ((int)k != n)
        return 1;
    for (int i = 0; i < n; i++) {
        ptb_position p = position_of(&next[i]);
        if (p.sub != sub)
            return 1;
        want[i] = p.idx;
        got[i] = m[i].to;
    }
    qsort(want, (size_t)n, sizeof want[0], cmp_u64);
    qsort(got, (size_t)n, sizeof got[0], cmp_u64);
    return memcmp(want, got, (size_t)n * sizeof want[0]) != 0;
}

static int has_move_to(uint32_t sub, uint64_t from, uint64_t to)
{
    ptb_move m[PTB_MAX_MOVES];
    unsigned n = P->moves(ctx, sub, from, m);
    for (unsigned i = 0; i < n; i++)
        if (m[i].to == to)
            return 1;
    return 0;
}

/* unmoves() of one state: each is one move before idx, none twice.  Adds
 * the number of states moves() reaches (two moves may reach one state: a
 * row and its mirror image are one) and of unmoves to the counts; 1 when
 * wrong. */
static int unmoves_wrong(uint32_t sub, uint64_t idx, uint64_t count[2])
{
    ptb_move m[PTB_MAX_MOVES];
    uint64_t pred[PTB_MAX_MOVES];
    unsigned n = P->unmoves(ctx, sub, idx, pred);
    unsigned k = P->moves(ctx, sub, idx, m);
    for (unsigned i = 0; i < k; i++) {
        unsigned j = 0;
        while (j < i && m[j].to != m[i].to)
            j++;
        count[0] += j == i;
    }
    count[1] += n;
    qsort(pred, n, sizeof pred[0], cmp_u64);
    for (unsigned i = 0; i < n; i++)
        if ((i > 0 && pred[i] == pred[i - 1]) ||
            !has_move_to(sub, pred[i], idx))
            return 1;
    return 0;
}

static void moves_agree_with_the_model(void)
{
    uint64_t bad = 0, wrong = 0, count[2] = { 0, 0 };
    for (uint32_t sub = 0; sub < FULL_N; sub++)
        for (uint64_t idx = 0; idx < P->size(ctx, sub); idx++) {
            bad += (uint64_t)moves_differ(sub, idx);
            wrong += (uint64_t)unmoves_wrong(sub, idx, count);
        }
    check(bad == 0, "moves() of every state for n <= %d are the model's "
          "(%llu differ)", FULL_N, (unsigned long long)bad);
    check(wrong == 0 && count[0] == count[1], "unmoves() lists exactly the "
          "states one move before, for n <= %d (%llu moves)", FULL_N,
          (unsigned long long)count[0]);
    bad = wrong = 0;
    for (uint32_t sub = FULL_N; sub < MAX_N; sub++)
        for (int i = 0; i < 100000; i++) {
            uint64_t idx = rng() % P->size(ctx, sub), c[2];
            bad += (uint64_t)moves_differ(sub, idx);
            wrong += (uint64_t)unmoves_wrong(sub, idx, c);
        }
    check(bad == 0 && wrong == 0, "moves() and unmoves() of random states "
          "for n > %d agree with the model", FULL_N);
}

static void count_goal(void *arg, uint64_t idx)
{
    uint64_t *c = arg;
    c[0]++;
    c[1] = idx;
}

static void one_goal_per_n(void)
{
    int ok = 1;
    for (int n = 1; n <= MAX_N; n++) {
        uint32_t sub = (uint32_t)n - 1;
        uint64_t c[2] = { 0, 0 };
        ptb_move m[PTB_MAX_MOVES];
        P->goals(ctx, sub, count_goal, c);
        row r = row_of(sub, c[1]);
        ok &= c[0] == 1 && model_is_goal(&r) && P->is_goal(ctx, sub, c[1]) &&
              P->moves(ctx, sub, c[1], m) == 0;
        ok &= !P->is_goal(ctx, sub, c[1] ? c[1] - 1 : 1);
    }
    check(ok, "each n has one goal, B..B.W..W, with no move out");
}

/* Distances of every arrangement for n <= MODEL_N, by the model. */
static void model_counts_solvable(void)
{
    static const unsigned known[] = { 0, 6, 23, 72, 195, 476, 1089, 2388 };
    signed char *memo = malloc(14348907);   /* 3^15 keys */
    int ok = memo != NULL;
    for (int n = 1; ok && n <= MODEL_N; n++) {
        uint32_t sub = (uint32_t)n - 1;
        unsigned solvable = 0;
        memset(memo, -2, 14348907);
        row r;
        (void)sub;
        for (uint64_t k = 0; k < (uint64_t)(2 * n + 1) << (2 * n); k++)
            if (model_row(n, k, &r))
                solvable += model_distance(&r, memo) >= 0;
        ok &= solvable == known[n];
    }
    free(memo);
    check(ok, "the model finds 6, 23, 72, 195, 476, 1089, 2388 solvable "
          "arrangements for n = 1..7");
}

/* ---- queries ----------------------------------------------------------- */

static int parses_as(const char *text, const char *want)
{
    ptb_position p;
    char err[128], got[32];
    if (parse_text(text, 0, &p, err, sizeof err) != PTB_OK)
        return 0;
    P->format_board(ctx, &p, got, sizeof got);
    return strcmp(got, want) == 0;
}

static void parse_reads_letters_and_circles(void)
{
    ptb_position p, q;
    char err[128];
    check(parses_as("WWW.BBB\n", "WWW.BBB"), "WWW.BBB reads as itself");
    check(parses_as("  W B . W B  \r\n", "WB.WB"),
          "with a '.', blanks only separate cells");
    check(parses_as("\xe2\x97\x8b \xe2\x97\x8b \xe2\x97\x8b . "
                    "\xe2\x97\x8f \xe2\x97\x8f \xe2\x97\x8f", "WWW.BBB"),
          "the classic circles with '.' read as WWW.BBB");
    check(parses_as("\xe2\x97\x8b\xe2\x97\x8b\xe2\x97\x8f "
                    "\xe2\x97\x8f\xe2\x97\x8b\xe2\x97\x8f", "WWB.BWB"),
          "without a '.', the single blank is the empty cell");
    int rc = parse_text("ignored", 3, &p, err, sizeof err);
    check(rc == PTB_OK && parse_text("WWW.BBB", 0, &q, err, sizeof err) ==
          PTB_OK && p.sub == q.sub && p.idx == q.idx,
          "a size option solves the standard start and ignores the text");
}

static void bad_input_is_refused(void)
{
    static const struct {
        const char *text;
        unsigned size;
        const char *message;
    } cases[] = {
        { "", 0, "empty input" },
        { "WW.B", 0, "unequal counts: 2 W and 1 B" },
        { "WWBB", 0, "expected one empty cell '.', got 0" },
        { "W..B", 0, "expected one empty cell '.', got 2" },
        { "WX.B", 0, "line 1, column 2: unexpected 'X'" },
        { "W\xc3\xa9.B", 0, "line 1, column 2: unexpected '\xc3\xa9'" },
        { "W\xc3.B", 0, "line 1, column 2: unexpected byte 0xc3" },
        { "WW  BB", 0, "2 blanks and no '.'" },
        { "W.B\nW.B", 0, "expected one row" },
        { ".", 0, "no pieces" },
        { "WWWWWWWWWWWWW.BBBBBBBBBBBBB", 0, "n = 13: the tables hold n "
          "from 1 to 12" },
        { "W.B", 13, "n: expected a number from 1 to 12, got '13'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptb_position p;
        char err[256];
        int rc = parse_text(cases[i].text, cases[i].size, &p, err,
                            sizeof err);
        check(rc == PTB_EPARSE && strstr(err, cases[i].message) &&
              !strchr(err, '\n'), "bad input %zu: \"%s\" (got \"%s\")",
              i + 1, cases[i].message, err);
    }
}

/* A line from the model: greedy descent along model distances. */
static void answer_lists_every_board(void)
{
    static ptb_solution s;
    signed char *memo = malloc(14348907);
    char err[128], *text = malloc(8192);
    row r = row_from("WWW.BBB");
    memset(memo, -2, 14348907);
    parse_text(r.c, 0, &s.start, err, sizeof err);
    s.distance = (unsigned)model_distance(&r, memo);
    ptb_position at = s.start;
    for (unsigned i = 0; i < s.distance; i++) {
        ptb_move m[PTB_MAX_MOVES];
        unsigned k = P->moves(ctx, at.sub, at.idx, m);
        for (unsigned j = 0; j < k; j++) {
            row t = row_of(at.sub, m[j].to);
            if (model_distance(&t, memo) == (int)(s.distance - i - 1)) {
                s.move[i] = m[j];
                P->apply(ctx, &at, &m[j]);
                break;
            }
        }
        s.after[i] = at;
    }
    int len = P->format_answer(ctx, &s, text, 8192);
    check(s.distance == 15 && len == 16 * 16 &&
          strncmp(text, "No.  0: WWW.BBB\nNo.  1: ", 24) == 0 &&
          strcmp(text + len - 16, "No. 15: BBB.WWW\n") == 0,
          "the answer for WWW.BBB lists 16 boards, No.  0 to No. 15");
    free(memo);
    free(text);
}

/* ---- the table --------------------------------------------------------- */

static ptb_solution sol;

/* The table's distance, or -1 when unsolvable (-2 on error). */
static int table_distance(const tables *tb, uint32_t sub, uint64_t idx)
{
    ptb_position p = { .sub = sub, .idx = idx };
    int rc = ptb_solve(tb->t, tb->r, &p, 1, &sol);
    return rc == PTB_OK ? (int)sol.distance : rc == PTB_NOTFOUND ? -1 : -2;
}

/* Replays a solution on the model row; 1 when every move is legal, each
 * board is the one reported, and the line ends on the goal. */
static int line_is_legal(const ptb_solution *s)
{
    row r;
    r.len = P->format_board(ctx, &s->start, r.c, sizeof r.c);
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        char text[32], colour;
        int from, to;
        P->format_move(ctx, before, &s->move[i], text, sizeof text);
        if (sscanf(text, "%c %d-%d", &colour, &from, &to) != 3 ||
            from < 1 || from > r.len || to < 1 || to > r.len)
            return 0;
        from--, to--;
        int step = colour == 'W' ? to - from : from - to;
        if (r.c[from] != colour || r.c[to] != '.' || step < 1 || step > 2 ||
            (step == 2 && r.c[(from + to) / 2] != (colour == 'W' ? 'B' : 'W')))
            return 0;
        r.c[to] = colour;
        r.c[from] = '.';
        row a;
        a.len = P->format_board(ctx, &s->after[i], a.c, sizeof a.c);
        if (strcmp(a.c, r.c) != 0)
            return 0;
    }
    return model_is_goal(&r);
}

static void standard_starts_take_n_n_plus_2(const tables *tb)
{
    char err[128], *text = malloc(16384);
    for (unsigned n = 1; n <= MAX_N; n++) {
        char value[32];
        const char *opt[2] = { value, NULL };
        snprintf(value, sizeof value, "n=%u", n);
        ptb_position p[2];
        unsigned k;
        char first[64];
        int rc = ptb_parse(tb->s, NULL, opt, p, &k, err, sizeof err);
        rc = rc == PTB_OK ? ptb_solve(tb->t, tb->r, p, k, &sol) : rc;
        int len = ptb_format_native(tb->s, &sol, text, 16384);
        snprintf(first, sizeof first, "No.  0: %.*s.%.*s\n", (int)n,
                 "WWWWWWWWWWWW", (int)n, "BBBBBBBBBBBB");
        int lines = 0;
        for (int i = 0; i < len && i < 16384; i++)
            lines += text[i] == '\n';
        check(rc == PTB_OK && sol.distance == n * (n + 2) &&
              line_is_legal(&sol) && lines == (int)sol.distance + 1 &&
              strncmp(text, first, strlen(first)) == 0,
              "n = %u: the standard start takes %u moves, a legal line of "
              "%u numbered boards", n, n * (n + 2), n * (n + 2) + 1);
    }
    free(text);
}

static void small_tables_match_the_model(const tables *tb)
{
    signed char *memo = malloc(14348907);   /* 3^15 keys */
    for (int n = 1; n <= MODEL_N; n++) {
        uint32_t sub = (uint32_t)n - 1;
        unsigned bad = 0, solvable = 0, model_solvable = 0, lines_bad = 0;
        memset(memo, -2, 14348907);
        for (uint64_t idx = 0; idx < P->size(ctx, sub); idx++) {
            row r = row_of(sub, idx);
            int want = model_distance(&r, memo);
            int got = table_distance(tb, sub, idx);
            bad += got != want;
            solvable += got >= 0;
            model_solvable += want >= 0;
            lines_bad += got >= 0 && !line_is_legal(&sol);
        }
        check(bad == 0 && lines_bad == 0 && solvable == model_solvable,
              "n = %d: all %llu values are the brute force's (%u solvable), "
              "every line legal", n, (unsigned long long)P->size(ctx, sub),
              solvable);
    }
    free(memo);
}

/* The closed form: pieces never pass one of their own colour, so each ends
 * in a known cell; a step moves one piece one cell, a jump one piece two
 * cells and crosses a W-B pair, which must cross exactly once.  So moves =
 * displacement - crossings. */
static int closed_form(const row *r)
{
    int n = r->len / 2, w = 0, b = 0, disp = 0, cross = 0, whites = 0;
    for (int i = 0; i < r->len; i++) {
        if (r->c[i] == 'W') {
            disp += n + 1 + w++ - i;
            whites++;
        } else if (r->c[i] == 'B') {
            disp += i - b++;
            cross += whites;
        }
    }
    return disp - cross;
}

static void solvable_values_obey_the_closed_form(const tables *tb)
{
    for (int n = 1; n <= FULL_N; n++) {
        uint32_t sub = (uint32_t)n - 1;
        uint64_t bad = 0, solvable = 0;
        for (uint64_t idx = 0; idx < P->size(ctx, sub); idx++) {
            int d = table_distance(tb, sub, idx);
            if (d < 0)
                continue;
            row r = row_of(sub, idx);
            solvable++;
            bad += d != closed_form(&r);
        }
        check(bad == 0, "n = %d: the %llu solvable values equal displacement "
              "minus crossings", n, (unsigned long long)solvable);
    }
}

/* ---- the model's backward search, for the large n ---------------------- */

typedef struct reached {
    uint64_t *key;             /* model_key64 + 1; 0 is an empty slot */
    uint8_t *dist;
    uint64_t mask;
} reached;

static uint64_t model_key64(const row *r)
{
    uint64_t k = 0;
    for (int i = 0; i < r->len; i++)
        k = k * 3 + (r->c[i] == 'W' ? 1u : r->c[i] == 'B' ? 2u : 0u);
    return k + 1;
}

static row model_unkey64(uint64_t k, int len)
{
    row r;
    k--;
    r.len = len;
    r.c[len] = 0;
    for (int i = len - 1; i >= 0; i--, k /= 3)
        r.c[i] = ".WB"[k % 3];
    return r;
}

/* The slot of key k: where it is, or the empty slot where it goes. */
static uint64_t reached_slot(const reached *s, uint64_t k)
{
    uint64_t h = (k * 0x9e3779b97f4a7c15ull) >> 20 & s->mask;
    while (s->key[h] && s->key[h] != k)
        h = (h + 1) & s->mask;
    return h;
}

/* Rows one move before r: every way to take a piece back into the empty
 * cell, kept when the model's forward move generator confirms it. */
static int model_befores(const row *r, row out[8])
{
    int n = 0, e = (int)(strchr(r->c, '.') - r->c);
    for (int from = e - 2; from <= e + 2; from++) {
        if (from == e || from < 0 || from >= r->len)
            continue;
        row p = *r, next[4];
        p.c[e] = p.c[from];
        p.c[from] = '.';
        int k = model_moves(&p, next);
        for (int i = 0; i < k; i++)
            if (strcmp(next[i].c, r->c) == 0)
                out[n++] = p;
    }
    return n;
}

/* Every row of n pieces a side that reaches the goal, with its distance:
 * a plain BFS back from the goal.  Returns how many. */
static uint64_t model_backward(int n, reached *s, uint64_t *queue)
{
    row goal;
    goal.len = 2 * n + 1;
    for (int i = 0; i < goal.len; i++)
        goal.c[i] = i < n ? 'B' : i == n ? '.' : 'W';
    goal.c[goal.len] = 0;
    memset(s->key, 0, (s->mask + 1) * sizeof *s->key);
    uint64_t head = 0, tail = 0, h = reached_slot(s, model_key64(&goal));
    s->key[h] = model_key64(&goal);
    s->dist[h] = 0;
    queue[tail++] = s->key[h];
    while (head < tail) {
        row r = model_unkey64(queue[head++], goal.len), before[8];
        int d = s->dist[reached_slot(s, model_key64(&r))];
        int k = model_befores(&r, before);
        for (int i = 0; i < k; i++) {
            uint64_t key = model_key64(&before[i]);
            h = reached_slot(s, key);
            if (s->key[h])
                continue;
            s->key[h] = key;
            s->dist[h] = (uint8_t)(d + 1);
            queue[tail++] = key;
        }
    }
    return tail;
}

/* For n above the brute force: the model's backward BFS finds every
 * solvable row; their number over all n must be the table's, and sampled
 * ones must have the model's distance, the closed form, a legal line. */
static void large_n_match_the_backward_search(const tables *tb)
{
    reached s = { NULL, NULL, (1u << 19) - 1 };
    uint64_t *queue = malloc((s.mask + 1) * sizeof *queue), total = 0;
    s.key = malloc((s.mask + 1) * sizeof *s.key);
    s.dist = malloc(s.mask + 1);
    ptb_table_info info;
    for (int n = 1; n <= MAX_N; n++) {
        uint64_t count = model_backward(n, &s, queue), x = (uint64_t)n, bad = 0;
        uint64_t self = 0;       /* one state for a row and its mirror */
        for (uint64_t i = 0; i < count; i++) {
            row r = model_unkey64(queue[i], 2 * n + 1), m = model_mirror(&r);
            self += strcmp(r.c, m.c) == 0;
        }
        total += (count + self) / 2;
        if (n <= FULL_N)
            continue;
        for (int i = 0; i < 100; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            row r = model_unkey64(queue[(x >> 20) % count], 2 * n + 1);
            ptb_position p = position_of(&r);
            int want = s.dist[reached_slot(&s, model_key64(&r))];
            int got = table_distance(tb, p.sub, p.idx);
            bad += got != want || want != closed_form(&r) ||
                   !line_is_legal(&sol);
        }
        check(bad == 0, "n = %d: %llu rows reach the goal by the model's "
              "backward BFS; 100 sampled have its distance in the table",
              n, (unsigned long long)count);
    }
    check(ptb_table_get_info(tb->t, &info) == PTB_OK &&
          info.solvable == total, "the table's %llu solvable states are "
          "the model's solvable rows, a row and its mirror image counted "
          "once, over n = 1..12", (unsigned long long)total);
    free(queue);
    free(s.key);
    free(s.dist);
}

/* Random rows of every n and their mirror images: the same distance, the
 * closed form's, and each answer starts from the row as typed and replays
 * legally on it. */
static void mirror_images_answer_alike(const tables *tb)
{
    unsigned bad = 0, solvable = 0;
    for (int i = 0; i < 2000; i++) {
        int n = 1 + (int)(rng() % MAX_N);
        row r, m;
        while (!model_row(n, rng() % ((uint64_t)(2 * n + 1) << (2 * n)), &r))
            ;
        m = model_mirror(&r);
        ptb_position p = position_of(&r), q = position_of(&m);
        int d = ptb_solve(tb->t, tb->r, &p, 1, &sol);
        char first[32];
        P->format_board(ctx, &sol.start, first, sizeof first);
        int ok = d == PTB_NOTFOUND ||
                 (d == PTB_OK && line_is_legal(&sol) &&
                  (int)sol.distance == closed_form(&r) &&
                  strcmp(first, r.c) == 0);
        unsigned dist = sol.distance;
        int e = ptb_solve(tb->t, tb->r, &q, 1, &sol);
        P->format_board(ctx, &sol.start, first, sizeof first);
        ok &= e == d && (e == PTB_NOTFOUND ||
                         (line_is_legal(&sol) && sol.distance == dist &&
                          strcmp(first, m.c) == 0));
        bad += !ok;
        solvable += d == PTB_OK;
    }
    check(bad == 0, "2000 random rows (%u solvable) and their mirror images: "
          "the same distance, each line legal from the row as typed", solvable);
}

static void dead_ends_are_unsolvable(const tables *tb)
{
    static const char *const dead[] = { "WWBB.", "WB.WB", "BWB.WWB",
                                        ".WWWBBB" };
    signed char *memo = malloc(14348907);
    memset(memo, -2, 14348907);
    for (size_t i = 0; i < sizeof dead / sizeof dead[0]; i++) {
        row r = row_from(dead[i]), next[4];
        ptb_position p;
        char err[128];
        int rc = parse_text(dead[i], 0, &p, err, sizeof err);
        int moves = model_moves(&r, next);
        check(rc == PTB_OK && model_distance(&r, memo) == -1 &&
              ptb_solve(tb->t, tb->r, &p, 1, &sol) == PTB_NOTFOUND &&
              ptb_search(tb->s, &p, 1, &sol) == PTB_NOTFOUND,
              "%s (%d moves out) is a dead end", dead[i], moves);
    }
    free(memo);
}

static void table_part(void)
{
    tables tb;
    if (tables_open("frog", NULL, &tb)) {
        standard_starts_take_n_n_plus_2(&tb);
        small_tables_match_the_model(&tb);
        solvable_values_obey_the_closed_form(&tb);
        large_n_match_the_backward_search(&tb);
        mirror_images_answer_alike(&tb);
        dead_ends_are_unsolvable(&tb);
    }
    tables_close(&tb);
}

int main(void)
{
    if (!check(P->open(P, 0, &ctx) == PTB_OK, "the frog puzzle opens"))
        return check_done();
    sizes_count_mirror_pairs();
    rows_map_onto_mirror_pairs();
    ranking_is_a_bijection();
    moves_agree_with_the_model();
    one_goal_per_n();
    model_counts_solvable();
    parse_reads_letters_and_circles();
    bad_input_is_refused();
    answer_lists_every_board();
    table_part();
    P->close(ctx);
    return check_done();
}
