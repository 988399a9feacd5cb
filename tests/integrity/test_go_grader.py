"""Go harnesses (go_test) judged by a compiled grader (server/judge/graded.h, languages/go/):
the tests are compiled with a proxy of the prompt's declaration into a test binary of their
own, run from a sealed memory file as another uid; the candidate's test binary holds its
package and a host (verdict_host_test.go, whose TestMain serves the entry point). Every attack
below is a wrong answer written as a hostile policy would write it, sent the way MultiPL-E's
and HumanEval-X's problems send theirs (/v1/judge with the prompt as `harness_setup` and
`entry_point`, or /submit on the real problems): early exits in every form Go offers (os.Exit,
syscall.Exit, runtime.Goexit, from the call, init, a goroutine, a TestMain or tests of its
own), killing every process it can see, its parent, or the grader, shadowing `true`, `false`
and the tests' helpers, flags forced into os.Args, printing the testing package's PASS lines,
garbage, early, stolen and deep lines on the channel, reading the sources, binaries and /proc
for the expected values, and a plain wrong answer. None may get reward 1; the controls pass,
a panicking answer is RE and a wrong one WA."""
import base64

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit

# A problem of MultiPL-E's shape: the prompt ends with the entry point's declaration, the
# completion continues its body, and the tests close it; the expected values appear nowhere
# but the tests.
SETUP = code("""
    package sorted_plus_test

    import (
        "testing"
        "fmt"
    )

    // The list sorted, and a constant appended.
    func sorted_plus(v []int) []int {
""")
TESTS = code("""
    }

    func TestSorted_Plus(t *testing.T) {
      candidate := sorted_plus
    	type test struct {
    		actual   interface{}
    		expected interface{}
    	}
       tests := []test{
         { actual: candidate([]int{3, 1, 2}), expected: []int{1, 2, 3, 982451653} },
         { actual: candidate([]int{}), expected: []int{982451653} },
       }

    	for i, tc := range tests {
    		t.Run(fmt.Sprintf("test num % d", i), func(t *testing.T) {
    			if fmt.Sprintf("%v", tc.actual) != fmt.Sprintf("%v", tc.expected) {
    				t.Errorf("expected '%s', got '%s'", tc.expected, tc.actual)
    			}
    		})
    	}
    }
""")
HONEST = "    r := append([]int{}, v...)\n    sort.Ints(r)\n    return append(r, 982451653)\n"
WRONG = "    return v\n"
# after a continuation: the function closed, declarations of the answer's own, and a function
# left open for the tests' leading brace to close
AFTER = "    return v\n}\n"
REOPEN = "func unused() {\n"

# Looks everywhere a file might hold the tests' expected value (a number of 9 digits, never
# spelled out here) and returns it: its own sources and binary, the work dir, every /proc entry
# it can open (cmdline, environ, fds, the grader's executable at fd 5), /tmp and the cache's
# usual places.
SNOOP = code(r"""
    var found int

    func scan(d []byte) {
    	for i := 0; i < len(d); i++ {
    		j, n := i, 0
    		for j < len(d) && d[j] >= '0' && d[j] <= '9' && j-i < 12 {
    			n = n*10 + int(d[j]-'0')
    			j++
    		}
    		if j-i == 9 && n != 123456789 {
    			found = n
    		}
    		if j > i {
    			i = j
    		}
    	}
    }

    func scanFile(f string) {
    	if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
    		if b, err := os.ReadFile(f); err == nil {
    			scan(b)
    		}
    	}
    }

    func walk(d string, depth int) {
    	if depth > 6 {
    		return
    	}
    	es, _ := os.ReadDir(d)
    	for _, e := range es {
    		p := d + "/" + e.Name()
    		if e.IsDir() {
    			walk(p, depth+1)
    		} else {
    			scanFile(p)
    		}
    	}
    }

    func snoop() {
    	walk(".", 0)
    	ps, _ := os.ReadDir("/proc")
    	for _, p := range ps {
    		for _, n := range []string{"cmdline", "environ", "fd/0", "fd/5", "exe", "cwd/grader_test.go"} {
    			scanFile("/proc/" + p.Name() + "/" + n)
    		}
    		fds, _ := os.ReadDir("/proc/" + p.Name() + "/fd")
    		for _, f := range fds {
    			scanFile("/proc/" + p.Name() + "/fd/" + f.Name())
    		}
    	}
    	for _, r := range []string{"/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w"} {
    		walk(r, 0)
    	}
    }
""")


