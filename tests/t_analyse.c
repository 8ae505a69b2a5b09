/* tests/t_analyse.c: the analysis calls (ptb_analyse, ptb_count_solutions,
 * ptb_random_at, and the codes they print) against models of the four
 * puzzles written here from the rules, on boards as text:
 *   swap     16 cells 0/1 and the 16 of the target; a move swaps two
 *            edge-adjacent cells of different colours;
 *   four     16 cells B/W/O and the side to move; a move slides a piece of
 *            the side to move into an adjacent empty cell; four in a row,
 *            column or diagonal ends the game;
 *   frog     a row of W, '.', B; W steps or jumps over one B to the right,
 *            B to the left;
 *   klotski  20 cells, a letter per piece; a move shifts one piece: one
 *            cell (step), any distance in a straight line (line), or to
 *            any place it reaches over free cells (move).
 * Each model has its own move generator, goal test and BFS.  Checks, for
 * every puzzle and metric:
 *   - on random positions, the ranked list holds exactly the model's legal
 *     moves (boards after them, letters included), each with the model's
 *     BFS distance of the board after it, ordered by that distance
 *     (unsolvable last, ties in ptb_successors() order), and the position's
 *     distance and category are the model's;
 *   - the number of optimal solutions equals a brute-force enumeration of
 *     every move sequence of the optimal length, on positions small enough
 *     (and on the P1225 sample);
 *   - ptb_random_at() draws states at exactly the distance (the model's BFS
 *     on the code it prints, parsed back), the same seed gives the same
 *     states, drawing more than there are gives each of them once (the
 *     header's count), and an empty distance is PTB_NOTFOUND;
 *   - every code printed (drawn states, the farthest states) parses back
 *     to the same table state;
 *   - large counts (the farthest states of swap and Klotski, up to 10^16
 *     lines) against a layered count of the test's own: the puzzle's moves
 *     (puzzle.h), the table's values, a hash map and 64-bit sums checked
 *     for overflow. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzles/puzzles.h"
#include "puzzletb.h"
#include "tables.h"

#define MAXS 256

/* ==== model states and a BFS over them ================================ */

typedef struct st {
    char c[44];        /* NUL-terminated; meaning per puzzle (see below) */
} st;

typedef struct model {
    const char *puzzle, *metric;
    unsigned (*succ)(const struct model *m, const st *s, st *out);
    int (*goal)(const st *s);
    void (*key)(const st *s, char *k);            /* 44 bytes */
    /* the input text (and option) for ptb_parse */
    void (*text)(const st *s, char *buf, char *opt);
    /* the model state of a board printed after a move from parent */
    void (*from_board)(const st *parent, const char *board, st *out);
} model;

static uint64_t rng_state = 12345;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

typedef struct set {
    char (*k)[44];
    size_t n, cap;
} set;

static uint64_t hash(const char *k)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ULL;
    return h;
}

/* Adds k; returns 1 when it was new. */
static int set_add(set *s, const char *k)
{
    if (2 * (s->n + 1) > s->cap) {
        set g = { calloc(s->cap ? 2 * s->cap : 1024, 44), 0,
                  s->cap ? 2 * s->cap : 1024 };
        if (!g.k)
            abort();
        for (size_t i = 0; i < s->cap; i++)
            if (s->k[i][0])
                set_add(&g, s->k[i]);
        free(s->k);
        *s = g;
    }
    size_t i = hash(k) & (s->cap - 1);
    for (; s->k[i][0]; i = (i + 1) & (s->cap - 1))
        if (!strcmp(s->k[i], k))
            return 0;
    strcpy(s->k[i], k);
    s->n++;
    return 1;
}

/* The model's distance from s to a goal, or -1 when none is reachable. */
static int bfs(const model *m, const st *s)
{
    set seen = { 0 };
    st *q = malloc(sizeof *q), *nx = malloc(MAXS * sizeof *nx);
    size_t head = 0, tail = 1, qcap = 1, level_end = 1;
    int d = 0, found = -1;
    char k[44];
    q[0] = *s;
    m->key(s, k);
    set_add(&seen, k);
    while (head < tail && found < 0) {
        if (head == level_end) {
            d++;
            level_end = tail;
        }
        st cur = q[head++];
        if (m->goal(&cur)) {
            found = d;
            break;
        }
        unsigned n = m->succ(m, &cur, nx);
        for (unsigned i = 0; i < n; i++) {
            m->key(&nx[i], k);
            if (!set_add(&seen, k))
                continue;
            if (tail == qcap) {
                qcap *= 2;
                q = realloc(q, qcap * sizeof *q);
            }
            q[tail++] = nx[i];
        }
    }
    free(q);
    free(nx);
    free(seen.k);
    return found;
}

/* Every move sequence of exactly d moves from s, counted when it ends on a
 * goal (none ends earlier on one: d is the distance).  No pruning. */
