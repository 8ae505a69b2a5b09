/* puzzletb.h: precomputed distance tables for classic puzzles.
 *
 * This is the one public header of libpuzzletb.  The library does three
 * things:
 *   - build: a full backward BFS over every state of a puzzle, written as a
 *     table of distances (one LMDB file per puzzle and metric, values packed
 *     for reading in place or in zstd-compressed blocks; see
 *     tables/FORMAT.md);
 *   - read: open such a table and answer a query (a position given in the
 *     puzzle's native text) with its distance and one optimal move sequence,
 *     in O(steps) table reads;
 *   - search: answer the same query without tables, by BFS from scratch, as
 *     an independent check and a baseline.
 *
 * Objects:
 *   ptb_puzzle   a puzzle: built in (static, never freed), or loaded from a
 *                sliding-block description or from a table that stores one
 *                (ptb_puzzle_load, ptb_table_puzzle; ptb_puzzle_free)
 *   ptb_space    a puzzle with one metric chosen, ready to parse and search
 *   ptb_table    a table file opened for reading, bound to a space
 *
 * Errors: every function that can fail returns an int, PTB_OK (0) or one of
 * the negative PTB_E* codes below; ptb_strerror() names it.  The library never
 * prints and never exits.
 *
 * Threads: ptb_space and ptb_table are immutable after opening; any number of
 * threads may parse, search, solve and format with one handle at once.  Open
 * and close are not concurrent with other use of the same handle.
 */
#ifndef PUZZLETB_H
#define PUZZLETB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTB_VERSION_STRING "0.2.0"
#define PTB_FORMAT_VERSION 6   /* on-disk table format, see tables/FORMAT.md */

/* Error codes.  Their values never change once released.  As in LMDB, a
 * positive code is an errno value from the operating system (EACCES, ENOSPC,
 * ...), passed through unchanged; ptb_strerror() names those too. */
enum {
    PTB_OK = 0,
    PTB_NOTFOUND = -1,   /* valid position from which the goal is unreachable */
    PTB_EINVAL = -2,     /* bad argument (unknown puzzle or metric, range) */
    PTB_EPARSE = -3,     /* query text is malformed (see the err buffer) */
    PTB_ENOMEM = -4,     /* out of memory */
    PTB_EIO = -5,        /* a file could not be read, written or renamed */
    PTB_ENOTABLE = -6,   /* the table file does not exist */
    PTB_EFORMAT = -7,    /* not a puzzletb table, or wrong puzzle/metric */
    PTB_EVERSION = -8,   /* a table of another format version */
    PTB_ETRUNC = -9,     /* the table file is truncated */
    PTB_ECORRUPT = -10,  /* a block fails its checksum, or values disagree */
    PTB_EDB = -11,       /* LMDB reported an error */
    PTB_ERANGE = -12,    /* a distance does not fit the table's encoding */
    PTB_ECOMPRESS = -13, /* the compressor failed while writing a table */
    PTB_ELIMIT = -14     /* a search reached its limit before an answer */
};

/* Never NULL; a static string. */
const char *ptb_strerror(int code);
/* PTB_VERSION_STRING of the library actually linked. */
const char *ptb_version(void);

/* ---- puzzles ---------------------------------------------------------- */

typedef struct ptb_puzzle ptb_puzzle;

/* Registry: ptb_puzzle_at(i) for i < ptb_puzzle_count(), in a fixed order. */
unsigned ptb_puzzle_count(void);
const ptb_puzzle *ptb_puzzle_at(unsigned i);
/* NULL when no puzzle has that name. */
const ptb_puzzle *ptb_puzzle_find(const char *name);
const char *ptb_puzzle_name(const ptb_puzzle *p);
const char *ptb_puzzle_summary(const ptb_puzzle *p);
/* Metric names; NULL past the last.  Metric 0 is the default. */
const char *ptb_puzzle_metric(const ptb_puzzle *p, unsigned i);
/* Every metric's name, in order, ", " between them, into buf, as
 * snprintf(buf, cap, ...) would write the list: at most cap bytes with the
 * terminating NUL; returns the length of the whole list. */
size_t ptb_puzzle_metrics(const ptb_puzzle *p, char *buf, size_t cap);

/* A query option a puzzle takes besides its position text, passed to
 * ptb_parse() as "NAME=VALUE".  Programs build their help and their option
 * lists from these, so a puzzle with new options needs no change here. */
#define PTB_OPT_POSITION 1u   /* the option stands for the whole position:
                                 no text is read with it, and giving both is
                                 an error */
typedef struct ptb_option {
    const char *name;         /* "first", "n" */
    const char *value;        /* the value's syntax for help: "B|W" */
    const char *help;         /* one line */
    unsigned flags;           /* PTB_OPT_* */
} ptb_option;
/* The options of a puzzle; NULL past the last. */
const ptb_option *ptb_puzzle_option(const ptb_puzzle *p, unsigned i);

/* Reads a sliding-block puzzle's description (doc/guide.md, "Describing a
 * puzzle"; puzzletb-description(5)): the board, its walls, the start
 * drawn, the goals, the metrics and which pieces are told apart.  The
 * puzzle has the description's name, summary and metrics, and its tables
 * store the description, so any reader rebuilds it from a table
 * (ptb_table_puzzle).  Returns PTB_OK; PTB_EPARSE with one line in err
 * that names the line and column and what is wrong ("line 7, column 3:
 * piece 'B' is not connected ..."); PTB_ENOMEM.  Free it with
 * ptb_puzzle_free() after every space opened on it is closed. */
int ptb_puzzle_load(const char *text, ptb_puzzle **out, char *err,
                    size_t errcap);
/* The puzzle called name: a built-in one, or else the description stored
 * in a table of that puzzle in dir (DIR/NAME.mdb, tried first, or else the
 * first of the DIR/NAME-METRIC.mdb in name order that is one, or else, for
 * a puzzle answered by search, its pattern table DIR/NAME-pattern-1.mdb).
 * Free it with ptb_puzzle_free().  PTB_OK; PTB_EINVAL when there is no
 * such puzzle; PTB_ENOMEM; when none is found but a file of that name is
 * no table that reads, its error (ptb_table_puzzle: PTB_ECORRUPT, ...), or
 * PTB_EFORMAT when it is another puzzle's table. */
int ptb_puzzle_lookup(const char *dir, const char *name, ptb_puzzle **out);
/* Every table file in dir (every NAME.mdb, in name order) whose header
 * reads (ptb_table_puzzle): calls fn(arg, file name, its puzzle, its
 * metric); the puzzle lives only during the call.  Stops when fn returns
 * other than 0 and returns that; PTB_ENOTABLE when dir cannot be read;
 * PTB_OK. */
int ptb_tables_scan(const char *dir,
                    int (*fn)(void *arg, const char *file,
                              const ptb_puzzle *p, const char *metric),
                    void *arg);
