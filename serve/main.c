/* serve/main.c: tbserve, the tables over HTTP.  A thin front end over
 * libpuzzletb on GNU libmicrohttpd: this file owns the process (arguments,
 * the daemon, the web page's static files, the request log, signals) and
 * api.c answers /api/v1/.  Read-only over the tables.
 *
 * Limits: a request's header and URL must fit a connection's memory
 * (SERVE_CONN_MEMORY, else libmicrohttpd answers 414 or 431), positions
 * longer than SERVE_MAX_POSITION are refused, at most --connections
 * connections at once, SERVE_TIMEOUT seconds of silence closes one; static
 * files are read from the web directory once at start, and only those
 * names are served (no path is ever opened from a URL).
 *
 * Exit status: 0 after SIGINT or SIGTERM, 1 when the server cannot start,
 * 2 bad usage. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve.h"

#ifndef PTB_TABLES_DIR
#define PTB_TABLES_DIR "tables"
#endif
#ifndef PTB_WEB_DIR
#define PTB_WEB_DIR "web"
#endif
#define SERVE_CONN_MEMORY (16u * 1024)
#define SERVE_TIMEOUT 10
#define MAX_FILES 32
#define MAX_FILE_SIZE (1u << 20)
#define LOG_URI 160
#define CACHE_KEY 512               /* longer URIs are answered, not cached */
#define CACHE_LOCKS 64
#define CACHE_MAX_BODY (64u * 1024)

typedef struct web_file {
    char name[64];
    const char *type;
    char *data;
    size_t len;
    char etag[24];
} web_file;

typedef struct options {
    const char *tables, *web, *bind;
    unsigned port, threads, connections, cache;
    double search_seconds;
} options;

/* Answers kept by their URI: an answer never changes while its table is
 * open, so a repeated query costs a lookup.  Direct-mapped; an entry holds
 * a reference to a libmicrohttpd response, which any number of connections
 * may send at once. */
typedef struct cache_entry {
    char key[CACHE_KEY];
    char etag[24];
    struct MHD_Response *resp;
} cache_entry;

typedef struct cache {
    cache_entry *e;
    unsigned n;
    pthread_mutex_t lock[CACHE_LOCKS];
} cache;

typedef struct app {
    serve_server srv;
    web_file file[MAX_FILES];
    unsigned nfiles;
    cache cache;
} app;

/* What the log needs of one request: from the URI callback to the end.  One
 * per connection (made when it opens, freed when it closes), reused by each
 * request on it; a request refused before the handler saw it is logged when
 * the connection closes. */
typedef struct req_log {
    int pending;                /* a request began and is not logged yet */
    struct timespec start;
    unsigned status;
    int called;                 /* the handler has seen the headers */
    int nul;                    /* the URI spells a NUL byte (%00) */
    char method[12];
    char uri[LOG_URI];
    char key[CACHE_KEY];        /* the raw URI, "" when too long to cache */
} req_log;

static int usage(FILE *f, int status)
{
    fprintf(f,
        "usage: tbserve [--tables DIR] [--web DIR] [--bind ADDR] [--port N]\n"
        "               [--threads N] [--connections N] [--search-seconds S]\n"
        "Serves the tables over HTTP: a JSON API under /api/v1/ and a web\n"
        "page at / to explore and play every puzzle.\n\n"
        "  -t, --tables DIR      tables directory (default $PUZZLETB_TABLES "
        "or\n"
        "                        %s)\n"
        "  -w, --web DIR         the page's files (default %s)\n"
        "  -b, --bind ADDR       address to listen on (default 127.0.0.1)\n"
        "  -p, --port N          port, 0 for any free one (default 8080)\n"
        "  -j, --threads N       worker threads, 1..256 (default: the cores)\n"
        "  -c, --connections N   connections at once, 1..65536 (default "
        "512)\n"
        "  -C, --cache N         answers kept for repeated queries, 0..1000000"
        "\n"
        "                        (default 4096; 0: none)\n"
        "  -S, --search-seconds S\n"
        "                        time limit of one search (a puzzle answered"
        "\n"
        "                        from pattern tables), 0.001..86400 "
        "(default 10)\n"
        "  -h, --help            this help\n"
        "  -V, --version         version\n\n"
        "Logs one line per request to stderr: method, path, status,\n"
        "microseconds.  Stops on SIGINT or SIGTERM.\n"
        "exit status: 0 stopped by a signal, 1 cannot start, 2 bad usage\n",
        PTB_TABLES_DIR, PTB_WEB_DIR);
    return status;
}

