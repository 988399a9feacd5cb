#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n;
    if (!(std::cin >> n) || n < 1)
        return 0;
    std::vector<double> x(n);
    for (double &v : x)
        std::cin >> v;
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    double sq = 0.0;
    for (double v : x)
        sq += (v - mean) * (v - mean);
    std::printf("%.6f\n%.6f\n", mean, std::sqrt(sq / n));
    return 0;
}
