/* lib/core/puzzle.h: the interface every puzzle implements (library-internal).
 *
 * A puzzle describes its state space as one or more *subtables*, each a dense
 * range of indices 0..size-1.  The BFS engine, the table code and the walk
 * work only on (subtable, index) pairs and on the callbacks below; they know
 * nothing about any one puzzle.  Moves never leave their subtable.
 *
 * A query is held in a ptb_position: its place in the table (sub, idx) plus
 * a puzzle-defined native view (labels, symmetry) that the table does not
 * keep.  The walk finds table moves; apply() replays each on the native view,
 * so the answer is printed in the user's own terms.
 *
 * A sliding-block puzzle needs no code: its description (doc/guide.md,
 * "Describing a puzzle") is read by lib/puzzles/describe.c into a puzzle whose
 * ops are lib/puzzles/puzzle_slide.c's (ptb_puzzle_load).  For a puzzle no
 * description can say, write lib/puzzles/puzzle_NAME.c defining
 *     const ptb_puzzle ptb_puzzle_NAME = { ... };
 * and add PTB_PUZZLE(NAME) to lib/puzzles/puzzles.def.  Puzzle files do no I/O and
 * keep no global mutable state: everything they compute at run time lives in
 * the context returned by open().
 */
#ifndef PTB_PUZZLE_H
#define PTB_PUZZLE_H

#include <stddef.h>
#include <stdint.h>

#include "puzzletb.h"

/* Upper bound on the query options of any puzzle. */
#define PTB_MAX_OPTIONS 8

/* Upper bound on the moves out of (or into) any state of a puzzle that
 * has no max_moves() op: every built-in puzzle's. */
#define PTB_MAX_MOVES 256

struct ptb_puzzle {
    const char *name;        /* CLI and file name: "klotski" */
    const char *summary;     /* one line for --help */
    const char *const *metrics; /* NULL-terminated; the first is the default */
    /* 1: moves are reversible and cost one (a move's reverse is a move), so
     * the table may store distance mod 3; 0: store exact distances. */
    int reversible;
    /* Query options, ended by an entry with name NULL; NULL for none. */
    const ptb_option *options;
    /* A described puzzle's canonical description (what its tables store),
     * the engine's reading of it, and its start; NULL for a built-in
     * puzzle, except that one whose rules are a description with
     * notations of its own keeps the description (Klotski:
     * lib/puzzles/klotski_text.c; data and start NULL), and its tables
     * store it. */
    const char *description;
    const void *data;
    const char *start;       /* its drawn start as query text, or NULL */
    /* The index a table stores for the puzzle (see index()), when it was
     * loaded from a table that has one (ptb_table_puzzle; owned by the
     * puzzle), or NULL: open() then reads it instead of building it, and
     * fails with PTB_EFORMAT when it does not hold. */
    const unsigned char *stored;
    size_t stored_len;
    /* The table stored lies in, open as long as the puzzle is (read in
     * place: ptb_table_puzzle; a table opened on the same path shares its
     * LMDB environment: ptb_table_open), or NULL when the puzzle owns a
     * copy. */
    ptb_table *stored_table;

    /* ---- state space (used by tbgen, --verify and the walk) ---- */

