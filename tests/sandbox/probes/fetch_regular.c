/* Control for the fetch probes: a plain /w/out.txt must come back. Not an attack. */
#include <stdio.h>

int main(void)
{
    FILE *f = fopen("/w/out.txt", "w");
    if (!f || fputs("fetch me\n", f) < 0 || fclose(f) != 0) {
        perror("out.txt");
        return 2;
    }
    printf("wrote out.txt\n");
    return 0;
}
