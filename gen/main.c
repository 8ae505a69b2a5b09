/* gen/main.c: tbgen, the table generator.  Parses the command line, then for
 * each chosen puzzle and metric runs ptb_build() and prints one summary line.
 * A progress bar (phase, percentage, BFS layer, time left) goes to stderr
 * when stderr is a terminal; otherwise (a long run into a log) a line a
 * minute during the search.  Puzzles and metrics come from the registry.
 *
 * Exit status: 0 every table built, 1 a table or the output directory could
 * not be made, 2 usage, 4 the summary could not be written. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "puzzletb.h"
#ifdef PTB_MPI
#include "cluster.h"           /* tbgen-mpi: this file with MPI's transport */
#endif

/* Where `--puzzle NAME` finds the descriptions the project ships, as
 * NAME.txt: the tree's puzzles/ (an installed tbgen: its data directory).
 * $PUZZLETB_PUZZLES, when set, comes first. */
#ifndef PTB_PUZZLES_DIR
#define PTB_PUZZLES_DIR "puzzles"
#endif

#define MAX_PUZZLES 32
#define MAX_METRICS 16
#define BAR_WIDTH 24
enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_WRITE = 4 };
#ifdef PTB_MPI
#define PROG "tbgen-mpi"
#else
#define PROG "tbgen"
#endif
/* long options without a short form */
enum { OPT_LIST = 256, OPT_PLAN, OPT_PROCESSES, OPT_PATTERNS, OPT_FAMILY,
       OPT_SAMPLE };

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(PROG ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry '" PROG " --help'.\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* Flushes stdout; a write error gets one line (none for a closed pipe). */
static int flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (errno != EPIPE)
        fprintf(stderr, PROG ": write error: %s\n",
                strerror(errno ? errno : EIO));
    return EXIT_WRITE;
}

static int help(void)
{
    printf(
        "usage: " PROG " [--puzzle NAME|FILE]... [--metric M]... [--out DIR]\n"
        "             [--threads N] [--level N] [--encoding E] [--quiet]\n"
        "             [--patterns] [--plan [--processes N]]\n"
        "       " PROG " --family NAME|FILE [--out DIR] [--threads N] [--quiet]\n"
        "             [--plan [--sample N] [--processes P]]\n"
        "Builds the distance tables of the named puzzles (all built-in ones\n"
        "by default), every metric of each unless --metric names some, into\n"
        "DIR (default: tables).\n\n"
        "  -p, --puzzle NAME  build this puzzle (repeatable): a built-in one,\n"
        "                     a sliding-block description FILE (a value with\n"
        "                     a '/' or an existing file), or a shipped\n"
        "                     description NAME (%s/NAME.txt)\n"
        "  -m, --metric M     build only this metric (repeatable; each named\n"
        "                     puzzle must have it)\n"
        "  -o, --out DIR      directory of the tables (created if missing)\n"
        "  -j, --threads N    worker threads, 1..256 (default: cores)\n"
        "  -l, --level N      zstd level, 1..19 (default 19)\n"
        "  -e, --encoding E   store the values as E: packed1 (a bit a state,\n"
        "                     puzzles with a parity), packed3 (mod-3\n"
        "                     values), packed4 (distances up to 14), sparse\n"
        "                     (exact values) or zstd; default: chosen by\n"
        "                     size (tables/FORMAT.md)\n"
        "  -q, --quiet        no progress bar and no summary\n"
        "      --patterns     build the pattern tables of each puzzle (the\n"
        "                     groups of its 'patterns' line or its\n"
        "                     'abstraction' lines), whose search answers\n"
        "                     puzzles too big for a full table\n"
        "      --plan         print each table's states, the memory and\n"
        "                     disk its build needs and its time, estimated;\n"
        "                     build nothing (a build that does not fit\n"
        "                     this machine is refused)\n"
        "      --processes N  with --plan: the figures of a build split\n"
        "                     between N processes (tbgen-mpi: doc/guide.md)\n"
        "      --family F     every puzzle of the family F (a file or a\n"
        "                     shipped NAME, %s/families/NAME.txt) into its\n"
        "                     levels table, DIR/NAME.levels.mdb\n"
        "      --sample N     with --plan --family: count and search 1 task\n"
        "                     in N, timed, and print the whole's time\n"
        "  -h, --help         this help\n"
        "  -V, --version      version\n\n"
        "exit status: 0 built, 1 a table could not be made, 2 usage or a "
        "bad\ndescription, 4 output error\n\npuzzles and their metrics "
        "(the first is the default):\n", PTB_PUZZLES_DIR, PTB_PUZZLES_DIR);
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        printf("  %-8s %s\n           metrics:", ptb_puzzle_name(p),
               ptb_puzzle_summary(p));
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++)
            printf(" %s", ptb_puzzle_metric(p, m));
        printf("\n");
    }
    return flush_stdout();
}

/* 99792372174 as "99,792,372,174". */
static void grouped(uint64_t v, char *buf, size_t cap)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), k = 0;
    for (int i = 0; i < n && (size_t)k + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
}

/* ==== progress ========================================================= */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct bar {
    const char *name;
    int tty;                   /* stderr is a terminal: draw the bar */
    const char *phase;         /* the phase shown */
    double phase_start, last_draw;
    int last_pct;
    unsigned layer;            /* the BFS's last layer found, or 0 */
    double log_every;          /* seconds between lines in a log */
    int family;                /* a family's run: numbers searched (2:
                                  tasks done, tbgen-mpi) */
} bar;

#define LOG_EVERY 60.0         /* seconds between progress lines in a log,
                                  unless $TBGEN_LOG_EVERY says */

