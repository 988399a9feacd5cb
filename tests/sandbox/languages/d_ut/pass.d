import std.stdio;

int add(int a, int b) { return a + b; }

unittest
{
    writeln("unittest ran");
    assert(add(2, 2) == 4);
}

void main()
{
    writeln("main ran");
}
