/* tests/fuzz/fuzz_batch.c: libFuzzer harness for tblookup's batch reader.
 *
 * lookup/main.c is compiled in with its main() renamed, and each input is
 * answered as `tblookup four --batch --count -i FILE` against four's table
 * ($TABLES, else tables/): records of any shape, lines past the cap, NUL
 * bytes, a last line without its newline.  tblookup's own output (a count
 * a record, one line of stderr a bad record) goes to /dev/null; a crash, a
 * sanitizer report, a hang or a leak is a finding. */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#define main tblookup_main
#include "../../lookup/main.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[512], tables[512];
    static int devnull = -1, saved_err = -1;
    if (devnull < 0) {
        const char *dir = getenv("TMPDIR"), *t = getenv("TABLES");
        snprintf(path, sizeof path, "%s/batch.%ld", dir ? dir : "/tmp",
                 (long)getpid());
        snprintf(tables, sizeof tables, "%s", t ? t : "tables");
        devnull = open("/dev/null", O_WRONLY);
        saved_err = dup(2);
        if (devnull < 0 || saved_err < 0 || dup2(devnull, 1) < 0)
            abort();
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    char *argv[] = { "tblookup", "four", "--batch", "--count", "-t",
                     tables, "-i", path, NULL };
    optind = 0;                  /* glibc: start getopt afresh */
    dup2(devnull, 2);
    int status = tblookup_main(8, argv);
    dup2(saved_err, 2);
    if (status != 0 && status != 1 && status != 2)
        abort();                 /* 3, 4: the table or the output failed */
    return 0;
}