static int bad_usage(const char *fmt, ...)
{
    va_list ap;
    fputs("tbserve: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'tbserve --help'.\n", stderr);
    return 2;
}

static int number(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || errno || *s == '-' || v < lo || v > hi)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int seconds(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!*s || *end || errno || !(v >= 0.001 && v <= 86400))
        return -1;
    *out = v;
    return 0;
}

/* Returns 0 to run, -1 to exit 0 (help, version), or an exit status. */
static int parse_args(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        { "tables",      required_argument, NULL, 't' },
        { "web",         required_argument, NULL, 'w' },
        { "bind",        required_argument, NULL, 'b' },
        { "port",        required_argument, NULL, 'p' },
        { "threads",     required_argument, NULL, 'j' },
        { "connections", required_argument, NULL, 'c' },
        { "cache",       required_argument, NULL, 'C' },
        { "search-seconds", required_argument, NULL, 'S' },
        { "help",        no_argument,       NULL, 'h' },
        { "version",     no_argument,       NULL, 'V' },
        { NULL, 0, NULL, 0 }
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:w:b:p:j:c:C:S:hV", longopts, NULL))
           != -1) {
        switch (c) {
        case 't': o->tables = optarg; break;
        case 'w': o->web = optarg; break;
        case 'b': o->bind = optarg; break;
        case 'p':
            if (number(optarg, 0, 65535, &o->port))
                return bad_usage("--port takes 0..65535, got '%s'", optarg);
            break;
        case 'j':
            if (number(optarg, 1, 256, &o->threads))
                return bad_usage("--threads takes 1..256, got '%s'", optarg);
            break;
        case 'c':
            if (number(optarg, 1, 65536, &o->connections))
                return bad_usage("--connections takes 1..65536, got '%s'",
                                 optarg);
            break;
        case 'C':
            if (number(optarg, 0, 1000000, &o->cache))
                return bad_usage("--cache takes 0..1000000, got '%s'",
                                 optarg);
            break;
        case 'S':
            if (seconds(optarg, &o->search_seconds))
                return bad_usage("--search-seconds takes 0.001..86400, got "
                                 "'%s'", optarg);
            break;
        case 'h': usage(stdout, 0); return -1;
        case 'V': printf("tbserve %s\n", ptb_version()); return -1;
        case ':':
            return bad_usage("option '%s' needs a value", argv[optind - 1]);
        default:
            return bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return bad_usage("unexpected argument '%s'", argv[optind]);
    unsigned char a6[16];
    if (inet_pton(AF_INET, o->bind, a6) != 1 &&
        inet_pton(AF_INET6, o->bind, a6) != 1)
        return bad_usage("--bind takes an IPv4 or IPv6 address, got '%s'",
                         o->bind);
    return 0;
}

/* ==== static files ==== */

static const char *content_type(const char *name)
{
    static const char *const types[][2] = {
        { ".html", "text/html; charset=utf-8" },
        { ".js",   "text/javascript; charset=utf-8" },
        { ".css",  "text/css; charset=utf-8" },
        { ".svg",  "image/svg+xml" },
        { ".png",  "image/png" },
        { ".ico",  "image/x-icon" },
        { ".txt",  "text/plain; charset=utf-8" },
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof *types; i++)
        if (!strcmp(dot, types[i][0]))
            return types[i][1];
    return NULL;
}

static int load_file(web_file *f, const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    if (fstat(fileno(in), &st) || !S_ISREG(st.st_mode) ||
        st.st_size > MAX_FILE_SIZE || !(f->data = malloc(st.st_size + 1))) {
        fclose(in);
        return -1;
    }
    f->len = fread(f->data, 1, (size_t)st.st_size, in);
    fclose(in);
    memcpy(f->name, name, strlen(name) + 1);  /* load_web checked its size */
    f->type = content_type(name);
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < f->len; i++)
        h = (h ^ (unsigned char)f->data[i]) * 0x100000001b3u;
    snprintf(f->etag, sizeof f->etag, "\"%016" PRIx64 "\"", h);
    return 0;
}