/* A copy of p that outlives it (a puzzle from ptb_tables_scan): a loaded
 * puzzle's description read again, with the ranking its table stores, or
 * p itself when built in.  Free it with ptb_puzzle_free().  PTB_OK;
 * PTB_ENOMEM. */
int ptb_puzzle_copy(const ptb_puzzle *p, ptb_puzzle **out);
/* ptb_puzzle_load() of the file at path (at most 64 kB of text).  Also
 * PTB_EPARSE for a file too long or with a NUL byte, and an errno value
 * when it cannot be read (ENOENT, EACCES, ...). */
int ptb_puzzle_load_file(const char *path, ptb_puzzle **out, char *err,
                         size_t errcap);
/* A described puzzle's drawn start as position text ptb_parse() reads
 * ("ABBC/ABBC/..."); NULL for a built-in puzzle. */
const char *ptb_puzzle_start(const ptb_puzzle *p);
/* How many pattern groups a described puzzle's 'patterns' line names, or
 * how many 'abstraction' lines it has (puzzletb-description(5)); 0 for any
 * other puzzle, a pattern space's too. */
unsigned ptb_puzzle_patterns(const ptb_puzzle *p);
/* The pattern space of p's group i (from 0): the puzzle whose table holds
 * the distances of group i's pattern database, named NAME-pattern-(i+1).
 * Free it with ptb_puzzle_free().  PTB_OK; PTB_EINVAL when p has no such
 * group; PTB_ENOMEM. */
int ptb_puzzle_pattern(const ptb_puzzle *p, unsigned i, ptb_puzzle **out);
/* For a pattern space (a table NAME-pattern-N's puzzle): NAME, the puzzle
 * it is a pattern of, and its group N (from 1) into *group (may be NULL);
 * NULL for any other puzzle. */
const char *ptb_puzzle_pattern_of(const ptb_puzzle *p, unsigned *group);
/* Frees a loaded puzzle; a built-in one and NULL are left alone. */
void ptb_puzzle_free(ptb_puzzle *p);
/* The canonical text of a loaded puzzle's description (what its tables
 * store, one "key value" line each); NULL for a built-in puzzle. */
const char *ptb_puzzle_description(const ptb_puzzle *p);

/* ---- positions and answers -------------------------------------------- */

/* A position: its place in the table (subtable and dense index) plus the
 * puzzle's native view of it (labels, orientation) that the table does not
 * keep.  Filled by ptb_parse(); treat 'aux' and 'cell' as opaque.  The size
 * is fixed for this soname (80 bytes); 'cell' has room for puzzles to come.
 * A searched puzzle's position (a tile puzzle with 'patterns':
 * puzzletb-description(5)) has no index: idx is PTB_NO_INDEX, and its
 * board says all; the calls that read a full table of it (ptb_solve(),
 * ptb_distance(), ptb_successors(), ptb_analyse()) and ptb_search() rank
 * it first. */
typedef struct ptb_position {
    uint32_t sub;
    uint32_t aux;
    uint64_t idx;
    unsigned char cell[64];
} ptb_position;

#define PTB_NO_INDEX UINT64_MAX   /* ptb_position.idx of a searched puzzle */

/* A move out of a position: the successor's index and a puzzle-defined code. */
typedef struct ptb_move {
    uint64_t to;
    uint32_t code;
} ptb_move;

/* The largest distance a table can hold: 1022 in the tables of the
 * distance mod 3 or mod 4; 254 in exact ones, whose values are bytes
 * (tables/FORMAT.md).  A build that finds more fails with PTB_ERANGE. */
#define PTB_MAX_DISTANCE 1022
#define PTB_UNSOLVABLE 1023    /* distance value meaning "no path" */

/* An answer: the chosen start, its distance, and one optimal line (about
 * 100 kB: allocate it, rather than put it on a small stack). */
typedef struct ptb_solution {
    ptb_position start;
    unsigned distance;                     /* number of moves */
    ptb_move move[PTB_MAX_DISTANCE];       /* move[i] is made from after[i-1] */
    ptb_position after[PTB_MAX_DISTANCE];  /* (from start when i == 0) */
} ptb_solution;

/* ---- spaces: a puzzle with a metric ----------------------------------- */

typedef struct ptb_space ptb_space;

/* metric NULL means the default.  PTB_EINVAL: unknown puzzle or metric.
 * ptb_space_open() takes a built-in puzzle's name, ptb_space_new() any
 * puzzle (a loaded one must outlive the space).  PTB_EINVAL also when a
 * described puzzle has more layouts than its index can rank (2^40), or its
 * index would take more than 256 MB; PTB_EFORMAT when the ranking a
 * puzzle loaded from a table keeps (ptb_table_puzzle) does not hold;
 * PTB_ENOMEM. */
int ptb_space_open(const char *puzzle, const char *metric, ptb_space **out);
int ptb_space_new(const ptb_puzzle *p, const char *metric, ptb_space **out);
void ptb_space_close(ptb_space *s);          /* NULL is fine */
const ptb_puzzle *ptb_space_puzzle(const ptb_space *s);
const char *ptb_space_metric(const ptb_space *s);
/* The most moves a state of the space may have (at most
 * PTB_MAX_SUCCESSORS): what an array for ptb_successors() must hold. */
unsigned ptb_space_max_moves(const ptb_space *s);
/* The table's file name in a directory: "swap.mdb", "klotski-line.mdb". */
int ptb_space_file(const ptb_space *s, char *buf, size_t cap);

/* Parses one query: the position's text and the query's options, a
 * NULL-terminated list of "NAME=VALUE" strings (options may be NULL).  text
 * may be NULL only with an option flagged PTB_OPT_POSITION.  A query may
 * leave a choice open (who moves first), so it yields 1 or 2 candidate
 * starts; the answer is the nearest of them.  Returns PTB_OK; PTB_EINVAL for
 * an option the puzzle does not take, a repeated one, or text given with a
 * PTB_OPT_POSITION option; PTB_EPARSE for a malformed position or option
 * value.  Either way err gets a one-line message saying where and what
 * ("line 3, column 2: unexpected 'X' (expected B, W or O)"); a message
 * about an option's value starts with "NAME: ".  Every puzzle reads text by
 * the same rules: a UTF-8 byte-order mark, CRLF, tabs, leading and trailing
 * blanks and blank lines are ignored, and the rows of a grid may be
 * separated by line ends, '/' or blanks. */
int ptb_parse(const ptb_space *s, const char *text,
              const char *const *options, ptb_position out[2], unsigned *n,
              char *err, size_t errcap);

/* Batch input: the number of non-blank lines in the record that starts with
 * first_line, or 0 when records are separated by blank lines. */
unsigned ptb_record_lines(const ptb_space *s, const char *first_line);

/* Solves without tables: a BFS from the candidates until a goal.  Returns
 * PTB_OK, PTB_NOTFOUND or PTB_ENOMEM. */
int ptb_search(const ptb_space *s, const ptb_position *starts, unsigned n,
               ptb_solution *out);

