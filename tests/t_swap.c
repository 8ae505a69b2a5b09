/* tests/t_swap.c: the swap puzzle's table against computations of the test's
 * own: a BFS over 16-bit boards written here from the rules, the count of
 * canonical targets by brute force over the 16 relabelings, and the index
 * definition (rank among boards with as many black cells, ascending).
 *
 * Needs tables/swap.mdb (make tables); PUZZLETB_TABLES overrides the folder.
 * Checks, through the public API only:
 *   - 887 canonical targets for k = 8, 39,572,683 values in all;
 *   - every stored value of every k = 8 subtable is its BFS distance mod 3;
 *   - for random targets and starts of every k, including relabeled ones,
 *     the walk's distance equals the test's BFS and ptb_search, and the
 *     printed moves, replayed, are legal swaps ending on the target;
 *   - a query under each of the 16 relabelings (8 symmetries, with and
 *     without swapping colours) has the same distance and its own legal line;
 *   - ptb_successors gives every legal swap with its BFS distance. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "puzzletb.h"
#include "tables.h"

static unsigned popcount(unsigned x)
{
    unsigned n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* Cell (r, c) of the board under symmetry g of the square. */
static unsigned sym(unsigned g, unsigned cell)
{
    unsigned r = cell / 4, c = cell % 4;
    unsigned map[8][2] = { { r, c }, { c, 3 - r }, { 3 - r, 3 - c },
                           { 3 - c, r }, { r, 3 - c }, { 3 - r, c },
                           { c, r }, { 3 - c, 3 - r } };
    return 4 * map[g][0] + map[g][1];
}

static unsigned relabel(unsigned g, int comp, unsigned b)
{
    unsigned out = 0;
    for (unsigned i = 0; i < 16; i++)
        if (b >> i & 1)
            out |= 1u << sym(g, i);
    return comp ? out ^ 0xFFFF : out;
}

static int is_canonical(unsigned b)
{
    unsigned k = popcount(b);
    for (int comp = 0; comp < 2; comp++)
        for (unsigned g = 0; g < 8; g++)
            if ((comp ? 16 - k : k) <= 8 && relabel(g, comp, b) < b)
                return 0;
    return k <= 8;
}

/* BFS from target over all boards with its number of black cells. */
static void bfs(unsigned target, int8_t dist[65536])
{
    static uint16_t queue[65536];
    unsigned head = 0, tail = 0;
    memset(dist, -1, 65536);
    dist[target] = 0;
    queue[tail++] = (uint16_t)target;
    while (head < tail) {
        unsigned b = queue[head++];
        for (unsigned i = 0; i < 16; i++) {
            unsigned nb[2] = { i % 4 < 3 ? i + 1 : 99, i < 12 ? i + 4 : 99 };
            for (int j = 0; j < 2; j++) {
                if (nb[j] == 99 || ((b >> i) & 1) == ((b >> nb[j]) & 1))
                    continue;
                unsigned n = b ^ (1u << i) ^ (1u << nb[j]);
                if (dist[n] < 0) {
                    dist[n] = (int8_t)(dist[b] + 1);
                    queue[tail++] = (uint16_t)n;
                }
            }
        }
    }
}

/* Rank of b among boards with popcount(b) black cells, ascending. */
static unsigned rank_of(unsigned b)
{
    unsigned r = 0, k = popcount(b);
    for (unsigned m = 0; m < b; m++)
        r += popcount(m) == k;
    return r;
}

static void board_text(unsigned start, unsigned target, char *out)
{
    unsigned b[2] = { start, target };
    for (unsigned i = 0; i < 32; i++) {
        *out++ = (char)('0' + (b[i / 16] >> (i % 16) & 1));
        if (i % 4 == 3)
            *out++ = '\n';
    }
    *out = '\0';
}

static ptb_space *space;
static ptb_table *table;
static ptb_reader *reader;

static void canonical_targets_and_value_count(void)
{
    unsigned per_k[9] = { 0 };
    uint64_t values = 0, binom[17] = { 1 };
    for (unsigned k = 1; k <= 16; k++)
        binom[k] = binom[k - 1] * (17 - k) / k;
    for (unsigned b = 0; b < 65536; b++)
        if (is_canonical(b))
            per_k[popcount(b)]++;
    for (unsigned k = 0; k <= 8; k++)
        values += per_k[k] * binom[k];
    ptb_table_info in;
    ptb_table_get_info(table, &in);
    check(per_k[8] == 887, "887 canonical targets for k = 8 (brute force: %u)",
          per_k[8]);
    check(values == 39572683 && in.states == values,
          "39,572,683 values over k = 0..8 (brute force %llu, table %llu)",
          (unsigned long long)values, (unsigned long long)in.states);
}

