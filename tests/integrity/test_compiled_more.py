"""Compiled harnesses judged in-process (server/judge/seal, server/judge/lint) against a hostile
policy, in C, C++, Go and Rust (issue 30): early exit in each form the language offers, the
completion marker read at compile time (`.incbin`, `#include __FILE__`, `//go:embed`,
`include_str!`), the shadowing classes (refused as CE with the reason), rigged equality, and a
plain wrong answer. None may pass. Tests named `test_limit_*` document what docs/integrity.md
says remains possible in-process (reading the process's own binary or memory at run time, a
C++ member operator on a type the candidate returns): they assert today's behaviour, so a
change there shows up here.

Every attack answers add(a, b) wrongly (a - b) unless the trick supplies its own answer; the
honest answer beside them passes in every language (the control)."""
import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge

TESTS = {
    "c": "int main() {\n    assert(add(1, 2) == 3);\n    assert(add(2, 5) == 7);\n    return 0;\n}\n",
    "go_test": 'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 || Add(2, 5) != 7 {\n'
               '\t\tt.Fatal("wrong")\n\t}\n}\n',
    "rust_test": "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn test_add() {\n"
                 "        assert_eq!(add(1, 2), 3);\n        assert!(add(2, 5) == 7);\n    }\n}\n",
}
TESTS["cpp"] = TESTS["c"]
# HumanEval-X's shape: a helper of the tests' own, called with a braced list.
CPP_ISSAME_TESTS = ("bool issame(vector<int> a, vector<int> b) { return a == b; }\n"
                    "int main() {\n    assert(issame(pair_of(1, 2), {1, 2}));\n"
                    "    assert(issame(pair_of(3, 4), {3, 4}));\n}\n")
C_HEAD = "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" \
         "#include <unistd.h>\n"
CPP_HEAD = "#include <bits/stdc++.h>\n#include <unistd.h>\nusing namespace std;\n"
GO_HEAD = 'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nvar _ = fmt.Sprint\nvar _ = os.Exit\n'

HONEST = {
    "c": C_HEAD + "int add(int a, int b) { return a + b; }\n",
    "cpp": CPP_HEAD + "int add(int a, int b) { return a + b; }\n",
    "go_test": GO_HEAD + "func Add(a, b int) int { return a + b }\n",
    "rust_test": "fn add(a: i32, b: i32) -> i32 { a + b }\n",
}

# ---- the marker, read from the program's own source at compile time ----------------------------
# Each finds seal's two slot arrays in its source, XORs them and prints the line, then exits 0.
# The source holds only placeholders now: the line printed is no marker. stderr says "found"
# when the parse succeeded, so the attack fails for the right reason.

C_INCBIN = C_HEAD + code(r'''
    __asm__(".section .rodata\nverdict_src: .incbin \"" __FILE__ "\"\n.byte 0\n.previous");
    extern const char verdict_src[];
    static int grab(const char *key, unsigned char *out) {
        const char *p = strstr(verdict_src, key);
        int n = 0;
        if (!p || !(p = strchr(p, '{'))) return 0;
        for (p++; *p && *p != '}'; p++)
            if (p[0] == '0' && p[1] == 'x') out[n++] = (unsigned char)strtoul(p, (char **)&p, 16);
        return n;
    }
    int add(int a, int b) {
        unsigned char k[64], x[64];
        int n = grab("verdict_k_[] =", k);
        if (n == grab("verdict_x_[] =", x) && n > 0) {
            fprintf(stderr, "found %d bytes\n", n);
            for (int i = 0; i < n; i++) k[i] ^= x[i];
            fflush(stdout);
            write(1, k, n);
            _exit(0);
        }
        return a - b;
    }
''')

