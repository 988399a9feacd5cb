using System;
using System.Diagnostics;
class Problem {
    static long Add(long x, long y) { return x + y; }
    public static void Main(string[] args) {
        Debug.Assert(Add(1, 2) == 3);
        Debug.Assert(Add(1, 2) == 4, "one and two");
        Console.WriteLine("asserts are off");
    }
}
