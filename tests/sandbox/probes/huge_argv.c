/* Attacks: re-exec with huge argv/env (256 KiB arg, 1.5 MiB, 8 MiB). Contained: no crash. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define KiB 1024

static char child_flag[] = "child", *noenv[] = {NULL};

static char *filled(size_t len, const char *prefix)
{
    char *s = malloc(len + 1);
    if (!s)
        exit(2);
    memset(s, 'a', len);
    memcpy(s, prefix, strlen(prefix));
    s[len] = '\0';
    return s;
}

/* Runs /proc/self/exe in a child: "E2BIG", "ran" (the child mode exited 7) or NULL. */
static const char *attempt(char **av, char **env)
{
    pid_t pid = fork();
    if (pid == 0) {
        execve("/proc/self/exe", av, env);
        _exit(errno == E2BIG ? 10 : 11);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return NULL;
    return WEXITSTATUS(st) == 10 ? "E2BIG" : WEXITSTATUS(st) == 7 ? "ran" : NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return 7;
    static char *av[80], *env[16];
    av[0] = argv[0];
    av[1] = child_flag;
    av[2] = filled(256 * KiB, ""); /* over MAX_ARG_STRLEN (128 KiB): always E2BIG */
    const char *one = attempt(av, noenv);
    for (int i = 0; i < 16; i++) /* 1 MiB of argv plus 512 KiB of env */
        av[2 + i] = filled(64 * KiB, "");
    for (int i = 0; i < 8; i++)
        env[i] = filled(64 * KiB, "V=");
    const char *mid = attempt(av, env);
    for (int i = 0; i < 64; i++) /* 8 MiB of argv: over the kernel's 6 MiB cap */
        av[2 + i] = filled(128 * KiB - 1, "");
    const char *big = attempt(av, noenv);
    if (!one || !mid || !big) {
        printf("unexpected: child failed (%s, %s, %s)\n", one, mid, big);
        return 2;
    }
    printf("contained: 256 KiB arg: %s, 1.5 MiB argv+env: %s, 8 MiB argv: %s\n", one, mid, big);
    return 0;
}
