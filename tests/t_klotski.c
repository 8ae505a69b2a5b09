/* tests/t_klotski.c: Klotski's state space, codes, moves and answers
 * against a model of the rules written here: a board of 20 characters (one
 * letter per piece, '.' empty), a CommonCode encoder and decoder, a
 * brute-force enumeration of every layout, and a move generator per metric.
 *
 * The state space is tested through the puzzle's ops (ptb_puzzle_klotski,
 * via puzzle.h); the answers through the public API and tables/klotski-*.mdb
 * (PUZZLETB_TABLES overrides the folder).  Checks:
 *   - 29,334,498 layouts; the enumeration, sorted, is the index order: each
 *     2x2 place's first and last layout and a sample of the others have the
 *     code format_code() prints, and parsing that code gives the index back;
 *   - 1A9BF0C00 = 4WVE1 = 4,091,296, in both directions and lower case;
 *   - ShortCode and CommonCode round trips on random indices;
 *   - for random layouts, moves() and unmoves() reach exactly the layouts
 *     the model's generator reaches, in each metric, and apply() agrees;
 *   - for a random layout of every piece mix and each metric, the table's
 *     answer is legal when replayed on the model's board, ends on a goal,
 *     and has the length ptb_search finds; bad queries give one-line
 *     messages. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzle.h"
#include "puzzletb.h"
#include "tables.h"

#define CELLS 20
#define TOTAL 29334498u
#define GOAL 13

static const ptb_puzzle *const kp = &ptb_puzzle_klotski;

/* ==== the model ======================================================= */

typedef struct board {
    char c[CELLS + 1];     /* row-major; '.' empty; NUL-terminated */
} board;

/* The cells of the piece on cell i, as a mask. */
static uint32_t piece_cells(const board *b, unsigned i)
{
    uint32_t m = 0;
    for (unsigned k = 0; k < CELLS; k++)
        if (b->c[k] == b->c[i])
            m |= 1u << k;
    return m;
}

static unsigned bits(uint32_t m)
{
    unsigned n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* CommonCode type of the piece on cell i: 1 1x2, 2 2x1, 3 1x1, 4 2x2. */
static unsigned piece_type(const board *b, unsigned i)
{
    uint32_t m = piece_cells(b, i);
    if (bits(m) == 4)
        return 4;
    if (bits(m) == 1)
        return 3;
    return m >> 1 & m ? 1 : 2;
}

static uint64_t encode(const board *b)
{
    uint32_t done = 0, body = 0;
    unsigned shift = 32, head = CELLS;
    for (unsigned i = 0; i < CELLS; i++)
        if (b->c[i] != '.' && piece_type(b, i) == 4 && head == CELLS) {
            head = i;
            done |= piece_cells(b, i);
        }
    for (unsigned i = 0; i < CELLS; i++) {
        if (done >> i & 1)
            continue;
        shift -= 2;
        if (b->c[i] != '.') {
            body |= (uint32_t)piece_type(b, i) << shift;
            done |= piece_cells(b, i);
        }
    }
    return (uint64_t)head << 32 | body;
}

/* The board of a CommonCode (assumed valid); pieces lettered a, b, ... */
static void decode(uint64_t code, board *b)
{
    unsigned head = (unsigned)(code >> 32), shift = 32;
    uint32_t body = (uint32_t)code;
    char next = 'a';
    memset(b->c, ' ', CELLS);
    b->c[CELLS] = '\0';
    b->c[head] = b->c[head + 1] = b->c[head + 4] = b->c[head + 5] = 'A';
    for (unsigned i = 0; i < CELLS; i++) {
        if (b->c[i] != ' ')
            continue;
        shift -= 2;
        unsigned ty = body >> shift & 3;
        if (ty == 0) {
            b->c[i] = '.';
            continue;
        }
        b->c[i] = next;
        if (ty == 1)
            b->c[i + 1] = next;
        if (ty == 2)
            b->c[i + 4] = next;
        next++;
    }
}

static void hex(uint64_t code, char *out)
{
    snprintf(out, 16, "%09llX", (unsigned long long)code);
}

/* Moves the piece on cell i by (dr, dc) if every cell it lands on is on the
 * board and empty or its own; true then. */
static int shift_piece(board *b, unsigned i, int dr, int dc)
{
    uint32_t m = piece_cells(b, i);
    char letter = b->c[i];
    board out = *b;
    for (unsigned k = 0; k < CELLS; k++)
        if (m >> k & 1)
            out.c[k] = '.';
    for (unsigned k = 0; k < CELLS; k++) {
        if (!(m >> k & 1))
            continue;
        int r = (int)k / 4 + dr, c = (int)k % 4 + dc;
        if (r < 0 || r > 4 || c < 0 || c > 3 || out.c[4 * r + c] != '.')
            return 0;
        out.c[4 * r + c] = letter;
    }
    *b = out;
    return 1;
}

static const int dr4[4] = { -1, 1, 0, 0 }, dc4[4] = { 0, 0, -1, 1 };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Successor codes of b in a metric (0 step, 1 line, 2 move), sorted. */
static unsigned model_moves(const board *b, unsigned metric, uint64_t *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < CELLS; i++) {
        if (b->c[i] == '.' || (piece_cells(b, i) & ((1u << i) - 1)))
            continue;           /* empty, or not the piece's first cell */
        if (metric < 2) {
            for (unsigned d = 0; d < 4; d++) {
                board t = *b;
                unsigned at = i;
                while (shift_piece(&t, at, dr4[d], dc4[d])) {
                    at = (unsigned)((int)at + 4 * dr4[d] + dc4[d]);
                    out[n++] = encode(&t);
                    if (metric == 0)
                        break;
                }
            }
            continue;
        }
        /* move: a BFS over the piece's places, keyed by its first cell */
        board seen[CELLS];
        unsigned at[CELLS], nseen = 1;
        uint32_t have = 1u << i;
        seen[0] = *b;
        at[0] = i;
        for (unsigned q = 0; q < nseen; q++)
            for (unsigned d = 0; d < 4; d++) {
                board t = seen[q];
                unsigned to = (unsigned)((int)at[q] + 4 * dr4[d] + dc4[d]);
                if (!shift_piece(&t, at[q], dr4[d], dc4[d]) ||
                    (have >> to & 1))
                    continue;
                have |= 1u << to;
                seen[nseen] = t;
                at[nseen++] = to;
                out[n++] = encode(&t);
            }
    }
    qsort(out, n, sizeof *out, cmp_u64);
    return n;
}

