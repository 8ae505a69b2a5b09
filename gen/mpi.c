/* gen/mpi.c: ptb_cluster (puzzletb.h) on MPI, for tbgen-mpi: the
 * library's all-to-all exchange is MPI_Alltoallv and its sum
 * MPI_Allreduce, both on MPI_COMM_WORLD.  MPI's default error handler
 * stands: an MPI failure, or a process killed, ends the whole job (mpirun
 * says which process and exits non-zero).  Built only where mpicc is
 * found (Makefile). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"

static struct {
    int rank, ranks;
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
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &level) !=
            MPI_SUCCESS ||
        MPI_Comm_rank(MPI_COMM_WORLD, &mpi.rank) != MPI_SUCCESS ||
        MPI_Comm_size(MPI_COMM_WORLD, &mpi.ranks) != MPI_SUCCESS) {
        fprintf(stderr, "tbgen-mpi: MPI did not start\n");
        return 1;
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
