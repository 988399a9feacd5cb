using System.Collections.Generic;
class Program { static void Main() { var hog = new List<byte[]>(); for (;;) { var b = new byte[1 << 20]; for (int i = 0; i < b.Length; i += 4096) b[i] = 1; hog.Add(b); } } }
