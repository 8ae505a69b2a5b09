/* tests/t_four.c: four-in-a-row (codevs 1004) against a model of the rules
 * written here from the statement: a char board, its own move generator and
 * a plain forward BFS per query.
 *
 * Covers: the table keeps the positions with black to move, a position
 * with white to move being the same board with the colours swapped; the
 * ranking is a bijection; moves(), unmoves(), is_goal() and
 * goals() agree with the model on every state; the table (tables/four.mdb)
 * and ptb_search() agree with the model's BFS on a sample of states; the
 * optimal lines replay legally on the user's board (either side to move),
 * alternate colours and end on a goal; boards
 * where the side to move is stuck are unsolvable; bad input is refused.
 * The table part reports one skip when the table is missing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzles/puzzles.h"
#include "check.h"
#include "tables.h"

static const ptb_puzzle *const P = &ptb_puzzle_four;

#define STATES 411840u     /* 16!/(7!7!2!) boards, black to move */
#define SAMPLE 400

/* ---- the model: a board is 16 chars B/W/O, row by row ------------------ */

typedef struct board {
    char c[16];
} board;

static int model_goal(const board *b)
{
    static const int line[10][4] = {
        { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 }, { 12, 13, 14, 15 },
        { 0, 4, 8, 12 }, { 1, 5, 9, 13 }, { 2, 6, 10, 14 }, { 3, 7, 11, 15 },
        { 0, 5, 10, 15 }, { 3, 6, 9, 12 }
    };
    for (int i = 0; i < 10; i++) {
        char ch = b->c[line[i][0]];
        if (ch != 'O' && ch == b->c[line[i][1]] && ch == b->c[line[i][2]] &&
            ch == b->c[line[i][3]])
            return 1;
    }
    return 0;
}

static int adjacent(int a, int b)
{
    int dr = a / 4 - b / 4, dc = a % 4 - b % 4;
    return dr * dr + dc * dc == 1;
}

/* Boards after each move of colour 'who'; none from a goal. */
static int model_moves(const board *b, char who, board out[8])
{
    int n = 0;
    if (model_goal(b))
        return 0;
    for (int from = 0; from < 16; from++)
        for (int to = 0; to < 16; to++)
            if (b->c[from] == who && b->c[to] == 'O' && adjacent(from, to)) {
                out[n] = *b;
                out[n].c[to] = who;
                out[n].c[from] = 'O';
                n++;
            }
    return n;
}

static uint32_t model_key(const board *b, char who)
{
    uint32_t k = 0;
    for (int i = 0; i < 16; i++)
        k = k * 3 + (b->c[i] == 'B' ? 1u : b->c[i] == 'W' ? 2u : 0u);
    return k * 2 + (who == 'W');
}

static board model_unkey(uint32_t k, char *who)
{
    board b;
    *who = k & 1 ? 'W' : 'B';
    k /= 2;
    for (int i = 15; i >= 0; i--, k /= 3)
        b.c[i] = "OBW"[k % 3];
    return b;
}

/* A set of keys, open addressing; key 0 is never a legal state. */
typedef struct keyset {
    uint32_t *slot;
    uint32_t mask;
} keyset;

static int keyset_add(keyset *s, uint32_t k)
{
    uint32_t h = (k * 2654435761u) & s->mask;
    while (s->slot[h]) {
        if (s->slot[h] == k)
            return 0;
        h = (h + 1) & s->mask;
    }
    s->slot[h] = k;
    return 1;
}

/* Plain forward BFS: least moves to a goal, or -1. */
static int model_bfs(const board *start, char who)
{
    static uint32_t queue[STATES];
    static keyset seen;
    if (!seen.slot) {
        seen.mask = (1u << 21) - 1;
        seen.slot = malloc((seen.mask + 1) * sizeof *seen.slot);
    }
    memset(seen.slot, 0, (seen.mask + 1) * sizeof *seen.slot);
    uint32_t head = 0, tail = 0, layer_end;
    queue[tail++] = model_key(start, who);
    keyset_add(&seen, queue[0]);
    for (int d = 0; head < tail; d++) {
        for (layer_end = tail; head < layer_end; head++) {
            char w;
            board b = model_unkey(queue[head], &w), next[8];
            if (model_goal(&b))
                return d;
            int n = model_moves(&b, w, next);
            for (int i = 0; i < n; i++) {
                uint32_t k = model_key(&next[i], w == 'B' ? 'W' : 'B');
                if (keyset_add(&seen, k))
                    queue[tail++] = k;
            }
        }
    }
    return -1;
}

