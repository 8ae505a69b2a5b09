/* tests/t_util.c: ptb_catf (lib/core/util.c), which formats the plain
 * conversions (%s %.*s %c %u %lu %llu %zu %d %%) itself, writes what
 * snprintf writes at buf+len: the same bytes, the same truncation and NUL at every capacity,
 * and the same count past the cap.  The reference is the C library's own
 * snprintf, called as the contract in lib/core/puzzle.h describes.  Also
 * SHA-256 (lib/format/sha256.c) against the test vectors of FIPS 180-2, in
 * portable C and on the processor's SHA extensions where it has them;
 * ptb_puzzle_metrics() (lib/puzzles/registry.c), also against snprintf;
 * ptb_sort_u64() against qsort(); and the check of in-place values'
 * chunks (lib/format/table.h, summed in lanes) against FORMAT.md's
 * running sums taken a word at a time. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "format/table.h"
#include "puzzles/text.h"
#include "core/core.h"
#include "puzzletb.h"
#include "check.h"

#define BUF 96

/* One format and its arguments at every capacity 0..BUF and start
 * 0..9: ptb_catf and snprintf must leave the same buffer and length.
 * Counts the cases that differ in *bad. */
#define SAME(bad, ...)                                                     \
    do {                                                                   \
        for (size_t cap = 0; cap <= BUF; cap++)                            \
            for (size_t at = 0; at < 10; at++) {                           \
                char got[BUF + 1], want[BUF + 1];                          \
                size_t len = at, wlen = at;                                \
                memset(got, '#', sizeof got);                              \
                memset(want, '#', sizeof want);                            \
                ptb_catf(got, cap, &len, __VA_ARGS__);                     \
                int n = snprintf(wlen < cap ? want + wlen : NULL,          \
                                 wlen < cap ? cap - wlen : 0, __VA_ARGS__); \
                if (n > 0)                                                 \
                    wlen += (size_t)n;                                     \
                if (len != wlen || memcmp(got, want, sizeof got))          \
                    (bad)++;                                               \
            }                                                              \
    } while (0)

static void plain_conversions_write_what_snprintf_writes(void)
{
    unsigned bad = 0;
    SAME(bad, "%u", 0u);
    SAME(bad, "%u", 4294967295u);
    SAME(bad, "%d", -7);
    SAME(bad, "%d", INT_MIN);
    SAME(bad, "%d", INT_MAX);
    SAME(bad, "%c", 'K');
    SAME(bad, "%s", "");
    SAME(bad, "%s", "BAAC\nBAAC\nDEEF\nDGHF\nIKKJ");
    SAME(bad, "%u %s\n%s\n\n", 116u, "I R", "BAAC\nBAAC\nDEEF\nDGHF\nKIKJ");
    SAME(bad, "{\"piece\":\"%c\",\"from\":[%u,%u],\"to\":[%u,%u],"
              "\"path\":[", 'G', 4u, 2u, 5u, 3u);
    SAME(bad, "100%% of %s%u%%", "x", 7u);
    SAME(bad, "no conversion at all, %% only");
    const char *volatile none = NULL;  /* (not a constant: no warning) */
    for (int prec = -2; prec <= 9; prec++) {
        SAME(bad, "%s%.*s|", prec ? "\n" : "", prec, "BAACxx");
        SAME(bad, "%.*s", prec, "");
        SAME(bad, "[%.*s]", prec, none);
    }
    SAME(bad, "%.*s/%.*s", 4, "BAAC", 4, "DEEF");
    SAME(bad, "%lu|%llu|%zu", 0ul, 0ull, (size_t)0);
    SAME(bad, "%lu %llu", ULONG_MAX, ULLONG_MAX);
    SAME(bad, "%zu,%" PRIu64 ",%" PRIu64 "]", SIZE_MAX, UINT64_MAX,
         (uint64_t)9698093879u);
    check(bad == 0, "%%s %%.*s %%c %%u %%lu %%llu %%zu %%d %%%%: the same "
          "bytes, NUL and length "
          "as snprintf at every capacity 0..%d and start 0..9 (%u differ)",
          BUF, bad);
}

