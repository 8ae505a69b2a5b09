/* lib/puzzles/slide.h: a sliding-block puzzle read from a description
 * (library-internal).
 *
 * describe.c reads a description (doc/guide.md, "Describing a puzzle"; man
 * page puzzletb-description(5)) into an sl_desc and writes its canonical
 * text, the form a table stores; puzzle_slide.c is the engine that turns
 * an sl_desc into a puzzle of lib/core/puzzle.h.  Nothing here knows any one
 * puzzle: a puzzle is its description.
 *
 * The board has w x h cells (at most SL_MAX_W x SL_MAX_H), numbered in
 * reading order, c = row * w + column.  A piece is a set of cells; its
 * anchor is its first cell in reading order, and its shape the offsets of
 * its cells from the anchor, c - anchor, as a bit mask (every offset is
 * >= 0 because the anchor comes first).  Pieces that the table tells apart
 * are of different *kinds*: a distinct piece is a kind of its own; pieces
 * of the same shape and move rule that are not distinct share one.
 */
#ifndef PTB_SLIDE_H
#define PTB_SLIDE_H

#include <stdint.h>

#include "text.h"

#define SL_MAX_W 8
#define SL_MAX_H 8
#define SL_MAX_CELLS (SL_MAX_W * SL_MAX_H)
#define SL_MAX_KINDS 32          /* kinds of piece (a bit each in a
                                    uint32_t) */
#define SL_MAX_PIECES 48         /* pieces on the board */
#define SL_MAX_GOALS 8           /* goal patterns */
#define SL_MAX_TEXT 8192         /* a description's canonical text */
#define SL_MAX_PATTERNS 8        /* pattern groups */

enum { SL_STEP, SL_LINE, SL_MOVE, SL_METRICS };   /* the metrics */
enum { SL_FREE, SL_ACROSS, SL_DOWN };             /* how a kind moves */

typedef struct sl_kind {
    uint64_t shape;          /* offsets from the anchor, bit per offset */
    uint64_t fit;            /* anchors where it lies on the board, off
                                the walls */
    unsigned cells;          /* cells of one piece */
    unsigned count;          /* pieces of this kind */
    unsigned axis;           /* SL_FREE, SL_ACROSS (a row), SL_DOWN */
    char label;              /* a distinct piece's letter; 0: none */
    char shown;              /* the letter that shows it: the first piece's */
    int twin;                /* 1 + the kind of the same shape that moves
                                the other way (neither distinct), or 0:
                                a piece's letter tells them apart, one of
                                'axis' (sl_desc.axis) or not */
} sl_kind;

/* A goal: every required piece of a kind at an anchor, and the cells that
 * must be empty; the other cells may hold anything. */
typedef struct sl_goal {
    uint64_t empty;
    unsigned n;
    uint8_t kind[SL_MAX_PIECES], anchor[SL_MAX_PIECES];
} sl_goal;

typedef struct sl_desc {
    char name[32];
    unsigned w, h, n;        /* width, height, cells */
    uint64_t walls;
    unsigned nkinds;
    sl_kind kind[SL_MAX_KINDS];
    char axis[SL_MAX_PIECES + 1];     /* the letters 'axis' lists ("" with
                                         'axis all' or none) */
    unsigned npieces;
    unsigned nmetrics;
    unsigned metric[SL_METRICS];      /* SL_STEP.. in the listed order */
    const char *metric_name[SL_METRICS + 1];   /* NULL-terminated */
    unsigned most[SL_METRICS];        /* the most moves a layout may have
                                         in each */
    char start[SL_MAX_CELLS];         /* the drawn start: a letter, '.', '#' */
    char start_text[SL_MAX_CELLS + SL_MAX_H];  /* rows joined by '/' */
    unsigned ngoals;
    sl_goal goal[SL_MAX_GOALS];
    char empty[8], wall[8];           /* more characters for "empty", "wall" */
    int reachable;                    /* covers: 1 reachable, 0 layouts */
    int mixes;                        /* covers mixes: any number of the
                                         pieces that are not distinct */
    unsigned min_empty;               /* ... with this many empty cells */
    char numbers[SL_MAX_PIECES + 1];  /* 'numbers': the letters that
                                         numbers 1, 2, ... stand for in
                                         a position written as numbers */
    unsigned npatterns;               /* 'patterns': groups of tiles whose
                                         pattern tables bound a search */
    uint32_t pattern[SL_MAX_PATTERNS];   /* each group's kinds, a bit each */
    unsigned nkeeps;                  /* 'abstraction' lines: npatterns
                                         abstractions combined by maximum,
                                         pattern[g] the kinds each keeps
                                         (0: the groups of 'patterns') */
    unsigned abstract;                /* 'pattern N': this is the pattern
                                         space of group N (from 1); 0: the
                                         puzzle itself */
    char pattern_name[56];            /* the pattern space's name:
                                         NAME-pattern-N */
    char *summary;                    /* malloc'd, may be "" */
    char *text;                       /* the canonical text, malloc'd */
} sl_desc;