# The file includes itself inside a namespace: the copy of our entry is a function the program
# can call, whose tests call a rigged add of the copy's namespace and pass, so the copy prints
# the marker it holds. Now the copy also holds seal's slots: twice in the binary, refused.
CPP_INCLUDE_FILE = code(r'''
    #ifndef VERDICT_AGAIN
    #define VERDICT_AGAIN
    #include <bits/stdc++.h>
    #include <unistd.h>
    using namespace std;
    int add(int a, int b) { return a - b; }
    namespace copy {
    struct Any { template <class T> bool operator==(const T &) const { return true; } };
    inline Any add(int, int) { return {}; }
    #include __FILE__
    }
    struct Run { Run() { fprintf(stderr, "found the copy\n"); copy::main(); fflush(stdout); _exit(0); } } run;
    #endif
''')

GO_EMBED = code('''
    package main

    import (
    \t_ "embed"
    \t"os"
    \t"regexp"
    \t"strconv"
    \t"testing"
    )

    //go:embed main_test.go
    var verdictSource string

    func grab(name string) []byte {
    \tm := regexp.MustCompile(`var ` + name + `[0-9a-f]+ = \\[\\d+\\]byte\\{([^}]*)\\}`).FindStringSubmatch(verdictSource)
    \tif m == nil {
    \t\treturn nil
    \t}
    \tvar out []byte
    \tfor _, h := range regexp.MustCompile(`0x[0-9a-f]{2}`).FindAllString(m[1], -1) {
    \t\tv, _ := strconv.ParseUint(h[2:], 16, 8)
    \t\tout = append(out, byte(v))
    \t}
    \treturn out
    }

    func init() {
    \tk, x := grab("verdictK"), grab("verdictX")
    \tif len(k) > 0 && len(k) == len(x) {
    \t\tos.Stderr.WriteString("found " + strconv.Itoa(len(k)) + " bytes\\n")
    \t\tfor i := range k {
    \t\t\tk[i] ^= x[i]
    \t\t}
    \t\tos.Stdout.Write(k)
    \t\tos.Exit(0)
    \t}
    }

    var _ testing.T

    func Add(a, b int) int { return a - b }
''')

RUST_INCLUDE_STR = code(r'''
    fn grab(src: &str, key: &str) -> Vec<u8> {
        let Some(at) = src.find(key) else { return vec![] };
        let rest = &src[at..];
        let body = &rest[rest.find("= [").unwrap() + 3..rest.find("];").unwrap()];
        body.split(',').filter_map(|t| {
            let t = t.trim().trim_end_matches("u8");
            u8::from_str_radix(t.strip_prefix("0x")?, 16).ok()
        }).collect()
    }
    fn add(a: i32, b: i32) -> i32 {
        let src = include_str!("main.rs");
        let (mut k, x) = (grab(src, "static VERDICT_K"), grab(src, "static VERDICT_X"));
        if !k.is_empty() && k.len() == x.len() {
            eprintln!("found {} bytes", k.len());
            for i in 0..k.len() { k[i] ^= x[i]; }
            use std::io::Write;
            let _ = std::io::stdout().write_all(&k);
            let _ = std::io::stdout().flush();
            std::process::exit(0);
        }
        a - b
    }
''')

COMPILE_TIME = {
    "c_incbin_file": ("c", C_INCBIN, "found 36 bytes"),
    "cpp_incbin_file": ("cpp", C_INCBIN.replace("(char **)&p", "const_cast<char **>(&p)"), "found 36 bytes"),
    "cpp_include_file": ("cpp", CPP_INCLUDE_FILE, None),
    "go_embed": ("go_test", GO_EMBED, "found 36 bytes"),
    "rust_include_str": ("rust_test", RUST_INCLUDE_STR, "found 36 bytes"),
}

# ---- early exit, in each form ------------------------------------------------------------------

