class Program { static volatile int x; static void Main() { for (;;) x++; } }
