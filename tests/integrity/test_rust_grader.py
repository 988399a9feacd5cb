"""Rust harnesses (rust, rust_test) judged by a compiled grader (server/judge/graded.h,
languages/rust/): the tests are compiled with a proxy of the prompt's declaration
(verdict_proxy!) into a binary of their own, run from a sealed memory file as another uid; the
candidate's binary holds its code and a host (verdict_host!, the entry C's `main` of a
`#![no_main]` crate) that answers calls. Every attack below is a wrong answer written as a
hostile policy would write it, sent the way MultiPL-E's and HumanEval-X's problems send theirs
(/v1/judge with the prompt as `harness_setup` and `entry_point`, or /submit on the real
problems): early exits in every form Rust offers (process::exit, abort, a raw exit_group, from
the call, a static initializer, a thread, a `fn main` of its own), killing every process it can
see, shadowing the prompt's types (`struct bool`, `struct String`, an always-equal
`PartialEq`), a `verdict_host!` or `verdict_proxy!` of its own, printing libtest's success
lines, garbage, early and deep lines on the channel, reading the sources, binaries and /proc for
the expected values, and a plain wrong answer. None may get reward 1; the controls pass, a
panicking answer is RE and a wrong one WA."""
import base64
import shutil

import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit
from conftest import _api

# A problem of MultiPL-E's shape: the prompt ends with the entry point's declaration, the
# completion continues its body, and the tests close it and run from main; the expected values
# appear nowhere but the tests.
SETUP = code("""
    use std::collections::HashMap;
    /// The list sorted, and a constant appended.
    fn sorted_plus(v: Vec<i64>) -> Vec<i64> {
""")
TESTS = code("""
    }

    fn main() {
        let candidate = sorted_plus;
        assert_eq!(candidate(vec![3, 1, 2]), vec![1, 2, 3, 982451653]);
        assert_eq!(candidate(vec![]), vec![982451653]);
    }
""")
# HumanEval-X's shape: a #[cfg(test)] module, compiled with --test (rust_test)
TESTS_MOD = code("""
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn test_sorted_plus() {
            assert_eq!(sorted_plus(vec![3, 1, 2]), vec![1, 2, 3, 982451653]);
            assert!(sorted_plus(vec![]) == vec![982451653]);
        }
    }
""")
HONEST = "    let mut r = v.clone();\n    r.sort();\n    r.push(982451653);\n    r\n"
WRONG = "    v\n"
# after a continuation: the function closed, items of the answer's own, and a function left
# open for the tests' leading brace to close
AFTER = "    v\n}\n"
REOPEN = "fn unused_tail() {\n"

# Looks everywhere a file might hold the tests' expected value (a number of 9 digits, never
# spelled out here): its own sources and binary, the work dir, /proc (cmdline, environ, every
# fd, the grader's executable), /tmp.
SNOOP = code(r"""
    fn scan(d: &[u8], found: &mut i64) {
        let mut i = 0;
        while i < d.len() {
            let mut j = i;
            let mut n: i64 = 0;
            while j < d.len() && d[j].is_ascii_digit() && j - i < 12 {
                n = n * 10 + (d[j] - b'0') as i64;
                j += 1;
            }
            if j - i == 9 && n != 123456789 {
                *found = n;
            }
            i = j + 1;
        }
    }
    fn read_all(p: &std::path::Path, found: &mut i64) {
        use std::io::Read;
        if !std::fs::metadata(p).map(|m| m.is_file()).unwrap_or(false) {
            return; /* a pipe (the channel) would block */
        }
        let mut d = Vec::new();
        if let Ok(f) = std::fs::File::open(p) {
            let _ = f.take(16 << 20).read_to_end(&mut d); /* pagemap is endless */
            scan(&d, found);
        }
    }
    fn walk(dir: &std::path::Path, depth: usize, found: &mut i64) {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                if e.path().is_dir() && depth > 0 {
                    walk(&e.path(), depth - 1, found);
                } else {
                    read_all(&e.path(), found);
                }
            }
        }
    }
    fn snoop() -> i64 {
        let mut found = 0;
        if let Ok(rd) = std::fs::read_dir("/proc") {
            for e in rd.flatten() {
                for f in ["cmdline", "environ", "exe", "fd/3", "fd/4", "fd/5"] {
                    read_all(&e.path().join(f), &mut found);
                }
            }
        }
        for d in ["/proc/self/fd", "/tmp", "/var/cache/verdict", "/work"] {
            walk(std::path::Path::new(d), 2, &mut found);
        }
        let mut here = 0; /* the work dir's own files, before anything else */
        walk(std::path::Path::new("."), 2, &mut here);
        if here > 0 { here } else { found }
    }
""")