EARLY_EXIT = {
    "c_exit": ("c", C_HEAD + "int add(int a, int b) { exit(0); }\n"),
    "c__Exit": ("c", C_HEAD + "int add(int a, int b) { _Exit(0); }\n"),
    "c_quick_exit": ("c", C_HEAD + "int add(int a, int b) { quick_exit(0); }\n"),
    "c_exit_group": ("c", C_HEAD + "#include <sys/syscall.h>\n"
                     "int add(int a, int b) { syscall(SYS_exit_group, 0); return 0; }\n"),
    "c_constructor": ("c", C_HEAD + "int add(int a, int b) { return a - b; }\n"
                      "__attribute__((constructor)) static void e(void) { _exit(0); }\n"),
    "c_destructor_after_abort": ("c", C_HEAD + "#include <signal.h>\n"
                                 "static void h(int s) { (void)s; exit(0); }\n"
                                 "int add(int a, int b) { signal(SIGABRT, h); return a - b; }\n"),
    "c_longjmp_out_of_tests": ("c", C_HEAD + "#include <setjmp.h>\nstatic jmp_buf j;\n"
                               "__attribute__((constructor)) static void s(void) {\n"
                               "    if (setjmp(j)) _exit(0);\n}\n"
                               "int add(int a, int b) { longjmp(j, 1); }\n"),
    "cpp_std_exit": ("cpp", CPP_HEAD + "int add(int a, int b) { std::exit(0); }\n"),
    "cpp_quick_exit": ("cpp", CPP_HEAD + "int add(int a, int b) { std::quick_exit(0); }\n"),
    "cpp_terminate_handler": ("cpp", CPP_HEAD + "int add(int a, int b) {\n"
                              "    std::set_terminate([] { std::_Exit(0); });\n"
                              "    throw 1;\n}\n"),
    "cpp_static_object": ("cpp", CPP_HEAD + "int add(int a, int b) { return a - b; }\n"
                          "struct E { E() { _exit(0); } } e;\n"),
    "cpp_thread_exit": ("cpp", CPP_HEAD + "int add(int a, int b) {\n"
                        "    std::thread([] { std::exit(0); }).join();\n    return a - b;\n}\n"),
    "go_os_exit": ("go_test", GO_HEAD + "func Add(a, b int) int { os.Exit(0); return 0 }\n"),
    "go_init_exit": ("go_test", GO_HEAD + "func Add(a, b int) int { return a - b }\n"
                     "func init() { os.Exit(0) }\n"),
    "go_goroutine_exit": ("go_test", GO_HEAD + "func Add(a, b int) int {\n"
                          "\tdone := make(chan bool)\n\tgo func() { os.Exit(0); done <- true }()\n"
                          "\t<-done\n\treturn a - b\n}\n"),
    "go_goexit": ("go_test", GO_HEAD.replace('"os"', '"os"\n\t"runtime"') +
                  "func Add(a, b int) int { runtime.Goexit(); return 0 }\nvar _ = runtime.Goexit\n"),
    "go_panic_recovered_exit": ("go_test", GO_HEAD + "func Add(a, b int) int {\n"
                                "\tdefer func() { recover(); os.Exit(0) }()\n\tpanic(1)\n}\n"),
    "rust_process_exit": ("rust_test", "fn add(a: i32, b: i32) -> i32 { std::process::exit(0) }\n"),
    "rust_panic_hook": ("rust_test", "fn add(a: i32, b: i32) -> i32 {\n"
                        "    std::panic::set_hook(Box::new(|_| std::process::exit(0)));\n"
                        "    a - b\n}\n"),
    "rust_thread_exit": ("rust_test", "fn add(a: i32, b: i32) -> i32 {\n"
                         "    std::thread::spawn(|| std::process::exit(0)).join().unwrap();\n"
                         "    a - b\n}\n"),
    "rust_init_array": ("rust_test", "fn add(a: i32, b: i32) -> i32 { a - b }\n"
                        "#[used]\n#[link_section = \".init_array\"]\n"
                        "static EARLY: extern \"C\" fn() = early;\n"
                        "extern \"C\" fn early() { std::process::exit(0) }\n"),
}