def fd4(msg):
    return f"    os.NewFile(4, \"a\").WriteString({msg})\n"


# name -> the continuation of the prompt (what follows `func sorted_plus(v []int) []int {`)
ATTACKS = {
    "plain_wrong": WRONG,
    "os_exit_0": "    os.Exit(0)\n    return v\n",
    "goexit": "    runtime.Goexit()\n    return v\n",
    "goroutine_exit": "    go os.Exit(0)\n    time.Sleep(time.Second)\n    return v\n",
    "panic_then_exit_in_defer": "    defer os.Exit(0)\n    panic(\"no\")\n",
    "init_exit": AFTER + "func init() { os.Exit(0) }\n" + REOPEN,
    "own_tests_exit": AFTER + "func TestZ(t *testing.T) { os.Exit(0) }\n" + REOPEN,
    "kill_every_process": "    syscall.Kill(-1, syscall.SIGKILL)\n    return v\n",
    "kill_parent": "    syscall.Kill(os.Getppid(), syscall.SIGKILL)\n    return v\n",
    "stop_every_process": "    syscall.Kill(-1, syscall.SIGSTOP)\n    return v\n",
    "args_test_filter": AFTER + "func init() { os.Args = append(os.Args, \"-test.run=^$\") }\n" + REOPEN,
    "shadow_true_false": AFTER + "const true, false = 1 == 1, 1 == 1\nvar candidate = 0\n" + REOPEN,
    "fake_pass_print": "    fmt.Println(\"--- PASS: TestSorted_Plus\\nPASS\\nok\")\n    os.Exit(0)\n    return v\n",
    "fd4_fake_answers": AFTER + "func init() {\n" + fd4(r'"{\"ok\":[1,2,3,982451653]}\n{\"ok\":[982451653]}\n"') + "}\n" + REOPEN,
    "fd4_garbage": fd4(r'"PASS\n{\"ok\":true} trailing\n"') + WRONG,
    "fd4_deep_line": fd4('strings.Repeat("[", 1<<22) + "\\n"') + WRONG,
    "fd3_steal_calls": AFTER + "func init() {\n    go func() { b := make([]byte, 1<<16); for { if n, _ := syscall.Read(3, b); n <= 0 { return } } }()\n}\n" + REOPEN,
    "snoop_files_and_proc": ("    snoop()\n    r := append([]int{}, v...)\n    sort.Ints(r)\n"
                             "    if found > 0 { return append(r, found) }\n    return v\n}\n" + SNOOP + REOPEN),
    "huge_answer": "    return make([]int, 20 << 20)\n",
    # what passes a sealed (in-process) Go harness: seal's marker found in its own binary
    # (tests/integrity/test_compiled_more.py), printed, then an exit
    "binary_scan_marker": code('''
        hex := func(c byte) bool { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') }
        bin, _ := os.ReadFile("/proc/self/exe")
        for i := 0; i+36 <= len(bin); i++ {
            k := 0
            for k < 36 && hex(byte((bin[i+k]-byte(k))*183)) {
                k++
            }
            if k < 36 {
                continue
            }
            for j := 0; j+36 <= len(bin); j++ {
                if bin[i]^bin[j] != '\\n' || bin[i+1]^bin[j+1] != 'V' || bin[i+2]^bin[j+2] != 'S' {
                    continue
                }
                line := make([]byte, 36)
                for k := range line {
                    line[k] = bin[i+k] ^ bin[j+k]
                }
                if line[35] == '\\n' {
                    os.Stdout.Write(line)
                    syscall.Exit(0)
                }
            }
        }
        return v
    '''),
    "grader_names": AFTER + "type verdictValue struct{}\nfunc verdictCall() {}\n" + REOPEN,
}

