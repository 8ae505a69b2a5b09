/* tests/t_cluster.c: the library's build split between processes
 * (ptb_build_opts.cluster), without MPI: the "processes" are threads of
 * this test, and the transport, written here, copies between them at a
 * barrier.  So the split's code runs wherever the tests run, under the
 * sanitizers and ThreadSanitizer too (tests/t_mpi.sh runs it on MPI).
 * For each case every member must return PTB_OK and member 0 must write,
 * byte for byte, the file one process wrote into tables/ (which the other
 * tests prove): exact values, residues and mod-4 tables; 1 to 4 members
 * of 1 or 2 threads; slices that split no puzzle evenly, empty ones; a
 * round of the exchange after every chunk.  A member that fails (its
 * checkpoint cannot be made) makes every member return its code, and no
 * table is written. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "puzzletb.h"
#include "tables.h"

#define MAX_MEMBERS 4

/* What the members share: each one's buffers for the collective under
 * way, and the barrier that orders it. */
typedef struct hub {
    unsigned ranks;
    pthread_barrier_t bar;
    const uint64_t *send[MAX_MEMBERS], *count[MAX_MEMBERS];
    uint64_t *v[MAX_MEMBERS];
    int mismatch;              /* a member's got[] is not the sender's */
} hub;

typedef struct member {
    hub *h;
    ptb_cluster cl;
    const ptb_puzzle *p;
    const char *metric, *dir, *ckpt;
    unsigned threads;
    int rc;
} member;

static int exchange(void *ctx, const uint64_t *send, const uint64_t *count,
                    uint64_t *recv, const uint64_t *got)
{
    member *m = ctx;
    hub *h = m->h;
    unsigned me = m->cl.rank;
    h->send[me] = send;
    h->count[me] = count;
    pthread_barrier_wait(&h->bar);
    for (unsigned r = 0; r < h->ranks; r++) {
        uint64_t at = 0;
        for (unsigned k = 0; k < me; k++)
            at += h->count[r][k];
        if (h->count[r][me] != got[r])
            __atomic_store_n(&h->mismatch, 1, __ATOMIC_RELAXED);
        else if (got[r])
            memcpy(recv, h->send[r] + at, got[r] * sizeof *recv);
        recv += got[r];
    }
    pthread_barrier_wait(&h->bar);     /* every send read: reusable */
    return PTB_OK;
}

static int sum(void *ctx, uint64_t *v, unsigned n)
{
    member *m = ctx;
    hub *h = m->h;
    uint64_t *t = calloc(n ? n : 1, sizeof *t);
    h->v[m->cl.rank] = v;
    pthread_barrier_wait(&h->bar);
    for (unsigned r = 0; t && r < h->ranks; r++)
        for (unsigned i = 0; i < n; i++)
            t[i] += h->v[r][i];
    pthread_barrier_wait(&h->bar);     /* every v read: replaced */
    if (t)
        memcpy(v, t, n * sizeof *v);
    free(t);
    return t ? PTB_OK : PTB_ENOMEM;
}

static void *run_member(void *arg)
{
    member *m = arg;
    ptb_space *s = NULL;
    ptb_build_opts o;
    ptb_table_info info;
    ptb_build_opts_init(&o);
    o.threads = m->threads;
    o.cluster = &m->cl;
    o.checkpoint = m->ckpt;
    m->rc = ptb_space_new(m->p, m->metric, &s);
    if (m->rc == PTB_OK)
        m->rc = ptb_build(s, m->dir, &o, &info);
    ptb_space_close(s);
    return NULL;
}

/* Whether files a and b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb, c = 0;
    while (same && c != EOF) {
        c = getc(fa);
        same = c == getc(fb);
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Builds p's table (metric may be NULL) on 'ranks' members of 'threads'
 * threads each into dir; member 'broken' (or none: ranks) gets a
 * checkpoint it cannot make.  Every member's code into rc[]. */