/* ---- bridges between the model and the puzzle's ops -------------------- */

static void *ctx;

static board board_of(uint64_t idx)
{
    ptb_position p = { .sub = 0, .idx = idx };
    char text[32];
    board b;
    P->format_board(ctx, &p, text, sizeof text);
    for (int i = 0; i < 16; i++)
        b.c[i] = text[i / 4 * 5 + i % 4];
    return b;
}

/* The index of (board, side) through parse(); UINT64_MAX on error. */
static uint64_t index_of(const board *b, char who)
{
    char text[32], err[128];
    char first[8] = "";
    const char *opt[2] = { who ? first : NULL, NULL };
    snprintf(first, sizeof first, "%c", who);
    ptb_position out[2];
    unsigned n = 0;
    for (int i = 0; i < 16; i++) {
        text[i / 4 * 5 + i % 4] = b->c[i];
        if (i % 4 == 3)
            text[i / 4 * 5 + 4] = '\n';
    }
    text[20] = 0;
    if (P->parse(ctx, text, opt, out, &n, err, sizeof err) != PTB_OK || n != 1)
        return UINT64_MAX;
    return out[0].idx;
}

/* The board as the user sees it in a position (either side to move). */
static board board_at(const ptb_position *p)
{
    char text[32];
    board b;
    P->format_board(ctx, p, text, sizeof text);
    for (int i = 0; i < 16; i++)
        b.c[i] = text[i / 4 * 5 + i % 4];
    return b;
}

/* The position of (board, side to move) through parse(). */
static ptb_position position_of(const board *b, char who)
{
    char text[32], err[128], first[8];
    const char *opt[2] = { first, NULL };
    ptb_position out[2] = { { .sub = UINT32_MAX, .idx = UINT64_MAX } };
    unsigned n = 0;
    snprintf(first, sizeof first, "%c", who);
    for (int i = 0; i < 16; i++) {
        text[i / 4 * 5 + i % 4] = b->c[i];
        if (i % 4 == 3)
            text[i / 4 * 5 + 4] = '\n';
    }
    text[20] = 0;
    P->parse(ctx, text, opt, out, &n, err, sizeof err);
    return out[0];
}