/* "1:05 left", or "" when too early to tell. */
static void time_left(const bar *b, uint64_t done, uint64_t total, char *buf,
                      size_t cap)
{
    double spent = now() - b->phase_start;
    buf[0] = '\0';
    if (done == 0 || done >= total || spent < 0.5)
        return;
    double left = spent * (double)(total - done) / (double)done;
    if (left < 3600)
        snprintf(buf, cap, "%2u:%02u left", (unsigned)left / 60,
                 (unsigned)left % 60);
    else
        snprintf(buf, cap, "%uh%02u left", (unsigned)(left / 3600),
                 (unsigned)left % 3600 / 60);
}

static void draw(bar *b, const char *phase, int pct, const char *left)
{
    int fill = pct * BAR_WIDTH / 100;
    char layer[24] = "";
    if (b->layer && !strcmp(phase, "search"))
        snprintf(layer, sizeof layer, "layer %u  ", b->layer);
    fprintf(stderr, "\r%-18s %-6s [%.*s%*s] %3d%%  %s%-10s", b->name, phase,
            fill, "########################", BAR_WIDTH - fill, "", pct,
            layer, left);
    fflush(stderr);
    b->last_pct = pct;
    b->last_draw = now();
}

/* A phase is over (the next began, or the build returned): it shows 100 %
 * even when the library's last count fell short of its total. */
static void finish_phase(bar *b)
{
    if (b->phase && b->last_pct < 100)
        draw(b, b->phase, 100, "");
}

/* Into a log: a line "tbgen: FILE: layer 96, 412,000,000 of 874,614,192
 * states found, 9:12 left" every log_every seconds of the search. */
static void log_progress(bar *b, const char *phase, uint64_t done,
                         uint64_t total, double t)
{
    char d[32], n[32], left[32];
    if (!b->phase || strcmp(b->phase, phase)) {
        b->phase = phase;
        b->phase_start = b->last_draw = t;
        return;
    }
    if ((strcmp(phase, "search") && strcmp(phase, "goals")) ||
        t - b->last_draw < b->log_every)
        return;
    grouped(done, d, sizeof d);
    grouped(total, n, sizeof n);
    time_left(b, done, total, left, sizeof left);
    if (b->family)
        fprintf(stderr, PROG ": %s: %s of %s %s%s%s\n", b->name, d, n,
                b->family == 2 ? "tasks done"
                : !strcmp(phase, "goals") ? "goal layouts searched from"
                : "layouts searched",
                left[0] ? ", " : "", left + strspn(left, " "));
    else
        fprintf(stderr, PROG ": %s: layer %u, %s of %s states found%s%s\n",
                b->name, b->layer, d, n, left[0] ? ", " : "",
                left + strspn(left, " "));
    b->last_draw = t;
}

/* Draws "swap.mdb  encode [#######     ]  58%  0:04 left" on one line,
 * at most every 0.1 s and at every new percent or phase; log_progress()
 * when stderr is no terminal. */
static void show_progress(void *ctx, const char *phase, uint64_t done,
                          uint64_t total)
{
    bar *b = ctx;
    double t = now();
    char d[32], n[32], left[32];
    if (!strcmp(phase, "resume")) {
        grouped(done, d, sizeof d);
        grouped(total, n, sizeof n);
        fprintf(stderr, "%s" PROG ": %s: resumed from its checkpoint, %s of "
                "%s %s\n", b->tty ? "\r" : "", b->name, d, n,
                b->family ? "tasks done" : "states found");
        return;
    }
    if (!strcmp(phase, "layer")) {
        b->layer = (unsigned)done;
        return;
    }
    if (done > total)
        done = total;
    if (!b->tty) {
        log_progress(b, phase, done, total, t);
        return;
    }
    int pct = total ? (int)(100 * done / total) : 100;
    if (!b->phase || strcmp(b->phase, phase)) {
        finish_phase(b);
        b->phase = phase;
        b->phase_start = t;
    } else if (pct == b->last_pct ||
               (pct < 100 && t - b->last_draw < 0.1)) {
        return;
    }
    time_left(b, done, total, left, sizeof left);
    draw(b, phase, pct, left);
}

/* ==== building ========================================================= */

/* "812 B", "40.2 kB", "1.25 MB": sizes in decimal units. */
static void human_size(uint64_t bytes, char *buf, size_t cap)
{
    if (bytes < 1000)
        snprintf(buf, cap, "%" PRIu64 " B", bytes);
    else if (bytes < 1000000)
        snprintf(buf, cap, "%.1f kB", (double)bytes / 1e3);
    else if (bytes < 1000000000)
        snprintf(buf, cap, "%.2f MB", (double)bytes / 1e6);
    else
        snprintf(buf, cap, "%.2f GB", (double)bytes / 1e9);
}

/* The machine's memory and the free disk of dir, in bytes (0: unknown). */
static uint64_t machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

static uint64_t free_disk(const char *dir)
{
    struct statvfs fs;
    return statvfs(dir, &fs) == 0 ? (uint64_t)fs.f_bavail * fs.f_frsize : 0;
}

/* "under a minute", "about 2 min", "about 1 h 05 min": an estimate,
 * rounded up to a minute. */
static void human_minutes(double seconds, char *buf, size_t cap)
{
    unsigned m = (unsigned)(seconds / 60) + 1;
    if (seconds < 60)
        snprintf(buf, cap, "under a minute");
    else if (m < 60)
        snprintf(buf, cap, "about %u min", m);
    else
        snprintf(buf, cap, "about %u h %02u min", m / 60, m % 60);
}

/* --plan prints what a table needs (split between processes when
 * o->cluster says so); a build refuses one that does not fit this machine.
 * Returns 0 or EXIT_FAILED after a message. */
