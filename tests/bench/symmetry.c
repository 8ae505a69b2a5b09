/* tests/bench/symmetry.c: would a symmetry-reduced state space pay?  (A
 * measurement, not a test: `make bench` builds it, the puzzle files' header
 * comments quote what it printed.)
 *
 *     build/bench/symmetry [-t DIR] four|frog
 *
 * Reads every value of the puzzle's table through the public API, finds the
 * orbits of the states under the puzzle's symmetries from the rules alone
 * (boards written as text and parsed by ptb_parse, so the table's own index
 * is used and never reimplemented), keeps one value per orbit (the orbit's
 * smallest table index, ascending), and compresses both value arrays the
 * way the tables do (blocks of 16,384 values, zstd level 19, one byte per
 * value, no dictionary), and prints the states, the orbits and both
 * compressed sizes.  It also checks that every state of an orbit has the
 * same value (exit status 1 otherwise: the map would not be a symmetry).
 *
 * four: the 8 symmetries of the square, each with or without swapping the
 * colours and the side to move (16 maps; they keep moves and goals).
 * frog: reversing the row together with swapping the colours (the only map
 * besides the identity that keeps the direction each colour moves in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "puzzletb.h"

#define BLOCK 16384u

static size_t compressed(const unsigned char *v, uint64_t n)
{
    size_t total = 0, cap = ZSTD_compressBound(BLOCK);
    void *out = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 19);
    for (uint64_t b = 0; b < n; b += BLOCK) {
        size_t len = n - b < BLOCK ? (size_t)(n - b) : BLOCK;
        size_t got = ZSTD_compress2(cc, out, cap, v + b, len);
        total += ZSTD_isError(got) ? len : got;
    }
    ZSTD_freeCCtx(cc);
    free(out);
    return total;
}

/* ---- four-in-a-row ---- */

static unsigned cell_image(unsigned g, unsigned c)
{
    unsigned r = c / 4, k = c % 4, nr, nk;
    switch (g) {
    case 0: nr = r;     nk = k;     break;
    case 1: nr = k;     nk = 3 - r; break;
    case 2: nr = 3 - r; nk = 3 - k; break;
    case 3: nr = 3 - k; nk = r;     break;
    case 4: nr = r;     nk = 3 - k; break;
    case 5: nr = 3 - r; nk = k;     break;
    case 6: nr = k;     nk = r;     break;
    default: nr = 3 - k; nk = 3 - r; break;
    }
    return 4 * nr + nk;
}

/* The table index of a board (16 chars B/W/O) with side to move. */
static uint64_t four_index(const ptb_space *s, const char *board, int side)
{
    char text[32], err[128];
    const char *opt[2] = { side ? "first=W" : "first=B", NULL };
    ptb_position p[2];
    unsigned n;
    snprintf(text, sizeof text, "%.4s\n%.4s\n%.4s\n%.4s\n", board,
             board + 4, board + 8, board + 12);
    if (ptb_parse(s, text, opt, p, &n, err, sizeof err) != PTB_OK) {
        fprintf(stderr, "symmetry: %s: %s\n", text, err);
        exit(3);
    }
    return p[0].idx;
}

/* rep[i]: the smallest table index in the orbit of state i. */
static uint64_t four_orbits(const ptb_space *s, uint64_t states,
                            uint64_t *rep)
{
    static const char swap[128] = { ['B'] = 'W', ['W'] = 'B', ['O'] = 'O' };
    char board[17], img[17];
    uint64_t done = 0;
    for (unsigned m = 0; m < 1u << 16; m++) {     /* the two empty cells */
        if (__builtin_popcount(m) != 2)
            continue;
        for (unsigned b = 0; b < 1u << 14; b++) { /* 7 black of 14 */
            if (__builtin_popcount(b) != 7)
                continue;
            for (unsigned c = 0, k = 0; c < 16; c++)
                board[c] = m >> c & 1 ? 'O' : b >> k++ & 1 ? 'B' : 'W';
            for (int side = 0; side < 2; side++) {
                uint64_t idx = four_index(s, board, side), best = idx;
                for (unsigned g = 0; g < 16; g++) {
                    for (unsigned c = 0; c < 16; c++)
                        img[cell_image(g & 7, c)] =
                            g & 8 ? swap[(int)board[c]] : board[c];
                    uint64_t i = four_index(s, img, side ^ (g >> 3));
                    best = i < best ? i : best;
                }
                if (idx >= states)
                    exit(3);
                rep[idx] = best;
                done++;
            }
        }
    }
    return done;
}

/* ---- frog ---- */

