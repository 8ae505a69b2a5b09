/* tests/bench/blocks_count.c: the layouts of a 4x4 family of blocks,
 * counted apart from the library, to compare with Neil Bickford's
 * published counts ("Sliding Block Puzzles", part 3, 2012: 12,295,564
 * puzzles processed; part 4, 2013: 55,807,716 ways to place pieces and
 * voids on 4x4).  A layout covers the cells with pieces (each a set of
 * cells joined by their sides, of any size) and empty cells; it is listed
 * once by a plain recursion (the first cell not yet decided is left empty
 * or is the first cell of a piece placed there), the board a grid of
 * labels.  It counts every layout, and those in which the piece on the
 * bottom right cell can move a cell up or left (his "justsolved" boards,
 * the goal layouts a search starts from), by the number of pieces.
 *
 *     make build/bench/blocks_count && build/bench/blocks_count
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define W 4
#define H 4
#define N (W * H)
#define MOST_SETS 70000          /* connected sets with a given first cell */

static int label[N];             /* -1 undecided, 0 empty, k piece k */
static int pieces;
static uint64_t layouts, goals, by_pieces[N + 1];
static uint32_t sets[N][MOST_SETS];
static int nsets[N];

static int joined(uint32_t m)
{
    uint32_t f = m & -m, g;
    for (;;) {
        g = f;
        for (int c = 0; c < N; c++)
            if (f >> c & 1) {
                int x = c % W, y = c / W;
                if (x > 0)
                    g |= 1u << (c - 1);
                if (x < W - 1)
                    g |= 1u << (c + 1);
                if (y > 0)
                    g |= 1u << (c - W);
                if (y < H - 1)
                    g |= 1u << (c + W);
            }
        g &= m;
        if (g == f)
            return f == m;
        f = g;
    }
}

/* Whether piece k can move a cell by d (-1 left, -W up). */
static int can_step(int k, int d)
{
    for (int c = 0; c < N; c++)
        if (label[c] == k) {
            if ((d == -1 && c % W == 0) || (d == -W && c < W))
                return 0;
            if (label[c + d] != 0 && label[c + d] != k)
                return 0;
        }
    return 1;
}

static void fill(int c)
{
    while (c < N && label[c] >= 0)
        c++;
    if (c == N) {
        int g = label[N - 1];
        layouts++;
        if (g > 0 && (can_step(g, -1) || can_step(g, -W))) {
            goals++;
            by_pieces[pieces]++;
        }
        return;
    }
    label[c] = 0;
    fill(c + 1);
    label[c] = -1;
    for (int i = 0; i < nsets[c]; i++) {
        uint32_t m = sets[c][i];
        int free = 1;
        for (int d = 0; d < N && free; d++)
            free = !(m >> d & 1) || label[d] < 0;
        if (!free)
            continue;
        pieces++;
        for (int d = 0; d < N; d++)
            if (m >> d & 1)
                label[d] = pieces;
        fill(c + 1);
        for (int d = 0; d < N; d++)
            if (m >> d & 1)
                label[d] = -1;
        pieces--;
    }
}

int main(void)
{
    for (uint32_t m = 1; m < (1u << N); m++)
        if (joined(m)) {
            int c = __builtin_ctz(m);
            sets[c][nsets[c]++] = m;
        }
    memset(label, -1, sizeof label);
    fill(0);
    printf("%dx%d: %llu layouts, %llu goal layouts the goal piece can "
           "leave\n", W, H, (unsigned long long)layouts,
           (unsigned long long)goals);
    for (int p = 1; p <= N; p++)
        if (by_pieces[p])
            printf("  %2d pieces: %llu\n", p,
                   (unsigned long long)by_pieces[p]);
    return 0;
}
