#include <cctype>
#include <iostream>
#include <string>
#include <utility>

namespace
{

const std::pair<int, const char *> table[] = {
    {1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"},
    {40, "XL"},  {10, "X"},   {9, "IX"},  {5, "V"},    {4, "IV"},  {1, "I"}};

std::string to_roman(int n)
{
    std::string out;
    for (const auto &[value, symbol] : table)
        while (n >= value) {
            out += symbol;
            n -= value;
        }
    return out;
}

int symbol_value(char c)
{
    switch (c) {
    case 'I':
        return 1;
    case 'V':
        return 5;
    case 'X':
        return 10;
    case 'L':
        return 50;
    case 'C':
        return 100;
    case 'D':
        return 500;
    case 'M':
        return 1000;
    default:
        return 0;
    }
}

int from_roman(const std::string &s)
{
    int total = 0;
    for (size_t i = 0; i < s.size(); i++) {
        int v = symbol_value(s[i]);
        total += (i + 1 < s.size() && v < symbol_value(s[i + 1])) ? -v : v;
    }
    return total;
}

} // namespace

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    std::string line, out;
    while (std::cin >> line) {
        if (std::isdigit(static_cast<unsigned char>(line[0])))
            out += to_roman(std::stoi(line));
        else
            out += std::to_string(from_roman(line));
        out += '\n';
    }
    std::cout << out;
    return 0;
}
