/* lookup/main.c: tblookup, the query tool.  Reads a position in a puzzle's
 * native notation, answers from the tables (or by search with --bfs) and
 * prints the answer.  Everything puzzle-specific is behind puzzletb.h.
 *
 * Exit status: 0 answered, 1 no solution (or a library failure), 2 bad input
 * or usage, 3 a missing or corrupt table. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "puzzletb.h"

#ifndef PTB_TABLES_DIR
#define PTB_TABLES_DIR "tables"
#endif
#define MAX_INPUT (1u << 20)
#define OUT_CAP (1u << 20)

enum { OUT_NATIVE, OUT_COUNT, OUT_MOVES, OUT_JSON };

typedef struct options {
    const char *puzzle, *metric, *tables, *arg;
    int out, batch, bfs, stats, verify;
    char **names;              /* --verify: the puzzles named, NULL-ended */
    const char *qopt[8];       /* "NAME=VALUE" query options, NULL-ended */
    unsigned nqopt;
    int qpos;                  /* an option stands for the position */
} options;

typedef struct session {
    const options *o;
    const char *source;        /* file name, "standard input" or the text */
    ptb_space *s;
    ptb_table *t;
    ptb_reader *r;
    ptb_solution *sol;
    char *buf;
} session;

static int usage(FILE *f, int status)
{
    fprintf(f,
        "usage: tblookup PUZZLE [options] [FILE|POSITION]\n"
        "       tblookup PUZZLE --stats [--metric M]\n"
        "       tblookup --verify [PUZZLE]...\n"
        "Answers a position of PUZZLE (read from FILE, standard input, or the\n"
        "argument itself) with its least number of moves and a solution.\n\n"
        "  -m, --metric M     metric (puzzles with several; default the "
        "first)\n"
        "  -c, --count        print only the number of moves\n"
        "      --moves        print each move and the board after it\n"
        "  -f, --format F     native (default) or json\n"
        "  -b, --batch        answer records one after another to the end\n"
        "      --bfs          solve by search from scratch, without tables\n"
        "      --first SIDE   four: the side that moves first, B or W\n"
        "  -n, --n N          frog: solve the standard start with N a side\n"
        "      --stats        distance histogram and farthest positions\n"
        "      --verify       prove tables: checksums, digest, and every\n"
        "                     value against its neighbours (default: all)\n"
        "  -t, --tables DIR   tables directory (default $PUZZLETB_TABLES or "
        "%s)\n"
        "  -h, --help         this help\n"
        "  -V, --version      version\n\n"
        "exit status: 0 answered, 1 no solution, 2 bad input, 3 missing or "
        "corrupt table\n\npuzzles:\n", PTB_TABLES_DIR);
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        fprintf(f, "  %-8s %s", ptb_puzzle_name(p), ptb_puzzle_summary(p));
        if (ptb_puzzle_metric(p, 1)) {
            fprintf(f, " (metrics:");
            for (unsigned m = 0; ptb_puzzle_metric(p, m); m++)
                fprintf(f, " %s", ptb_puzzle_metric(p, m));
            fprintf(f, ")");
        }
        fprintf(f, "\n");
    }
    return status;
}

/* A missing or corrupt table: name it and say how to rebuild it. */
static int table_error(const session *ss, int rc)
{
    char file[128];
    ptb_space_file(ss->s, file, sizeof file);
    fprintf(stderr, "tblookup: %s/%s: %s; rebuild it with 'make tables' or "
            "'tbgen --puzzle %s --out %s'\n", ss->o->tables, file,
            ptb_strerror(rc), ss->o->puzzle, ss->o->tables);
    return 3;
}

static int open_table(session *ss)
{
    if (ss->t)
        return 0;
    int rc = ptb_table_open(ss->s, ss->o->tables, &ss->t);
    if (rc == PTB_OK)
        rc = ptb_reader_new(ss->t, &ss->r);
    return rc == PTB_OK ? 0 : table_error(ss, rc);
}

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
        ptb_format_json(ss->s, sol, ss->buf, OUT_CAP);
        printf("%s\n", ss->buf);
        break;
    default:
        ptb_format_native(ss->s, sol, ss->buf, OUT_CAP);
        fputs(ss->buf, stdout);
    }
}

/* Answers one record; returns the exit status it deserves. */
static int answer(session *ss, const char *text, unsigned record,
                  unsigned line)
{
    ptb_position start[2];
    unsigned n;
    char err[256], where[64] = "";
    if (record)
        snprintf(where, sizeof where, "record %u (from line %u): ", record,
                 line);
    int rc = ptb_parse(ss->s, text, ss->o->qopt, start, &n, err, sizeof err);
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s: %s%s\n", ss->source, where, err);
        return 2;
    }
    if (!ss->o->bfs && (rc = open_table(ss)) != 0)
        return rc;
    rc = ss->o->bfs ? ptb_search(ss->s, start, n, ss->sol)
                    : ptb_solve(ss->t, ss->r, start, n, ss->sol);
    if (rc == PTB_ECORRUPT || rc == PTB_EINVAL)
        return table_error(ss, rc);
    if (rc == PTB_NOTFOUND) {
        if (ss->o->out == OUT_JSON)
            print_answer(ss);                  /* "distance":null */
        else if (record && ss->o->out == OUT_COUNT)
            printf("-1\n");                    /* keeps records aligned */
        fprintf(stderr, "tblookup: %s%s\n", where,
                "no solution: the goal cannot be reached from this position");
        return 1;
    }
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: %s%s\n", where, ptb_strerror(rc));
        return 1;
    }
    print_answer(ss);
    return 0;
}

