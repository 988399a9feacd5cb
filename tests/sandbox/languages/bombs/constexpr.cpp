constexpr unsigned long long spin(unsigned long long n) {
    unsigned long long s = 0;
    for (unsigned long long i = 0; i < n; i++) s += i * i;
    return s;
}
constexpr unsigned long long x = spin(1ull << 40);
int main() { return (int)x; }
