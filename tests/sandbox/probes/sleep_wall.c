/* Attacks: wall-clock time, sleeping without CPU. Contained: killed at the wall limit, TLE. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    sleep(30);
    printf("slept 30 s: no wall-clock limit\n");
    return 0;
}
