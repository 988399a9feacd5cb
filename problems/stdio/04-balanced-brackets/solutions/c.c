#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLEN 1000000

static char s[MAXLEN + 2];
static char stack[MAXLEN + 1];

static bool balanced(const char *p)
{
    size_t top = 0;
    for (; *p; p++) {
        char c = *p;
        if (c == '(' || c == '[' || c == '{') {
            stack[top++] = c;
        } else {
            char want = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (top == 0 || stack[--top] != want)
                return false;
        }
    }
    return top == 0;
}

int main(void)
{
    int t;
    if (scanf("%d", &t) != 1)
        return 0;
    while (t-- > 0 && scanf("%1000000s", s) == 1)
        puts(balanced(s) ? "YES" : "NO");
    return 0;
}
