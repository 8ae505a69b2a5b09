/* tests/t_klotski.c: Klotski's state space, codes, moves and answers
 * against a model of the rules written here: a board of 20 characters (one
 * letter per piece, '.' empty), a CommonCode encoder and decoder, its
 * left-right mirror, a brute-force enumeration of every layout, a move
 * generator per metric and a BFS of its own.
 *
 * The state space holds one state per mirror class (a layout and its
 * mirror image), numbered as the description engine ranks them.  It is
 * tested through the puzzle's ops (ptb_puzzle_klotski, via puzzle.h); the
 * answers through the public API and tables/klotski-*.mdb
 * (PUZZLETB_TABLES overrides the folder).  Checks:
 *   - 29,334,498 layouts, 14,673,066 mirror classes (the states), 11,634
 *     layouts their own mirror image; the enumeration, sorted, gives the
 *     ShortCodes (ascending CommonCode rank): each 2x2 place's first and
 *     last layout and a sample of the others, by their CommonCode, their
 *     ShortCode and their mirror's CommonCode, parse to one state below
 *     size(), whose code format_code() prints as the smaller of the pair,
 *     and whose JSON gives the layout's ShortCode; every 101st state's
 *     code is the smaller of a pair and parses back to it; goals() gives
 *     the mirror classes with the block on cell 13, each a goal, and
 *     is_goal() of every 101st state agrees with its code;
 *   - 1A9BF0C00 = 4WVE1 = 4,091,296, in both directions and lower case;
 *   - the notation: 5-character words are ShortCodes, 6-9 hex digits
 *     CommonCodes, short: and common: say which; a code comes back as a
 *     general grid;
 *   - for random states, moves() reach exactly the states of the layouts
 *     the model's generator reaches, unmoves() exactly the states one move
 *     before, in each metric, and apply() moves the user's lettered board
 *     (mirrored or not) by a legal move of the model; the moves the walk
 *     makes from the parsed board and from each board after apply()
 *     (first_move()) reach the model's successors;
 *   - a layout and its mirror have the same distance through the public
 *     API, every distance is one more than its nearest model successor's,
 *     and the model's own BFS gives the tables' distance, on samples with
 *     the block in every column and self-symmetric layouts;
 *   - for a random layout of every piece mix and each metric, the table's
 *     answer is legal when replayed on the model's board, ends on a goal,
 *     and has the length ptb_search finds; bad queries give one-line
 *     messages. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzles/puzzles.h"
#include "puzzletb.h"
#include "tables.h"

#define CELLS 20
#define TOTAL 29334498u
#define STRIDE 101u              /* every so many states, checked */
#define STATES 14673066u
#define SELF_MIRRORED 11634u
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

/* CommonCode type of a piece whose cells are m (piece_cells()): 1 1x2,
 * 2 2x1, 3 1x1, 4 2x2. */
static unsigned piece_type(uint32_t m)
{
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
    for (unsigned i = 0; i < CELLS && head == CELLS; i++)
        if (b->c[i] != '.' && piece_type(piece_cells(b, i)) == 4) {
            head = i;
            done |= piece_cells(b, i);
        }
    for (unsigned i = 0; i < CELLS; i++) {
        if (done >> i & 1)
            continue;
        shift -= 2;
        if (b->c[i] != '.') {
            uint32_t m = piece_cells(b, i);
            body |= (uint32_t)piece_type(m) << shift;
            done |= m;
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

/* Every successor of b in a metric (0 step, 1 line, 2 move): the board
 * after one move, letters kept. */
static unsigned model_succ(const board *b, unsigned metric, board *out)
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
                    out[n++] = t;
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
                out[n++] = t;
            }
    }
    return n;
}

/* The left-right mirror image of b. */
static void mirror(const board *b, board *out)
{
    for (unsigned i = 0; i < CELLS; i++)
        out->c[i] = b->c[i - i % 4 + 3 - i % 4];
    out->c[CELLS] = '\0';
}

/* The column (0-3) of the 2x2 block's left half. */
static unsigned block_col(const board *b)
{
    for (unsigned i = 0; i < CELLS; i++)
        if (b->c[i] != '.' && bits(piece_cells(b, i)) == 4)
            return i % 4;
    return 4;
}

/* The CommonCode of the layout that stands for b in the state space: the
 * smaller of b's and its mirror's. */
static uint64_t state_code(const board *b)
{
    board m;
    mirror(b, &m);
    uint64_t c = encode(b), cm = encode(&m);
    return c < cm ? c : cm;
}

static int is_goal_board(const board *b)
{
    return b->c[GOAL] != '.' && piece_cells(b, GOAL) == 0x33u << GOAL;
}

/* State codes of b's successors in a metric, sorted; with dedup, each
 * once. */
