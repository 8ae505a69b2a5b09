/* lib/answer/family.h: what the files of the families share
 * (library-internal): family.c reads a family, decides which layouts
 * count and draws a kept puzzle (Fogleman's definitions); family_lines.c
 * makes the tables of the board's lines and the family's spaces;
 * family_config.c finds every component of the family's configurations
 * and keeps those that count (fam_configs()), family_resume.c its
 * checkpoint, family_run.c the public calls.  The definitions are in family.c's header.
 */
#ifndef PTB_FAMILY_H
#define PTB_FAMILY_H

#include <pthread.h>

#include "answer.h"
#include "puzzles/slide.h"

#define FAR 0xFF                 /* a distance: not reached */
#define KEY_PIECES 21            /* the most pieces of a layout (ckey) */
#define MAX_WALLS 2              /* the most family walls ('family walls') */

typedef struct fam_level {
    unsigned moves;
    uint64_t states;
    char board[SL_MAX_CELLS + 1];
    uint64_t *hist;              /* moves + 1 counts */
} fam_level;

struct ptb_family {
    size_t n, cap;
    fam_level *level;
    char name[32];               /* the description's */
    char *text;                  /* the family as given (levels.c) */
};

typedef struct fam_opts {
    unsigned walls;
    int alone, open_lines;
    unsigned blocks;             /* 'family blocks N': N; 0 none */
} fam_opts;

/* A layout's pieces and its place in the order. */
typedef struct pieces {
    unsigned np;
    uint8_t kind[SL_MAX_PIECES], anchor[SL_MAX_PIECES];
    uint64_t across, down;
} pieces;

/* A layout in a component: where each of the seed's pieces stands on its
 * line, in the seed's order (pieces never leave their line nor pass each
 * other, and one kind's are told apart by their place), three bits each
 * (a line has at most 8 cells), piece j at bit 3j. */
typedef struct ckey {
    uint64_t w;
} ckey;

/* A slot of the hash: a layout's key and 1 + its number, in use when gen
 * is the search's. */
typedef struct cslot {
    ckey key;
    uint32_t id, gen;
} cslot;

/* The layouts near a layout (fam_near()), found again by their hash, and
 * their distances from it. */
typedef struct csearch {
    const sl_desc *d;
    int8_t (*next)[SL_MAX_CELLS][2];   /* steps (fam_make_steps()) */
    unsigned np, metric;
    uint8_t kind[KEY_PIECES];
    uint8_t line[KEY_PIECES], step[KEY_PIECES];   /* of each piece, the
                                                     anchor at place 0 of
                                                     its line and from one
                                                     place to the next */
    uint8_t place[2][SL_MAX_CELLS];  /* of each cell, its column, its row */
    int8_t distinct[SL_MAX_KINDS];   /* of a distinct kind, its piece; -1 */
    ckey *key;
    uint8_t *dist;
    uint32_t gen;
    cslot *slot;
    uint64_t size, cap, mask;
} csearch;

/* What the search of a component finds. */
typedef struct component {
    uint64_t size, hist[FAR];
    unsigned moves;
    uint32_t at;                 /* the farthest layout's number */
    pieces far;
} component;

/* family.c */
void fam_make_steps(const sl_desc *d, int8_t (*next)[SL_MAX_CELLS][2]);
int fam_near(csearch *cs, const pieces *pc, unsigned limit, int *near);
void fam_cs_free(csearch *cs);
void fam_order_of(const sl_desc *d, pieces *pc);
int fam_passes(const fam_opts *o, const sl_desc *d, const pieces *pc);
int fam_meets(const sl_desc *d, const pieces *pc, uint64_t walls);
int fam_less(const sl_desc *base, uint64_t extra, unsigned *n,
             const sl_desc **less, sl_desc **less_own,
             int8_t (*next)[SL_MAX_KINDS][SL_MAX_CELLS][2]);
int fam_keep(ptb_family *fam, const sl_desc *d, uint64_t walls,
             const component *c);
uint64_t fam_flip_cells(const sl_desc *d, uint64_t cells);
int fam_flip_anchor(const sl_desc *d, unsigned k, unsigned a);
int fam_flips(const sl_desc *d);
int fam_gather(ptb_family *fam, ptb_family *kept);

/* family_config.c: the family's puzzles into fam (or, with pl, only its
 * counts), by fo's threads, progress and checkpoint (text: the family's,
 * for the checkpoint). */
int fam_configs(const sl_desc *d, const fam_opts *o, const char *text,
                const ptb_family_opts *fo, ptb_family *fam,
                ptb_family_counts *pl, char *err, size_t errcap);

/* family_resume.c: the checkpoint file of a run of ntask tasks of the
 * family 'text' (its header, then a record a task done: the puzzles it
 * kept).  Open takes back the tasks it holds into done[] (*ndone of
 * them) and their puzzles into kept, and cuts a record cut short;
 * PTB_EFORMAT with one line in err for another family's file or a damaged
 * one.  fam_journal_task() appends task's puzzles (from any thread). */
