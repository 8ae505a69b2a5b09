/* serve/api.c: the JSON API of tbserve, version 1.
 *
 *   GET /api/v1/puzzles                 puzzles, metrics, options, tables
 *   GET /api/v1/PUZZLE?position=..&metric=..[&moves=..][&NAME=VALUE]..
 *       the position's analysis and optimal line, in the library's JSON
 *       (ptb_format_analysis_json(), what tblookup --analyse --format json
 *       prints)
 *   GET /api/v1/PUZZLE/stats?metric=..  histogram and farthest positions
 *   GET /api/v1/levels                  the families with levels tables
 *   GET /api/v1/levels/FAMILY[?moves=N][&at-least=N][&seed=S][&limit=N]
 *       a family's levels (its levels table, tbgen --family), hardest first
 *       or drawn at random with seed=: {"family","chosen","levels":[...]}
 *   GET /api/v1/levels/FAMILY/stats     the levels at each number of moves
 *   GET /api/v1/levels/FAMILY/play?moves=N[&seed=S]
 *       a level of N moves drawn and played: {"level","answer"}
 *   GET /api/v1/PUZZLE/random?distance=D&metric=..[&seed=S][&limit=N]
 *       [&position=..][&NAME=VALUE]..
 *       positions at exactly distance D, drawn by ptb_random_at() (what
 *       tblookup --random-at D --format json prints); a position or an
 *       option that stands for one restricts the draw to its subtable
 *
 * A puzzle past a full table (pattern groups, its pattern tables and no
 * full table: fifteen) is answered by a search guided by its pattern
 * tables, on one thread, for at most search_seconds: GET /api/v1/PUZZLE
 * gives what tblookup --format json prints (the line and its "search"
 * member, no "analysis"), or a 503 when the search runs out of time;
 * moves=, /stats and /random need a full table and are refused (400, 404).
 *
 * Query options are the puzzle's own (ptb_puzzle_option()), handed to
 * ptb_parse() as NAME=VALUE, so a new puzzle or option needs nothing here.
 * moves=M1,M2,.. plays moves (in the puzzle's notation, as the answers print
 * them) from the parsed position before answering: that is how the web page
 * walks without knowing any puzzle's notation.
 *
 * Errors are answers: 400 with the parser's one line, 404 for an unknown
 * puzzle, metric or path, 503 naming a missing or corrupt table or a
 * search out of time, 500 when an answer does not fit or memory runs out.
 * Read-only over the tables.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* ==== a JSON text in a fixed buffer ==== */

typedef struct jbuf {
    char *p;
    size_t len, cap;
    int full;                  /* something did not fit */
} jbuf;

