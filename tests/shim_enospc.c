/* tests/shim_enospc.c: an LD_PRELOAD shim that makes the disk look full
 * for files whose name ends in ".tmp" (the table tbgen is writing): every
 * write to such a file fails with ENOSPC, or with SHIM_ENOSPC=fallocate
 * set, only the allocation of its blocks (a disk whose free space the
 * check before the build saw, gone since).  Other files (stdout, the old
 * tables) are untouched.  Used by tests/t_format.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static int is_tmp(int fd)
{
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 4)
        return 0;
    path[n] = '\0';
    return strcmp(path + n - 4, ".tmp") == 0;
}

static int only_fallocate(void)
{
    const char *e = getenv("SHIM_ENOSPC");
    return e && strcmp(e, "fallocate") == 0;
}

#define FULL(fd)                                  \
    do {                                          \
        if (is_tmp(fd) && !only_fallocate()) {    \
            errno = ENOSPC;                       \
            return -1;                            \
        }                                         \
    } while (0)

int fallocate(int fd, int mode, off_t off, off_t len)
{
    static int (*real)(int, int, off_t, off_t);
    if (is_tmp(fd) && only_fallocate()) {
        errno = ENOSPC;
        return -1;
    }
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "fallocate");
    return real(fd, mode, off, len);
}

int fallocate64(int fd, int mode, off_t off, off_t len)
{
    return fallocate(fd, mode, off, len);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    FULL(fd);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "write");
    return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    FULL(fd);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pwrite");
    return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    FULL(fd);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pwrite64");
    return real(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int n)
{
    static ssize_t (*real)(int, const struct iovec *, int);
    FULL(fd);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "writev");
    return real(fd, iov, n);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    static ssize_t (*real)(int, const struct iovec *, int, off_t);
    FULL(fd);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pwritev");
    return real(fd, iov, n, off);
}
