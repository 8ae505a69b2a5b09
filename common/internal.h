/* common/internal.h: what the library's own files share and the public
 * header hides: the handles' layouts, the table writer and block reader, and
 * the digest.  Never included by the programs; tests and harnesses of the
 * library's insides include it. */
#ifndef PTB_INTERNAL_H
#define PTB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "puzzle.h"

struct ptb_space {
    const ptb_puzzle *p;
    unsigned metric;
    void *ctx;
    uint32_t subtables;
    const uint64_t *offset; /* subtables + 1 entries: first global index */
    uint64_t *own_offset;   /* offset when the space computed it, or NULL */
};

/* Whether state idx of subtable sub exists. */
static inline int ptb_in_space(const ptb_space *s, uint32_t sub, uint64_t idx)
{
    return sub < s->subtables && idx < s->offset[sub + 1] - s->offset[sub];
}

/* Global value index of (sub, idx); the caller checks the range. */
static inline uint64_t ptb_global(const ptb_space *s, uint32_t sub,
                                  uint64_t idx)
{
    return s->offset[sub] + idx;
}

/* The subtable and index of a global index g < offset[subtables], by a
 * binary search over the offsets (space.c). */
void ptb_locate(const ptb_space *s, uint64_t g, uint32_t *sub, uint64_t *idx);
/* The index the space ranks by, as its table stores it (a described
 * puzzle's ranking: puzzle.h, index()); NULL, *len 0, when there is none
 * (space.c). */
const unsigned char *ptb_space_index(const ptb_space *s, size_t *len);
/* rc, unless the space has found its stored index damaged since it opened
 * (puzzle.h, status()): then that status (PTB_ECORRUPT), as whatever it
 * answered is void.  Every entry point that answers from a space returns
 * through it; PTB_ENOMEM is kept. */
int ptb_space_checked(const ptb_space *s, int rc);
/* Gives a loaded puzzle a copy of bytes as the index its table stores
 * (puzzle.h, stored).  PTB_OK; PTB_ENOMEM (registry.c). */
int ptb_puzzle_keep(ptb_puzzle *p, const void *bytes, size_t len);

