/* tests/tables.h: how the table tests open a table.  The folder is
 * $PUZZLETB_TABLES or tables/; a table that will not open is one failed
 * check naming the file (make test builds the tables first, so that is a
 * bug, never a reason to skip). */
#ifndef PTB_TEST_TABLES_H
#define PTB_TEST_TABLES_H

#include <stdlib.h>

#include "check.h"
#include "puzzletb.h"

typedef struct tables {
    ptb_space *s;
    ptb_table *t;
    ptb_reader *r;
} tables;

static inline const char *tables_dir(void)
{
    const char *dir = getenv("PUZZLETB_TABLES");
    return dir && *dir ? dir : "tables";
}

/* Opens the space, its table and a reader; false (after a failed check)
 * when any fails.  tables_close() in either case. */
static inline int tables_open(const char *puzzle, const char *metric,
                              tables *tb)
{
    char file[128] = "?";
    int rc = ptb_space_open(puzzle, metric, &tb->s);
    tb->t = NULL;
    tb->r = NULL;
    if (rc == PTB_OK) {
        ptb_space_file(tb->s, file, sizeof file);
        rc = ptb_table_open(tb->s, tables_dir(), &tb->t);
    }
    if (rc == PTB_OK)
        rc = ptb_reader_new(tb->t, &tb->r);
    if (rc != PTB_OK)
        check(0, "open %s/%s: %s (make tables builds it)", tables_dir(),
              file, ptb_strerror(rc));
    return rc == PTB_OK;
}

static inline void tables_close(tables *tb)
{
    ptb_reader_free(tb->r);
    ptb_table_close(tb->t);
    ptb_space_close(tb->s);
}

#endif