static void build(const ptb_puzzle *p, const char *metric, unsigned ranks,
                  unsigned threads, const char *dir, unsigned broken,
                  int rc[MAX_MEMBERS])
{
    hub h = { .ranks = ranks };
    member m[MAX_MEMBERS];
    pthread_t tid[MAX_MEMBERS];
    char ckpt[MAX_MEMBERS][256];
    pthread_barrier_init(&h.bar, NULL, ranks);
    for (unsigned r = 0; r < ranks; r++) {
        snprintf(ckpt[r], sizeof ckpt[r], "%s/%s/ckpt.%u", dir,
                 r == broken ? "missing" : ".", r);
        m[r] = (member){ .h = &h, .p = p, .metric = metric, .dir = dir,
                         .ckpt = ckpt[r], .threads = threads,
                         .cl = { .rank = r, .ranks = ranks, .ctx = &m[r],
                                 .exchange = exchange, .sum = sum } };
        pthread_create(&tid[r], NULL, run_member, &m[r]);
    }
    for (unsigned r = 0; r < ranks; r++) {
        pthread_join(tid[r], NULL);
        rc[r] = m[r].rc;
    }
    pthread_barrier_destroy(&h.bar);
    check(!h.mismatch, "every member received what the others sent it");
}

typedef struct split {
    const char *puzzle;        /* a built-in puzzle, or puzzles/NAME.txt */
    const char *metric;
    unsigned ranks, threads, round_chunks;
} split;

static void one_case(const split *c, const char *tmp)
{
    ptb_puzzle *loaded = NULL;
    const ptb_puzzle *p = ptb_puzzle_find(c->puzzle);
    char err[256], dir[512], file[128], ref[600], out[700];
    int rc[MAX_MEMBERS], ok = 1;
    ptb_space *s = NULL;
    if (!p && ptb_puzzle_load_file(c->puzzle, &loaded, err, sizeof err) ==
                  PTB_OK)
        p = loaded;
    if (!check(p != NULL, "%s loads", c->puzzle))
        return;
    snprintf(dir, sizeof dir, "%s/%s-%s-%u-%u", tmp, ptb_puzzle_name(p),
             c->metric ? c->metric : "", c->ranks, c->threads);
    if (mkdir(dir, 0755) != 0) {
        check(0, "mkdir %s", dir);
        ptb_puzzle_free(loaded);
        return;
    }
    if (c->round_chunks) {
        char n[16];
        snprintf(n, sizeof n, "%u", c->round_chunks);
        setenv("PTB_TEST_ROUND_CHUNKS", n, 1);
    }
    build(p, c->metric, c->ranks, c->threads, dir, c->ranks, rc);
    unsetenv("PTB_TEST_ROUND_CHUNKS");
    for (unsigned r = 0; r < c->ranks; r++)
        ok &= rc[r] == PTB_OK;
    ptb_space_new(p, c->metric, &s);
    ptb_space_file(s, file, sizeof file);
    ptb_space_close(s);
    snprintf(ref, sizeof ref, "%s/%s", tables_dir(), file);
    snprintf(out, sizeof out, "%s/%s", dir, file);
    check(ok && same_file(ref, out),
          "%s on %u members of %u threads%s: member 0 wrote %s as one "
          "process did", c->puzzle, c->ranks, c->threads,
          c->round_chunks ? ", a round a chunk" : "", file);
    ptb_puzzle_free(loaded);
}

int main(void)
{
    static const split cases[] = {
        { "frog", NULL, 2, 1, 0 },                     /* exact values */
        { "four", NULL, 3, 2, 0 },
        { "puzzles/eight.txt", NULL, 4, 1, 0 },        /* mod 4 */
        { "puzzles/ma.txt", "move", 1, 2, 0 },         /* residues */
        { "puzzles/ma.txt", "move", 3, 2, 1 },
        { "puzzles/century.txt", "line", 2, 2, 0 },
        { "puzzles/rush-60.txt", "step", 4, 2, 0 },    /* empty slices */
    };
    char tmp[] = "/tmp/t_cluster.XXXXXX", dir[64], cmd[128];
    int rc[MAX_MEMBERS];
    if (!check(mkdtemp(tmp) != NULL, "a temporary directory"))
        return check_done();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        one_case(&cases[i], tmp);

    /* member 2 of 3 cannot make its checkpoint: every member returns its
     * error (the first failing member's), and nothing is written */
    snprintf(dir, sizeof dir, "%s/broken", tmp);
    mkdir(dir, 0755);
    build(ptb_puzzle_find("four"), NULL, 3, 1, dir, 2, rc);
    check(rc[0] != PTB_OK && rc[0] == rc[1] && rc[1] == rc[2],
          "a member without its checkpoint: all 3 fail with its code (%s)",
          ptb_strerror(rc[2]));
    snprintf(cmd, sizeof cmd, "test -z \"$(ls %s)\"", dir);
    check(system(cmd) == 0, "... and nothing is left in the directory");

    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        check(0, "rm -rf %s", tmp);
    return check_done();
}
