import java.util.*;
class Helper { static int twice(int x) { return 2 * x; } }
class Main { static class Box { int v = 21; } public static void main(String[] a) { List<Integer> l = new ArrayList<>(List.of(3,1,2)); Collections.sort(l, new Comparator<Integer>() { public int compare(Integer x, Integer y) { return y - x; } }); System.out.println(l + " " + Helper.twice(new Box().v)); } }