/* Reads the web directory's files (plain names, known types) once. */
static void load_web(app *a, const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        fprintf(stderr, "tbserve: %s: %s; the page at / is not served\n",
                dir, strerror(errno));
        return;
    }
    while ((e = readdir(d)) != NULL && a->nfiles < MAX_FILES) {
        const char *n = e->d_name;
        if (n[0] == '.' || strlen(n) >= sizeof a->file[0].name ||
            n[strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789._-")] || !content_type(n))
            continue;
        if (load_file(&a->file[a->nfiles], dir, n) == 0)
            a->nfiles++;
    }
    closedir(d);
}

static const web_file *find_file(const app *a, const char *path)
{
    const char *name = !strcmp(path, "/") ? "index.html" : path + 1;
    for (unsigned i = 0; i < a->nfiles; i++)
        if (!strcmp(a->file[i].name, name))
            return &a->file[i];
    return NULL;
}

/* ==== requests ==== */

static struct MHD_Response *make_response(const serve_reply *rep,
                                         const char *type)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(
        rep->len, (void *)rep->body, MHD_RESPMEM_MUST_COPY);
    if (!r)
        return NULL;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'");
    if (rep->etag)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, rep->etag);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            rep->cache ? "public, max-age=3600" : "no-cache");
    if (rep->status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    return r;
}

static enum MHD_Result send_reply(struct MHD_Connection *con,
                                  const serve_reply *rep, const char *type,
                                  req_log *log)
{
    struct MHD_Response *r = make_response(rep, type);
    if (!r)
        return MHD_NO;
    if (log)
        log->status = rep->status;
    enum MHD_Result ok = MHD_queue_response(con, rep->status, r);
    MHD_destroy_response(r);
    return ok;
}

/* ==== the answer cache ==== */

static int cache_init(cache *c, unsigned n)
{
    c->n = n;
    if (n && !(c->e = calloc(n, sizeof *c->e)))
        return -1;
    for (unsigned i = 0; i < CACHE_LOCKS; i++)
        pthread_mutex_init(&c->lock[i], NULL);
    return 0;
}

static void cache_free(cache *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (c->e[i].resp)
            MHD_destroy_response(c->e[i].resp);
    for (unsigned i = 0; i < CACHE_LOCKS; i++)
        pthread_mutex_destroy(&c->lock[i]);
    free(c->e);
}

static unsigned cache_slot(const cache *c, const char *key)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 0x100000001b3u;
    return (unsigned)(h % c->n);
}

/* Sends the cached answer for log->key, if there is one; 1 when sent. */
static int cache_send(cache *c, struct MHD_Connection *con, req_log *log,
                      enum MHD_Result *ok)
{
    if (!c->n || !log || !log->key[0])
        return 0;
    unsigned i = cache_slot(c, log->key);
    cache_entry *e = &c->e[i];
    int hit = 0;
    pthread_mutex_lock(&c->lock[i % CACHE_LOCKS]);
    if (e->resp && !strcmp(e->key, log->key)) {
        const char *inm = MHD_lookup_connection_value(con, MHD_HEADER_KIND,
                                                      "If-None-Match");
        hit = 1;
        if (inm && strstr(inm, e->etag)) {
            serve_reply rep = { 304, "", 0, e->etag, 1 };
            *ok = send_reply(con, &rep, "application/json", log);
        } else {
            log->status = 200;
            *ok = MHD_queue_response(con, 200, e->resp);
        }
    }
    pthread_mutex_unlock(&c->lock[i % CACHE_LOCKS]);
    return hit;
}

/* Sends an answer, keeping it when it may be cached. */
static enum MHD_Result cache_reply(cache *c, struct MHD_Connection *con,
                                   const serve_reply *rep, req_log *log)
{
    if (!c->n || !log || !log->key[0] || rep->status != 200 || !rep->cache ||
        rep->len > CACHE_MAX_BODY)
        return send_reply(con, rep, "application/json", log);
    struct MHD_Response *r = make_response(rep, "application/json");
    if (!r)
        return MHD_NO;
    log->status = rep->status;
    enum MHD_Result ok = MHD_queue_response(con, rep->status, r);
    unsigned i = cache_slot(c, log->key);
    cache_entry *e = &c->e[i];
    pthread_mutex_lock(&c->lock[i % CACHE_LOCKS]);
    struct MHD_Response *old = e->resp;
    memcpy(e->key, log->key, sizeof e->key);
    snprintf(e->etag, sizeof e->etag, "%s", rep->etag ? rep->etag : "");
    e->resp = r;
    pthread_mutex_unlock(&c->lock[i % CACHE_LOCKS]);
    if (old)
        MHD_destroy_response(old);
    return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *con, unsigned status,
                                  const char *msg, req_log *log)
{
    char buf[512];
    serve_reply rep;
    serve_error_body(status, msg, buf, sizeof buf, &rep);
    return send_reply(con, &rep, "application/json", log);
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind,
                                   const char *key, size_t key_size,
                                   const char *value, size_t value_size)
{
    serve_request *rq = cls;
    (void)kind;
    if (rq->nargs == SERVE_MAX_ARGS) {
        rq->too_many_args = 1;
        return MHD_NO;
    }
    if (strlen(key) != key_size || (value && strlen(value) != value_size))
        rq->bad_arg = 1;
    rq->arg[rq->nargs++] = (serve_arg){ key, value ? value : "",
                                        value ? value_size : 0 };
    return MHD_YES;
}

