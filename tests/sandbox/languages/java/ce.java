public class Main { public static void main(String[] a) { int x = "not an int"; } }