/* Text of an answer.  snprintf conventions: returns the length the text
 * needs (not counting the NUL) and writes at most cap bytes.
 *   ptb_format_native  the puzzle's contest output format
 *   ptb_format_json    {"schema","puzzle","metric",...,"query","category",
 *                      "distance","moves":[...]} (schema PTB_JSON_SCHEMA,
 *                      fields in doc/guide.md; lib/answer/json.c)
 *   ptb_format_board   one position's board in the puzzle's notation
 *   ptb_format_move    one move made from 'before', in the puzzle's notation */
int ptb_format_native(const ptb_space *s, const ptb_solution *sol, char *buf,
                      size_t cap);
int ptb_format_json(const ptb_space *s, const ptb_solution *sol, char *buf,
                    size_t cap);
int ptb_format_board(const ptb_space *s, const ptb_position *p, char *buf,
                     size_t cap);
int ptb_format_move(const ptb_space *s, const ptb_position *before,
                    const ptb_move *m, char *buf, size_t cap);

/* ---- building tables -------------------------------------------------- */

/* A build split between processes (doc/guide.md, "Past one machine"): every
 * process calls ptb_build() with the same space and options, its own rank
 * in a cluster of its own, and these two collective operations, which the
 * library calls from the calling thread, every process at the same points
 * in the same order.  tbgen-mpi supplies them from MPI (gen/mpi.c); any
 * transport will do.  Each process keeps the values of its slices only;
 * process 0 gathers every value at the end (into an unnamed file of the
 * table's directory) and writes the table, the same file, byte for byte,
 * as one process writes; the others write nothing.  Every process returns
 * the same code: the first failing process's.  Each process needs a
 * checkpoint file of its own (ptb_build_opts.checkpoint); a rerun resumes
 * from the last layer every process recorded. */
typedef struct ptb_cluster {
    unsigned rank;             /* this process: 0 .. ranks - 1 */
    unsigned ranks;            /* how many, at least 1 */
    void *ctx;                 /* the transport's own */
    /* All to all: send holds count[0] words for process 0, then count[1]
     * for process 1, ...; recv gets got[0] words from process 0, then
     * got[1] from process 1, ... (got[r] is process r's count for this
     * one, which the library knows).  PTB_OK or an error code. */
    int (*exchange)(void *ctx, const uint64_t *send, const uint64_t *count,
                    uint64_t *recv, const uint64_t *got);
    /* Replaces v[0 .. n - 1] by their sums over every process.  PTB_OK or
     * an error code. */
    int (*sum)(void *ctx, uint64_t *v, unsigned n);
} ptb_cluster;

typedef struct ptb_build_opts {
    unsigned threads;      /* worker threads, 1..256; default: the cores */
    int zstd_level;        /* 1..19; default 19 */
    /* NULL (the default): chosen by size (see ptb_build); "packed1",
     * "packed3", "packed4", "sparse" or "zstd" forces one (PTB_EINVAL when
     * it cannot hold the values: tables/FORMAT.md) */
    const char *encoding;
    /* called from the calling thread as work advances, may be NULL.
     * phase is "search" (done and total count states, between BFS layers)
     * or "encode" (done and total count the table's values as they are
     * compressed and written); each phase ends with done == total.  Once
     * before the search, "resume" when a checkpoint gave back done of the
     * total states.  Before each "search" report of a large subtable's
     * layer, "layer": done is the distance of the layer just found, total
     * its states. */
    void (*progress)(void *ctx, const char *phase, uint64_t done,
                     uint64_t total);
    void *progress_ctx;
    /* NULL (the default), or a file where the BFS records each layer as it
     * ends (doc/guide.md, "Long runs"): a build whose file holds an earlier,
     * interrupted build of the same table resumes from its last layer and
     * writes the same table, byte for byte; a file of another build is
     * started afresh.  ptb_build removes it when it returns, the table
     * written or not: only a build killed leaves it. */
    const char *checkpoint;
    /* NULL (the default), or the processes this build is split between
     * (below): each process owns a slice of every subtable's states and
     * expands only those; process 0 writes the table. */
    const struct ptb_cluster *cluster;
} ptb_build_opts;

void ptb_build_opts_init(ptb_build_opts *o);

/* What a build found; also stored in the table's meta record. */
typedef struct ptb_table_info {
    uint64_t states;               /* values stored */
    uint64_t solvable;             /* of which the goal is reachable */
    unsigned max_distance;         /* largest finite distance */
    uint64_t histogram[PTB_MAX_DISTANCE + 1]; /* states at each distance */
    uint64_t bytes;                /* size of the file */
    uint32_t subtables;
    uint32_t block_values;         /* values per block (zstd, sparse); or 0 */
    int exact;                     /* 1: exact distances; 0: modulus > 0 */
    /* 0 (exact distances), 3 (the distance mod 3) or 4 (the distance mod
     * 4: one bit a state plus the puzzle's parity; every state solvable) */
    unsigned modulus;
    /* "packed1", "packed3", "packed4", "sparse" (read in place) or "zstd":
     * FORMAT.md */
    char encoding[12];
    /* a few farthest states: subtable and index */
    unsigned n_farthest;
    uint32_t far_sub[8];
    uint64_t far_idx[8];
} ptb_table_info;

/* Runs the BFS and writes DIR/<file> through a temporary file renamed into
 * place at the end (the file and then the directory synced to disk), so an
 * interrupted build or a crash leaves the old table intact.  The encoding is
 * chosen by measuring: values read in place (packed1 where the puzzle has a
 * parity and every state is solvable, else packed3, for reversible puzzles;
 * the smaller of packed4 and sparse for exact ones) unless zstd is at most
 * 40 % of their size.  The output is byte-for-byte the same whatever the
 * thread count.  The new file is left out of the page cache, so that its
 * first reader reads it in huge pages (ptb_table_open).  Returns PTB_OK,
 * PTB_EINVAL, PTB_ENOMEM, PTB_ERANGE, PTB_ECOMPRESS, PTB_EDB, or an errno
 * value (EACCES, ENOSPC, ...) from creating, writing, syncing or renaming the
 * file; on failure no temporary file is left. */
int ptb_build(const ptb_space *s, const char *dir, const ptb_build_opts *o,
              ptb_table_info *info);

