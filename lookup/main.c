/* lookup/main.c: tblookup, the query tool.  Reads a position in a puzzle's
 * native notation, answers from the tables (or by search with --bfs) and
 * prints the answer.  Everything puzzle-specific is behind puzzletb.h: the
 * puzzles, their metrics and their query options (and so this program's
 * long options such as --first and --n, and its help) come from the
 * registry.
 *
 * Input rule: positions are arguments (several arguments are the lines of
 * one position); files come from -i FILE or standard input, never from an
 * argument.
 *
 * Exit status: 0 answered, 1 no solution (or a library failure), 2 bad input
 * or usage, 3 a missing, unreadable or corrupt table, 4 an output error. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup.h"

#ifndef PTB_TABLES_DIR
#define PTB_TABLES_DIR "tables"
#endif
#define MAX_INPUT (1u << 20)     /* one query read whole: 1 MiB */
#define LINE_CAP 4096u           /* --batch: longest line, in bytes */
#define RECORD_LINES 64u         /* --batch: most lines in a record */
#define MAX_QOPT 16              /* query options on one command line */
#define MAX_DRAW 100000u         /* --limit and --farthest: at most */
#define MAX_QNAMES 64            /* distinct query option names, +1 */

enum { OUT_NATIVE, OUT_COUNT, OUT_MOVES, OUT_JSON, OUT_SVG };

/* Long options with a short form or no query meaning; query options (the
 * puzzles') get codes from OPT_QUERY on. */
enum {
    OPT_MOVES = 256, OPT_BFS, OPT_STATS, OPT_VERIFY, OPT_LIST,
    OPT_ANALYSE, OPT_SOLUTIONS, OPT_RANDOM_AT, OPT_SEED, OPT_LIMIT,
    OPT_FARTHEST, OPT_START, OPT_QUERY
};

typedef struct options {
    const char *puzzle, *metric, *tables, *input;
    ptb_puzzle *p;             /* the puzzle: built in, or described */
    int out, batch, bfs, stats, verify;
    const char *out_flag;      /* the option that chose 'out', for messages */
    char **args;               /* positions, or --verify's puzzles */
    const char *list;          /* --list WHAT */
    const char *qopt[MAX_QOPT + 1]; /* "NAME=VALUE" query options */
    const char *qflag[MAX_QOPT];    /* how each was spelled: "--first" */
    unsigned nqopt;
    char *text;                /* the arguments joined by newlines */
    /* analysis: --analyse, --solutions, --random-at D (--seed, --limit),
     * --stats --farthest N; 0 when not given */
    int analyse, solutions, random_at, farthest;
    int start;                 /* --start: the puzzle's own start */
    unsigned threads;          /* -j: a search's threads (0: the cores) */
    unsigned at, limit;
    uint64_t seed;
    const char *seed_flag, *limit_flag;
} options;

typedef struct session {
    const options *o;
    const char *source;        /* file name, "standard input", or NULL */
    ptb_space *s;
    ptb_table *t;
    ptb_reader *r;
    ptb_patterns *pt;          /* a puzzle past a full table: its pattern
                                  tables, which a search answers from */
    ptb_search_opts search;    /* ... its threads */
    ptb_search_stats st;       /* ... and the last search's figures */
    ptb_solution *sol;
    char *buf;
} session;

/* ==== messages ========================================================= */

/* A usage error: one line naming the problem, then where to look. */
int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tblookup: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'tblookup --help'.\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* stdout could not be written: one line, unless the reader went away. */
static int write_error(void)
{
    int e = errno ? errno : EIO;
    if (e != EPIPE)
        fprintf(stderr, "tblookup: write error: %s\n", strerror(e));
    return EXIT_WRITE;
}

int flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout))
        return write_error();
    return 0;
}

static void print_puzzle_help(FILE *f, const ptb_puzzle *p)
{
    fprintf(f, "  %-8s %s\n", ptb_puzzle_name(p), ptb_puzzle_summary(p));
    if (ptb_puzzle_metric(p, 1)) {
        fprintf(f, "           metrics:");
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++)
            fprintf(f, " %s%s", ptb_puzzle_metric(p, m), m ? "" : " (default)");
        fprintf(f, "\n");
    }
    for (unsigned i = 0; ptb_puzzle_option(p, i); i++) {
        const ptb_option *q = ptb_puzzle_option(p, i);
        char spelled[64];
        snprintf(spelled, sizeof spelled, "--%s %s", q->name, q->value);
        fprintf(f, "           %-14s %s\n", spelled, q->help);
    }
}

static const char *tables_dir(const options *o);

/* The described puzzles of the tables directory, each once, in --help. */
static int help_described(void *arg, const char *file, const ptb_puzzle *p,
                          const char *metric)
{
    char *last = arg;
    unsigned group;
    const char *of = ptb_puzzle_pattern_of(p, &group);
    (void)file;
    (void)metric;
    if (of && group == 1 && strcmp(last, of)) {   /* answered from pattern
                                                      tables (an abstraction
                                                      has one a metric) */
        snprintf(last, 64, "%s", of);
        printf("  %-8s %s\n           answered by search from its pattern "
               "tables\n", of, ptb_puzzle_summary(p));
    } else if (!of && ptb_puzzle_description(p) &&
             strcmp(last, ptb_puzzle_name(p))) {
        snprintf(last, 64, "%s", ptb_puzzle_name(p));
        print_puzzle_help(stdout, p);
    }
    return 0;
}

static int help(const options *o)
{
    printf(
        "usage: tblookup PUZZLE [options] [POSITION...]\n"
        "       tblookup PUZZLE [options] -i FILE   (or standard input)\n"
        "       tblookup PUZZLE --stats [--metric M] [--format F]\n"
        "       tblookup --verify [--metric M] [PUZZLE]...\n"
        "       tblookup FAMILY --levels [--moves N | --at-least N] [--stats]\n"
        "                [--random [--seed S]] [--limit N] [--format F]\n"
        "       tblookup FAMILY --level N [--seed S] [--format F]\n"
        "Answers a position of PUZZLE with its least number of moves and a\n"
        "solution.  The position is the arguments (several arguments are its\n"
        "lines); without one it is read from -i FILE or standard input.\n\n"
        "  -m, --metric M     metric (puzzles with several; default the "
        "first)\n"
        "  -c, --count        print only the number of moves\n"
        "      --moves        print each move and the board after it\n"
        "  -f, --format F     native (default), json, or svg (--stats)\n"
        "  -i, --input FILE   read the position(s) from FILE ('-': standard "
        "input)\n"
        "  -b, --batch        answer records one after another to the end\n"
        "      --bfs          solve by search from scratch, without tables\n"
        "      --start        the puzzle's own start as the position (a\n"
        "                     described puzzle's drawn start)\n"
        "  -o, --option NAME=VALUE  a query option of the puzzle (below);\n"
        "                     --NAME VALUE is the same\n"
        "      --analyse      every legal move, best first, with the distance\n"
        "                     after it (or --analyze; --moves: the boards)\n"
        "      --solutions    the exact number of distinct optimal lines\n"
        "      --random-at D  positions at exactly distance D, drawn at random\n"
        "                     (--seed S, default 0; --limit N, default 1)\n"
        "      --stats        distance histogram and farthest positions\n"
        "                     (--farthest N of them; --format svg: a chart)\n"
        "      --verify       prove tables: checksums, digest, and every\n"
        "                     value against its neighbours (default: all)\n"
        "      --levels       a family's levels table (tbgen --family), a\n"
        "                     level a line, MOVES BOARD STATES, hardest\n"
        "                     first; --moves N or --at-least N chooses by\n"
        "                     moves, --random shuffles (--seed S), --limit N\n"
        "                     keeps N, --stats counts them at each moves\n"
        "      --level N      play a family's level of N moves, drawn by\n"
        "                     --seed S (default 0), and answer it\n"
        "  -j, --threads N    threads of a search from pattern tables,\n"
        "                     1..256 (default: the cores)\n"
        "  -t, --tables DIR   tables directory (default $PUZZLETB_TABLES or "
        "%s)\n"
        "  -h, --help         this help\n"
        "  -V, --version      version\n\n"
        "exit status: 0 answered, 1 no solution, 2 bad input or usage, 3 "
        "missing or\ncorrupt table, 4 output error\n\npuzzles:\n",
        PTB_TABLES_DIR);
    for (unsigned i = 0; i < ptb_puzzle_count(); i++)
        print_puzzle_help(stdout, ptb_puzzle_at(i));
    char last[64] = "";
    printf("\ndescribed puzzles with tables in %s (a puzzle named as a file "
           "with a '/'\nis read from that description):\n", tables_dir(o));
    ptb_tables_scan(tables_dir(o), help_described, last);
    return flush_stdout();
}

