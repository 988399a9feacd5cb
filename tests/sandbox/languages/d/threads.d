import core.thread;
import std.stdio;

void main()
{
    int v;
    auto t = new Thread({ v = 6 * 7; });
    t.start();
    t.join();
    writeln(v);
}
