public class Broken { int x = "not an int"; }