static board colours_swapped(const board *b)
{
    board s = *b;
    for (int i = 0; i < 16; i++)
        s.c[i] = b->c[i] == 'B' ? 'W' : b->c[i] == 'W' ? 'B' : 'O';
    return s;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* ---- the state space --------------------------------------------------- */

static void ranking_is_a_bijection(void)
{
    uint64_t bad = 0, swapped = 0;
    for (uint64_t idx = 0; idx < STATES; idx++) {
        board b = board_of(idx), w = colours_swapped(&b);
        if (index_of(&b, 'B') != idx)
            bad++;
        if (index_of(&w, 'W') != idx)
            swapped++;
    }
    check(P->subtables(ctx) == 1 && P->size(ctx, 0) == STATES,
          "one subtable of 16!/(7!7!2!) = 411840 states, black to move");
    check(bad == 0, "every index survives format_board and parse "
          "(%llu do not)", (unsigned long long)bad);
    check(swapped == 0, "a board with white to move is stored as the same "
          "board with the colours swapped and black to move (%llu not)",
          (unsigned long long)swapped);
}

static void moves_agree_with_the_model(void)
{
    uint64_t bad = 0, edges = 0;
    ptb_move m[PTB_MAX_MOVES];
    for (uint64_t idx = 0; idx < STATES; idx++) {
        board b = board_of(idx), next[8];
        char who = 'B';
        int n = model_moves(&b, who, next);
        unsigned k = P->moves(ctx, 0, idx, m);
        uint64_t want[8], got[8];
        edges += k;
        if ((int)k != n) {
            bad++;
            continue;
        }
        for (int i = 0; i < n; i++) {
            want[i] = index_of(&next[i], who == 'B' ? 'W' : 'B');
            got[i] = m[i].to;
        }
        qsort(want, (size_t)n, sizeof want[0], cmp_u64);
        qsort(got, (size_t)n, sizeof got[0], cmp_u64);
        bad += memcmp(want, got, (size_t)n * sizeof want[0]) != 0;
    }
    check(bad == 0, "moves() of every state are the model's moves "
          "(%llu differ, %llu moves in all)", (unsigned long long)bad,
          (unsigned long long)edges);
}

static int has_move_to(uint64_t from, uint64_t to)
{
    ptb_move m[PTB_MAX_MOVES];
    unsigned n = P->moves(ctx, 0, from, m);
    for (unsigned i = 0; i < n; i++)
        if (m[i].to == to)
            return 1;
    return 0;
}

static void unmoves_invert_moves(void)
{
    uint64_t bad = 0, goal_preds = 0, edges = 0, moves_total = 0;
    ptb_move m[PTB_MAX_MOVES];
    uint64_t pred[PTB_MAX_MOVES];
    for (uint64_t idx = 0; idx < STATES; idx++) {
        unsigned n = P->unmoves(ctx, 0, idx, pred);
        moves_total += P->moves(ctx, 0, idx, m);
        edges += n;
        qsort(pred, n, sizeof pred[0], cmp_u64);
        for (unsigned i = 0; i < n; i++) {
            if (i > 0 && pred[i] == pred[i - 1])
                bad++;
            if (P->is_goal(ctx, 0, pred[i]))
                goal_preds++;
            if (!has_move_to(pred[i], idx))
                bad++;
        }
    }
    check(goal_preds == 0, "unmoves() never returns a goal state");
    check(bad == 0 && edges == moves_total,
          "unmoves() lists exactly the states with a move to each state "
          "(%llu edges)", (unsigned long long)edges);
}

static void goal_states_end_the_game(void)
{
    uint64_t bad = 0, goals = 0;
    ptb_move m[PTB_MAX_MOVES];
    for (uint64_t idx = 0; idx < STATES; idx++) {
        board b = board_of(idx);
        int g = model_goal(&b);
        goals += g;
        bad += P->is_goal(ctx, 0, idx) != g;
        bad += g && P->moves(ctx, 0, idx, m) != 0;
    }
    check(bad == 0, "is_goal() matches the model, and goals have no moves "
          "(%llu goal states)", (unsigned long long)goals);
}

static void count_goal(void *arg, uint64_t idx)
{
    uint64_t *c = arg;
    c[0]++;
    c[1] += P->is_goal(ctx, 0, idx) != 0;
}

static void goals_lists_every_goal(void)
{
    uint64_t c[2] = { 0, 0 }, want = 0;
    P->goals(ctx, 0, count_goal, c);
    for (uint64_t idx = 0; idx < STATES; idx++)
        want += P->is_goal(ctx, 0, idx) != 0;
    check(c[0] == want && c[1] == want, "goals() emits the %llu goal states",
          (unsigned long long)want);
}

/* ---- queries ----------------------------------------------------------- */

static int parse_text(const char *text, int first, ptb_position out[2],
                      unsigned *n, char *err, size_t cap)
{
    char value[8];
    const char *opt[2] = { first ? value : NULL, NULL };
    snprintf(value, sizeof value, "%c", first);
    *n = 0;
    err[0] = 0;
    return P->parse(ctx, text, opt, out, n, err, cap);
}

static void parse_offers_both_first_movers(void)
{
    ptb_position out[2];
    unsigned n;
    char err[128];
    const char *sample = "BWBO\nWBWB\nBWBW\nWBWO\n";
    int rc = parse_text(sample, 0, out, &n, err, sizeof err);
    board b = { "BWBOWBWBBWBWWBWO" }, w = colours_swapped(&b);
    ptb_position ps[2] = { position_of(&b, 'B'), position_of(&w, 'B') };
    board shown[2] = { board_at(&out[0]), board_at(&out[1]) };
    check(rc == PTB_OK && n == 2 && out[0].idx == ps[0].idx &&
          out[1].idx == ps[1].idx &&
          memcmp(&shown[0], &b, sizeof b) == 0 &&
          memcmp(&shown[1], &b, sizeof b) == 0,
          "the sample gives two candidates, black first then white (the "
          "board with the colours swapped), both shown as given");
    rc = parse_text(sample, 'W', out, &n, err, sizeof err);
    check(rc == PTB_OK && n == 1 && out[0].idx == ps[1].idx,
          "--first W keeps only the white candidate");
    rc = parse_text("BWBO\r\nWBWB\r\nBWBW\r\nWBWO", 'B', out, &n, err,
                    sizeof err);
    check(rc == PTB_OK && n == 1 && out[0].idx == ps[0].idx,
          "CRLF lines and a missing final newline are accepted");
}

static void bad_input_is_refused(void)
{
    static const struct {
        const char *text;
        int first;
        const char *message;
    } cases[] = {
        { "", 0, "empty input" },
        { "BWBO\nWBWB\nBWBW\n", 0, "line 3: expected 4 rows, got 3" },
        { "BWBO\nWBWB\nBWBW\nWBWO\nBBBB\n", 0, "line 5, column 1: one "
          "row too many" },
        { "BWBO\nWBWBB\nBWBW\nWBWO\n", 0, "line 2, column 1: expected 4 "
          "characters, got 5" },
        { "BWBO\nWBW\nBWBW\nWBWO\n", 0, "line 2, column 1: expected 4 "
          "characters, got 3" },
        { "BWBO\nWBWB\nBWxW\nWBWO\n", 0, "line 3, column 3: unexpected "
          "'x'" },
        { "BWBO\nWBWB\nBWBW\nWBWW\n", 0, "board has 7 B, 8 W and 1 O" },
        { "OOOO\nBBBB\nWWWW\nBWBW\n", 0, "board has 6 B, 6 W and 4 O" },
        { "BWBO\nWBWB\nBWBW\nWBWO\n", 'X', "first: expected B or W, got 'X'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptb_position out[2];
        unsigned n;
        char err[256];
        int rc = parse_text(cases[i].text, cases[i].first, out, &n, err,
                            sizeof err);
        check(rc == PTB_EPARSE && strstr(err, cases[i].message) &&
              !strchr(err, '\n'), "bad input %zu: \"%s\" (got \"%s\")",
              i + 1, cases[i].message, err);
    }
}

static void formatters_follow_the_codevs_notation(void)
{
    ptb_position out[2];
    unsigned n;
    char err[128], text[64];
    ptb_move m[PTB_MAX_MOVES];
    parse_text("BWBO\nWBWB\nBWBW\nWBWO\n", 'B', out, &n, err, sizeof err);
    P->format_board(ctx, &out[0], text, sizeof text);
    check(strcmp(text, "BWBO\nWBWB\nBWBW\nWBWO") == 0,
          "format_board prints the 4 rows without a final newline");
    unsigned k = P->moves(ctx, 0, out[0].idx, m);
    int found = 0;
    for (unsigned i = 0; i < k; i++) {
        P->format_move(ctx, &out[0], &m[i], text, sizeof text);
        found |= strcmp(text, "B 24-14") == 0;
    }
    check(found, "the black piece at row 2, column 4 moving up prints "
          "as B 24-14");
    P->format_code(ctx, 0, out[0].idx, text, sizeof text);
    check(strcmp(text, "BWBO/WBWB/BWBW/WBWO B") == 0,
          "format_code prints the rows and the side to move (%s)", text);
}

/* ---- the table --------------------------------------------------------- */

static ptb_solution sol;

/* The table's distance from one position, or -1 when unsolvable. */
static int position_distance(const tables *tb, const ptb_position *p)
{
    int rc = ptb_solve(tb->t, tb->r, p, 1, &sol);
    return rc == PTB_OK ? (int)sol.distance : rc == PTB_NOTFOUND ? -1 : -2;
}

/* The same from a table state (black to move). */
static int table_distance(const tables *tb, uint64_t idx)
{
    ptb_position p = { .sub = 0, .idx = idx };
    return position_distance(tb, &p);
}

static void sample_takes_five_moves(const tables *tb)
{
    ptb_position start[2];
    unsigned n;
    char err[128], text[64];
    int rc = ptb_parse(tb->s, "BWBO\nWBWB\nBWBW\nWBWO\n", NULL, start, &n, err,
                       sizeof err);
    check(rc == PTB_OK && n == 2, "the codevs sample parses");
    rc = ptb_solve(tb->t, tb->r, start, n, &sol);
    ptb_format_native(tb->s, &sol, text, sizeof text);
    check(rc == PTB_OK && sol.distance == 5 && strcmp(text, "5\n") == 0,
          "the codevs sample takes 5 moves through the table");
    rc = ptb_search(tb->s, start, n, &sol);
    check(rc == PTB_OK && sol.distance == 5,
          "the codevs sample takes 5 moves by ptb_search");
    for (int side = 0; side < 2; side++)
        check(position_distance(tb, &start[side]) == 5 &&
              model_bfs(&(board){ "BWBOWBWBBWBWWBWO" }, "BW"[side]) == 5,
              "the sample takes 5 moves with %s first", side ? "white"
                                                              : "black");
}

/* Replays a solution on the model board, as the user gave it with 'who' to
 * move; 1 when it is a legal line of alternating moves, each board as
 * shown, that ends on its first goal. */
static int line_is_legal(const ptb_solution *s, char who)
{
    board b = board_at(&s->start);
    char text[32];
    for (unsigned i = 0; i < s->distance; i++) {
        const ptb_position *before = i ? &s->after[i - 1] : &s->start;
        unsigned r1, c1, r2, c2;
        char colour;
        if (model_goal(&b))
            return 0;
        P->format_move(ctx, before, &s->move[i], text, sizeof text);
        if (sscanf(text, "%c %1u%1u-%1u%1u", &colour, &r1, &c1, &r2, &c2) != 5
            || colour != who || r1 < 1 || r1 > 4 || c1 < 1 || c1 > 4 ||
            r2 < 1 || r2 > 4 || c2 < 1 || c2 > 4)
            return 0;
        int from = (int)((r1 - 1) * 4 + c1 - 1), to = (int)((r2 - 1) * 4 + c2
                                                             - 1);
        if (b.c[from] != who || b.c[to] != 'O' || !adjacent(from, to))
            return 0;
        b.c[to] = who;
        b.c[from] = 'O';
        who = who == 'B' ? 'W' : 'B';
        board a = board_at(&s->after[i]);
        if (memcmp(&a, &b, sizeof b) != 0)
            return 0;
    }
    return model_goal(&b);
}

static void sample_agrees_with_the_model(const tables *tb)
{
    uint64_t x = 12345;
    int bad_table = 0, bad_search = 0, bad_line = 0, solvable = 0;
    for (int i = 0; i < SAMPLE; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t idx = (x >> 20) % STATES;
        board b = board_of(idx);
        char who = x >> 63 ? 'W' : 'B';   /* either side to move */
        int want = model_bfs(&b, who);
        ptb_position p = position_of(&b, who);
        int rc = ptb_solve(tb->t, tb->r, &p, 1, &sol);
        bad_table += position_distance(tb, &p) != want;
        if (want >= 0) {
            solvable++;
            bad_line += rc != PTB_OK || (int)sol.distance != want ||
                        !line_is_legal(&sol, who);
        }
        rc = ptb_search(tb->s, &p, 1, &sol);
        bad_search += want >= 0 ? rc != PTB_OK || (int)sol.distance != want ||
                                  !line_is_legal(&sol, who)
                                : rc != PTB_NOTFOUND;
    }
    check(bad_table == 0, "the table agrees with the model's BFS on %d "
          "random boards, either side to move (%d solvable, %d differ)",
          SAMPLE, solvable,
          bad_table);
    check(bad_search == 0, "ptb_search agrees with the model's BFS on the "
          "same states (%d differ)", bad_search);
    check(bad_line == 0, "every optimal line from the table replays: legal, "
          "alternating, as long as stated, ending on a goal");
}

static void both_candidates_take_the_nearer(const tables *tb)
{
    uint64_t x = 777;
    int bad = 0;
    for (int i = 0; i < SAMPLE / 4; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        board b = board_of((x >> 20) % STATES);
        ptb_position p[2] = { position_of(&b, 'B'), position_of(&b, 'W') };
        int d0 = model_bfs(&b, 'B'), d1 = model_bfs(&b, 'W');
        int want = d0 < 0 ? d1 : d1 < 0 ? d0 : d0 < d1 ? d0 : d1;
        int rc = ptb_solve(tb->t, tb->r, p, 2, &sol);
        char who = memcmp(&sol.start, &p[1], sizeof p[1]) == 0 ? 'W' : 'B';
        if (want < 0)
            bad += rc != PTB_NOTFOUND;
        else
            bad += rc != PTB_OK || (int)sol.distance != want ||
                   !line_is_legal(&sol, who);
    }
    check(bad == 0, "with either side first, the answer is the nearer "
          "candidate by the model's BFS and its line replays");
}

/* Values are 0 at a goal, else one more than the best successor's (Bellman),
 * and unsolvable when no successor is solvable.  On a sample: the reader
 * caches few blocks, and every value costs a walk. */
static void values_are_consistent(const tables *tb)
{
    uint64_t x = 4242, bad = 0;
    int max = 0;
    ptb_move m[PTB_MAX_MOVES];
    for (int i = 0; i < 50 * SAMPLE; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t idx = (x >> 20) % STATES;
        unsigned n = P->moves(ctx, 0, idx, m);
        int best = -1, d = table_distance(tb, idx);
        for (unsigned k = 0; k < n; k++) {
            int dk = table_distance(tb, m[k].to);
            if (dk >= 0 && (best < 0 || dk < best))
                best = dk;
        }
        int want = P->is_goal(ctx, 0, idx) ? 0 : best < 0 ? -1 : best + 1;
        bad += d != want;
        max = d > max ? d : max;
    }
    check(bad == 0, "on %d random states, the value is 0 at a goal, else one "
          "more than the best successor's (the farthest %d)", 50 * SAMPLE,
          max);
}

static void stuck_sides_cannot_win(const tables *tb)
{
    uint64_t stuck = 0, bad = 0;
    ptb_move m[PTB_MAX_MOVES];
    board next[8];
    char text[64];
    for (uint64_t idx = 0; idx < STATES; idx++) {
        board b = board_of(idx);
        if (model_goal(&b) || model_moves(&b, 'B', next) > 0)
            continue;
        stuck++;
        bad += P->moves(ctx, 0, idx, m) != 0 || table_distance(tb, idx) != -1;
    }
    check(stuck > 0 && bad == 0, "the %llu states whose side to move has no "
          "move and no line are unsolvable", (unsigned long long)stuck);
    const char *black[] = { "first=B", NULL };
    ptb_position p[2];
    unsigned n;
    /* Black to move: both empty cells are boxed in by white. */
    int rc = ptb_parse(tb->s, "WOOW\nBWWB\nWBWB\nBBWB", black, p, &n, text,
                       sizeof text);
    check(rc == PTB_OK && ptb_solve(tb->t, tb->r, p, n, &sol) == PTB_NOTFOUND
          && ptb_search(tb->s, p, n, &sol) == PTB_NOTFOUND,
          "WOOW/BWWB/WBWB/BBWB with black first is unsolvable");
    rc = ptb_parse(tb->s, "WOOW\nBWWB\nWBWB\nBBWB", NULL, p, &n, text,
                   sizeof text);
    rc = rc == PTB_OK ? ptb_solve(tb->t, tb->r, p, n, &sol) : rc;
    check(rc == PTB_OK && sol.start.idx == p[1].idx &&
          line_is_legal(&sol, 'W'),
          "with either side first, white starts and wins in %u",
          sol.distance);
}

static void goal_boards_take_no_move(const tables *tb)
{
    ptb_position p[2];
    unsigned n;
    char text[64];
    int rc = ptb_parse(tb->s, "BBBB\nWWWW\nBWBW\nWBOO\n", NULL, p, &n, text,
                       sizeof text);
    rc = rc == PTB_OK ? ptb_solve(tb->t, tb->r, p, n, &sol) : rc;
    ptb_format_native(tb->s, &sol, text, sizeof text);
    check(rc == PTB_OK && sol.distance == 0 && strcmp(text, "0\n") == 0 &&
          position_distance(tb, &p[0]) == 0 &&
          position_distance(tb, &p[1]) == 0,
          "a goal board takes 0 moves whoever is to move, and prints 0");
}

static void table_part(void)
{
    tables tb;
    if (tables_open("four", NULL, &tb)) {
        sample_takes_five_moves(&tb);
        sample_agrees_with_the_model(&tb);
        both_candidates_take_the_nearer(&tb);
        values_are_consistent(&tb);
        stuck_sides_cannot_win(&tb);
        goal_boards_take_no_move(&tb);
    }
    tables_close(&tb);
}

int main(void)
{
    if (!check(P->open(P, 0, &ctx) == PTB_OK, "the four puzzle opens"))
        return check_done();
    ranking_is_a_bijection();
    moves_agree_with_the_model();
    unmoves_invert_moves();
    goal_states_end_the_game();
    goals_lists_every_goal();
    parse_offers_both_first_movers();
    bad_input_is_refused();
    formatters_follow_the_codevs_notation();
    table_part();
    P->close(ctx);
    return check_done();
}
