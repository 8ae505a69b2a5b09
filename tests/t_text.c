/* tests/t_text.c: the shared query reader (lib/puzzles/text.c) against rules
 * worked out by hand: which rows a text has, where each starts (line and
 * column in characters), the snprintf-like count past the cap, how a bad
 * character is described, and how many lines a batch record takes. */
#include <string.h>

#include "puzzles/text.h"
#include "check.h"

/* rows_are(text, flags, "a|b|c"): the rows of text, joined by '|'. */
static int rows_are(const char *text, unsigned flags, const char *want)
{
    ptb_token t[16];
    char got[256] = "";
    unsigned n = ptb_text_split(text, flags, t, 16);
    for (unsigned i = 0; i < n && i < 16; i++) {
        if (i)
            strcat(got, "|");
        strncat(got, t[i].s, t[i].len);
    }
    if (strcmp(got, want))
        printf("# got \"%s\"\n", got);
    return !strcmp(got, want);
}

static void rows_are_split_the_same_way_everywhere(void)
{
    const char *want = "BWBO|WBWB|BWBW|WBWO";
    check(rows_are("BWBO\nWBWB\nBWBW\nWBWO\n", PTB_TEXT_GRID, want),
          "grid: rows as lines");
    check(rows_are("BWBO/WBWB/BWBW/WBWO", PTB_TEXT_GRID, want),
          "grid: rows joined by '/'");
    check(rows_are("BWBO WBWB\tBWBW  WBWO", PTB_TEXT_GRID, want),
          "grid: rows separated by blanks and tabs");
    check(rows_are("\xef\xbb\xbf\r\n\n  BWBO\r\nWBWB/ BWBW \r\n\nWBWO\t\r\n",
                   PTB_TEXT_GRID, want),
          "grid: BOM, CRLF, blank lines, leading and trailing blanks");
    check(rows_are("", PTB_TEXT_GRID, "") &&
          rows_are("\xef\xbb\xbf \r\n\t\n", PTB_TEXT_GRID, ""),
          "grid: an empty text, or one of blanks and a BOM, has no rows");
    check(rows_are("\xef\xbb\xbf  W W . B B \r\n\n", PTB_TEXT_LINES,
                   "W W . B B"),
          "lines: a row is the trimmed line, its inner blanks kept");
    check(rows_are("WW.BB\n\nW.B\n", PTB_TEXT_LINES, "WW.BB|W.B"),
          "lines: blank lines are skipped");
    check(rows_are("a\xef\xbb\xbf", PTB_TEXT_GRID, "a\xef\xbb\xbf"),
          "a BOM is skipped only at the start");
}

static void rows_keep_their_place(void)
{
    ptb_token t[4];
    unsigned n = ptb_text_split("\xef\xbb\xbf\n \t\xe2\x97\x8b\xe2\x97\x8b/ab"
                                "\r\n  cd", PTB_TEXT_GRID, t, 4);
    check(n == 3 && t[0].line == 2 && t[0].col == 3,
          "the first row is at line 2, column 3 (BOM not counted, tab one "
          "column)");
    check(n == 3 && t[1].line == 2 && t[1].col == 6,
          "'ab' after two 3-byte characters and '/' is at column 6");
    check(n == 3 && t[2].line == 3 && t[2].col == 3, "'cd' at line 3, col 3");
    check(n == 3 && ptb_text_column(&t[0], 3) == 4 &&
          ptb_text_column(&t[1], 1) == 7,
          "ptb_text_column counts characters, not bytes");
}

static void the_count_goes_past_the_cap(void)
{
    ptb_token t[2];
    unsigned n = ptb_text_split("1 2 3 4 5", PTB_TEXT_GRID, t, 2);
    check(n == 5 && t[1].len == 1 && t[1].s[0] == '2',
          "5 rows, 2 filled: the count is 5, as snprintf counts");
    check(ptb_text_split("1 2 3", PTB_TEXT_GRID, NULL, 0) == 3,
          "tok may be NULL with cap 0");
}

static void bad_characters_are_described(void)
{
    char out[32];
    int len = ptb_text_char("X", 1, out, sizeof out);
    check(len == 1 && !strcmp(out, "'X'"), "printable ASCII: 'X'");
    len = ptb_text_char("\xe2\x88\x86.", 4, out, sizeof out);
    check(len == 3 && !strcmp(out, "'\xe2\x88\x86'"),
          "valid UTF-8: the character itself, 3 bytes");
    len = ptb_text_char("\xe2\x88", 2, out, sizeof out);
    check(len == 1 && !strcmp(out, "byte 0xe2"),
          "a cut UTF-8 sequence: its first byte in hex");
    len = ptb_text_char("\x01", 1, out, sizeof out);
    check(len == 1 && !strcmp(out, "byte 0x01"), "a control byte in hex");
    check(ptb_upper('b') == 'B' && ptb_upper('B') == 'B' &&
          ptb_upper('.') == '.', "ptb_upper: ASCII letters only");
}

static void batch_records_take_the_lines_their_first_implies(void)
{
    check(ptb_text_record_lines("1111\n", PTB_TEXT_GRID, 8) == 8,
          "8 rows, one a line: 8 lines");
    check(ptb_text_record_lines("1111/0000/1110/0010\n", PTB_TEXT_GRID, 8)
          == 2, "8 rows, 4 on the first line: 2 lines");
    check(ptb_text_record_lines("1 2 3\n", PTB_TEXT_GRID, 8) == 3,
          "8 rows, 3 on the first line: 3 lines");
    check(ptb_text_record_lines("a b c d e f g h i\n", PTB_TEXT_GRID, 8) == 1,
          "more rows than needed on the first line: 1 line");
}

int main(void)
{
    rows_are_split_the_same_way_everywhere();
    rows_keep_their_place();
    the_count_goes_past_the_cap();
    bad_characters_are_described();
    batch_records_take_the_lines_their_first_implies();
    return check_done();
}