/* What building a space's table needs, known before anything is
 * allocated: its states, an estimate of the search's CPU time, and bounds
 * on the memory the build takes at its peak (for a mod-3 table, 2 bits a
 * state, the BFS's, and what the writer holds: past 2^28 states only the
 * checks of the values it packs in the file's map, else at most the
 * table's size; for the others, which need exact distances, 2 bytes each,
 * 4 bytes a state) and on the bytes of the file (a byte a state; 1.6 bits
 * for reversible puzzles, whose tables are at most packed3) and of a
 * checkpoint file (each state once, as the gap from the one before in its
 * layer, about 3 bytes at most: the file of ptb_build_opts.checkpoint, or
 * for a mod-3 table built without one an unnamed file of the table's
 * directory, from which the residues come).  The time is measured: the
 * moves into up to 20,000 states spread evenly over the index space are
 * made and timed (a few milliseconds), and scaled to every state; the
 * search makes those of each solvable state once, and its other work adds
 * a little (BENCHMARKS.md compares estimates with runs).
 *
 * For a build split between processes (o->cluster; only its ranks is
 * read, so a plan needs no cluster running), the figures of each: the
 * states of the largest slice, the peak of a process (its slices' values
 * and its exchange buffers: 16 MB a thread for its outbox and as much for
 * what it sends, and at most that from each process) and of process 0
 * (which then gathers the whole table's values into an unnamed file of
 * the output directory, counted in disk, and writes the table: its own
 * peak or the writer's); the bytes the processes send each other (8 bytes
 * a move into another's slice, for every state, from the sample's moves:
 * the search makes the solvable states' only, so this is high by the
 * unsolvable share; plus the values gathered).  o may be NULL (the
 * defaults: one process, a thread a core).  Returns PTB_OK. */
typedef struct ptb_build_plan {
    uint64_t states;
    uint64_t memory;           /* one process's peak */
    uint64_t disk;             /* the table; a cluster's process 0 also
                                  the values it gathers */
    uint64_t checkpoint;       /* bytes of a checkpoint file, at most */
    double cpu_seconds;        /* the search's CPU time, estimated */
    double moves;              /* moves into a state, on average */
    /* a cluster (1 process without one) */
    unsigned processes;
    double remote;             /* share of the moves into another slice */
    uint64_t slice_states;     /* a process's states, at most */
    uint64_t process_memory;   /* a process's peak, but process 0's */
    uint64_t first_memory;     /* process 0's peak */
    uint64_t exchanged;        /* bytes the processes send each other */
} ptb_build_plan;
int ptb_plan(const ptb_space *s, const ptb_build_opts *o,
             ptb_build_plan *out);

/* ---- reading tables --------------------------------------------------- */

typedef struct ptb_table ptb_table;

/* Opens DIR/<file> read-only (no lock file; read-only media are fine) and
 * checks its header (its checksum, the puzzle, every size it gives against
 * the records it describes).  The work does not grow with the table: it
 * reads a few pages, not the histogram (ptb_table_get_info reads that), and
 * each subtable's size is checked against the puzzle's when a value of it
 * is first read.  A table not in the page cache is first read in through a
 * map that asks for huge pages (Linux; a hint that later processes map it
 * with fewer page faults).  When the file is the one a described puzzle
 * was read from (ptb_table_puzzle; the same path), the table shares that
 * open file, already checked, which the puzzle keeps until it is freed.
 * PTB_ENOTABLE, PTB_EFORMAT, PTB_EVERSION (another format version, such as
 * a format-1 table: rebuild it), PTB_ETRUNC, PTB_ECORRUPT, PTB_EDB,
 * PTB_ENOMEM, or an errno value (EACCES, ...). */
int ptb_table_open(const ptb_space *s, const char *dir, ptb_table **out);
void ptb_table_close(ptb_table *t);         /* NULL is fine */
/* The puzzle and metric of the table file at path, from its header (with
 * the same checks as ptb_table_open: the file, its LMDB pages, the header's
 * checksum and version): a built-in puzzle, or the puzzle of the
 * description the table stores (free it with ptb_puzzle_free), which
 * keeps the table's ranking (FORMAT.md) so that a space opened on it reads
 * the ranking instead of making it.  metric gets the metric's name.
 * Returns what ptb_table_open would for the file, and PTB_EFORMAT when the
 * stored description does not read or names a puzzle that is not built in
 * and stores none; PTB_ECORRUPT when the ranking fails its check.  A
 * ranking that passes its check but not the engine's is refused when a
 * space opens on the puzzle (ptb_space_new: PTB_EFORMAT). */
int ptb_table_puzzle(const char *path, ptb_puzzle **out, char *metric,
                     size_t cap);
/* The path the table was opened from, for messages. */
const char *ptb_table_path(const ptb_table *t);
/* The header's digest of every stored value, "sha256:" and 64 hex digits:
 * equal digests mean equal answers (an HTTP ETag, a cache key). */
const char *ptb_table_digest(const ptb_table *t);
/* What the build found: the header's figures, and the histogram and the
 * farthest states from the table's "stats" record, read and checked on each
 * call.  PTB_OK; PTB_ECORRUPT or PTB_EFORMAT when the record is damaged,
 * PTB_ENOMEM (*info then holds the header's figures only, histogram and
 * farthest empty). */
int ptb_table_get_info(const ptb_table *t, ptb_table_info *info);

/* A reader: the decoded zstd blocks of one caller, each decoded at most once
 * and kept until the reader is freed (memory grows with the blocks touched,
 * up to the table's decoded size).  Creating one costs nothing; tables read
 * in place (packed1, packed3, packed4, sparse) use none.  Create one per
 * thread and reuse it across queries (batch answering); never share one
 * between threads.  PTB_ENOMEM. */
typedef struct ptb_reader ptb_reader;
int ptb_reader_new(const ptb_table *t, ptb_reader **out);
void ptb_reader_free(ptb_reader *r);        /* NULL is fine */

/* The stored value of one state.  Exact tables (info.modulus == 0): the
 * distance, or PTB_UNSOLVABLE.  Mod-3 tables: the distance mod 3 for a
 * solvable state, and 0 for an unsolvable one (its neighbours are all
 * unsolvable and stored 0 too), so the value alone does not tell whether a
 * state is solvable: ask ptb_distance().  Mod-4 tables (packed1, where every
 * state is solvable): the distance mod 4, the stored bit plus the puzzle's
 * parity of the state.  r may be NULL (a temporary reader
 * is used when one is needed).  PTB_EINVAL for a bad position, PTB_ECORRUPT
 * when its zstd block or its 512-byte chunk of in-place values fails its
 * checksum (each chunk is checked the first time a value is read from it),
 * when the table's size of its subtable is not the puzzle's, or when the
 * value is out of range; ptb_verify() checks them all. */
int ptb_table_value(const ptb_table *t, ptb_reader *r, uint32_t sub,
                    uint64_t idx, unsigned *value);

/* The exact distance of p: read (exact tables) or walked (mod-3 and mod-4
 * tables, O(distance) reads).  r may be NULL.  Returns PTB_OK; PTB_NOTFOUND
 * when the goal cannot be reached from p (*distance = PTB_UNSOLVABLE);
 * PTB_EINVAL; PTB_ECORRUPT (see ptb_solve); PTB_ENOMEM. */
int ptb_distance(const ptb_table *t, ptb_reader *r, const ptb_position *p,
                 unsigned *distance);

