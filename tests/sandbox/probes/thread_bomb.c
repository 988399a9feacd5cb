/* Attacks: unbounded thread creation (threads park forever). Contained: pids.max caps it, TLE. */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

static void *park(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

int main(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 65536);
    for (;;) {
        pthread_t t;
        if (pthread_create(&t, &attr, park, NULL) == 0)
            pthread_detach(t);
    }
}
