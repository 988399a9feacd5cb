#include <vector>
int main() { std::vector<std::vector<char>> hog; for (;;) hog.emplace_back(1 << 20, 'x'); }
