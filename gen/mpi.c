/* gen/mpi.c: ptb_cluster (puzzletb.h) on MPI, for tbgen-mpi: the
 * library's all-to-all exchange is MPI_Alltoallv and its sum
 * MPI_Allreduce, both on MPI_COMM_WORLD.  A family's run (--family) is
 * split by tasks: process 0 hands them out one at a time to the others'
 * threads as they ask and writes the records they send back to its
 * checkpoint (point-to-point messages, tags below); MPI is asked for
 * MPI_THREAD_SERIALIZED, as a process's threads take turns to call it.  MPI's default error handler
 * stands: an MPI failure, or a process killed, ends the whole job (mpirun
 * says which process and exits non-zero).  Built only where mpicc is
 * found (Makefile). */
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

/* A family's messages: a process asks for a task (its count of tasks,
 * uint32), process 0 answers (int64, -1: none left); a task's record
 * (chars); a run's end (chars: its status, a space, its message). */
enum { TAG_TAKE = 1, TAG_TASK, TAG_RECORD, TAG_DONE };
#define MESSAGE_MAX 600

static struct {
    int rank, ranks, level;
    int *ints;                 /* 4 * ranks: counts and displacements */
    uint64_t sent;             /* words sent to other processes */
} mpi;

/* MPI's counts and displacements (c, at) of count[r] words for each
 * process r; 0 when they fit MPI's int. */
static int to_ints(const uint64_t *count, int *c, int *at)
{
    uint64_t total = 0;
    for (int r = 0; r < mpi.ranks; r++) {
        if (count[r] > INT_MAX || total > INT_MAX)
            return 1;
        c[r] = (int)count[r];
        at[r] = (int)total;
        total += count[r];
    }
    return total > INT_MAX;
}

static int exchange(void *ctx, const uint64_t *send, const uint64_t *count,
                    uint64_t *recv, const uint64_t *got)
{
    int *sc = mpi.ints, *sd = sc + mpi.ranks, *rc = sd + mpi.ranks;
    int *rd = rc + mpi.ranks;
    (void)ctx;
    if (to_ints(count, sc, sd) || to_ints(got, rc, rd))
        return PTB_EINVAL;     /* (the library's rounds keep far below) */
    for (int r = 0; r < mpi.ranks; r++)
        mpi.sent += r == mpi.rank ? 0 : count[r];
    return MPI_Alltoallv(send, sc, sd, MPI_UINT64_T, recv, rc, rd,
                         MPI_UINT64_T, MPI_COMM_WORLD) == MPI_SUCCESS
               ? PTB_OK
               : PTB_EIO;
}

static int sum(void *ctx, uint64_t *v, unsigned n)
{
    (void)ctx;
    return MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM,
                         MPI_COMM_WORLD) == MPI_SUCCESS
               ? PTB_OK
               : PTB_EIO;
}

int cluster_start(int *argc, char ***argv, ptb_cluster *c)
{
    int level;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &level) !=
            MPI_SUCCESS ||
        MPI_Comm_rank(MPI_COMM_WORLD, &mpi.rank) != MPI_SUCCESS ||
        MPI_Comm_size(MPI_COMM_WORLD, &mpi.ranks) != MPI_SUCCESS) {
        fprintf(stderr, "tbgen-mpi: MPI did not start\n");
        return 1;
    }
    mpi.level = level;
    if (level < MPI_THREAD_FUNNELED) {
        fprintf(stderr, "tbgen-mpi: MPI gives no MPI_THREAD_FUNNELED\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!(mpi.ints = malloc(4 * (size_t)mpi.ranks * sizeof *mpi.ints))) {
        fprintf(stderr, "tbgen-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (mpi.rank && (!freopen("/dev/null", "w", stdout) ||
                 !freopen("/dev/null", "w", stderr)))
        MPI_Abort(MPI_COMM_WORLD, 1);
    *c = (ptb_cluster){ .rank = (unsigned)mpi.rank,
                        .ranks = (unsigned)mpi.ranks, .exchange = exchange,
                        .sum = sum };
    return 0;
}

void cluster_report(const char *file, uint64_t states)
{
    uint64_t bytes = 8 * mpi.sent;
    mpi.sent = 0;
    sum(NULL, &bytes, 1);
    if (mpi.rank == 0)
        fprintf(stderr, "tbgen-mpi: %s: %d processes sent each other %llu "
                "bytes, %.2f a state\n", file, mpi.ranks,
                (unsigned long long)bytes,
                states ? (double)bytes / (double)states : 0.0);
}

void cluster_end(void)
{
    free(mpi.ints);
    MPI_Finalize();
}

/* ---- a family's tasks ------------------------------------------------ */

