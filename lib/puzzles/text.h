/* text.h: the query text reader every puzzle reads its text through
 * (text.c), in the puzzles layer. */
#ifndef PTB_TEXT_H
#define PTB_TEXT_H

#include "core/puzzle.h"

/* Every puzzle reads its text through ptb_text_split(), so the rules are
 * the same everywhere (doc/guide.md, "Input"): a UTF-8 byte-order mark at the
 * start is skipped; "\r" and tabs are blanks; leading and trailing blanks
 * and blank lines are ignored; with PTB_TEXT_GRID, rows are separated by
 * line ends, '/' or blanks, so a grid may come as lines, as "row/row/..."
 * or as "row row ..."; with PTB_TEXT_LINES a row is a whole trimmed line. */
#define PTB_TEXT_GRID 1u
#define PTB_TEXT_LINES 2u

/* One row of query text: s[0..len-1] (not NUL-terminated), found at line
 * 'line', column 'col' of the text (both from 1; columns count characters,
 * not bytes, and a tab is one). */
typedef struct ptb_token {
    const char *s;
    unsigned len;
    unsigned line, col;
} ptb_token;

/* Splits text into rows: fills tok[0..cap-1] and returns how many rows the
 * text has (which may be more than cap: snprintf's convention, so a caller
 * says "expected 8 rows, found 9").  tok may be NULL when cap is 0. */
unsigned ptb_text_split(const char *text, unsigned flags, ptb_token *tok,
                        unsigned cap);
/* The column of byte 'offset' of a row, for messages. */
unsigned ptb_text_column(const ptb_token *t, unsigned offset);
/* Describes the character at s (avail bytes left) for a message: 'X' for
 * printable ASCII, the character itself for valid UTF-8, "byte 0xNN"
 * otherwise.  Returns its length in bytes (1 for a bad byte). */
int ptb_text_char(const char *s, size_t avail, char *out, size_t cap);
/* Batch input: the lines of a record of 'rows' rows whose first line is
 * given, assuming each of its lines holds as many rows as the first. */
unsigned ptb_text_record_lines(const char *first_line, unsigned flags,
                               unsigned rows);
/* ASCII upper case, for letters that are case-insensitive. */
char ptb_upper(char c);

#endif
