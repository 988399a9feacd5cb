"""C++ harnesses judged by a compiled grader (server/judge/graded.h, languages/cpp/): the tests
run in a program of their own, as another uid, executed from memory; the candidate's process
holds its code and a host that answers calls. Every attack below is a wrong answer written as a
hostile policy would write it, sent the way the datasets send theirs (/v1/judge with the
prompt as `harness_setup` and `entry_point`, or /submit on the real problems): early exits in
every form, equality rigged on std types (global, in namespace std), an overload of the tests'
own helper, macros, reading the sources, the binaries and /proc for the expected values
(.incbin __FILE__, /proc/self/exe, every /proc/PID), killing or stopping the grader, garbage on
the channel, a plain wrong answer. None may get reward 1; the controls pass, a throwing answer
is RE and a wrong one WA."""
import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judged, submit

# A problem of the datasets' shape (MultiPL-E: the prompt ends with the open function, the
# tests close it), whose expected values appear nowhere but in the tests.
SETUP = code("""
    #include <bits/stdc++.h>
    #include <unistd.h>
    #include <signal.h>
    using namespace std;
    // The list sorted, and a constant appended.
    vector<long> sorted_plus(vector<long> v) {
""")
TESTS = code("""
    }
    bool issame(vector<long> a, vector<long> b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return false;
        return true;
    }
    int main() {
        auto candidate = sorted_plus;
        assert(issame(candidate({3, 1, 2}), {1, 2, 3, 982451653}));
        assert(issame(candidate({}), {982451653}));
        assert(candidate({5, 4}) == (vector<long>({4, 5, 982451653})));
    }
""")
HONEST = "    sort(v.begin(), v.end());\n    v.push_back(982451653);\n    return v;\n"
WRONG = "    return v;\n"
# Code before the prompt's function (a whole answer), then the function.
PRE = "#include <bits/stdc++.h>\n#include <unistd.h>\n#include <signal.h>\nusing namespace std;\n"
FN = "vector<long> sorted_plus(vector<long> v) {\n"

# Looks everywhere a file might hold the tests' expected value and returns it if found:
# the program's own source (.incbin __FILE__) and binary, its work dir, every /proc entry it
# can open (exe, cmdline, environ, fds, mem maps of other processes), the cache directory.
SNOOP = code(r"""
    __asm__(".pushsection .rodata\n.global own_src\nown_src:\n.incbin \"" __FILE__ "\"\n.byte 0\n.popsection\n");
    extern "C" const char own_src[];
    long found = 0;
    static void scan(const std::string &data) {
        // the tests' text (in their source, or in a binary's assert messages), never spelled
        // out here: this program's own binary must not match
        std::string pat = "{ ,)}{(etadidnac";
        std::reverse(pat.begin(), pat.end());
        size_t at = data.find(pat);
        long x = at == std::string::npos ? 0 : std::atol(data.c_str() + at + pat.size());
        if (x > 0) found = x;
    }
    static void scan_file(const std::string &path) {
        std::ifstream f(path, std::ios::binary);
        if (!f) return;
        std::string s((std::istreambuf_iterator<char>(f)), {});
        scan(s.substr(0, 64 << 20));
    }
    void snoop() {
        scan(own_src);
        scan_file("/proc/self/exe");
        for (auto &e : std::filesystem::recursive_directory_iterator(".",
                 std::filesystem::directory_options::skip_permission_denied))
            if (e.is_regular_file()) scan_file(e.path());
        for (auto &p : std::filesystem::directory_iterator("/proc")) {
            std::string d = p.path();
            for (const char *f : {"/exe", "/cmdline", "/environ", "/maps", "/cwd/grader.cpp"})
                scan_file(d + f);
            std::error_code ec;
            for (auto &fd : std::filesystem::directory_iterator(d + "/fd", ec))
                if (std::filesystem::is_regular_file(fd.path(), ec)) scan_file(fd.path());
        }
        for (const char *root : {"/tmp", "/var/tmp", "/dev/shm", "/var/lib/verdict", "/w"}) {
            std::error_code ec;
            for (auto it = std::filesystem::recursive_directory_iterator(root,
                     std::filesystem::directory_options::skip_permission_denied, ec);
                 it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
                if (it->is_regular_file(ec)) scan_file(it->path());
        }
    }
""")