EXIT_GROUP = "    unsafe { std::arch::asm!(\"syscall\", in(\"rax\") 231, in(\"rdi\") 0, options(noreturn)) }\n"
KILL_ALL = ("    unsafe {{ std::arch::asm!(\"syscall\", in(\"rax\") 62, in(\"rdi\") -1i64, in(\"rsi\") {sig}, "
            "lateout(\"rax\") _, out(\"rcx\") _, out(\"r11\") _) }}\n")


def fd4(msg):
    return ("    { use std::io::Write; use std::os::fd::FromRawFd;\n"
            f"      let mut f = unsafe {{ std::fs::File::from_raw_fd(4) }}; let _ = f.write_all({msg}); std::mem::forget(f); }}\n")


# name -> the continuation of the prompt (what follows `fn sorted_plus(v: Vec<i64>) -> Vec<i64> {`)
ATTACKS = {
    "plain_wrong": WRONG,
    "process_exit_0": "    std::process::exit(0);\n",
    "abort": "    std::process::abort();\n",
    "raw_exit_group": EXIT_GROUP,
    "thread_exit": "    std::thread::spawn(|| std::process::exit(0)).join().ok();\n    v\n",
    "static_initializer_exit": AFTER + code("""
        #[used]
        #[link_section = ".init_array"]
        static EARLY: extern "C" fn() = { extern "C" fn f() { std::process::exit(0) } f };
    """) + REOPEN,
    "own_main_exit": AFTER + "fn main() { std::process::exit(0) }\n" + REOPEN,
    "kill_every_process": KILL_ALL.format(sig=9) + "    v\n",
    "stop_every_process": KILL_ALL.format(sig=19) + "    v\n",
    "shadow_bool_and_eq": AFTER + code("""
        #[derive(Debug)]
        #[allow(non_camel_case_types)]
        pub struct bool;
        impl PartialEq for bool { fn eq(&self, _: &bool) -> core::primitive::bool { true } }
    """) + REOPEN,
    "always_equal_vec": AFTER + code("""
        #[derive(Debug)]
        pub struct Vec<T>(std::vec::Vec<T>);
        impl<T, U> PartialEq<U> for Vec<T> { fn eq(&self, _: &U) -> bool { true } }
        impl<T> Vec<T> { pub fn clone(&self) -> Self { panic!() } }
    """) + REOPEN,
    "own_host_macro": AFTER + code("""
        macro_rules! verdict_host { ($($t:tt)*) => { fn main() { std::process::exit(0) } } }
    """) + REOPEN,
    "own_proxy_macro": AFTER + code("""
        macro_rules! verdict_proxy { ($($t:tt)*) => { fn sorted_plus(v: Vec<i64>) -> Vec<i64> { vec![] } } }
    """) + REOPEN,
    "fake_libtest_print": ("    println!(\"running 1 test\\ntest tests::test_sorted_plus ... ok\\n\\n"
                           "test result: ok. 1 passed; 0 failed\");\n    std::process::exit(0);\n"),
    "fd4_fake_answers": fd4(r'b"{\"ok\":[1,2,3,982451653]}\n{\"ok\":[982451653]}\n"') + "    v\n",
    "fd4_garbage": fd4(r'b"test result: ok\n{\"ok\":true} trailing\n"') + WRONG,
    "fd4_deep_line": fd4('"[".repeat(1 << 22).as_bytes()') + WRONG,
    "snoop_files_and_proc": ("    let mut r = v.clone();\n    r.sort();\n    let f = snoop();\n"
                             "    if f > 0 { r.push(f); r } else { v }\n}\n" + SNOOP + REOPEN),
    "huge_answer": "    vec![0; 20 << 20]\n",
    # what passes a sealed (in-process) Rust harness: seal's marker found in its own binary
    # (tests/integrity/test_compiled_more.py), printed, then an exit
    "binary_scan_marker": code(r'''
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
        std::hint::black_box(v)
    '''),
    "panic_then_exit_in_hook": ("    std::panic::set_hook(Box::new(|_| std::process::exit(0)));\n"
                                "    panic!(\"no\");\n"),
}

# whole answers (uses and the function), sent as the code after no prompt
WHOLE = {
    "whole_own_c_main": ("#[no_mangle]\npub extern \"C\" fn main() -> i32 { 0 }\n"
                         "fn sorted_plus(v: Vec<i64>) -> Vec<i64> { v }\n"),
    "whole_own_wire_module": ("mod verdict_wire { pub fn parse() {} }\n"
                              "fn sorted_plus(v: Vec<i64>) -> Vec<i64> { v }\n"),
    "whole_main_exit": ("fn main() { std::process::exit(0) }\n"
                        "fn sorted_plus(v: Vec<i64>) -> Vec<i64> { v }\n"),
}

# Attacks that break their own program's build: CE, the program's verdict (reward 0).
CE_OK = {"whole_own_c_main", "whole_own_wire_module", "shadow_bool_and_eq", "always_equal_vec",
         "own_host_macro"}


