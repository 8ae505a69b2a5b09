/* lib/core/threads.c: the library's one thread fan-out (core.h,
 * ptb_run_threads), shared by the BFS, the table writer and --verify. */
#include <pthread.h>

#include "core.h"

/* Runs fn(job) on 'threads' threads, the calling one included. */
void ptb_run_threads(void *(*fn)(void *), void *job, unsigned threads)
{
    pthread_t tid[256];
    unsigned started = 0;
    for (unsigned i = 1; i < threads && i < 256; i++)
        if (pthread_create(&tid[started], NULL, fn, job) == 0)
            started++;
    fn(job);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}
