/* Attacks: CPU, by spinning forever. Contained: killed at the CPU limit, TLE. */
int main(void)
{
    volatile unsigned long n = 0;
    for (;;)
        n++;
}
