/* lib/core/util.c: error names, the version, small text helpers shared by
 * the puzzle files and the formatters, and the library's scratch files. */
#define _GNU_SOURCE                /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

const char *ptb_version(void) { return PTB_VERSION_STRING; }

const char *ptb_strerror(int code)
{
    if (code > 0)
        return strerror(code);      /* an errno value, passed through */
    switch (code) {
    case PTB_OK:        return "success";
    case PTB_NOTFOUND:  return "no solution: the goal cannot be reached";
    case PTB_EINVAL:    return "invalid argument";
    case PTB_EPARSE:    return "malformed input";
    case PTB_ENOMEM:    return "out of memory";
    case PTB_EIO:       return "input/output error";
    case PTB_ENOTABLE:  return "table not found";
    case PTB_EFORMAT:   return "not a puzzletb table for this puzzle";
    case PTB_EVERSION:  return "table has another format version";
    case PTB_ETRUNC:    return "table file is truncated";
    case PTB_ECORRUPT:  return "table is corrupt (checksum or values)";
    case PTB_EDB:       return "LMDB error";
    case PTB_ERANGE:    return "distance too large for the table encoding";
    case PTB_ECOMPRESS: return "the compressor failed";
    case PTB_ELIMIT:    return "the search reached its limit";
    default:            return "unknown error";
    }
}

int ptb_errf(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && cap)
        vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return PTB_EPARSE;
}

/* ---- ptb_catf ----------------------------------------------------------
 * The formatters build answers with many small ptb_catf() calls, and
 * vsnprintf costs a few hundred instructions each.  So ptb_catf() formats
 * the plain conversions itself: %s, %.*s, %c, %u (also %lu, %llu and %zu,
 * so PRIu64 too), %d and %%, without flags, width or other precision,
 * written exactly as vsnprintf writes them (bytes, truncation and the NUL
 * alike); any other format goes to vsnprintf whole. */

/* The length of the modifier before a 'u' at s ("l", "ll", "z"), or 0. */
static int unsigned_modifier(const char *s)
{
    int n = s[0] == 'z' ? 1 : s[0] == 'l' ? 1 + (s[1] == 'l') : 0;
    return s[n] == 'u' ? n : 0;
}

/* Does fmt use only the conversions above? */
static int plain_format(const char *fmt)
{
    for (; *fmt; fmt++) {
        if (*fmt != '%')
            continue;
        if (fmt[1] == '.' && fmt[2] == '*' && fmt[3] == 's')
            fmt += 2;
        fmt += unsigned_modifier(fmt + 1);
        if (*++fmt != 's' && *fmt != 'c' && *fmt != 'u' && *fmt != 'd' &&
            *fmt != '%')
            return 0;
    }
    return 1;
}

/* Appends s[0..n-1] at buf+*len, keeping room for the NUL below cap. */
static void put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len + 1 < cap) {
        size_t k = n < cap - 1 - *len ? n : cap - 1 - *len;
        if (k > 16)
            memcpy(buf + *len, s, k);
        else
            for (size_t i = 0; i < k; i++)
                buf[*len + i] = s[i];
    }
    *len += n;
}

/* v in decimal, after a '-' when neg. */
static void put_number(char *buf, size_t cap, size_t *len,
                       unsigned long long v, int neg)
{
    char tmp[24];
    size_t at = sizeof tmp;
    do
        tmp[--at] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    if (neg)
        tmp[--at] = '-';
    put(buf, cap, len, tmp + at, sizeof tmp - at);
}