int lookup_help(void)
{
    options o = { 0 };
    return help(&o) ? EXIT_WRITE : -1;
}

/* --list puzzles|metrics|options [PUZZLE]: one word a line, for shell
 * completion (options print as "--NAME VALUE"). */
/* --list tables: a line per table of the directory; --list puzzles: the
 * names of the described ones, each once. */
typedef struct listing {
    int tables;
    char last[64];
} listing;

static int list_table(void *arg, const char *file, const ptb_puzzle *p,
                      const char *metric)
{
    listing *l = arg;
    unsigned group;
    if (l->tables) {
        printf("%-24s %-14s %-6s %s\n", file, ptb_puzzle_name(p), metric,
               ptb_puzzle_summary(p));
    } else if (ptb_puzzle_pattern_of(p, &group)) {
        if (group == 1)
            printf("%s\n", ptb_puzzle_pattern_of(p, NULL));
    } else if (ptb_puzzle_description(p) &&
               strcmp(l->last, ptb_puzzle_name(p))) {
        snprintf(l->last, sizeof l->last, "%s", ptb_puzzle_name(p));
        printf("%s\n", ptb_puzzle_name(p));
    }
    return 0;
}

static int list(const options *o)
{
    const ptb_puzzle *only = NULL;
    listing l = { !strcmp(o->list, "tables"), "" };
    if (l.tables) {
        int rc = ptb_tables_scan(tables_dir(o), list_table, &l);
        if (rc != PTB_OK) {
            fprintf(stderr, "tblookup: %s: %s\n", tables_dir(o),
                    ptb_strerror(rc));
            return EXIT_TABLE;
        }
        return flush_stdout();
    }
    if (o->args[0] && !(only = ptb_puzzle_find(o->args[0])))
        return usage_error("unknown puzzle '%s'", o->args[0]);
    int puzzles = !strcmp(o->list, "puzzles");
    int metrics = !strcmp(o->list, "metrics");
    if (!puzzles && !metrics && strcmp(o->list, "options"))
        return usage_error("--list takes puzzles, metrics, options or "
                           "tables, got '%s'", o->list);

    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        if (only && p != only)
            continue;
        if (puzzles)
            printf("%s\n", ptb_puzzle_name(p));
        for (unsigned m = 0; metrics && ptb_puzzle_metric(p, m); m++)
            printf("%s\n", ptb_puzzle_metric(p, m));
        for (unsigned k = 0; !puzzles && !metrics && ptb_puzzle_option(p, k);
             k++)
            printf("--%s %s\n", ptb_puzzle_option(p, k)->name,
                   ptb_puzzle_option(p, k)->value);
    }
    if (puzzles && !only)                /* then the described ones */
        ptb_tables_scan(tables_dir(o), list_table, &l);
    return flush_stdout();
}

/* ==== tables =========================================================== */

/* Tables that cannot be used: name them, and how to build them again. */
static int table_error(const session *ss, int rc)
{
    char why[1024];
    ptb_answers_why(ss->s, ss->o->tables, ss->o->puzzle, rc, why,
                    sizeof why);
    fprintf(stderr, "tblookup: %s\n", why);
    return rc == PTB_ENOMEM ? 1 : EXIT_TABLE;
}

/* The full table, which what (an option) needs. */
static int open_table(session *ss, const char *what)
{
    if (ss->t)
        return 0;
    int rc = ptb_table_open(ss->s, ss->o->tables, &ss->t);
    if (rc == PTB_OK)
        rc = ptb_reader_new(ss->t, &ss->r);
    if (rc == PTB_ENOTABLE && ptb_puzzle_patterns(ptb_space_puzzle(ss->s))) {
        char file[256];
        ptb_space_file(ss->s, file, sizeof file);
        fprintf(stderr, "tblookup: %s/%s: %s; %s needs a full table, and %s "
                "is answered by a search from its pattern tables\n",
                ss->o->tables, file, ptb_strerror(rc), what, ss->o->puzzle);
        return EXIT_TABLE;
    }
    return rc == PTB_OK ? 0 : table_error(ss, rc);
}

/* A puzzle with pattern tables is answered from its full table when it
 * has one, else by a search guided by them. */
static int open_answers(session *ss)
{
    char why[1024];
    if (ss->t || ss->pt)
        return 0;
    int rc = ptb_answers_open(ss->s, ss->o->tables, ss->o->puzzle, &ss->t,
                              &ss->pt, why, sizeof why);
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s\n", why);
        return rc == PTB_ENOMEM ? 1 : EXIT_TABLE;
    }
    rc = ss->t ? ptb_reader_new(ss->t, &ss->r) : PTB_OK;
    return rc == PTB_OK ? 0 : table_error(ss, rc);
}

/* ==== answers ========================================================== */

static void print_moves(const session *ss)
{
    const ptb_solution *sol = ss->sol;
    printf("%u\n", sol->distance);
    for (unsigned i = 0; i < sol->distance; i++) {
        char mv[128];
        ptb_format_board(ss->s, &sol->after[i], ss->buf, OUT_CAP);
        ptb_format_move(ss->s, i ? &sol->after[i - 1] : &sol->start,
                        &sol->move[i], mv, sizeof mv);
        printf("%u %s\n%s\n\n", i + 1, mv, ss->buf);
    }
}

static void print_answer(const session *ss)
{
    const ptb_solution *sol = ss->sol;
    switch (ss->o->out) {
    case OUT_COUNT:
        printf("%u\n", sol->distance);
        break;
    case OUT_MOVES:
        print_moves(ss);
        break;
    case OUT_JSON:
        if (ss->pt)                            /* with the search's figures */
            ptb_format_search_json(ss->s, sol, &ss->st, ss->buf, OUT_CAP);
        else
            ptb_format_json(ss->s, sol, ss->buf, OUT_CAP);
        printf("%s\n", ss->buf);
        break;
    default:
        ptb_format_native(ss->s, sol, ss->buf, OUT_CAP);
        fputs(ss->buf, stdout);
    }
}

/* Explains why an argument is not a position: it may have been meant as a
 * file, which is read with -i. */