/* ==== the ops ========================================================= */

static void *ctx[3];

static uint64_t ops_code(unsigned metric, uint64_t idx)
{
    char buf[32];
    kp->format_code(ctx[metric], 0, idx, buf, sizeof buf);
    return strtoull(buf, NULL, 16);
}

/* Index of a query text by the ops' parse, or UINT64_MAX. */
static uint64_t ops_index(const char *text)
{
    ptb_position pos[2];
    unsigned n;
    char err[256];
    if (kp->parse(ctx[0], text, NULL, pos, &n, err, sizeof err) != PTB_OK)
        return UINT64_MAX;
    return pos[0].idx;
}

static void short_code(uint64_t idx, char *out)
{
    static const char b32[] = "123456789ABCDEFGHJKMNPQRSTUVWXYZ";
    for (int i = 4; i >= 0; i--, idx /= 32)
        out[i] = b32[idx % 32];
    out[5] = '\0';
}

/* ==== enumeration ===================================================== */

typedef struct group {
    uint32_t *body, *tmp;
    size_t n, cap;
    unsigned head;
} group;

/* The fill below marks each cell: ' ' free, '.' empty, 'h' 'v' 'o' the
 * first cell of a 1x2, 2x1 or 1x1 piece, '#' any other covered cell. */
static uint32_t body_of_marks(const char *mark)
{
    uint32_t body = 0;
    unsigned shift = 32;
    for (unsigned i = 0; i < CELLS; i++) {
        const char *ty = strchr(".hvo", mark[i]);
        if (mark[i] == '#')
            continue;
        shift -= 2;
        body |= (uint32_t)(ty - ".hvo") << shift;
    }
    return body;
}

static void add_layout(group *g, const char *mark)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 1 << 20;
        g->body = realloc(g->body, g->cap * sizeof *g->body);
        if (!g->body) {
            perror("t_klotski");
            exit(1);
        }
    }
    g->body[g->n++] = body_of_marks(mark);
}