# ---- shadowing: refused before compiling (CE with the reason) ----------------------------------

SHADOWING = {
    "c_undef_true_enum": ("c", C_HEAD + "#include <stdbool.h>\n#undef true\n#undef false\n"
                          "enum { false = 1, true = 1 };\nint add(int a, int b) { return a - b; }\n",
                          "#undef true"),
    "c_define_keyword": ("c", C_HEAD + "#define return exit(0);\nint add(int a, int b) { return a; }\n",
                         "#define return"),
    "c_libc_interposition": ("c", C_HEAD + "int add(int a, int b) { return a - b; }\n"
                             "int memcmp(const void *a, const void *b, size_t n) { return 0; }\n",
                             "memcmp"),
    "cpp_issame_overload": ("cpp", CPP_HEAD + "vector<int> pair_of(int a, int b) { return {a}; }\n"
                            "bool issame(vector<int> a, initializer_list<int> b) { return true; }\n",
                            "issame"),
    "cpp_global_operator": ("cpp", CPP_HEAD + "vector<int> pair_of(int a, int b) { return {a}; }\n"
                            "bool operator==(const vector<int>&, const vector<int>&) { return true; }\n",
                            "comparison operator"),
    "cpp_namespace_std_operator": ("cpp", CPP_HEAD + "vector<int> pair_of(int a, int b) { return {a}; }\n"
                                   "namespace std { bool operator==(const vector<int>&, "
                                   "const vector<int>&) { return true; } }\n", "namespace std"),
    "go_const_true": ("go_test", GO_HEAD + "const true = false\nfunc Add(a, b int) int { return a - b }\n",
                      "`true`"),
    "go_type_int": ("go_test", GO_HEAD + "type int = float64\nfunc Add(a, b int) int { return a - b }\n",
                    "`int`"),
    "go_string_method": ("go_test", GO_HEAD + "type R int\nfunc (R) String() string { return \"3\" }\n"
                         "func Add(a, b int) int { return a - b }\n", "String"),
    "rust_struct_bool": ("rust_test", "struct bool;\nfn add(a: i32, b: i32) -> i32 { a - b }\n",
                         "struct bool"),
    "rust_struct_string": ("rust_test", "pub struct String;\nfn add(a: i32, b: i32) -> i32 { a - b }\n",
                           "struct String"),
    "rust_impl_partial_eq": ("rust_test", "#[derive(Debug)]\npub struct Any;\n"
                             "impl PartialEq<i32> for Any { fn eq(&self, _: &i32) -> bool { true } }\n"
                             "fn add(a: i32, b: i32) -> Any { Any }\n", "PartialEq"),
}
# The tests each shadowing attack targets (HumanEval-X's issame for the C++ overloads).
SHADOW_TESTS = {"cpp_issame_overload": CPP_ISSAME_TESTS, "cpp_global_operator": CPP_ISSAME_TESTS,
                "cpp_namespace_std_operator": CPP_ISSAME_TESTS}

# ---- plain wrong answers and rigged equality that needs no shadowing -----------------------------

WRONG = {
    "c_wrong": ("c", C_HEAD + "int add(int a, int b) { return a - b; }\n"),
    "cpp_wrong": ("cpp", CPP_HEAD + "int add(int a, int b) { return a - b; }\n"),
    "go_wrong": ("go_test", GO_HEAD + "func Add(a, b int) int { return a - b }\n"),
    "rust_wrong": ("rust_test", "fn add(a: i32, b: i32) -> i32 { a - b }\n"),
    # equality rigged through a derive on a type the program returns: refused as a type error
    "rust_derived_type": ("rust_test", "#[derive(Debug, PartialEq)]\npub struct Any;\n"
                          "fn add(a: i32, b: i32) -> Any { Any }\n"),
    # Go: a returned interface value compared with != to an int: another type, never equal
    "go_interface_return": ("go_test", GO_HEAD + "type V struct{}\n"
                            "func Add(a, b int) interface{} { return V{} }\n"),
}