static void other_formats_still_work(void)
{
    unsigned bad = 0;
    SAME(bad, "%09llX", 0x1A2B3C4D5ull);
    SAME(bad, "%s%.4s", " ", "BAACxx");
    SAME(bad, "%.*d", 3, 7);
    SAME(bad, "No. %2u: %s\n", 3u, "x");
    SAME(bad, "\\u%04x", 0x1fu);
    SAME(bad, "%lx %zx %lld %ld", 0xABCul, (size_t)255, -5ll, -6l);
    check(bad == 0, "width, precision and length: as "
          "snprintf (%u differ)", bad);
}

static void the_length_counts_past_the_cap(void)
{
    char buf[4];
    size_t len = 0;
    ptb_catf(buf, sizeof buf, &len, "%s", "abcdef");
    ptb_catf(buf, sizeof buf, &len, "%u", 12345u);
    check(len == 11 && !strcmp(buf, "abc"),
          "two calls into 4 bytes: length 11, \"abc\" kept");
}

static void sha256_hex_of(const char *text, size_t len, size_t piece,
                          int portable, char hex[65])
{
    ptb_sha256 c;
    ptb_sha256_init(&c);
    c.portable = portable;
    for (size_t at = 0; at < len; at += piece)
        ptb_sha256_update(&c, text + at, len - at < piece ? len - at : piece);
    ptb_sha256_hex(&c, hex);
}

static void sha256_gives_the_fips_vectors(void)
{
    static const struct { const char *text, *hex; } v[] = {
        { "",
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc",
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    };
    static char a[1000000];
    memset(a, 'a', sizeof a);
    for (int portable = 1; portable >= 0; portable--) {
        unsigned bad = 0;
        char hex[65];
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            for (size_t piece = 1; piece <= 65; piece++) {
                sha256_hex_of(v[i].text, strlen(v[i].text), piece, portable,
                              hex);
                bad += strcmp(hex, v[i].hex) != 0;
            }
        sha256_hex_of(a, sizeof a, 999, portable, hex);
        bad += strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
                           "f1809a48a497200e046d39ccc7112cd0") != 0;
        check(bad == 0, "SHA-256 (%s): the FIPS 180-2 vectors, data given "
              "in pieces of 1 to 65 bytes, and a million 'a' (%u differ)",
              portable ? "portable C"
              : ptb_sha256_accelerated() ? "the processor's SHA extensions"
                                         : "no SHA extensions here: C again",
              bad);
    }
}

/* ptb_puzzle_metrics(): the list snprintf() makes of ptb_puzzle_metric()'s
 * names, at every capacity, for every built-in puzzle. */
static void the_metric_list_is_what_snprintf_makes(void)
{
    unsigned bad = 0, puzzles = 0;
    for (unsigned i = 0; i < ptb_puzzle_count(); i++, puzzles++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        const char *m[4] = { "", "", "", "" };
        unsigned n = 0;
        while (n < 4 && ptb_puzzle_metric(p, n)) {
            m[n] = ptb_puzzle_metric(p, n);
            n++;
        }
        bad += n == 0 || n > 3;
        for (size_t cap = 0; cap < 32; cap++) {
            char got[32], want[32];
            memset(got, '#', sizeof got);
            memset(want, '#', sizeof want);
            size_t len = ptb_puzzle_metrics(p, got, cap);
            int wlen = snprintf(cap ? want : NULL, cap, "%s%s%s%s%s", m[0],
                                n > 1 ? ", " : "", m[1], n > 2 ? ", " : "",
                                m[2]);
            bad += len != (size_t)wlen || memcmp(got, want, sizeof got);
        }
    }
    check(bad == 0 && puzzles >= 4, "ptb_puzzle_metrics: the list snprintf "
          "makes of the metric names, capacities 0 to 31, %u puzzles "
          "(%u differ)", puzzles, bad);
}

/* ptb_room(): item n fits once it returns PTB_OK, the items kept, the
 * capacity doubled from 'first'; a size past SIZE_MAX refused. */
