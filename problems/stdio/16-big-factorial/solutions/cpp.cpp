#include <cstdint>
#include <cstdio>
#include <vector>

// n! in base 10^9, least significant limb first.
int main()
{
    int n;
    if (std::scanf("%d", &n) != 1)
        return 0;
    constexpr std::uint32_t base = 1000000000u;
    std::vector<std::uint32_t> limbs{1};
    for (std::uint32_t k = 2; k <= static_cast<std::uint32_t>(n); k++) {
        std::uint64_t carry = 0;
        for (auto &l : limbs) {
            std::uint64_t cur = static_cast<std::uint64_t>(l) * k + carry;
            l = static_cast<std::uint32_t>(cur % base);
            carry = cur / base;
        }
        while (carry > 0) {
            limbs.push_back(static_cast<std::uint32_t>(carry % base));
            carry /= base;
        }
    }
    std::printf("%u", limbs.back());
    for (auto it = limbs.rbegin() + 1; it != limbs.rend(); ++it)
        std::printf("%09u", *it);
    std::printf("\n");
    return 0;
}
