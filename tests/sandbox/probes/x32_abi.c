/* Attacks: the x32 syscall ABI (nr | 0x40000000). Contained: killed by seccomp (SIGSYS), RE. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define X32_BIT 0x40000000L

int main(void)
{
    long ret = syscall(X32_BIT | SYS_getpid);
    printf("ESCAPED: survived an x32 syscall (returned %ld)\n", ret);
    return 1;
}