static unsigned model_moves(const board *b, unsigned metric, int dedup,
                            uint64_t *out)
{
    static board next[256];
    unsigned n = model_succ(b, metric, next), k = 0;
    for (unsigned i = 0; i < n; i++)
        out[i] = state_code(&next[i]);
    qsort(out, n, sizeof *out, cmp_u64);
    for (unsigned i = 0; i < n; i++)
        if (!dedup || k == 0 || out[k - 1] != out[i])
            out[k++] = out[i];
    return k;
}

/* The states one move before the state of board b (which stands for
 * itself): the layouts p of the space with b's code among p's successors'
 * state codes.  Moves are reversible, so p is a successor of b or of its
 * mirror.  Sorted, each once. */
static unsigned model_unmoves(const board *b, unsigned metric, uint64_t *out)
{
    static board cand[512];
    board m;
    uint64_t code = encode(b), succ[256];
    unsigned n = model_succ(b, metric, cand), k = 0;
    mirror(b, &m);
    n += model_succ(&m, metric, cand + n);
    for (unsigned i = 0; i < n; i++) {
        if (state_code(&cand[i]) != encode(&cand[i]))
            continue;
        unsigned ns = model_moves(&cand[i], metric, 1, succ);
        for (unsigned j = 0; j < ns; j++)
            if (succ[j] == code)
                out[k++] = encode(&cand[i]);
    }
    qsort(out, k, sizeof *out, cmp_u64);
    unsigned u = 0;
    for (unsigned i = 0; i < k; i++)
        if (u == 0 || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
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
        if (mark[i] == '#')
            continue;
        shift -= 2;               /* '.' 0, 'h' 1, 'v' 2, 'o' 3 */
        body |= (uint32_t)(mark[i] == 'h' ? 1 : mark[i] == 'v' ? 2
                           : mark[i] == 'o' ? 3 : 0) << shift;
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

/* The marks of a layout from its 2x2 place and CommonCode body. */
static void marks_of(unsigned head, uint32_t body, char *mark)
{
    unsigned shift = 32;
    memset(mark, ' ', CELLS);
    mark[head] = mark[head + 1] = mark[head + 4] = mark[head + 5] = '#';
    for (unsigned i = 0; i < CELLS; i++) {
        if (mark[i] != ' ')
            continue;
        shift -= 2;
        unsigned ty = body >> shift & 3;
        mark[i] = ".hvo"[ty];
        if (ty == 1)
            mark[i + 1] = '#';
        if (ty == 2)
            mark[i + 4] = '#';
    }
}

/* The CommonCode body of the mirror image of a layout whose 2x2 block is
 * in columns 2-3 (so its mirror has it there too). */
static uint32_t mirror_body(unsigned head, uint32_t body)
{
    char mark[CELLS], mm[CELLS];
    marks_of(head, body, mark);
    for (unsigned i = 0; i < CELLS; i++)
        mm[i - i % 4 + 3 - i % 4] = mark[i];
    for (unsigned i = 0; i < CELLS; i++)
        if (mark[i] == 'h') {          /* its left cell is now the right */
            unsigned m = i - i % 4 + 3 - i % 4;
            mm[m] = '#';
            mm[m - 1] = 'h';
        }
    return body_of_marks(mm);
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

/* Where a code's layout is in its sorted group, or -1. */
static long find_body(const group *g, uint32_t body)
{
    size_t lo = 0, hi = g->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->body[mid] < body)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->n && g->body[lo] == body ? (long)lo : -1;
}

typedef struct tally {
    unsigned code, parse, json, sampled, stride, strided;
} tally;

static void free_group(group *g)
{
    free(g->body);
    free(g->tmp);
}

/* For a place in columns 2-3 (sorted): how many mirror classes its layouts
 * make; adds the layouts that are their own mirror image to *self. */
static uint32_t count_classes(const group *g, uint64_t *self)
{
    uint32_t k = 0;
    for (size_t j = 0; j < g->n; j++) {
        uint32_t mb = mirror_body(g->head, g->body[j]);
        k += mb >= g->body[j];
        *self += mb == g->body[j];
    }
    return k;
}

/* The "short_code" of the JSON query of a parsed text, into out. */
static int json_short_code(const char *text, char *out)
{
    ptb_position pos[2];
    unsigned n;
    char buf[256];
    const char *at;
    if (kp->parse(ctx[0], text, NULL, pos, &n, NULL, 0) != PTB_OK)
        return 0;
    kp->format_query_json(ctx[0], &pos[0], buf, sizeof buf);
    if (!(at = strstr(buf, "\"short_code\":\"")))
        return 0;
    memcpy(out, at + 14, 5);
    out[5] = '\0';
    return 1;
}

/* Checks a sample of one 2x2 place's layouts, their ShortCodes starting
 * at pub: by their CommonCode, their ShortCode and their mirror image's
 * CommonCode, each parses to one state below size(), whose code is the
 * smaller of the pair, and whose query's JSON gives the ShortCode. */
static void check_group(const group *g, uint64_t pub, tally *t)
{
    for (size_t j = 0; j < g->n; j++) {
        if (j % 97 != 13 && j != 0 && j + 1 != g->n)
            continue;
        uint64_t code = (uint64_t)g->head << 32 | g->body[j];
        char text[16], sc[8], js[8];
        board b, m;
        decode(code, &b);
        mirror(&b, &m);
        uint64_t mcode = encode(&m);
        t->sampled++;
        hex(code, text);
        uint64_t idx = ops_index(text);
        short_code(pub + j, sc);
        t->parse += idx >= STATES || ops_index(sc) != idx;
        t->json += !json_short_code(text, js) || strcmp(js, sc);
        hex(mcode, text);
        t->parse += ops_index(text) != idx;
        t->code += idx >= STATES ||
                   ops_code(0, idx) != (mcode < code ? mcode : code);
    }
}

/* A stride of the states: each one's code is the smaller of its layout's
 * and its mirror image's, and parses back to the state (no two states
 * share a code). */
static void check_states(tally *t)
{
    for (uint64_t idx = 0; idx < STATES; idx += STRIDE) {
        uint64_t code = ops_code(0, idx);
        char text[16];
        board b, m;
        decode(code, &b);
        mirror(&b, &m);
        hex(code, text);
        t->strided++;
        t->stride += encode(&b) != code || encode(&m) < code ||
                     ops_index(text) != idx;
    }
}

/* The brute-force enumeration of every layout against the state space;
 * returns the mirror classes with the block on the goal's cell. */
static uint64_t enumeration_gives_the_states(void)
{
    group g = { 0 };
    uint64_t pub = 0, first = 0, self = 0, at_goal = 0;
    uint64_t size[16] = { 0 };
    unsigned heads = 0, mirrored_sizes = 0;
    uint64_t classic = UINT64_MAX;
    tally t = { 0 };
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
        if (head == 1) {
            long at = find_body(&g, 0xA9BF0C00u);
            classic = at < 0 ? UINT64_MAX : pub + (uint64_t)at;
        }
        size[head] = g.n;
        uint64_t states = head % 4 == 0 ? g.n
                          : head % 4 == 1 ? count_classes(&g, &self) : 0;
        if (head == GOAL)
            at_goal = states;
        check_group(&g, pub, &t);
        if (head % 4 == 2)
            mirrored_sizes += size[head] == size[head - 2];
        pub += g.n;
        first += states;
        heads++;
    }
    free_group(&g);
    check_states(&t);
    check(heads == 12 && pub == TOTAL, "brute force finds %llu layouts over "
          "%u places of the 2x2 block", (unsigned long long)pub, heads);
    check(first == STATES && self == SELF_MIRRORED &&
          kp->size(ctx[0], 0) == STATES && mirrored_sizes == 4,
          "the places in columns 3-4 mirror those in columns 1-2; with the "
          "block in columns 2-3, %llu layouts are their own mirror image; "
          "%llu mirror classes, size() %llu", (unsigned long long)self,
          (unsigned long long)first,
          (unsigned long long)kp->size(ctx[0], 0));
    check(classic == 4091296, "1A9BF0C00 is layout %llu in CommonCode "
          "order", (unsigned long long)classic);
    check(t.parse == 0, "a layout's CommonCode, its ShortCode (rank among "
          "all layouts) and its mirror image's CommonCode parse to one "
          "state: %u sampled incl. each place's first and last (%u wrong)",
          t.sampled, t.parse);
    check(t.code == 0, "... whose code format_code() prints is the smaller "
          "of the pair (%u wrong)", t.code);
    check(t.json == 0, "... and whose JSON query gives the layout's "
          "ShortCode (%u wrong)", t.json);
    check(t.stride == 0 && t.strided > STATES / STRIDE, "%u states, one in "
          "%u: each one's code is the smaller of a mirror pair and parses "
          "back to it (%u wrong)", t.strided, STRIDE, t.stride);
    return at_goal;
}

/* ==== codes =========================================================== */

static void the_classic_start_has_known_codes(void)
{
    const char *forms[] = { "1A9BF0C00", "1a9bf0c", "4WVE1", " 4wve1\n",
                            "short:4WVE1", "SHORT:4wve1", "common:1A9BF0C",
                            "Common:1a9bf0c00",
                            "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ\n",
                            "BAAC BAAC DEEF DGHF IKKJ",
                            "\xef\xbb\xbf BAAC\r\n\tBAAC\r\nDEEF \r\n\r\n"
                            "DGHF\r\nIKKJ\r\n\r\n",
                            "BAAC/BAAC/DEEF/DGHF/IKKJ", "BAACBAACDEEFDGHFIKKJ",
                            "BAAC\nBAAC\nDEEF\nDGHF\nI..J\n" };
    uint64_t idx = ops_index(forms[0]);
    unsigned bad = 0;
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++)
        if (ops_index(forms[i]) != idx) {
            printf("# %s: %llu\n", forms[i],
                   (unsigned long long)ops_index(forms[i]));
            bad++;
        }
    char sc[8];
    short_code(4091296, sc);
    check(bad == 0 && idx != UINT64_MAX &&
          ops_code(0, idx) == 0x1A9BF0C00ull && strcmp(sc, "4WVE1") == 0,
          "1A9BF0C00 = 4WVE1 = 4091296, from 14 spellings (BOM, CRLF, tabs, "
          "/) and back");
}