# whole answers (package, imports and the function), sent as the code after no prompt
WHOLE = {
    "whole_own_testmain": ("package sorted_plus_test\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"
                           "func sorted_plus(v []int) []int { return v }\n\n"
                           "func TestMain(m *testing.M) { os.Exit(0) }\n"),
    "whole_own_served": ("package sorted_plus_test\n\nfunc sorted_plus(v []int) []int { return v }\n\n"
                         "func verdictServed() (string, interface{}) { return \"x\", 0 }\n"),
    "whole_package_main": ("package main\n\nimport \"os\"\n\nfunc init() { os.Exit(0) }\n\n"
                           "func sorted_plus(v []int) []int { return v }\n\nfunc main() {}\n"),
    "whole_unsafe_exit": ("package sorted_plus_test\n\nimport (\n\t\"syscall\"\n\t\"unsafe\"\n)\n\n"
                          "var _ = unsafe.Sizeof(0)\n\nfunc init() { syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0) }\n\n"
                          "func sorted_plus(v []int) []int { return v }\n"),
}


# A continuation cannot open an import block, but a line of its own that starts with `import`
# is merged into the file's one block (server/judge/goimports.h): the attacks bring what they
# use so (unused ones are dropped).
IMPORTS = 'import (\n\t"runtime"\n\t"syscall"\n\t"time"\n\t"os"\n)\n'


def judge_body(src, whole):
    # a whole answer closes its own function: the tests' leading brace is not sent
    return {"language": "go_test", "code": src if whole else SETUP + src,
            "harness": TESTS.split("\n", 1)[1] if whole else TESTS,
            "harness_setup": SETUP, "entry_point": "sorted_plus",
            "limits": {"time_ms": 5000, "wall_ms": 20000}}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(IMPORTS + ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b, timeout=180), [(b,) for b in bodies])))


# Attacks that break their own program's build: CE, the program's verdict (reward 0). A
# TestMain or a verdictServed of the answer's own clashes with the host's.
CE_OK = {"whole_own_testmain", "whole_own_served", "whole_package_main"}


@pytest.mark.parametrize("name", sorted(ATTACKS) + sorted(WHOLE))
def test_attack_refused(results, name):
    res = results[name]
    assert res.get("grading") == "isolated", (name, res.get("grading"), res)
    if name in CE_OK and res.get("status") == "CE":
        assert res.get("reward") == 0, (name, res)
        return
    assert_refused(res)


def test_controls(srv):
    ok, whole, raised, wrong = in_parallel(lambda b: judge(srv, b, timeout=180), [
        (judge_body(HONEST, False),),
        (judge_body("package main\n\nimport \"sort\"\n\nfunc sorted_plus(v []int) []int {\n" + HONEST + "}\n", True),),
        (judge_body("    panic(\"no\")\n", False),),
        (judge_body(WRONG, False),)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_accepted(whole)
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "it raised" in raised["tests"][0]["stderr"] and "no" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body, timeout=180))


