/* Attacks: the result fetch, via /w/out.txt as a FIFO. Contained: fetch refused, no hang. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(void)
{
    if (mkfifo("/w/out.txt", 0666) < 0) {
        printf("unexpected: mkfifo: %s\n", strerror(errno));
        return 2;
    }
    printf("fifo created: out.txt\n");
    return 0;
}