/* Every value of every k = 8 subtable against a BFS from its target. */
static void every_k8_value_is_bfs_distance_mod_3(void)
{
    static int8_t dist[65536];
    static uint16_t by_rank[12870];
    unsigned n = 0, targets = 0, bad = 0, worst = 0;
    ptb_table_info info;
    ptb_table_get_info(table, &info);
    unsigned m = info.modulus;
    for (unsigned b = 0; b < 65536; b++)
        if (popcount(b) == 8)
            by_rank[n++] = (uint16_t)b;
    for (unsigned t = 0; t < 65536; t++) {
        if (popcount(t) != 8 || !is_canonical(t))
            continue;
        char text[64];
        ptb_position pos[2];
        unsigned np;
        board_text(t, t, text);
        if (ptb_parse(space, text, NULL, pos, &np, NULL, 0) != PTB_OK) {
            bad++;
            continue;
        }
        targets++;
        bfs(t, dist);
        for (unsigned r = 0; r < 12870; r++) {
            unsigned v, d = (unsigned)dist[by_rank[r]];
            if (ptb_table_value(table, reader, pos[0].sub, r, &v) != PTB_OK ||
                v != d % m)
                bad++;
            worst = d > worst ? d : worst;
        }
    }
    check((m == 3 || m == 4) && targets == 887 && bad == 0,
          "all 887 x 12870 values for k = 8 equal BFS distance mod %u "
          "(%u mismatches, largest distance %u)", m, bad, worst);
}

/* Applies "abcd" to board b: true when it swaps two edge-adjacent cells
 * of different colours. */
static int apply_text(unsigned *b, const char *mv)
{
    if (strlen(mv) != 4)
        return 0;
    unsigned a = 4u * (unsigned)(mv[0] - '1') + (unsigned)(mv[1] - '1');
    unsigned c = 4u * (unsigned)(mv[2] - '1') + (unsigned)(mv[3] - '1');
    if (a > 15 || c > 15)
        return 0;
    unsigned dr = a / 4 > c / 4 ? a / 4 - c / 4 : c / 4 - a / 4;
    unsigned dc = a % 4 > c % 4 ? a % 4 - c % 4 : c % 4 - a % 4;
    if (dr + dc != 1 || ((*b >> a) & 1) == ((*b >> c) & 1))
        return 0;
    *b ^= (1u << a) | (1u << c);
    return 1;
}

/* Replays the printed moves on start; true when each is legal and the last
 * board is target. */
static int replay(unsigned start, unsigned target, const ptb_solution *sol)
{
    unsigned b = start;
    for (unsigned i = 0; i < sol->distance; i++) {
        char mv[32];
        ptb_format_move(space, i ? &sol->after[i - 1] : &sol->start,
                        &sol->move[i], mv, sizeof mv);
        if (!apply_text(&b, mv))
            return 0;
    }
    return b == target;
}

static unsigned random_board(unsigned k)
{
    unsigned b = 0;
    while (popcount(b) < k)
        b |= 1u << (rand() % 16);
    return b;
}

/* Random targets of every k, with starts, relabeled both ways. */
static void random_queries_match_bfs_and_replay(void)
{
    static int8_t dist[65536];
    ptb_solution *sol = malloc(sizeof *sol), *ref = malloc(sizeof *ref);
    unsigned queries = 0, wrong = 0, illegal = 0, search_wrong = 0;
    srand(1225);
    for (unsigned k = 0; k <= 16; k++) {
        for (unsigned ti = 0; ti < 24; ti++) {
            unsigned t = random_board(k);
            bfs(t, dist);
            for (unsigned si = 0; si < 25; si++) {
                unsigned s = random_board(k);
                char text[64];
                ptb_position pos[2];
                unsigned np;
                board_text(s, t, text);
                queries++;
                if (ptb_parse(space, text, NULL, pos, &np, NULL, 0) ||
                    ptb_solve(table, reader, pos, np, sol)) {
                    wrong++;
                    continue;
                }
                wrong += sol->distance != (unsigned)dist[s];
                illegal += !replay(s, t, sol);
                if (si % 5 == 0) {
                    search_wrong += ptb_search(space, pos, np, ref) != PTB_OK ||
                                    ref->distance != (unsigned)dist[s] ||
                                    !replay(s, t, ref);
                }
            }
        }
    }
    check(wrong == 0, "%u random queries over k = 0..16: walk distance "
          "equals the test's BFS (%u wrong)", queries, wrong);
    check(illegal == 0, "every walked line is legal, of that length, and "
          "ends on the target (%u bad)", illegal);
    check(search_wrong == 0, "ptb_search agrees with the test's BFS (%u bad)",
          search_wrong);
    free(sol);
    free(ref);
}