static void not_a_position(const char *arg, const char *err)
{
    struct stat st;
    if (stat(arg, &st) == 0)
        fprintf(stderr, "tblookup: %s: not a position (%s); to read the "
                "file, use -i %s\n", arg, err, arg);
    else if (!strchr(arg, '\n'))
        fprintf(stderr, "tblookup: %s: not a position (%s), and no such "
                "file\n", arg, err);
    else
        fprintf(stderr, "tblookup: arguments: %s\n", err);
}

/* The option a parse error is about, spelled as given ("--first") in
 * flag, or NULL: by the rule of puzzletb.h, a message about an option's
 * value starts with "NAME: ". */
static const char *option_error(const options *o, const char *err,
                                char *flag, size_t cap)
{
    size_t len = strcspn(err, ":");
    if (err[len] != ':' || err[len + 1] != ' ')
        return NULL;
    for (unsigned i = 0; i < o->nqopt; i++)
        if (strcspn(o->qopt[i], "=") == len && !strncmp(o->qopt[i], err, len)) {
            snprintf(flag, cap, "%s%.*s", strcmp(o->qflag[i], "-o")
                     ? "--" : "-o ", (int)len, o->qopt[i]);
            return flag;
        }
    return NULL;
}

/* Where a batch record's message points: "record 3: line 9, column 2:
 * ..." when the message names a line of the record (lines in the record's
 * text count from its first line, blank ones included), else "record 3
 * (from line 7): ...". */
static void say_record(const session *ss, unsigned record, unsigned first,
                       const char *msg)
{
    unsigned rel;
    int used = 0;
    if (sscanf(msg, "line %u%n", &rel, &used) == 1 && used > 0 && rel > 0)
        fprintf(stderr, "tblookup: %s: record %u: line %u%s\n", ss->source,
                record, first + rel - 1, msg + used);
    else
        fprintf(stderr, "tblookup: %s: record %u (from line %u): %s\n",
                ss->source, record, first, msg);
}

/* ==== analysis ========================================================= */

static const char no_solution[] = "no solution: the goal cannot be reached "
                                  "from this position";

/* --solutions: the count, alone or in a JSON object. */
static int print_solutions(session *ss, const ptb_position *start,
                           unsigned n)
{
    char count[PTB_COUNT_DIGITS];
    int rc = ptb_count_solutions(ss->t, ss->r, start, n, count, sizeof count);
    if (rc == PTB_OK && ss->o->out == OUT_JSON)
        printf("{\"schema\":%d,\"puzzle\":\"%s\",\"metric\":\"%s\","
               "\"solutions\":%s}\n", PTB_JSON_SCHEMA, ss->o->puzzle,
               ptb_space_metric(ss->s), count);
    else if (rc == PTB_OK)
        printf("%s\n", count);
    return rc;
}

/* --analyse: the ranked moves as text, or the JSON answer with them.  An
 * unsolvable position is printed too, and returns PTB_NOTFOUND. */
static int print_analysis(session *ss, const ptb_position *start,
                          unsigned n)
{
    ptb_analysis *a = malloc(sizeof *a);
    int rc = a ? ptb_analyse(ss->t, ss->r, start, n, a) : PTB_ENOMEM;
    if (rc == PTB_OK && ss->o->out == OUT_JSON) {
        int solved = ptb_solve(ss->t, ss->r, &a->position, 1, ss->sol);
        if (solved != PTB_OK && solved != PTB_NOTFOUND)
            rc = solved;
        else
            ptb_format_analysis_json(ss->s, a, solved == PTB_OK ? ss->sol
                                     : NULL, ss->buf, OUT_CAP);
    } else if (rc == PTB_OK) {
        ptb_format_analysis(ss->s, a, ss->o->out == OUT_MOVES, ss->buf,
                            OUT_CAP);
    }
    if (rc == PTB_OK) {
        fputs(ss->buf, stdout);
        if (ss->o->out == OUT_JSON)
            putchar('\n');
        if (a->category == PTB_CAT_UNSOLVABLE)
            rc = PTB_NOTFOUND;
    }
    free(a);
    return rc;
}

/* --analyse or --solutions for one record; its exit status. */
static int analysis_answer(session *ss, const ptb_position *start,
                           unsigned n, unsigned record, unsigned line)
{
    int rc = ss->o->solutions ? print_solutions(ss, start, n)
                              : print_analysis(ss, start, n);
    if (rc == PTB_OK)
        return 0;
    if (rc == PTB_ECORRUPT || rc == PTB_EINVAL)
        return table_error(ss, rc);
    if (rc == PTB_NOTFOUND) {
        if (record)
            say_record(ss, record, line, no_solution);
        else
            fprintf(stderr, "tblookup: %s\n", no_solution);
        return EXIT_NOSOLUTION;
    }
    fprintf(stderr, "tblookup: %s\n", ptb_strerror(rc));
    return 1;
}

/* Whether a query option standing for the position was given. */
static int position_option(const options *o, const ptb_puzzle *p)
{
    for (unsigned i = 0; i < o->nqopt; i++)
        for (unsigned k = 0; ptb_puzzle_option(p, k); k++) {
            const ptb_option *q = ptb_puzzle_option(p, k);
            size_t len = strcspn(o->qopt[i], "=");
            if ((q->flags & PTB_OPT_POSITION) && strlen(q->name) == len &&
                !strncmp(q->name, o->qopt[i], len))
                return 1;
        }
    return 0;
}

/* --random-at D: codes of positions at distance D, one a line (or a JSON
 * object); a position given restricts the draw to its subtable. */
static int print_random(session *ss)
{
    const options *o = ss->o;
    uint32_t sub = PTB_ANY_SUBTABLE, *subs;
    uint64_t *idxs;
    unsigned limit = o->limit ? o->limit : 1, got = 0, n;
    ptb_position start[2];
    char err[256], code[256];
    int rc = open_table(ss, "--random-at");
    if (rc)
        return rc;
    if (o->text || position_option(o, ptb_space_puzzle(ss->s))) {
        if ((rc = ptb_parse(ss->s, o->text, o->qopt, start, &n, err,
                            sizeof err)) != PTB_OK) {
            if (rc == PTB_ECORRUPT)     /* a stored ranking found damaged */
                return table_error(ss, rc);
            fprintf(stderr, "tblookup: %s\n", err);
            return EXIT_USAGE;
        }
        sub = start[0].sub;
    }
    subs = malloc(limit * sizeof *subs);
    idxs = malloc(limit * sizeof *idxs);
    rc = subs && idxs ? ptb_random_at(ss->t, o->at, sub, o->seed, limit,
                                      subs, idxs, &got) : PTB_ENOMEM;
    if (rc == PTB_OK && o->out == OUT_JSON)
        printf("{\"schema\":%d,\"puzzle\":\"%s\",\"metric\":\"%s\","
               "\"distance\":%u,\"seed\":%" PRIu64 ",\"positions\":[",
               PTB_JSON_SCHEMA, o->puzzle, ptb_space_metric(ss->s), o->at,
               o->seed);
    for (unsigned i = 0; rc == PTB_OK && i < got; i++) {
        int len = ptb_format_code(ss->s, subs[i], idxs[i], code, sizeof code);
        if (len < 0)                    /* a stored ranking found damaged */
            rc = len;
        else
            printf(o->out == OUT_JSON ? "%s\"%s\"" : "%.0s%s\n",
                   i ? "," : "", code);
    }
    if (rc == PTB_OK && o->out == OUT_JSON)
        printf("]}\n");
    free(subs);
    free(idxs);
    if (rc == PTB_NOTFOUND) {
        ptb_table_info in;
        ptb_table_get_info(ss->t, &in);
        fprintf(stderr, "tblookup: no position %sis at distance %u (the "
                "farthest are at %u; --stats shows how many are at each)\n",
                sub == PTB_ANY_SUBTABLE ? "" : "of this kind (the "
                "position's subtable) ", o->at, in.max_distance);
        return EXIT_NOSOLUTION;
    }
    if (rc == PTB_ECORRUPT || rc == PTB_EINVAL)
        return table_error(ss, rc);
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(rc));
        return 1;
    }
    return 0;
}