/* Walks the table from the nearest candidate to a goal: O(distance) value
 * reads.  In a mod-3 table a start with no successor one closer at the first
 * step is unsolvable (PTB_NOTFOUND); a walk that fails to descend after the
 * first step is corruption.  Moves are tried in the puzzle's fixed order, so
 * answers are deterministic.  r may be NULL (a temporary reader is used).
 * Returns PTB_OK; PTB_NOTFOUND (no candidate can reach the goal; out->start
 * is the first candidate and out->distance PTB_UNSOLVABLE); PTB_EINVAL (a
 * position out of range); PTB_ECORRUPT (a block fails its checksum, or the
 * values do not form a descending path); PTB_ENOMEM. */
int ptb_solve(const ptb_table *t, ptb_reader *r, const ptb_position *starts,
              unsigned n, ptb_solution *out);

/* One move out of a position, with where it leads and how far that is. */
typedef struct ptb_successor {
    ptb_move move;
    ptb_position after;      /* the native view after the move */
    unsigned distance;       /* moves from 'after' to a goal, or
                                PTB_UNSOLVABLE */
} ptb_successor;

/* Every move out of p, in the puzzle's fixed order, each with its
 * successor's distance; *distance gets p's own (PTB_UNSOLVABLE when the goal
 * cannot be reached).  out must hold as many entries as a state of the
 * space may have moves (ptb_space_max_moves(); PTB_MAX_SUCCESSORS always
 * suffices).  For mod-3
 * and mod-4 tables this walks from p once (O(distance)); a successor's
 * distance then follows from its residue.  r may be NULL.  Returns PTB_OK,
 * PTB_EINVAL, PTB_ECORRUPT, PTB_ENOMEM. */
/* The most moves a state of any puzzle has: a described board has at most
 * 64 cells and so 64 pieces, each with at most 63 places to go (the
 * built-in puzzles have at most 256). */
#define PTB_MAX_SUCCESSORS 4096
int ptb_successors(const ptb_table *t, ptb_reader *r, const ptb_position *p,
                   unsigned *distance, ptb_successor *out, unsigned *n);

/* What ptb_verify() found. */
typedef struct ptb_verify_result {
    uint64_t checked;        /* states proven, when PTB_OK */
    int bad_state;           /* 1: sub/idx name the first failing state */
    uint32_t sub;
    uint64_t idx;
    char what[96];           /* the failure, in words; "" when PTB_OK */
} ptb_verify_result;

/* Proves a table: a described puzzle's ranking read from a table must be
 * the one its description makes alone; every value is decoded (frame and
 * chunk checksums, values in range) and the digest checked; then the
 * states are taken layer by layer out from the goals, as a BFS finds them,
 * and each is checked against its one-move neighbours: a state of layer 0
 * is a goal and no other is; a state of layer d > 0 has a successor in
 * layer d - 1 and none in an earlier one; a state in no layer is no goal
 * and has no successor in a layer.  That proves the layers are the
 * distances (lib/answer/verify.c), and every stored value must then be its
 * layer's distance (exact tables), or that distance mod 3 or mod 4 (a
 * mod-4 residue is the stored bit and the puzzle's parity, so both are
 * proven), or unsolvable (0 in a mod-M table).  What the walk relies on to
 * report "no solution" in a mod-M table follows.  Last, the stats record
 * (ptb_table_get_info) must count the layers and name states of the last
 * at max_distance.  threads: 1..256.  Memory: 6 bits a state in a table
 * of residues (four bitmaps and the stored values in 2 bits), 12 in an
 * exact one.  Returns PTB_OK, PTB_ECORRUPT (res names the failing state
 * first in index order in the first pass that fails: the layers from the
 * goals out, then the states in no layer; or the failing block/digest),
 * PTB_ENOMEM, PTB_EINVAL. */
int ptb_verify(const ptb_table *t, unsigned threads, ptb_verify_result *res);

/* The state code shown for a table state (Klotski: its CommonCode). */
int ptb_format_code(const ptb_space *s, uint32_t sub, uint64_t idx, char *buf,
                    size_t cap);
/* ptb_format_code() of a position's state, also of a position without an
 * index (PTB_NO_INDEX), whose code is made from its board. */
int ptb_format_position_code(const ptb_space *s, const ptb_position *p,
                             char *buf, size_t cap);

/* ---- analysis --------------------------------------------------------- */

/* What a position is: a goal (distance 0), solvable in N moves, or
 * unsolvable (the goal cannot be reached). */
enum { PTB_CAT_GOAL = 0, PTB_CAT_SOLVABLE = 1, PTB_CAT_UNSOLVABLE = 2 };
/* "goal", "solvable", "unsolvable"; never NULL. */
const char *ptb_category_name(int category);

/* Every legal move of a position, ranked. */
typedef struct ptb_analysis {
    ptb_position position;   /* the candidate analysed: the nearest, as in
                                ptb_solve() (the first on a tie) */
    unsigned distance;       /* its distance, or PTB_UNSOLVABLE */
    int category;            /* PTB_CAT_GOAL, _SOLVABLE, _UNSOLVABLE */
    unsigned n;              /* legal moves */
    /* best first: by the distance after the move, ascending, moves to
     * unsolvable positions last; among equal distances in the puzzle's
     * fixed move order (the order of ptb_successors()) */
    ptb_successor move[PTB_MAX_SUCCESSORS];
} ptb_analysis;

/* Analyses the nearest of n (1 or 2) candidates from ptb_parse(): its
 * distance and category, and every legal move with the distance after it,
 * best first.  O(distance) table reads for mod-3 and mod-4 tables, O(moves)
 * for exact ones.  r may be NULL.  Returns PTB_OK (also for an unsolvable
 * position: see out->category), PTB_EINVAL, PTB_ECORRUPT, PTB_ENOMEM. */
int ptb_analyse(const ptb_table *t, ptb_reader *r, const ptb_position *starts,
                unsigned n, ptb_analysis *out);

/* Text and JSON of an analysis; snprintf conventions.
 *   ptb_format_analysis       "solvable 4" (or "goal 0", "unsolvable -"),
 *                             then one line per move, best first: the move
 *                             in the puzzle's notation, a blank, the
 *                             distance after it ("-" when unsolvable); with
 *                             boards != 0 each line is followed by the board
 *                             after the move and a blank line.
 *   ptb_format_analysis_json  the JSON answer (ptb_format_json's schema)
 *                             with "analysis": the ranked moves; line may be
 *                             NULL (then "moves" is []), else its "moves"
 *                             are the line's.  Schema in doc/guide.md. */
int ptb_format_analysis(const ptb_space *s, const ptb_analysis *a,
                        int boards, char *buf, size_t cap);
int ptb_format_analysis_json(const ptb_space *s, const ptb_analysis *a,
                             const ptb_solution *line, char *buf, size_t cap);

/* The JSON schema version of ptb_format_json() and
 * ptb_format_analysis_json(), their "schema" field.  It changes only when a
 * field changes meaning or goes; new fields may appear within a version. */
#define PTB_JSON_SCHEMA 1

