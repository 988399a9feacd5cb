import std.stdio;

void main()
{
    foreach (line; stdin.byLine(KeepTerminator.yes))
        write(line);
}
