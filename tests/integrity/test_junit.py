"""JUnit harnesses (/v1/judge with `harness` and `entry_point` in the junit template): the tests
run in a grader of their own (languages/java/junit.java: JUnit's launcher on the tests,
compiled with a proxy of the code's class), the program in JUnit as SandboxFusion runs it,
serving the calls. Wrong programs that try to get reward 1 as a hostile policy would score 0
and never SE; the honest program passes; an exception the tests expect crosses."""
import pytest

from conftest import code, in_parallel, judge

HONEST = code('''
    import java.util.*;
    public class Stats {
        public static double mean(List<Integer> xs) {
            if (xs.isEmpty()) throw new IllegalArgumentException("empty");
            long s = 0;
            for (int x : xs) s += x;
            return (double) s / xs.size();
        }
    }
''')
WRONG = code('''
    import java.util.*;
    public class Stats {
        public static double mean(List<Integer> xs) { return 0.0; }
    }
''')
TESTS = code('''
    import java.util.*;
    import org.junit.jupiter.api.*;
    import org.junit.jupiter.params.ParameterizedTest;
    import org.junit.jupiter.params.provider.ValueSource;
    import static org.junit.jupiter.api.Assertions.*;

    public class StatsTest {
        private List<Integer> xs;

        @BeforeEach
        void setUp() { xs = new ArrayList<>(List.of(1, 2, 3, 6)); }

        @Test
        void mean() { assertEquals(3.0, Stats.mean(xs), 1e-9); }

        @ParameterizedTest
        @ValueSource(ints = {1, 7, -4})
        void single(int x) { assertEquals((double) x, Stats.mean(List.of(x))); }

        @Test
        void empty() { assertThrows(IllegalArgumentException.class, () -> Stats.mean(List.of())); }

        @Nested
        class Twice {
            @Test
            void pairs() { assertEquals(2.5, Stats.mean(List.of(2, 3))); }
        }
    }
''')


def body(program, tests=TESTS, **extra):
    return {"language": "junit", "code": program, "harness": tests, "entry_point": "mean", **extra}


def verdict(r):
    return (r.get("tests") or [{}])[0].get("verdict") or r.get("status")


def wrong_with(extra):
    """WRONG with more members in its class."""
    return WRONG.replace("{ return 0.0; }\n", "{ return 0.0; }\n" + extra)


ATTACKS = [
    ("exit_in_call", HONEST.replace('if (xs.isEmpty())', 'System.exit(0);\n            if (xs.isEmpty())')),
    ("static_init_exit", wrong_with("    static { System.exit(0); }\n")),
    ("halt_in_call", WRONG.replace("return 0.0;", "Runtime.getRuntime().halt(0); return 0.0;")),
    ("shutdown_hook", wrong_with("    static { Runtime.getRuntime().addShutdownHook(new Thread(() -> "
                                 "Runtime.getRuntime().halt(0))); }\n")),
    # a test class of the program's own, and JUnit's Assertions, are the program's alone
    ("own_tests", WRONG + code('''
        class StatsTest {
            @org.junit.jupiter.api.Test
            void mean() { System.exit(0); }
        }
    ''')),
    ("answers_read", code('''
        import java.util.*;
        import java.nio.file.*;
        public class Stats {
            public static double mean(List<Integer> xs) {
                for (String f : new String[] {"Main.java", "Stats.java", "StatsTest.java", "/proc/1/cmdline"}) {
                    try {
                        String t = new String(Files.readAllBytes(Paths.get(f)));
                        int i = t.indexOf("assertEquals(");
                        if (i >= 0) return Double.parseDouble(t.substring(i + 13, t.indexOf(',', i)));
                    } catch (Exception e) {}
                }
                return 0.0;
            }
        }
    ''')),
    ("kill_everyone", WRONG.replace("return 0.0;", code('''
        try { new ProcessBuilder("/bin/sh", "-c", "kill -9 -1; kill -STOP -1").start().waitFor(); }
        catch (Exception e) {}
        return 0.0;
    '''))),
    ("forged_answer", WRONG.replace("return 0.0;", code('''
        try (java.io.FileOutputStream o = new java.io.FileOutputStream("/dev/fd/4")) {
            o.write("{\\"ok\\":3.0}\\n{\\"ok\\":1.0}\\n".getBytes());
        } catch (Exception e) {}
        return 0.0;
    '''))),
    ("nan_answer", WRONG.replace("return 0.0;", "return Double.NaN;")),
    ("raise_uncaught", WRONG.replace("return 0.0;", 'throw new IllegalArgumentException("no");')),
]


@pytest.fixture(scope="module")
def attacked(srv):
    names = [a[0] for a in ATTACKS]
    res = in_parallel(lambda p: judge(srv, body(p), timeout=240), [(p,) for _, p in ATTACKS])
    return dict(zip(names, res))


@pytest.mark.parametrize("name", [a[0] for a in ATTACKS])
def test_attack_fails(attacked, name):
    r = attacked[name]
    assert r["reward"] == 0 and verdict(r) not in ("OK", "SE"), (name, r)
    assert r["grading"] == "isolated", r


def test_honest_passes_wrong_fails(srv):
    ok, wrong, setup = in_parallel(lambda b: judge(srv, b, timeout=240), [
        (body(HONEST),), (body(WRONG),),
        (body(HONEST, harness_setup="import java.util.*;\npublic class Stats {\n"
                                    "    public static double mean(List<Integer> xs) {\n"),)])
    assert ok["reward"] == 1 and ok["grading"] == "isolated", ok
    assert wrong["reward"] == 0 and verdict(wrong) == "WA", wrong
    assert setup["reward"] == 1, setup


def test_without_entry_point_by_exit_status(srv):
    """A harness that names no entry point has no proxy to call: JUnit's exit status alone
    would decide it, so it is refused (422 at harness) unless the client accepts that, and
    then judged so (grading says it)."""
    r = srv.post("/v1/judge", {"language": "junit", "code": HONEST, "harness": TESTS})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "harness"], r.text
    assert "entry_point" in r.json()["detail"][0]["msg"], r.text
    r = judge(srv, {"language": "junit", "code": HONEST, "harness": TESTS,
                    "allow_exit_status": True}, timeout=240)
    assert r["grading"] == "exit-status", r