    /* Builds the context for one metric (index into metrics) of the puzzle
     * self.  Returns PTB_OK, PTB_ENOMEM, PTB_EINVAL when the state space
     * is too large for this puzzle's index, or PTB_EFORMAT when self's
     * stored index does not hold.  close(NULL) does nothing. */
    int (*open)(const ptb_puzzle *self, unsigned metric, void **ctx);
    void (*close)(void *ctx);
    uint32_t (*subtables)(const void *ctx);
    /* UINT64_MAX: more states than 64 bits count (a searched puzzle's,
     * which no table holds: the 24-puzzle's 25!/2). */
    uint64_t (*size)(const void *ctx, uint32_t sub);
    /* Optional: the first global index of every subtable (subtables() + 1
     * entries, from 0; entry i + 1 - entry i == size(i)) as an array that
     * lives as long as the context, e.g. made at build time.  A puzzle with
     * many subtables gives it so that opening a space does no work; NULL:
     * the space sums size() itself. */
    const uint64_t *(*offsets)(const void *ctx);
    /* Calls emit(arg, idx) once for every goal state of the subtable. */
    void (*goals)(const void *ctx, uint32_t sub,
                  void (*emit)(void *arg, uint64_t idx), void *arg);
    int (*is_goal)(const void *ctx, uint32_t sub, uint64_t idx);
    /* Optional: the most moves out of (or into) any state of the context,
     * which every array of a state's moves is made to hold (a described
     * puzzle's bound from its board and pieces); NULL: PTB_MAX_MOVES. */
    unsigned (*max_moves)(const void *ctx);
    /* Forward moves from idx: writes at most max_moves(), returns the
     * count.  A goal state has no moves when the game ends there
     * (four-in-a-row). */
    unsigned (*moves)(const void *ctx, uint32_t sub, uint64_t idx,
                      ptb_move *out);
    /* States one move before idx: every p with idx among moves(p).  Returns
     * the count; duplicates are allowed.  Reversible puzzles may list exactly
     * the targets of moves(). */
    unsigned (*unmoves)(const void *ctx, uint32_t sub, uint64_t idx,
                        uint64_t *out);
    /* Optional, for reversible puzzles whose every move changes a parity
     * of the state that is 0 on every goal (the state graph is bipartite):
     * that parity, 0 or 1, which is then the distance mod 2.  With it, a
     * table whose every state is solvable stores one bit a state, the
     * distance's second bit, and a reader adds the parity to know the
     * distance mod 4 (FORMAT.md, packed1).  tbgen checks it against the
     * BFS on every state and --verify proves it.  NULL: no such parity. */
    unsigned (*parity)(const void *ctx, uint32_t sub, uint64_t idx);
    /* Optional: the index the context ranks states by, as a table stores
     * it so that a reader need not build it (a described puzzle's ranking:
     * FORMAT.md, "ranking"); NULL, with *len 0, when there is none.  It
     * lives as long as the context; the same description gives the same
     * bytes, whether open() built it or read it from stored. */
    const unsigned char *(*index)(const void *ctx, size_t *len);
    /* Optional: PTB_OK, or PTB_ECORRUPT once the context has found its
     * stored index damaged (a described puzzle checks a stored graph node
     * by node as it first walks there, and walks no further).  Whatever
     * the context answered since is void: every entry point of the library
     * that answers from a space asks it before it returns (space.c,
     * ptb_space_status()).  NULL: never. */
    int (*status)(const void *ctx);

    /* ---- queries (used by ptb_parse and the formatters) ---- */