def judge_body(src, whole, lang="rust", tests=TESTS):
    # a whole answer closes its own function: the tests' leading brace is not sent
    return {"language": lang, "code": src if whole else SETUP + src,
            "harness": tests.split("\n", 1)[1] if whole else tests,
            "harness_setup": SETUP, "entry_point": "sorted_plus",
            "limits": {"time_ms": 5000, "wall_ms": 30000}}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    # the same attacks against HumanEval-X's shape (rust_test), a few of each kind
    mods = ["process_exit_0", "static_initializer_exit", "shadow_bool_and_eq", "fake_libtest_print",
            "plain_wrong", "binary_scan_marker"]
    names += [f"test_mod {n}" for n in mods]
    bodies += [judge_body(ATTACKS[n], False, "rust_test", TESTS_MOD) for n in mods]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b, timeout=240), [(b,) for b in bodies])))


ALL = sorted(ATTACKS) + sorted(WHOLE) + [f"test_mod {n}" for n in
                                         ("process_exit_0", "static_initializer_exit",
                                          "shadow_bool_and_eq", "fake_libtest_print", "plain_wrong",
                                          "binary_scan_marker")]


@pytest.mark.parametrize("name", ALL)
def test_attack_refused(results, name):
    res = results[name]
    assert res.get("grading") == "isolated", (name, res.get("grading"), res)
    if name.split()[-1] in CE_OK and res.get("status") == "CE":
        assert res.get("reward") == 0, (name, res)
        return
    assert_refused(res)


def test_controls(srv):
    ok, ok_mod, whole, raised, wrong, wrong_mod = in_parallel(lambda b: judge(srv, b, timeout=240), [
        (judge_body(HONEST, False),),
        (judge_body(HONEST, False, "rust_test", TESTS_MOD),),
        (judge_body("fn sorted_plus(mut v: Vec<i64>) -> Vec<i64> {\n    v.sort();\n    v.push(982451653);\n    v\n}\n", True),),
        (judge_body("    panic!(\"no\");\n", False),),
        (judge_body(WRONG, False),),
        (judge_body(WRONG, False, "rust_test", TESTS_MOD),)])
    for res in (ok, ok_mod, whole):
        assert_accepted(res)
        assert res["grading"] == "isolated", res
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "it raised" in raised["tests"][0]["stderr"] and "no" in raised["tests"][0]["stderr"], raised
    for res in (wrong, wrong_mod):
        assert res["tests"][0]["verdict"] == "WA", res
        assert "verdict grader: a check failed" in res["tests"][0]["stderr"], res


def test_templates_newer_than_the_runtime_rlib(tmp_path):
    """The runtime compiled once (scripts/build-rust-runtime.sh) is used only for the very
    texts it was built from: with languages/rust/ changed since, both compile steps compile the
    texts they were given, and that code is the code that runs (each change below is seen in
    the verdicts), never the library's."""
    langs = tmp_path / "languages"
    shutil.copytree(_api.LANGUAGES, langs)
    edits = {"grader.rs": ('"verdict grader: a check failed: {}\\n"', '"verdict grader (newer): a check failed: {}\\n"'),
             "host.rs": ('raised("panic", &m)', 'raised("panic", &::std::format!("newer host: {}", m))')}
    for name, (old, new) in edits.items():
        path = langs / "rust" / name
        text = path.read_text()
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new))
    s = _api.Server(cells=2, extra=("--languages", str(langs)))
    try:
        ok, raised, wrong = in_parallel(lambda b: judge(s, b, timeout=600), [
            (judge_body(HONEST, False),),
            (judge_body("    panic!(\"no\");\n", False),),
            (judge_body(WRONG, False, "rust_test", TESTS_MOD),)])
    finally:
        s.stop()
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert raised["tests"][0]["verdict"] == "RE" and "newer host: no" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong
    assert "verdict grader (newer): a check failed" in wrong["tests"][0]["stderr"], wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body, timeout=240))


