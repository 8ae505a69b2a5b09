/* gen/cluster.h: tbgen-mpi's transport (gen/mpi.c), the only part of
 * tbgen that knows MPI: gen/main.c compiled with -DPTB_MPI calls these. */
#ifndef TBGEN_CLUSTER_H
#define TBGEN_CLUSTER_H

#include "puzzletb.h"

/* Starts MPI and fills c with this process's rank and the collective
 * operations on MPI_COMM_WORLD; the processes other than 0 get stdout and
 * stderr sent to /dev/null (process 0 speaks for all: every process
 * returns the same codes).  0, or 1 after a message when MPI cannot
 * start. */
int cluster_start(int *argc, char ***argv, ptb_cluster *c);
/* Collective: after a build of a table of 'states' states, process 0
 * prints on stderr the bytes the processes sent each other during it, in
 * all and per state. */
void cluster_report(const char *file, uint64_t states);
void cluster_end(void);

/* tbgen-mpi --family, process 0: hands out the tasks of the family
 * 'text' to the other processes' runs, the next task not done to each
 * that asks, and appends each task's record they send back to the
 * checkpoint 'ckpt' (ptb_family_journal_add()), until every other process
 * has ended its run; progress(ctx, "resume", tasks taken back, tasks) at
 * the first request when the checkpoint held some, then progress(ctx,
 * "search", tasks done, tasks) after each record.  0 when every task is
 * in the checkpoint; else, after a one-line message, 1 (the checkpoint
 * refused, a record refused) or the status of the first process whose
 * run failed, with its message: the tasks done stay in the checkpoint. */
int cluster_family_serve(const char *family, const char *text,
                         const char *ckpt,
                         void (*progress)(void *, const char *, uint64_t,
                                          uint64_t),
                         void *ctx);
/* The other processes: ptb_family_opts's take() and give() (through
 * process 0), and the end of their run (its status, 0 when it went
 * well, and the line that says why not), which process 0 waits for.
 * For the tests: with PTB_TEST_KILL_AFTER=K in its environment, a process
 * kills itself (SIGKILL) after giving its Kth record. */
int cluster_family_take(void *ctx, unsigned ntask, unsigned *task);
int cluster_family_give(void *ctx, unsigned task, const char *rec,
                        size_t len);
void cluster_family_done(int status, const char *message);
/* Collective: the greatest of every process's status. */
int cluster_agree(int status);

#endif
