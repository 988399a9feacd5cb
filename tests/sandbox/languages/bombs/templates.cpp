template <int N> struct Blow { static const int v = Blow<N + 1>::v + Blow<N + 2>::v; };
int main() { return Blow<0>::v; }