# Values of every kind the wire carries, through references and mut bindings: a tuple of a
# string, a char, a float and a bool; a map of vectors; an Option; a slice and a &str
# argument; a &mut Vec the answer may change.
TYPED_SETUP = code("""
    use std::collections::{HashMap, HashSet};
    fn mix(s: &str, xs: &[i32], mut m: HashMap<String, Vec<Option<u8>>>, w: &mut Vec<char>, t: (f64, bool)) -> (String, char, f64, HashSet<i64>, Option<Vec<(i64, i64)>>) {
""")
TYPED_BODY = code("""
        m.insert(String::from("k"), vec![None]);
        w.push('z');
        (format!("{}{}{}", s, xs.len(), m.len()), 'é', t.0 * 2.0, [1, 2].into_iter().collect(), if t.1 { Some(vec![(1, -2)]) } else { None })
""")
TYPED_TESTS = code("""
    }

    fn main() {
        let mut w = vec!['a'];
        let mut m = HashMap::new();
        m.insert(String::from("a"), vec![Some(1u8)]);
        let (s, c, x, h, o) = mix("ab\\"\\n", &[1, 2, 3], m, &mut w, (1.25, true));
        assert_eq!(s, "ab\\"\\n32");
        assert_eq!(c, 'é');
        assert_eq!(x, 2.5);
        assert_eq!(h, [2, 1].into_iter().collect::<HashSet<i64>>());
        assert_eq!(o, Some(vec![(1, -2)]));
        let (_, _, _, _, o) = mix("", &[], HashMap::new(), &mut w, (f64::NAN, false));
        assert_eq!(o, None);
    }
""")


def test_typed_values_cross(srv):
    res = judge(srv, {"language": "rust", "code": TYPED_SETUP + TYPED_BODY, "harness": TYPED_TESTS,
                      "harness_setup": TYPED_SETUP, "entry_point": "mix",
                      "limits": {"time_ms": 5000, "wall_ms": 30000}}, timeout=240)
    assert_accepted(res)
    assert res["grading"] == "isolated", res


def test_bare_judge_takes_the_code_declaration(srv):
    """No harness_setup: the code's own declaration is the proxy's (plain only)."""
    good = "fn twice(x: i64) -> i64 { x * 2 }\n"
    tests = "fn main() { assert_eq!(twice(21), 42); assert_eq!(twice(-1), -2); }\n"
    ok, bad = in_parallel(lambda c: judge(srv, {"language": "rust", "code": c, "harness": tests,
                                                "entry_point": "twice"}, timeout=240),
                          [(good,), ("fn twice(x: i64) -> i64 { std::process::exit(0) }\n",)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_refused(bad)


def test_generic_entry_point_stays_sealed(srv):
    """A declaration the proxy cannot take (generic) is judged in-process, sealed, as before."""
    setup = "fn biggest<T: PartialOrd + Copy>(v: Vec<T>) -> T {\n"
    tests = "}\nfn main() { assert_eq!(biggest(vec![1, 3, 2]), 3); }\n"
    ok = judge(srv, {"language": "rust", "code": setup + "    let mut b = v[0];\n    for x in v { if x > b { b = x; } }\n    b\n",
                     "harness": tests, "harness_setup": setup, "entry_point": "biggest"}, timeout=240)
    assert_accepted(ok)
    assert ok["grading"] == "in-process", ok


HE0 = "HumanEval_0_has_close_elements"
HE0_HEAD = "fn has_close_elements(numbers: Vec<f64>, threshold: f64) -> bool {\n"
HX0_HEAD = "fn has_close_elements(numbers:Vec<f32>, threshold: f32) -> bool{\n"
SUBMITTED = {
    "exit_in_call": ("multiple_rs", HE0, HE0_HEAD + "    std::process::exit(0)\n}\n"),
    "wrong": ("multiple_rs", HE0, HE0_HEAD + "    true\n}\n"),
    "humanevalx_exit": ("humanevalx_rust", "Rust/0", HX0_HEAD + "    std::process::exit(0)\n}\n"),
    "humanevalx_shadow_bool": ("humanevalx_rust", "Rust/0",
                               "#[derive(Debug)]\n#[allow(non_camel_case_types)]\npub struct bool;\n"
                               "impl PartialEq for bool { fn eq(&self, _: &bool) -> core::primitive::bool { true } }\n"
                               "fn has_close_elements(numbers:Vec<f32>, threshold: f32) -> bool { bool }\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, SUBMITTED[k][0], SUBMITTED[k][1], SUBMITTED[k][2],
                                       fence="rust", timeout=240),
                      [(k,) for k in sorted(SUBMITTED)])
    for k, res in zip(sorted(SUBMITTED), got):
        if k == "humanevalx_shadow_bool" and judged(res).get("status") == "CE":
            assert judged(res)["reward"] == 0 and not res["accepted"], res  # its bool fails its build
            continue
        assert_refused(res)


def test_submitted_controls(srv):
    body = ("    for i in 0..numbers.len() {\n        for j in 0..numbers.len() {\n"
            "            if i != j && (numbers[i] - numbers[j]).abs() < threshold {\n"
            "                return true;\n            }\n        }\n    }\n    false\n}\n")
    he, hx = in_parallel(lambda d, i, c: submit(srv, d, i, c, fence="rust", timeout=240), [
        ("multiple_rs", HE0, HE0_HEAD + body),
        ("humanevalx_rust", "Rust/0", HX0_HEAD + body)])
    for res in (he, hx):
        assert_accepted(res)
        assert judged(res)["grading"] == "isolated", res
