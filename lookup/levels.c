/* lookup/levels.c: tblookup FAMILY --levels | --level N | --stats: a
 * family's levels table (tbgen --family) listed, counted, drawn from and
 * played.  Everything is the library's (ptb_levels_*); this file reads
 * the command line and prints.
 *
 * Exit status as tblookup's: 0 done, 1 no level of those moves, 2 usage,
 * 3 a missing, unreadable or corrupt levels table, 4 an output error. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lookup.h"

typedef struct lv_options {
    const char *family, *tables;
    int list, stats, random, json;
    int play;                  /* --level N */
    unsigned level;            /* its moves */
    unsigned lo, hi;           /* --moves N, --at-least N */
    size_t limit;              /* 0: all */
    uint64_t seed;
} lv_options;

enum { LV_LEVELS = 256, LV_LEVEL, LV_MOVES, LV_AT_LEAST, LV_RANDOM,
       LV_SEED, LV_LIMIT, LV_STATS };

static int lv_number(const char *flag, const char *text, uint64_t max,
                     uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end || *text == '-' || *text == '+' || errno || v > max)
        return usage_error("%s takes a number from 0 to %" PRIu64 ", got "
                           "'%s'", flag, max, text);
    *out = v;
    return 0;
}

static int lv_option(lv_options *o, int c, const char *arg)
{
    uint64_t v = 0;
    int rc = 0;
    switch (c) {
    case LV_LEVELS: o->list = 1; return 0;
    case LV_STATS: o->stats = 1; return 0;
    case LV_RANDOM: o->random = 1; return 0;
    case LV_LEVEL:
        o->play = 1;
        rc = lv_number("--level", arg, PTB_MAX_DISTANCE, &v);
        o->level = (unsigned)v;
        return rc;
    case LV_MOVES:
        rc = lv_number("--moves", arg, PTB_MAX_DISTANCE, &v);
        o->lo = o->hi = (unsigned)v;
        return rc;
    case LV_AT_LEAST:
        rc = lv_number("--at-least", arg, PTB_MAX_DISTANCE, &v);
        o->lo = (unsigned)v;
        return rc;
    case LV_SEED: return lv_number("--seed", arg, UINT64_MAX, &o->seed);
    case LV_LIMIT:
        rc = lv_number("--limit", arg, SIZE_MAX, &v);
        o->limit = (size_t)v;
        return rc ? rc : v ? 0 : usage_error("--limit takes 1 or more");
    case 'f':
        if (strcmp(arg, "native") && strcmp(arg, "json"))
            return usage_error("--format with a family's levels is native "
                               "or json, got '%s'", arg);
        o->json = !strcmp(arg, "json");
        return 0;
    case 't': o->tables = arg; return 0;
    case 'h': return lookup_help();
    case ':': return usage_error("option '%s' needs a value",
                                 arg ? arg : "?");
    default: return usage_error("'%s' is no option of a family's "
                                "--levels or --level", arg ? arg : "?");
    }
}