# name -> the code (the prompt's continuation unless it starts with #include: a whole answer)
ATTACKS = {
    "plain_wrong": WRONG,
    "exit_0": "    exit(0);\n",
    "underscore_exit_0": "    _exit(0);\n",
    "quick_exit_0": "    quick_exit(0);\n",
    "std_terminate_handler": "    std::set_terminate([] { _exit(0); });\n    throw 1;\n",
    "abort_handler": "    signal(SIGABRT, [](int) { _exit(0); });\n    return v;\n",
    "atexit_then_exit": "    atexit([] { _exit(0); });\n    exit(1);\n",
    "kill_everyone": "    kill(-1, SIGKILL);\n    kill(0, SIGKILL);\n    kill(getppid(), SIGKILL);\n    return v;\n",
    "stop_everyone": "    kill(-1, SIGSTOP);\n    raise(SIGSTOP);\n    return v;\n",
    "fd4_garbage": "    dprintf(4, \"PASS\\n{\\\"ok\\\":[1,2,3,982451653]} trailing\\n\");\n    return v;\n",
    "fd4_early_answers": ("    static bool sent = false;\n    if (!sent) { sent = true;\n"
                          "        dprintf(4, \"{\\\"ok\\\":[1,2,3,982451653]}\\n{\\\"ok\\\":[982451653]}\\n\"); }\n"
                          "    return v;\n"),
    "fd4_deep_line": ("    std::string s(8 << 20, '[');\n    s = \"{\\\"ok\\\":\" + s + \"\\n\";\n"
                      "    write(4, s.data(), s.size());\n    pause();\n    return v;\n"),
    "fd4_close_and_exit": "    close(4);\n    close(3);\n    return v;\n",
    "fake_pass_print": "    printf(\"OK\\nPASS\\nAll tests passed\\n\");\n    fflush(stdout);\n    _exit(0);\n",
    "nan_float_answer": "    dprintf(4, \"{\\\"ok\\\":{\\\"float\\\":\\\"nan\\\"}}\\n\");\n    pause();\n    return v;\n",
    "static_ctor_exit": "    return v;\n}\nstruct Early { Early() { std::exit(0); } } early;\nvoid unused() {\n",
    "static_ctor_fork_answer": ("    return v;\n}\nstruct Early { Early() { if (fork() == 0) { pause(); } } } early;\n"
                                "void unused() {\n"),
    "global_operator_eq": ("    return v;\n}\nbool operator==(const vector<long>&, const vector<long>&) "
                           "{ return true; }\nbool operator!=(const vector<long>&, const vector<long>&) "
                           "{ return false; }\nvoid unused() {\n"),
    "namespace_std_operator_eq": ("    return v;\n}\nnamespace std { bool operator==(const vector<long>&, "
                                  "const vector<long>&) { return true; }\n"
                                  "bool operator!=(const vector<long>&, const vector<long>&) { return false; } }\n"
                                  "void unused() {\n"),
    "issame_overload": ("    return v;\n}\nbool issame(vector<long>, vector<long>) { return true; }\n"
                        "template <class A, class B> bool issame(A, B) { return true; }\nvoid unused() {\n"),
    "define_assert": "    return v;\n}\n#define assert(x) ((void)0)\n#define issame(...) true\nvoid unused() {\n",
    "undef_and_redefine": ("    return v;\n}\n#undef assert\n#define assert(x) (void)sizeof(x)\n"
                           "#define NDEBUG 1\n#define main main_unused\nvoid unused() {\n"),
    "snoop_files_and_proc": ("    void snoop();\n    extern long found;\n    snoop();\n    if (found) { sort(v.begin(), v.end()); v.push_back(found); }\n"
                             "    return v;\n}\n" + SNOOP + "void unused() {\n"),
}
# Whole answers: the function's definition comes from the answer, after code of its own.
WHOLE = {
    "whole_static_ctor_quick_exit": (PRE + "struct E { E() { quick_exit(0); } } e;\n" + FN + WRONG + "}\n"),
    "whole_overload_entry": (PRE + FN + WRONG + "}\nvector<long> sorted_plus(initializer_list<long> l) "
                             "{ return vector<long>(l); }\n"),
}


def send(src):
    return judge_body(src, src.startswith("#include"))


def judge_body(src, whole):
    return {"language": "cpp", "code": src if whole else SETUP + src,
            "harness": TESTS.split("\n", 1)[1] if whole else TESTS,
            "harness_setup": SETUP, "entry_point": "sorted_plus",
            "limits": {"time_ms": 3000}}