/* The farthest positions for --stats: the table header's (up to 8), or
 * with --farthest N the N farthest, drawn layer by layer from the largest
 * distance down.  Native: a comment line per distance, then one code a
 * line (each one an input); JSON: the codes as a list. */
static int print_farthest(session *ss, const ptb_table_info *in,
                          unsigned maxd, int json)
{
    unsigned want = ss->o->farthest, nfar = in->n_farthest <= 8
                  ? in->n_farthest : 8, done = 0, got = 0;
    uint32_t *subs = malloc((want ? want : 8) * sizeof *subs);
    uint64_t *idxs = malloc((want ? want : 8) * sizeof *idxs);
    char code[256];
    int rc = subs && idxs ? PTB_OK : PTB_ENOMEM;
    printf(json ? ",\"farthest\":[" : "");
    for (unsigned d = maxd + 1; rc == PTB_OK && d-- > 0 && done <
         (want ? want : nfar);) {
        if (!want || want <= nfar) {
            got = want ? want : nfar;
            memcpy(subs, in->far_sub, got * sizeof *subs);
            memcpy(idxs, in->far_idx, got * sizeof *idxs);
        } else {
            rc = ptb_random_at(ss->t, d, PTB_ANY_SUBTABLE, 0, want - done,
                               subs, idxs, &got);
            rc = rc == PTB_NOTFOUND ? PTB_OK : rc;
        }
        if (!json && got)
            printf("# farthest: %u at distance %u\n", got, d);
        for (unsigned i = 0; rc == PTB_OK && i < got; i++) {
            code[0] = '\0';
            int len = ptb_format_code(ss->s, subs[i], idxs[i], code,
                                      sizeof code);
            if (len < 0)                /* a stored ranking found damaged */
                rc = len;
            else
                printf(json ? "%s\"%s\"" : "%.0s%s\n",
                       done + i ? "," : "", code);
        }
        done += got;
    }
    printf(json ? "]}\n" : "");
    free(subs);
    free(idxs);
    return rc == PTB_OK ? 0 : table_error(ss, rc);
}

/* Answers one record; returns the exit status it deserves.  record is 0
 * for a single query, else its number in a batch (from line 'line'). */
static int answer(session *ss, const char *text, unsigned record,
                  unsigned line)
{
    ptb_position start[2];
    unsigned n;
    char err[256];
    int rc = ptb_parse(ss->s, text, ss->o->qopt, start, &n, err, sizeof err);
    if (rc == PTB_ECORRUPT)             /* a stored ranking found damaged */
        return table_error(ss, rc);
    if (rc != PTB_OK) {
        char spelled[80];
        const char *flag = option_error(ss->o, err, spelled, sizeof spelled);
        if (flag)
            return usage_error("%s: %s", flag, err + strcspn(err, ":") + 2);
        if (record && ss->o->out == OUT_COUNT)
            printf("-2\n");                    /* keeps records aligned */
        if (record)
            say_record(ss, record, line, err);
        else if (ss->o->text && text == ss->o->text)
            not_a_position(text, err);
        else if (ss->source)
            fprintf(stderr, "tblookup: %s: %s\n", ss->source, err);
        else
            fprintf(stderr, "tblookup: %s\n", err);
        return EXIT_USAGE;
    }
    int full = ss->o->analyse || ss->o->solutions;
    if (!ss->o->bfs && (rc = full ? open_table(ss, ss->o->analyse ? "--analyse"
                                                 : "--solutions")
                          : open_answers(ss)) != 0)
        return rc;
    if (full)
        return analysis_answer(ss, start, n, record, line);
    rc = ss->o->bfs ? ptb_search(ss->s, start, n, ss->sol)
         : ss->pt ? ptb_patterns_solve(ss->pt, start, n, &ss->search,
                                       ss->sol, &ss->st)
                  : ptb_solve(ss->t, ss->r, start, n, ss->sol);
    if (rc == PTB_ECORRUPT || rc == PTB_EINVAL)
        return table_error(ss, rc);
    if (rc == PTB_NOTFOUND) {
        static const char none[] = "no solution: the goal cannot be reached "
                                   "from this position";
        if (ss->o->out == OUT_JSON)
            print_answer(ss);                  /* "distance":null */
        else if (record && ss->o->out == OUT_COUNT)
            printf("-1\n");                    /* keeps records aligned */
        if (record)
            say_record(ss, record, line, none);
        else
            fprintf(stderr, "tblookup: %s\n", none);
        return EXIT_NOSOLUTION;
    }
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(rc));
        return 1;
    }
    print_answer(ss);
    return 0;
}

/* ==== input ============================================================ */

/* Reads the whole input (one query) from fd, at most MAX_INPUT bytes, into
 * a static buffer (see out_buf in main).  Returns 0, or EXIT_USAGE after a
 * one-line message. */