static uint64_t enumerate(const model *m, const st *s, int d)
{
    if (d == 0)
        return (uint64_t)m->goal(s);
    st *nx = malloc(MAXS * sizeof *nx);
    unsigned n = m->succ(m, s, nx);
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += enumerate(m, &nx[i], d - 1);
    free(nx);
    return total;
}

/* ==== swap: c[0..15] the board, c[16..31] the target ================== */

static unsigned swap_succ(const model *m, const st *s, st *out)
{
    unsigned n = 0;
    (void)m;
    for (unsigned i = 0; i < 16; i++)
        for (unsigned nb = 0; nb < 2; nb++) {
            unsigned j = nb ? i + 4 : i + 1;
            if ((nb ? i >= 12 : i % 4 == 3) || s->c[i] == s->c[j])
                continue;
            out[n] = *s;
            out[n].c[i] = s->c[j];
            out[n++].c[j] = s->c[i];
        }
    return n;
}

static int swap_goal(const st *s) { return !memcmp(s->c, s->c + 16, 16); }
static void plain_key(const st *s, char *k) { strcpy(k, s->c); }

static void swap_text(const st *s, char *buf, char *opt)
{
    size_t n = 0;
    for (unsigned r = 0; r < 8; r++) {
        memcpy(buf + n, s->c + 4 * r, 4);
        n += 4;
        buf[n++] = '\n';
    }
    buf[n] = '\0';
    opt[0] = '\0';
}

/* Copies the cells of a board printed in rows, skipping line ends. */
static void cells_of(const char *board, char *out, unsigned cells)
{
    for (unsigned i = 0; *board && i < cells; board++)
        if (*board != '\n')
            out[i++] = *board;
}

static void swap_from_board(const st *parent, const char *board, st *out)
{
    *out = *parent;
    cells_of(board, out->c, 16);
}

static st swap_random(void)
{
    st s;
    unsigned k = below(17);
    for (unsigned b = 0; b < 2; b++) {
        char *c = s.c + 16 * b;
        memset(c, '0', 16);
        for (unsigned placed = 0; placed < k;) {
            unsigned i = below(16);
            if (c[i] == '0') {
                c[i] = '1';
                placed++;
            }
        }
    }
    s.c[32] = '\0';
    return s;
}

/* ==== four: c[0..15] B/W/O, c[16] the side to move ==================== */

static int four_goal(const st *s)
{
    static const unsigned char line[10][4] = {
        { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 }, { 12, 13, 14, 15 },
        { 0, 4, 8, 12 }, { 1, 5, 9, 13 }, { 2, 6, 10, 14 }, { 3, 7, 11, 15 },
        { 0, 5, 10, 15 }, { 3, 6, 9, 12 }
    };
    for (unsigned l = 0; l < 10; l++) {
        char c = s->c[line[l][0]];
        if (c != 'O' && c == s->c[line[l][1]] && c == s->c[line[l][2]] &&
            c == s->c[line[l][3]])
            return 1;
    }
    return 0;
}

static unsigned four_succ(const model *m, const st *s, st *out)
{
    static const int dr[4] = { -1, 1, 0, 0 }, dc[4] = { 0, 0, -1, 1 };
    unsigned n = 0;
    (void)m;
    if (four_goal(s))
        return 0;
    for (int i = 0; i < 16; i++) {
        if (s->c[i] != s->c[16])
            continue;
        for (unsigned d = 0; d < 4; d++) {
            int r = i / 4 + dr[d], c = i % 4 + dc[d];
            if (r < 0 || r > 3 || c < 0 || c > 3 || s->c[r * 4 + c] != 'O')
                continue;
            out[n] = *s;
            out[n].c[r * 4 + c] = s->c[i];
            out[n].c[i] = 'O';
            out[n++].c[16] = s->c[16] == 'B' ? 'W' : 'B';
        }
    }
    return n;
}

static void four_text(const st *s, char *buf, char *opt)
{
    size_t n = 0;
    for (unsigned r = 0; r < 4; r++) {
        memcpy(buf + n, s->c + 4 * r, 4);
        n += 4;
        buf[n++] = '\n';
    }
    buf[n] = '\0';
    sprintf(opt, "first=%c", s->c[16]);
}

static void four_from_board(const st *parent, const char *board, st *out)
{
    *out = *parent;
    cells_of(board, out->c, 16);
    out->c[16] = parent->c[16] == 'B' ? 'W' : 'B';
}

static st four_random(void)
{
    st s;
    memset(s.c, 'W', 16);
    for (unsigned i = 0; i < 16; i++) {
        unsigned j = below(i + 1);
        s.c[i] = s.c[j];
        s.c[j] = i < 7 ? 'B' : i < 9 ? 'O' : 'W';
    }
    s.c[16] = below(2) ? 'B' : 'W';
    s.c[17] = '\0';
    return s;
}

/* ==== frog: the row ==================================================== */

