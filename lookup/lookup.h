/* lookup/lookup.h: what tblookup's files share (main.c, levels.c). */
#ifndef PTB_LOOKUP_H
#define PTB_LOOKUP_H

#include "puzzletb.h"

#define OUT_CAP (1u << 20)       /* the text of one answer, at most */

enum { EXIT_NOSOLUTION = 1, EXIT_USAGE = 2, EXIT_TABLE = 3, EXIT_WRITE = 4 };

/* A usage error: one line naming the problem, then where to look;
 * EXIT_USAGE. */
int usage_error(const char *fmt, ...);
/* Flushes stdout and checks it; 0 or EXIT_WRITE. */
int flush_stdout(void);
/* tblookup --help on stdout: -1 (done), or EXIT_WRITE. */
int lookup_help(void);

/* levels.c: whether the command line asks for a family's levels
 * (--levels, --level N), and then the whole run; tables is the tables
 * directory unless --tables names one. */
int levels_asked(int argc, char **argv);
int levels_main(int argc, char **argv, const char *tables);

#endif
