/* lib/answer/answers.c: what answers a space's questions, opened from a
 * directory (its table, else its pattern tables), and the one line that
 * says why they cannot be used: every program says it in these words.
 *
 * May touch: its arguments, the heap, the files ptb_table_open and
 * ptb_patterns_open read, and whether a table's file exists.
 */
#include <stdio.h>
#include <unistd.h>

#include "puzzletb.h"

int ptb_answers_open(const ptb_space *s, const char *dir, const char *as,
                     ptb_table **table, ptb_patterns **patterns,
                     char *why, size_t cap)
{
    *table = NULL;
    *patterns = NULL;
    int rc = ptb_table_open(s, dir, table);
    if (rc == PTB_ENOTABLE && ptb_puzzle_patterns(ptb_space_puzzle(s)))
        rc = ptb_patterns_open(s, dir, patterns);
    if (rc != PTB_OK) {
        ptb_table_close(*table);
        *table = NULL;
        *patterns = NULL;
        ptb_answers_why(s, dir, as, rc, why, cap);
    }
    return rc;
}

int ptb_answers_why(const ptb_space *s, const char *dir, const char *as,
                    int rc, char *buf, size_t cap)
{
    char file[256], path[4096];
    const ptb_puzzle *p = ptb_space_puzzle(s);
    const char *name = as ? as : ptb_puzzle_name(p);
    ptb_space_file(s, file, sizeof file);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (ptb_puzzle_patterns(p) && access(path, F_OK) != 0)   /* searched */
        return snprintf(buf, cap, "%s: %s, and its pattern tables: %s; "
                        "build them with 'tbgen --puzzle %s --patterns "
                        "--out %s'", path, ptb_strerror(PTB_ENOTABLE),
                        ptb_strerror(rc), name, dir);
    if (rc == PTB_ENOTABLE || rc == PTB_EFORMAT || rc == PTB_EVERSION ||
        rc == PTB_ETRUNC || rc == PTB_ECORRUPT)
        return snprintf(buf, cap, "%s: %s; rebuild it with 'make tables' or "
                        "'tbgen --puzzle %s --metric %s --out %s'", path,
                        ptb_strerror(rc), name, ptb_space_metric(s), dir);
    return snprintf(buf, cap, "%s: %s", path, ptb_strerror(rc));
}