static unsigned frog_succ(const model *m, const st *s, st *out)
{
    unsigned n = 0, len = (unsigned)strlen(s->c);
    (void)m;
    for (unsigned i = 0; i < len; i++) {
        int dir = s->c[i] == 'W' ? 1 : s->c[i] == 'B' ? -1 : 0;
        char other = s->c[i] == 'W' ? 'B' : 'W';
        for (int step = 1; dir && step <= 2; step++) {
            int j = (int)i + dir * step;
            if (j < 0 || j >= (int)len || s->c[j] != '.' ||
                (step == 2 && s->c[(int)i + dir] != other))
                continue;
            out[n] = *s;
            out[n].c[j] = s->c[i];
            out[n++].c[i] = '.';
        }
    }
    return n;
}

static int frog_goal(const st *s)
{
    unsigned len = (unsigned)strlen(s->c), half = len / 2;
    for (unsigned i = 0; i < len; i++)
        if (s->c[i] != (i < half ? 'B' : i == half ? '.' : 'W'))
            return 0;
    return 1;
}

static void frog_text(const st *s, char *buf, char *opt)
{
    strcpy(buf, s->c);
    opt[0] = '\0';
}

static void frog_from_board(const st *parent, const char *board, st *out)
{
    (void)parent;
    memset(out, 0, sizeof *out);
    strncpy(out->c, board, sizeof out->c - 1);
}

static st frog_random(unsigned n)
{
    st s;
    memset(&s, 0, sizeof s);
    for (unsigned i = 0; i < 2 * n + 1; i++) {
        unsigned j = below(i + 1);
        s.c[i] = s.c[j];
        s.c[j] = i < n ? 'W' : i < 2 * n ? 'B' : '.';
    }
    return s;
}

/* ==== klotski: c[0..19] a letter per piece, c[20] the empty mark ====== */

static uint32_t kl_cells(const st *s, char letter)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < 20; i++)
        if (s->c[i] == letter)
            m |= 1u << i;
    return m;
}

/* m shifted one cell in direction d (0 up, 1 down, 2 left, 3 right), or 0
 * when it would leave the board. */
static uint32_t kl_shift(uint32_t m, unsigned d)
{
    const uint32_t col0 = 0x11111, col3 = 0x88888;
    switch (d) {
    case 0:  return m & 0xF ? 0 : m >> 4;
    case 1:  return m >> 16 ? 0 : m << 4;
    case 2:  return m & col0 ? 0 : m >> 1;
    default: return m & col3 ? 0 : m << 1;
    }
}

static void kl_place(const st *s, char letter, uint32_t from, uint32_t to,
                     st *out)
{
    *out = *s;
    for (unsigned i = 0; i < 20; i++) {
        if (from >> i & 1)
            out->c[i] = s->c[20];
    }
    for (unsigned i = 0; i < 20; i++)
        if (to >> i & 1)
            out->c[i] = letter;
}

static unsigned kl_succ(const model *m, const st *s, st *out)
{
    unsigned n = 0;
    uint32_t empty = kl_cells(s, s->c[20]), done = empty;
    for (unsigned i = 0; i < 20; i++) {
        if (done >> i & 1)
            continue;
        char letter = s->c[i];
        uint32_t own = kl_cells(s, letter), free = empty | own;
        uint32_t reach[64];
        unsigned nr = 0;
        done |= own;
        if (!strcmp(m->metric, "move")) {      /* every place reachable */
            reach[nr++] = own;
            for (unsigned q = 0; q < nr; q++)
                for (unsigned d = 0; d < 4; d++) {
                    uint32_t x = kl_shift(reach[q], d);
                    int known = 0;
                    for (unsigned k = 0; k < nr; k++)
                        known |= reach[k] == x;
                    if (x && (x & ~free) == 0 && !known)
                        reach[nr++] = x;
                }
            for (unsigned q = 1; q < nr; q++)
                kl_place(s, letter, own, reach[q], &out[n++]);
            continue;
        }
        for (unsigned d = 0; d < 4; d++)
            for (uint32_t x = kl_shift(own, d); x && (x & ~free) == 0;
                 x = kl_shift(x, d)) {
                kl_place(s, letter, own, x, &out[n++]);
                if (!strcmp(m->metric, "step"))
                    break;
            }
    }
    return n;
}

static int kl_goal(const st *s)
{
    /* the 2x2 block covers cells 13, 14, 17, 18 */
    char a = s->c[13];
    return a != s->c[20] && kl_cells(s, a) == (1u << 13 | 1u << 14 |
                                                1u << 17 | 1u << 18);
}

