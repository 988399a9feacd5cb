class Program { static void Main() { int x = "not an int"; } }
