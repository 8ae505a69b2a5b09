/* lib/puzzles/abstract.h: a described puzzle's boards and abstractions, as
 * a search past a full table sees them (library-internal;
 * lib/answer/ida_max.c).
 *
 * A description with 'abstraction' lines (puzzletb-description(5)) names
 * abstractions of its puzzle, each keeping some of the pieces (whole kinds,
 * and every kind the goals name), the others taken off the board: the
 * puzzle of fewer pieces that sl_abstraction() describes, whose table
 * holds the distance of every layout of its pieces.  The image of a board
 * in an abstraction is the board without the pieces it leaves out.  Every
 * move of the puzzle, in any metric, is a move of the image or leaves it as
 * it was (the path it takes is empty on the board, and so on the image,
 * which holds fewer pieces), and the image of a goal is a goal (the
 * abstraction keeps every piece the goals name and every cell they leave
 * empty stays empty); so an abstraction's distance of the image is at
 * most the board's, and the images of two boards one move apart are at
 * most one move apart.  doc/design.md, "Abstractions", gives the proof.
 *
 * A board is the engine's layout of a state, sl_board_size() bytes, which
 * the search copies as it goes (a state of the real puzzle is never
 * ranked: its space may be too big for a table).  The functions take the
 * space of a described puzzle (ptb_space_new() of a puzzle whose
 * description is read: any covers); an abstraction's, of its table.
 */
#ifndef PTB_ABSTRACT_H
#define PTB_ABSTRACT_H

#include "core/core.h"
#include "slide.h"

typedef struct layout sl_board;

/* The bytes of a board. */
size_t sl_board_size(void);

/* The board of a drawn position p of space s (ptb_parse()'s, or one
 * apply() made). */
void sl_board_of(const ptb_space *s, const ptb_position *p, sl_board *b);

/* The kind of the piece whose anchor is cell c of board b (one is). */
unsigned sl_board_kind(const sl_board *b, unsigned c);

/* Whether board b is a goal of space s's description. */
int sl_board_is_goal(const ptb_space *s, const sl_board *b);

/* Whether boards a and b of space s hold the same pieces in the same
 * places. */
int sl_board_same(const ptb_space *s, const sl_board *a, const sl_board *b);

/* Every move of board b in space s's metric, in the engine's fixed order:
 * the board after each into next[] (s's most moves of a state, boards
 * sl_board_size() apart), and each move's code into code[] (the moving
 * piece's anchor before | after << 8).  Returns their number. */
unsigned sl_board_moves(const ptb_space *s, const sl_board *b, void *next,
                        uint32_t *code);

/* Of each kind k of description d, 1 + its kind in abstraction a (of d's
 * abstraction g), or 0 for a kind a leaves out, into map[]. */
void sl_kind_map(const sl_desc *d, unsigned g, const sl_desc *a,
                 uint8_t *map);

/* The drawing of the image of board b in cells (d->n of them, as the
 * position b was made from draws them): the cells of the pieces map[]
 * leaves out made empty ('.'). */
void sl_board_erase(const ptb_space *s, const uint8_t *map,
                    const sl_board *b, unsigned char *cell);

/* The state of the image of board b in the space a of an abstraction: b
 * without the kinds map[] leaves out (sl_kind_map()), ranked. */
uint64_t sl_board_image(const ptb_space *a, const uint8_t *map,
                        const sl_board *b);

#endif