typedef struct fam_journal fam_journal;
int fam_journal_open(const char *path, const char *text, unsigned ntask,
                     uint8_t *done, unsigned *ndone, ptb_family *kept,
                     fam_journal **out, char *err, size_t errcap);
int fam_journal_task(fam_journal *j, unsigned task, const fam_level *lv,
                     size_t n);
void fam_journal_close(fam_journal *j, int remove_it);
/* Task's record of its puzzles lv[0..n), as the file holds it, into *rec
 * (malloc'd, *len bytes). */
int fam_record(unsigned task, const fam_level *lv, size_t n, char **rec,
               size_t *len);

/* family_resume.c: the tasks' weights (their numbers, which size the
 * progress) in the file beside the checkpoint ckpt.  Read: whether the
 * file is whole, of the family 'text' and its ntask tasks, and gives
 * the weight of every task not done (weight[] then holds them).  Write:
 * the weights of the tasks counted[]; PTB_OK or an errno value.  Remove:
 * the file, at a run's end. */
int fam_weights_read(const char *ckpt, const char *text, unsigned ntask,
                     const uint8_t *done, uint64_t *weight);
int fam_weights_write(const char *ckpt, const char *text, unsigned ntask,
                      const uint8_t *counted, const uint64_t *weight);
void fam_weights_remove(const char *ckpt);

/* family_resume.c: a run's tasks, as both kinds of family share them
 * out: which are done (taken back from the checkpoint, whose puzzles wait
 * in 'back'), their weights (what sizes the progress: counted by the run,
 * or read from beside the checkpoint), the order the threads take them
 * in, and the progress; or, when o->take is set (and not 'plan'), the
 * tasks another process hands out (ptb_family_opts).  fam_tasks_open()
 * opens the checkpoint (unless 'plan', o->take, a sample or no
 * o->checkpoint) and reads the weights beside it when 'weights' (then
 * 'counted' is set); fam_tasks_counted() after a count of the tasks not
 * done (their weights set): the progress's total, and the weights kept
 * beside the checkpoint; fam_tasks_next() the next task: o->take()'s
 * (shared), or the next not done (in order[] when set; of the sample when
 * o->every > 1: the tasks at k % every == every / 2 in that order); 1 with
 * *i set, 0 when none is left, PTB_EIO when take() fails.  From any
 * thread: fam_tasks_end() a task's puzzles given to o->give() (shared), or
 * into the checkpoint and its weight into the progress (phase 'phase');
 * fam_tasks_skip() a task with nothing to search: given as done, with no
 * puzzles, when shared (nothing otherwise).  fam_tasks_close() the run's
 * end: the puzzles taken back gathered into fam (when rc is PTB_OK and
 * fam is not NULL), the checkpoint and its weights removed when rc is
 * PTB_OK (kept otherwise), all freed; it returns rc, or the gathering's
 * error. */
typedef struct fam_tasks {
    unsigned ntask;
    unsigned next;               /* (atomic) */
    int shared;                  /* o->take hands the tasks out */
    uint8_t *done;               /* of each task: taken back */
    uint64_t *weight;            /* of each task: its weight (counted) */
    unsigned *order;             /* the order taken in; NULL: 0, 1, ... */
    uint64_t total, sofar;       /* weights: of the tasks left, done */
    int counted;                 /* weight[] read from beside the checkpoint */
    const ptb_family_opts *o;
    const char *text, *phase;
    fam_journal *jr;
    ptb_family back;
    pthread_mutex_t lock;        /* the progress, take() and give() */
} fam_tasks;
int fam_tasks_open(fam_tasks *t, const ptb_family_opts *o, const char *text,
                   unsigned ntask, int plan, int weights, const char *phase,
                   char *err, size_t errcap);
void fam_tasks_counted(fam_tasks *t);
int fam_tasks_next(fam_tasks *t, unsigned *i);
int fam_tasks_end(fam_tasks *t, unsigned i, const fam_level *lv, size_t n);
int fam_tasks_skip(fam_tasks *t, unsigned i);
int fam_tasks_close(fam_tasks *t, int rc, ptb_family *fam);

/* family_blocks.c: the puzzles of a family of general blocks ('family
 * blocks N': pieces of any shape of at most N cells) on d's board, into
 * fam, with fo's threads, progress and checkpoint (text: the family's, for
 * the checkpoint), or with pl, only its counts; PTB_EPARSE with one line
 * in err for a board it cannot take. */
int fam_blocks(const sl_desc *d, unsigned most, const char *text,
               const ptb_family_opts *fo, ptb_family *fam,
               ptb_family_counts *pl, char *err, size_t errcap);

/* The description text without its family lines (each made blank), into
 * *desc (malloc'd), and the family's options into *o; whether d fits a
 * family, with the reason in err. */
