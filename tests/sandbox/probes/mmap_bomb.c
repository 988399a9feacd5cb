/* Attacks: anonymous mmap with MAP_POPULATE, then touching every page. Contained: OOM kill, MLE. */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>

#define CHUNK (8L << 20)

int main(void)
{
    for (;;) {
        char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) {
            perror("mmap failed before the OOM killer fired");
            return 3;
        }
        for (long i = 0; i < CHUNK; i += 4096)
            p[i] = 1; /* MAP_POPULATE may stop short of the limit: write faults cannot */
        __asm__ volatile("" : : "r"(p) : "memory");
    }
}
