import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MainTest {
    @Test void wrong() { assertEquals(5, 2 + 2, "two and two"); }
}
