#include <iostream>
#include <string>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::string line, out;
    while (std::getline(std::cin, line)) {
        for (size_t i = 0; i < line.size();) {
            size_t j = i;
            while (j < line.size() && line[j] == line[i])
                j++;
            out += line[i];
            out += std::to_string(j - i);
            i = j;
        }
        out += '\n';
    }
    std::cout << out;
    return 0;
}