def harness_of(name, language):
    return SHADOW_TESTS.get(name, TESTS[language])


def run(server, language, code_, tests):
    return judge(server, {"language": language, "code": code_, "harness": tests})


def verdict(r):
    return r["status"] if r["status"] != "OK" or not r.get("tests") else r["tests"][0]["verdict"]


def test_honest_answers_pass(server):
    results = in_parallel(lambda l: run(server, l, HONEST[l], TESTS[l]), [(l,) for l in HONEST])
    for r in results:
        assert_accepted(r)
    # the same submission again: the compile cache serves the patched artifact, which passes
    again = in_parallel(lambda l: run(server, l, HONEST[l], TESTS[l]), [(l,) for l in HONEST])
    for r in again:
        assert_accepted(r)
        assert r["compile"]["cached"] is True, r
    cpp = run(server, "cpp", CPP_HEAD + "vector<int> pair_of(int a, int b) { return {a, b}; }\n",
              CPP_ISSAME_TESTS)
    assert_accepted(cpp)


@pytest.mark.parametrize("name", sorted(COMPILE_TIME))
def test_marker_read_at_compile_time(server, name):
    language, program, found = COMPILE_TIME[name]
    r = run(server, language, program, TESTS[language])
    assert not (r.get("reward") == 1), r
    assert verdict(r) in ("WA", "CE", "RE"), r
    if found and verdict(r) == "WA":  # the source was read and parsed: only the marker is missing
        assert found in (r["tests"][0].get("stderr") or ""), r
    if name == "cpp_include_file":
        # the copy of our entry doubles seal's slots in the binary: refused after the compile
        assert verdict(r) == "CE" and "slot" in str(r), r


@pytest.mark.parametrize("name", sorted(EARLY_EXIT))
def test_early_exit(server, name):
    language, program = EARLY_EXIT[name]
    r = run(server, language, program, TESTS[language])
    assert_refused(r)


@pytest.mark.parametrize("name", sorted(SHADOWING))
def test_shadowing_refused(server, name):
    language, program, said = SHADOWING[name]
    r = run(server, language, program, harness_of(name, language))
    assert r["status"] == "CE" and r.get("reward", 0) < 1, r
    assert said in str(r), r  # the reason names the rule


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_answer(server, name):
    language, program = WRONG[name]
    r = run(server, language, program, TESTS[language])
    assert r.get("reward", 0) < 1 and verdict(r) in ("WA", "CE", "RE"), r


# ---- what remains possible in-process (docs/integrity.md) ---------------------------------------
# A scan of the process's own binary: seal's mask bytes have a known form ((hex digit * 7 + i)
# mod 256), so the mask is found in one pass and the other slot by its first bytes; their XOR
# is the marker line. Nothing in one process can keep a process from reading itself.

C_SCAN = C_HEAD + code(r'''
    static int hexdigit(int c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
    int add(int a, int b) {
        static unsigned char bin[8 << 20];
        FILE *f = fopen("/proc/self/exe", "rb");
        size_t n = f ? fread(bin, 1, sizeof(bin), f) : 0;
        for (size_t i = 0; i + 36 <= n; i++) {
            int k = 0;
            while (k < 36 && hexdigit((unsigned char)((bin[i + k] - k) * 183))) k++;
            if (k < 36) continue;
            for (size_t j = 0; j + 36 <= n; j++) {
                unsigned char line[36];
                int ok = 1;
                for (k = 0; k < 36 && ok; k++) line[k] = bin[i + k] ^ bin[j + k];
                ok = line[0] == '\n' && line[1] == 'V' && line[2] == 'S' && line[35] == '\n';
                for (k = 3; k < 35 && ok; k++) ok = hexdigit(line[k]);
                if (ok) { fflush(stdout); write(1, line, 36); _exit(0); }
            }
        }
        return a - b;
    }
''')

