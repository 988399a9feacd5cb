#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) != -1) {
        if (len > 0 && line[len - 1] == '\n')
            len--;
        for (ssize_t i = 0; i < len;) {
            ssize_t j = i;
            while (j < len && line[j] == line[i])
                j++;
            printf("%c%zd", line[i], j - i);
            i = j;
        }
        putchar('\n');
    }
    free(line);
    return 0;
}