static int lv_args(int argc, char **argv, lv_options *o)
{
    static const struct option lo[] = {
        { "levels",   no_argument,       NULL, LV_LEVELS },
        { "level",    required_argument, NULL, LV_LEVEL },
        { "moves",    required_argument, NULL, LV_MOVES },
        { "at-least", required_argument, NULL, LV_AT_LEAST },
        { "random",   no_argument,       NULL, LV_RANDOM },
        { "seed",     required_argument, NULL, LV_SEED },
        { "limit",    required_argument, NULL, LV_LIMIT },
        { "stats",    no_argument,       NULL, LV_STATS },
        { "format",   required_argument, NULL, 'f' },
        { "tables",   required_argument, NULL, 't' },
        { "help",     no_argument,       NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    int c, rc = 0;
    o->hi = PTB_MAX_DISTANCE;
    opterr = 0;
    optind = 1;
    while (!rc && (c = getopt_long(argc, argv, ":f:t:h", lo, NULL)) != -1)
        rc = lv_option(o, c, c == ':' || c == '?' ? argv[optind - 1]
                                                  : optarg);
    if (rc)
        return rc;
    if (optind >= argc)
        return usage_error("which family? (tblookup FAMILY --levels)");
    o->family = argv[optind++];
    if (optind < argc)
        return usage_error("unexpected argument '%s' (a family's levels "
                           "take no position)", argv[optind]);
    if (o->list == o->play)
        return usage_error("--levels lists a family's levels, --level N "
                           "plays one: give one of them");
    if (o->play && (o->random || o->limit || o->stats || o->lo ||
                    o->hi != PTB_MAX_DISTANCE))
        return usage_error("--level N draws one level of N moves (with "
                           "--seed): --moves, --at-least, --random, "
                           "--limit and --stats go with --levels");
    if (o->stats && (o->random || o->limit))
        return usage_error("--levels --stats counts every level chosen: "
                           "--random and --limit cannot be combined with it");
    if (o->lo > o->hi)
        return usage_error("--at-least %u and --moves %u choose no level",
                           o->lo, o->hi);
    return 0;
}

/* The table's error, one line; the exit status. */
static int lv_error(const lv_options *o, int rc)
{
    int rebuild = rc == PTB_EVERSION || rc == PTB_ECORRUPT ||
                  rc == PTB_ETRUNC || rc == PTB_EFORMAT;
    fprintf(stderr, "tblookup: %s/%s.levels.mdb: %s%s%s%s%s\n", o->tables,
            o->family, ptb_strerror(rc),
            rc == PTB_ENOTABLE ? " (tbgen --family builds it)" : "",
            rebuild ? "; rebuild it with 'tbgen --family " : "",
            rebuild ? o->family : "", rebuild ? "'" : "");
    return rc == PTB_ENOMEM ? 1 : EXIT_TABLE;
}

/* The text of the levels read before the first is printed, at most
 * (bytes; $TBLOOKUP_LEVELS_BUFFER, for the tests, says otherwise). */
#define LIST_BUFFER ((size_t)64 << 20)

/* Level i's text into o's buffer *out (*len bytes, room *cap), JSON after
 * a ",\n" or "\n" (first), else with its newline: 0, or the PTB_E code. */
static int lv_text(const ptb_levels *l, const lv_options *o, size_t i,
                   int first, char **out, size_t *len, size_t *cap,
                   char *buf)
{
    int m = o->json ? ptb_format_level_json(l, i, buf, OUT_CAP)
                    : ptb_format_level(l, i, buf, OUT_CAP);
    if (m < 0)
        return m;
    if (*len + (size_t)m + 3 > *cap) {
        size_t c = *cap ? *cap * 2 : 65536;
        while (c < *len + (size_t)m + 3)
            c *= 2;
        char *b = realloc(*out, c);
        if (!b)
            return PTB_ENOMEM;
        *out = b;
        *cap = c;
    }
    if (o->json)
        *len += (size_t)sprintf(*out + *len, "%s\n%s", first ? "" : ",", buf);
    else
        *len += (size_t)sprintf(*out + *len, "%s\n", buf);
    return 0;
}

/* --levels: the chosen ones, a line each (or a JSON array).  Every level
 * chosen is read (its block checked) before the first is printed, so
 * that a damaged table prints nothing: their text is kept as they are
 * read, up to LIST_BUFFER bytes; past that, the rest are only read
 * (checked), then read again to be printed. */
static int lv_list(const ptb_levels *l, const lv_options *o, char *buf)
{
    size_t first, n, k, kept = 0, len = 0, cap = 0, most = LIST_BUFFER;
    const char *env = getenv("TBLOOKUP_LEVELS_BUFFER");
    char *text = NULL;
    ptb_level lv;
    int rc = PTB_OK;
    if (env && *env)
        most = strtoull(env, NULL, 10);
    ptb_levels_range(l, o->lo, o->hi, &first, &n);
    k = o->limit && o->limit < n ? o->limit : n;
    size_t *pick = malloc((k ? k : 1) * sizeof *pick);
    if (!pick)
        return lv_error(o, PTB_ENOMEM);
    if (o->random)
        k = ptb_levels_draw(l, first, n, o->seed, k, pick);
    else
        for (size_t i = 0; i < k; i++)
            pick[i] = first + i;
    for (; rc == PTB_OK && kept < k && len < most; kept++)
        rc = lv_text(l, o, pick[kept], kept == 0, &text, &len, &cap, buf);
    for (size_t i = kept; rc == PTB_OK && i < k; i++)
        rc = ptb_levels_get(l, pick[i], &lv);
    if (rc != PTB_OK) {
        free(text);
        free(pick);
        return lv_error(o, rc);
    }
    if (o->json)
        fputs("[", stdout);
    if (len)
        fwrite(text, 1, len, stdout);
    for (size_t i = kept; rc == PTB_OK && i < k; i++) {
        len = 0;
        if ((rc = lv_text(l, o, pick[i], i == 0, &text, &len, &cap, buf)) == 0)
            fwrite(text, 1, len, stdout);
    }
    free(text);
    if (rc < 0) {                /* (read once already: out of memory) */
        free(pick);
        return lv_error(o, rc);
    }
    if (o->json)
        puts(k ? "\n]" : "]");
    free(pick);
    return flush_stdout();
}

/* --levels --stats: how many levels chosen at each number of moves,
 * hardest first (the table's statistics: no level is read). */
static int lv_stats(const ptb_levels *l, const lv_options *o)
{
    size_t first, n, total;
    int any = 0;
    ptb_levels_range(l, o->lo, o->hi, &first, &total);
    if (o->json)
        printf("{\"family\":\"%s\",\"levels\":%zu,\"counts\":[",
               ptb_levels_name(l), total);
    for (unsigned m = o->hi < PTB_LEVEL_MOVES ? o->hi : PTB_LEVEL_MOVES;
         m + 1 > o->lo; m--) {
        ptb_levels_range(l, m, m, &first, &n);
        if (n && o->json)
            printf("%s[%u,%zu]", any ? "," : "", m, n);
        else if (n)
            printf("%02u %zu\n", m, n);
        any |= n > 0;
        if (m == 0)
            break;
    }
    if (o->json)
        puts("]}");
    return flush_stdout();
}

/* --level N: a level of N moves drawn (--seed), played and answered. */
static int lv_play(const ptb_levels *l, const lv_options *o, char *buf)
{
    static ptb_solution sol;
    size_t first, n, i;
    ptb_puzzle *p;
    ptb_space *s;
    ptb_levels_range(l, o->level, o->level, &first, &n);
    if (!ptb_levels_draw(l, first, n, o->seed, 1, &i)) {
        fprintf(stderr, "tblookup: %s: no level of %u moves\n", o->family,
                o->level);
        return EXIT_NOSOLUTION;
    }
    int rc = ptb_level_solve(l, i, &p, &s, &sol);
    if (rc != PTB_OK)
        return lv_error(o, rc);
    if (o->json) {
        ptb_format_level_json(l, i, buf, OUT_CAP);
        printf("{\"level\":%s,\"answer\":", buf);
        ptb_format_json(s, &sol, buf, OUT_CAP);
        printf("%s}\n", buf);
    } else {
        ptb_format_level(l, i, buf, OUT_CAP);
        printf("level %s\n", buf);
        ptb_format_native(s, &sol, buf, OUT_CAP);
        fputs(buf, stdout);
    }
    ptb_space_close(s);
    ptb_puzzle_free(p);
    return flush_stdout();
}

int levels_main(int argc, char **argv, const char *tables)
{
    static char buf[OUT_CAP];
    lv_options o = { .tables = tables };
    ptb_levels *l;
    int rc = lv_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((rc = ptb_levels_open(o.tables, o.family, &l)) != PTB_OK)
        return rc == PTB_EINVAL ? usage_error("'%s' is no family's name",
                                              o.family)
                                : lv_error(&o, rc);
    rc = o.stats ? lv_stats(l, &o) : o.list ? lv_list(l, &o, buf)
                                            : lv_play(l, &o, buf);
    ptb_levels_close(l);
    return rc;
}

/* Whether the command line asks for a family's levels. */
int levels_asked(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--levels") || !strcmp(argv[i], "--level") ||
            !strncmp(argv[i], "--level=", 8))
            return 1;
    return 0;
}