static int plan(const ptb_space *s, const char *file, const char *out,
                int show, const ptb_build_opts *o)
{
    ptb_build_plan pl;
    char n[32], mem[32], disk[32], ckpt[32], have[32], room[32], cpu[32];
    char wall[32], slice[32], each[32], first[32], sent[32];
    uint64_t memory = machine_memory(), space = free_disk(out);
    unsigned threads = o->threads;
    ptb_plan(s, o, &pl);
    if (pl.states == UINT64_MAX) {      /* (counted past 64 bits) */
        const ptb_puzzle *p = ptb_space_puzzle(s);
        char hint[128] = "";
        if (ptb_puzzle_patterns(p))
            snprintf(hint, sizeof hint, " (its pattern tables answer it: "
                     "tbgen --puzzle %s --patterns)", ptb_puzzle_name(p));
        fprintf(show ? stdout : stderr, "%s%s/%s: more than "
                "18,446,744,073,709,551,614 states (2^64 - 2), which no "
                "table can index%s\n", show ? "" : PROG ": ", out, file,
                hint);
        return show ? 0 : EXIT_FAILED;
    }
    uint64_t need = pl.processes == 1 ? pl.memory
                    : o->cluster->rank ? pl.process_memory
                                       : pl.first_memory;
    grouped(pl.states, n, sizeof n);
    human_size(need, mem, sizeof mem);
    human_size(pl.disk, disk, sizeof disk);
    human_size(memory, have, sizeof have);
    human_size(space, room, sizeof room);
    human_size(pl.checkpoint, ckpt, sizeof ckpt);
    if (show && pl.processes > 1) {
        grouped(pl.slice_states, slice, sizeof slice);
        human_size(pl.process_memory, each, sizeof each);
        human_size(pl.first_memory, first, sizeof first);
        human_size(pl.exchanged, sent, sizeof sent);
        human_minutes(pl.cpu_seconds, cpu, sizeof cpu);
        human_minutes(pl.cpu_seconds / threads / pl.processes, wall,
                      sizeof wall);
        printf("%s/%s: %s states on %u processes: each at most %s states "
               "and %s of memory (process 0: %s); they send each other "
               "about %s (%.2f bytes a state: %.1f moves a state, %.1f %% "
               "of them into another's slice, and the values gathered); "
               "process 0 at most %s of disk (the values it gathers and "
               "the table); the search %s of CPU, %s on %u x %u threads "
               "(from a sample)\n", out, file, n, pl.processes,
               slice, each, first, sent,
               (double)pl.exchanged / (double)(pl.states ? pl.states : 1),
               pl.moves, 100 * pl.remote, disk, cpu, wall, pl.processes,
               threads);
        return 0;
    }
    if (show && pl.moves == 0 && pl.states > 1) {   /* (no state's moves
                                                       could be listed) */
        printf("%s/%s: %s states; generation needs at most %s of memory "
               "(this machine has %s), the table at most %s of disk and "
               "its checkpoint at most %s (%s free); its search not "
               "estimated (the sample's states have no moves: their "
               "index cannot be made)\n", out, file, n, mem, have, disk,
               ckpt, room);
        return 0;
    }
    if (show) {
        human_minutes(pl.cpu_seconds, cpu, sizeof cpu);
        human_minutes(pl.cpu_seconds / threads, wall, sizeof wall);
        printf("%s/%s: %s states; generation needs at most %s of memory "
               "(this machine has %s), the table at most %s of disk and "
               "its checkpoint at most %s (%s free); its search %s of CPU, "
               "%s on %u threads (from a sample)\n", out, file, n,
               mem, have, disk, ckpt, room, cpu, wall, threads);
        return 0;
    }
    if (memory && need > memory) {
        const ptb_puzzle *p = ptb_space_puzzle(s);
        char hint[128] = "";
        if (ptb_puzzle_patterns(p))
            snprintf(hint, sizeof hint, " (its pattern tables answer it: "
                     "tbgen --puzzle %s --patterns)", ptb_puzzle_name(p));
        fprintf(stderr, PROG ": %s/%s: %s states need %s of memory during "
                "generation; this machine has %s%s\n", out, file, n, mem,
                have, hint);
        return EXIT_FAILED;
    }
    if (space && pl.disk + pl.checkpoint > space) {
        fprintf(stderr, PROG ": %s/%s: the table and its checkpoint may take "
                "%s and %s of disk; %s has %s free\n", out, file, disk, ckpt,
                out, room);
        return EXIT_FAILED;
    }
    return 0;
}

/* Builds one table; prints its summary line unless quiet.  Returns 0,
 * EXIT_FAILED or EXIT_WRITE. */
static int build_one(const ptb_puzzle *p, const char *metric,
                     const char *out, ptb_build_opts *o, int quiet,
                     int plan_only)
{
    ptb_space *s;
    ptb_table_info info;
    char file[128], size[32], ckpt[PATH_MAX];
    const char *every = getenv("TBGEN_LOG_EVERY");
    bar b = { file, isatty(2), NULL, 0, 0, -1, 0,
              every && atof(every) >= 0 ? atof(every) : LOG_EVERY, 0 };
    int rc = ptb_space_new(p, metric, &s);
    if (rc == PTB_EINVAL) {
        fprintf(stderr, PROG ": %s: too big for the description engine "
                "(a table of layouts or mixes: at most 2^40 layouts and "
                "256 MB of index; covers reachable: at most 2^26 "
                "positions)\n", ptb_puzzle_name(p));
        return EXIT_FAILED;
    }
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s: %s\n", ptb_puzzle_name(p),
                ptb_strerror(rc));
        return EXIT_FAILED;
    }
    ptb_space_file(s, file, sizeof file);
    if ((rc = plan(s, file, out, plan_only, o)) != 0 || plan_only) {
        ptb_space_close(s);
        return rc ? rc : flush_stdout();
    }
    o->progress = quiet ? NULL : show_progress;
    o->progress_ctx = &b;
    if (o->cluster)                    /* a file each process */
        snprintf(ckpt, sizeof ckpt, "%s/%s.ckpt.%u", out, file,
                 o->cluster->rank);
    else
        snprintf(ckpt, sizeof ckpt, "%s/%s.ckpt", out, file);
    o->checkpoint = ckpt;
    double t0 = now();
    rc = ptb_build(s, out, o, &info);
    o->checkpoint = NULL;
    double secs = now() - t0;
