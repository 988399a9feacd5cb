int main() { volatile unsigned long i = 0; for (;;) i++; }