/* Every filling of the free cells from cell on, with at least 2 empty. */
static void fill(group *g, char *mark, unsigned cell, unsigned empty)
{
    while (cell < CELLS && mark[cell] != ' ')
        cell++;
    if (cell == CELLS) {
        if (empty >= 2)
            add_layout(g, mark);
        return;
    }
    mark[cell] = '.';
    fill(g, mark, cell + 1, empty + 1);
    mark[cell] = 'o';
    fill(g, mark, cell + 1, empty);
    if (cell % 4 < 3 && mark[cell + 1] == ' ') {
        mark[cell] = 'h';
        mark[cell + 1] = '#';
        fill(g, mark, cell + 2, empty);
        mark[cell + 1] = ' ';
    }
    if (cell + 4 < CELLS && mark[cell + 4] == ' ') {
        mark[cell] = 'v';
        mark[cell + 4] = '#';
        fill(g, mark, cell + 1, empty);
        mark[cell + 4] = ' ';
    }
    mark[cell] = ' ';
}

static void radix_sort(group *g)
{
    static size_t count[65536];
    g->tmp = realloc(g->tmp, (g->n ? g->n : 1) * sizeof *g->tmp);
    if (!g->tmp) {
        perror("t_klotski");
        exit(1);
    }
    for (unsigned pass = 0; pass < 2; pass++) {
        unsigned sh = 16 * pass;
        size_t sum = 0;
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < g->n; i++)
            count[g->body[i] >> sh & 0xFFFF]++;
        for (size_t k = 0; k < 65536; k++) {
            size_t c = count[k];
            count[k] = sum;
            sum += c;
        }
        for (size_t i = 0; i < g->n; i++)
            g->tmp[count[g->body[i] >> sh & 0xFFFF]++] = g->body[i];
        uint32_t *t = g->body;
        g->body = g->tmp;
        g->tmp = t;
    }
}

/* Checks one 2x2 place's layouts, which start at index first. */
static void check_group(group *g, uint64_t first, unsigned *bad_order,
                        unsigned *bad_code, unsigned *bad_parse,
                        unsigned *sampled)
{
    for (size_t j = 1; j < g->n; j++)
        *bad_order += g->body[j - 1] >= g->body[j];
    for (size_t j = 0; j < g->n; j++) {
        if (j % 97 != 13 && j != 0 && j + 1 != g->n)
            continue;
        uint64_t code = (uint64_t)g->head << 32 | g->body[j];
        char text[16];
        (*sampled)++;
        *bad_code += ops_code(0, first + j) != code;
        hex(code, text);
        *bad_parse += ops_index(text) != first + j;
        if (j == 0 || j + 1 == g->n) {
            short_code(first + j, text);
            *bad_parse += ops_index(text) != first + j;
        }
    }
}

static void enumeration_is_the_index_order(void)
{
    group g = { 0 };
    uint64_t first = 0;
    unsigned bad_order = 0, bad_code = 0, bad_parse = 0, sampled = 0;
    unsigned heads = 0;
    for (unsigned head = 0; head < 16; head++) {
        char mark[CELLS + 1];
        if (head % 4 == 3)
            continue;
        memset(mark, ' ', CELLS);
        mark[CELLS] = '\0';
        mark[head] = mark[head + 1] = mark[head + 4] = mark[head + 5] = '#';
        g.n = 0;
        g.head = head;
        fill(&g, mark, 0, 0);
        radix_sort(&g);
        check_group(&g, first, &bad_order, &bad_code, &bad_parse, &sampled);
        first += g.n;
        heads++;
    }
    check(heads == 12 && first == TOTAL && kp->size(ctx[0], 0) == TOTAL,
          "brute force finds %llu layouts over %u places of the 2x2 block; "
          "size() is %llu", (unsigned long long)first, heads,
          (unsigned long long)kp->size(ctx[0], 0));
    check(bad_order == 0, "their CommonCodes are all different (%u repeats)",
          bad_order);
    check(bad_code == 0, "sorted, the n-th is format_code(n): %u sampled "
          "incl. each place's first and last (%u wrong)", sampled, bad_code);
    check(bad_parse == 0, "parsing those CommonCodes (and ShortCodes of "
          "each first and last) gives n back (%u wrong)", bad_parse);
    free(g.body);
    free(g.tmp);
}

/* ==== codes =========================================================== */

