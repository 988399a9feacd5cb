#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int values[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
static const char *const symbols[] = {"M",  "CM", "D",  "CD", "C",  "XC", "L",
                                      "XL", "X",  "IX", "V",  "IV", "I"};

static int symbol_value(char c)
{
    switch (c) {
    case 'I':
        return 1;
    case 'V':
        return 5;
    case 'X':
        return 10;
    case 'L':
        return 50;
    case 'C':
        return 100;
    case 'D':
        return 500;
    case 'M':
        return 1000;
    default:
        return 0;
    }
}

int main(void)
{
    char line[64];
    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0')
            continue;
        if (isdigit((unsigned char)line[0])) {
            int n = atoi(line);
            char out[32] = "";
            for (int i = 0; n > 0; i++)
                while (n >= values[i]) {
                    strcat(out, symbols[i]);
                    n -= values[i];
                }
            puts(out);
        } else {
            /* a symbol smaller than the one after it is subtracted */
            int total = 0;
            for (size_t i = 0; line[i]; i++) {
                int v = symbol_value(line[i]);
                total += v < symbol_value(line[i + 1]) ? -v : v;
            }
            printf("%d\n", total);
        }
    }
    return 0;
}
