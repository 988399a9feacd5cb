import std.stdio;

int add(int a, int b) { return a + b; }

unittest
{
    assert(add(2, 2) == 5, "two and two is not five");
}

void main()
{
    writeln("main ran");
}
