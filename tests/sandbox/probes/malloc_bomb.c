/* Attacks: memory exhaustion with malloc, touching every page. Contained: cgroup OOM kill, MLE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1 << 20)

int main(void)
{
    for (;;) {
        char *p = malloc(CHUNK);
        if (!p) {
            fputs("malloc failed before the OOM killer fired\n", stderr);
            return 3;
        }
        memset(p, 0x5a, CHUNK);
        __asm__ volatile("" : : "r"(p) : "memory"); /* the pages stay live: no store elision */
    }
}