@pytest.fixture(scope="module")
def results(srv):
    names = sorted(ATTACKS) + sorted(WHOLE)
    bodies = [judge_body(ATTACKS[n], False) if n in ATTACKS else judge_body(WHOLE[n], True)
              for n in names]
    return dict(zip(names, in_parallel(lambda b: judge(srv, b), [(b,) for b in bodies])))


# Attacks that break their own program's build: refused as CE (the program's verdict, reward 0).
# `#define main` renames the host's main: the program no longer links.
CE_OK = {"undef_and_redefine"}


@pytest.mark.parametrize("name", sorted(ATTACKS) + sorted(WHOLE))
def test_attack_refused(results, name):
    res = results[name]
    if name in CE_OK and res.get("status") == "CE":
        assert res.get("reward") == 0 and res["compile"]["verdict"] == "CE", res
        return
    assert_refused(res)


def test_controls(srv):
    ok, whole, raised, wrong = in_parallel(lambda b: judge(srv, b), [
        (judge_body(HONEST, False),), (judge_body(PRE + FN + HONEST + "}\n", True),),
        (judge_body("    throw std::runtime_error(\"no\");\n", False),),
        (judge_body(WRONG, False),)])
    assert_accepted(ok)
    assert_accepted(whole)
    assert raised["tests"][0]["verdict"] == "RE", raised
    assert "raised" in raised["tests"][0]["stderr"], raised
    assert wrong["tests"][0]["verdict"] == "WA", wrong


def test_snoop_works_where_the_tests_are_readable(srv):
    """The snooping attack is refused for want of anything to read, not for failing to try:
    with the tests' text in a file of its work dir, it passes."""
    import base64
    body = judge_body(ATTACKS["snoop_files_and_proc"], False)
    body["files"] = {"notes/leak.txt": base64.b64encode(TESTS.encode()).decode()}
    assert_accepted(judge(srv, body))


def test_typed_values_cross(srv):
    """Values of the datasets' types cross both ways as the tests' own types: tuples, maps,
    optionals, nested vectors, strings with every byte, chars, floats and bools."""
    setup = code("""
        #include <bits/stdc++.h>
        using namespace std;
        tuple<long, float, bool, char, string, optional<long>, map<string, vector<long>>, set<long>> mix(
            vector<vector<string>> a, pair<long, double> p, optional<string> o, char c) {
    """)
    body = code("""
            map<string, vector<long>> m;
            for (auto &r : a) for (auto &s : r) m[s].push_back((long)s.size());
            return {p.first * 2, (float)p.second, c == 'z', (char)(c + 1), (o ? *o : "none") + "\\x01\\xff\\"\\\\",
                    o ? optional<long>(o->size()) : nullopt, m, {3, 1, 2}};
        }
    """)
    tests = code("""
        int main() {
            auto r = mix({{"a", "bb"}, {"a"}}, {21, 0.5}, "q\\n", 'y');
            assert(get<0>(r) == 42 && get<1>(r) == 0.5f && !get<2>(r) && get<3>(r) == 'z');
            assert(get<4>(r) == string("q\\n\\x01\\xff\\"\\\\") && get<5>(r) == 2);
            assert(get<6>(r) == (map<string, vector<long>>{{"a", {1, 1}}, {"bb", {2}}}));
            assert(get<7>(r) == (set<long>{1, 2, 3}));
            auto n = mix({}, {-9000000000, -1e300}, nullopt, 'z');
            assert(get<0>(n) == -18000000000 && get<2>(n) && !get<5>(n) && get<4>(n).substr(0, 4) == "none");
        }
    """)
    res = judge(srv, {"language": "cpp", "code": setup + body, "harness": tests,
                      "harness_setup": setup, "entry_point": "mix"})
    assert_accepted(res)


def test_bare_judge_takes_the_code_declaration(srv):
    """Without harness_setup the declaration is the code's, and must be plain: one that
    smuggles code into the grader is CE, never run."""
    tests = "int main() {\n    assert(twice(4) == 8);\n}\n"
    ok = judge(srv, {"language": "cpp", "code": "#include <bits/stdc++.h>\nlong twice(long x) { return 2 * x; }\n",
                     "harness": tests, "entry_point": "twice"})
    assert_accepted(ok)
    smuggle = ("#include <bits/stdc++.h>\nlong twice(long x = ([] { std::exit(0); return 0; }()))"
               " { return x; }\n")
    bad = judge(srv, {"language": "cpp", "code": smuggle, "harness": tests, "entry_point": "twice"})
    assert bad["status"] == "CE" and bad["reward"] < 1, bad


