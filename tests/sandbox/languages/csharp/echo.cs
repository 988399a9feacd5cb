using System;
class Program { static void Main() { string l; while ((l = Console.ReadLine()) != null) Console.WriteLine(l); } }