static enum MHD_Result serve_static(app *a, struct MHD_Connection *con,
                                    const char *url, req_log *log)
{
    const web_file *f = find_file(a, url);
    if (!f)
        return send_error(con, 404, "no such page", log);
    const char *inm = MHD_lookup_connection_value(con, MHD_HEADER_KIND,
                                                  "If-None-Match");
    serve_reply rep = { 200, f->data, f->len, f->etag, 0 };
    if (inm && strstr(inm, f->etag))
        rep = (serve_reply){ 304, "", 0, f->etag, 0 };
    return send_reply(con, &rep, f->type, log);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *con,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    app *a = cls;
    req_log *log = *con_cls;
    (void)version, (void)upload, (void)upload_size;
    if (log)
        for (size_t i = 0; i + 1 < sizeof log->method && method[i]; i++)
            log->method[i] = method[i] > ' ' && method[i] < 0x7f ? method[i]
                                                                 : '?';
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return send_error(con, 405, "only GET and HEAD are served", log);
    /* A GET with a body is refused at once (libmicrohttpd then closes the
     * connection); a response queued later, with the body half read, could
     * not be sent. */
    const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND,
                                                 "Content-Length");
    if ((cl && strcmp(cl, "0")) ||
        MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Transfer-Encoding"))
        return send_error(con, 400, "a GET takes no body", log);
    /* A response queued at the first call, as the headers arrive, makes
     * libmicrohttpd close the connection; the second call keeps it open. */
    if (log && !log->called) {
        log->called = 1;
        return MHD_YES;
    }
    if (log && log->nul && strncmp(url, "/api/", 5))
        return send_error(con, 400, "a NUL byte in the path", log);
    if (strncmp(url, "/api/", 5) && strcmp(url, "/api"))
        return serve_static(a, con, url, log);
    if (strncmp(url, "/api/v1/", 8))
        return send_error(con, 404, "no such API version (this is /api/v1/)",
                          log);
    enum MHD_Result ok;
    if (cache_send(&a->cache, con, log, &ok))
        return ok;
    serve_request rq = { .path = url };
    serve_reply rep;
    rq.if_none_match = MHD_lookup_connection_value(con, MHD_HEADER_KIND,
                                                   "If-None-Match");
    MHD_get_connection_values_n(con, MHD_GET_ARGUMENT_KIND, collect_arg, &rq);
    serve_api(&a->srv, &rq, &rep);
    return cache_reply(&a->cache, con, &rep, log);
}

/* ==== the log ==== */

static void *log_start(void *cls, const char *uri, struct MHD_Connection *con)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(con, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    req_log *log = ci ? ci->socket_context : NULL;
    (void)cls;
    if (!log)
        return NULL;
    memset(log, 0, sizeof *log);
    log->pending = 1;
    clock_gettime(CLOCK_MONOTONIC, &log->start);
    strcpy(log->method, "-");
    size_t i = 0;
    for (; uri[i] && uri[i] != '?' && i + 4 < sizeof log->uri; i++)
        log->uri[i] = (unsigned char)uri[i] > ' ' &&
                      (unsigned char)uri[i] < 0x7f ? uri[i] : '?';
    if (uri[i] && uri[i] != '?')
        strcpy(log->uri + i, "...");
    if (strlen(uri) < sizeof log->key)
        strcpy(log->key, uri);
    log->nul = strstr(uri, "%00") != NULL;
    return log;
}

static void log_line(req_log *log, const char *why)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long us = (now.tv_sec - log->start.tv_sec) * 1000000L +
              (now.tv_nsec - log->start.tv_nsec) / 1000;
    if (log->status)
        fprintf(stderr, "%s %s %u %ld\n", log->method, log->uri, log->status,
                us);
    else
        fprintf(stderr, "%s %s - %ld (%s)\n", log->method, log->uri, us, why);
    log->pending = 0;
}

static void log_end(void *cls, struct MHD_Connection *con, void **con_cls,
                    enum MHD_RequestTerminationCode how)
{
    req_log *log = *con_cls;
    (void)cls, (void)con;
    if (log && log->pending)
        log_line(log, how == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED
                      ? "timed out"
                      : how == MHD_REQUEST_TERMINATED_CLIENT_ABORT
                      ? "client left" : "refused");
    *con_cls = NULL;
}