static int read_all(session *ss, int fd, char **out)
{
    static char buf[MAX_INPUT + 1];
    size_t n = 0;
    ssize_t got = 1;
    while (n <= MAX_INPUT &&
           (got = read(fd, buf + n, MAX_INPUT + 1 - n)) > 0)
        n += (size_t)got;
    const char *why = got < 0 ? strerror(errno)
                      : n > MAX_INPUT ? "larger than 1 MiB: is this one "
                                        "position? (--batch reads many)"
                      : memchr(buf, '\0', n) ? "contains a NUL byte" : NULL;
    if (why) {
        fprintf(stderr, "tblookup: %s: %s%s\n", ss->source,
                got < 0 ? "read error: " : "", why);
        return EXIT_USAGE;
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

/* One line of batch input, at most LINE_CAP bytes kept. */
typedef struct line {
    char text[LINE_CAP + 2];   /* the line and its '\n', NUL-terminated */
    size_t len;
    int too_long, nul;
} line;

/* Reads one line; returns 0 at the end of input or after a read error
 * (ferror tells), 1 otherwise.  Memory is bounded: the rest of a line
 * longer than LINE_CAP is read and dropped, and the line marked. */
static int read_line(FILE *f, line *l)
{
    int c, any = 0;
    l->len = 0;
    l->too_long = l->nul = 0;
    while ((c = getc(f)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0') {
            l->nul = 1;
            c = ' ';
        }
        if (l->len < LINE_CAP)
            l->text[l->len++] = (char)c;
        else
            l->too_long = 1;
    }
    l->text[l->len++] = '\n';
    l->text[l->len] = '\0';
    return any;
}

static int blank(const char *text)
{
    if (!strncmp(text, "\xef\xbb\xbf", 3))
        text += 3;
    return text[strspn(text, " \t\r\n")] == '\0';
}

/* One record being gathered. */
typedef struct record {
    char *text;                /* RECORD_BYTES */
    size_t len;
    unsigned want, have, first, number;
    const char *bad;           /* why the record is bad, or NULL */
    unsigned bad_line;
} record;

/* A record that cannot be answered: say why and keep --count aligned. */
static int bad_record(session *ss, const record *rec)
{
    if (ss->o->out == OUT_COUNT)
        printf("-2\n");
    fprintf(stderr, "tblookup: %s: record %u: line %u: %s\n", ss->source,
            rec->number, rec->bad_line, rec->bad);
    return EXIT_USAGE;
}

#define RECORD_BYTES (RECORD_LINES * (LINE_CAP + 2) + 1)

/* Adds a line to the record; marks the record bad if the line is.  A blank
 * line inside a record is kept as "\n", so line numbers in the record's
 * text count from its first line. */
static void add_line(record *rec, const line *l, unsigned lineno, int blank)
{
    const char *text = blank ? "\n" : l->text;
    size_t len = blank ? 1 : l->len;
    const char *why = l->too_long ? "longer than 4096 bytes"
                    : l->nul ? "contains a NUL byte"
                    : rec->have + !blank > RECORD_LINES ||
                      rec->len + len >= RECORD_BYTES
                    ? "record too long (over 64 lines or 256 kB)" : NULL;
    if (why && !rec->bad) {
        rec->bad = why;
        rec->bad_line = lineno;
    }
    if (!rec->bad) {
        memcpy(rec->text + rec->len, text, len + 1);
        rec->len += len;
    }
    rec->have += !blank;
}

/* Answers record after record; records are split by ptb_record_lines()
 * or by blank lines.  A bad record is reported and the run goes on; a
 * table or output error stops it.  Status: the worst seen (2 bad record >
 * 1 no solution > 0), or 3/4 at a stop. */
static int answer_batch(session *ss, FILE *f)
{
    line *l = malloc(sizeof *l);
    record rec = { malloc(RECORD_BYTES), 0, 0, 0, 0, 0, NULL, 0 };
    unsigned lineno = 0;
    int status = 0;
    if (!l || !rec.text) {
        free(l);
        free(rec.text);
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(PTB_ENOMEM));
        return 1;
    }
    errno = 0;
    for (;;) {
        int end = !read_line(f, l);
        if (end && ferror(f)) {
            fprintf(stderr, "tblookup: %s: read error: %s\n", ss->source,
                    strerror(errno ? errno : EIO));
            status = EXIT_USAGE;
            break;
        }
        lineno += !end;
        int is_blank = end || (!l->nul && !l->too_long && blank(l->text));
        if (!is_blank && rec.have == 0) {
            rec.want = ptb_record_lines(ss->s, l->text);
            rec.first = lineno;
            rec.len = 0;
            rec.bad = NULL;
        }
        if (!end && (!is_blank || (rec.have && rec.want)))
            add_line(&rec, l, lineno, is_blank);
        int done = rec.have && (rec.want ? rec.have == rec.want || end
                                         : is_blank);
        if (done) {
            rec.number++;
            int rc = rec.bad ? bad_record(ss, &rec)
                             : answer(ss, rec.text, rec.number, rec.first);
            if (rc == EXIT_TABLE) {
                status = rc;
                break;
            }
            if (rc > status)
                status = rc;
            rec.have = 0;
            if (ferror(stdout)) {
                status = write_error();
                break;
            }
        }
        if (end)
            break;
    }
    free(l);
    free(rec.text);
    return status;
}

/* The histogram: "distance count" lines, or one JSON object.  Sizes from
 * the table are bounded before use. */
static int print_stats(session *ss)
{
    ptb_table_info in;
    int rc = open_table(ss, "--stats"), json = ss->o->out == OUT_JSON;
    if (rc)
        return rc;
    if ((rc = ptb_table_get_info(ss->t, &in)) != PTB_OK)
        return table_error(ss, rc);
    if (ss->o->out == OUT_SVG) {
        ptb_format_histogram_svg(ss->s, &in, ss->buf, OUT_CAP);
        fputs(ss->buf, stdout);
        return 0;
    }
    unsigned maxd = in.max_distance <= PTB_MAX_DISTANCE ? in.max_distance
                                                        : PTB_MAX_DISTANCE;
    if (json)
        printf("{\"puzzle\":\"%s\",\"metric\":\"%s\",\"states\":%" PRIu64
               ",\"solvable\":%" PRIu64 ",\"unsolvable\":%" PRIu64
               ",\"max_distance\":%u,\"histogram\":[", ss->o->puzzle,
               ptb_space_metric(ss->s), in.states, in.solvable,
               in.states - in.solvable, in.max_distance);
    else
        printf("# %s %s: %" PRIu64 " states, %" PRIu64 " solvable, %" PRIu64
               " unsolvable, max distance %u\ndistance count\n",
               ss->o->puzzle, ptb_space_metric(ss->s), in.states,
               in.solvable, in.states - in.solvable, in.max_distance);
    for (unsigned d = 0; d <= maxd; d++) {
        if (json)
            printf("%s%" PRIu64, d ? "," : "", in.histogram[d]);
        else
            printf("%u %" PRIu64 "\n", d, in.histogram[d]);
    }
    printf(json ? "]" : "");
    return print_farthest(ss, &in, maxd, json);
}

/* One query from the file at path (NULL: standard input), read whole with
 * read(2): a stream would cost its buffer and its calls for nothing. */
static int one_input(session *ss, const char *path)
{
    char *input;
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : 0;
    if (fd < 0) {
        fprintf(stderr, "tblookup: %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    int status = read_all(ss, fd, &input);
    if (status == 0)
        status = answer(ss, input, 0, 0);
    if (path)
        close(fd);
    return status;
}

/* --batch: records from the file at path (NULL: standard input). */
static int batch_input(session *ss, const char *path)
{
    FILE *f = path ? fopen(path, "r") : stdin;
    if (!f) {
        fprintf(stderr, "tblookup: %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    int status = answer_batch(ss, f);
    if (path)
        fclose(f);
    return status;
}

static int run(session *ss)
{
    const options *o = ss->o;
    if (o->stats)
        return print_stats(ss);
    if (o->random_at)
        return print_random(ss);
    if (o->text)
        return answer(ss, o->text, 0, 0);
    if (!o->input) {
        /* the position stands in an option (frog --n), or in stdin */
        for (unsigned i = 0; i < o->nqopt; i++) {
            size_t len = strcspn(o->qopt[i], "=");
            const ptb_puzzle *p = ptb_space_puzzle(ss->s);
            for (unsigned k = 0; ptb_puzzle_option(p, k); k++) {
                const ptb_option *q = ptb_puzzle_option(p, k);
                if ((q->flags & PTB_OPT_POSITION) &&
                    strlen(q->name) == len &&
                    !strncmp(q->name, o->qopt[i], len))
                    return answer(ss, NULL, 0, 0);
            }
        }
    }
    const char *path = o->input && strcmp(o->input, "-") ? o->input : NULL;
    ss->source = path ? path : "standard input";
    return o->batch ? batch_input(ss, path) : one_input(ss, path);
}

/* ==== the command line ================================================= */

/* The long options: the program's own, then every query option of every
 * puzzle (one entry per name; a name that is already one of the program's
 * options is left to -o).  A one-letter query option gets a short form
 * when that letter is free. */
static struct option *long_options(const char **qname, unsigned *nq,
                                   char *shorts, size_t cap)
{
    static const struct option fixed[] = {
        { "metric",  required_argument, NULL, 'm' },
        { "count",   no_argument,       NULL, 'c' },
        { "moves",   no_argument,       NULL, OPT_MOVES },
        { "format",  required_argument, NULL, 'f' },
        { "input",   required_argument, NULL, 'i' },
        { "batch",   no_argument,       NULL, 'b' },
        { "bfs",     no_argument,       NULL, OPT_BFS },
        { "option",  required_argument, NULL, 'o' },
        { "stats",   no_argument,       NULL, OPT_STATS },
        { "verify",  no_argument,       NULL, OPT_VERIFY },
        { "list",    required_argument, NULL, OPT_LIST },
        { "analyse", no_argument,       NULL, OPT_ANALYSE },
        { "analyze", no_argument,       NULL, OPT_ANALYSE },
        { "solutions", no_argument,     NULL, OPT_SOLUTIONS },
        { "random-at", required_argument, NULL, OPT_RANDOM_AT },
        { "seed",    required_argument, NULL, OPT_SEED },
        { "limit",   required_argument, NULL, OPT_LIMIT },
        { "farthest", required_argument, NULL, OPT_FARTHEST },
        { "start",   no_argument,       NULL, OPT_START },
        { "tables",  required_argument, NULL, 't' },
        { "threads", required_argument, NULL, 'j' },
        { "help",    no_argument,       NULL, 'h' },
        { "version", no_argument,       NULL, 'V' },
    };
    const unsigned nfixed = sizeof fixed / sizeof fixed[0];
    unsigned total = 0;
    for (unsigned i = 0; i < ptb_puzzle_count(); i++)
        while (ptb_puzzle_option(ptb_puzzle_at(i), total))
            total++;                       /* an upper bound is enough */
    total *= ptb_puzzle_count();
    struct option *lo = calloc(nfixed + total + 1, sizeof *lo);
    if (!lo)
        return NULL;
    memcpy(lo, fixed, sizeof fixed);
    snprintf(shorts, cap, ":m:cf:i:bo:t:j:hV");
    unsigned n = nfixed;
    *nq = 0;
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        for (unsigned k = 0; ptb_puzzle_option(p, k); k++) {
            const char *name = ptb_puzzle_option(p, k)->name;
            unsigned j = 0;
            while (j < n && strcmp(lo[j].name, name))
                j++;
            if (j < n || *nq + 1 >= MAX_QNAMES)
                continue;                  /* the rest: with -o only */
            qname[*nq] = name;
            lo[n].name = name;
            lo[n].has_arg = required_argument;
            lo[n].val = OPT_QUERY + (int)*nq;
            if (strlen(name) == 1 && !strchr(shorts, name[0]) &&
                strlen(shorts) + 3 < cap) {
                size_t len = strlen(shorts);
                shorts[len] = name[0];
                shorts[len + 1] = ':';
                shorts[len + 2] = '\0';
            }
            n++;
            ++*nq;
        }
    }
    return lo;
}

/* Records a query option "NAME=VALUE" as it was spelled. */
static int add_qopt(options *o, const char *name, const char *value,
                    const char *spelled)
{
    if (o->nqopt >= MAX_QOPT)
        return usage_error("too many query options");
    size_t len = strlen(name) + strlen(value) + 2;
    char *kv = malloc(len);
    if (!kv) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(PTB_ENOMEM));
        return 1;
    }
    snprintf(kv, len, "%s=%s", name, value);
    o->qflag[o->nqopt] = spelled;
    o->qopt[o->nqopt++] = kv;
    return 0;
}

/* A whole number from 0 to max, for flag. */
static int number_arg(const char *flag, const char *text, unsigned max,
                      unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (!*text || *end || *text == '-' || *text == '+' || errno || v > max)
        return usage_error("%s takes a number from 0 to %u, got '%s'", flag,
                           max, text);
    *out = (unsigned)v;
    return 0;
}

/* --count, --moves and --format each choose the output: one at most. */
static int set_output(options *o, int out, const char *flag)
{
    if (o->out_flag && o->out != out)
        return usage_error("%s and %s cannot be combined", o->out_flag,
                           flag);
    o->out = out;
    o->out_flag = flag;
    return 0;
}

static int parse_option(options *o, int c, const char **qname,
                        const char *optarg_, char **argv)
{
    switch (c) {
    case 'm': o->metric = optarg_; return 0;
    case 'c': return set_output(o, OUT_COUNT, "--count");
    case OPT_MOVES: return set_output(o, OUT_MOVES, "--moves");
    case 'f':
        if (!strcmp(optarg_, "svg"))
            return set_output(o, OUT_SVG, "--format svg");
        if (strcmp(optarg_, "json") && strcmp(optarg_, "native"))
            return usage_error("--format takes native or json, got '%s' "
                               "(and svg with --stats)", optarg_);
        return set_output(o, strcmp(optarg_, "json") ? OUT_NATIVE : OUT_JSON,
                          strcmp(optarg_, "json") ? "--format native"
                                                  : "--format json");
    case 'i': o->input = optarg_; return 0;
    case 'b': o->batch = 1; return 0;
    case OPT_BFS: o->bfs = 1; return 0;
    case 'o': {
        const char *eq = strchr(optarg_, '=');
        if (!eq || eq == optarg_)
            return usage_error("-o takes NAME=VALUE, got '%s'", optarg_);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - optarg_), optarg_);
        return add_qopt(o, name, eq + 1, "-o");
    }
    case OPT_STATS: o->stats = 1; return 0;
    case OPT_VERIFY: o->verify = 1; return 0;
    case OPT_LIST: o->list = optarg_; return 0;
    case OPT_ANALYSE: o->analyse = 1; return 0;
    case OPT_SOLUTIONS: o->solutions = 1; return 0;
    case OPT_START: o->start = 1; return 0;
    case OPT_RANDOM_AT:
        o->random_at = 1;
        return number_arg("--random-at", optarg_, PTB_MAX_DISTANCE, &o->at);
    case OPT_SEED: {
        char *end;
        errno = 0;
        o->seed = strtoull(optarg_, &end, 10);
        o->seed_flag = "--seed";
        if (!*optarg_ || *end || *optarg_ == '-' || errno)
            return usage_error("--seed takes a number from 0 to "
                               "18446744073709551615, got '%s'", optarg_);
        return 0;
    }
    case OPT_LIMIT:
        o->limit_flag = "--limit";
        return number_arg("--limit", optarg_, MAX_DRAW, &o->limit) ? EXIT_USAGE
               : o->limit ? 0 : usage_error("--limit takes 1 or more");
    case OPT_FARTHEST:
        if (number_arg("--farthest", optarg_, MAX_DRAW,
                       (unsigned *)&o->farthest))
            return EXIT_USAGE;
        return o->farthest ? 0 : usage_error("--farthest takes 1 or more");
    case 't': o->tables = optarg_; return 0;
    case 'j':
        if (number_arg("--threads", optarg_, 256, &o->threads))
            return EXIT_USAGE;
        return o->threads ? 0 : usage_error("--threads takes 1 to 256");
    case 'h': return help(o) ? EXIT_WRITE : -1;
    case 'V':
        printf("tblookup %s\n", ptb_version());
        return flush_stdout() ? EXIT_WRITE : -1;
    case ':':
        return usage_error("option '%s' needs a value", argv[optind - 1]);
    case '?':
        if (optopt)
            return usage_error("unknown option '-%c'", optopt);
        return usage_error("unknown option '%s'", argv[optind - 1]);
    default:
        if (c >= OPT_QUERY)
            return add_qopt(o, qname[c - OPT_QUERY], optarg_,
                            qname[c - OPT_QUERY]);
        for (unsigned k = 0; qname[k]; k++)      /* a one-letter option */
            if (qname[k][0] == c && !qname[k][1])
                return add_qopt(o, qname[k], optarg_, qname[k]);
        return usage_error("unknown option '%s'", argv[optind - 1]);
    }
}