/* Reads a description.  taken(name), when given, is 1 for a name that is
 * not free (a built-in puzzle's: the registry's, which the reader knows
 * nothing of).  PTB_OK; PTB_EPARSE with "line L, column C: what" (or
 * "line L: what") in err; PTB_ENOMEM.  sl_free() it on success. */
int sl_read(const char *text, int (*taken)(const char *name), sl_desc **out,
            char *err, size_t errcap);
void sl_free(sl_desc *d);

/* Whether c stands for an empty cell or a wall in this description's
 * drawings (besides '.' and '#'). */
int sl_is_empty(const sl_desc *d, char c);
int sl_is_wall(const sl_desc *d, char c);

/* How many lines of a batch make one position of this board, its first
 * line first_line (ptb_puzzle.record_lines): 1 when the line holds the
 * whole board (its rows joined by '/' or blanks, or its d->n cells), else
 * enough such lines for d->h rows. */
unsigned sl_record_lines(const sl_desc *d, const char *first_line);

/* Appends the drawing of cells (d->w x d->h characters, none NUL) to
 * buf+*len as ptb_catf() does: its rows joined by sep. */
void sl_grid_text(const sl_desc *d, const char *cells, char sep, char *buf,
                  size_t cap, size_t *len);

/* The kind of a piece drawn with letter x in the given shape (offsets from
 * its anchor): the distinct piece x, or else the kind of that shape that
 * is not distinct; -1 when there is none (or x is a distinct piece drawn
 * in another shape). */
int sl_kind_of(const sl_desc *d, char x, uint64_t shape);

/* The puzzle of a description (puzzle_slide.c): a ptb_puzzle whose name,
 * summary, metrics and description are d's; it owns d. */
int sl_puzzle(sl_desc *d, ptb_puzzle **out);

/* The description of a space of a described puzzle whose states are
 * layouts ranked by the programme ('covers layouts' or 'mixes'), one
 * state a layout (not folded); NULL for any other space (a family's check,
 * lib/answer/family_config.c). */
const sl_desc *sl_space_desc(const ptb_space *s);

/* A notation over the engine (lib/puzzles/slide_view.c): a puzzle whose
 * rules are a description but whose queries are written its own way
 * (Klotski's codes: lib/puzzles/klotski_text.c) makes the description's
 * puzzle (sl_read(), sl_puzzle(); sl_puzzle_free() frees it and its
 * description, when it holds no table's index), opens the engine's
 * context on it and reads and writes states through these, ctx being that
 * context (the described puzzle's open()).  A layout is
 * given as at[c], the kind + 1 of the piece anchored at cell c (0: none),
 * for the description's d->n cells.  sl_ctx_desc() is the description;
 * sl_ctx_layout() writes state idx's own layout (with the mirror image
 * folded, the one of the two that stands for both); sl_ctx_state() is the
 * state of a layout, or UINT64_MAX when it is none of the space's (a piece
 * off the board, two that overlap, too few empty cells), with *aux the
 * bits a position's aux carries for it (the drawing the state's mirror
 * image, or 0); sl_ctx_move() is table move m as made on position p's
 * drawing: its piece's anchor before, and after shifted left by 8. */
void sl_puzzle_free(ptb_puzzle *p);
const sl_desc *sl_ctx_desc(const void *ctx);
void sl_ctx_layout(const void *ctx, uint64_t idx, uint8_t *at);
uint64_t sl_ctx_state(const void *ctx, const uint8_t *at, uint32_t *aux);
uint32_t sl_ctx_move(const void *ctx, const ptb_position *p,
                     const ptb_move *m);

/* The description of the abstraction d->abstract of d, a description
 * with 'abstraction' lines read with its 'pattern N' line: d without the
 * pieces the abstraction leaves out, covering every layout of the rest
 * (doc/design.md, "Abstractions").  Its text is d's (the table of the
 * abstraction stores the description it came from), its name d's and
 * pattern_name NAME-pattern-N; abstract is N.  PTB_OK; PTB_EINVAL when d is
 * no abstraction's; PTB_ENOMEM. */
int sl_abstraction(const sl_desc *d, sl_desc **out);

/* A copy of d (covers mixes) whose board has walls on the cells of extra
 * too, which must be off d's walls: a family's walls (lib/answer/family.c).
 * Each kind's anchors keep off them, a goal that needs one of them empty
 * or covered is dropped (it can hold no more), and the start's pieces on
 * them are taken off (the start of a table of mixes is only its
 * example).  The copy keeps d's name and text: it is for a search, never
 * for a table.  PTB_OK; PTB_EINVAL when d does not cover mixes;
 * PTB_ENOMEM. */
int sl_walled(const sl_desc *d, uint64_t extra, sl_desc **out);

#endif
