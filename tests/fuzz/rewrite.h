/* tests/fuzz/rewrite.h: the table harnesses' one way to make their file
 * an input: fd's content becomes exactly data[0..size), its bytes written
 * over the old ones, then its length cut, cheaper than creating and
 * truncating the file for every input.  Aborts on a write error (the
 * harness's own failure, never the input's). */
#ifndef FUZZ_REWRITE_H
#define FUZZ_REWRITE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static void rewrite(int fd, const uint8_t *data, size_t size)
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