/* The query options against the chosen puzzle and the other options. */
static int check_query_options(const options *o, const ptb_puzzle *p)
{
    for (unsigned i = 0; i < o->nqopt; i++) {
        size_t len = strcspn(o->qopt[i], "=");
        const ptb_option *q = NULL;
        for (unsigned k = 0; ptb_puzzle_option(p, k) && !q; k++) {
            q = ptb_puzzle_option(p, k);
            if (strlen(q->name) != len || strncmp(q->name, o->qopt[i], len))
                q = NULL;
        }
        const char *dash = strcmp(o->qflag[i], "-o") ? "--" : "-o ";
        if (!q)
            return usage_error("%s takes no option %s%.*s%s",
                               ptb_puzzle_name(p), dash, (int)len, o->qopt[i],
                               ptb_puzzle_option(p, 0) ? "" : " (it has none)");
        for (unsigned j = 0; j < i; j++)
            if (!strncmp(o->qopt[j], o->qopt[i], len + 1))
                return usage_error("option %s%s is given twice", dash,
                                   q->name);
        if (!(q->flags & PTB_OPT_POSITION))
            continue;
        if (o->text)
            return usage_error("--%s stands for the position: give --%s or a "
                               "position, not both", q->name, q->name);
        if (o->input || o->batch)
            return usage_error("--%s stands for the position: it cannot be "
                               "combined with %s", q->name,
                               o->batch ? "--batch" : "-i");
        if (o->stats)
            return usage_error("--stats takes no query option");
    }
    return 0;
}

