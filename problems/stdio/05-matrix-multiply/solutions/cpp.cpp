#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

using Matrix = std::vector<std::vector<std::int64_t>>;
constexpr std::int64_t MOD = 1000000007;

static Matrix read_matrix(int rows, int cols)
{
    Matrix a(rows, std::vector<std::int64_t>(cols));
    for (auto &row : a)
        for (auto &x : row) {
            std::cin >> x;
            x %= MOD;
            if (x < 0)
                x += MOD;
        }
    return a;
}

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int n, m, p;
    std::cin >> n >> m >> p;
    Matrix a = read_matrix(n, m), b = read_matrix(m, p);
    Matrix c(n, std::vector<std::int64_t>(p, 0));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++)
            for (int j = 0; j < p; j++)
                c[i][j] = (c[i][j] + a[i][k] * b[k][j]) % MOD;

    std::string out;
    for (const auto &row : c) {
        for (int j = 0; j < p; j++) {
            if (j)
                out += ' ';
            out += std::to_string(row[j]);
        }
        out += '\n';
    }
    std::cout << out;
    return 0;
}
