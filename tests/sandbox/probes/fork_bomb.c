/* Attacks: classic fork bomb, forking forever and ignoring EAGAIN. Contained: pids.max, TLE. */
#include <unistd.h>

int main(void)
{
    for (;;)
        fork();
}