/* Reads the whole input (one query). */
static int read_all(FILE *f, char **out)
{
    char *buf = malloc(MAX_INPUT + 1);
    if (!buf)
        return -1;
    size_t n = fread(buf, 1, MAX_INPUT + 1, f);
    if (n > MAX_INPUT || ferror(f)) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int blank(const char *line)
{
    return line[strspn(line, " \t\r\n")] == '\0';
}

/* Answers record after record; records are split by ptb_record_lines()
 * or by blank lines.  Stops at the first bad record. */
static int answer_batch(session *ss, FILE *f)
{
    char *line = NULL, *rec = malloc(MAX_INPUT);
    size_t cap = 0, len = 0;
    unsigned want = 0, have = 0, lineno = 0, first = 0, record = 0;
    int status = 0;
    ssize_t got;
    if (!rec)
        return 1;
    for (;;) {
        got = getline(&line, &cap, f);
        int end = got < 0;
        if (!end)
            lineno++;
        int is_blank = end || blank(line);
        if (!is_blank && have == 0) {
            want = ptb_record_lines(ss->s, line);
            first = lineno;
            len = 0;
        }
        if (!is_blank && len + (size_t)got < MAX_INPUT) {
            memcpy(rec + len, line, (size_t)got + 1);
            len += (size_t)got;
            have++;
        }
        int done = have && (want ? have == want || end : is_blank);
        if (done) {
            int rc = answer(ss, rec, ++record, first);
            if (rc == 2 || rc == 3) {
                status = rc;
                break;
            }
            status |= rc;
            have = 0;
        }
        if (end)
            break;
    }
    free(line);
    free(rec);
    fflush(stdout);
    return status;
}

/* The histogram: "distance count" lines, or one JSON object. */
static int print_stats(session *ss)
{
    ptb_table_info in;
    char code[128];
    int rc = open_table(ss), json = ss->o->out == OUT_JSON;
    if (rc)
        return rc;
    ptb_table_get_info(ss->t, &in);
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
    for (unsigned d = 0; d <= in.max_distance; d++) {
        if (json)
            printf("%s%" PRIu64, d ? "," : "", in.histogram[d]);
        else
            printf("%u %" PRIu64 "\n", d, in.histogram[d]);
    }
    printf(json ? "],\"farthest\":[" : "farthest");
    for (unsigned i = 0; i < in.n_farthest; i++) {
        ptb_format_code(ss->s, in.far_sub[i], in.far_idx[i], code,
                        sizeof code);
        printf(json ? "%s\"%s\"" : "%s%s", json && !i ? "" : json ? "," : " ",
               code);
    }
    printf(json ? "]}\n" : "\n");
    return 0;
}

/* Where the query comes from: a file named by the argument, the argument
 * itself (a code or a one-line position), or standard input. */
static FILE *open_input(session *ss, const char **text)
{
    const char *arg = ss->o->arg;
    struct stat st;
    *text = NULL;
    if (!arg || !strcmp(arg, "-")) {
        ss->source = "standard input";
        return stdin;
    }
    ss->source = arg;
    if (stat(arg, &st) != 0) {
        *text = arg;
        return NULL;
    }
    FILE *f = fopen(arg, "r");
    if (!f)
        fprintf(stderr, "tblookup: %s: %s\n", arg, strerror(errno));
    return f;
}

static int run(session *ss)
{
    const char *text;
    char *input = NULL;
    if (ss->o->stats)
        return print_stats(ss);
    if (ss->o->qpos)
        return answer(ss, NULL, 0, 0);
    FILE *f = open_input(ss, &text);
    if (!f && !text)
        return 2;
    if (text)
        return answer(ss, text, 0, 0);
    int status;
    if (ss->o->batch) {
        status = answer_batch(ss, f);
    } else if (read_all(f, &input) != 0) {
        fprintf(stderr, "tblookup: %s: unreadable or larger than %u bytes\n",
                ss->source, MAX_INPUT);
        status = 2;
    } else {
        status = answer(ss, input, 0, 0);
    }
    free(input);
    if (f != stdin)
        fclose(f);
    return status;
}

static int parse_args(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        { "metric",  required_argument, NULL, 'm' },
        { "count",   no_argument,       NULL, 'c' },
        { "moves",   no_argument,       NULL, 'M' },
        { "format",  required_argument, NULL, 'f' },
        { "batch",   no_argument,       NULL, 'b' },
        { "bfs",     no_argument,       NULL, 'B' },
        { "first",   required_argument, NULL, 'F' },
        { "n",       required_argument, NULL, 'n' },
        { "stats",   no_argument,       NULL, 'S' },
        { "verify",  no_argument,       NULL, 'Y' },
        { "tables",  required_argument, NULL, 't' },
        { "help",    no_argument,       NULL, 'h' },
        { "version", no_argument,       NULL, 'V' },
        { NULL, 0, NULL, 0 }
    };
    int c;
    while ((c = getopt_long(argc, argv, "m:cf:bn:t:hV", longopts, NULL))
           != -1) {
        switch (c) {
        case 'm': o->metric = optarg; break;
        case 'c': o->out = OUT_COUNT; break;
        case 'M': o->out = OUT_MOVES; break;
        case 'f':
            if (strcmp(optarg, "json") && strcmp(optarg, "native")) {
                fprintf(stderr, "tblookup: --format takes native or json, "
                        "got '%s'\n", optarg);
                return 2;
            }
            o->out = strcmp(optarg, "json") ? OUT_NATIVE : OUT_JSON;
            break;
        case 'b': o->batch = 1; break;
        case 'B': o->bfs = 1; break;
        case 'F':
        case 'n': {
            size_t len = strlen(optarg) + 8;
            char *kv = malloc(len);
            if (!kv || o->nqopt + 1 >= sizeof o->qopt / sizeof *o->qopt)
                return 1;
            snprintf(kv, len, "%s=%s", c == 'F' ? "first" : "n", optarg);
            o->qopt[o->nqopt++] = kv;
            o->qpos |= c == 'n';
            break;
        }
        case 'S': o->stats = 1; break;
        case 'Y': o->verify = 1; break;
        case 't': o->tables = optarg; break;
        case 'h': return usage(stdout, 0) - 1;
        case 'V': printf("tblookup %s\n", ptb_version()); return -1;
        default:  return usage(stderr, 2);
        }
    }
    if (o->verify) {
        o->names = argv + optind;
        return 0;
    }
    if (optind >= argc) {
        fprintf(stderr, "tblookup: which puzzle?\n");
        return usage(stderr, 2);
    }
    o->puzzle = argv[optind++];
    if (optind < argc)
        o->arg = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "tblookup: unexpected argument '%s'\n", argv[optind]);
        return usage(stderr, 2);
    }
    return 0;
}

