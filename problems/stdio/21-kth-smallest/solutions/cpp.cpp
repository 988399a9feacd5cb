#include <algorithm>
#include <iostream>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, k;
    if (!(std::cin >> n >> k))
        return 0;
    std::vector<int> a(n);
    for (int &x : a)
        std::cin >> x;
    std::nth_element(a.begin(), a.begin() + (k - 1), a.end());
    std::cout << a[k - 1] << '\n';
    return 0;
}
