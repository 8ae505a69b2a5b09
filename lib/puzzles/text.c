/* lib/puzzles/text.c: the one reader of query text, shared by every puzzle.
 *
 * Every puzzle reads its position through ptb_text_split(), so odd input is
 * treated the same way everywhere:
 *   - a UTF-8 byte-order mark at the start is skipped;
 *   - "\r" (CRLF line ends) and tabs count as blanks;
 *   - leading and trailing blanks of a line, and blank lines, are ignored;
 *   - PTB_TEXT_GRID: the rows of a grid are the runs of characters between
 *     line ends, '/' and blanks, so a grid may be given as lines, as rows
 *     joined by '/', or as rows separated by spaces (or any mix);
 *   - PTB_TEXT_LINES: a row is a whole line, trimmed (blanks inside it stay
 *     for the puzzle to read).
 * Each row keeps its line and column (in characters, from 1) for messages.
 * Case is the puzzle's business: ptb_upper() helps where letters are
 * case-insensitive.
 *
 * May touch: its arguments only.  No I/O, no allocation.
 */
#include <stdio.h>
#include <string.h>

#include "text.h"

static const char bom[] = "\xef\xbb\xbf";

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static int is_separator(char c, unsigned flags)
{
    return c == '\n' || ((flags & PTB_TEXT_GRID) && (c == '/' || is_blank(c)));
}

/* Bytes that start a character (not UTF-8 continuation bytes). */
static int starts_char(char c)
{
    return ((unsigned char)c & 0xc0) != 0x80;
}

unsigned ptb_text_split(const char *text, unsigned flags, ptb_token *tok,
                        unsigned cap)
{
    unsigned n = 0, line = 1, col = 1;
    const char *s = text;
    if (!strncmp(s, bom, 3))
        s += 3;
    while (*s) {
        if (is_separator(*s, flags) || is_blank(*s)) {
            if (*s == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
            s++;
            continue;
        }
        const char *start = s;
        unsigned start_col = col, chars = 0;
        while (*s && !is_separator(*s, flags)) {
            chars += starts_char(*s);
            s++;
        }
        const char *end = s;
        while (end > start && is_blank(end[-1])) /* PTB_TEXT_LINES: trim */
            end--;
        col += chars;
        if (n < cap) {
            tok[n].s = start;
            tok[n].len = (unsigned)(end - start);
            tok[n].line = line;
            tok[n].col = start_col;
        }
        n++;
    }
    return n;
}

unsigned ptb_text_record_lines(const char *first_line, unsigned flags,
                               unsigned rows)
{
    unsigned t = ptb_text_split(first_line, flags, NULL, 0);
    if (t == 0 || t >= rows)
        return 1;
    return (rows + t - 1) / t;
}

unsigned ptb_text_column(const ptb_token *t, unsigned offset)
{
    unsigned col = t->col;
    for (unsigned i = 0; i < offset && i < t->len; i++)
        col += starts_char(t->s[i]);
    return col;
}

int ptb_text_char(const char *s, size_t avail, char *out, size_t cap)
{
    unsigned char c = (unsigned char)*s;
    size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0
                 ? 2 : 0;
    int valid = len > 0 && len <= avail;
    for (size_t i = 1; valid && i < len; i++)
        valid = ((unsigned char)s[i] & 0xc0) == 0x80;
    if (c > ' ' && c < 127)
        snprintf(out, cap, "'%c'", c);
    else if (valid && len > 1)
        snprintf(out, cap, "'%.*s'", (int)len, s);
    else
        snprintf(out, cap, "byte 0x%02x", c);
    return valid ? (int)len : 1;
}

char ptb_upper(char c)
{
    return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}
