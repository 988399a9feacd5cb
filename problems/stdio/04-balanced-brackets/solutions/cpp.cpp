#include <iostream>
#include <string>

static bool balanced(const std::string &s)
{
    std::string stack;
    for (char c : s) {
        if (c == '(' || c == '[' || c == '{') {
            stack.push_back(c);
        } else {
            char want = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (stack.empty() || stack.back() != want)
                return false;
            stack.pop_back();
        }
    }
    return stack.empty();
}

int main()
{
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    int t;
    std::cin >> t;
    std::string s, out;
    while (t-- > 0 && std::cin >> s)
        out += balanced(s) ? "YES\n" : "NO\n";
    std::cout << out;
    return 0;
}