static void plain_catf(char *buf, size_t cap, size_t *len, const char *fmt,
                       va_list ap)
{
    size_t start = *len;
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            if (*len + 1 < cap)
                buf[*len] = *fmt;
            ++*len;
            continue;
        }
        switch (*++fmt) {
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";       /* as glibc prints it */
            put(buf, cap, len, s, strlen(s));
            break;
        }
        case '.': {                 /* %.*s: at most prec bytes of s */
            int prec = va_arg(ap, int);
            const char *s = va_arg(ap, const char *);
            size_t n = 0;
            fmt += 2;
            if (!s)                 /* as glibc: whole, or nothing */
                s = prec < 0 || prec >= 6 ? "(null)" : "";
            while ((prec < 0 || n < (size_t)prec) && s[n])
                n++;
            put(buf, cap, len, s, n);
            break;
        }
        case 'c': {
            char c = (char)(unsigned char)va_arg(ap, int);
            put(buf, cap, len, &c, 1);
            break;
        }
        case 'u':
            put_number(buf, cap, len, va_arg(ap, unsigned), 0);
            break;
        case 'l':                   /* %lu, %llu */
            if (fmt[1] == 'l') {
                fmt += 2;
                put_number(buf, cap, len, va_arg(ap, unsigned long long), 0);
            } else {
                fmt++;
                put_number(buf, cap, len, va_arg(ap, unsigned long), 0);
            }
            break;
        case 'z':                   /* %zu */
            fmt++;
            put_number(buf, cap, len, va_arg(ap, size_t), 0);
            break;
        case 'd': {
            int d = va_arg(ap, int);
            put_number(buf, cap, len, d < 0 ? 0u - (unsigned)d
                                            : (unsigned)d, d < 0);
            break;
        }
        default:
            put(buf, cap, len, "%", 1);
            break;
        }
    }
    if (start < cap)
        buf[*len < cap ? *len : cap - 1] = '\0';
}

void ptb_catf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (plain_format(fmt)) {
        plain_catf(buf, cap, len, fmt, ap);
        va_end(ap);
        return;
    }
    int n = vsnprintf(*len < cap ? buf + *len : NULL,
                      *len < cap ? cap - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}

int ptb_room(void **a, size_t *cap, size_t n, size_t each, size_t first)
{
    if (n < *cap)
        return PTB_OK;
    if (n >= SIZE_MAX / 2 / each)
        return PTB_ENOMEM;
    size_t c = *cap ? *cap : first;
    while (c <= n)
        c *= 2;
    void *b = realloc(*a, c * each);
    if (!b)
        return PTB_ENOMEM;
    *a = b;
    *cap = c;
    return PTB_OK;
}

int ptb_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A least-significant-digit radix sort, a byte a pass, that skips the
 * bytes every value shares (a ranking graph's states differ in a few);
 * qsort() when there are few values or no room for the second array. */
void ptb_sort_u64(uint64_t *a, size_t n)
{
    size_t (*count)[256] = NULL;
    uint64_t *b = NULL;
    if (n < 256 || !(count = calloc(8, sizeof *count)) ||
        !(b = malloc(n * sizeof *b))) {
        free(count);
        qsort(a, n, sizeof *a, ptb_u64_cmp);
        return;
    }
    for (size_t i = 0; i < n; i++)
        for (unsigned k = 0; k < 8; k++)
            count[k][a[i] >> 8 * k & 0xFF]++;
    uint64_t *from = a, *to = b;
    for (unsigned k = 0; k < 8; k++) {
        size_t at = 0, *c = count[k];
        if (c[from[0] >> 8 * k & 0xFF] == n)
            continue;                   /* the same byte in every value */
        for (unsigned v = 0; v < 256; v++) {
            size_t m = c[v];
            c[v] = at;
            at += m;
        }
        for (size_t i = 0; i < n; i++)
            to[c[from[i] >> 8 * k & 0xFF]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        memcpy(a, from, n * sizeof *a);
    free(b);
    free(count);
}

uint64_t ptb_last_at_most(const uint64_t *a, uint64_t n, uint64_t v)
{
    uint64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (a[mid] <= v)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

char *ptb_join_path(const char *dir, const char *file, const char *suffix)
{
    size_t n = strlen(dir) + strlen(file) + strlen(suffix) + 2;
    char *p = malloc(n);
    size_t len = 0;
    if (p)
        ptb_catf(p, n, &len, "%s/%s%s", dir, file, suffix);
    return p;
}

int ptb_unnamed_file(const char *dir)
{
    char path[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    if (!dir)
        dir = tmp && *tmp ? tmp : "/tmp";
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR))
        return fd;
    if (snprintf(path, sizeof path, "%s/.puzzletb-XXXXXX", dir) >=
        (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if ((fd = mkostemp(path, O_CLOEXEC)) >= 0)
        unlink(path);
    return fd;
}
