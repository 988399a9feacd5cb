/* Attacks: the i386 syscall ABI (int $0x80). Contained: killed by seccomp (SIGSYS), RE. */
#include <stdio.h>

int main(void)
{
    long ret;
    __asm__ volatile("int $0x80" /* i386 getpid */
                     : "=a"(ret)
                     : "a"(20L)
                     : "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "memory", "cc");
    printf("ESCAPED: survived an i386 int $0x80 syscall (returned %ld)\n", ret);
    return 1;
}
