/* common/util.c: error names, the version, and small text helpers shared by
 * the puzzle files and the formatters. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "puzzle.h"

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

void ptb_catf(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(*len < cap ? buf + *len : NULL,
                      *len < cap ? cap - *len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
}