#ifdef PTB_MPI
    cluster_report(file, rc == PTB_OK ? info.states : 0);
#endif
    if (o->progress && b.tty && b.phase) {
        if (rc == PTB_OK)
            finish_phase(&b);
        fprintf(stderr, "\r%*s\r", 70, "");
    }
    ptb_space_close(s);
    if (rc == PTB_EINVAL && o->encoding) {
        fprintf(stderr, PROG ": %s/%s: the %s encoding cannot hold its "
                "values (tables/FORMAT.md)\n", out, file, o->encoding);
        return EXIT_FAILED;
    }
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s/%s: %s\n", out, file, ptb_strerror(rc));
        return EXIT_FAILED;
    }
    if (quiet)
        return 0;
    human_size(info.bytes, size, sizeof size);
    printf("%s/%s: %" PRIu64 " states, max distance %u, %s (%.3f bits a "
           "state), %.1f s\n", out, file, info.states, info.max_distance,
           size, info.states ? 8.0 * (double)info.bytes / (double)info.states
                             : 0.0, secs);
    return flush_stdout();
}

/* ==== the command line ================================================= */

typedef struct options {
    ptb_puzzle *puzzles[MAX_PUZZLES];   /* built-in or loaded */
    unsigned npuzzles;
    const char *metrics[MAX_METRICS];
    unsigned nmetrics;
    const char *out;
    const char *list;          /* --list puzzles|metrics, for completion */
    const char *family;        /* --family FILE: its puzzles, no table */
    int quiet;
    int plan;                  /* --plan: the figures, no build */
    int patterns;              /* --patterns: the pattern tables */
    ptb_cluster processes;     /* --processes N: the plan's (ranks N) */
    unsigned sample;           /* --sample N: 1 family task in N, timed */
    ptb_build_opts build;
} options;

static int has_metric(const ptb_puzzle *p, const char *metric)
{
    for (unsigned m = 0; ptb_puzzle_metric(p, m); m++)
        if (!strcmp(ptb_puzzle_metric(p, m), metric))
            return 1;
    return 0;
}

static int number(const char *arg, const char *name, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(arg, &end, 10);
    if (*end || end == arg || errno || *v < 1 || *v > hi)
        return usage_error("--%s takes a number from 1 to %ld, got '%s'",
                           name, hi, arg);
    return 0;
}

static const char *const encodings[] = { "packed1", "packed3", "packed4",
                                         "sparse", "zstd" };

/* --puzzle's value: a built-in puzzle, a description file, or a shipped
 * description's name.  Returns 0 or EXIT_USAGE after a message. */
static int find_puzzle(const char *arg, ptb_puzzle **out)
{
    char path[4096], err[256];
    const char *dir = getenv("PUZZLETB_PUZZLES");
    int rc;
    struct stat st;
    *out = (ptb_puzzle *)ptb_puzzle_find(arg);
    if (*out)
        return 0;
    if (strchr(arg, '/') || stat(arg, &st) == 0)
        snprintf(path, sizeof path, "%s", arg);
    else if (dir && snprintf(path, sizeof path, "%s/%s.txt", dir, arg) > 0 &&
             stat(path, &st) == 0)
        ;
    else if (snprintf(path, sizeof path, "%s/%s.txt", PTB_PUZZLES_DIR, arg) <=
                 0 || stat(path, &st) != 0)
        return usage_error("unknown puzzle '%s' (no built-in puzzle, file "
                           "or shipped description of that name)", arg);
    rc = ptb_puzzle_load_file(path, out, err, sizeof err);
    if (rc == PTB_EPARSE) {
        fprintf(stderr, PROG ": %s: %s\n", path, err);
        return EXIT_USAGE;
    }
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, ptb_strerror(rc));
        return EXIT_USAGE;
    }
    return 0;
}

static int parse_option(options *o, int c, char **argv)
{
    long v;
    int rc;
    switch (c) {
    case 'p':
        if (o->npuzzles >= MAX_PUZZLES)
            return usage_error("too many --puzzle options");
        if ((rc = find_puzzle(optarg, &o->puzzles[o->npuzzles])) != 0)
            return rc;
        o->npuzzles++;
        return 0;
    case 'm':
        if (o->nmetrics >= MAX_METRICS)
            return usage_error("too many --metric options");
        o->metrics[o->nmetrics++] = optarg;
        return 0;
    case 'o': o->out = optarg; return 0;
    case 'j':
        if ((rc = number(optarg, "threads", 256, &v)) != 0)
            return rc;
        o->build.threads = (unsigned)v;
        return 0;
    case 'l':
        if ((rc = number(optarg, "level", 19, &v)) != 0)
            return rc;
        o->build.zstd_level = (int)v;
        return 0;
    case 'e':
        for (unsigned i = 0; i < sizeof encodings / sizeof *encodings; i++)
            if (!strcmp(optarg, encodings[i]))
                o->build.encoding = encodings[i];
        if (!o->build.encoding)
            return usage_error("unknown encoding '%s' (packed1, packed3, "
                               "packed4, sparse or zstd)", optarg);
        return 0;
    case 'q': o->quiet = 1; return 0;
    case OPT_PLAN: o->plan = 1; return 0;
    case OPT_PATTERNS: o->patterns = 1; return 0;
    case OPT_PROCESSES:
        if ((rc = number(optarg, "processes", 1 << 20, &v)) != 0)
            return rc;
        o->processes.ranks = (unsigned)v;
        return 0;
    case OPT_LIST: o->list = optarg; return 0;
    case OPT_FAMILY: o->family = optarg; return 0;
    case OPT_SAMPLE:
        if ((rc = number(optarg, "sample", 1 << 30, &v)) != 0)
            return rc;
        o->sample = (unsigned)v;
        return 0;
    case 'h': return help() ? EXIT_WRITE : -1;
    case 'V':
        printf(PROG " %s\n", ptb_version());
        return flush_stdout() ? EXIT_WRITE : -1;
    case ':':
        return usage_error("option '%s' needs a value", argv[optind - 1]);
    default:
        if (optopt)
            return usage_error("unknown option '-%c'", optopt);
        return usage_error("unknown option '%s'", argv[optind - 1]);
    }
}