    /* Parses the native text of one query into up to 2 candidate starts (a
     * query may leave a choice open, e.g. who moves first; the answer is the
     * nearest candidate).  opt[i] is the value given for options[i], or
     * NULL; text is NULL only when a PTB_OPT_POSITION option is given
     * (ptb_parse checks names, repeats and that rule).  On error returns
     * PTB_EPARSE and writes a one-line message to err ("line 3: expected 4
     * characters, got 5", "first: expected B or W, got X").  A message
     * about an option's value starts with "NAME: ", so programs can tell
     * it from a position's mistake. */
    int (*parse)(const void *ctx, const char *text, const char *const *opt,
                 ptb_position out[2], unsigned *n, char *err, size_t errcap);
    /* Batch input: how many non-blank lines the record starting with this
     * line has.  NULL: records are separated by blank lines. */
    unsigned (*record_lines)(const void *ctx, const char *first_line);
    /* Replays a table move (from moves()) on the native view; sets p->idx
     * to the move's successor. */
    void (*apply)(const void *ctx, ptb_position *p, const ptb_move *m);
    /* Optional: moves(p->sub, p->idx, out), the same moves in the same
     * order, for a position made by parse() and apply(), found from what
     * its native view keeps instead of from the index (the walk makes one
     * such call a step).  Any other position gets moves()' answer.  NULL:
     * the walk calls moves(). */
    unsigned (*position_moves)(const void *ctx, const ptb_position *p,
                               ptb_move *out);
    /* Optional: is_goal(p->sub, p->idx) of a position made by parse() and
     * apply(), from its native view, so that a position without an index
     * (PTB_NO_INDEX: a searched puzzle's) can be asked too.  NULL: the
     * replay of a search's line calls is_goal(). */
    int (*position_is_goal)(const void *ctx, const ptb_position *p);
    /* Optional: gives a position without an index (PTB_NO_INDEX) its
     * index, and the native view's bits that go with it (aux), so that
     * the index's ops (moves(), a BFS) may follow it; p->idx stays
     * PTB_NO_INDEX when the index cannot be made.  NULL: every position
     * parse() makes has its index. */
    void (*position_rank)(const void *ctx, ptb_position *p);
    /* Optional: the moves of position p as position_moves() (or moves())
     * gives them, made one at a time and each given to pick(arg, move)
     * until pick returns non-zero: then that move goes to *out and the
     * value pick returned is returned; 0 when pick took none.  For a
     * puzzle whose moves cost more to make than to test (the walk takes
     * the first one closer).  ahead (may be NULL) is told of no move,
     * or of each move, as ahead(arg, move), before pick is given the
     * move before it (so that the read of one move's value may wait
     * while the next is made), and then of one move at most after the
     * one pick takes.  NULL: the walk makes them all. */
    int (*first_move)(const void *ctx, const ptb_position *p,
                      int (*pick)(void *arg, const ptb_move *m),
                      void (*ahead)(void *arg, const ptb_move *m), void *arg,
                      ptb_move *out);
    /* Native text of the board (may span lines, no trailing newline) and of
     * a move made from 'before'.  snprintf conventions: return the length. */
    int (*format_board)(const void *ctx, const ptb_position *p, char *buf,
                        size_t cap);
    int (*format_move)(const void *ctx, const ptb_position *before,
                       const ptb_move *m, char *buf, size_t cap);
    /* The puzzle's native answer text (the contest output format), complete
     * with its final newline.  snprintf conventions. */
    int (*format_answer)(const void *ctx, const ptb_solution *s, char *buf,
                         size_t cap);
    /* The code of a table state for humans and --stats (Klotski: CommonCode);
     * may be NULL, then the index is shown. */
    int (*format_code)(const void *ctx, uint32_t sub, uint64_t idx, char *buf,
                       size_t cap);
    /* Optional: format_code() of a position's state, made from its native
     * view when it has no index (PTB_NO_INDEX).  NULL: format_code(). */
    int (*format_position_code)(const void *ctx, const ptb_position *p,
                                char *buf, size_t cap);

    /* ---- JSON (lib/answer/json.c; schema in doc/guide.md) ---- */

    /* The query's own fields, as JSON members without braces
     * ("\"target\":\"...\",\"code\":\"...\""): at least "code", one line
     * that parse() reads back as this position, in the user's terms.
     * snprintf conventions. */
    int (*format_query_json)(const void *ctx, const ptb_position *p,
                             char *buf, size_t cap);
    /* A move made from 'before' as a JSON object in the puzzle's terms:
     * "piece" (its letter), "from" and "to" (cells: [row, column] from 1,
     * or a number from 1 for one-row boards), then "direction" or "path"
     * as it applies.  snprintf conventions. */
    int (*format_move_json)(const void *ctx, const ptb_position *before,
                            const ptb_move *m, char *buf, size_t cap);
};

/* The number of set bits of x. */
static inline unsigned ptb_popcount(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

/* The number of set bits of x, inline (__builtin_popcountll() is a call
 * into libgcc on a CPU the build may not assume has POPCNT). */
static inline unsigned ptb_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555u);
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (unsigned)((x * 0x0101010101010101u) >> 56);
}

/* The lowest set bit of x != 0. */
static inline unsigned ptb_low_bit(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned i = 0;
    while (!(x >> i & 1))
        i++;
    return i;
#endif
}

/* Small helpers shared by puzzle files (lib/core/util.c). */
int ptb_errf(char *err, size_t cap, const char *fmt, ...);   /* PTB_EPARSE */
/* Appends formatted text at buf+*len, keeping snprintf length semantics. */
void ptb_catf(char *buf, size_t cap, size_t *len, const char *fmt, ...);

#endif
