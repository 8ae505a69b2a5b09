/* tests/fuzz/fuzz_mdbcheck.c: libFuzzer harness for ptb_mdb_check() alone,
 * and for its promise: a file it accepts can be handed to liblmdb.  Each
 * input is written to a temporary file and checked; when accepted, liblmdb
 * opens it read-only (as table_read.c does), begins a read transaction, calls
 * mdb_env_info() and mdb_env_stat(), fetches the table format's keys with
 * mdb_get(), walks the main database with a cursor, and reads every byte
 * of every value it returns.  liblmdb is not instrumented, so a bad read
 * there shows as a SIGSEGV or SIGBUS, which libFuzzer reports. */
#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/format.h"

static char path[96];
static volatile unsigned sink;

static void cleanup(void) { unlink(path); }

static void touch(const MDB_val *v, size_t file_size)
{
    if (v->mv_size > file_size)
        abort();                      /* a value larger than the file */
    for (size_t i = 0; i < v->mv_size; i++)
        sink += ((const unsigned char *)v->mv_data)[i];
}

static void read_all(size_t file_size)
{
    static const char *const keys[] = { "checks", "dictionary", "header",
                                        "index", "sizes", "stats",
                                        "values" };
    MDB_env *env;
    MDB_txn *txn = NULL;
    MDB_dbi dbi;
    MDB_cursor *cur;
    MDB_envinfo ei;
    MDB_stat st;
    MDB_val k, v;
    int rc = mdb_env_create(&env);
    if (!rc) rc = mdb_env_open(env, path, MDB_RDONLY | MDB_NOSUBDIR |
                               MDB_NOLOCK | MDB_NOTLS | MDB_NORDAHEAD, 0444);
    if (!rc) rc = mdb_env_info(env, &ei) || mdb_env_stat(env, &st);
    if (!rc) rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &txn);
    if (!rc) rc = mdb_dbi_open(txn, NULL, 0, &dbi);
    for (unsigned i = 0; !rc && i < 5; i++) {
        k.mv_size = strlen(keys[i]);
        k.mv_data = (void *)keys[i];
        if (mdb_get(txn, dbi, &k, &v) == 0)
            touch(&v, file_size);
    }
    if (!rc && mdb_cursor_open(txn, dbi, &cur) == 0) {
        for (int op = MDB_FIRST; mdb_cursor_get(cur, &k, &v, op) == 0;
             op = MDB_NEXT) {
            touch(&k, file_size);
            touch(&v, file_size);
        }
        mdb_cursor_close(cur);
    }
    if (txn)
        mdb_txn_abort(txn);
    mdb_env_close(env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(path, sizeof path, "%s/fuzz_mdbcheck.%ld", tmp,
                 (long)getpid());
        atexit(cleanup);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    const char *what = NULL;
    if (ptb_mdb_check(path, size, &what) == PTB_OK)
        read_all(size);
    else if (!what || !*what)
        abort();                      /* a refusal always names its reason */
    return 0;
}