/* The analysis options against each other and the rest. */
static int check_analysis(const options *o)
{
    const char *mode = o->analyse ? "--analyse" : o->solutions
                     ? "--solutions" : o->random_at ? "--random-at" : NULL;
    if (o->analyse + o->solutions + o->random_at > 1)
        return usage_error("--analyse, --solutions and --random-at cannot "
                           "be combined");
    if (!o->random_at && (o->seed_flag || o->limit_flag))
        return usage_error("%s goes with --random-at", o->seed_flag
                           ? o->seed_flag : o->limit_flag);
    if (o->farthest && !o->stats)
        return usage_error("--farthest goes with --stats");
    if (o->out == OUT_SVG && !o->stats)
        return usage_error("--format svg goes with --stats");
    if (!mode)
        return 0;
    const char *x = o->stats ? "--stats" : o->verify ? "--verify"
                  : o->bfs ? "--bfs" : o->out == OUT_COUNT ? "--count"
                  : o->out == OUT_MOVES && !o->analyse ? "--moves"
                  : o->random_at && o->batch ? "--batch"
                  : o->random_at && o->input ? "-i" : NULL;
    return x ? usage_error("%s and %s cannot be combined", mode, x) : 0;
}

/* Options that make no sense together are usage errors. */
static int check_combinations(const options *o)
{
    int rc = check_analysis(o);
    if (rc)
        return rc;
    if (o->verify) {
        const char *x = o->stats ? "--stats" : o->batch ? "--batch"
                      : o->bfs ? "--bfs" : o->input ? "-i"
                      : o->nqopt ? "query options" : o->out_flag;
        if (x)
            return usage_error("--verify and %s cannot be combined", x);
        return 0;
    }
    if (o->stats) {
        const char *x = o->batch ? "--batch" : o->bfs ? "--bfs"
                      : o->input ? "-i" : o->text ? "a position"
                      : o->out == OUT_COUNT ? "--count"
                      : o->out == OUT_MOVES ? "--moves"
                      : o->nqopt ? "query options" : NULL;
        if (x)
            return usage_error("--stats and %s cannot be combined", x);
        return 0;
    }
    if (o->bfs && o->tables)
        return usage_error("--bfs uses no tables: --tables cannot be "
                           "combined with it");
    if (o->text && o->input)
        return usage_error("give a position or -i FILE, not both");
    if (o->text && o->batch)
        return usage_error("--batch reads -i FILE or standard input, not "
                           "arguments");
    return 0;
}

/* Joins the positional arguments, one line each. */
static int join_args(options *o)
{
    size_t len = 1;
    for (char **a = o->args; *a; a++)
        len += strlen(*a) + 1;
    if (!o->args[0])
        return 0;
    if (!(o->text = malloc(len))) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(PTB_ENOMEM));
        return 1;
    }
    o->text[0] = '\0';
    for (char **a = o->args; *a; a++) {
        strcat(o->text, *a);
        if (a[1])
            strcat(o->text, "\n");
    }
    return 0;
}

/* --start: the puzzle's own start becomes the position's text. */
static int start_text(options *o, const ptb_puzzle *p)
{
    const char *x = o->text ? "a position" : o->input ? "-i"
                  : o->batch ? "--batch" : NULL;
    if (!o->start)
        return 0;
    if (x)
        return usage_error("--start stands for the position: it cannot be "
                           "combined with %s", x);
    if (!ptb_puzzle_start(p))
        return usage_error("%s has no start of its own (--start is for "
                           "described puzzles)", ptb_puzzle_name(p));
    if (!(o->text = strdup(ptb_puzzle_start(p)))) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(PTB_ENOMEM));
        return 1;
    }
    return 0;
}

/* The tables directory: --tables, $PUZZLETB_TABLES, or the default. */
static const char *tables_dir(const options *o)
{
    const char *env = getenv("PUZZLETB_TABLES");
    return o->tables ? o->tables : env && *env ? env : PTB_TABLES_DIR;
}

/* A puzzle named on the command line: built in, a description file (a
 * name with a '/'), or the description stored in the tables of that name.
 * Returns 0 or an exit status after a message. */
static int find_puzzle(const options *o, const char *name, ptb_puzzle **out)
{
    char err[256];
    int rc;
    if (strchr(name, '/')) {
        rc = ptb_puzzle_load_file(name, out, err, sizeof err);
        if (rc == PTB_OK)
            return 0;
        fprintf(stderr, "tblookup: %s: %s\n", name,
                rc == PTB_EPARSE ? err : ptb_strerror(rc));
        return EXIT_USAGE;
    }
    rc = ptb_puzzle_lookup(tables_dir(o), name, out);
    if (rc == PTB_EINVAL)
        return usage_error("unknown puzzle '%s' (not built in, and no table "
                           "of that name in %s)", name, tables_dir(o));
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s: %s: %s\n", tables_dir(o), name,
                ptb_strerror(rc));
        return rc == PTB_ENOMEM ? 1 : EXIT_TABLE;
    }
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    const char *qname[MAX_QNAMES] = { NULL };
    unsigned nq;
    char shorts[64];
    struct option *lo = long_options(qname, &nq, shorts, sizeof shorts);
    int c, rc = 0;
    if (!lo) {
        fprintf(stderr, "tblookup: %s\n", ptb_strerror(PTB_ENOMEM));
        return 1;
    }
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1)
        rc = parse_option(o, c, qname, optarg, argv);
    free(lo);
    if (rc)
        return rc;
    if (o->list || o->verify) {
        o->args = argv + optind;
        return o->list ? 0 : check_combinations(o);
    }
    if (optind >= argc)
        return usage_error("which puzzle? (tblookup --help lists them)");
    o->puzzle = argv[optind++];
    o->args = argv + optind;
    if ((rc = find_puzzle(o, o->puzzle, &o->p)) != 0)
        return rc;
    const ptb_puzzle *p = o->p;
    o->puzzle = ptb_puzzle_name(p);
    unsigned m = 0;
    while (o->metric && ptb_puzzle_metric(p, m) &&
           strcmp(ptb_puzzle_metric(p, m), o->metric))
        m++;
    if (o->metric && !ptb_puzzle_metric(p, m)) {
        char list[256];
        ptb_puzzle_metrics(p, list, sizeof list);
        return usage_error("%s has no metric '%s' (%s: %s)", o->puzzle,
                           o->metric, ptb_puzzle_metric(p, 1) ? "metrics"
                           : "its one metric", list);
    }
    if ((rc = join_args(o)) != 0 || (rc = start_text(o, p)) != 0)
        return rc;
    if ((rc = check_combinations(o)) != 0)
        return rc;
    return check_query_options(o, p);
}