/* Every --metric must belong to every puzzle built. */
static int check_metrics(const options *o)
{
    if (o->nmetrics && !o->npuzzles)
        return usage_error("--metric needs --puzzle: metrics differ from "
                           "puzzle to puzzle");
    for (unsigned i = 0; i < o->npuzzles; i++) {
        const ptb_puzzle *p = o->puzzles[i];
        for (unsigned k = 0; k < o->nmetrics; k++)
            if (!has_metric(p, o->metrics[k])) {
                char list[256];
                ptb_puzzle_metrics(p, list, sizeof list);
                return usage_error("%s has no metric '%s' (%s)",
                                   ptb_puzzle_name(p), o->metrics[k], list);
            }
    }
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        { "puzzle",  required_argument, NULL, 'p' },
        { "metric",  required_argument, NULL, 'm' },
        { "out",     required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, 'j' },
        { "level",   required_argument, NULL, 'l' },
        { "encoding", required_argument, NULL, 'e' },
        { "quiet",   no_argument,       NULL, 'q' },
        { "plan",    no_argument,       NULL, OPT_PLAN },
        { "patterns", no_argument,      NULL, OPT_PATTERNS },
        { "processes", required_argument, NULL, OPT_PROCESSES },
        { "list",    required_argument, NULL, OPT_LIST },
        { "family",  required_argument, NULL, OPT_FAMILY },
        { "sample",  required_argument, NULL, OPT_SAMPLE },
        { "help",    no_argument,       NULL, 'h' },
        { "version", no_argument,       NULL, 'V' },
        { NULL, 0, NULL, 0 }
    };
    int c, rc = 0;
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, ":p:m:o:j:l:e:qhV", longopts,
                                   NULL)) != -1)
        rc = parse_option(o, c, argv);
    if (rc)
        return rc;
    if (o->processes.ranks && !o->plan)
        return usage_error("--processes N plans a build split between N "
                           "processes: it goes with --plan");
    for (unsigned i = 0; o->patterns && i < o->npuzzles; i++)
        if (!ptb_puzzle_patterns(o->puzzles[i]))
            return usage_error("--patterns: %s has no 'patterns' nor "
                               "'abstraction' line "
                               "(puzzletb-description(5))",
                               ptb_puzzle_name(o->puzzles[i]));
    if (o->patterns && !o->npuzzles)
        return usage_error("--patterns needs --puzzle");
    if (o->processes.ranks && !o->family)   /* (planned only: never
                                               built) */
        o->build.cluster = &o->processes;
    if (o->list)
        return 0;
    if (o->family && (o->npuzzles || o->nmetrics || o->patterns ||
                      o->build.encoding))
        return usage_error("--family FILE goes alone (with --out, --threads, "
                           "--plan, --sample, --processes and --quiet): a "
                           "family is no puzzle's table");
    if (o->sample && !(o->family && o->plan))
        return usage_error("--sample N times 1 task in N of a family: it "
                           "goes with --plan --family");
    if (optind < argc)
        return usage_error("unexpected argument '%s' (puzzles are named "
                           "with --puzzle)", argv[optind]);
    return check_metrics(o);
}

/* --list puzzles|metrics: one word a line, for shell completion; metrics
 * of the --puzzle ones (each once), or of all. */
static int list(const options *o)
{
    int metrics = !strcmp(o->list, "metrics");
    if (!metrics && strcmp(o->list, "puzzles"))
        return usage_error("--list takes puzzles or metrics, got '%s'",
                           o->list);
    for (unsigned i = 0; i < ptb_puzzle_count(); i++) {
        const ptb_puzzle *p = ptb_puzzle_at(i);
        int named = o->npuzzles == 0;
        for (unsigned k = 0; k < o->npuzzles; k++)
            named |= o->puzzles[k] == p;
        if (!metrics) {
            printf("%s\n", ptb_puzzle_name(p));
            continue;
        }
        for (unsigned m = 0; named && ptb_puzzle_metric(p, m); m++) {
            int seen = 0;              /* listed for an earlier puzzle */
            for (unsigned j = 0; j < i && !seen; j++) {
                int jnamed = o->npuzzles == 0;
                for (unsigned k = 0; k < o->npuzzles; k++)
                    jnamed |= o->puzzles[k] == ptb_puzzle_at(j);
                seen = jnamed && has_metric(ptb_puzzle_at(j),
                                            ptb_puzzle_metric(p, m));
            }
            if (!seen)
                printf("%s\n", ptb_puzzle_metric(p, m));
        }
    }
    return flush_stdout();
}

/* --family's value: a file, or a shipped family NAME
 * (PUZZLES_DIR/families/NAME.txt), read whole into buf.  Returns 0 or
 * EXIT_USAGE after a message. */
