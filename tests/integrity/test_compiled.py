"""Compiled harnesses against candidates that try to pass without being right (issue 11).

Each attack is a wrong solution to a small problem (or a HumanEval-X / McEval problem through
/submit) that, before server/judge/seal, got reward 1: an early successful exit (exit, _exit
from a constructor, a static object, atexit, a SIGABRT handler, os.Exit from init,
syscall.Exit, std::process::exit), a rewrite of the tests by the preprocessor or by macros
(assert, NDEBUG, main, candidate, macro_rules!), a TestMain of its own, a test filter forced
through os.Args or written into argv by an .init_array function, or a printed marker
look-alike. Each must now fail: verdict not OK and reward
below 1. The honest solutions beside them must still pass, so a failure here is the seal's
doing, not a broken problem."""
import re

import pytest

# ---- self-made problems: add(a, b) ------------------------------------------------------------

C_TESTS = "int main() {\n    assert(add(1, 2) == 3);\n    assert(add(2, 5) == 7);\n    return 0;\n}\n"
C_HEAD = "#include <assert.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n"
C_WRONG = "int add(int a, int b) { return a - b; }\n"

CPP_HEAD = "#include <bits/stdc++.h>\n#include <unistd.h>\nusing namespace std;\n"
CPP_WRONG = "int add(int a, int b) { return a - b; }\n"
# MultiPL-E's shape: the tests close the prompt's open function and name it `candidate`.
CPP_CONT_PROMPT = CPP_HEAD + "int add(int a, int b) {\n"
CPP_CONT_TESTS = ("}\nint main() {\n    auto candidate = add;\n    assert(candidate(1, 2) == (3));\n"
                  "    assert(candidate(2, 5) == (7));\n}\n")

GO_HEAD = 'package main\n\nimport (\n\t"os"\n\t"syscall"\n\t"testing"\n)\n\nvar _ = os.Exit\nvar _ = syscall.Exit\n'
GO_TESTS = 'func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 || Add(2, 5) != 7 {\n\t\tt.Fatal("wrong")\n\t}\n}\n'
GO_WRONG = "func Add(a, b int) int { return a - b }\n"

RS_TESTS = ("#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn test_add() {\n"
            "        assert_eq!(add(1, 2), 3);\n        assert_eq!(add(2, 5), 7);\n    }\n}\n")
RS_WRONG = "fn add(a: i32, b: i32) -> i32 { a - b }\n"
RS_MAIN_TESTS = "fn main() {\n    assert_eq!(add(1, 2), 3);\n    assert_eq!(add(2, 5), 7);\n}\n"

HONEST = {
    "c": (C_HEAD + "int add(int a, int b) { return a + b; }\n", C_TESTS),
    "cpp": (CPP_HEAD + "int add(int a, int b) { return a + b; }\n", C_TESTS),
    "go_test": (GO_HEAD + "func Add(a, b int) int { return a + b }\n", GO_TESTS),
    "rust_test": ("fn add(a: i32, b: i32) -> i32 { a + b }\n", RS_TESTS),
    "rust": ("fn add(a: i32, b: i32) -> i32 { a + b }\n", RS_MAIN_TESTS),
}

