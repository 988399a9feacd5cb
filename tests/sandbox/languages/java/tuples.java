import org.javatuples.*;
public class Main { public static void main(String[] a) { Pair<Integer, String> p = Pair.with(42, "ba"); Triplet<Long, Long, Long> t = Triplet.with(1l, 2l, 3l); System.out.println(p.getValue0() + " " + p.getValue1() + " " + p.equals(Pair.with(42, "ba")) + " " + t); } }
