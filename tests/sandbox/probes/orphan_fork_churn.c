/* Attacks: a detached process re-forking nonstop to dodge pid-based kills. Contained: all die. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    printf("spawned churn\n");
    fflush(stdout);
    if (fork() == 0) {
        setsid();
        int fd = open("/dev/null", O_RDWR);
        if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(1);
        for (;;)
            if (fork() > 0)
                _exit(0); /* the child carries on under a new pid */
    }
    usleep(50000);
    return 0;
}