/* The n-byte little-endian number at p (the tables' own records). */
static inline uint64_t ptb_get_le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* The same for n = 8, one load. */
static inline uint64_t ptb_get_le64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
           (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static inline void ptb_put_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* qsort's order of uint64_t values, ascending (util.c). */
int ptb_u64_cmp(const void *a, const void *b);
/* The last i < n with a[i] <= v, a ascending and a[0] <= v (util.c). */
uint64_t ptb_last_at_most(const uint64_t *a, uint64_t n, uint64_t v);
/* "DIR/FILESUFFIX" from malloc (free() it); NULL when out of memory. */
char *ptb_join_path(const char *dir, const char *file, const char *suffix);
/* A new file of dir ($TMPDIR, or /tmp, when dir is NULL) with no name
 * (O_TMPFILE, or a file removed as soon as it is made where the file
 * system has no unnamed files): gone when closed, or when the process is
 * killed.  The descriptor, or -1 and errno (util.c). */
int ptb_unnamed_file(const char *dir);

/* ---- bfs.c ---------------------------------------------------------- */

/* The library's one thread fan-out: runs fn(job) on 'threads' threads
 * (1..256), the calling one included, and returns when all have.  fn takes
 * its share of the work from the job itself (an atomic counter). */
void ptb_run_threads(void *(*fn)(void *), void *job, unsigned threads);
/* What the BFS finds: the distance of every state (global index order),
 * exact or mod 3, and the figures of a table's info (states, solvable,
 * max_distance, histogram, farthest).  ptb_values_free() frees it. */
typedef struct ptb_values {
    uint16_t *dist;            /* exact: 2 bytes a state, PTB_UNSOLVABLE
                                  where the goal cannot be reached; or NULL */
    uint64_t *res;             /* or mod 3: state g in bits 2 (g mod 32) of
                                  word g / 32, 3 where it cannot */
    size_t mapped;             /* the bytes of a file mapped, or 0: the
                                  heap's */
    ptb_table_info info;
} ptb_values;
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

/* State g's value in v: its exact distance (PTB_UNSOLVABLE: none) or its
 * distance mod 3 (3: none). */
static inline unsigned ptb_value(const ptb_values *v, uint64_t g)
{
    return v->dist ? v->dist[g]
                   : (unsigned)(v->res[g >> 5] >> (2 * (g & 31)) & 3);
}

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

/* ---- table.c -------------------------------------------------------- */

/* Writes a complete table of the BFS's values (exact ones for an exact or
 * mod-4 table) to DIR/<file>, via a temporary file renamed into place.
 * A table of a reversible puzzle with more than PTB_IN_PLACE_STATES states
 * is stored in place (packed1 or packed3: a value read in O(1)) unless the
 * options force an encoding, and the writer then holds only its checks.
 * info holds what the BFS found (v->info) and gets the rest.  OS errors
 * come back as positive errno values, a zstd failure as PTB_ECOMPRESS; on
 * failure no file is left behind. */
#define PTB_IN_PLACE_STATES ((uint64_t)1 << 28)
int ptb_table_write(const ptb_space *s, const char *dir, const ptb_values *v,
                    const ptb_build_opts *o, ptb_table_info *info);

/* An exact table stores a distance in a byte (tables/FORMAT.md): at most
 * PTB_BYTE_MAX, or PTB_BYTE_NONE for no path. */
#define PTB_BYTE_MAX 254
#define PTB_BYTE_NONE 255

/* Decodes every value: values[g] gets the stored value of every state
 * (exact or PTB_BYTE_NONE; or mod 3, 0 for unsolvable; or mod 4, with the
 * puzzle's parity); checks every frame's checksum and the table's digest.
 * packed (mod-3 and mod-4 tables only, else PTB_EINVAL): 2 bits a value
 * instead, value g at bits 2 (g % 4) of values[g / 4], which the caller
 * has zeroed.  PTB_ECORRUPT names the failure in *what. */
int ptb_table_decode_all(const ptb_table *t, uint8_t *values, int packed,
                         const char **what);
/* The one way to read a stored value (as above), of state idx of subtable
 * sub: r may be NULL only when ptb_table_needs_reader(t) is 0 (in place).
 * PTB_EINVAL for a state out of range, PTB_ECORRUPT for a bad frame or
 * byte, or when the table's size of sub is not the puzzle's (checked on
 * sub's first read). */
int ptb_table_get(const ptb_table *t, ptb_reader *r, uint32_t sub,
                  uint64_t idx, unsigned *value);
int ptb_table_needs_reader(const ptb_table *t);
/* 1 when name is an encoding of FORMAT.md ("packed3", "zstd", ...). */
int ptb_table_encoding_known(const char *name);
const ptb_space *ptb_table_space(const ptb_table *t);
/* 0: exact distances; 3 or 4: the distance mod 3 or mod 4 (puzzletb.h) */
unsigned ptb_table_modulus(const ptb_table *t);

/* ---- walk.c --------------------------------------------------------- */

/* The first of the n moves mv out of a state of subtable sub whose
 * successor's stored value is want, into *i (n when none).  PTB_OK, or
 * the error reading a value. */
int ptb_first_at(const ptb_table *t, ptb_reader *r, uint32_t sub,
                 const ptb_move *mv, unsigned n, unsigned want, unsigned *i);

/* ---- mdbcheck.c ----------------------------------------------------- */

/* Checks, with pread()s only, every part of the LMDB file at path (or open
 * as fd) that liblmdb reads when the file is opened read-only and keys are
 * fetched from its main database, before liblmdb maps it: both meta pages,
 * the main database's record, its single root leaf page and every node's
 * overflow run (the table layout, one leaf of plain or big-data nodes).
 * file_size bounds every page; ptb_mdb_check() refuses anything but a regular
 * file (PTB_EFORMAT), without blocking on a FIFO.  Returns PTB_OK; PTB_ETRUNC
 * (a page past the end), PTB_EFORMAT (not LMDB 0.9 in this byte order and
 * word size, or another layout), PTB_ECORRUPT (anything else out of place),
 * PTB_ENOMEM, PTB_ENOTABLE or a positive errno when the file cannot be opened
 * or read; *what (may be NULL) names the first failure. */
int ptb_mdb_check(const char *path, uint64_t file_size, const char **what);
int ptb_mdb_check_fd(int fd, uint64_t file_size, const char **what);

/* ---- sha256.c ------------------------------------------------------- */

typedef struct ptb_sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t fill;
    int portable;   /* 1: never the SHA extensions (tests set it) */
} ptb_sha256;
/* 1 when the processor's SHA extensions compress (sha256.c). */
int ptb_sha256_accelerated(void);
void ptb_sha256_init(ptb_sha256 *c);
void ptb_sha256_update(ptb_sha256 *c, const void *data, size_t n);
void ptb_sha256_hex(ptb_sha256 *c, char out[65]);

#endif