static void room_grows_by_doubling(void)
{
    void *a = NULL;
    size_t cap = 0, bad = 0, caps[4];
    for (size_t n = 0; n < 100; n++) {
        bad += ptb_room(&a, &cap, n, sizeof(uint32_t), 8) != PTB_OK ||
               cap <= n;
        ((uint32_t *)a)[n] = (uint32_t)n * 7;
        if (n == 0 || n == 8 || n == 16 || n == 99)
            caps[n == 0 ? 0 : n == 8 ? 1 : n == 16 ? 2 : 3] = cap;
    }
    for (size_t n = 0; n < 100; n++)
        bad += ((uint32_t *)a)[n] != (uint32_t)n * 7;
    size_t before = cap;
    int big = ptb_room(&a, &cap, SIZE_MAX / 2, 8, 8) |
              ptb_room(&a, &cap, SIZE_MAX - 1, 1, 8);
    check(bad == 0 && caps[0] == 8 && caps[1] == 16 && caps[2] == 32 &&
          caps[3] == 128 && big == PTB_ENOMEM && cap == before,
          "ptb_room: items kept, capacities 8, 16, 32 ... 128, a size past "
          "SIZE_MAX refused with nothing changed");
    free(a);
}

/* ptb_sort_u64(): the order qsort() gives with ptb_u64_cmp, on arrays of
 * every size to 300 (qsort's own below 256) and of 5,000, their values
 * drawn from a few bits (most bytes shared: passes skipped), from all 64,
 * and from 5 values (many repeats). */
static void sort_is_qsort_order(void)
{
    enum { MOST = 5000 };
    static uint64_t a[MOST], b[MOST];
    uint64_t x = 88172645463325252u;          /* xorshift64 */
    size_t bad = 0, arrays = 0;
    for (unsigned kind = 0; kind < 3; kind++)
        for (size_t m = 0; m <= 301; m++) {
            size_t n = m <= 300 ? m : MOST;
            for (size_t i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                a[i] = b[i] = kind == 0 ? (x & 0xF0F) << 20 | (uint64_t)7 << 56
                              : kind == 1 ? x
                                          : x % 5;
            }
            ptb_sort_u64(a, n);
            qsort(b, n, sizeof *b, ptb_u64_cmp);
            bad += memcmp(a, b, n * sizeof *a) != 0;
            arrays++;
        }
    check(bad == 0 && arrays == 3 * 302, "ptb_sort_u64: qsort's order on "
          "%zu arrays of 0 to 300 and 5,000 values (few bits, all 64, "
          "repeats)",
          arrays);
}

/* FORMAT.md's check of a chunk: running sums a and b of its 64-bit
 * little-endian words, the last padded with zero bytes, folded. */
static uint32_t words_check(const unsigned char *p, size_t n)
{
    uint64_t a = 0, b = 0;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            w |= (uint64_t)p[i + k] << 8 * k;
        a += w;
        b += a;
    }
    uint64_t x = a ^ b * 0x9E3779B97F4A7C15u;
    return (uint32_t)(x ^ x >> 32);
}

/* chunk_check() on every length from 0 to 1,100 bytes at each of 8
 * starts, of random bytes and of bytes all 0xFF (the sums wrap). */
static void chunk_check_is_the_running_sums(void)
{
    static unsigned char buf[1100 + 8];
    uint64_t x = 88172645463325252u;          /* xorshift64 */
    size_t bad = 0, cases = 0;
    for (int ones = 0; ones < 2; ones++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            buf[i] = ones ? 0xFF : (unsigned char)x;
        }
        for (size_t n = 0; n <= 1100; n++)
            for (size_t at = 0; at < 8; at++, cases++)
                bad += chunk_check(buf + at, n) != words_check(buf + at, n);
    }
    check(bad == 0, "chunk_check(): FORMAT.md's running sums on %zu "
          "buffers of 0 to 1,100 bytes at 8 starts, random and all 0xFF "
          "(%zu differ)", cases, bad);
}

int main(void)
{
    sort_is_qsort_order();
    chunk_check_is_the_running_sums();
    room_grows_by_doubling();
    the_metric_list_is_what_snprintf_makes();
    sha256_gives_the_fips_vectors();
    plain_conversions_write_what_snprintf_writes();
    other_formats_still_work();
    the_length_counts_past_the_cap();
    return check_done();
}
