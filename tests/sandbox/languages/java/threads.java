public class Main { static int v; public static void main(String[] a) throws Exception { Thread t = new Thread(() -> v = 42); t.start(); t.join(); System.out.println(v); } }