static void the_classic_start_has_known_codes(void)
{
    const char *forms[] = { "1A9BF0C00", "1a9bf0c", "4WVE1", " 4wve1\n",
                            "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\n",
                            "BAAC BAAC DEEF DGHF IKKJ",
                            "  B A A C\n BAAC\nDEEF \n\nDGHF\nIKKJ\n\n",
                            "BAAC\nBAAC\nDEEF\nDGHF\nI..J\n" };
    unsigned bad = 0;
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++)
        if (ops_index(forms[i]) != 4091296) {
            printf("# %s: %llu\n", forms[i],
                   (unsigned long long)ops_index(forms[i]));
            bad++;
        }
    char sc[8];
    short_code(4091296, sc);
    check(bad == 0 && ops_code(0, 4091296) == 0x1A9BF0C00ull &&
          strcmp(sc, "4WVE1") == 0,
          "1A9BF0C00 = 4WVE1 = 4091296, from 8 spellings and back");
}

static void random_indices_round_trip(void)
{
    unsigned bad = 0, n = 20000;
    for (unsigned i = 0; i < n; i++) {
        uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % TOTAL;
        char text[16];
        short_code(idx, text);
        bad += ops_index(text) != idx;
        hex(ops_code(0, idx), text);
        bad += ops_index(text) != idx;
    }
    bad += ops_index("ZZZZZ") != UINT64_MAX;
    check(bad == 0, "%u random indices: ShortCode and CommonCode parse back "
          "to the index (%u wrong)", n, bad);
}

/* ==== moves =========================================================== */

static int same_set(const uint64_t *a, unsigned na, const uint64_t *b,
                    unsigned nb)
{
    return na == nb && memcmp(a, b, na * sizeof *a) == 0;
}

static void moves_match_the_model(unsigned metric)
{
    static const char *const name[] = { "step", "line", "move" };
    unsigned layouts = 3000, bad = 0, bad_back = 0, bad_apply = 0;
    uint64_t total = 0;
    for (unsigned i = 0; i < layouts; i++) {
        uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % TOTAL;
        uint64_t code = ops_code(metric, idx), want[256], got[256], back[256];
        ptb_move mv[PTB_MAX_MOVES];
        board b;
        decode(code, &b);
        unsigned nw = model_moves(&b, metric, want);
        unsigned ng = kp->moves(ctx[metric], 0, idx, mv);
        unsigned nb = kp->unmoves(ctx[metric], 0, idx, back);
        for (unsigned k = 0; k < ng; k++)
            got[k] = ops_code(metric, mv[k].to);
        for (unsigned k = 0; k < nb; k++)
            back[k] = ops_code(metric, back[k]);
        qsort(got, ng, sizeof *got, cmp_u64);
        qsort(back, nb, sizeof *back, cmp_u64);
        bad += !same_set(want, nw, got, ng);
        bad_back += !same_set(want, nw, back, nb);
        total += nw;
        /* apply() on the lettered view lands on the move's target */
        ptb_position pos[2];
        unsigned np;
        b.c[CELLS] = '\0';
        if (kp->parse(ctx[metric], b.c, NULL, pos, &np, NULL, 0) != PTB_OK) {
            bad_apply++;
            continue;
        }
        for (unsigned k = 0; k < ng; k++) {
            ptb_position p = pos[0];
            board after;
            kp->apply(ctx[metric], &p, &mv[k]);
            memcpy(after.c, p.cell, CELLS);
            after.c[CELLS] = '\0';
            bad_apply += p.idx != mv[k].to ||
                         encode(&after) != ops_code(metric, mv[k].to);
        }
    }
    check(bad == 0, "%s: moves() of %u random layouts reach what the model "
          "reaches (%llu moves, %u wrong)", name[metric], layouts,
          (unsigned long long)total, bad);
    check(bad_back == 0, "%s: unmoves() lists the same layouts (%u wrong)",
          name[metric], bad_back);
    check(bad_apply == 0, "%s: apply() moves the lettered board to each "
          "move's target (%u wrong)", name[metric], bad_apply);
}

static void goals_are_the_block_at_cell_13(void)
{
    uint64_t lo = UINT64_MAX, hi = 0, n = 0;
    unsigned bad = 0;
    for (uint64_t i = 0; i < TOTAL; i += 7919)
        bad += kp->is_goal(ctx[0], 0, i) != (ops_code(0, i) >> 32 == GOAL);
    for (uint64_t i = 0; i < TOTAL; i++)
        if (kp->is_goal(ctx[0], 0, i)) {
            lo = i < lo ? i : lo;
            hi = i;
            n++;
        }
    check(bad == 0 && n == hi - lo + 1 && ops_code(0, lo) >> 32 == GOAL &&
          ops_code(0, hi) >> 32 == GOAL && ops_code(0, lo - 1) >> 32 != GOAL
          && ops_code(0, hi + 1) >> 32 != GOAL,
          "goals are the %llu layouts with the 2x2 block on cell 13",
          (unsigned long long)n);
}