static void log_connection(void *cls, struct MHD_Connection *con,
                           void **socket_context,
                           enum MHD_ConnectionNotificationCode what)
{
    (void)cls, (void)con;
    if (what == MHD_CONNECTION_NOTIFY_STARTED) {
        *socket_context = calloc(1, sizeof(req_log));
    } else {
        req_log *log = *socket_context;
        if (log && log->pending)
            log_line(log, "refused or left");
        free(log);
        *socket_context = NULL;
    }
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    line[strcspn(line, "\n")] = '\0';
    fprintf(stderr, "tbserve: libmicrohttpd: %s\n", line);
}

/* ==== the process ==== */

static struct MHD_Daemon *start(app *a, const options *o, char *addr,
                                size_t cap)
{
    struct sockaddr_in in4 = { .sin_family = AF_INET };
    struct sockaddr_in6 in6 = { .sin6_family = AF_INET6 };
    struct sockaddr *sa = (struct sockaddr *)&in4;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (inet_pton(AF_INET, o->bind, &in4.sin_addr) == 1) {
        in4.sin_port = htons((uint16_t)o->port);
    } else if (inet_pton(AF_INET6, o->bind, &in6.sin6_addr) == 1) {
        in6.sin6_port = htons((uint16_t)o->port);
        sa = (struct sockaddr *)&in6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;                        /* checked by parse_args() */
    }
    /* poll, not epoll: with epoll, libmicrohttpd 0.9.75 misses a client
     * that half-closes mid-request (the connection then waits for its
     * timeout); measured no slower here */
    flags |= MHD_USE_POLL;
    struct MHD_OptionItem pool[] = {
        { o->threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END,
          o->threads, NULL },
        { MHD_OPTION_END, 0, NULL }
    };
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)o->port, NULL, NULL, handle, a,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, (void *)a,
        MHD_OPTION_SOCK_ADDR, sa,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->connections,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_CONN_MEMORY,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT,
        MHD_OPTION_URI_LOG_CALLBACK, log_start, (void *)a,
        MHD_OPTION_NOTIFY_COMPLETED, log_end, (void *)a,
        MHD_OPTION_NOTIFY_CONNECTION, log_connection, (void *)a,
        MHD_OPTION_ARRAY, pool,
        MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "tbserve: cannot listen on %s port %u\n", o->bind,
                o->port);
        return NULL;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    snprintf(addr, cap, sa == (struct sockaddr *)&in6 ? "[%s]:%u" : "%s:%u",
             o->bind, info ? info->port : o->port);
    return d;
}

int main(int argc, char **argv)
{
    options o = { NULL, PTB_WEB_DIR, "127.0.0.1", 8080, 0, 512, 4096, 10 };
    int status = parse_args(argc, argv, &o);
    if (status)
        return status < 0 ? 0 : status;
    if (!o.tables)
        o.tables = getenv("PUZZLETB_TABLES");
    if (!o.tables || !*o.tables)
        o.tables = PTB_TABLES_DIR;
    if (!o.threads) {
        ptb_build_opts bo;
        ptb_build_opts_init(&bo);           /* its thread count: the cores */
        o.threads = bo.threads;
    }

    /* SIGINT and SIGTERM wait for sigwait(); every thread inherits this */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    app *a = calloc(1, sizeof *a);
    char msg[256], addr[128];
    if (!a) {
        fprintf(stderr, "tbserve: out of memory\n");
        return 1;
    }
    status = 1;
    if (cache_init(&a->cache, o.cache) != 0) {
        fprintf(stderr, "tbserve: out of memory for --cache %u\n", o.cache);
    } else if (serve_open(&a->srv, o.tables, msg, sizeof msg) != PTB_OK) {
        fprintf(stderr, "tbserve: %s\n", msg);
    } else {
        a->srv.search_seconds = o.search_seconds;
        load_web(a, o.web);
        struct MHD_Daemon *d = start(a, &o, addr, sizeof addr);
        if (d) {
            int sig;
            fprintf(stderr, "tbserve: listening on http://%s/ (tables %s, "
                    "web %s, %u threads)\n", addr, o.tables, o.web, o.threads);
            sigwait(&stop, &sig);
            fprintf(stderr, "tbserve: %s: stopping\n",
                    sig == SIGINT ? "SIGINT" : "SIGTERM");
            MHD_stop_daemon(d);
            status = 0;
        }
    }
    serve_close(&a->srv);
    cache_free(&a->cache);
    for (unsigned i = 0; i < a->nfiles; i++)
        free(a->file[i].data);
    free(a);
    return status;
}