int fam_split_family(const char *text, fam_opts *o, char **desc, char *err,
                     size_t errcap);
int fam_check_desc(const sl_desc *d, char *err, size_t errcap);

/* family_lines.c: the lines of the board, the sequences of kinds each
 * may hold with their placements and moves (its tables), and the
 * family's spaces (the board with each choice of family walls), for
 * family_config.c. */

/* A line of the board is a row (the pieces anchored on it that move
 * across) or a column (those that move down): line l < h is row l, line
 * h + x column x.  Its pieces keep their order on it, so a layout's
 * configuration, the kinds on each line in order, holds for its whole
 * component, and the layouts of a configuration are numbered densely: a
 * placement a line (ltab), the number of the layout the placements' in
 * mixed radix. */
#define MAX_LINES (SL_MAX_H + SL_MAX_W)
#define LINE_PIECES SL_MAX_W     /* the most pieces on a line (one cell of
                                    it each) */

/* A move on a line from a placement: piece 'piece' of the line slides,
 * to placement q, over the cells 'swept' (besides its own), which the
 * other lines' pieces must leave empty. */
typedef struct lmove {
    uint64_t swept;
    uint32_t q;
    uint8_t piece;
} lmove;

/* The placements of a sequence of kinds on a line: every way to put them
 * on it in that order, each on an anchor where it lies (off the walls),
 * none overlapping; of each, its anchors, cells (and upside down), and
 * moves along the line; 'seed' the placements a goal may have (each
 * distinct piece on an anchor some goal gives it, or any). */
typedef struct ltab {
    unsigned np, bits;           /* pieces; bits of a placement number */
    uint32_t n, nseed;           /* placements; those in seed[] */
    uint8_t kind[LINE_PIECES];
    uint32_t distinct;           /* its distinct kinds, a bit each */
    uint8_t *anchor;             /* n x np */
    uint64_t *cells, *turned;
    uint32_t *first, *seed;      /* moves of p: first[p] .. first[p + 1] */
    uint8_t *isseed;             /* of each placement: in seed[] */
    lmove *move;
    size_t cap, mcap, nmove;
    uint64_t *swapped;           /* of each placement, its cells with rows
                                    and columns swapped (swap_axes()) */
    unsigned len, at, down;      /* its line's cells, the bit of its first
                                    in a layout's cells (a row) or in them
                                    swapped (a column), and which */
    uint16_t *free;              /* of each placement p and cells b of the
                                    line covered (bit i its place i), the
                                    moves from p that b leaves open, bit e
                                    for move first[p] + e (free[p << len |
                                    b]); NULL: each move's swept cells
                                    tested */
} ltab;

/* A space of the family: the description with its family walls, if any. */
typedef struct fspace {
    const sl_desc *d;
    sl_desc *own;                /* d when it is a walled copy */
    uint64_t extra;              /* its family walls */
    unsigned nless;              /* its family walls, each a board less */
    const sl_desc *less[MAX_WALLS];   /* the board without each family
                                         wall (the base, or own[i]) */
    sl_desc *less_own[MAX_WALLS];
    int8_t (*less_next)[SL_MAX_KINDS][SL_MAX_CELLS][2];   /* their steps */
    int mirrored;                /* its puzzles stand for their images
                                    upside down too, in the space with the
                                    image wall (fam_flips()) */
    int flip;                    /* it is its own image upside down: a
                                    configuration's image is one of its
                                    own */
    int simple;                  /* a layout whose distinct pieces stand
                                    where its goal puts them is a goal */
    uint64_t gset[SL_MAX_KINDS]; /* of a distinct kind, the anchors a goal
                                    puts it on (all: some goal puts it
                                    anywhere) */
    int8_t next[SL_MAX_KINDS][SL_MAX_CELLS][2];   /* fam_make_steps() */
    unsigned ntab[MAX_LINES];
    ltab *tab[MAX_LINES];        /* each line's sequences, the lines in
                                    the search's order (order_lines()) */
    uint32_t later[MAX_LINES + 1];   /* the distinct kinds some sequence
                                        of line l or after holds */
} fspace;

typedef struct run {
    fam_opts o;
    const sl_desc *base;         /* the family without family walls */
    fspace *sp;
    unsigned nsp;
    uint32_t distinct;           /* the distinct kinds, a bit each */
    int8_t flipped[SL_MAX_KINDS][SL_MAX_CELLS];   /* of each kind and
                                                     anchor, fam_flip_anchor()
                                                     on the base's board */
} run;

static inline unsigned fam_n_lines(const sl_desc *d)
{
    return d->h + d->w;
}

/* The spaces of the family r->o on d (the base) into r->sp (r->nsp of
 * them); fam_space_free() frees one. */
int fam_spaces(run *r, const sl_desc *d);
void fam_space_free(fspace *sp);

#endif