/* ==== answers through the public API ================================== */

/* A random layout with nh 1x2, nv 2x1 and n1 1x1 pieces, or 0 when the
 * tries fail. */
static int random_layout(unsigned nh, unsigned nv, unsigned n1, board *b)
{
    for (unsigned tries = 0; tries < 1000; tries++) {
        unsigned head = (unsigned)rand() % 15;
        if (head % 4 == 3)
            continue;
        memset(b->c, '.', CELLS);
        b->c[CELLS] = '\0';
        b->c[head] = b->c[head + 1] = b->c[head + 4] = b->c[head + 5] = 'A';
        char next = 'B';
        unsigned placed = 0, want = nh + nv + n1, fails = 0;
        while (placed < want && fails < 200) {
            unsigned ty = placed < nh ? 1 : placed < nh + nv ? 2 : 3;
            unsigned c = (unsigned)rand() % CELLS;
            unsigned c2 = ty == 1 ? c + 1 : ty == 2 ? c + 4 : c;
            if ((ty == 1 && c % 4 == 3) || c2 >= CELLS || b->c[c] != '.' ||
                b->c[c2] != '.') {
                fails++;
                continue;
            }
            b->c[c] = b->c[c2] = next++;
            placed++;
        }
        if (placed == want)
            return 1;
    }
    return 0;
}

/* Replays the printed moves on the model's board: each letter must name a
 * piece and each direction be one legal cell step; a step/line move keeps
 * to one straight line (one cell for step); every board printed must be
 * the replayed one; the last has the block on cell 13. */
static int replay(const ptb_space *s, unsigned metric, const board *start,
                  const ptb_solution *sol)
{
    board b = *start;
    for (unsigned i = 0; i < sol->distance; i++) {
        char mv[64], shown[64], want[64];
        ptb_format_move(s, i ? &sol->after[i - 1] : &sol->start,
                        &sol->move[i], mv, sizeof mv);
        size_t n = strlen(mv);
        if (n < 3 || mv[1] != ' ' || (metric == 0 && n != 3))
            return 0;
        const char *at = strchr(b.c, mv[0]);
        if (!at || mv[0] == '.')
            return 0;
        unsigned cell = (unsigned)(at - b.c);
        for (size_t k = 2; k < n; k++) {
            const char *d = strchr("UDLR", mv[k]);
            if (!d || (metric == 1 && mv[k] != mv[2]))
                return 0;
            unsigned dir = (unsigned)(d - "UDLR");
            if (!shift_piece(&b, cell, dr4[dir], dc4[dir]))
                return 0;
            cell = (unsigned)(strchr(b.c, mv[0]) - b.c);
        }
        ptb_format_board(s, &sol->after[i], shown, sizeof shown);
        for (unsigned r = 0, k = 0; r < 5; r++) {
            memcpy(want + k, b.c + 4 * r, 4);
            k += 4;
            want[k++] = r < 4 ? '\n' : '\0';
        }
        if (strcmp(shown, want) != 0)
            return 0;
    }
    return b.c[GOAL] == 'A' && b.c[GOAL + 1] == 'A' &&
           b.c[GOAL + 4] == 'A' && b.c[GOAL + 5] == 'A';
}

