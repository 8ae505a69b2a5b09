/* tests/fuzz/rewrite.h: the file a table harness writes each input into:
 * made once in a private directory (input_file()), then rewritten for
 * every input (rewrite()), cheaper than creating and truncating a file
 * each time.  Both abort on an error of their own (the harness's failure,
 * never the input's). */
#ifndef FUZZ_REWRITE_H
#define FUZZ_REWRITE_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static char input_dir[64], input_path[192];
static int input_fd = -1;

static inline void input_cleanup(void)
{
    if (input_fd >= 0)
        close(input_fd);
    unlink(input_path);
    rmdir(input_dir);
}

/* Makes a directory of its own in $TMPDIR (or /tmp), the file 'name' in
 * it, open for rewrite() (the descriptor returned), and their removal at
 * exit; input_dir names the directory. */
static inline int input_file(const char *name)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(input_dir, sizeof input_dir, "%s/fuzz_input.XXXXXX", tmp);
    if (!mkdtemp(input_dir))
        abort();
    snprintf(input_path, sizeof input_path, "%s/%s", input_dir, name);
    atexit(input_cleanup);
    input_fd = open(input_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (input_fd < 0)
        abort();
    return input_fd;
}

/* fd's content becomes exactly data[0..size): its bytes written over the
 * old ones, then its length cut. */
static inline void rewrite(int fd, const uint8_t *data, size_t size)
{
    for (size_t done = 0; done < size;) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            abort();
        done += (size_t)w;
    }
    if (ftruncate(fd, (off_t)size) != 0)
        abort();
}

#endif
