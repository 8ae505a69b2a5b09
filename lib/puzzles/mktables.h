/* lib/puzzles/mktables.h: what the puzzles' build-time table generators (the
 * PTB_MKTABLES sections at the end of puzzle_*.c) share; never part of the
 * library, which does not print. */
#ifndef PTB_MKTABLES_H
#define PTB_MKTABLES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Prints "    .FIELD = { v0, v1, ... },", twelve values a line: the n
 * unsigned integers of 'bytes' bytes each (1, 2, 4 or 8) at v. */
static void mk_field(const char *field, const void *v, unsigned bytes,
                     size_t n)
{
    printf("    .%s = {", field);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)v + i * bytes;
        unsigned long long x;
        if (bytes == 1) {
            x = *p;
        } else if (bytes == 2) {
            uint16_t y;
            memcpy(&y, p, 2);
            x = y;
        } else if (bytes == 4) {
            uint32_t y;
            memcpy(&y, p, 4);
            x = y;
        } else {
            uint64_t y;
            memcpy(&y, p, 8);
            x = y;
        }
        printf("%s%llu,", i % 12 ? " " : "\n        ", x);
    }
    printf("\n    },\n");
}

/* The same for an array field: MK_FIELD(c, rank, n). */
#define MK_FIELD(ctx, f, n) mk_field(#f, (ctx)->f, sizeof *(ctx)->f, (n))

#endif