/* ==== --verify ========================================================= */

/* The exit status of a space that does not open: a described puzzle's
 * ranking, read from its table, is the table's fault. */
static int space_status(int rc)
{
    return rc == PTB_EFORMAT || rc == PTB_ECORRUPT ? EXIT_TABLE : 1;
}

/* Proves one table; prints one line; returns an exit status. */
static int verify_table(const ptb_puzzle *puzzle, const char *metric,
                        const char *tables)
{
    ptb_space *s;
    ptb_table *t = NULL;
    ptb_verify_result res = { 0 };
    char file[128], code[128];
    int rc = ptb_space_new(puzzle, metric, &s);
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s: %s\n", ptb_puzzle_name(puzzle),
                ptb_strerror(rc));
        return space_status(rc);
    }
    ptb_space_file(s, file, sizeof file);
    ptb_build_opts o;
    ptb_build_opts_init(&o);            /* its thread count: the cores */
    rc = ptb_table_open(s, tables, &t);
    if (rc == PTB_OK)
        rc = ptb_verify(t, o.threads, &res);
    if (rc == PTB_OK) {
        printf("%s/%s: ok: %" PRIu64 " values proven, checksums and digest "
               "match\n", tables, file, res.checked);
    } else if (rc == PTB_ECORRUPT && res.bad_state) {
        ptb_format_code(s, res.sub, res.idx, code, sizeof code);
        fprintf(stderr, "tblookup: %s/%s: inconsistent at subtable %" PRIu32
                " index %" PRIu64 " (%s): %s\n", tables, file, res.sub,
                res.idx, code, res.what);
    } else {
        fprintf(stderr, "tblookup: %s/%s: %s%s%s\n", tables, file,
                ptb_strerror(rc), *res.what ? ": " : "", res.what);
    }
    ptb_table_close(t);
    ptb_space_close(s);
    if (rc == PTB_OK && ferror(stdout))
        return write_error();
    return rc == PTB_OK ? 0 : rc == PTB_ENOMEM ? 1 : EXIT_TABLE;
}

/* Every metric of one puzzle, or only --metric. */
static int verify_puzzle(const options *o, const ptb_puzzle *p)
{
    for (unsigned m = 0; ptb_puzzle_metric(p, m); m++) {
        if (o->metric && strcmp(o->metric, ptb_puzzle_metric(p, m)))
            continue;
        int rc = verify_table(p, ptb_puzzle_metric(p, m), o->tables);
        if (rc)
            return rc;
    }
    return 0;
}

/* The described puzzles of the tables directory, each once. */
typedef struct described {
    const options *o;
    char last[64];
    int rc;
} described;

static int verify_described(void *arg, const char *file, const ptb_puzzle *p,
                            const char *metric)
{
    described *d = arg;
    (void)file;
    (void)metric;
    if (!ptb_puzzle_description(p) || !strcmp(d->last, ptb_puzzle_name(p)))
        return 0;
    snprintf(d->last, sizeof d->last, "%s", ptb_puzzle_name(p));
    return d->rc = verify_puzzle(d->o, p);
}

/* --verify: every metric of every named puzzle (when none is named, the
 * built-in ones and the described ones whose tables are in the
 * directory); stops at the first failure. */
static int verify_all(const options *o)
{
    ptb_puzzle *named[64];
    unsigned n = 0;
    int rc = 0;
    for (char **a = o->args; *a && !rc; a++)
        if (n >= sizeof named / sizeof *named)
            rc = usage_error("too many puzzles to verify");
        else if ((rc = find_puzzle(o, *a, &named[n])) == 0)
            n++;
    for (unsigned i = 0; !rc && i < n; i++)
        rc = verify_puzzle(o, named[i]);
    for (unsigned i = 0; i < n; i++)
        ptb_puzzle_free(named[i]);
    if (*o->args || rc)
        return rc;
    for (unsigned i = 0; !rc && i < ptb_puzzle_count(); i++)
        rc = verify_puzzle(o, ptb_puzzle_at(i));
    described d = { o, "", 0 };
    if (!rc)
        ptb_tables_scan(o->tables, verify_described, &d);
    return rc ? rc : d.rc;
}

static void free_options(options *o)
{
    ptb_puzzle_free(o->p);
    for (unsigned i = 0; i < o->nqopt; i++)
        free((char *)o->qopt[i]);
    free(o->text);
}

int main(int argc, char **argv)
{
    options o = { 0 };
    session ss = { .o = &o };
    if (levels_asked(argc, argv))
        return levels_main(argc, argv, tables_dir(&o));
    int status = parse_args(argc, argv, &o);
    if (status) {
        free_options(&o);
        return status < 0 ? 0 : status;
    }
    if (o.list) {
        status = list(&o);
        free_options(&o);
        return status;
    }
    if (!o.tables)
        o.tables = getenv("PUZZLETB_TABLES");
    if (!o.tables || !*o.tables)
        o.tables = PTB_TABLES_DIR;
    if (o.verify) {
        status = verify_all(&o);
        free_options(&o);
        return status ? status : flush_stdout();
    }
    int rc = ptb_space_new(o.p, o.metric, &ss.s);
    if (rc != PTB_OK) {                 /* a stored ranking can fail */
        fprintf(stderr, "tblookup: %s: %s\n", o.puzzle, ptb_strerror(rc));
        free_options(&o);
        return space_status(rc);
    }
    /* Static, as read_all's input: a megabyte from malloc is a mapping
     * of its own, made and unmade by every process, which cost a query
     * about 10 us of its 0.1 ms; here only the pages used are touched.
     * The solution (96 kB) too: from malloc, the heap's pages after it
     * would be new ones. */
    static char out_buf[OUT_CAP];
    static ptb_solution sol;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ss.search.threads = o.threads ? o.threads
                        : cores < 1 ? 1 : cores > 256 ? 256 : (unsigned)cores;
    ss.sol = &sol;
    ss.buf = out_buf;
    status = run(&ss);
    if (status != EXIT_WRITE) {
        int w = flush_stdout();
        status = w ? w : status;
    }
    ptb_reader_free(ss.r);
    ptb_table_close(ss.t);
    ptb_patterns_close(ss.pt);
    ptb_space_close(ss.s);
    free_options(&o);
    return status;
}