/* Pieces of one shape are alike: the key names each cell's shape. */
static void kl_key(const st *s, char *k)
{
    for (unsigned i = 0; i < 20; i++) {
        uint32_t m = s->c[i] == s->c[20] ? 0 : kl_cells(s, s->c[i]);
        unsigned bits = 0;
        for (uint32_t x = m; x; x &= x - 1)
            bits++;
        k[i] = !m ? '.' : bits == 4 ? 'A' : bits == 1 ? 's'
             : (m & (m >> 1)) ? 'h' : 'v';
    }
    k[20] = '\0';
}

static void kl_text(const st *s, char *buf, char *opt)
{
    size_t n = 0;
    for (unsigned r = 0; r < 5; r++) {
        memcpy(buf + n, s->c + 4 * r, 4);
        n += 4;
        buf[n++] = '\n';
    }
    buf[n] = '\0';
    opt[0] = '\0';
}

static void kl_from_board(const st *parent, const char *board, st *out)
{
    *out = *parent;
    cells_of(board, out->c, 20);
}

/* ==== checks ========================================================== */

static const model models[] = {
    { "swap", NULL, swap_succ, swap_goal, plain_key, swap_text,
      swap_from_board },
    { "four", NULL, four_succ, four_goal, plain_key, four_text,
      four_from_board },
    { "frog", NULL, frog_succ, frog_goal, plain_key, frog_text,
      frog_from_board },
    { "klotski", "step", kl_succ, kl_goal, kl_key, kl_text, kl_from_board },
    { "klotski", "line", kl_succ, kl_goal, kl_key, kl_text, kl_from_board },
    { "klotski", "move", kl_succ, kl_goal, kl_key, kl_text, kl_from_board },
};

