/* Attacks: unbounded recursion, 4 KiB per frame. Contained: SIGSEGV at RLIMIT_STACK or OOM kill. */
#include <stdio.h>

static volatile int stop; /* never set: keeps the compiler from proving the recursion infinite */

__attribute__((noinline)) static long dive(long depth)
{
    volatile char frame[4096];
    for (unsigned i = 0; i < sizeof(frame); i += 512)
        frame[i] = (char)depth; /* touch the whole frame */
    if (stop)
        return frame[0];
    return dive(depth + 1) + frame[512]; /* not a tail call */
}

int main(void)
{
    printf("ESCAPED: recursion returned %ld\n", dive(0));
    return 1;
}
