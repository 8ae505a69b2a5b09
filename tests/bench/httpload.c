/* tests/bench/httpload.c: a small HTTP/1.1 load generator for tbserve's
 * benchmark.  C clients (threads), each on one keep-alive connection to
 * 127.0.0.1, send the same GET one after another for D seconds; a response
 * is read whole (headers, then Content-Length bytes).  Prints requests per
 * second, the median, 90th and 99th percentile latency, and the statuses
 * other than 200.  Only talks to the loopback address.
 *
 *   httpload [-c CLIENTS] [-d SECONDS] -p PORT PATH
 *
 * Exit status: 0, 1 when a connection fails or a reply is malformed, 2 bad
 * usage. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CLIENTS 256
#define BUF (1u << 20)

typedef struct client {
    unsigned port;
    const char *request;
    double seconds;
    unsigned *lat;              /* microseconds per request */
    size_t n, cap;
    unsigned long non200;
    unsigned long long bytes;   /* of replies, headers included */
    int failed;
} client;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int connect_local(unsigned port)
{
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((unsigned short)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads one response; returns its status, or -1. */
static int read_reply(int fd, char *buf, unsigned long long *bytes)
{
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        if (have == BUF - 1)
            return -1;
        ssize_t k = read(fd, buf + have, BUF - 1 - have);
        if (k <= 0)
            return -1;
        have += (size_t)k;
        buf[have] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    const char *cl = strstr(buf, "Content-Length:");
    size_t body = cl && cl < end ? strtoul(cl + 15, NULL, 10) : 0;
    size_t want = (size_t)(end + 4 - buf) + body;
    int status = atoi(buf + 9);
    *bytes += want;
    while (have < want) {
        size_t room = BUF - 1;
        ssize_t k = read(fd, buf, want - have < room ? want - have : room);
        if (k <= 0)
            return -1;
        have += (size_t)k;
    }
    return status;
}

static void *run(void *arg)
{
    client *c = arg;
    char *buf = malloc(BUF);
    int fd = connect_local(c->port);
    size_t len = strlen(c->request);
    double stop = now() + c->seconds;
    if (!buf || fd < 0) {
        c->failed = 1;
        free(buf);
        return NULL;
    }
    for (double t = now(); t < stop;) {
        if (write(fd, c->request, len) != (ssize_t)len) {
            c->failed = 1;
            break;
        }
        int status = read_reply(fd, buf, &c->bytes);
        double t2 = now();
        if (status < 0) {
            c->failed = 1;
            break;
        }
        c->non200 += status != 200;
        if (c->n == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 4096;
            unsigned *p = realloc(c->lat, c->cap * sizeof *p);
            if (!p) {
                c->failed = 1;
                break;
            }
            c->lat = p;
        }
        c->lat[c->n++] = (unsigned)((t2 - t) * 1e6 + 0.5);
        t = t2;
    }
    close(fd);
    free(buf);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    unsigned clients = 8, port = 0;
    double seconds = 5;
    int o;
    while ((o = getopt(argc, argv, "c:d:p:")) != -1) {
        switch (o) {
        case 'c': clients = (unsigned)atoi(optarg); break;
        case 'd': seconds = atof(optarg); break;
        case 'p': port = (unsigned)atoi(optarg); break;
        default: goto bad;
        }
    }
    if (optind + 1 != argc || !clients || clients > MAX_CLIENTS || !port ||
        port > 65535 || seconds <= 0 || argv[optind][0] != '/')
        goto bad;
    char request[8192];
    snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u"
             "\r\n\r\n", argv[optind], port);
    static client c[MAX_CLIENTS];
    pthread_t th[MAX_CLIENTS];
    double t0 = now();
    for (unsigned i = 0; i < clients; i++) {
        c[i] = (client){ port, request, seconds, NULL, 0, 0, 0, 0, 0 };
        pthread_create(&th[i], NULL, run, &c[i]);
    }
    size_t total = 0;
    unsigned long non200 = 0;
    unsigned long long bytes = 0;
    int failed = 0;
    for (unsigned i = 0; i < clients; i++) {
        pthread_join(th[i], NULL);
        total += c[i].n;
        non200 += c[i].non200;
        bytes += c[i].bytes;
        failed |= c[i].failed;
    }
    double elapsed = now() - t0;
    unsigned *all = malloc((total + 1) * sizeof *all);
    size_t k = 0;
    for (unsigned i = 0; i < clients; i++) {
        if (all)
            memcpy(all + k, c[i].lat, c[i].n * sizeof *all);
        k += c[i].n;
        free(c[i].lat);
    }
    if (!all || !total) {
        fprintf(stderr, "httpload: no request answered\n");
        free(all);
        return 1;
    }
    qsort(all, total, sizeof *all, cmp);
    printf("%zu requests in %.2f s from %u clients: %.0f requests/s "
           "(%.0f bytes each); latency median %u us, p90 %u us, p99 %u us; "
           "%lu not 200\n", total, elapsed, clients, (double)total / elapsed,
           (double)bytes / (double)total, all[total / 2],
           all[total * 9 / 10], all[total * 99 / 100], non200);
    free(all);
    if (failed)
        fprintf(stderr, "httpload: a connection failed or was closed\n");
    return failed;
bad:
    fprintf(stderr, "usage: httpload [-c CLIENTS] [-d SECONDS] -p PORT PATH"
            "\n");
    return 2;
}