/* The board a code query comes back as: the general grid, A the 2x2
 * block, B, C, ... the others in row-major order, '.' empty. */
static void general_grid(uint64_t code, char *out)
{
    board b;
    decode(code, &b);
    for (unsigned i = 0; i < CELLS; i++)
        out[i] = b.c[i] >= 'a' && b.c[i] <= 'z' ? (char)(b.c[i] - 'a' + 'B')
                                                 : b.c[i];
    out[CELLS] = '\0';
}

/* The board of a query as format_board prints it, rows joined. */
static void shown_board(const char *text, char *out)
{
    ptb_position pos[2];
    unsigned n;
    char buf[64];
    out[0] = '\0';
    if (kp->parse(ctx[0], text, NULL, pos, &n, NULL, 0) != PTB_OK)
        return;
    kp->format_board(ctx[0], &pos[0], buf, sizeof buf);
    size_t k = 0;
    for (const char *c = buf; *c; c++)
        if (*c != '\n')
            out[k++] = *c;
    out[k] = '\0';
}

static void the_notation_has_one_rule(void)
{
    char text[32], want[32], got[32];
    board b;
    /* 1A9BF: a 5-character word is a ShortCode; common: makes it hex */
    decode(0x1A9BF0000ull, &b);
    check(ops_index("1A9BF") != ops_index("common:1A9BF") &&
          ops_index("common:1A9BF") == ops_index(b.c) &&
          ops_index("common:1A9BF") == ops_index("1A9BF0") &&
          ops_index("1A9BF") == ops_index("short:1A9BF"),
          "1A9BF is a ShortCode, common:1A9BF = 1A9BF0 = 1A9BF0000");
    check(ops_index("1A9B") == UINT64_MAX && ops_index("1") == UINT64_MAX &&
          ops_index("short:4WVE") == UINT64_MAX &&
          ops_index("common:") == UINT64_MAX &&
          ops_index("common:1A9BF0C000") == UINT64_MAX &&
          ops_index("common:1A9BF0C") == ops_index("1A9BF0C"),
          "1-4 characters without a prefix are no code; short: takes 5, "
          "common: 1 to 9");
    unsigned bad = 0, mirrored = 0;
    for (unsigned i = 0; i < 2000; i++) {
        uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % STATES;
        uint64_t code = ops_code(0, idx);
        board m;
        if (i % 2) {               /* half of them as their mirror */
            decode(code, &b);
            mirror(&b, &m);
            code = encode(&m);
            mirrored += block_col(&m) == 2;
        }
        hex(code, text);
        general_grid(code, want);
        shown_board(text, got);
        bad += strcmp(want, got) != 0;
    }
    check(bad == 0 && mirrored > 0, "2000 CommonCodes (%u with the block in "
          "columns 3-4) come back as the general grid of their own layout "
          "(%u wrong)", mirrored, bad);
    shown_board("BAAC BAAC DEEF DGHF IKKJ", got);
    check(strcmp(got, "BAACBAACDEEFDGHFIKKJ") == 0, "the A-K notation comes "
          "back as given: %s", got);
    shown_board("CAAB CAAB FEED FHGD JKKI", got);
    check(strcmp(got, "CAABCAABFEEDFHGDJKKI") == 0, "... mirrored too");
    shown_board("xAAy xAAy .zz. w12v w34v", got);
    check(strcmp(got, "xAAyxAAy.zz.w12vw34v") == 0, "a general grid comes "
          "back with its own letters and '.'");
}

