/* gen/main.c: tbgen, the table generator.  Parses the command line, then for
 * each chosen puzzle and metric runs ptb_build() and prints one summary line.
 * A progress bar goes to stderr when stderr is a terminal. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "puzzletb.h"

#define MAX_PUZZLES 32

static int usage(FILE *f, int status)
{
    fprintf(f,
        "usage: tbgen [--puzzle NAME]... [--out DIR] [--threads N] [--level N]"
        " [--quiet]\n"
        "Builds the distance tables of the named puzzles (all by default),\n"
        "every metric of each, into DIR (default: tables).\n\n"
        "  -p, --puzzle NAME  build this puzzle (repeatable)\n"
        "  -o, --out DIR      directory of the tables (created if missing)\n"
        "  -j, --threads N    worker threads, 1..256 (default: cores)\n"
        "  -l, --level N      zstd level, 1..19 (default 19)\n"
        "  -q, --quiet        no progress bar and no summary\n"
        "  -h, --help         this help\n"
        "  -V, --version      version\n\npuzzles:\n");
    for (unsigned i = 0; i < ptb_puzzle_count(); i++)
        fprintf(f, "  %-8s %s\n", ptb_puzzle_name(ptb_puzzle_at(i)),
                ptb_puzzle_summary(ptb_puzzle_at(i)));
    return status;
}

typedef struct bar {
    const char *name;
    int last;
} bar;

static void show_progress(void *ctx, const char *phase, uint64_t done,
                          uint64_t total)
{
    bar *b = ctx;
    (void)phase;
    int pct = total ? (int)(100 * done / total) : 100;
    if (pct == b->last)
        return;
    b->last = pct;
    int fill = pct * 30 / 100;
    fprintf(stderr, "\r%-14s [%.*s%*s] %3d%%", b->name, fill,
            "##############################", 30 - fill, "", pct);
    fflush(stderr);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Builds one table; prints its summary line unless quiet. */
static int build_one(const char *puzzle, const char *metric, const char *out,
                     ptb_build_opts *o, int quiet)
{
    ptb_space *s;
    ptb_table_info info;
    char file[128];
    bar b = { file, -1 };
    int rc = ptb_space_open(puzzle, metric, &s);
    if (rc != PTB_OK) {
        fprintf(stderr, "tbgen: %s: %s\n", puzzle, ptb_strerror(rc));
        return 1;
    }
    ptb_space_file(s, file, sizeof file);
    o->progress = !quiet && isatty(2) ? show_progress : NULL;
    o->progress_ctx = &b;
    double t0 = now();
    rc = ptb_build(s, out, o, &info);
    double secs = now() - t0;
    if (o->progress)
        fprintf(stderr, "\r%60s\r", "");
    if (rc != PTB_OK) {
        fprintf(stderr, "tbgen: %s/%s: %s\n", out, file, ptb_strerror(rc));
    } else if (!quiet) {
        printf("%-18s %10" PRIu64 " states  max %3u  %9" PRIu64 " bytes  "
               "%.3f bits/value  %.2f s\n", file, info.states,
               info.max_distance, info.bytes,
               info.states ? 8.0 * (double)info.bytes / (double)info.states : 0,
               secs);
        fflush(stdout);
    }
    ptb_space_close(s);
    return rc == PTB_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "puzzle",  required_argument, NULL, 'p' },
        { "out",     required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, 'j' },
        { "level",   required_argument, NULL, 'l' },
        { "quiet",   no_argument,       NULL, 'q' },
        { "help",    no_argument,       NULL, 'h' },
        { "version", no_argument,       NULL, 'V' },
        { NULL, 0, NULL, 0 }
    };
    const char *puzzles[MAX_PUZZLES], *out = "tables";
    unsigned npuzzles = 0;
    int quiet = 0, c;
    ptb_build_opts o;
    char *end;
    ptb_build_opts_init(&o);
    while ((c = getopt_long(argc, argv, "p:o:j:l:qhV", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (!ptb_puzzle_find(optarg)) {
                fprintf(stderr, "tbgen: unknown puzzle '%s'\n", optarg);
                return usage(stderr, 2);
            }
            if (npuzzles < MAX_PUZZLES)
                puzzles[npuzzles++] = optarg;
            break;
        case 'o': out = optarg; break;
        case 'j':
        case 'l': {
            long v = strtol(optarg, &end, 10);
            long hi = c == 'j' ? 256 : 19;
            if (*end || end == optarg || v < 1 || v > hi) {
                fprintf(stderr, "tbgen: --%s takes a number from 1 to %ld, "
                        "got '%s'\n", c == 'j' ? "threads" : "level", hi,
                        optarg);
                return 2;
            }
            if (c == 'j')
                o.threads = (unsigned)v;
            else
                o.zstd_level = (int)v;
            break;
        }
        case 'q': quiet = 1; break;
        case 'h': return usage(stdout, 0);
        case 'V': printf("tbgen %s\n", ptb_version()); return 0;
        default:  return usage(stderr, 2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "tbgen: unexpected argument '%s'\n", argv[optind]);
        return usage(stderr, 2);
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "tbgen: %s: %s\n", out, strerror(errno));
        return 1;
    }
    if (npuzzles == 0)           /* none named: every puzzle */
        for (unsigned i = 0; i < ptb_puzzle_count(); i++)
            puzzles[npuzzles++] = ptb_puzzle_name(ptb_puzzle_at(i));
    int status = 0;
    for (unsigned i = 0; i < npuzzles; i++) {
        const ptb_puzzle *p = ptb_puzzle_find(puzzles[i]);
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++)
            status |= build_one(puzzles[i], ptb_puzzle_metric(p, m), out, &o,
                                quiet);
    }
    return status;
}