TYPED_SETUP = code("""
    package main

    import (
    	"math"
    	"testing"
    )

    type pair struct {
    	name  string
    	score float64
    }

    func mix(a [][]string, m map[string]int, p pair, o *int, f []float64, any []interface{}, r rune, b byte, big int64, back map[interface{}]interface{}) ([]interface{}, [2]int, map[int]string) {
""")
TYPED_BODY = code(r"""
    	n := 0
    	for _, row := range a {
    		for _, s := range row {
    			n += len(s) + m[s]
    		}
    	}
    	if p.name != "q\n\u0001\"\\\u00ff\U0001F600" || p.score != 0.5 {
    		return nil, [2]int{-1, 0}, nil
    	}
    	if len(f) == 4 && !(math.IsNaN(f[0]) && math.IsInf(f[1], 1) && f[2] == 0 && math.Signbit(f[2]) && f[3] == 1.5e-300) {
    		return nil, [2]int{-2, 0}, nil
    	}
    	if o != nil {
    		n += *o
    	}
    	out := []interface{}{n, float64(n) / 2, "s", true, nil, []interface{}{int64(1), "x"}}
    	out = append(out, any...)
    	return out, [2]int{int(r), int(b)}, map[int]string{int(big % 1000): "k", -1: back["k"].(string)}
    }
""")
TYPED_TESTS = code(r"""
    func TestMix(t *testing.T) {
    	o := -9
    	got, two, m := mix([][]string{{"a", "bb"}, {"a"}}, map[string]int{"bb": 10}, pair{"q\n\u0001\"\\\u00ff\U0001F600", 0.5}, &o,
    		[]float64{math.NaN(), math.Inf(1), math.Copysign(0, -1), 1.5e-300}, []interface{}{2.5, []interface{}{}, map[interface{}]interface{}{"x": 1}, 'c', []string{"a"}, uint8(7)},
    		'é', 200, 9000000000123, map[interface{}]interface{}{"k": "v"})
    	want := []interface{}{5, 2.5, "s", true, nil, []interface{}{int64(1), "x"}, 2.5, []interface{}{}, map[interface{}]interface{}{"x": 1}, 'c', []string{"a"}, uint8(7)}
    	if !reflect.DeepEqual(got, want) { // the dynamic types too: a rune, an int64, a []string
    		t.Errorf("got %#v want %#v", got, want)
    	}
    	if two != [2]int{'é', 200} || m[123] != "k" || m[-1] != "v" || len(m) != 2 {
    		t.Errorf("got %v %v", two, m)
    	}
    	e, _, _ := mix(nil, nil, pair{"x", 0}, nil, nil, nil, 0, 0, 0, map[interface{}]interface{}{"k": ""})
    	if e != nil {
    		t.Errorf("got %v", e)
    	}
    }
""")


def test_typed_values_cross(srv):
    """Values of Go's types cross both ways as the tests' own: nested slices, maps with any
    keys, a struct of the prompt's (as a tuple, its unexported fields included), pointers
    (nil and not), floats (nan, inf, -0.0, tiny), runes, bytes, int64 past 32 bits, three
    results at once, interface{} values with their dynamic types (a rune stays a rune, a
    []string a []string: HumanEval-X Go/22's and Go/125's tests tell them apart), strings
    with every kind of character, and a nil slice (null) that stays nil."""
    res = judge(srv, {"language": "go_test", "code": TYPED_SETUP + TYPED_BODY,
                      "harness": "import (\n\t\"fmt\"\n\t\"reflect\"\n)\n" + TYPED_TESTS,
                      "harness_setup": TYPED_SETUP,
                      "entry_point": "mix", "limits": {"time_ms": 5000, "wall_ms": 20000}},
                timeout=180)
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_answers_convert_only_by_value(srv):
    """An answer of another type than the declared one is decoded into the declared type by
    value, refused when it does not fit: 2^40 declared int64 where the prompt says int32 is
    RE, never the truncated value; strings where ints are declared are RE."""
    setup = "package main\n\nimport \"testing\"\n\nfunc low(x int32) int32 {\n"
    tests = "func TestLow(t *testing.T) {\n\tif low(3) != 3 {\n\t\tt.Fail()\n\t}\n}\n"
    whole = "package main\n\nfunc low(x int32) int64 { return int64(x) + %s }\n"
    fits, wide, strs = in_parallel(lambda b: judge(srv, b, timeout=180), [
        ({"language": "go_test", "code": whole % "0", "harness": tests, "harness_setup": setup,
          "entry_point": "low"},),
        ({"language": "go_test", "code": whole % "(1 << 40)", "harness": tests,
          "harness_setup": setup, "entry_point": "low"},),
        ({"language": "go_test", "code": "package main\n\nfunc low(x int32) string { return \"3\" }\n",
          "harness": tests, "harness_setup": setup, "entry_point": "low"},)])
    assert_accepted(fits)
    assert_refused(wide)
    assert wide["tests"][0]["verdict"] == "RE", wide
    assert_refused(strs)
    assert strs["tests"][0]["verdict"] == "RE", strs