static void random_indices_round_trip(void)
{
    unsigned bad = 0, n = 20000;
    for (unsigned i = 0; i < n; i++) {
        uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % STATES;
        char text[24];
        board b, m;
        uint64_t code = ops_code(0, idx);
        hex(code, text);
        bad += ops_index(text) != idx;
        snprintf(text, sizeof text, "common:%09llX",
                 (unsigned long long)code);
        bad += ops_index(text) != idx;
        decode(code, &b);
        bad += state_code(&b) != code;
        mirror(&b, &m);
        bad += ops_index(m.c) != idx;
        bad += ops_index(b.c) != idx;
    }
    bad += ops_index("ZZZZZ") != UINT64_MAX;
    check(bad == 0, "%u random states: format_code() shows the smaller code "
          "of the mirror pair; that code, and the board and its mirror, parse "
          "back to the state (%u wrong)", n, bad);
}

/* ==== moves =========================================================== */

static int same_set(const uint64_t *a, unsigned na, const uint64_t *b,
                    unsigned nb)
{
    return na == nb && memcmp(a, b, na * sizeof *a) == 0;
}

/* Collects every move first_move() offers (picking none). */
typedef struct offered {
    ptb_move mv[PTB_MAX_MOVES];
    unsigned n;
} offered;

static int offer(void *arg, const ptb_move *m)
{
    offered *o = arg;
    if (o->n < PTB_MAX_MOVES)
        o->mv[o->n++] = *m;
    return 0;
}

