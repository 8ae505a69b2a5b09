/* lib/core/threads.c: the library's one thread fan-out (core.h,
 * ptb_run_threads), shared by the BFS, the table writer and --verify,
 * and a memory budget threads share (ptb_budget, the families'). */
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

void ptb_budget_init(ptb_budget *b, uint64_t limit)
{
    *b = (ptb_budget){ .limit = limit };
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->freed, NULL);
}

void ptb_budget_destroy(ptb_budget *b)
{
    pthread_mutex_destroy(&b->lock);
    pthread_cond_destroy(&b->freed);
}

void ptb_budget_take(ptb_budget *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->lock);
    while (b->used && b->used + bytes > b->limit) {
        b->waiting++;
        pthread_cond_wait(&b->freed, &b->lock);
        b->waiting--;
    }
    b->used += bytes;
    pthread_mutex_unlock(&b->lock);
}

int ptb_budget_try(ptb_budget *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->lock);
    int fit = b->used + bytes <= b->limit;
    if (fit)
        b->used += bytes;
    pthread_mutex_unlock(&b->lock);
    return fit;
}

int ptb_budget_wanted(ptb_budget *b)
{
    pthread_mutex_lock(&b->lock);
    int wanted = b->waiting > 0;
    pthread_mutex_unlock(&b->lock);
    return wanted;
}

void ptb_budget_give(ptb_budget *b, uint64_t bytes)
{
    pthread_mutex_lock(&b->lock);
    b->used -= bytes;
    pthread_cond_broadcast(&b->freed);
    pthread_mutex_unlock(&b->lock);
}
