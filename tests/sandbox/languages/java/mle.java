import java.util.ArrayList;
public class Main { public static void main(String[] a) { ArrayList<byte[]> hog = new ArrayList<>(); for (;;) { byte[] b = new byte[1 << 20]; java.util.Arrays.fill(b, (byte) 1); hog.add(b); } } }