static uint64_t frog_index(const ptb_space *s, unsigned n, const char *row)
{
    char err[128];
    ptb_position p[2];
    unsigned k;
    if (ptb_parse(s, row, NULL, p, &k, err, sizeof err) != PTB_OK ||
        p[0].sub != n - 1) {
        fprintf(stderr, "symmetry: %s: %s\n", row, err);
        exit(3);
    }
    return p[0].idx;
}

static uint64_t frog_orbits(const ptb_space *s, uint32_t sub, uint64_t *rep)
{
    unsigned n = sub + 1, len = 2 * n + 1;
    char row[32], img[32];
    uint64_t done = 0;
    for (unsigned e = 0; e < len; e++)
        for (uint32_t w = 0; w < 1u << (2 * n); w++) {
            if ((unsigned)__builtin_popcount(w) != n)
                continue;
            for (unsigned c = 0, k = 0; c < len; c++)
                row[c] = c == e ? '.' : w >> k++ & 1 ? 'W' : 'B';
            row[len] = img[len] = 0;
            for (unsigned c = 0; c < len; c++)
                img[len - 1 - c] = row[c] == '.' ? '.' :
                                   row[c] == 'W' ? 'B' : 'W';
            uint64_t a = frog_index(s, n, row), b = frog_index(s, n, img);
            rep[a] = a < b ? a : b;
            done++;
        }
    return done;
}

int main(int argc, char **argv)
{
    const char *dir = "tables", *puzzle = argc > 1 ? argv[argc - 1] : "";
    if (argc == 4 && !strcmp(argv[1], "-t"))
        dir = argv[2];
    else if (argc != 2)
        puzzle = "";
    if (strcmp(puzzle, "four") && strcmp(puzzle, "frog")) {
        fprintf(stderr, "usage: symmetry [-t DIR] four|frog\n");
        return 2;
    }
    ptb_space *s;
    ptb_table *t;
    ptb_reader *r;
    ptb_table_info in;
    if (ptb_space_open(puzzle, NULL, &s) || ptb_table_open(s, dir, &t) ||
        ptb_table_get_info(t, &in) || ptb_reader_new(t, &r)) {
        fprintf(stderr, "symmetry: cannot open the %s table\n", puzzle);
        return 3;
    }
    uint64_t total = 0, orbits = 0, full_bytes = 0, red_bytes = 0;
    for (uint32_t sub = 0; sub < in.subtables; sub++) {
        /* sizes: the indices the parser hands out, up to the table's */
        uint64_t size = 0, cap = in.states;
        unsigned v;
        while (size < cap && ptb_table_value(t, r, sub, size, &v) == PTB_OK)
            size++;
        unsigned char *val = malloc(size), *red = malloc(size);
        uint64_t *rep = malloc(size * sizeof *rep);
        for (uint64_t i = 0; i < size; i++) {
            ptb_table_value(t, r, sub, i, &v);
            val[i] = (unsigned char)v;
            rep[i] = UINT64_MAX;
        }
        uint64_t seen = !strcmp(puzzle, "four") ? four_orbits(s, size, rep)
                                                : frog_orbits(s, sub, rep);
        if (seen != size) {
            fprintf(stderr, "symmetry: %lu states enumerated, table has "
                    "%lu\n", (unsigned long)seen, (unsigned long)size);
            return 1;
        }
        uint64_t k = 0;
        for (uint64_t i = 0; i < size; i++)
            if (rep[i] == i)
                red[k++] = val[i];
            else if (val[rep[i]] != val[i]) {
                fprintf(stderr, "symmetry: state %lu and its image %lu "
                        "differ: not a symmetry\n", (unsigned long)i,
                        (unsigned long)rep[i]);
                return 1;
            }
        size_t a = compressed(val, size), b = compressed(red, k);
        if (in.subtables > 1)
            printf("sub %u: %lu states, %lu orbits, %zu -> %zu bytes\n", sub,
                   (unsigned long)size, (unsigned long)k, a, b);
        total += size;
        orbits += k;
        full_bytes += a;
        red_bytes += b;
        free(val);
        free(red);
        free(rep);
        in.states -= size;
    }
    printf("%s: %lu states, %lu orbits (%.2fx fewer); zstd-19 blocks of "
           "%u values: %lu bytes for all states, %lu for one per orbit "
           "(%.2fx smaller)\n", puzzle, (unsigned long)total,
           (unsigned long)orbits, (double)total / orbits, BLOCK,
           (unsigned long)full_bytes, (unsigned long)red_bytes,
           (double)full_bytes / red_bytes);
    ptb_reader_free(r);
    ptb_table_close(t);
    ptb_space_close(s);
    return 0;
}
