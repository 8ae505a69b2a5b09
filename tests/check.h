/* tests/check.h: the tiny harness every C test uses.  Each check prints one
 * TAP line ("ok N - what" / "not ok N - what"); tests/run adds them up.
 * main() ends with `return check_done();`, non-zero when anything failed. */
#ifndef PTB_CHECK_H
#define PTB_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static unsigned check_count, check_failed;

/* Records one check: cond is what must hold, fmt names it. */
static int check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%sok %u - ", cond ? "" : "not ", ++check_count);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    if (!cond)
        check_failed++;
    return cond;
}

static int check_done(void)
{
    printf("1..%u\n", check_count);
    return check_failed != 0;
}

#endif
