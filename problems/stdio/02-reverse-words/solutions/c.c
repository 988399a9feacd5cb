#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int main(void)
{
    size_t cap = 1 << 20, len = 0, got;
    char *buf = malloc(cap);
    if (!buf)
        return 1;
    while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                return 1;
        }
    }

    size_t wcap = 1024;
    size_t *start = malloc(wcap * sizeof *start), *end = malloc(wcap * sizeof *end);
    size_t pos = 0;
    while (pos < len) {
        char *nl = memchr(buf + pos, '\n', len - pos);
        size_t line_end = nl ? (size_t)(nl - buf) : len;
        size_t nw = 0, i = pos;
        while (i < line_end) {
            while (i < line_end && is_space(buf[i]))
                i++;
            if (i == line_end)
                break;
            size_t s = i;
            while (i < line_end && !is_space(buf[i]))
                i++;
            if (nw == wcap) {
                wcap *= 2;
                start = realloc(start, wcap * sizeof *start);
                end = realloc(end, wcap * sizeof *end);
            }
            start[nw] = s;
            end[nw] = i;
            nw++;
        }
        for (size_t w = nw; w-- > 0;) {
            fwrite(buf + start[w], 1, end[w] - start[w], stdout);
            if (w > 0)
                putchar(' ');
        }
        putchar('\n');
        pos = line_end + 1;
    }
    free(start);
    free(end);
    free(buf);
    return 0;
}