static int read_family(const char *arg, char *buf, size_t cap)
{
    char path[4096];
    const char *dir = getenv("PUZZLETB_PUZZLES");
    struct stat st;
    if (strchr(arg, '/') || stat(arg, &st) == 0)
        snprintf(path, sizeof path, "%s", arg);
    else if (dir && snprintf(path, sizeof path, "%s/families/%s.txt", dir,
                             arg) > 0 && stat(path, &st) == 0)
        ;
    else if (snprintf(path, sizeof path, "%s/families/%s.txt",
                      PTB_PUZZLES_DIR, arg) <= 0 || stat(path, &st) != 0)
        return usage_error("unknown family '%s' (no file or shipped family "
                           "of that name)", arg);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap, f) : 0;
    int bad = !f || ferror(f);
    if (f)
        fclose(f);
    if (bad || n == cap || memchr(buf, '\0', n)) {
        fprintf(stderr, PROG ": %s: %s\n", path, bad ? strerror(errno)
                : n == cap ? "longer than 64 kB: not a family"
                           : "a NUL byte: not a family");
        return EXIT_USAGE;
    }
    buf[n] = '\0';
    return 0;
}

/* The output directory: created if missing, and a directory. */
static int make_out(const char *out)
{
    struct stat st;
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, PROG ": %s: %s\n", out, strerror(errno));
        return EXIT_FAILED;
    }
    if (stat(out, &st) != 0) {
        fprintf(stderr, PROG ": %s: %s\n", out, strerror(errno));
        return EXIT_FAILED;
    }
    if (!S_ISDIR(st.st_mode))
        return usage_error("--out %s: not a directory (--out names the "
                           "folder the tables go in)", out);
    return 0;
}

/* The family's name (its 'name' line), into buf; "family" without one
 * (the family is refused later). */
static void family_name(const char *text, char *buf, size_t cap)
{
    snprintf(buf, cap, "family");
    for (const char *s = text; s && *s; s = strchr(s, '\n'), s += s != NULL) {
        int n = 0;
        char name[64];
        if (sscanf(s, "name %63[^ \t\r\n/]%n", name, &n) == 1) {
            snprintf(buf, cap, "%s", name);
            return;
        }
    }
}

/* A duration for the family plan: seconds, minutes, hours or days. */
static void human_span(double seconds, char *buf, size_t cap)
{
    if (seconds < 120)
        snprintf(buf, cap, "%.1f s", seconds);
    else if (seconds < 7200)
        snprintf(buf, cap, "%.0f min", seconds / 60);
    else if (seconds < 172800)
        snprintf(buf, cap, "%.1f h", seconds / 3600);
    else
        snprintf(buf, cap, "%.1f days", seconds / 86400);
}

/* CPU seconds this process has used, its threads' included. */
static double cpu_now(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* The counts of --plan --family, on one line: a family of blocks' goal
 * layouts (its whole, counted), another's configurations (its sample's
 * after "a sample of ...: " when 'sample', without the tasks); the memory
 * and this machine's. */
static void print_counts(const options *o, const ptb_family_counts *c,
                         const char *have, int sample)
{
    char num[32], big[32], largest[32], goals[32], mem[32], conf[32],
         tasks[32];
    grouped(c->configs, conf, sizeof conf);
    grouped(c->numbers, num, sizeof num);
    grouped(c->big, big, sizeof big);
    grouped(c->largest, largest, sizeof largest);
    grouped(c->goals, goals, sizeof goals);
    grouped(c->tasks, tasks, sizeof tasks);
    human_size(c->memory, mem, sizeof mem);
    if (c->blocks)
        printf("%s: %s goal layouts, %s of them the goal piece can leave "
               "(the searches' starts); %s tasks (%s with such goals), the "
               "largest %s; memory about %s (the largest tasks' goals, one "
               "a thread; %s here)", o->family, num, goals, tasks, conf,
               largest, mem, have);
    else
        printf("%s%s%s configurations (%s past 2^24 layouts), %s layouts "
               "numbered, the largest %s; %s candidate goals; %s%s"
               "memory at most %s (the largest configuration; %s here)",
               sample ? "" : o->family, sample ? "" : ": ", conf, big, num,
               largest, goals, sample ? "" : tasks,
               sample ? "" : " tasks; ", mem, have);
}

/* --plan --family FILE --sample N: 1 task in N searched, timed, and the
 * whole's time expected (times N; a family of blocks, times its goals
 * over the sample's, plus the count's CPU: its run counts first, as the
 * plan did in count_cpu, then searches), here and on --processes P
 * processes. */
static int family_sample(const options *o, const char *text,
                         const ptb_family_counts *c, double count_cpu,
                         const char *have)
{
    char err[256] = "", conf[32], num[32], cpu[32], wall[32], split[32],
         tasks[32], goals[32];
    ptb_family_opts fo = { .threads = o->build.threads, .every = o->sample };
    unsigned threads = o->build.threads ? o->build.threads : 1;
    uint64_t sampled = c->tasks / o->sample +
                       (c->tasks % o->sample > o->sample / 2);
    ptb_family *f = NULL;
    double w0 = now(), c0 = cpu_now();
    int rc = ptb_family_run(text, &fo, &f, err, sizeof err);
    double secs = cpu_now() - c0 - count_cpu, walled = now() - w0;
    size_t levels = f ? ptb_family_count(f) : 0;
    ptb_family_free(f);
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s: %s\n", o->family,
                err[0] ? err : ptb_strerror(rc));
        return EXIT_FAILED;
    }
    grouped(c->tasks, tasks, sizeof tasks);
    grouped(c->sampled, goals, sizeof goals);
    double scale = !c->blocks ? o->sample
                   : c->sampled ? (double)c->goals / (double)c->sampled : 0;
    if (c->blocks)
        printf("%s: a sample of 1 task in %u (%" PRIu64 " of %s tasks): %s "
               "goal layouts the goal piece can leave", o->family,
               o->sample, sampled, tasks, goals);
    else {
        printf("%s: a sample of 1 task in %u (%" PRIu64 " of %s tasks): ",
               o->family, o->sample, sampled, tasks);
        print_counts(o, c, have, 1);
    }
    printf("; its search %.1f s of CPU, %.1f s on %u thread%s, %zu "
           "levels\n", secs, walled, threads, threads == 1 ? "" : "s",
           levels);
    double total = secs * scale + count_cpu;
    human_span(total, cpu, sizeof cpu);
    human_span(total / threads, wall, sizeof wall);
    if (c->blocks) {
        grouped(c->goals, goals, sizeof goals);
        printf("%s: in all, %s goal layouts the goal piece can leave "
               "(counted: the sample's %.1f times); its count and search "
               "%s of CPU, %s here on %u thread%s", o->family, goals, scale,
               cpu, wall, threads, threads == 1 ? "" : "s");
    } else {
        grouped(c->configs * o->sample, conf, sizeof conf);
        grouped(c->numbers * o->sample, num, sizeof num);
        printf("%s: in all, about %s configurations, %s layouts numbered; "
               "its search %s of CPU, %s here on %u thread%s", o->family,
               conf, num, cpu, wall, threads, threads == 1 ? "" : "s");
    }
    if (o->processes.ranks) {
        human_span(total / threads / o->processes.ranks, split,
                   sizeof split);
        printf("; %s on %u processes of %u thread%s (tbgen-mpi -np %u: "
               "process 0 hands out the tasks)", split, o->processes.ranks,
               threads, threads == 1 ? "" : "s", o->processes.ranks + 1);
    }
    printf("\n");
    return 0;
}

