import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

public class SolutionTest {
    static int add(int a, int b) { return a + b; }
    @Test void adds() { assertEquals(4, add(2, 2)); }
    @Test void addsNegatives() { assertEquals(-1, add(2, -3)); }
}