/* Counts the distinct optimal move sequences from the nearest candidate
 * (two sequences differ when some move differs), layer by layer over the
 * states of the optimal lines, so shared states are counted once: time
 * and memory grow with the number of states on optimal lines, not with the
 * number of lines.  Writes the exact count in decimal to buf; a cap of
 * PTB_COUNT_DIGITS always suffices (the count is at most
 * PTB_MAX_SUCCESSORS^1022 = 2^12264 < 10^3692).
 * A goal has one (empty) sequence.  r may be NULL.  Returns PTB_OK,
 * PTB_NOTFOUND (unsolvable; buf gets "0"), PTB_EINVAL (a bad position or a
 * cap too small), PTB_ECORRUPT, PTB_ENOMEM. */
#define PTB_COUNT_DIGITS 3694
int ptb_count_solutions(const ptb_table *t, ptb_reader *r,
                        const ptb_position *starts, unsigned n, char *buf,
                        size_t cap);

/* Draws up to n distinct states at exactly 'distance', uniformly at random
 * among all such states of the table (sub == PTB_ANY_SUBTABLE) or of one
 * subtable, and reproducibly: the same table, arguments and seed give the
 * same states in the same order.  sub_out/idx_out get *got states (min(n, how
 * many there are)); ptb_format_code() prints each as an input the puzzle
 * reads back.  Exact tables scan the values (one pass).  Mod-3 and mod-4
 * tables, drawing from the whole table, give the farthest states the
 * stats record lists when they are all of them, or sample: states drawn
 * uniformly from all, each kept when a walk of its residues proves it at
 * exactly 'distance' (the cheaper way where the distance's states are
 * many: for Klotski at most a few walks a state drawn); otherwise they
 * search outward from the goals through the residues, visiting every
 * state up to 'distance' once.  Returns
 * PTB_OK, PTB_NOTFOUND (no state at that distance), PTB_EINVAL, PTB_ECORRUPT,
 * PTB_ENOMEM. */
#define PTB_ANY_SUBTABLE UINT32_MAX
int ptb_random_at(const ptb_table *t, unsigned distance, uint32_t sub,
                  uint64_t seed, unsigned n, uint32_t *sub_out,
                  uint64_t *idx_out, unsigned *got);

/* The distance histogram of a table (from ptb_table_get_info()) as an SVG
 * bar chart: one bar per distance 0..max_distance (<rect class="bar">,
 * with data-distance and data-count), axes labelled, the puzzle, metric
 * and totals in the title, and the unsolvable positions apart on the right
 * (<rect class="unsolvable">, its height their share of all positions).
 * snprintf conventions; 256 kB always suffice. */
int ptb_format_histogram_svg(const ptb_space *s, const ptb_table_info *info,
                             char *buf, size_t cap);

/* ---- answers past a full table: search guided by pattern tables ------ */

/* The pattern tables of a puzzle too big for a full table (a tile puzzle
 * whose description has a 'patterns' line, or any description with
 * 'abstraction' lines: puzzletb-description(5)), open, for
 * ptb_patterns_solve().  Immutable once open: any number of
 * threads may solve with one at once. */
typedef struct ptb_patterns ptb_patterns;

/* Opens the tables NAME-pattern-N.mdb (tbgen --patterns) of space s's
 * puzzle in dir: an abstraction's NAME-pattern-N-METRIC.mdb, in s's
 * metric.  PTB_OK; PTB_EINVAL when the puzzle has no patterns;
 * what ptb_table_open() returns for a missing, damaged or foreign table;
 * PTB_ENOMEM.  s must outlive it. */
int ptb_patterns_open(const ptb_space *s, const char *dir,
                      ptb_patterns **out);
void ptb_patterns_close(ptb_patterns *pt);   /* NULL is fine */

/* What answers space s's questions, from dir: its table (*table) when the
 * file is there; else, for a puzzle with pattern tables
 * (ptb_puzzle_patterns), those (*patterns; *table NULL).  PTB_OK; else
 * what ptb_table_open() or ptb_patterns_open() returned, both pointers
 * NULL, and in why (snprintf conventions; NULL with cap 0: not wanted)
 * the line ptb_answers_why() gives for it.  as is how the puzzle was named to the program (a
 * description's file, say), for the command the line suggests; NULL: its
 * name.  tblookup, tbserve and the Python module open tables this way. */
int ptb_answers_open(const ptb_space *s, const char *dir, const char *as,
                     ptb_table **table, ptb_patterns **patterns,
                     char *why, size_t cap);

/* One line for tables that cannot be used: rc from ptb_answers_open() or
 * from a later read (PTB_ECORRUPT, ...), of the table, or of the pattern
 * tables when the puzzle has them and its table's file is not there.  It
 * names the file and, when the file is the problem, the command that
 * builds it again:
 *   DIR/swap.mdb: table not found; rebuild it with 'make tables' or
 *     'tbgen --puzzle swap --metric step --out DIR'
 *   DIR/fifteen.mdb: table not found, and its pattern tables: table not
 *     found; build them with 'tbgen --puzzle fifteen --patterns --out DIR'
 * (one line each).  snprintf conventions. */
int ptb_answers_why(const ptb_space *s, const char *dir, const char *as,
                    int rc, char *buf, size_t cap);

/* How one search runs: its threads, and its limits (0: none). */
typedef struct ptb_search_opts {
    unsigned threads;        /* 1..256; 0: 1 */
    uint64_t nodes;          /* states expanded, at most */
    double seconds;          /* wall time, at most */
} ptb_search_opts;

/* What one search did. */
typedef struct ptb_search_stats {
    uint64_t nodes;          /* states expanded, every iteration */
    unsigned iterations;     /* bounds tried */
    unsigned bound;          /* the pattern tables' bound of the start */
    double seconds;          /* wall time */
} ptb_search_stats;

/* An optimal line from the nearest of n (1 or 2) candidates of
 * ptb_parse(), by IDA* (R. E. Korf, Depth-first iterative-deepening,
 * Artificial Intelligence 27, 1985) whose bound is the sum of the pattern
 * tables' distances (or the largest of the abstractions'): a lower bound,
 * so the first line found is a shortest one, proven.  Fills out as
 * ptb_solve() does.  With threads, a bound's nodes are shared out; the
 * answer is the same line one thread finds, except from abstractions,
 * whose threads share the boards they have met: there the line is as
 * short, but which one may change from run to run; the node count may
 * differ.  opts and stats may be NULL.  PTB_OK; PTB_NOTFOUND (no line:
 * out->distance PTB_UNSOLVABLE); PTB_ELIMIT when a limit ends it first;
 * PTB_EINVAL; PTB_ECORRUPT when a table fails a check; PTB_ENOMEM. */
int ptb_patterns_solve(const ptb_patterns *pt, const ptb_position *starts,
                       unsigned n, const ptb_search_opts *opts,
                       ptb_solution *out, ptb_search_stats *stats);