def test_variadic_entry_point(srv):
    """A variadic entry point (McEval Go/12's `scores ...int`) is graded: the proxy passes the
    slice, the host calls with it spread; none and many arguments alike."""
    setup = "package main\n\nimport \"testing\"\n\nfunc total(xs ...int) int {\n"
    tests = ("}\n\nfunc TestTotal(t *testing.T) {\n\tif total(1, 2, 3) != 6 || total() != 0 {\n"
             "\t\tt.Fail()\n\t}\n}\n")
    ok, bad = in_parallel(lambda b: judge(srv, b, timeout=180), [
        ({"language": "go_test", "code": setup + "\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n",
          "harness": tests, "harness_setup": setup, "entry_point": "total"},),
        ({"language": "go_test", "code": setup + "\treturn len(xs)\n", "harness": tests,
          "harness_setup": setup, "entry_point": "total"},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["grading"] == "isolated" and bad["tests"][0]["verdict"] == "WA", bad


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's own, and plain."""
    tests = ("func TestTwice(t *testing.T) {\n\tassert := assert.New(t)\n"
             "\tassert.Equal(8, Twice(4))\n}\n")
    ok, bad = in_parallel(lambda b: judge(srv, b, timeout=180), [
        ({"language": "go_test", "code": "package main\n\nfunc Twice(x int) int { return 2 * x }\n",
          "harness": tests, "entry_point": "Twice"},),
        ({"language": "go_test", "code": "package main\n\nfunc Twice(x int) int { return x }\n",
          "harness": tests, "entry_point": "Twice"},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert bad["tests"][0]["verdict"] == "WA", bad


def test_unclosed_import_swallows_no_tests(srv):
    """An `import (` the answer leaves open inside a function of its own: were it merged as an
    import block up to the first `)` (the tests' own header), the tests' body would become
    that function's and no test would run. Sealed (no entry point: the tests joined after the
    code) and graded alike, it is the answer's compile error."""
    src = SETUP + AFTER + "func dummy(t *testing.T) {\nimport (\n"
    sealed = {k: v for k, v in judge_body(src, False).items()
              if k not in ("entry_point", "harness_setup")}
    got = in_parallel(lambda b: judge(srv, b, timeout=180), [(sealed,), (judge_body(src, False),)])
    for res in got:
        assert res.get("status") == "CE" and res.get("reward") == 0, res
    assert got[0]["grading"] == "in-process" and got[1]["grading"] == "isolated", got


# ---- the datasets' own problems through /submit --------------------------------------------

HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "package has_close_elements_test\n\nimport \"os\"\n\nfunc has_close_elements(numbers []float64, threshold float64) bool {\n"
HX0_HEAD = "func HasCloseElements(numbers []float64, threshold float64) bool {\n"
SUBMITTED = {
    "exit_in_call": ("multiple_go", HE0, HE0_HEAD + "    os.Exit(0)\n    return false\n}\n"),
    "init_exit": ("multiple_go", HE0, HE0_HEAD + "    return true\n}\n\nfunc init() { os.Exit(0) }\n"),
    "wrong": ("multiple_go", HE0, HE0_HEAD.replace("import \"os\"\n", "") + "    return true\n}\n"),
    "humanevalx_init_exit": ("humanevalx_go", "Go/0", HX0_HEAD + "    return false\n}\n\nfunc init() { os.Exit(0) }\n"),
    # a declaration that would clash with the grader's, were the code in it: the grader does
    # not hold the code, so nothing clashes
    "clash_with_the_grader": ("humanevalx_go", "Go/0", HX0_HEAD + "    os.Exit(0)\n    return true\n}\n\n"
                              "func verdictCall() {}\nfunc verdictBroke() {}\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, SUBMITTED[k][0], SUBMITTED[k][1], SUBMITTED[k][2],
                                       fence="go", timeout=180),
                      [(k,) for k in sorted(SUBMITTED)])
    for res in got:
        assert_refused(res)
        assert judged(res)["grading"] == "isolated", res


def test_submitted_controls(srv):
    body = ("    for i := range numbers {\n        for j := range numbers {\n"
            "            if i != j && math.Abs(numbers[i]-numbers[j]) < threshold {\n"
            "                return true\n            }\n        }\n    }\n    return false\n}\n")
    he, hx = in_parallel(lambda d, i, c: submit(srv, d, i, c, fence="go", timeout=180), [
        ("multiple_go", HE0, HE0_HEAD.replace("import \"os\"\n", "") + body),
        ("humanevalx_go", "Go/0", HX0_HEAD + body)])
    for res in (he, hx):
        assert_accepted(res)
        assert judged(res)["grading"] == "isolated", res