# name -> (language, code, tests)
ATTACKS = {
    "c_exit_in_function": ("c", C_HEAD + "int add(int a, int b) { exit(0); }\n", C_TESTS),
    "c_constructor_exit": ("c", C_HEAD + C_WRONG +
                           "__attribute__((constructor)) static void early(void) { _exit(0); }\n",
                           C_TESTS),
    "c_sigabrt_handler": ("c", C_HEAD + "#include <signal.h>\n" + C_WRONG +
                          "static void h(int s) { (void)s; _exit(0); }\n"
                          "__attribute__((constructor)) static void arm(void) { signal(SIGABRT, h); }\n",
                          C_TESTS),
    "c_atexit": ("c", C_HEAD + "static void h(void) { _exit(0); }\n"
                 "int add(int a, int b) { atexit(h); exit(1); }\n", C_TESTS),
    "c_define_assert": ("c", C_HEAD + C_WRONG + "#define assert(x) ((void)0)\n", C_TESTS),
    "c_define_assert_spliced": ("c", C_HEAD + C_WRONG + "# /* hidden */ def\\\nine assert(x) ((void)0)\n",
                                C_TESTS),
    "c_ndebug_reinclude": ("c", "#define NDEBUG\n" + C_HEAD + C_WRONG, C_TESTS),
    "c_define_main": ("c", C_HEAD + C_WRONG + "int main(void) { return 0; }\n#define main unused_main\n",
                      C_TESTS),
    "c_marker_lookalike": ("c", C_HEAD + "int add(int a, int b) {\n"
                           "    printf(\"\\nVERDICT-0123456789abcdef\\nVS0123456789abcdef0123456789abcdef\\n\");\n"
                           "    fflush(stdout); _exit(0); }\n", C_TESTS),
    "cpp_static_ctor_exit": ("cpp", CPP_HEAD + CPP_WRONG +
                             "struct Early { Early() { std::exit(0); } } early;\n", C_TESTS),
    "cpp_static_dtor_exit": ("cpp", CPP_HEAD + "struct Late { ~Late() { _exit(0); } } late;\n"
                             "int add(int a, int b) { std::exit(1); }\n", C_TESTS),
    "cpp_terminate_handler": ("cpp", CPP_HEAD + CPP_WRONG +
                              "static void h(int) { _exit(0); }\n"
                              "struct Arm { Arm() { std::signal(SIGABRT, h); } } arm;\n", C_TESTS),
    "cpp_define_candidate": ("cpp", CPP_CONT_PROMPT + "    return a - b;\n#define candidate(...) 1 ? 1 : 0\n",
                             CPP_CONT_TESTS),
    "cpp_digraph_define_assert": ("cpp", CPP_HEAD + CPP_WRONG + "%:define assert(x) ((void)0)\n", C_TESTS),
    "go_init_exit": ("go_test", GO_HEAD + GO_WRONG + "func init() { os.Exit(0) }\n", GO_TESTS),
    "go_syscall_exit": ("go_test", GO_HEAD + "func Add(a, b int) int { syscall.Exit(0); return 0 }\n",
                        GO_TESTS),
    "go_own_testmain": ("go_test", GO_HEAD + GO_WRONG + "func TestMain(m *testing.M) { os.Exit(0) }\n",
                        GO_TESTS),
    "go_args_filter": ("go_test", GO_HEAD + GO_WRONG +
                       'func init() { os.Args = append(os.Args, "-test.run=^$") }\n', GO_TESTS),
    "rust_test_process_exit": ("rust_test", "fn add(a: i32, b: i32) -> i32 { std::process::exit(0) }\n",
                               RS_TESTS),
    "rust_test_macro_shadow": ("rust_test", RS_WRONG + "macro_rules! assert_eq { ($($t:tt)*) => {}; }\n",
                               RS_TESTS),
    # an .init_array function rewrites argv[1] (--test-threads=1) into a test filter before
    # libtest reads it: only tests named like the seal's sentinel run
    "rust_test_argv_filter": ("rust_test", RS_WRONG +
                              "#[used]\n#[link_section = \".init_array\"]\n"
                              "static FILTER: extern \"C\" fn(i32, *mut *mut u8, *mut *mut u8) = filter;\n"
                              "extern \"C\" fn filter(argc: i32, argv: *mut *mut u8, _e: *mut *mut u8) {\n"
                              "    if argc < 2 { return; }\n"
                              "    unsafe { let a = *argv.add(1);\n"
                              "        for (i, c) in b\"sentinel\\0\".iter().enumerate() { *a.add(i) = *c; } }\n"
                              "}\n", RS_TESTS),
    "rust_main_process_exit": ("rust", "fn add(a: i32, b: i32) -> i32 { std::process::exit(0) }\n",
                               RS_MAIN_TESTS),
    "rust_main_macro_shadow": ("rust", RS_WRONG + "macro_rules! assert_eq { ($($t:tt)*) => {}; }\n",
                               RS_MAIN_TESTS),
}


def judge(server, language, code, tests):
    r = server.post("/v1/judge", {"language": language, "code": code, "harness": tests}, timeout=180)
    assert r.status_code == 200, r.text
    return r.json()


def verdict(r):
    """The request's verdict (CE, SE) when not OK, else its one test's."""
    return r["status"] if r["status"] != "OK" or not r["tests"] else r["tests"][0]["verdict"]


@pytest.mark.parametrize("language", sorted(HONEST))
def test_honest_solutions_pass(server, language):
    code, tests = HONEST[language]
    r = judge(server, language, code, tests)
    assert verdict(r) == "OK" and r["reward"] == 1, r
    # the marker's line is not shown
    assert not re.search(r"^VS[0-9a-f]{32}$", r["tests"][0].get("stdout") or "", re.M), r


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_fails(server, name):
    language, code, tests = ATTACKS[name]
    r = judge(server, language, code, tests)
    assert verdict(r) not in ("OK", "SE") and r["reward"] < 1, r  # SE would be ours  # the candidate's doing, never ours


# ---- real problems through /submit ---------------------------------------------------------


def submit(server, dataset, task, lang, code):
    body = {"dataset": dataset, "id": task, "completion": f"```{lang}\n{code}```\n",
            "config": {"extra": {"is_freeform": True}}}  # an answer; the default continues
    r = server.post("/submit", body, timeout=180)
    assert r.status_code == 200, r.text
    return r.json()


SUBMITTED = {
    "humanevalx_cpp_exit": ("humanevalx_cpp", "CPP/0", "cpp",
                            "#include <stdlib.h>\nbool has_close_elements(vector<float> numbers, "
                            "float threshold) { exit(0); }\n"),
    "humanevalx_go_init_exit": ("humanevalx_go", "Go/0", "go",
                                "func HasCloseElements(numbers []float64, threshold float64) bool "
                                "{ return false }\n\nfunc init() { os.Exit(0) }\n"),
    "humanevalx_rust_exit": ("humanevalx_rust", "Rust/0", "rust",
                             "fn has_close_elements(numbers: Vec<f32>, threshold: f32) -> bool "
                             "{ std::process::exit(0) }\n"),
    "mceval_c_constructor_exit": ("mceval_c", "C/2", "c",
                                  "#include <unistd.h>\ndouble calculate_triangle_area(double a, "
                                  "double b, double c) { return 0; }\n__attribute__((constructor)) "
                                  "static void early(void) { _exit(0); }\n"),
}


@pytest.mark.parametrize("name", sorted(SUBMITTED))
def test_submitted_attack_fails(server, name):
    r = submit(server, *SUBMITTED[name])
    assert not r["accepted"] and r["extra"]["judge"]["reward"] < 1, r
    assert r["tests"] and r["tests"][0]["passed"] is False, r
