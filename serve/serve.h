/* serve/serve.h: what the two halves of tbserve share.  main.c owns the
 * process (arguments, the HTTP daemon, static files, the request log,
 * signals); api.c answers /api/v1/ from libpuzzletb.  Nothing here is
 * public: tbserve is a program, and like tblookup it only uses puzzletb.h.
 *
 * Threads: one server is shared read-only by every connection thread once
 * started, except the table slots, which open their table on first use
 * under their own lock.  Each thread has its own workspace (readers, a
 * solution, the output buffer), made on first use and freed at thread exit.
 */
#ifndef TBSERVE_H
#define TBSERVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "puzzletb.h"

#define SERVE_MAX_PUZZLES 32
#define SERVE_MAX_METRICS 4
#define SERVE_SLOTS (SERVE_MAX_PUZZLES * SERVE_MAX_METRICS)
#define SERVE_MAX_POSITION 256      /* bytes; every notation is far shorter */
#define SERVE_MAX_OPTION 64         /* bytes of one query option's value */
#define SERVE_MAX_MOVES 1024        /* moves played from the position */
#define SERVE_MAX_RANDOM 64         /* positions drawn by one /random */
#define SERVE_MAX_LEVELS 1000       /* levels listed by one /levels/FAMILY */
#define SERVE_OUT_CAP (1u << 19)    /* bytes of one answer */

/* One puzzle and metric: its space (opened at start) and its table (opened
 * on first use; a failed open is retried by the next request, so tables
 * generated while the server runs are picked up).  A puzzle too big for a
 * table (with pattern groups and no full table) has its pattern tables
 * instead, and is answered by a search. */
typedef struct serve_slot {
    const ptb_puzzle *puzzle;
    const char *metric;
    ptb_space *space;
    pthread_mutex_t lock;
    atomic_int ready;               /* 1: table and etag are set for good */
    ptb_table *table;
    ptb_patterns *patterns;         /* instead of table: answers by search */
    char etag[24];                  /* "\"<16 hex digits>\"" */
    char path[512];                 /* DIR/FILE, for messages */
} serve_slot;


typedef struct serve_server {
    const char *tables;             /* tables directory */
    ptb_levels_cache *levels;       /* the families' levels tables, kept
                                       open while their files stay the
                                       same */
    /* the built-in puzzles, then the described ones whose tables were in
     * the directory at start (loaded: ptb_puzzle_free at close) */
    ptb_puzzle *puzzle[SERVE_MAX_PUZZLES];
    unsigned npuzzles;
    serve_slot slot[SERVE_SLOTS];   /* [i * SERVE_MAX_METRICS + m] */
    pthread_key_t work_key;         /* per-thread serve_work */
    double search_seconds;          /* a search's time limit (0: none) */
} serve_server;

/* An HTTP answer, filled by the API and sent by main.c. */
typedef struct serve_reply {
    unsigned status;
    const char *body;               /* not owned; copied when sent */
    size_t len;
    const char *etag;               /* NULL: none */
    int cache;                      /* 1: cacheable for as long as the table */
} serve_reply;

/* One query parameter as received (already percent-decoded). */
typedef struct serve_arg {
    const char *key, *value;        /* value "" when given without '=' */
    size_t value_len;
} serve_arg;

#define SERVE_MAX_ARGS 16

typedef struct serve_request {
    const char *path;               /* decoded path, from "/api/v1/" on */
    const char *if_none_match;      /* NULL when absent */
    serve_arg arg[SERVE_MAX_ARGS];
    unsigned nargs;
    int too_many_args;              /* more than SERVE_MAX_ARGS were given */
    int bad_arg;                    /* a key or value holds a NUL byte */
} serve_request;

/* Opens every puzzle's spaces (the built-in ones, and the described ones
 * whose tables, or pattern tables, are in the directory now); tables stay
 * closed.  Returns PTB_OK or the first failure (with msg filled).  Set
 * search_seconds after it. */
int serve_open(serve_server *srv, const char *tables, char *msg, size_t cap);
/* Closes tables and spaces; call after every connection thread has ended. */
void serve_close(serve_server *srv);

/* Answers a GET under /api/v1/: fills rep with a JSON body that lives in the
 * calling thread's workspace until its next call.  Never fails: errors are
 * answers (400, 404, 503 also for a search out of time, 500). */
void serve_api(serve_server *srv, const serve_request *rq, serve_reply *rep);

/* A JSON error answer {"error":MSG,"status":N} for main.c's own errors,
 * written into buf (cap bytes). */
void serve_error_body(unsigned status, const char *msg, char *buf, size_t cap,
                      serve_reply *rep);

#endif