static void answers_of_every_piece_mix(const char *dir)
{
    static const char *const metric[] = { "step", "line", "move" };
    ptb_solution *sol = malloc(sizeof *sol), *ref = malloc(sizeof *ref);
    unsigned mixes = 0, solved = 0, bad = 0, illegal = 0, wrong = 0;
    unsigned searched = 0, unsolvable = 0;
    for (unsigned m = 0; m < 3; m++) {
        ptb_space *s;
        ptb_table *t;
        if (ptb_space_open("klotski", metric[m], &s) != PTB_OK ||
            ptb_table_open(s, dir, &t) != PTB_OK) {
            check(0, "%s: table opens in %s", metric[m], dir);
            ptb_space_close(s);
            continue;
        }
        srand(1000 + m);
        for (unsigned nh = 0; nh <= 7; nh++)
            for (unsigned nv = 0; nh + nv <= 7; nv++)
                for (unsigned n1 = 0; 2 * (nh + nv) + n1 <= 14; n1++) {
                    board b;
                    ptb_position pos[2];
                    unsigned np;
                    if (!random_layout(nh, nv, n1, &b))
                        continue;
                    mixes++;
                    if (ptb_parse(s, b.c, NULL, pos, &np, NULL, 0)) {
                        bad++;
                        continue;
                    }
                    int rc = ptb_solve(t, NULL, pos, np, sol);
                    if (rc == PTB_NOTFOUND) {
                        unsolvable++;
                        continue;
                    }
                    solved++;
                    if (rc != PTB_OK) {
                        bad++;
                        continue;
                    }
                    illegal += !replay(s, m, &b, sol);
                    if (mixes % 4 == 0) {
                        searched++;
                        wrong += ptb_search(s, pos, np, ref) != PTB_OK ||
                                 ref->distance != sol->distance ||
                                 !replay(s, m, &b, ref);
                    }
                }
        ptb_table_close(t);
        ptb_space_close(s);
    }
    check(bad == 0 && solved > 0, "a random layout of each piece mix in "
          "each metric: %u layouts, %u solved, %u unsolvable (%u errors)",
          mixes, solved, unsolvable, bad);
    check(illegal == 0, "each answer replays legally on the model's board, "
          "printing each board, and ends on a goal (%u bad)", illegal);
    check(wrong == 0, "ptb_search finds the same distance for %u of them "
          "(%u wrong)", searched, wrong);
    free(sol);
    free(ref);
}

static void bad_queries_get_one_line_messages(void)
{
    static const char *const bad[] = {
        "", "BAAC\nBAAC\nDEEF\nDGHF\n",
        "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\nIKKJ\n",
        "BAAC\nBAAC\nDEEF\nDGHFF\nIKKJ\n", "BAAC\nBAAC\nDEEF\nDGHF\nIKKZ\n",
        "BAAC\nBAAC\nDEEF\nDGGF\nIKKJ\n", "BAAC\nBAAC\nDEEF\nDGHF\nIJKJ\n",
        "BAAC\nBAAC\nDEEF\nDGHF\nIGKJ\n", "BAAB\nBAAB\nDEEF\nDGHF\nIKKJ\n",
        "B..C\nB..C\nDEEF\nDGHF\nIKKJ\n", "AAB.\nAAB.\nAACC\nAAD.\nEEFF\n",
        "AABC\nAABC\nDDEE\nFFGG\nHH.I\n", "1A9BF0C0F", "FA9BF0C00",
        "1A9B0", "ZZZZZ", "1A9BF0C00X", "BAAC\nBA#C\nDEEF\nDGHF\n.KKJ"
    };
    unsigned n = sizeof bad / sizeof *bad, wrong = 0;
    for (unsigned i = 0; i < n; i++) {
        ptb_position pos[2];
        unsigned np = 9;
        char err[256] = "";
        int rc = kp->parse(ctx[0], bad[i], NULL, pos, &np, err, sizeof err);
        char shown[64];
        snprintf(shown, sizeof shown, "%s", bad[i][0] ? bad[i] : "(empty)");
        for (char *c = shown; *c; c++)
            *c = *c == '\n' ? '/' : *c;
        printf("# %-30s -> %s\n", shown, err);
        if (rc != PTB_EPARSE || np != 0 || !err[0] || strchr(err, '\n')) {
            printf("#   ^ rc %d\n", rc);
            wrong++;
        }
    }
    check(wrong == 0, "%u malformed queries: PTB_EPARSE and a one-line "
          "message (%u wrong)", n, wrong);
}

int main(void)
{
    for (unsigned m = 0; m < 3; m++)
        if (kp->open(m, &ctx[m]) != PTB_OK) {
            check(0, "open metric %u", m);
            return check_done();
        }
    srand(86);
    the_classic_start_has_known_codes();
    random_indices_round_trip();
    bad_queries_get_one_line_messages();
    goals_are_the_block_at_cell_13();
    for (unsigned m = 0; m < 3; m++)
        moves_match_the_model(m);
    enumeration_is_the_index_order();
    answers_of_every_piece_mix(tables_dir());
    for (unsigned m = 0; m < 3; m++)
        kp->close(ctx[m]);
    return check_done();
}
