using System;
using System.Threading;
class Program { static int v; static void Main() { var t = new Thread(() => v = 42); t.Start(); t.Join(); Console.WriteLine(v); } }
