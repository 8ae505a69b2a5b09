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

#endif
