#include <iostream>
#include <thread>
int main() { int v = 0; std::thread t([&] { v = 42; }); t.join(); std::cout << v << std::endl; }
