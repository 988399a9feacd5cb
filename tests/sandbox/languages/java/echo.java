public class Main { public static void main(String[] a) throws Exception { System.in.transferTo(System.out); } }