# ---- the datasets' own problems through /submit --------------------------------------------

SUBMITTED = {
    "humanevalx_exit": ("humanevalx_cpp", "CPP/0",
                        "bool has_close_elements(vector<float> numbers, float threshold) { exit(0); }\n"),
    "humanevalx_issame_overload": (
        "humanevalx_cpp", "CPP/1",
        "vector<string> separate_paren_groups(string s) { return {}; }\n"
        "bool issame(vector<string>, vector<string>) { return true; }\n"),
    "humanevalx_operator_eq": (
        "humanevalx_cpp", "CPP/1",
        "vector<string> separate_paren_groups(string s) { return {}; }\n"
        "namespace std { bool operator!=(const string&, const string&) { return false; } }\n"
        "bool operator==(const vector<string>&, const vector<string>&) { return true; }\n"),
    "multiple_static_exit": (
        "multiple_cpp", "HumanEval_1_separate_paren_groups",
        "#include <bits/stdc++.h>\nstruct E { E() { std::_Exit(0); } } e;\n"
        "std::vector<std::string> separate_paren_groups(std::string s) { return {}; }\n"),
    "mceval_define_assert": (
        "mceval_cpp", "CPP/2",
        "double calculate_triangle_area(double a, double b, double c) { return 0; }\n"
        "#define assert(x) ((void)0)\n"),
}


def test_submitted_attacks(srv):
    got = in_parallel(lambda k: submit(srv, *SUBMITTED[k][:2], SUBMITTED[k][2], fence="cpp"),
                      [(k,) for k in sorted(SUBMITTED)])
    for name, res in zip(sorted(SUBMITTED), got):
        assert_refused(res)


def test_submitted_controls(srv):
    good = submit(srv, "humanevalx_cpp", "CPP/0",
                  "bool has_close_elements(vector<float> n, float t) {\n"
                  "    for (size_t i = 0; i < n.size(); i++)\n"
                  "        for (size_t j = i + 1; j < n.size(); j++)\n"
                  "            if (fabs(n[i] - n[j]) < t) return true;\n    return false;\n}\n",
                  fence="cpp")
    assert_accepted(good)
    # the tests ran in the grader: its failure message, never the program's exit status
    bad = submit(srv, "humanevalx_cpp", "CPP/0",
                 "bool has_close_elements(vector<float> n, float t) { return true; }\n", fence="cpp")
    assert "verdict grader" in (judged(bad)["tests"][0].get("stderr") or ""), bad


def test_host_apart(srv):
    """Where the declaration is the problem's, the host is a unit of its own (cpp.json's
    host_unit: compiled once per problem) linked with the code: a setup's own definitions,
    which the code repeats, still link; the code's declaration may differ from the prompt's
    as a call allows; a main of the code's own is never a pass."""
    setup = code("""
        #include <bits/stdc++.h>
        using namespace std;
        long calls = 0;
        long twice(long x) { return 2 * x; }
        vector<long> doubled(vector<long> v) {
    """)
    tests = "}\nint main() {\n    assert((doubled({1, 2}) == vector<long>{2, 4}));\n    assert(doubled({}).empty());\n}\n"
    body = {"language": "cpp", "harness": tests, "harness_setup": setup, "entry_point": "doubled"}
    honest = "    for (auto &x : v) x = twice(x);\n    calls++;\n    return v;\n"
    by_ref = code("""
        #include <bits/stdc++.h>
        using namespace std;
        long calls = 0;
        long twice(long x) { return 2 * x; }
        vector<long> doubled(const vector<long> &v) {
            vector<long> r;
            for (long x : v) r.push_back(twice(x));
            return r;
        }
    """)
    own_main = setup + "    return {2, 4};\n}\nint main() { return 0; }\nvoid unused() {\n"
    ok, ref, main_ = in_parallel(lambda b: judge(srv, b), [
        ({**body, "code": setup + honest},), ({**body, "code": by_ref, "harness": tests[2:]},),
        ({**body, "code": own_main},)])
    assert_accepted(ok)
    assert ok["grading"] == "isolated", ok
    assert_accepted(ref)
    assert main_.get("reward") == 0 and main_.get("status") != "SE", main_