/* --plan --family FILE: its counts and memory (print_counts()); with
 * --sample N, the time of 1 task in N and the whole's (family_sample());
 * 1 when the memory it needs is more than the machine's. */
static int family_plan(const options *o, const char *text)
{
    char err[256] = "", mem[32], have[32];
    ptb_family_counts c;
    ptb_family_opts fo = { .threads = o->build.threads, .every = o->sample };
    double t0 = now(), c0 = cpu_now();
    int rc = o->sample > 1 ? ptb_family_sample(text, &fo, &c, err, sizeof err)
                           : ptb_family_plan(text, fo.threads, &c, err,
                                             sizeof err);
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s: %s\n", o->family,
                err[0] ? err : ptb_strerror(rc));
        return rc == PTB_EPARSE ? EXIT_USAGE : EXIT_FAILED;
    }
    uint64_t memory = machine_memory();
    double counted = now() - t0, count_cpu = c.blocks ? cpu_now() - c0 : 0;
    human_size(c.memory, mem, sizeof mem);
    human_size(memory, have, sizeof have);
    if (o->sample < 2) {
        print_counts(o, &c, have, 0);
        printf("; counted in %.1f s (its time: --sample N)\n", counted);
    } else if ((rc = family_sample(o, text, &c, count_cpu, have)) != 0)
        return rc;
    if (memory && c.memory > memory) {
        fprintf(stderr, PROG ": %s: %s needs %s of memory, more than "
                "this machine's %s\n", o->family, c.blocks ? "its search"
                : "its largest configuration", mem, have);
        return EXIT_FAILED;
    }
    return flush_stdout();
}

#ifdef PTB_MPI
/* tbgen-mpi --family on more than one process: process 0 hands out the
 * tasks and keeps the checkpoint (cluster_family_serve()), then takes
 * every task back from it (ptb_family_run() with that checkpoint) and
 * writes the levels table; the others search the tasks they are given.
 * Every process returns the same status. */
static int family_mpi(const options *o, const char *text, const char *ckpt,
                      bar *b)
{
    char err[512] = "", msg[600] = "", size[32];
    ptb_family *fam = NULL;
    uint64_t bytes = 0;
    int status = 0, rc;
    double t0 = now();
    if (o->build.cluster->rank) {
        ptb_family_opts fo = { .threads = o->build.threads,
                               .take = cluster_family_take,
                               .give = cluster_family_give };
        rc = ptb_family_run(text, &fo, &fam, err, sizeof err);
        ptb_family_free(fam);
        if (rc != PTB_OK) {
            status = rc == PTB_EPARSE ? EXIT_USAGE : EXIT_FAILED;
            snprintf(msg, sizeof msg, "%s", err[0] ? err : ptb_strerror(rc));
        }
        cluster_family_done(status, msg);
        return cluster_agree(status);
    }
    status = cluster_family_serve(o->family, text, ckpt,
                                  o->quiet ? NULL : show_progress, b);
    if (!o->quiet && b->tty && b->phase) {
        if (!status)
            finish_phase(b);
        fprintf(stderr, "\r%*s\r", 70, "");
    }
    if (!status) {
        ptb_family_opts fo = { .threads = o->build.threads,
                               .checkpoint = ckpt };
        rc = ptb_family_run(text, &fo, &fam, err, sizeof err);
        if (rc != PTB_OK) {
            fprintf(stderr, PROG ": %s: %s\n", o->family,
                    err[0] ? err : ptb_strerror(rc));
            status = rc == PTB_EPARSE ? EXIT_USAGE : EXIT_FAILED;
        } else if ((rc = ptb_family_write(fam, o->out, &bytes)) != PTB_OK) {
            fprintf(stderr, PROG ": %s/%s.levels.mdb: %s\n", o->out,
                    ptb_family_name(fam), ptb_strerror(rc));
            status = EXIT_FAILED;
        } else if (!o->quiet) {
            human_size(bytes, size, sizeof size);
            printf("%s/%s.levels.mdb: %zu levels, %s, %.1f s on %u "
                   "processes\n", o->out, ptb_family_name(fam),
                   ptb_family_count(fam), size, now() - t0,
                   o->build.cluster->ranks);
        }
        ptb_family_free(fam);
    }
    if (!status && flush_stdout())
        status = EXIT_WRITE;
    return cluster_agree(status);
}
#endif