/* Parses the model state through the library; 0 when refused. */
static int parse_state(const tables *tb, const model *m, const st *s,
                       ptb_position *p, unsigned *n)
{
    char text[256], opt[32], err[256];
    const char *opts[2] = { opt, NULL };
    m->text(s, text, opt);
    int rc = ptb_parse(tb->s, text, opt[0] ? opts : NULL, p, n, err,
                       sizeof err);
    if (rc != PTB_OK)
        check(0, "%s: the model's position parses: %s", m->puzzle, err);
    return rc == PTB_OK;
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int model_d(int d) { return d < 0 ? PTB_UNSOLVABLE : d; }

/* One position: the ranked list against the model. */
static int ranked_ok(const tables *tb, const model *m, const st *s,
                     ptb_analysis *a, char *why, size_t cap)
{
    ptb_position p[2];
    static ptb_successor ref[PTB_MAX_SUCCESSORS];   /* (426 kB) */
    st nx[MAXS], after;
    unsigned n, d, nref;
    char board[256];
    if (!parse_state(tb, m, s, p, &n))
        return 0;
    int rc = ptb_analyse(tb->t, tb->r, p, n, a);
    if (rc != PTB_OK)
        return snprintf(why, cap, "ptb_analyse: %s", ptb_strerror(rc)), 0;
    unsigned k = m->succ(m, s, nx);
    unsigned want = (unsigned)model_d(bfs(m, s));
    if (a->distance != want)
        return snprintf(why, cap, "%s: distance %u, model %u", s->c,
                        a->distance, want), 0;
    if (a->category != (want == 0 ? PTB_CAT_GOAL : want == PTB_UNSOLVABLE
                        ? PTB_CAT_UNSOLVABLE : PTB_CAT_SOLVABLE))
        return snprintf(why, cap, "%s: category %d", s->c, a->category), 0;
    if (a->n != k)
        return snprintf(why, cap, "%s: %u moves, model %u", s->c, a->n, k), 0;
    int used[MAXS] = { 0 };
    for (unsigned i = 0; i < a->n; i++) {
        ptb_format_board(tb->s, &a->move[i].after, board, sizeof board);
        m->from_board(s, board, &after);
        unsigned j = 0;
        while (j < k && (used[j] || strcmp(nx[j].c, after.c)))
            j++;
        if (j == k)
            return snprintf(why, cap, "%s: move %u to %s is not legal",
                            s->c, i, after.c), 0;
        used[j] = 1;
        unsigned dj = (unsigned)model_d(bfs(m, &after));
        if (a->move[i].distance != dj)
            return snprintf(why, cap, "%s: move to %s at %u, model %u",
                            s->c, after.c, a->move[i].distance, dj), 0;
        if (i && a->move[i - 1].distance > a->move[i].distance)
            return snprintf(why, cap, "%s: not ordered at %u", s->c, i), 0;
    }
    /* ties keep the order of ptb_successors() */
    rc = ptb_successors(tb->t, tb->r, &a->position, &d, ref, &nref);
    for (unsigned i = 1; rc == PTB_OK && i < a->n; i++) {
        if (a->move[i - 1].distance != a->move[i].distance)
            continue;
        unsigned x = 0, y = 0;
        while (x < nref && ref[x].move.code != a->move[i - 1].move.code)
            x++;
        while (y < nref && ref[y].move.code != a->move[i].move.code)
            y++;
        if (x >= y)
            return snprintf(why, cap, "%s: tie at %u out of move order",
                            s->c, i), 0;
    }
    return 1;
}

/* A position near a goal of a reversible puzzle: a random walk back. */
static st walk_from(const model *m, st s, unsigned steps)
{
    st nx[MAXS];
    for (unsigned i = 0; i < steps; i++) {
        unsigned k = m->succ(m, &s, nx);
        if (k)
            s = nx[below(k)];
    }
    return s;
}

/* Two goals: the seed's pieces (A-K notation, K empty) and fewer pieces
 * in a general grid ('.' empty), which has more optimal lines. */
static st klotski_goal(unsigned i)
{
    st s;
    memset(&s, 0, sizeof s);
    memcpy(s.c, i % 2 ? "B..CB..CGEEHIAAJ.AA." : "BGHCBIJCDEEFDAAFKAAK",
           20);
    s.c[20] = i % 2 ? '.' : 'K';
    return s;
}

/* A sparse layout: the 2x2 block anywhere, a 1x2 piece and three 1x1
 * pieces where they fit ('.' empty); its optimal lines interleave. */
static st klotski_sparse(void)
{
    static const unsigned heads[12] = { 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13,
                                        14 };
    st s;
    memset(&s, 0, sizeof s);
    memset(s.c, '.', 20);
    s.c[20] = '.';
    unsigned h = heads[below(12)];
    s.c[h] = s.c[h + 1] = s.c[h + 4] = s.c[h + 5] = 'A';
    for (unsigned tries = 0; tries < 50; tries++) {
        unsigned c = below(19);
        if (c % 4 != 3 && s.c[c] == '.' && s.c[c + 1] == '.') {
            s.c[c] = s.c[c + 1] = 'E';
            break;
        }
    }
    for (char p = 'G'; p <= 'I';) {
        unsigned c = below(20);
        if (s.c[c] == '.')
            s.c[c] = p++;
    }
    return s;
}

static st random_position(const model *m, unsigned i, int sparse)
{
    if (!strcmp(m->puzzle, "swap"))
        return swap_random();
    if (!strcmp(m->puzzle, "four"))
        return four_random();
    if (!strcmp(m->puzzle, "frog"))
        return frog_random(1 + i % 5);
    return sparse && i % 3 == 2 ? klotski_sparse()
                      : walk_from(m, klotski_goal(i), i % 13);
}

static void check_ranked(const model *m, unsigned count)
{
    tables tb;
    char why[1024] = "";
    ptb_analysis *a = malloc(sizeof *a);
    unsigned good = 0, moves = 0;
    if (!tables_open(m->puzzle, m->metric, &tb))
        return;
    for (unsigned i = 0; i < count; i++) {
        st s = random_position(m, i, 0);
        if (!ranked_ok(&tb, m, &s, a, why, sizeof why))
            break;
        good++;
        moves += a->n;
    }
    check(good == count, "%s %s: %u random positions, %u moves: every legal "
          "move ranked, with the model's distances, best first %s",
          m->puzzle, m->metric ? m->metric : "", count, moves, why);
    free(a);
    tables_close(&tb);
}

/* Solution counts against enumerate() on positions whose optimal length
 * is at most maxd. */
static void check_counts(const model *m, unsigned count, int maxd)
{
    tables tb;
    char got[PTB_COUNT_DIGITS], why[1024] = "";
    unsigned tried = 0, good = 0;
    uint64_t most = 0;
    if (!tables_open(m->puzzle, m->metric, &tb))
        return;
    for (unsigned i = 0; tried < count && i < 50 * count; i++) {
        st s = random_position(m, i, 1);
        int d = bfs(m, &s);
        ptb_position p[2];
        unsigned n;
        if (d < 0 || d > maxd || !parse_state(&tb, m, &s, p, &n))
            continue;
        if (n == 2) {          /* four: the model's side moves first */
            p[0] = p[s.c[16] == 'W'];
            n = 1;
        }
        tried++;
        uint64_t want = enumerate(m, &s, d);
        int rc = ptb_count_solutions(tb.t, tb.r, p, n, got, sizeof got);
        char wtext[32];
        snprintf(wtext, sizeof wtext, "%llu", (unsigned long long)want);
        if (rc != PTB_OK || strcmp(got, wtext)) {
            snprintf(why, sizeof why, "(%s at %d: %.200s, brute force %s)", s.c,
                     d, rc == PTB_OK ? got : ptb_strerror(rc), wtext);
            break;
        }
        good++;
        most = want > most ? want : most;
    }
    check(tried == count && good == count, "%s %s: solution counts of %u "
          "positions up to %d moves equal a brute-force enumeration (up to "
          "%llu solutions) %s", m->puzzle, m->metric ? m->metric : "", count,
          maxd, (unsigned long long)most, why);
    tables_close(&tb);
}

/* A code printed for a table state names that state when parsed back. */
static int code_round_trips(const tables *tb, uint32_t sub, uint64_t idx,
                            char *why, size_t cap)
{
    char code[256], err[256];
    ptb_position p[2];
    unsigned n;
    ptb_format_code(tb->s, sub, idx, code, sizeof code);
    int rc = ptb_parse(tb->s, code, NULL, p, &n, err, sizeof err);
    if (rc != PTB_OK)
        return snprintf(why, cap, "'%.200s': %.200s", code, err), 0;
    if (n != 1 || p[0].sub != sub || p[0].idx != idx)
        return snprintf(why, cap, "'%.200s' parses to %u:%llu", code, p[0].sub,
                        (unsigned long long)p[0].idx), 0;
    return 1;
}

/* The model's distance of the state a code names. */
static int model_distance_of_code(const tables *tb, const model *m,
                                  uint32_t sub, uint64_t idx)
{
    char code[256], err[256], board[256];
    ptb_position p[2];
    unsigned n;
    st s;
    memset(&s, 0, sizeof s);
    ptb_format_code(tb->s, sub, idx, code, sizeof code);
    if (ptb_parse(tb->s, code, NULL, p, &n, err, sizeof err) != PTB_OK)
        return -2;
    ptb_format_board(tb->s, &p[0], board, sizeof board);
    if (!strcmp(m->puzzle, "swap")) {      /* "start rows/target rows" */
        for (unsigned i = 0, k = 0; code[i] && k < 32; i++)
            if (code[i] != '/')
                s.c[k++] = code[i];
    } else if (!strcmp(m->puzzle, "four")) {
        cells_of(board, s.c, 16);
        s.c[16] = code[strlen(code) - 1];
    } else if (!strcmp(m->puzzle, "frog")) {
        strcpy(s.c, board);
    } else {
        cells_of(board, s.c, 20);
        s.c[20] = strchr(board, '.') ? '.' : 'K';
    }
    return bfs(m, &s);
}

static void check_random_at(const model *m, unsigned d, unsigned count,
                            int again)
{
    tables tb;
    ptb_table_info info;
    char why[1024] = "";
    uint32_t sub[64], sub2[64];
    uint64_t idx[64], idx2[64];
    unsigned got, got2, good = 0;
    if (!tables_open(m->puzzle, m->metric, &tb))
        return;
    ptb_table_get_info(tb.t, &info);
    int rc = ptb_random_at(tb.t, d, PTB_ANY_SUBTABLE, 7, count, sub, idx,
                           &got);
    for (unsigned i = 0; rc == PTB_OK && i < got; i++) {
        int md = model_distance_of_code(&tb, m, sub[i], idx[i]);
        if (md != (int)d) {
            snprintf(why, sizeof why, "(state %u:%llu at %d)", sub[i],
                     (unsigned long long)idx[i], md);
            break;
        }
        if (!code_round_trips(&tb, sub[i], idx[i], why, sizeof why))
            break;
        good++;
    }
    check(rc == PTB_OK && got == count && good == got, "%s %s: %u states "
          "drawn at distance %u are at %u by the model's BFS, and their "
          "codes parse back to them %s", m->puzzle,
          m->metric ? m->metric : "", count, d, d, why);
    rc = again ? ptb_random_at(tb.t, d, PTB_ANY_SUBTABLE, 7, count, sub2,
                               idx2, &got2) : PTB_EINVAL;
    if (again)
        check(rc == PTB_OK && got2 == got &&
              !memcmp(sub, sub2, got * sizeof *sub) &&
              !memcmp(idx, idx2, got * sizeof *idx),
              "%s %s: the same seed draws the same states", m->puzzle,
              m->metric ? m->metric : "");
    rc = ptb_random_at(tb.t, info.max_distance + 1, PTB_ANY_SUBTABLE, 7, 1,
                       sub, idx, &got);
    check(rc == PTB_NOTFOUND && got == 0, "%s %s: distance %u (past the "
          "farthest) is PTB_NOTFOUND", m->puzzle, m->metric ? m->metric : "",
          info.max_distance + 1);
    /* exact tables: all the farthest states, each once */
    unsigned far = info.max_distance;
    if (info.exact && info.histogram[far] <= 64) {
        rc = ptb_random_at(tb.t, far, PTB_ANY_SUBTABLE, 99, 64, sub, idx,
                           &got);
        int distinct = 1;
        for (unsigned i = 0; i < got; i++)
            for (unsigned j = 0; j < i; j++)
                distinct &= sub[i] != sub[j] || idx[i] != idx[j];
        check(rc == PTB_OK && got == info.histogram[far] && distinct,
              "%s %s: asking 64 at the farthest distance %u gives each of "
              "its %llu states once", m->puzzle, m->metric ? m->metric : "",
              far, (unsigned long long)info.histogram[far]);
    }
    good = 0;
    for (unsigned i = 0; i < info.n_farthest; i++)
        good += code_round_trips(&tb, info.far_sub[i], info.far_idx[i], why,
                                 sizeof why);
    check(good == info.n_farthest, "%s %s: the %u farthest states' codes "
          "parse back to them %s", m->puzzle, m->metric ? m->metric : "",
          info.n_farthest, why);
    tables_close(&tb);
}

/* The number of states at exactly distance d from s (forward BFS). */
static size_t count_at(const model *m, const st *s, int d)
{
    set seen = { 0 };
    st *q = malloc(sizeof *q), nx[MAXS];
    size_t head = 0, tail = 1, qcap = 1, level_end = 1, at = 0;
    int level = 0;
    char k[44];
    q[0] = *s;
    m->key(s, k);
    set_add(&seen, k);
    while (head < tail && level <= d) {
        if (head == level_end) {
            level++;
            level_end = tail;
            continue;
        }
        st cur = q[head++];
        at += level == d;
        unsigned n = m->succ(m, &cur, nx);
        for (unsigned i = 0; i < n; i++) {
            m->key(&nx[i], k);
            if (!set_add(&seen, k))
                continue;
            if (tail == qcap) {
                qcap *= 2;
                q = realloc(q, qcap * sizeof *q);
            }
            q[tail++] = nx[i];
        }
    }
    free(q);
    free(seen.k);
    return at;
}

/* Swap, one subtable (one target): every state at distance d, each once,
 * as many as the model finds around the target. */
static void check_swap_layer(unsigned d)
{
    tables tb;
    ptb_position p[2];
    unsigned got, n;
    char code[256];
    if (!tables_open("swap", NULL, &tb))
        return;
    int rc = ptb_parse(tb.s, "1010\n0101\n1010\n0101\n1010\n0101\n1010\n"
                       "0101\n", NULL, p, &n, code, sizeof code);
    st target;
    memset(&target, 0, sizeof target);
    memcpy(target.c, "1010010110100101", 16);
    memcpy(target.c + 16, target.c, 16);
    size_t want = count_at(&models[0], &target, (int)d);
    uint32_t *sub = malloc((want + 1) * sizeof *sub);
    uint64_t *idx = malloc((want + 1) * sizeof *idx);
    if (rc == PTB_OK)
        rc = ptb_random_at(tb.t, d, p[0].sub, 5, (unsigned)want + 1,
                           sub, idx, &got);
    qsort(idx, got, sizeof *idx, u64_cmp);
    int distinct = 1;
    for (unsigned i = 1; i < got; i++)
        distinct &= idx[i] != idx[i - 1];
    check(rc == PTB_OK && got == want && distinct, "swap: asking %zu states "
          "at distance %u from target %.16s gives its %zu states, each once "
          "(got %u)", want + 1, d, target.c, want, got);
    free(sub);
    free(idx);
    tables_close(&tb);
}

static void check_sample(void)
{
    tables tb;
    ptb_position p[2];
    unsigned n;
    char err[256], got[PTB_COUNT_DIGITS];
    st s;
    memset(&s, 0, sizeof s);
    memcpy(s.c, "11110000111000101010010110100101", 32);
    uint64_t want = enumerate(&models[0], &s, bfs(&models[0], &s));
    if (!tables_open("swap", NULL, &tb))
        return;
    int rc = ptb_parse(tb.s, "1111\n0000\n1110\n0010\n1010\n0101\n1010\n"
                       "0101\n", NULL, p, &n, err, sizeof err);
    if (rc == PTB_OK)
        rc = ptb_count_solutions(tb.t, tb.r, p, n, got, sizeof got);
    check(rc == PTB_OK && strtoull(got, NULL, 10) == want && want > 0,
          "P1225 sample: %s optimal solutions, brute force %llu",
          got, (unsigned long long)want);
    tables_close(&tb);
}

/* ==== large counts ==================================================== */

typedef struct cnode {
    uint64_t idx, count;
} cnode;

typedef struct cmap {
    cnode *n;
    size_t used, cap;        /* cap a power of two; idx + 1 stored, 0 free */
} cmap;

/* Adds count to idx's entry; 0 on overflow. */
static int cmap_add(cmap *m, uint64_t idx, uint64_t count)
{
    if (2 * (m->used + 1) > m->cap) {
        cmap g = { calloc(m->cap ? 2 * m->cap : 64, sizeof *g.n), 0,
                   m->cap ? 2 * m->cap : 64 };
        for (size_t i = 0; i < m->cap; i++)
            if (m->n[i].idx)
                cmap_add(&g, m->n[i].idx - 1, m->n[i].count);
        free(m->n);
        *m = g;
    }
    size_t i = (idx * 0x9e3779b97f4a7c15ULL >> 20) & (m->cap - 1);
    while (m->n[i].idx && m->n[i].idx != idx + 1)
        i = (i + 1) & (m->cap - 1);
    if (!m->n[i].idx) {
        m->n[i].idx = idx + 1;
        m->used++;
    }
    if (m->n[i].count + count < count)
        return 0;
    m->n[i].count += count;
    return 1;
}

/* The number of optimal lines from (sub, idx) at distance d, counted here
 * layer by layer; 0 on overflow. */
static uint64_t own_count(const tables *tb, const ptb_puzzle *pz, void *ctx,
                          uint32_t sub, uint64_t idx, unsigned d, unsigned m)
{
    cmap up = { 0 }, down = { 0 };
    ptb_move mv[PTB_MAX_SUCCESSORS];
    int ok = cmap_add(&up, idx, 1);
    for (unsigned k = d; ok && k-- > 0;) {
        for (size_t i = 0; ok && i < up.cap; i++) {
            if (!up.n[i].idx)
                continue;
            unsigned n = pz->moves(ctx, sub, up.n[i].idx - 1, mv), v;
            for (unsigned j = 0; ok && j < n; j++)
                if (ptb_table_value(tb->t, tb->r, sub, mv[j].to, &v) ==
                    PTB_OK && v == (m ? k % m : k))
                    ok = cmap_add(&down, mv[j].to, up.n[i].count);
        }
        free(up.n);
        up = down;
        memset(&down, 0, sizeof down);
    }
    uint64_t total = 0;
    for (size_t i = 0; ok && i < up.cap; i++)
        if (up.n[i].idx) {
            ok &= pz->is_goal(ctx, sub, up.n[i].idx - 1) &&
                  total + up.n[i].count >= total;
            total += up.n[i].count;
        }
    free(up.n);
    return ok ? total : 0;
}

static void check_big_counts(const ptb_puzzle *pz, const char *metric,
                             unsigned metric_no)
{
    tables tb;
    ptb_table_info info;
    void *ctx;
    char got[PTB_COUNT_DIGITS], want[32], code[256], err[256];
    unsigned good = 0;
    uint64_t most = 0;
    if (!tables_open(pz->name, metric, &tb))
        return;
    if (pz->open(pz, metric_no, &ctx) != PTB_OK) {
        check(0, "%s: open", pz->name);
        tables_close(&tb);
        return;
    }
    ptb_table_get_info(tb.t, &info);
    unsigned n = info.n_farthest < 3 ? info.n_farthest : 3;
    for (unsigned i = 0; i < n; i++) {
        ptb_position p[2];
        unsigned np;
        ptb_format_code(tb.s, info.far_sub[i], info.far_idx[i], code,
                        sizeof code);
        if (ptb_parse(tb.s, code, NULL, p, &np, err, sizeof err) != PTB_OK ||
            ptb_count_solutions(tb.t, tb.r, p, np, got, sizeof got) !=
            PTB_OK)
            break;
        uint64_t c = own_count(&tb, pz, ctx, p[0].sub, p[0].idx,
                               info.max_distance, info.modulus);
        snprintf(want, sizeof want, "%llu", (unsigned long long)c);
        if (c == 0 || strcmp(got, want))
            break;
        good++;
        most = c > most ? c : most;
    }
    check(n > 0 && good == n, "%s %s: the %u farthest states (distance %u): "
          "solution counts (up to %llu) equal the test's own layered count",
          pz->name, metric ? metric : "", n, info.max_distance,
          (unsigned long long)most);
    pz->close(ctx);
    tables_close(&tb);
}

/* Fewer positions under the sanitizers, which run it again. */
#if defined(__SANITIZE_ADDRESS__)
#define SCALE 4
#else
#define SCALE 1
#endif

int main(void)
{
    for (unsigned i = 0; i < sizeof models / sizeof *models; i++)
        check_ranked(&models[i], (models[i].puzzle[0] == 'k' ? 40 : 60) /
                     SCALE);
    check_sample();
    check_counts(&models[0], 30 / SCALE, 5);
    check_counts(&models[1], 30 / SCALE, 5);
    check_counts(&models[2], 10 / SCALE, 15);
    for (unsigned i = 3; i < 6; i++)
        check_counts(&models[i], 16 / SCALE, 6);
    check_big_counts(&ptb_puzzle_swap, NULL, 0);
    check_big_counts(&ptb_puzzle_four, NULL, 0);
    check_big_counts(&ptb_puzzle_frog, NULL, 0);
    check_big_counts(&ptb_puzzle_klotski, "step", 0);
    check_big_counts(&ptb_puzzle_klotski, "move", 2);
    check_swap_layer(5);
    check_random_at(&models[1], 5, 20 / SCALE, 1);
    check_random_at(&models[2], 15, 20 / SCALE, 1);
    /* mod-3 tables over the whole table read every value: once here */
    if (SCALE == 1) {
        check_random_at(&models[0], 6, 20, 0);
        check_random_at(&models[3], 3, 8, 1);
        check_random_at(&models[5], 3, 8, 0);
    }
    return check_done();
}
