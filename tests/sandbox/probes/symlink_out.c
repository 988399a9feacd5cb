/* Attacks: the result fetch, via /w/out.txt -> argv[1] (a host file). Contained: fetch refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *target = argc > 1 ? argv[1] : "/etc/passwd";
    if (symlink(target, "/w/out.txt") < 0) {
        printf("unexpected: symlink: %s\n", strerror(errno));
        return 2;
    }
    printf("symlink created: out.txt -> %s\n", target);
    return 0;
}
