/* tests/t_util.c: ptb_catf (common/util.c), which formats the plain
 * conversions (%s %c %u %d %%) itself, writes what snprintf writes at
 * buf+len: the same bytes, the same truncation and NUL at every capacity,
 * and the same count past the cap.  The reference is the C library's own
 * snprintf, called as the contract in common/puzzle.h describes. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "puzzle.h"
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
    check(bad == 0, "%%s %%c %%u %%d %%%%: the same bytes, NUL and length "
          "as snprintf at every capacity 0..%d and start 0..9 (%u differ)",
          BUF, bad);
}

static void other_formats_still_work(void)
{
    unsigned bad = 0;
    SAME(bad, "%09llX", 0x1A2B3C4D5ull);
    SAME(bad, "%s%.4s", " ", "BAACxx");
    SAME(bad, "No. %2u: %s\n", 3u, "x");
    SAME(bad, "\\u%04x", 0x1fu);
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

int main(void)
{
    plain_conversions_write_what_snprintf_writes();
    other_formats_still_work();
    the_length_counts_past_the_cap();
    return check_done();
}