/* The moves the walk makes from a position whose user's board is b
 * (first_move(), offering each): the state codes of their successors are
 * the model's.  Returns the number of failures. */
static unsigned walk_moves_on(unsigned metric, const board *b,
                              const ptb_position *p)
{
    offered o = { .n = 0 };
    ptb_move out;
    uint64_t want[256], got[PTB_MAX_MOVES];
    unsigned nw = model_moves(b, metric, 0, want);
    if (kp->first_move(ctx[metric], p, offer, NULL, &o, &out) != 0)
        return 1;
    for (unsigned k = 0; k < o.n; k++)
        got[k] = ops_code(metric, o.mv[k].to);
    qsort(got, o.n, sizeof *got, cmp_u64);
    return !same_set(want, nw, got, o.n);
}

/* Applies every move of the state to the user's board u (parsed), checking
 * each lands on a legal successor of u with u's letters, whose state (the
 * layout or its mirror) is the move's, and that the walk's moves from u
 * and from each successor reach what the model reaches.  Returns the number of
 * failures. */
static unsigned apply_on(unsigned metric, const board *u, const ptb_move *mv,
                         unsigned n, unsigned *turned)
{
    static board next[256];
    ptb_position pos[2];
    unsigned np, bad = 0, ns = model_succ(u, metric, next);
    if (kp->parse(ctx[metric], u->c, NULL, pos, &np, NULL, 0) != PTB_OK)
        return 1;
    bad += walk_moves_on(metric, u, &pos[0]);
    for (unsigned k = 0; k < n; k++) {
        ptb_position p = pos[0];
        board after, m;
        unsigned legal = 0;
        kp->apply(ctx[metric], &p, &mv[k]);
        memcpy(after.c, p.cell, CELLS);
        after.c[CELLS] = '\0';
        for (unsigned i = 0; i < ns; i++)
            legal += strcmp(after.c, next[i].c) == 0;
        mirror(&after, &m);
        uint64_t to = ops_code(metric, mv[k].to);
        bad += p.idx != mv[k].to || !legal ||
               (to != encode(&after) && to != encode(&m));
        bad += walk_moves_on(metric, &after, &p);
        *turned += encode(&after) != to;
    }
    return bad;
}

static void moves_match_the_model(unsigned metric)
{
    static const char *const name[] = { "step", "line", "move" };
    unsigned layouts = 3000, bad = 0, bad_back = 0, bad_apply = 0;
    unsigned flipped = 0;
    uint64_t total = 0;
    for (unsigned i = 0; i < layouts; i++) {
        uint64_t idx = ((uint64_t)rand() << 16 ^ (uint64_t)rand()) % STATES;
        uint64_t code = ops_code(metric, idx), want[256], got[256];
        uint64_t back[256], wantb[512];
        ptb_move mv[PTB_MAX_MOVES];
        board b, m;
        decode(code, &b);
        unsigned nw = model_moves(&b, metric, 0, want);
        unsigned ng = kp->moves(ctx[metric], 0, idx, mv);
        unsigned nb = kp->unmoves(ctx[metric], 0, idx, back);
        unsigned nwb = model_unmoves(&b, metric, wantb);
        for (unsigned k = 0; k < ng; k++)
            got[k] = ops_code(metric, mv[k].to);
        for (unsigned k = 0; k < nb; k++)
            back[k] = ops_code(metric, back[k]);
        qsort(got, ng, sizeof *got, cmp_u64);
        qsort(back, nb, sizeof *back, cmp_u64);
        unsigned u = 0;
        for (unsigned k = 0; k < nb; k++)
            if (u == 0 || back[u - 1] != back[k])
                back[u++] = back[k];
        bad += !same_set(want, nw, got, ng);
        bad_back += !same_set(wantb, nwb, back, u);
        total += nw;
        /* apply() on the lettered board, and on its mirror, which stands
         * as this state too */
        b.c[CELLS] = '\0';
        bad_apply += apply_on(metric, &b, mv, ng, &flipped);
        mirror(&b, &m);
        bad_apply += apply_on(metric, &m, mv, ng, &flipped);
    }
    check(bad == 0, "%s: moves() of %u random states reach the states of "
          "what the model reaches (%llu moves, %u wrong)", name[metric],
          layouts, (unsigned long long)total, bad);
    check(bad_back == 0, "%s: unmoves() lists exactly the states one move "
          "before (%u wrong)", name[metric], bad_back);
    check(bad_apply == 0 && flipped > 0, "%s: apply() moves the lettered "
          "board, and its mirror, by a legal move to each move's state, "
          "and the walk's moves there reach what the model reaches (%u "
          "boards whose state is their mirror's code; %u wrong)",
          name[metric], flipped, bad_apply);
}

