import std.stdio;

void main()
{
    writeln("hello");
}