int cluster_family_take(void *ctx, unsigned ntask, unsigned *task)
{
    uint32_t n = ntask;
    int64_t t;
    (void)ctx;
    if (MPI_Send(&n, 1, MPI_UINT32_T, 0, TAG_TAKE, MPI_COMM_WORLD) !=
            MPI_SUCCESS ||
        MPI_Recv(&t, 1, MPI_INT64_T, 0, TAG_TASK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    if (t < 0)
        return 0;
    *task = (unsigned)t;
    return 1;
}

int cluster_family_give(void *ctx, unsigned task, const char *rec,
                        size_t len)
{
    static long given;
    const char *k = getenv("PTB_TEST_KILL_AFTER");
    (void)ctx;
    (void)task;
    if (len > INT_MAX ||
        MPI_Send(rec, (int)len, MPI_CHAR, 0, TAG_RECORD, MPI_COMM_WORLD) !=
            MPI_SUCCESS)
        return -1;
    if (k && ++given >= atol(k) && atol(k) > 0)
        raise(SIGKILL);
    return 0;
}

void cluster_family_done(int status, const char *message)
{
    char m[MESSAGE_MAX];
    int n = snprintf(m, sizeof m, "%d %s", status, message ? message : "");
    if (n >= (int)sizeof m)
        n = (int)sizeof m - 1;
    MPI_Send(m, n + 1, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
}

/* Process 0's state while it serves a family's tasks. */
typedef struct serve {
    const char *family, *text, *ckpt;
    unsigned ntask, next, ndone;
    unsigned char *done, *handed;
    ptb_family_journal *j;
    int status;                /* 0, or the first failure's */
    void (*progress)(void *, const char *, uint64_t, uint64_t);
    void *ctx;
} serve;

/* The first failure: its status kept, its line printed ("tbgen-mpi:
 * FAMILY: ..."). */
static void fail(serve *s, int status, const char *fmt, ...)
{
    va_list ap;
    if (s->status)
        return;
    s->status = status;
    fprintf(stderr, "tbgen-mpi: %s: ", s->family);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* A request for a task from process 'from', whose run counts n tasks. */
static void on_take(serve *s, int from, uint32_t n)
{
    int64_t t = -1;
    if (!s->status && !s->j) {
        char err[256] = "";
        unsigned held = 0;
        s->ntask = n;
        if (!(s->done = calloc(n ? n : 1, 1)) ||
            !(s->handed = calloc(n ? n : 1, 1)))
            fail(s, 1, "out of memory");
        else {
            int rc = ptb_family_journal_open(s->ckpt, s->text, n, s->done,
                                             &s->j, err, sizeof err);
            if (rc != PTB_OK)
                fail(s, 1, "%s", err[0] ? err : ptb_strerror(rc));
        }
        for (unsigned i = 0; !s->status && i < n; i++)
            held += s->done[i];
        s->ndone = held;
        if (!s->status && held && s->progress)
            s->progress(s->ctx, "resume", held, n);
    } else if (!s->status && n != s->ntask)
        fail(s, 1, "process %d counts %u tasks, the first to ask %u", from,
             (unsigned)n, s->ntask);
    if (!s->status) {
        while (s->next < s->ntask &&
               (s->done[s->next] || s->handed[s->next]))
            s->next++;
        if (s->next < s->ntask) {
            t = s->next;
            s->handed[s->next] = 1;
        }
    }
    MPI_Send(&t, 1, MPI_INT64_T, from, TAG_TASK, MPI_COMM_WORLD);
}

int cluster_family_serve(const char *family, const char *text,
                         const char *ckpt,
                         void (*progress)(void *, const char *, uint64_t,
                                          uint64_t),
                         void *ctx)
{
    serve s = { .family = family, .text = text, .ckpt = ckpt,
                .progress = progress, .ctx = ctx };
    char *buf = NULL;
    size_t cap = 0;
    int ended = 0;
    if (mpi.level < MPI_THREAD_SERIALIZED)
        fail(&s, 1, "MPI gives no MPI_THREAD_SERIALIZED, which a family's "
             "run needs");
    while (ended < mpi.ranks - 1) {
        MPI_Status st;
        int len, from;
        uint32_t n;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        from = st.MPI_SOURCE;
        if (st.MPI_TAG == TAG_TAKE) {
            MPI_Recv(&n, 1, MPI_UINT32_T, from, TAG_TAKE, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            on_take(&s, from, n);
            continue;
        }
        MPI_Get_count(&st, MPI_CHAR, &len);
        if (len < 0 || (size_t)len + 1 > cap) {
            free(buf);
            cap = len < 0 ? 1 : (size_t)len + 1;
            if (!(buf = malloc(cap))) {
                fprintf(stderr, "tbgen-mpi: out of memory\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        MPI_Recv(buf, len < 0 ? 0 : len, MPI_CHAR, from, st.MPI_TAG,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buf[len < 0 ? 0 : len] = '\0';
        if (st.MPI_TAG == TAG_RECORD && !s.status) {
            unsigned task;
            int rc = s.j ? ptb_family_journal_add(s.j, buf, (size_t)len,
                                                  &task)
                         : PTB_EFORMAT;
            if (rc == PTB_EFORMAT)
                fail(&s, 1, "process %d sent a record the checkpoint "
                     "refuses", from);
            else if (rc != PTB_OK)
                fail(&s, 1, "%s: %s", ckpt, ptb_strerror(rc));
            else if (++s.ndone, progress)
                progress(ctx, "search", s.ndone, s.ntask);
        } else if (st.MPI_TAG == TAG_DONE) {
            int status = atoi(buf);
            const char *m = strchr(buf, ' ');
            ended++;
            if (status)
                fail(&s, status, "%s (process %d)", m ? m + 1 : "", from);
        }
    }
    free(buf);
    if (!s.status && s.ndone < s.ntask)
        fail(&s, 1, "the processes ended with %u tasks left",
             s.ntask - s.ndone);
    ptb_family_journal_close(s.j);
    free(s.done);
    free(s.handed);
    return s.status;
}

int cluster_agree(int status)
{
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX,
                  MPI_COMM_WORLD);
    return status;
}