/* ptb_format_json() of a line ptb_patterns_solve() found, with the
 * search's figures in a last member, "search": {"optimal":true,"nodes",
 * "iterations","bound","seconds"} (what tblookup --format json prints for
 * such a puzzle).  snprintf conventions. */
int ptb_format_search_json(const ptb_space *s, const ptb_solution *sol,
                           const ptb_search_stats *st, char *buf, size_t cap);

/* ---- families --------------------------------------------------------- */

/* Every puzzle of a family (doc/guide.md, "Families"): a description that
 * covers mixes, every piece moving along its axis, and its 'family' lines.
 * Its layouts are split into components; each solvable one is solved once
 * and kept when it passes the family's filters and is minimal (every piece
 * but the distinct ones, and every family wall, matters), by Michael
 * Fogleman's definitions, so that the results are his program's.
 * threads: how many share the work (0: 1).  PTB_OK; PTB_EPARSE with one
 * line in err ("line 3: family: ..."); PTB_EINVAL with one line in err when the family's
 * layouts are too many to rank, or a configuration's (the kinds on each
 * line) more than 2^32 - 1;
 * PTB_ERANGE when a distance passes 254; PTB_ENOMEM.  Free it with
 * ptb_family_free(). */
typedef struct ptb_family ptb_family;
int ptb_family_solve(const char *text, unsigned threads, ptb_family **out,
                     char *err, size_t errcap);

/* A long run of ptb_family_solve().  The work is split in tasks (a space
 * and the sequences of its first three lines); with progress, the family's
 * configurations are counted first (as ptb_family_plan() does) and
 * progress(ctx, "search", done, total) called after each task, done and
 * total in layout numbers; with a checkpoint file, each task's puzzles are
 * appended to it as the task ends, and a run of the same family (the same
 * text) with the same file takes back the tasks it holds and does the
 * others, to the same puzzles (progress(ctx, "resume", tasks taken back,
 * tasks) first).  The file is removed when the run ends well; a file of
 * another family, or damaged before its last task, is PTB_EFORMAT with one
 * line in err (a task cut short at its end is done again).  A family of
 * blocks ('family blocks N') splits its work in tasks of a goal piece's
 * place and a piece count, counts their goal layouts first (always: they
 * order the tasks, heaviest first), and calls progress(ctx, "goals", done,
 * total), in goal layouts the goal piece can leave; its checkpoint is the
 * same. */
typedef struct ptb_family_opts {
    unsigned threads;
    void (*progress)(void *ctx, const char *phase, uint64_t done,
                     uint64_t total);
    void *progress_ctx;
    const char *checkpoint;      /* NULL: none */
    /* A sample (tbgen --plan --sample): with every > 1, only task i such
     * that i % every == every / 2 is done (counted, by
     * ptb_family_sample()), and no checkpoint is kept. */
    unsigned every;
    /* Tasks shared with other processes (tbgen-mpi): with take set, the
     * run does the tasks take() hands out, one a call (1 with *task <
     * ntask; 0 when none is left; a negative value stops the run with
     * PTB_EIO), and gives each task's record, as a checkpoint holds it,
     * to give() (non-zero stops the run with PTB_EIO) instead of keeping
     * a checkpoint; its puzzles are those of the tasks it did.  Both are
     * called from the run's threads, one call at a time. */
    int (*take)(void *ctx, unsigned ntask, unsigned *task);
    int (*give)(void *ctx, unsigned task, const char *rec, size_t len);
    void *share_ctx;
} ptb_family_opts;
int ptb_family_run(const char *text, const ptb_family_opts *o,
                   ptb_family **out, char *err, size_t errcap);

/* The checkpoint of a run whose tasks others do (tbgen-mpi's process 0):
 * the file at path for the family 'text' and its ntask tasks (a run's
 * take() learns ntask), opened as ptb_family_run() opens it: done[i]
 * (ntask bytes) is set for each task it holds, a record cut short at its
 * end is cut off, and another family's file or a damaged one is
 * PTB_EFORMAT with one line in err.  ptb_family_journal_add() checks a
 * record given by a run's give() (one whole record, its SHA-256 right,
 * its lines those of puzzles, of a task not done) and appends it to the
 * file (*task its task, done[*task] set): PTB_OK, PTB_EFORMAT for a bad
 * record (nothing written), or an errno value.  Close keeps the file:
 * ptb_family_run() with that checkpoint then takes back every task and
 * writes nothing more to it. */
typedef struct ptb_family_journal ptb_family_journal;
int ptb_family_journal_open(const char *path, const char *text,
                            unsigned ntask, unsigned char *done,
                            ptb_family_journal **out, char *err,
                            size_t errcap);
int ptb_family_journal_add(ptb_family_journal *j, const char *rec,
                           size_t len, unsigned *task);
void ptb_family_journal_close(ptb_family_journal *j);

/* What a family's run needs (tbgen --plan --family): its configurations
 * (those searched: the filters passed, one of a pair of images), their
 * layout numbers in all, the largest, the configurations past 2^24 numbers
 * (which share a memory budget), candidate goals, tasks, and the memory
 * the largest configuration may take.  Counted by the run's own
 * enumeration, on threads, without a search.  The same errors as
 * ptb_family_solve(). */
typedef struct ptb_family_counts {
    uint64_t configs, numbers, largest, big, goals, tasks, memory;
    /* A family of blocks ('family blocks N') sets blocks and counts
     * differently, its whole (with a sample too): tasks, a goal piece's
     * place and a piece count each; configs those with a goal the goal
     * piece can leave; goals those goal layouts (the searches' starts),
     * numbers every goal layout, largest the most goals of a task,
     * sampled the goals of the sample's tasks; big 0; memory the sets of
     * the largest tasks' goals, one a thread. */
    uint64_t blocks, sampled;
} ptb_family_counts;
int ptb_family_plan(const char *text, unsigned threads, ptb_family_counts *out,
                    char *err, size_t errcap);
/* The same counts over o's sample of tasks (o->every > 1; o->threads
 * used, the rest ignored); tasks still counts them all. */
int ptb_family_sample(const char *text, const ptb_family_opts *o,
                      ptb_family_counts *out, char *err, size_t errcap);
/* The puzzles kept, ordered by moves, then by board. */
size_t ptb_family_count(const ptb_family *f);
/* Puzzle i (< ptb_family_count()) in Fogleman's one-line form, "MOVES
 * BOARD STATES HIST": its moves (two digits at least), its hardest
 * layout a character a cell ('.' empty, 'x' a wall, the pieces lettered
 * from 'A' in his order), its component's size and the component's states
 * at each distance from 0, joined by ','.  snprintf conventions; -1 when
 * there is no puzzle i. */
