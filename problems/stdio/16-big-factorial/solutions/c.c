#include <stdint.h>
#include <stdio.h>

/* n! in base 10^9, least significant limb first: 1000! has 2568 digits, 286 limbs. */
#define BASE     1000000000u
#define MAXLIMBS 300

int main(void)
{
    int n;
    if (scanf("%d", &n) != 1)
        return 0;
    static uint32_t limb[MAXLIMBS];
    int len = 1;
    limb[0] = 1;
    for (uint32_t k = 2; k <= (uint32_t)n; k++) {
        uint64_t carry = 0;
        for (int i = 0; i < len; i++) {
            uint64_t cur = (uint64_t)limb[i] * k + carry;
            limb[i] = (uint32_t)(cur % BASE);
            carry = cur / BASE;
        }
        while (carry > 0) {
            limb[len++] = (uint32_t)(carry % BASE);
            carry /= BASE;
        }
    }
    printf("%u", limb[len - 1]);
    for (int i = len - 2; i >= 0; i--)
        printf("%09u", limb[i]);
    putchar('\n');
    return 0;
}