typedef struct goal_tally {
    uint64_t emitted;
    unsigned bad;
} goal_tally;

/* One goal goals() gives: a goal, its code's block on cell 13. */
static void count_goal(void *arg, uint64_t idx)
{
    goal_tally *g = arg;
    g->emitted++;
    g->bad += !kp->is_goal(ctx[0], 0, idx) || ops_code(0, idx) >> 32 != GOAL;
}

/* Goals: goals() gives as many states as the enumeration found mirror
 * classes with the block on cell 13 (classes), each a goal with the block
 * there; and on a stride of the states, is_goal() says whether the block
 * is there. */
static void goals_are_the_block_at_cell_13(uint64_t classes)
{
    goal_tally g = { 0, 0 };
    unsigned bad = 0, n = 0;
    kp->goals(ctx[0], 0, count_goal, &g);
    for (uint64_t i = 0; i < STATES; i += STRIDE, n++)
        bad += !kp->is_goal(ctx[0], 0, i) != (ops_code(0, i) >> 32 != GOAL);
    check(g.bad == 0 && g.emitted == classes,
          "goals() gives the %llu states (mirror classes) with the 2x2 block "
          "on cell 13, each a goal (%llu; %u wrong)",
          (unsigned long long)classes, (unsigned long long)g.emitted, g.bad);
    check(bad == 0 && n > STATES / STRIDE, "is_goal() of one state in %u "
          "is whether the block is on cell 13 (%u states, %u wrong)",
          STRIDE, n, bad);
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

/* ==== mirror images ==================================================== */

/* A random layout that is its own mirror image: the 2x2 block in the
 * middle columns, the left half filled at random and mirrored, a 1x2 piece
 * across the middle allowed. */
static int random_symmetric(board *b)
{
    for (unsigned tries = 0; tries < 1000; tries++) {
        unsigned head = 4 * ((unsigned)rand() % 4) + 1, empty = 0;
        char next = 'B';
        memset(b->c, '.', CELLS);
        b->c[CELLS] = '\0';
        b->c[head] = b->c[head + 1] = b->c[head + 4] = b->c[head + 5] = 'A';
        for (unsigned i = 0; i < CELLS; i++) {
            unsigned c = i % 4, m = i - c + 3 - c, k = (unsigned)rand() % 5;
            if (c > 1 || b->c[i] != '.')
                continue;
            if (k == 1) {
                b->c[i] = next++;
                b->c[m] = next++;
            } else if (k == 2 && i + 4 < CELLS && b->c[i + 4] == '.') {
                b->c[i] = b->c[i + 4] = next++;
                b->c[m] = b->c[m + 4] = next++;
            } else if (k == 3 && b->c[i + 1] == '.') {
                if (c == 1) {
                    b->c[i] = b->c[i + 1] = next++;
                } else {
                    b->c[i] = b->c[i + 1] = next++;
                    b->c[m] = b->c[m - 1] = next++;
                }
            }
        }
        for (unsigned i = 0; i < CELLS; i++)
            empty += b->c[i] == '.';
        if (empty >= 2)
            return 1;
    }
    return 0;
}

/* The distance of a board from the table, PTB_UNSOLVABLE, or FAILED on an
 * error. */
#define FAILED (PTB_UNSOLVABLE + 1)
static unsigned table_distance(const ptb_space *s, const ptb_table *t,
                               ptb_reader *r, const board *b,
                               ptb_solution *sol)
{
    ptb_position pos[2];
    unsigned np;
    if (ptb_parse(s, b->c, NULL, pos, &np, NULL, 0) != PTB_OK)
        return FAILED;
    int rc = ptb_solve(t, r, pos, np, sol);
    return rc == PTB_OK ? sol->distance
         : rc == PTB_NOTFOUND ? PTB_UNSOLVABLE : FAILED;
}

typedef struct pair_tally {
    unsigned layouts, col[3], symmetric, unequal, bellman, replay;
} pair_tally;

/* Checks one layout: its mirror is as far; its distance is one more than
 * its nearest successor's by the model's moves (0 at a goal, none
 * reachable when unsolvable); both answers replay on the user's board. */
static void check_pair(const ptb_space *s, const ptb_table *t, ptb_reader *r,
                       unsigned metric, const board *b, ptb_solution *sol,
                       pair_tally *pt)
{
    static board next[256];
    board m;
    mirror(b, &m);
    unsigned d = table_distance(s, t, r, b, sol);
    pt->replay += d < PTB_UNSOLVABLE && !replay(s, metric, b, sol);
    unsigned dm = table_distance(s, t, r, &m, sol);
    pt->replay += dm < PTB_UNSOLVABLE && !replay(s, metric, &m, sol);
    pt->layouts++;
    pt->col[block_col(b) < 3 ? block_col(b) : 0]++;
    pt->symmetric += encode(b) == encode(&m);
    if (d != dm || d == FAILED)
        printf("# %s %u %s %u\n", b->c, d, m.c, dm);
    pt->unequal += d != dm || d == FAILED;
    unsigned n = model_succ(b, metric, next), best = PTB_UNSOLVABLE;
    for (unsigned i = 0; i < n; i++) {
        unsigned e = table_distance(s, t, r, &next[i], sol);
        best = e < best ? e : best;
    }
    if (is_goal_board(b))
        pt->bellman += d != 0;
    else if (d == PTB_UNSOLVABLE)
        pt->bellman += best != PTB_UNSOLVABLE;
    else
        pt->bellman += best + 1 != d;
}

static void mirror_images_are_equally_far(void)
{
    static const char *const metric[] = { "step", "line", "move" };
    ptb_solution *sol = malloc(sizeof *sol);
    for (unsigned m = 0; m < 3; m++) {
        tables tb;
        pair_tally pt = { 0 };
        if (!tables_open("klotski", metric[m], &tb)) {
            tables_close(&tb);
            continue;
        }
        srand(2000 + m);
        for (unsigned k = 0; k < 300; k++) {
            board b;
            unsigned nh = (unsigned)rand() % 4, nv = (unsigned)rand() % 4;
            unsigned n1 = (unsigned)rand() % (15 - 2 * (nh + nv));
            if (k % 5 == 4 ? !random_symmetric(&b)
                           : !random_layout(nh, nv, n1, &b))
                continue;
            check_pair(tb.s, tb.t, tb.r, m, &b, sol, &pt);
        }
        check(pt.unequal == 0 && pt.symmetric > 0 && pt.col[0] > 0 &&
              pt.col[1] > 0 && pt.col[2] > 0, "%s: %u layouts (block in "
              "columns 1-2, 2-3, 3-4: %u, %u, %u; %u their own mirror): "
              "each as far as its mirror (%u differ)", metric[m],
              pt.layouts, pt.col[0], pt.col[1], pt.col[2], pt.symmetric,
              pt.unequal);
        check(pt.bellman == 0, "%s: ... each one more than its nearest "
              "successor by the model's moves, 0 at goals (%u wrong)",
              metric[m], pt.bellman);
        check(pt.replay == 0, "%s: ... and the answers for both replay on "
              "the user's own board, letters kept (%u bad)", metric[m],
              pt.replay);
        tables_close(&tb);
    }
    free(sol);
}

/* ==== the model's own BFS ============================================= */

#define SEEN_BITS 21
#define SEEN_MAX (1u << (SEEN_BITS - 1))

/* A set of CommonCodes (open addressing; 0 is never a layout's code). */
typedef struct seen_set {
    uint64_t *slot;
    unsigned n;
} seen_set;

static int seen_add(seen_set *h, uint64_t code)
{
    uint64_t k = code * 0x9E3779B97F4A7C15ull >> (64 - SEEN_BITS);
    while (h->slot[k] && h->slot[k] != code)
        k = (k + 1) & ((1u << SEEN_BITS) - 1);
    if (h->slot[k])
        return 0;
    h->slot[k] = code;
    h->n++;
    return 1;
}

/* The distance from b to the nearest goal by a forward BFS of the model
 * (layouts up to interchangeable pieces), or PTB_UNSOLVABLE; FAILED when
 * it gives up past SEEN_MAX layouts. */
static unsigned model_distance(const board *start, unsigned metric,
                               seen_set *h, board *layer, board *next_layer)
{
    static board succ[256];
    unsigned n = 1, d = 0;
    memset(h->slot, 0, sizeof *h->slot << SEEN_BITS);
    h->n = 0;
    layer[0] = *start;
    seen_add(h, encode(start));
    while (n) {
        unsigned nn = 0;
        for (unsigned i = 0; i < n; i++)
            if (is_goal_board(&layer[i]))
                return d;
        for (unsigned i = 0; i < n; i++) {
            unsigned k = model_succ(&layer[i], metric, succ);
            for (unsigned j = 0; j < k; j++) {
                if (!seen_add(h, encode(&succ[j])))
                    continue;
                if (h->n >= SEEN_MAX)
                    return FAILED;
                next_layer[nn++] = succ[j];
            }
        }
        board *t = layer;
        layer = next_layer;
        next_layer = t;
        n = nn;
        d++;
    }
    return PTB_UNSOLVABLE;
}

/* A random layout with two empty cells (the model's BFS stays small) or,
 * one time in four, one a few random moves from a random goal. */
static void bfs_start(unsigned metric, unsigned k, board *b)
{
    static board succ[256];
    if (k % 4) {
        unsigned nh, nv;
        do {
            nh = (unsigned)rand() % 5;
            nv = (unsigned)rand() % 5;
        } while (nh + nv > 7 ||
                 !random_layout(nh, nv, 14 - 2 * (nh + nv), b));
        return;
    }
    do
        random_layout((unsigned)rand() % 3, (unsigned)rand() % 3,
                      (unsigned)rand() % 5, b);
    while (!is_goal_board(b));
    for (unsigned i = 0, steps = 5 + (unsigned)rand() % 20; i < steps; i++) {
        unsigned n = model_succ(b, metric, succ);
        if (n)
            *b = succ[(unsigned)rand() % n];
    }
}

static void the_models_bfs_agrees(void)
{
    static const char *const metric[] = { "step", "line", "move" };
    ptb_solution *sol = malloc(sizeof *sol);
    seen_set h = { calloc((size_t)1 << SEEN_BITS, sizeof *h.slot), 0 };
    board *layer = malloc(SEEN_MAX * sizeof *layer);
    board *next = malloc(SEEN_MAX * sizeof *next);
    for (unsigned m = 0; m < 3 && h.slot && layer && next; m++) {
        tables tb;
        unsigned tried = 0, compared = 0, wrong = 0, far = 0, cols = 0;
        unsigned unsolvable = 0;
        if (!tables_open("klotski", metric[m], &tb)) {
            tables_close(&tb);
            continue;
        }
        srand(3000 + m);
        for (unsigned k = 0; k < 24; k++) {
            board b, mb;
            bfs_start(m, k, &b);
            mirror(&b, &mb);
            tried++;
            unsigned want = model_distance(&b, m, &h, layer, next);
            if (want == 1000)
                continue;
            compared++;
            unsolvable += want == PTB_UNSOLVABLE;
            far = want > far && want != PTB_UNSOLVABLE ? want : far;
            cols |= 1u << block_col(&b);
            wrong += table_distance(tb.s, tb.t, tb.r, &b, sol) != want;
            wrong += table_distance(tb.s, tb.t, tb.r, &mb, sol) != want;
        }
        check(wrong == 0 && compared >= tried / 2 && cols == 7, "%s: the "
              "model's own BFS gives the tables' distance for %u of %u "
              "layouts and their mirrors (the block in every column; up "
              "to %u moves; %u unsolvable; %u wrong)", metric[m], compared,
              tried, far, unsolvable, wrong);
        tables_close(&tb);
    }
    free(layer);
    free(next);
    free(h.slot);
    free(sol);
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
        "1A9B0", "ZZZZZ", "1A9BF0C00X", "BAAC\nBA#C\nDEEF\nDGHF\n.KKJ",
        "1A9B", "short:1A9BF0", "common:", "B A A C\nBAAC\nDEEF\nDGHF\nIKKJ",
        "BA\xe2\x82\xac\x43 BAAC DEEF DGHF IKKJ"
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
        if (kp->open(kp, m, &ctx[m]) != PTB_OK) {
            check(0, "open metric %u", m);
            return check_done();
        }
    srand(86);
    the_classic_start_has_known_codes();
    random_indices_round_trip();
    bad_queries_get_one_line_messages();
    goals_are_the_block_at_cell_13(enumeration_gives_the_states());
    for (unsigned m = 0; m < 3; m++)
        moves_match_the_model(m);
    the_notation_has_one_rule();
    answers_of_every_piece_mix(tables_dir());
    mirror_images_are_equally_far();
    the_models_bfs_agrees();
    for (unsigned m = 0; m < 3; m++)
        kp->close(ctx[m]);
    return check_done();
}