/* Solves (s, t) through the text interface; distance, or -1. */
static int solve_text(unsigned s, unsigned t, ptb_solution *sol)
{
    char text[64];
    ptb_position pos[2];
    unsigned np;
    board_text(s, t, text);
    if (ptb_parse(space, text, NULL, pos, &np, NULL, 0) != PTB_OK ||
        ptb_solve(table, reader, pos, np, sol) != PTB_OK)
        return -1;
    return (int)sol->distance;
}

static void every_relabeling_keeps_the_distance(void)
{
    static int8_t dist[65536];
    ptb_solution *sol = malloc(sizeof *sol);
    unsigned bad = 0, pairs = 0;
    srand(8);
    for (int i = 0; i < 40; i++) {
        unsigned k = (unsigned)(rand() % 17);
        unsigned s = random_board(k), t = random_board(k);
        bfs(t, dist);
        for (unsigned g = 0; g < 8; g++)
            for (int comp = 0; comp < 2; comp++) {
                unsigned rs = relabel(g, comp, s), rt = relabel(g, comp, t);
                pairs++;
                bad += solve_text(rs, rt, sol) != dist[s] ||
                       !replay(rs, rt, sol);
            }
    }
    check(bad == 0, "%u queries under all 16 relabelings: same distance, "
          "legal line to the relabeled target (%u bad)", pairs, bad);
    free(sol);
}

static void successors_carry_their_distances(void)
{
    static int8_t dist[65536];
    ptb_successor *out = malloc(PTB_MAX_SUCCESSORS * sizeof *out);
    unsigned bad = 0, seen = 0;
    srand(9);
    for (int i = 0; i < 300; i++) {
        unsigned k = (unsigned)(rand() % 17);
        unsigned s = random_board(k), t = random_board(k), n, d, legal = 0;
        char text[64], mv[16];
        ptb_position pos[2];
        bfs(t, dist);
        board_text(s, t, text);
        if (ptb_parse(space, text, NULL, pos, &n, NULL, 0) != PTB_OK ||
            ptb_successors(table, reader, &pos[0], &d, out, &n) != PTB_OK ||
            d != (unsigned)dist[s]) {
            bad++;
            continue;
        }
        for (unsigned e = 0; e < 24; e++) {   /* swaps of unlike cells */
            unsigned a = e < 12 ? e / 3 * 4 + e % 3 : e - 12;
            unsigned c = e < 12 ? a + 1 : a + 4;
            legal += ((s >> a) & 1) != ((s >> c) & 1);
        }
        for (unsigned j = 0; j < n; j++) {
            unsigned b = s;
            ptb_format_move(space, &pos[0], &out[j].move, mv, sizeof mv);
            bad += !apply_text(&b, mv) ||
                   out[j].distance != (unsigned)dist[b];
            seen++;
        }
        bad += n != legal;
    }
    check(bad == 0, "ptb_successors: every legal swap, each with its BFS "
          "distance (%u successors, %u bad)", seen, bad);
    free(out);
}

static void sample_of_p1225_takes_four_moves(void)
{
    const char *text = "1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101\n";
    ptb_position pos[2];
    unsigned np;
    ptb_solution *sol = malloc(sizeof *sol);
    int ok = ptb_parse(space, text, NULL, pos, &np, NULL, 0) == PTB_OK &&
             ptb_solve(table, reader, pos, np, sol) == PTB_OK &&
             sol->distance == 4 && replay(0x470F, 0xA5A5, sol);
    check(ok, "the P1225 sample takes 4 moves and the line replays");
    free(sol);
}

static void index_is_rank_among_equal_counts(void)
{
    unsigned bad = 0;
    srand(7);
    for (int i = 0; i < 200; i++) {
        unsigned k = (unsigned)(rand() % 8) + 1, s = random_board(k);
        unsigned t = (1u << k) - 1;           /* canonical: lowest k cells */
        char text[64];
        ptb_position pos[2];
        unsigned np;
        board_text(s, t, text);
        bad += ptb_parse(space, text, NULL, pos, &np, NULL, 0) != PTB_OK ||
               pos[0].idx != rank_of(s);
    }
    check(bad == 0, "a start's index is its rank among boards with as many "
          "black cells (%u wrong)", bad);
}

int main(void)
{
    tables tb;
    if (!tables_open("swap", NULL, &tb))
        return check_done();
    space = tb.s;
    table = tb.t;
    reader = tb.r;
    sample_of_p1225_takes_four_moves();
    canonical_targets_and_value_count();
    index_is_rank_among_equal_counts();
    every_k8_value_is_bfs_distance_mod_3();
    random_queries_match_bfs_and_replay();
    every_relabeling_keeps_the_distance();
    successors_carry_their_distances();
    tables_close(&tb);
    return check_done();
}