/* Proves one table; prints one line; returns an exit status. */
static int verify_table(const char *puzzle, const char *metric,
                        const char *tables)
{
    ptb_space *s;
    ptb_table *t = NULL;
    ptb_verify_result res = { 0 };
    char file[128], code[128];
    if (ptb_space_open(puzzle, metric, &s) != PTB_OK)
        return 1;
    ptb_space_file(s, file, sizeof file);
    ptb_build_opts o;
    ptb_build_opts_init(&o);            /* its thread count: the cores */
    int rc = ptb_table_open(s, tables, &t);
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
    return rc == PTB_OK ? 0 : rc == PTB_ENOMEM ? 1 : 3;
}

/* --verify: every metric of every named puzzle (all when none is named);
 * stops at the first failure. */
static int verify_all(const options *o)
{
    for (char **n = o->names; *n; n++)
        if (!ptb_puzzle_find(*n)) {
            fprintf(stderr, "tblookup: unknown puzzle '%s'\n", *n);
            return 2;
        }
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        int named = !*o->names;
        for (char **n = o->names; *n; n++)
            named |= !strcmp(*n, ptb_puzzle_name(p));
        for (unsigned m = 0; named && ptb_puzzle_metric(p, m); m++) {
            if (o->metric && strcmp(o->metric, ptb_puzzle_metric(p, m)))
                continue;
            int rc = verify_table(ptb_puzzle_name(p), ptb_puzzle_metric(p, m),
                                  o->tables);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o = { 0 };
    session ss = { &o, NULL, NULL, NULL, NULL, NULL, NULL };
    int status = parse_args(argc, argv, &o);
    if (status)
        return status < 0 ? 0 : status;
    if (!o.tables)
        o.tables = getenv("PUZZLETB_TABLES");
    if (!o.tables || !*o.tables)
        o.tables = PTB_TABLES_DIR;
    if (o.verify)
        return verify_all(&o);
    int rc = ptb_space_open(o.puzzle, o.metric, &ss.s);
    if (rc != PTB_OK) {
        fprintf(stderr, "tblookup: unknown %s '%s'\n",
                ptb_puzzle_find(o.puzzle) ? "metric" : "puzzle",
                ptb_puzzle_find(o.puzzle) ? o.metric : o.puzzle);
        return rc == PTB_EINVAL ? 2 : 1;
    }
    ss.sol = malloc(sizeof *ss.sol);
    ss.buf = malloc(OUT_CAP);
    status = ss.sol && ss.buf ? run(&ss) : 1;
    fflush(stdout);
    free(ss.sol);
    free(ss.buf);
    ptb_reader_free(ss.r);
    ptb_table_close(ss.t);
    ptb_space_close(ss.s);
    return status;
}
