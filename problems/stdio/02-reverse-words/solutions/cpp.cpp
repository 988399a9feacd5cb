#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::string line, out;
    std::vector<std::string> words;
    while (std::getline(std::cin, line)) {
        words.clear();
        std::istringstream in(line);
        std::string w;
        while (in >> w)
            words.push_back(w);
        for (size_t i = words.size(); i-- > 0;) {
            out += words[i];
            if (i > 0)
                out += ' ';
        }
        out += '\n';
    }
    std::cout << out;
    return 0;
}
