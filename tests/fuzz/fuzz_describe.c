/* tests/fuzz/fuzz_describe.c: libFuzzer harness for the description reader
 * (lib/puzzles/describe.c) and, on small boards, the described puzzle's query
 * reader (lib/puzzles/puzzle_slide.c).
 *
 * The input is split at its first NUL byte: before it, a description; after
 * it, a position of that puzzle.  A description that reads must give a
 * canonical text that reads again to the same text (the form a table stores
 * and every reader reads back), and its error buffer must stay empty; one
 * that is refused must say why in one line.  When the puzzle's index is
 * small (its space opens), the position is parsed, and a position that
 * parses is formatted and must parse again to the same state.  A crash, a
 * sanitizer report, a hang or a leak is a finding; a refusal is not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzletb.h"

static void query(const ptb_puzzle *p, const char *text)
{
    ptb_space *s;
    ptb_position pos[2], again[2];
    unsigned n, m;
    char err[160], board[1024], code[1024];
    if (ptb_space_new(p, NULL, &s) != PTB_OK)
        return;                          /* too large an index: refused */
    if (ptb_parse(s, text, NULL, pos, &n, err, sizeof err) == PTB_OK) {
        if (n != 1 || ptb_format_board(s, &pos[0], board, sizeof board) < 0 ||
            (size_t)ptb_format_board(s, &pos[0], board, sizeof board) >=
                sizeof board ||
            ptb_format_code(s, pos[0].sub, pos[0].idx, code, sizeof code) < 0)
            abort();
        if (ptb_parse(s, board, NULL, again, &m, err, sizeof err) != PTB_OK ||
            again[0].idx != pos[0].idx ||
            ptb_parse(s, code, NULL, again, &m, err, sizeof err) != PTB_OK ||
            again[0].idx != pos[0].idx)
            abort();
    } else if (!err[0] || strchr(err, '\n')) {
        abort();
    }
    ptb_space_close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1), err[256];
    ptb_puzzle *p, *q;
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *position = buf + strlen(buf) + (strlen(buf) < size);
    err[0] = 'x';
    err[1] = '\0';
    int rc = ptb_puzzle_load(buf, &p, err, sizeof err);
    if (rc == PTB_OK) {
        if (err[0] ||
            ptb_puzzle_load(ptb_puzzle_description(p), &q, err,
                            sizeof err) != PTB_OK ||
            strcmp(ptb_puzzle_description(p), ptb_puzzle_description(q)))
            abort();
        ptb_puzzle_free(q);
        if (strlen(ptb_puzzle_start(p)) <= 20)     /* small boards only */
            query(p, position);
        ptb_puzzle_free(p);
    } else if (rc != PTB_EPARSE || !err[0] || strchr(err, '\n')) {
        abort();
    }
    free(buf);
    return 0;
}
