/* Attacks: the stdin pipe, by reading all of a large input. Contained: every byte arrives, OK. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[65536];

int main(void)
{
    size_t total = 0;
    ssize_t r;
    while ((r = read(0, buf, sizeof(buf))) > 0)
        total += (size_t)r;
    if (r < 0) {
        perror("read");
        return 2;
    }
    printf("read %zu bytes\n", total);
    return 0;
}