/* --family FILE: every puzzle of the family, into its levels table,
 * DIR/NAME.levels.mdb, through its checkpoint DIR/NAME.levels.ckpt; 2 for
 * a bad family, 1 when it cannot be solved or written. */
static int family(const options *o)
{
    static char text[65537];
    char err[512] = "", size[32], name[64], ckpt[PATH_MAX + 96];
    ptb_family *fam;
    uint64_t bytes = 0;
    int rc = read_family(o->family, text, sizeof text);
    if (rc || (rc = make_out(o->out)) != 0)
        return rc;
    if (o->plan)
        return family_plan(o, text);
    family_name(text, name, sizeof name);
    snprintf(ckpt, sizeof ckpt, "%s/%s.levels.ckpt", o->out, name);
    const char *every = getenv("TBGEN_LOG_EVERY");
    bar b = { name, isatty(2), NULL, 0, 0, -1, 0,
              every && atof(every) >= 0 ? atof(every) : LOG_EVERY, 1 };
#ifdef PTB_MPI
    if (o->build.cluster && o->build.cluster->ranks > 1) {
        b.family = 2;
        return family_mpi(o, text, ckpt, &b);
    }
#endif
    ptb_family_opts fo = { .threads = o->build.threads,
                           .progress = o->quiet ? NULL : show_progress,
                           .progress_ctx = &b, .checkpoint = ckpt };
    double t0 = now();
    rc = ptb_family_run(text, &fo, &fam, err, sizeof err);
    if (fo.progress && b.tty && b.phase) {
        if (rc == PTB_OK)
            finish_phase(&b);
        fprintf(stderr, "\r%*s\r", 70, "");
    }
    if (rc != PTB_OK) {
        fprintf(stderr, PROG ": %s: %s\n", o->family,
                err[0] ? err : ptb_strerror(rc));
        return rc == PTB_EPARSE ? EXIT_USAGE : EXIT_FAILED;
    }
    rc = ptb_family_write(fam, o->out, &bytes);
    if (rc != PTB_OK)
        fprintf(stderr, PROG ": %s/%s.levels.mdb: %s\n", o->out,
                ptb_family_name(fam), ptb_strerror(rc));
    else if (!o->quiet) {
        human_size(bytes, size, sizeof size);
        printf("%s/%s.levels.mdb: %zu levels, %s, %.1f s\n", o->out,
               ptb_family_name(fam), ptb_family_count(fam), size,
               now() - t0);
    }
    ptb_family_free(fam);
    return rc != PTB_OK ? EXIT_FAILED : flush_stdout();
}

/* Whether --metric chose metric (none given: every one). */
static int chosen(const options *o, const char *metric)
{
    int yes = o->nmetrics == 0;
    for (unsigned k = 0; k < o->nmetrics; k++)
        yes |= !strcmp(o->metrics[k], metric);
    return yes;
}

/* The pattern tables of p, each built (or planned) as a table of its
 * own, in each metric chosen (an abstraction has its puzzle's). */
static int build_patterns(const ptb_puzzle *p, options *o)
{
    int status = 0;
    for (unsigned i = 0; i < ptb_puzzle_patterns(p); i++) {
        ptb_puzzle *q;
        int rc = ptb_puzzle_pattern(p, i, &q);
        if (rc != PTB_OK) {
            fprintf(stderr, PROG ": %s: %s\n", ptb_puzzle_name(p),
                    ptb_strerror(rc));
            return EXIT_FAILED;
        }
        for (unsigned m = 0; rc != EXIT_WRITE && ptb_puzzle_metric(q, m);
             m++) {
            if (!chosen(o, ptb_puzzle_metric(q, m)))
                continue;
            rc = build_one(q, ptb_puzzle_metric(q, m), o->out, &o->build,
                           o->quiet, o->plan);
            status |= rc;
        }
        ptb_puzzle_free(q);
        if (rc == EXIT_WRITE)
            return rc;
    }
    return status;
}

static int build_all(options *o)
{
    int status = make_out(o->out);
    if (status)
        return status;
    if (o->npuzzles == 0)          /* none named: every built-in puzzle */
        for (unsigned i = 0; i < ptb_puzzle_count(); i++)
            o->puzzles[o->npuzzles++] = (ptb_puzzle *)ptb_puzzle_at(i);
    for (unsigned i = 0; i < o->npuzzles; i++) {
        const ptb_puzzle *p = o->puzzles[i];
        if (o->patterns || (o->plan && ptb_puzzle_patterns(p) &&
                            !o->nmetrics)) {   /* --plan: its tables too */
            int rc = o->patterns ? 0 : build_one(p, NULL, o->out, &o->build,
                                                 o->quiet, 1);
            if (rc == 0)
                rc = build_patterns(p, o);
            if (rc == EXIT_WRITE)
                return rc;
            status |= rc;
            continue;
        }
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++) {
            const char *metric = ptb_puzzle_metric(p, m);
            if (!chosen(o, metric))
                continue;
            int rc = build_one(p, metric, o->out, &o->build, o->quiet,
                               o->plan);
            if (rc == EXIT_WRITE)
                return rc;
            status |= rc;
        }
    }
    return status;
}

int main(int argc, char **argv)
{
    options o = { .out = "tables" };
    ptb_build_opts_init(&o.build);
#ifdef PTB_MPI
    ptb_cluster cluster;
    if (cluster_start(&argc, &argv, &cluster))
        return EXIT_FAILED;
    o.build.cluster = &cluster;
#endif
    int status = parse_args(argc, argv, &o);
    if (!status)
        status = o.list ? list(&o) : o.family ? family(&o)
                                                : build_all(&o);
    for (unsigned i = 0; i < o.npuzzles; i++)
        ptb_puzzle_free(o.puzzles[i]);
#ifdef PTB_MPI
    cluster_end();
#endif
    return status < 0 ? 0 : status;
}