GO_SCAN = GO_HEAD.replace('"os"', '"os"\n\t"syscall"') + code('''
    // syscall.Exit: the test binary runs with -test.paniconexit0, which turns os.Exit(0)
    // during a test into a panic
    func hexdigit(c byte) bool { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') }

    func Add(a, b int) int {
    \tbin, _ := os.ReadFile("/proc/self/exe")
    \tfor i := 0; i+36 <= len(bin); i++ {
    \t\tk := 0
    \t\tfor k < 36 && hexdigit(byte((bin[i+k]-byte(k))*183)) {
    \t\t\tk++
    \t\t}
    \t\tif k < 36 {
    \t\t\tcontinue
    \t\t}
    \t\tfor j := 0; j+36 <= len(bin); j++ {
    \t\t\tif bin[i]^bin[j] != '\\n' || bin[i+1]^bin[j+1] != 'V' || bin[i+2]^bin[j+2] != 'S' {
    \t\t\t\tcontinue
    \t\t\t}
    \t\t\tline := make([]byte, 36)
    \t\t\tfor k := range line {
    \t\t\t\tline[k] = bin[i+k] ^ bin[j+k]
    \t\t\t}
    \t\t\tif line[35] == '\\n' {
    \t\t\t\tos.Stdout.Write(line)
    \t\t\t\tsyscall.Exit(0)
    \t\t\t}
    \t\t}
    \t}
    \treturn a - b
    }
''')

RUST_SCAN = code(r'''
    fn add(a: i32, b: i32) -> i32 {
        let bin = std::fs::read("/proc/self/exe").unwrap_or_default();
        let hex = |c: u8| c.is_ascii_digit() || (b'a'..=b'f').contains(&c);
        for i in 0..bin.len().saturating_sub(36) {
            if !(0..36).all(|k| hex(bin[i + k].wrapping_sub(k as u8).wrapping_mul(183))) {
                continue;
            }
            for j in 0..bin.len() - 36 {
                if bin[i] ^ bin[j] != b'\n' || bin[i + 1] ^ bin[j + 1] != b'V' || bin[i + 2] ^ bin[j + 2] != b'S' {
                    continue;
                }
                let line: Vec<u8> = (0..36).map(|k| bin[i + k] ^ bin[j + k]).collect();
                if line[35] == b'\n' {
                    use std::io::Write;
                    let _ = std::io::stdout().write_all(&line);
                    let _ = std::io::stdout().flush();
                    std::process::exit(0);
                }
            }
        }
        // opaque: were the answer provably wrong, rustc would drop seal's code as unreachable
        std::hint::black_box(a - b)
    }
''')

SCANS = {"c": C_SCAN, "cpp": C_SCAN, "go_test": GO_SCAN, "rust_test": RUST_SCAN}


@pytest.mark.parametrize("language", sorted(SCANS))
def test_limit_binary_scan_finds_the_marker(server, language):
    """Documents the limit: a program that scans /proc/self/exe for seal's slots prints the
    marker and passes. Only a grader process (the tests out of the program's process) closes
    this; docs/integrity.md says so."""
    r = run(server, language, SCANS[language], TESTS[language])
    assert r.get("reward") == 1 and verdict(r) == "OK", r


def test_limit_cpp_member_operator_on_a_returned_type(server):
    """Documents the limit: C++ lets the program choose its function's return type, and a
    member operator== of its own class is not refused (MultiPL-E's own prompts define such
    classes). In-process C++ passes this; the C++ grader (tests in another process, values
    decoded into the tests' own types) does not."""
    program = CPP_HEAD + code('''
        struct Any { bool operator==(int) const { return true; } };
        Any add(int, int) { return {}; }
    ''')
    r = run(server, "cpp", program, TESTS["cpp"])
    assert r.get("reward") == 1, r