static void put_mem(jbuf *b, const char *s, size_t n)
{
    if (b->full || n >= b->cap - b->len) {
        b->full = 1;
        return;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void put(jbuf *b, const char *s)
{
    put_mem(b, s, strlen(s));
}

static void putf(jbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        b->full = 1;
    else
        put_mem(b, tmp, (size_t)n);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
             : s[0] >= 0xe0 && s[0] < 0xf0 ? 3
             : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((k == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||      /* overlong */
        (k == 3 && s[0] == 0xed && s[1] >= 0xa0) ||     /* surrogates */
        (k == 4 && s[0] == 0xf0 && s[1] < 0x90) ||      /* overlong */
        (k == 4 && s[0] == 0xf4 && s[1] >= 0x90))       /* > U+10FFFF */
        return 0;
    return k;
}

/* A JSON string of n bytes of text; bytes that are not UTF-8 become
 * U+FFFD, so any input (an echoed bad query) gives valid JSON. */
static void put_strn(jbuf *b, const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    put(b, "\"");
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len(s + i, n - i);
        if (k == 0) {
            put(b, "\\ufffd");
            i++;
        } else if (s[i] == '"' || s[i] == '\\') {
            put_mem(b, "\\", 1);
            put_mem(b, text + i++, 1);
        } else if (s[i] == '\n') {
            put(b, "\\n"), i++;
        } else if (s[i] < 0x20 || s[i] == 0x7f) {
            putf(b, "\\u%04x", s[i++]);
        } else {
            put_mem(b, text + i, k);
            i += k;
        }
    }
    put(b, "\"");
}

static void put_str(jbuf *b, const char *text)
{
    put_strn(b, text, strlen(text));
}

/* Text quoted for a message, at most 64 bytes of it; the message is
 * escaped as a whole when it becomes JSON. */
static void put_quoted(jbuf *b, const char *text, size_t n)
{
    put(b, "\"");
    put_mem(b, text, n > 64 ? 64 : n);
    put(b, "\"");
}

/* ==== per-thread workspace ==== */

typedef struct serve_work {
    ptb_reader *reader[SERVE_SLOTS];
    ptb_solution sol;
    ptb_analysis an;
    ptb_successor succ[PTB_MAX_SUCCESSORS];
    uint32_t rsub[SERVE_MAX_RANDOM];   /* positions drawn at random */
    uint64_t ridx[SERVE_MAX_RANDOM];
    char text[4096];                 /* one board or move */
    char out[SERVE_OUT_CAP];
} serve_work;

static void work_free(void *p)
{
    serve_work *w = p;
    for (unsigned i = 0; w && i < SERVE_SLOTS; i++)
        ptb_reader_free(w->reader[i]);
    free(w);
}

static serve_work *work_get(serve_server *srv)
{
    serve_work *w = pthread_getspecific(srv->work_key);
    if (!w && (w = calloc(1, sizeof *w)) != NULL &&
        pthread_setspecific(srv->work_key, w) != 0) {
        free(w);
        w = NULL;
    }
    return w;
}

/* ==== opening ==== */

/* A described puzzle of the tables directory, added once.  A pattern
 * table (NAME-pattern-N.mdb) stands for NAME, the puzzle answered by
 * search from its pattern tables. */
static int add_described(void *arg, const char *file, const ptb_puzzle *p,
                         const char *metric)
{
    serve_server *srv = arg;
    const char *of = ptb_puzzle_pattern_of(p, NULL);
    const char *name = of ? of : ptb_puzzle_name(p);
    ptb_puzzle *q = NULL;
    (void)file;
    (void)metric;
    if (!ptb_puzzle_description(p))
        return 0;
    for (unsigned i = 0; i < srv->npuzzles; i++)
        if (!strcmp(ptb_puzzle_name(srv->puzzle[i]), name))
            return 0;
    if (srv->npuzzles >= SERVE_MAX_PUZZLES)
        return PTB_EINVAL;
    int rc = of ? ptb_puzzle_lookup(srv->tables, of, &q)
                : ptb_puzzle_copy(p, &q);
    if (rc == PTB_OK && of && !ptb_puzzle_patterns(q)) {  /* not NAME's */
        ptb_puzzle_free(q);
        return 0;
    }
    if (rc == PTB_OK)
        srv->puzzle[srv->npuzzles++] = q;
    return !of || rc == PTB_ENOMEM ? rc : PTB_OK;
}

int serve_open(serve_server *srv, const char *tables, char *msg, size_t cap)
{
    memset(srv, 0, sizeof *srv);
    srv->tables = tables;
    if (ptb_levels_cache_new(&srv->levels) != PTB_OK) {
        snprintf(msg, cap, "out of memory");
        return PTB_ENOMEM;
    }
    if (pthread_key_create(&srv->work_key, work_free) != 0) {
        snprintf(msg, cap, "cannot create a thread key");
        ptb_levels_cache_free(srv->levels);
        srv->levels = NULL;
        return PTB_ENOMEM;
    }
    for (unsigned i = 0; i < ptb_puzzle_count(); i++)
        srv->puzzle[srv->npuzzles++] = (ptb_puzzle *)ptb_puzzle_at(i);
    int rc = ptb_tables_scan(tables, add_described, srv);
    if (rc == PTB_EINVAL) {
        snprintf(msg, cap, "more than %d puzzles", SERVE_MAX_PUZZLES);
        return rc;
    }
    for (unsigned i = 0; i < srv->npuzzles; i++) {
        const ptb_puzzle *p = srv->puzzle[i];
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++) {
            serve_slot *sl = &srv->slot[i * SERVE_MAX_METRICS + m];
            char file[128];
            if (m >= SERVE_MAX_METRICS) {
                snprintf(msg, cap, "%s: more than %d metrics",
                         ptb_puzzle_name(p), SERVE_MAX_METRICS);
                return PTB_EINVAL;
            }
            sl->puzzle = p;
            sl->metric = ptb_puzzle_metric(p, m);
            pthread_mutex_init(&sl->lock, NULL);
            rc = ptb_space_new(p, sl->metric, &sl->space);
            if (rc == PTB_OK && ptb_space_file(sl->space, file,
                                               sizeof file) >= (int)sizeof file)
                rc = PTB_EINVAL;
            if (rc != PTB_OK) {
                snprintf(msg, cap, "%s %s: %s", ptb_puzzle_name(p),
                         sl->metric, ptb_strerror(rc));
                return rc;
            }
            snprintf(sl->path, sizeof sl->path, "%s/%s", tables, file);
        }
    }
    return PTB_OK;
}

void serve_close(serve_server *srv)
{
    for (unsigned i = 0; i < SERVE_SLOTS; i++) {
        serve_slot *sl = &srv->slot[i];
        if (!sl->puzzle)
            continue;
        ptb_table_close(sl->table);
        ptb_patterns_close(sl->patterns);
        ptb_space_close(sl->space);
        pthread_mutex_destroy(&sl->lock);
    }
    for (unsigned i = 0; i < srv->npuzzles; i++)
        ptb_puzzle_free(srv->puzzle[i]);         /* the loaded ones */
    ptb_levels_cache_free(srv->levels);
    pthread_key_delete(srv->work_key);
}

/* The ETag of a table's answers: FNV-1a over the table's digest of its
 * values and the library version (which fixes the answers' text). */
static void make_etag(serve_slot *sl, const ptb_table *t)
{
    uint64_t h = 0xcbf29ce484222325u;
    const char *parts[2] = { ptb_table_digest(t), ptb_version() };
    for (unsigned i = 0; i < 2; i++)
        for (const char *c = parts[i]; *c; c++)
            h = (h ^ (unsigned char)*c) * 0x100000001b3u;
    snprintf(sl->etag, sizeof sl->etag, "\"%016" PRIx64 "\"", h);
}

/* The slot's table, opened on first use; PTB_OK with *out NULL when the
 * slot answers by search (sl->patterns). */
static int slot_table(serve_slot *sl, ptb_table **out)
{
    int rc = PTB_OK;
    if (!atomic_load_explicit(&sl->ready, memory_order_acquire)) {
        pthread_mutex_lock(&sl->lock);
        if (!atomic_load_explicit(&sl->ready, memory_order_relaxed)) {
            char dir[512];
            snprintf(dir, sizeof dir, "%s", sl->path);
            *strrchr(dir, '/') = '\0';
            rc = ptb_answers_open(sl->space, dir, NULL, &sl->table,
                                  &sl->patterns, NULL, 0);
            if (sl->table)
                make_etag(sl, sl->table);
            if (rc == PTB_OK)
                atomic_store_explicit(&sl->ready, 1, memory_order_release);
        }
        pthread_mutex_unlock(&sl->lock);
    }
    *out = sl->table;
    return rc;
}

/* ==== answers ==== */

void serve_error_body(unsigned status, const char *msg, char *buf, size_t cap,
                      serve_reply *rep)
{
    jbuf b = { buf, 0, cap, 0 };
    buf[0] = '\0';
    put(&b, "{\"error\":");
    put_str(&b, msg);
    putf(&b, ",\"status\":%u}\n", status);
    if (b.full) {
        snprintf(buf, cap, "{\"error\":\"error\",\"status\":%u}\n", status);
        b.len = strlen(buf);
    }
    *rep = (serve_reply){ status, buf, b.len, NULL, 0 };
}

typedef struct ctx {
    serve_server *srv;
    const serve_request *rq;
    serve_reply *rep;
    serve_work *w;
    char msg[512];
} ctx;

static void fail(ctx *c, unsigned status)
{
    static const char nomem[] = "{\"error\":\"out of memory\","
                                "\"status\":500}\n";
    if (!c->w) {                         /* no workspace: constant text */
        *c->rep = (serve_reply){ 500, nomem, sizeof nomem - 1, NULL, 0 };
        return;
    }
    serve_error_body(status, c->msg, c->w->out, sizeof c->w->out, c->rep);
}

static int failf(ctx *c, unsigned status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    fail(c, status);
    return -1;
}

/* A message naming tables that cannot be used, and how to build them
 * again (or a 500 when memory ran out). */
static int table_failed(ctx *c, const serve_slot *sl, int rc)
{
    char dir[512];
    if (rc == PTB_ENOMEM)
        return failf(c, 500, "out of memory");
    snprintf(dir, sizeof dir, "%s", sl->path);
    *strrchr(dir, '/') = '\0';
    ptb_answers_why(sl->space, dir, NULL, rc, c->msg, sizeof c->msg);
    fail(c, 503);
    return -1;
}

/* What needs a full table, asked of a puzzle answered by search. */
static int needs_table(ctx *c, const serve_slot *sl, const char *what)
{
    const char *name = ptb_puzzle_name(sl->puzzle);
    return failf(c, 404, "%s: %s needs a full table (%s), and %s has none: "
                 "it is answered by a search from its pattern tables "
                 "(GET /api/v1/%s?position=...)", name, what,
                 strrchr(sl->path, '/') + 1, name, name);
}

static const serve_arg *arg_find(const serve_request *rq, const char *key)
{
    for (unsigned i = 0; i < rq->nargs; i++)
        if (!strcmp(rq->arg[i].key, key))
            return &rq->arg[i];
    return NULL;
}

/* What a path takes besides its metric: ARGS_STATS nothing more;
 * ARGS_POSITION a position, moves and the puzzle's options; ARGS_RANDOM a
 * distance, seed and limit, and a position or options to restrict the draw. */
enum { ARGS_STATS, ARGS_POSITION, ARGS_RANDOM };

/* Checks the query's parameters: each one known() takes (arg its
 * argument), none twice, no NUL bytes. */
static int check_query(ctx *c, int (*known)(const void *arg, const char *k),
                       const void *arg)
{
    const serve_request *rq = c->rq;
    if (rq->bad_arg)
        return failf(c, 400, "query: a parameter holds a NUL byte");
    if (rq->too_many_args)
        return failf(c, 400, "query: more than %d parameters",
                     SERVE_MAX_ARGS);
    for (unsigned i = 0; i < rq->nargs; i++) {
        const char *k = rq->arg[i].key;
        if (!known(arg, k)) {
            jbuf b = { c->msg, 0, sizeof c->msg, 0 };
            put(&b, "query: unknown parameter ");
            put_quoted(&b, k, strlen(k));
            fail(c, 400);
            return -1;
        }
        for (unsigned j = 0; j < i; j++)
            if (!strcmp(rq->arg[j].key, k))
                return failf(c, 400, "query: parameter '%s' given twice", k);
    }
    return 0;
}

/* A puzzle's path and what it takes (ARGS_*). */
typedef struct puzzle_path {
    const ptb_puzzle *p;
    int kind;
} puzzle_path;

static int puzzle_takes(const void *arg, const char *k)
{
    const puzzle_path *pp = arg;
    int known = !strcmp(k, "metric");
    if (pp->kind != ARGS_STATS) {
        known |= !strcmp(k, "position");
        for (unsigned o = 0; !known && ptb_puzzle_option(pp->p, o); o++)
            known = !strcmp(k, ptb_puzzle_option(pp->p, o)->name);
    }
    if (pp->kind == ARGS_POSITION)
        known |= !strcmp(k, "moves");
    if (pp->kind == ARGS_RANDOM)
        known |= !strcmp(k, "distance") || !strcmp(k, "seed") ||
                 !strcmp(k, "limit");
    return known;
}

/* Checks the query's parameters against what a path of puzzle p of that
 * kind takes. */
static int check_args(ctx *c, const ptb_puzzle *p, int kind)
{
    puzzle_path pp = { p, kind };
    return check_query(c, puzzle_takes, &pp);
}

/* The decimal parameter key in min..max, or def when it is absent (def
 * outside min..max: the parameter is required). */
static int number_arg(ctx *c, const char *key, uint64_t min, uint64_t max,
                      uint64_t def, uint64_t *out)
{
    const serve_arg *a = arg_find(c->rq, key);
    uint64_t v = 0;
    int ok = a && *a->value;
    if (!a) {
        if (def < min || def > max)
            return failf(c, 400, "query: missing parameter '%s'", key);
        *out = def;
        return 0;
    }
    for (const char *s = a->value; ok && *s; s++) {
        uint64_t digit = (uint64_t)(*s - '0');
        ok = *s >= '0' && *s <= '9' && digit <= max &&
             v <= (max - digit) / 10;
        v = v * 10 + digit;
    }
    if (!ok || v < min) {
        jbuf b = { c->msg, 0, sizeof c->msg, 0 };
        putf(&b, "%s: takes %" PRIu64 "..%" PRIu64 ", got ", key, min, max);
        put_quoted(&b, a->value, a->value_len);
        fail(c, 400);
        return -1;
    }
    *out = v;
    return 0;
}

/* The slot for the path's puzzle and the query's metric, or a 404. */
static serve_slot *find_slot(ctx *c, const char *name, size_t len)
{
    const serve_arg *m = arg_find(c->rq, "metric");
    for (unsigned i = 0; i < c->srv->npuzzles; i++) {
        const ptb_puzzle *p = c->srv->puzzle[i];
        const char *pn = ptb_puzzle_name(p);
        if (strlen(pn) != len || memcmp(pn, name, len))
            continue;
        for (unsigned k = 0; ptb_puzzle_metric(p, k); k++)
            if (!m || !strcmp(m->value, ptb_puzzle_metric(p, k)))
                return &c->srv->slot[i * SERVE_MAX_METRICS + k];
        jbuf b = { c->msg, 0, sizeof c->msg, 0 };
        put(&b, "unknown metric ");
        put_quoted(&b, m->value, strlen(m->value));
        putf(&b, " for %s; metrics:", pn);
        for (unsigned k = 0; ptb_puzzle_metric(p, k); k++)
            putf(&b, " %s", ptb_puzzle_metric(p, k));
        fail(c, 404);
        return NULL;
    }
    jbuf b = { c->msg, 0, sizeof c->msg, 0 };
    put(&b, "unknown puzzle ");
    put_quoted(&b, name, len);
    fail(c, 404);
    return NULL;
}

static int not_modified(ctx *c, const serve_slot *sl)
{
    const char *inm = c->rq->if_none_match;
    if (!inm || !strstr(inm, sl->etag))
        return 0;
    *c->rep = (serve_reply){ 304, "", 0, sl->etag, 1 };
    return 1;
}

static void reply_ok(ctx *c, const serve_slot *sl, const jbuf *b)
{
    if (b->full) {
        failf(c, 500, "the answer is longer than %u bytes", SERVE_OUT_CAP);
        return;
    }
    *c->rep = (serve_reply){ 200, b->p, b->len, sl ? sl->etag : NULL,
                             sl != NULL };
}

/* GET /api/v1/puzzles */
static void api_puzzles(ctx *c)
{
    serve_work *w = c->w;
    jbuf b = { w->out, 0, sizeof w->out, 0 };
    if (c->rq->nargs || c->rq->bad_arg || c->rq->too_many_args) {
        failf(c, 400, "query: /api/v1/puzzles takes no parameters");
        return;
    }
    putf(&b, "{\"api\":1,\"version\":\"%s\",\"puzzles\":[", ptb_version());
    for (unsigned i = 0; i < c->srv->npuzzles; i++) {
        const ptb_puzzle *p = c->srv->puzzle[i];
        put(&b, i ? ",{\"name\":" : "{\"name\":");
        put_str(&b, ptb_puzzle_name(p));
        put(&b, ",\"summary\":");
        put_str(&b, ptb_puzzle_summary(p));
        if (ptb_puzzle_description(p)) {
            put(&b, ",\"description\":");
            put_str(&b, ptb_puzzle_description(p));
            put(&b, ",\"start\":");
            put_str(&b, ptb_puzzle_start(p));
        }
        put(&b, ",\"metrics\":[");
        for (unsigned m = 0; ptb_puzzle_metric(p, m); m++) {
            serve_slot *sl = &c->srv->slot[i * SERVE_MAX_METRICS + m];
            ptb_table *t;
            int rc = slot_table(sl, &t);
            put(&b, m ? ",{\"name\":" : "{\"name\":");
            put_str(&b, sl->metric);
            put(&b, ",\"table\":");
            put_str(&b, strrchr(sl->path, '/') + 1);
            put(&b, ",\"status\":");
            put_str(&b, rc == PTB_OK ? "ok" : ptb_strerror(rc));
            put(&b, rc == PTB_OK && !t ? ",\"search\":true}" : "}");
        }
        put(&b, "],\"options\":[");
        for (unsigned o = 0; ptb_puzzle_option(p, o); o++) {
            const ptb_option *op = ptb_puzzle_option(p, o);
            put(&b, o ? ",{\"name\":" : "{\"name\":");
            put_str(&b, op->name);
            put(&b, ",\"value\":");
            put_str(&b, op->value);
            put(&b, ",\"help\":");
            put_str(&b, op->help);
            putf(&b, ",\"position\":%s}",
                 op->flags & PTB_OPT_POSITION ? "true" : "false");
        }
        put(&b, "]}");
    }
    put(&b, "]}\n");
    reply_ok(c, NULL, &b);
}

/* Ends an answer with the codes of n states as a JSON array and "}", and
 * sends it. */
static void reply_codes(ctx *c, serve_slot *sl, jbuf *b, const uint32_t *sub,
                        const uint64_t *idx, unsigned n)
{
    put(b, "[");
    for (unsigned i = 0; i < n; i++) {
        int rc = ptb_format_code(sl->space, sub[i], idx[i], c->w->text,
                                 sizeof c->w->text);
        if (rc < 0) {                   /* a stored ranking found damaged */
            table_failed(c, sl, rc);
            return;
        }
        if (i)
            put(b, ",");
        put_str(b, c->w->text);
    }
    put(b, "]}\n");
    reply_ok(c, sl, b);
}

/* GET /api/v1/PUZZLE/stats: the object tblookup --stats --format json
 * prints. */
static void api_stats(ctx *c, serve_slot *sl)
{
    ptb_table *t;
    ptb_table_info in;
    serve_work *w = c->w;
    jbuf b = { w->out, 0, sizeof w->out, 0 };
    int rc = slot_table(sl, &t);
    if (rc == PTB_OK && !t) {
        needs_table(c, sl, "/stats");
        return;
    }
    if (rc == PTB_OK)
        rc = ptb_table_get_info(t, &in);
    if (rc != PTB_OK) {
        table_failed(c, sl, rc);
        return;
    }
    if (not_modified(c, sl))
        return;
    put(&b, "{\"puzzle\":");
    put_str(&b, ptb_puzzle_name(sl->puzzle));
    put(&b, ",\"metric\":");
    put_str(&b, sl->metric);
    putf(&b, ",\"states\":%" PRIu64 ",\"solvable\":%" PRIu64
         ",\"unsolvable\":%" PRIu64 ",\"max_distance\":%u,\"histogram\":[",
         in.states, in.solvable, in.states - in.solvable, in.max_distance);
    for (unsigned d = 0; d <= in.max_distance && d <= PTB_MAX_DISTANCE; d++)
        putf(&b, "%s%" PRIu64, d ? "," : "", in.histogram[d]);
    put(&b, "],\"farthest\":");
    reply_codes(c, sl, &b, in.far_sub, in.far_idx,
                in.n_farthest < 8 ? in.n_farthest : 8);
}

/* The parsed position: ptb_parse() with the query's options.  With
 * optional set, a query with neither a position nor an option gets *n = 0. */
static int parse_query(ctx *c, serve_slot *sl, ptb_position start[2],
                       unsigned *n, int optional)
{
    const serve_request *rq = c->rq;
    const serve_arg *pos = arg_find(rq, "position");
    char optbuf[8][SERVE_MAX_OPTION + 32];
    const char *opts[9];
    unsigned nopt = 0;
    int stands_for_position = 0;
    for (unsigned o = 0; ptb_puzzle_option(sl->puzzle, o) && nopt < 8; o++) {
        const ptb_option *op = ptb_puzzle_option(sl->puzzle, o);
        const serve_arg *a = arg_find(rq, op->name);
        if (!a)
            continue;
        if (a->value_len > SERVE_MAX_OPTION)
            return failf(c, 400, "%s: longer than %d bytes", op->name,
                         SERVE_MAX_OPTION);
        snprintf(optbuf[nopt], sizeof optbuf[nopt], "%s=%s", op->name,
                 a->value);
        opts[nopt] = optbuf[nopt];
        nopt++;
        stands_for_position |= (op->flags & PTB_OPT_POSITION) != 0;
    }
    opts[nopt] = NULL;
    *n = 0;
    if (optional && !pos && nopt == 0)
        return 0;
    if (!pos && !stands_for_position)
        return failf(c, 400, "query: missing parameter 'position'");
    if (pos && pos->value_len > SERVE_MAX_POSITION)
        return failf(c, 400, "position: longer than %d bytes (%zu given); no "
                     "puzzle's notation is that long", SERVE_MAX_POSITION,
                     pos->value_len);
    char err[256];
    int rc = ptb_parse(sl->space, pos ? pos->value : NULL, opts, start, n,
                       err, sizeof err);
    if (rc == PTB_ECORRUPT)            /* (a stored ranking found damaged) */
        return table_failed(c, sl, rc);
    if (rc != PTB_OK) {
        jbuf b = { c->msg, 0, sizeof c->msg, 0 };
        put(&b, err);
        fail(c, 400);
        return -1;
    }
    return 0;
}

/* Plays moves=M1,M2,... from the nearest candidate; on success start[0]
 * is the position reached and *n is 1. */
static int play_moves(ctx *c, serve_slot *sl, ptb_table *t, ptb_reader *r,
                      ptb_position start[2], unsigned *n)
{
    const serve_arg *a = arg_find(c->rq, "moves");
    serve_work *w = c->w;
    if (!a || !*a->value)
        return 0;
    if (*n > 1) {
        int rc = ptb_solve(t, r, start, *n, &w->sol);
        if (rc != PTB_OK && rc != PTB_NOTFOUND)
            return table_failed(c, sl, rc);
        start[0] = w->sol.start;
        *n = 1;
    }
    const char *p = a->value;
    for (unsigned k = 1;; k++) {
        size_t len = strcspn(p, ",");
        unsigned nsucc, d, i;
        if (k > SERVE_MAX_MOVES)
            return failf(c, 400, "moves: more than %d", SERVE_MAX_MOVES);
        int rc = ptb_successors(t, r, &start[0], &d, w->succ, &nsucc);
        if (rc != PTB_OK)
            return table_failed(c, sl, rc);
        for (i = 0; i < nsucc; i++) {
            int m = ptb_format_move(sl->space, &start[0], &w->succ[i].move,
                                    w->text, sizeof w->text);
            if (m >= 0 && (size_t)m == len && !memcmp(w->text, p, len))
                break;
        }
        if (i == nsucc) {
            jbuf b = { c->msg, 0, sizeof c->msg, 0 };
            putf(&b, "moves: move %u ", k);
            put_quoted(&b, p, len);
            put(&b, " is not legal there");
            fail(c, 400);
            return -1;
        }
        start[0] = w->succ[i].after;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

/* Sends the library's JSON answer of len bytes in the workspace's out
 * buffer (a 500 when it did not fit), ended by a newline. */
static void reply_json(ctx *c, const serve_slot *sl, int len)
{
    jbuf b = { c->w->out, 0, sizeof c->w->out, 0 };
    if (len <= 0 || (size_t)len >= sizeof c->w->out - 2) {
        failf(c, 500, "the answer is longer than %u bytes", SERVE_OUT_CAP);
        return;
    }
    b.len = (size_t)len;
    put(&b, "\n");
    reply_ok(c, sl, &b);
}

/* GET /api/v1/PUZZLE?position=... of a puzzle answered by search: what
 * tblookup --format json prints, never cached (its "seconds" differ). */
static void api_searched(ctx *c, serve_slot *sl, const ptb_position *start,
                         unsigned n)
{
    serve_work *w = c->w;
    ptb_search_stats st;
    const serve_arg *moves = arg_find(c->rq, "moves");
    ptb_search_opts opts = { 1, 0, c->srv->search_seconds };
    if (moves && *moves->value) {
        failf(c, 400, "moves: %s is answered by a search, without a full "
              "table to play moves on: ask for the position reached",
              ptb_puzzle_name(sl->puzzle));
        return;
    }
    int rc = ptb_patterns_solve(sl->patterns, start, n, &opts, &w->sol, &st);
    if (rc == PTB_ELIMIT) {
        failf(c, 503, "%s: the search ran out of time (%g s, tbserve "
              "--search-seconds) after %" PRIu64 " nodes and %u bounds from "
              "%u: no answer proven", ptb_puzzle_name(sl->puzzle),
              opts.seconds, st.nodes, st.iterations, st.bound);
        return;
    }
    if (rc != PTB_OK && rc != PTB_NOTFOUND) {
        table_failed(c, sl, rc);
        return;
    }
    reply_json(c, NULL, ptb_format_search_json(sl->space, &w->sol, &st,
                                                w->out, sizeof w->out - 1));
}

/* GET /api/v1/PUZZLE?position=... */
static void api_position(ctx *c, serve_slot *sl)
{
    serve_work *w = c->w;
    ptb_position start[2];
    unsigned n;
    ptb_table *t;
    ptb_reader **r = &w->reader[sl - c->srv->slot];
    if (check_args(c, sl->puzzle, ARGS_POSITION) ||
        parse_query(c, sl, start, &n, 0))
        return;
    int rc = slot_table(sl, &t);
    if (rc == PTB_OK && !t) {
        api_searched(c, sl, start, n);
        return;
    }
    if (rc == PTB_OK && !*r)
        rc = ptb_reader_new(t, r);
    if (rc != PTB_OK) {
        table_failed(c, sl, rc);
        return;
    }
    if (not_modified(c, sl) || play_moves(c, sl, t, *r, start, &n))
        return;
    rc = ptb_analyse(t, *r, start, n, &w->an);
    if (rc == PTB_OK && w->an.category != PTB_CAT_UNSOLVABLE)
        rc = ptb_solve(t, *r, &w->an.position, 1, &w->sol);
    if (rc != PTB_OK) {
        table_failed(c, sl, rc);
        return;
    }
    reply_json(c, sl, ptb_format_analysis_json(sl->space, &w->an,
                      w->an.category == PTB_CAT_UNSOLVABLE ? NULL : &w->sol,
                      w->out, sizeof w->out - 1));
}

/* GET /api/v1/PUZZLE/random?distance=D: the object tblookup --random-at D
 * --format json prints.  A mod-3 or mod-4 table is searched outward from
 * its goals up to D, which takes seconds for Klotski and swap; the answer
 * cache keeps each answer, as it never changes while the table is open. */
static void api_random(ctx *c, serve_slot *sl)
{
    serve_work *w = c->w;
    ptb_position start[2];
    unsigned n, got = 0;
    uint64_t d, seed, limit;
    ptb_table *t;
    jbuf b = { w->out, 0, sizeof w->out, 0 };
    if (check_args(c, sl->puzzle, ARGS_RANDOM) ||
        number_arg(c, "distance", 0, PTB_MAX_DISTANCE, UINT64_MAX, &d) ||
        number_arg(c, "seed", 0, UINT64_MAX, 0, &seed) ||
        number_arg(c, "limit", 1, SERVE_MAX_RANDOM, 1, &limit) ||
        parse_query(c, sl, start, &n, 1))
        return;
    int rc = slot_table(sl, &t);
    if (rc == PTB_OK && !t) {
        needs_table(c, sl, "/random");
        return;
    }
    if (rc != PTB_OK) {
        table_failed(c, sl, rc);
        return;
    }
    if (not_modified(c, sl))
        return;
    uint32_t sub = n ? start[0].sub : PTB_ANY_SUBTABLE;
    rc = ptb_random_at(t, (unsigned)d, sub, seed, (unsigned)limit, w->rsub,
                       w->ridx, &got);
    if (rc == PTB_NOTFOUND) {
        ptb_table_info in;
        rc = ptb_table_get_info(t, &in);
        if (rc == PTB_OK) {
            failf(c, 404, "no position %sis at distance %u (the farthest "
                  "are at %u; /stats shows how many are at each)",
                  n && in.subtables > 1 ? "of this kind (the position's "
                  "subtable) " : "", (unsigned)d, in.max_distance);
            return;
        }
    }
    if (rc != PTB_OK) {
        table_failed(c, sl, rc);
        return;
    }
    putf(&b, "{\"schema\":%d,\"puzzle\":", PTB_JSON_SCHEMA);
    put_str(&b, ptb_puzzle_name(sl->puzzle));
    put(&b, ",\"metric\":");
    put_str(&b, sl->metric);
    putf(&b, ",\"distance\":%u,\"seed\":%" PRIu64 ",\"positions\":",
         (unsigned)d, seed);
    reply_codes(c, sl, &b, w->rsub, w->ridx, got);
}

/* ==== a family's levels ==== */

/* Whether k is one of the names of arg (NULL-ended): check_query()'s
 * test for a levels path, whose parameters are fixed names. */
static int named(const void *arg, const char *k)
{
    for (const char *const *a = arg; *a; a++)
        if (!strcmp(k, *a))
            return 1;
    return 0;
}

/* The levels table of the family named by the path, open (give it back
 * with ptb_levels_cache_release), or an error answer: 404 when there is
 * none, 503 when it is damaged. */
static ptb_levels *open_levels(ctx *c, const char *name, size_t len)
{
    char family[64];
    ptb_levels *l = NULL;
    int rc;
    if (len == 0 || len >= sizeof family) {
        failf(c, 404, "no such family");
        return NULL;
    }
    memcpy(family, name, len);
    family[len] = '\0';
    rc = ptb_levels_cache_get(c->srv->levels, c->srv->tables, family, &l);
    if (rc == PTB_OK)
        return l;
    if (rc == PTB_ENOMEM)
        failf(c, 500, "out of memory");
    else if (rc == PTB_ENOTABLE || rc == PTB_EINVAL)
        failf(c, 404, "no levels of family '%s' in %s (tbgen --family %s "
              "--out %s builds them)", family, c->srv->tables, family,
              c->srv->tables);
    else
        failf(c, 503, "%s/%s.levels.mdb: %s; rebuild it with 'tbgen "
              "--family %s'", c->srv->tables, family, ptb_strerror(rc),
              family);
    return NULL;
}

/* Appends level i's JSON to b: PTB_OK, or the table's error (its block
 * failed its checks), b as it was. */
static int put_level(jbuf *b, const ptb_levels *l, size_t i)
{
    int n = b->full ? 0 : ptb_format_level_json(l, i, b->p + b->len,
                                                 b->cap - b->len);
    if (n < 0)
        return n;
    if (b->full || (size_t)n >= b->cap - b->len)
        b->full = 1;
    else
        b->len += (size_t)n;
    return PTB_OK;
}

/* The answer to a levels table that failed when a level was read. */
static void level_failed(ctx *c, const ptb_levels *l, size_t i, int rc)
{
    failf(c, rc == PTB_ENOMEM ? 500 : 503, "%s/%s.levels.mdb: level %zu: "
          "%s; rebuild it with 'tbgen --family %s'", c->srv->tables,
          ptb_levels_name(l), i, ptb_strerror(rc), ptb_levels_name(l));
}

/* GET /api/v1/levels/FAMILY[?moves=N][&at-least=N][&seed=S][&limit=N]:
 * the levels chosen, hardest first, or drawn at random with seed= (what
 * tblookup FAMILY --levels [--random --seed S] --format json prints,
 * inside {"family","chosen","levels":[...]}); at most SERVE_MAX_LEVELS. */
static void api_levels(ctx *c, const ptb_levels *l)
{
    static const char *const allowed[] = { "moves", "at-least", "seed",
                                           "limit", NULL };
    uint64_t moves, least, seed, limit;
    size_t first, n, pick[SERVE_MAX_LEVELS];
    jbuf b = { c->w->out, 0, sizeof c->w->out, 0 };
    if (check_query(c, named, allowed) ||
        number_arg(c, "moves", 0, PTB_MAX_DISTANCE, 0, &moves) ||
        number_arg(c, "at-least", 0, PTB_MAX_DISTANCE, 0, &least) ||
        number_arg(c, "seed", 0, UINT64_MAX, 0, &seed) ||
        number_arg(c, "limit", 1, SERVE_MAX_LEVELS, SERVE_MAX_LEVELS,
                   &limit))
        return;
    int one = arg_find(c->rq, "moves") != NULL;
    ptb_levels_range(l, one ? (unsigned)moves : (unsigned)least,
                     one ? (unsigned)moves : PTB_MAX_DISTANCE, &first, &n);
    size_t k = n < limit ? n : (size_t)limit;
    if (arg_find(c->rq, "seed"))
        k = ptb_levels_draw(l, first, n, seed, k, pick);
    else
        for (size_t i = 0; i < k; i++)
            pick[i] = first + i;
    put(&b, "{\"family\":");
    put_str(&b, ptb_levels_name(l));
    putf(&b, ",\"chosen\":%zu,\"levels\":[", n);
    for (size_t i = 0; i < k; i++) {
        put(&b, i ? "," : "");
        int rc = put_level(&b, l, pick[i]);
        if (rc != PTB_OK) {
            level_failed(c, l, pick[i], rc);
            return;
        }
    }
    put(&b, "]}\n");
    reply_ok(c, NULL, &b);
}

/* GET /api/v1/levels/FAMILY/stats: how many levels at each number of
 * moves, hardest first. */
static void api_level_stats(ctx *c, const ptb_levels *l)
{
    static const char *const allowed[] = { NULL };
    size_t first, n, total = ptb_levels_count(l);
    int any = 0;
    jbuf b = { c->w->out, 0, sizeof c->w->out, 0 };
    if (check_query(c, named, allowed))
        return;
    put(&b, "{\"family\":");
    put_str(&b, ptb_levels_name(l));
    putf(&b, ",\"levels\":%zu,\"counts\":[", total);
    for (unsigned m = PTB_LEVEL_MOVES + 1; m-- > 0;) {
        ptb_levels_range(l, m, m, &first, &n);
        if (n)
            putf(&b, "%s[%u,%zu]", any++ ? "," : "", m, n);
    }
    put(&b, "]}\n");
    reply_ok(c, NULL, &b);
}

/* GET /api/v1/levels/FAMILY/play?moves=N[&seed=S]: a level of N moves
 * drawn by the seed (default 0), played: {"level":...,"answer":...}, the
 * answer in ptb_format_json()'s form (what tblookup FAMILY --level N
 * --format json prints). */
static void api_level_play(ctx *c, const ptb_levels *l)
{
    static const char *const allowed[] = { "moves", "seed", NULL };
    uint64_t moves, seed;
    size_t first, n, i;
    ptb_puzzle *p;
    ptb_space *s;
    jbuf b = { c->w->out, 0, sizeof c->w->out, 0 };
    if (check_query(c, named, allowed) ||
        number_arg(c, "moves", 0, PTB_MAX_DISTANCE, UINT64_MAX, &moves) ||
        number_arg(c, "seed", 0, UINT64_MAX, 0, &seed))
        return;
    ptb_levels_range(l, (unsigned)moves, (unsigned)moves, &first, &n);
    if (!ptb_levels_draw(l, first, n, seed, 1, &i)) {
        failf(c, 404, "%s has no level of %u moves (/stats shows how many "
              "it has of each)", ptb_levels_name(l), (unsigned)moves);
        return;
    }
    int rc = ptb_level_solve(l, i, &p, &s, &c->w->sol);
    if (rc != PTB_OK) {
        level_failed(c, l, i, rc);
        return;
    }
    put(&b, "{\"level\":");
    put_level(&b, l, i);         /* (its block read by the solve) */
    put(&b, ",\"answer\":");
    int len = b.full ? -1 : ptb_format_json(s, &c->w->sol, b.p + b.len,
                                            b.cap - b.len);
    if (len < 0 || (size_t)len >= b.cap - b.len)
        b.full = 1;
    else
        b.len += (size_t)len;
    put(&b, "}\n");
    ptb_space_close(s);
    ptb_puzzle_free(p);
    reply_ok(c, NULL, &b);
}

static int levels_file(const struct dirent *e)
{
    size_t n = strlen(e->d_name), k = strlen(".levels.mdb");
    return n > k && e->d_name[0] != '.' &&
           !strcmp(e->d_name + n - k, ".levels.mdb");
}

/* GET /api/v1/levels: the families with a levels table in the tables
 * directory now, {"families":[NAME,...]}, in name order. */
static void api_families(ctx *c)
{
    static const char *const allowed[] = { NULL };
    struct dirent **list;
    jbuf b = { c->w->out, 0, sizeof c->w->out, 0 };
    if (check_query(c, named, allowed))
        return;
    int n = scandir(c->srv->tables, &list, levels_file, alphasort);
    put(&b, "{\"families\":[");
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list[i]->d_name) - strlen(".levels.mdb");
        put(&b, i ? "," : "");
        put_strn(&b, list[i]->d_name, len);
        free(list[i]);
    }
    if (n >= 0)
        free(list);
    put(&b, "]}\n");
    reply_ok(c, NULL, &b);
}

/* /api/v1/levels/FAMILY[/stats|/play]: the family's levels table, open
 * since the first request that found its file as it is now. */
static void api_family(ctx *c, const char *path)
{
    size_t len = strcspn(path, "/");
    const char *rest = path + len;
    if (*rest && strcmp(rest, "/stats") && strcmp(rest, "/play")) {
        failf(c, 404, "no such API path (levels/FAMILY, /stats, /play)");
        return;
    }
    ptb_levels *l = open_levels(c, path, len);
    if (!l)
        return;
    if (!*rest)
        api_levels(c, l);
    else if (!strcmp(rest, "/stats"))
        api_level_stats(c, l);
    else
        api_level_play(c, l);
    ptb_levels_cache_release(c->srv->levels, l);
}

void serve_api(serve_server *srv, const serve_request *rq, serve_reply *rep)
{
    ctx c = { srv, rq, rep, work_get(srv), "" };
    const char *path = rq->path + strlen("/api/v1/");
    size_t len = strcspn(path, "/");
    rep->status = 0;
    if (!c.w) {
        fail(&c, 500);
        return;
    }
    if (!strcmp(path, "puzzles")) {
        api_puzzles(&c);
        return;
    }
    if (!strcmp(path, "levels")) {
        api_families(&c);
        return;
    }
    if (!strncmp(path, "levels/", 7)) {
        api_family(&c, path + 7);
        return;
    }
    int stats = !strcmp(path + len, "/stats");
    int draw = !strcmp(path + len, "/random");
    if (len == 0 || (path[len] && !stats && !draw)) {
        failf(&c, 404, "no such API path (see /api/v1/puzzles)");
        return;
    }
    serve_slot *sl = find_slot(&c, path, len);
    if (!sl)
        return;
    if (stats) {
        if (check_args(&c, sl->puzzle, ARGS_STATS) == 0)
            api_stats(&c, sl);
    } else if (draw) {
        api_random(&c, sl);
    } else {
        api_position(&c, sl);
    }
}
