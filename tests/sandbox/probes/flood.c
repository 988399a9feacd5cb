/* Attacks: endless output on fd argv[1] (1 stdout, 2 stderr). Contained: OLE at the cap. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[65536];

int main(int argc, char **argv)
{
    int fd = argc > 1 ? atoi(argv[1]) : 1;
    memset(buf, 'A', sizeof(buf));
    for (size_t i = 79; i < sizeof(buf); i += 80)
        buf[i] = '\n';
    for (;;)
        if (write(fd, buf, sizeof(buf)) < 0)
            continue; /* keep going whatever happens */
}
