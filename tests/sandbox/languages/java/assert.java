public class Main { public static void main(String[] a) { assert 1 == 2 : "one is not two"; System.out.println("asserts are off"); } }