int ptb_family_line(const ptb_family *f, size_t i, char *buf, size_t cap);
void ptb_family_free(ptb_family *f);      /* NULL is fine */
/* The family's name: its description's ('name' line). */
const char *ptb_family_name(const ptb_family *f);
/* Writes the family's levels table, DIR/NAME.levels.mdb (NAME the
 * family's name; tables/FORMAT.md, "Levels tables"): every puzzle kept,
 * hardest first (by moves, descending, then by board in byte order), each
 * with its moves, board, component size and histogram, and the family's
 * text, so that a reader can play a level without it.  Written as a table
 * is, through NAME.levels.mdb.tmp renamed into place: complete or absent.
 * The same family gives the same bytes.  *bytes (may be NULL) gets the
 * file's size.  PTB_OK; PTB_ENOMEM; PTB_EDB; an errno value (ENOENT for a
 * missing dir, ENOSPC, EACCES, ...); on failure nothing is left behind. */
int ptb_family_write(const ptb_family *f, const char *dir, uint64_t *bytes);

/* ---- levels: a family's puzzles from its levels table ---------------- */

/* A levels table, open: its header, statistics and family read and
 * checked at open, each level's block when a level of it is read; any
 * number of threads may read and solve with one at once. */
typedef struct ptb_levels ptb_levels;

/* Opens DIR/FAMILY.levels.mdb (written by ptb_family_write()) and checks,
 * in work that does not grow with its levels: its LMDB pages on the
 * reader's path, its header (magic, version, meta_sha256, levels_format),
 * the SHA-256 and length of its statistics (how many levels of each
 * number of moves: in range, hardest first, summing to the levels) and of
 * the family's text, which must read as a family of that name and board,
 * and the lengths of its other records.  A level's block (its SHA-256 and
 * every line: numbers in range, the moves the statistics give, a board of
 * the family's cells, component size the sum of the histogram, boards in
 * order) is checked when a level of it is first read.  Memory: the family
 * and the last block read.  PTB_OK; PTB_EINVAL for a FAMILY that is
 * empty, has a '/' or is longer than 31 bytes; PTB_ENOTABLE when there is
 * no such file; PTB_EFORMAT when it is no levels table, or another
 * family's; PTB_EVERSION (a table of another format, or a levels table of
 * another levels_format: rebuild it); PTB_ETRUNC; PTB_ECORRUPT when a
 * record fails its SHA-256 or length or the statistics their rules;
 * PTB_EDB; PTB_ENOMEM; an errno value (EACCES, ...).
 * ptb_levels_close() it. */
int ptb_levels_open(const char *dir, const char *family, ptb_levels **out);
void ptb_levels_close(ptb_levels *l);      /* NULL is fine */
/* Levels tables kept open while their files stay the same (tbserve, the
 * Python module): ptb_levels_cache_get() gives DIR/FAMILY.levels.mdb
 * open, the one it holds when the file is the one it opened (device,
 * inode, size, modification time), else opened again as ptb_levels_open()
 * opens it (the same errors; PTB_ENOTABLE when there is no file), the old
 * one closed when its last user has released it; give it back with
 * ptb_levels_cache_release().  Any number of threads may share a cache. */
typedef struct ptb_levels_cache ptb_levels_cache;
int ptb_levels_cache_new(ptb_levels_cache **out);
int ptb_levels_cache_get(ptb_levels_cache *c, const char *dir,
                         const char *family, ptb_levels **out);
void ptb_levels_cache_release(ptb_levels_cache *c, ptb_levels *l);
void ptb_levels_cache_free(ptb_levels_cache *c);     /* NULL is fine */
/* The family's name, as the table gives it. */
const char *ptb_levels_name(const ptb_levels *l);
/* How many levels; level 0 is the hardest. */
size_t ptb_levels_count(const ptb_levels *l);

/* One level: its moves, its hardest position (Fogleman's notation, a
 * character a cell in reading order: '.' empty, 'x' a wall, the pieces
 * 'A', 'B', ..., the distinct ones first), its component's size and its
 * states at each distance 0 .. moves, copied into the struct. */
#define PTB_LEVEL_CELLS 64       /* a board's cells, at most (8 x 8) */
#define PTB_LEVEL_MOVES 254      /* a level's moves, at most */
typedef struct ptb_level {
    unsigned moves;
    uint64_t states;
    char board[PTB_LEVEL_CELLS + 1];
    uint64_t histogram[PTB_LEVEL_MOVES + 1];
} ptb_level;
/* Level i (< ptb_levels_count()) into *out, its block read and checked
 * when it is not the last one read.  PTB_OK; PTB_EINVAL past the last;
 * PTB_ECORRUPT when its block fails its checks; PTB_ENOMEM. */
int ptb_levels_get(const ptb_levels *l, size_t i, ptb_level *out);
/* The levels with lo to hi moves: levels *first .. *first + *n - 1 (they
 * lie together, hardest first); *n is 0 when there are none.  From the
 * statistics: no level is read. */
void ptb_levels_range(const ptb_levels *l, unsigned lo, unsigned hi,
                      size_t *first, size_t *n);
/* Draws min(k, n) distinct levels of first .. first + n - 1 at random,
 * each set of that size as likely as any, in a random order, into out
 * (room for min(k, n)); the same seed gives the same levels in the same
 * order, on any machine (SplitMix64, Knuth's selection sampling, a
 * Fisher-Yates shuffle: lib/answer/levels.c).  Returns how many; 0 for a
 * range past the last level. */
size_t ptb_levels_draw(const ptb_levels *l, size_t first, size_t n,
                       uint64_t seed, size_t k, size_t *out);
/* Level i in Fogleman's one-line form, "MOVES BOARD STATES" (moves two
 * digits at least), or as JSON, {"family","index","moves","board",
 * "states","histogram":[...]}.  snprintf conventions; on failure a
 * negative PTB_E code, as ptb_levels_get() gives (PTB_EINVAL when there
 * is no level i, PTB_ECORRUPT when its block fails its checks). */
int ptb_format_level(const ptb_levels *l, size_t i, char *buf, size_t cap);
int ptb_format_level_json(const ptb_levels *l, size_t i, char *buf,
                          size_t cap);
/* Plays level i: *p gets the family's puzzle with the level's walls (its
 * description, 'covers mixes': a space of every layout), *s its space in
 * its first metric, and *sol an optimal line from the level's board, by a
 * breadth-first search of the level's component (ptb_search(): no
 * table).  Format it with ptb_format_native() or ptb_format_json() on *s.
 * The caller closes *s and then frees *p (ptb_space_close(),
 * ptb_puzzle_free()); on failure both are NULL.  Time and memory: a
 * search of one component, and a space of the family's layouts.  PTB_OK;
 * PTB_EINVAL past the last level, or when the family's layouts are too
 * many to rank; PTB_ECORRUPT when the level's block fails its checks, or
 * the board is none of the puzzle's layouts or its line is not the
 * level's moves (the table says what its family does not); PTB_EFORMAT
 * when the family's text no longer reads; PTB_ENOMEM. */
int ptb_level_solve(const ptb_levels *l, size_t i, ptb_puzzle **p,
                    ptb_space **s, ptb_solution *sol);

#ifdef __cplusplus
}
#endif
#endif
