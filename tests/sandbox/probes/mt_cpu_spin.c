/* Attacks: CPU from 8 spinning threads (CPU time grows 8x faster than wall). Contained: TLE. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

static void *spin(void *arg)
{
    volatile unsigned long n = 0;
    (void)arg;
    for (;;)
        n++;
    return NULL;
}

int main(void)
{
    pthread_t t[8];
    for (int i = 0; i < 8; i++)
        if (pthread_create(&t[i], NULL, spin, NULL) != 0) {
            fprintf(stderr, "pthread_create %d failed\n", i);
            return 2;
        }
    pthread_join(t[0], NULL);
    return 0;
}
