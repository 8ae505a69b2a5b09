/* search.h: the search layer (the BFS, ptb_build and ptb_plan, and the
 * checkpoints), for the layers above it. */
#ifndef PTB_SEARCH_H
#define PTB_SEARCH_H

#include "format/format.h"

/* ---- bfs.c ---------------------------------------------------------- */

/* The BFS (bfs.c): residues: 1 for the values mod 3, 0 for exact ones.
 * Process 0 of a cluster (o->cluster) gathers every process's values into
 * an unnamed file of dir (O_TMPFILE, mapped: the kernel pages them out as
 * it needs, gone when unmapped or killed), or into memory when dir is
 * NULL.  PTB_OK; PTB_EINVAL (the options), PTB_ENOMEM, PTB_ERANGE (a
 * distance past PTB_MAX_DISTANCE), errno (the file).  On failure *out
 * holds nothing. */
int ptb_distances(const ptb_space *s, const ptb_build_opts *o, int residues,
                  const char *dir, ptb_values *out);
void ptb_values_free(ptb_values *v);

/* ---- checkpoint.c --------------------------------------------------- */

/* A build's checkpoint file (checkpoint.c): the BFS's layers as they are
 * found, replayed by the next build of the same space. */
typedef struct ptb_ckpt ptb_ckpt;
/* Called for each state a replay finds: subtable, distance, index.
 * PTB_OK, or anything else to give the replay up. */
typedef int (*ptb_ckpt_fn)(void *arg, uint32_t sub, unsigned d,
                           uint64_t idx);
/* Which checkpoint: its file (NULL: an unnamed file of dir, see
 * ptb_unnamed_file(), for one build's replay only); the
 * build's space; whether it keeps residues (1) or exact values (0); in a
 * cluster, this process's rank and the count (else 0 and 1) and the
 * states of its slice of each subtable (NULL: every subtable whole). */
typedef struct ptb_ckpt_of {
    const char *path;
    const ptb_space *s;
    int residues;
    unsigned rank, ranks;
    const uint64_t *len;
    const char *dir;
} ptb_ckpt_of;
/* The whole records in the file of an earlier run of the same build (0
 * when there is no such file).  PTB_OK, PTB_ENOMEM or an errno value. */
int ptb_ckpt_records(const ptb_ckpt_of *of, uint64_t *records);
/* Opens (creates) the checkpoint.  Unless fresh is set, the records of an
 * earlier run of the same build are replayed through fn, at most 'limit'
 * of them (the first), each record read whole before any of its states is
 * given; the file goes on from the last replayed.  A file of another
 * build starts afresh.  PTB_OK; PTB_ECORRUPT when fn gave the replay up
 * part way (open again with fresh set); PTB_ENOMEM; an errno value. */
int ptb_ckpt_open(const ptb_ckpt_of *of, int fresh, uint64_t limit,
                  ptb_ckpt_fn fn, void *arg, ptb_ckpt **out);
/* The last layer recorded of a subtable (-1: none), and whether its BFS
 * is over (that layer was empty). */
int ptb_ckpt_state(const ptb_ckpt *c, uint32_t sub, int *over);
/* Gives fn the states of the subtable's last layer recorded.  PTB_OK;
 * PTB_EIO. */
int ptb_ckpt_front(ptb_ckpt *c, uint32_t sub, ptb_ckpt_fn fn, void *arg);
/* Records that the 'count' states next(arg) gives, in index order, until
 * it gives UINT64_MAX, are those of this slice of subtable sub at
 * distance d; last: the layer is empty (in every slice), the subtable's
 * BFS over.  Thread-safe.  PTB_OK, PTB_EIO (next gave another count) or
 * an errno value. */
int ptb_ckpt_layer(ptb_ckpt *c, uint32_t sub, unsigned d, int last,
                   uint64_t count, uint64_t (*next)(void *), void *arg);
/* Gives fn every state of every record in the file, in the order they
 * were written.  PTB_OK; PTB_EIO (a record does not read, or fn refused a
 * state); an errno value. */
int ptb_ckpt_replay(ptb_ckpt *c, ptb_ckpt_fn fn, void *arg);
void ptb_ckpt_close(ptb_ckpt *c);

#endif
