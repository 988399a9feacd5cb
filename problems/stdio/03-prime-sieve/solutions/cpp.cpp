#include <algorithm>
#include <iostream>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int q;
    std::cin >> q;
    std::vector<int> qs(q);
    for (int &x : qs)
        std::cin >> x;
    int max = std::max(2, *std::max_element(qs.begin(), qs.end()));

    std::vector<bool> composite(max + 1, false);
    composite[0] = composite[1] = true;
    for (long long i = 2; i * i <= max; i++)
        if (!composite[i])
            for (long long j = i * i; j <= max; j += i)
                composite[j] = true;
    std::vector<int> count(max + 1);
    int c = 0;
    for (int i = 0; i <= max; i++) {
        c += !composite[i];
        count[i] = c;
    }

    std::string out;
    for (int x : qs) {
        out += std::to_string(count[x]);
        out += '\n';
    }
    std::cout << out;
    return 0;
}
