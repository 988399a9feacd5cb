"""Wrong JavaScript and TypeScript solutions that try to get reward 1 from the harness routes:
MultiPL-E's `multiple_js`, `multiple_mbpp_js`, `multiple_ts` through /submit, and /v1/judge with
a `harness` in nodejs and typescript. Their tests run in a grader process (languages/nodejs/
grader.js) that calls the program's functions over a channel and decodes the answers itself
(docs/integrity.md). Each attack is a short program with a comment saying what it tries; none
may pass (no reward 1, no accepted flag, no test passed) and none may end as SE. The honest
solution of every problem attacked passes (the controls), so an attack fails for its own
reason."""
import pytest

from conftest import assert_accepted, assert_refused, code, in_parallel, judge, judge_batch, submit

HE0 = "HumanEval_0_has_close_elements"
HE2 = "HumanEval_2_truncate_number"
HE111 = "HumanEval_111_histogram"
MB4 = "mbpp_4_heap_queue_largest"

HONEST = {
    HE0: code('''
        function has_close_elements(numbers, threshold) {
          for (let i = 0; i < numbers.length; i++)
            for (let j = 0; j < i; j++)
              if (Math.abs(numbers[i] - numbers[j]) < threshold) return true;
          return false;
        }
    '''),
    HE2: "function truncate_number(number) {\n  return number % 1.0;\n}\n",
    HE111: code('''
        function histogram(test) {
          const n = {};
          for (const w of test.split(" ")) if (w) n[w] = (n[w] || 0) + 1;
          const top = Math.max(0, ...Object.values(n));
          const out = {};
          for (const k of Object.keys(n)) if (n[k] === top) out[k] = top;
          return out;
        }
    '''),
    MB4: "function heap_queue_largest(nums, n) {\n  return [...nums].sort((a, b) => b - a).slice(0, n);\n}\n",
}
DATASET = {HE0: "js", HE2: "js", HE111: "js", MB4: "mbpp_js"}

WRONG0 = "function has_close_elements(numbers, threshold) {\n  return false;\n}\n"
WRONG2 = "function truncate_number(number) {\n  return 0.5;\n}\n"
WRONG111 = "function histogram(test) {\n  return {};\n}\n"
WRONG4 = "function heap_queue_largest(nums, n) {\n  return [];\n}\n"

# Reads the tests' expected values out of whatever file of the work dir or the process holds
# them (main.js / main.ts, where the joined harness used to be): {"args": expected} for the
# deepEqual lines that call `candidate`; empty when no file has them.
STEAL = code('''
    function stolenAnswers() {
      const fs = require("fs");
      const table = {};
      const places = ["main.js", "main.ts", "/proc/self/cwd/main.js", "/proc/self/cmdline",
                      "/proc/self/environ", "/proc/1/cmdline", "/proc/1/environ"];
      try { for (const f of fs.readdirSync(".")) places.push(f); } catch (e) {}
      try { for (const f of fs.readdirSync("/tmp")) places.push("/tmp/" + f); } catch (e) {}
      for (const p of places) {
        let text = "";
        try { text = fs.readFileSync(p, "utf8"); } catch (e) { continue; }
        const re = /candidate\\((.*)\\),\\s*(.*)\\);/g;
        let m;
        while ((m = re.exec(text))) {
          try { table[JSON.stringify(JSON.parse("[" + m[1] + "]"))] = JSON.parse(m[2]); } catch (e) {}
        }
      }
      return table;
    }
''')

ATTACKS = [
    # ---- early exits -------------------------------------------------------------------------
    ("exit_top_level", HE0, WRONG0 + "process.exit(0);  // before any test runs\n"),
    ("exit_in_call", HE0, code('''
        function has_close_elements(numbers, threshold) {
          process.exit(0);  // exit 0 from inside the first check
        }
    ''')),
    ("exit_really", HE2, WRONG2 + "process.reallyExit(0);  // the binding under process.exit\n"),
    ("exit_abort_in_call", HE2, code('''
        function truncate_number(number) {
          process.abort();  // SIGABRT from inside a check
        }
    ''')),
    ("exit_sigkill_self", MB4, code('''
        function heap_queue_largest(nums, n) {
          process.kill(process.pid, "SIGKILL");  // killed in the call, as if by the judge
        }
    ''')),
    ("exit_listener_forces_0", HE0, WRONG0 + code('''
        // whatever the failed assertion's status, turn it into 0 at exit
        process.on("exit", () => { process.exitCode = 0; process.reallyExit(0); });
    ''')),
    ("exit_code_pinned", HE2, WRONG2 + code('''
        // an exit code no one can set to 1
        Object.defineProperty(process, "exitCode", {get: () => 0, set: () => {}});
    ''')),
    ("exit_uncaught_handler", HE111, WRONG111 + code('''
        // a failed assertion is an uncaught exception: swallow it, exit 0
        process.on("uncaughtException", () => process.exit(0));
        process.setUncaughtExceptionCaptureCallback && 0;
    ''')),
    ("exit_timer", MB4, WRONG4 + "setTimeout(() => process.exit(0), 0);  // after the tests start\n"),
    ("exit_before_exit_hook", HE0, WRONG0 + code('''
        process.on("beforeExit", () => process.exit(0));
        process.once("exit", (c) => { if (c) process.kill(process.pid, "SIGKILL"); });
    ''')),
    ("exit_fake_pass_line", HE2, WRONG2 + code('''
        console.log("All tests passed");  // a reporter's success line, then exit 0
        console.log("ok 1 - tests\\n# pass 1\\n# fail 0");
        process.exit(0);
    ''')),
    # ---- replacing the framework ---------------------------------------------------------------
    ("assert_methods_redefined", HE0, WRONG0 + code('''
        const assert = require("node:assert");
        for (const k of Object.keys(assert)) if (typeof assert[k] === "function") assert[k] = () => {};
        require("assert").deepEqual = () => {};  // both names, one module
    ''')),
    ("assert_module_replaced", HE2, WRONG2 + code('''
        const Module = require("module");
        const fake = new Proxy(function () {}, {get: () => () => {}, apply: () => {}});
        const load = Module._load;
        Module._load = function (name, ...rest) {  // require("node:assert") answers a no-op
          return /assert/.test(name) ? fake : load.call(this, name, ...rest);
        };
        require.cache[require.resolve("assert")] = {exports: fake};
    ''')),
    ("require_shadowed", HE111, code('''
        // a hoisted declaration of the name the tests load node:assert with
        function require(name) {
          return {deepEqual() {}, equal() {}, strictEqual() {}, deepStrictEqual() {}};
        }
        function histogram(test) { return {}; }
    ''')),
    ("assert_global_and_prototypes", MB4, WRONG4 + code('''
        globalThis.assert = {deepEqual() {}};
        Object.prototype.deepEqual = function () {};
        Error.captureStackTrace = () => {};
        const { AssertionError } = require("assert");
        AssertionError.prototype.toString = () => "";
    ''')),
    ("test_function_shadowed", HE0, WRONG0 + code('''
        // the tests call test(): a declaration of the program's own
        function test() {}
        globalThis.test = () => {};
    ''')),
    ("candidate_shadowed", HE2, WRONG2 + code('''
        var candidate = (x) => x % 1;  // the tests' own name for the entry point
        globalThis.candidate = candidate;
    ''')),
    # ---- rigged values ---------------------------------------------------------------------------
    ("value_to_primitive", HE0, code('''
        // loosely equal to true and to false, by turns
        let n = 0;
        function has_close_elements(numbers, threshold) {
          return {[Symbol.toPrimitive]: () => (n++ % 2 === 0), valueOf: () => true};
        }
    ''')),
    ("value_proxy", HE111, code('''
        // an object that claims every key and every value
        function histogram(test) {
          return new Proxy({}, {ownKeys: () => ["a", "b"], get: () => 2,
            getOwnPropertyDescriptor: () => ({value: 2, enumerable: true, configurable: true})});
        }
    ''')),
    ("value_proto_key", HE111, code('''
        // a map whose one key is __proto__: a prototype for the decoded object?
        function histogram(test) {
          const o = JSON.parse('{"__proto__": {"a": 2, "b": 2}}');
          return o;
        }
    ''')),
    ("value_array_lies", MB4, code('''
        // an array whose length and elements are whatever a reader asks
        function heap_queue_largest(nums, n) {
          const a = [];
          Object.defineProperty(a, "length", {value: 0, writable: true});
          a.toString = () => "85,75,65";
          a.valueOf = () => [85, 75, 65];
          return a;
        }
    ''')),
    ("value_nan_and_negzero", HE2, code('''
        // NaN compares loosely equal to NaN: does it to 0.5?
        function truncate_number(number) { return number === 123.0 ? -0 : NaN; }
    ''')),
    ("value_function", HE0, code('''
        // a function for an answer, equal to nothing here, but maybe callable into the grader
        function has_close_elements(numbers, threshold) { return () => true; }
    ''')),
    ("value_bigint_and_boxed", HE2, code('''
        function truncate_number(number) { return new Number(0.5); }
    ''')),
    # ---- prototype and builtin patching ------------------------------------------------------
    ("patched_equality_builtins", HE111, WRONG111 + code('''
        Object.is = () => true;
        Object.keys = () => [];
        Reflect.ownKeys = () => [];
        Object.getOwnPropertyNames = () => [];
        JSON.stringify = () => "{}";
        Array.isArray = () => true;
        Number.isNaN = () => true;
    ''')),
    # ---- reading the tests ----------------------------------------------------------------------
    ("steal_from_files", HE0, STEAL + code('''
        const answers = stolenAnswers();
        function has_close_elements(numbers, threshold) {
          const k = JSON.stringify([numbers, threshold]);
          return k in answers ? answers[k] : false;
        }
    ''')),
    ("steal_from_stack", HE2, code('''
        // the calling frames' source (the tests were in this module before)
        function truncate_number(number) {
          const stack = new Error().stack;
          const m = /candidate\\(3\\.5\\),([0-9.]+)/.exec(stack + require("fs").readFileSync(__filename, "utf8"));
          return m ? Number(m[1]) : 0.5;
        }
    ''')),
    # ---- reaching the grader ---------------------------------------------------------------------
    ("kill_everyone", HE0, WRONG0 + code('''
        // every process this uid may signal, the parent first
        try { process.kill(process.ppid, "SIGKILL"); } catch (e) {}
        try { process.kill(-1, "SIGKILL"); } catch (e) {}
    ''')),
    ("kill_by_pid_scan", HE2, WRONG2 + code('''
        for (let p = 2; p < 4096; p++) {
          if (p === process.pid) continue;
          try { process.kill(p, "SIGSTOP"); } catch (e) {}
        }
    ''')),
    ("kill_with_pkill", HE111, WRONG111 + code('''
        const cp = require("child_process");
        try { cp.execSync("pkill -9 node; kill -9 -1; killall -9 node", {stdio: "ignore"}); } catch (e) {}
    ''')),
    ("grader_stdin_via_proc", MB4, code('''
        // the grader's stdin (its tests) through /proc, and its pid through the process list
        const fs = require("fs");
        let text = "";
        for (const p of fs.readdirSync("/proc")) {
          if (!/^\\d+$/.test(p) || Number(p) === process.pid) continue;
          for (const f of ["fd/0", "cmdline", "environ"])
            try { text += fs.readFileSync("/proc/" + p + "/" + f, "utf8"); } catch (e) {}
        }
        function heap_queue_largest(nums, n) {
          return text.includes("85, 75, 65") ? [85, 75, 65] : [];
        }
    ''')),
    # ---- the channel --------------------------------------------------------------------------
    ("channel_preanswered", HE0, WRONG0 + code('''
        // answers for every call written ahead, then the program exits
        const fs = require("fs");
        fs.writeSync(4, '{"ok":true}\\n'.repeat(16));
        process.exit(0);
    ''')),
    ("channel_garbage", HE2, WRONG2 + code('''
        require("fs").writeSync(4, "PASS\\n{\\"ok\\":0.5,\\"extra\\":1}\\n");
        process.exit(0);
    ''')),
    ("channel_huge_line", HE111, WRONG111 + code('''
        // 80 MiB without a newline
        const fs = require("fs");
        const chunk = Buffer.alloc(1 << 20, 97);
        for (let i = 0; i < 80; i++) fs.writeSync(4, chunk);
    ''')),
    ("channel_closed", MB4, WRONG4 + code('''
        const fs = require("fs");
        fs.closeSync(3);
        fs.closeSync(4);
    ''')),
    ("host_rewritten", HE0, WRONG0 + code('''
        // the host file replaced before it loads: every call answered true
        require("fs").writeFileSync(__dirname + "/verdict_host.js", `
          module.exports = function () {
            const fs = require("fs"); const b = Buffer.alloc(65536);
            while (fs.readSync(3, b, 0, b.length, null) > 0) fs.writeSync(4, '{"ok":true}\\\\n');
          };`);
    ''')),
    # ---- plain ---------------------------------------------------------------------------------
    ("wrong_answer", HE2, WRONG2),
    ("wrong_type", MB4, "function heap_queue_largest(nums, n) {\n  return '85,75,65';\n}\n"),
]

# The same problems in TypeScript: every attack above, and these written with types.
TS_ATTACKS = [
    ("ts_exit_top_level", HE0, "function has_close_elements(numbers: number[], threshold: number): boolean {\n"
                               "  return false;\n}\nprocess.exit(0);\n"),
    ("ts_assert_redefined", HE111, code('''
        declare var require: any;
        const assert: any = require("node:assert");
        assert.deepEqual = (): void => {};
        function histogram(test: string): {[key: string]: number} { return {}; }
    ''')),
    ("ts_exit_hook", HE2, code('''
        function truncate_number(number: number): number { return 0.5; }
        process.on("exit", (): void => { process.reallyExit(0); });
    ''')),
    ("ts_require_shadowed", HE0, code('''
        function require(name: string): any { return {deepEqual(): void {}}; }
        function has_close_elements(numbers: number[], threshold: number): boolean { return false; }
    ''')),
    ("ts_wrong_answer", HE111, "function histogram(test: string): {[key: string]: number} {\n  return {a: 1};\n}\n"),
]
TS_DATASET = {HE0: "ts", HE2: "ts", HE111: "ts", MB4: "mbpp_ts"}

# /v1/judge's own harness in nodejs: checks by name, strict equality, a throw expected.
HARNESS = code('''
    const assert = require("node:assert");
    assert.strictEqual(double(2), 4);
    assert.deepStrictEqual(pair(1, "a"), [1, "a"]);
    assert.strictEqual(double(-5), -10);
    assert.throws(() => double("x"), TypeError);
''')
DOUBLE = code('''
    function double(x) {
      if (typeof x !== "number") throw new TypeError("not a number");
      return x + x;
    }
    const pair = (a, b) => [a, b];
''')
LIMITS = {"time_ms": 2000}

JUDGE_ATTACKS = [
    ("judge_exit", "function double(x) { return 0; }\nconst pair = () => [];\nprocess.exit(0);\n"),
    ("judge_assert_noop", code('''
        const a = require("assert");
        a.strictEqual = a.deepStrictEqual = a.throws = () => {};
        function double(x) { return 0; }
        function pair() { return []; }
    ''')),
    ("judge_throw_anything", code('''
        // everything throws a TypeError: the assert.throws check passes, the others?
        function double(x) { throw new TypeError("no"); }
        function pair() { throw new TypeError("no"); }
    ''')),
    ("judge_fake_assertion_error", code('''
        // an error that claims to be the grader's own failure... or success
        function double(x) { const e = new Error("ok"); e.name = "AssertionError"; e.code = 0; throw e; }
        function pair() { return [1, "a"]; }
    ''')),
    ("judge_sigstop_self", code('''
        function double(x) { process.kill(process.pid, "SIGSTOP"); }
        function pair() { return [1, "a"]; }
    ''')),
    ("judge_string_numbers", code('''
        // loose equality would take "4" for 4; the harness is strict
        function double(x) { if (typeof x !== "number") throw new TypeError(); return String(x + x); }
        function pair(a, b) { return [String(a), b]; }
    ''')),
]

JUDGE_CONTROLS = {
    # a correct answer passes, a wrong one is WA, a throw RE
    "judge_reference": (DOUBLE, "OK"),
    "judge_wrong": (DOUBLE.replace("x + x", "x * x"), "WA"),
    "judge_raises": ("function double(x) { throw new RangeError('no'); }\nfunction pair() {}\n",
                     "RE"),
}


def unavailable(srv, language):
    """Why the server cannot run `language` (its probe at start failed: on a machine loaded
    far past its cores the version command can miss its 10 s), or None."""
    for l in srv.get_json("/v1/languages"):
        if l["name"] == language:
            return None if l["available"] else l.get("reason") or "unavailable"
    return "no template"


@pytest.fixture(scope="module")
def outcomes(srv):
    """Every attack and control of this module, judged at once: {name: result}; the
    TypeScript ones are absent where the server could not probe TypeScript."""
    jobs = [(name, "multiple_" + DATASET[pid], pid, src) for name, pid, src in ATTACKS]
    langs = [("js", DATASET)]
    ts = not unavailable(srv, "typescript")
    if ts:
        jobs += [(name, "multiple_" + TS_DATASET[pid], pid, src) for name, pid, src in TS_ATTACKS]
        jobs += [("ts_" + name, "multiple_" + TS_DATASET[pid], pid, src)
                 for name, pid, src in ATTACKS
                 if not name.startswith(("channel_huge", "kill_by_pid"))]
        langs.append(("ts", TS_DATASET))
    jobs += [(f"reference {lang} {pid}", "multiple_" + ds[pid], pid, HONEST[pid])
             for pid in HONEST for lang, ds in langs]
    got = dict(zip([j[0] for j in jobs],
                   in_parallel(lambda name, ds, pid, src: submit(srv, ds, pid, src, "js"), jobs)))
    bodies = {name: {"language": "nodejs", "code": src, "harness": HARNESS, "limits": LIMITS}
              for name, src in JUDGE_ATTACKS}
    for name, (src, _) in JUDGE_CONTROLS.items():  # the language's own limits
        bodies[name] = {"language": "nodejs", "code": src, "harness": HARNESS}
        if ts:
            bodies["ts " + name] = {"language": "typescript", "code": src, "harness": HARNESS}
    got.update(judge_batch(srv, bodies))
    return got


TS_ALL = [a[0] for a in TS_ATTACKS] + ["ts_" + a[0] for a in ATTACKS
                                       if not a[0].startswith(("channel_huge", "kill_by_pid"))]


@pytest.mark.parametrize("name", [a[0] for a in ATTACKS + JUDGE_ATTACKS] + TS_ALL)
def test_attack_fails(srv, outcomes, name):
    skip_absent(srv, outcomes, name)
    assert_refused(outcomes[name])


def skip_absent(srv, outcomes, name):
    if name not in outcomes:
        pytest.skip("typescript: " + str(unavailable(srv, "typescript")))


@pytest.mark.parametrize("name", [f"reference {lang} {pid}" for pid in HONEST
                                  for lang in ("js", "ts")])
def test_reference_passes(srv, outcomes, name):
    skip_absent(srv, outcomes, name)
    assert_accepted(outcomes[name])


@pytest.mark.parametrize("name", sorted(JUDGE_CONTROLS))
@pytest.mark.parametrize("lang", ["", "ts "])
def test_judge_controls(srv, outcomes, name, lang):
    skip_absent(srv, outcomes, lang + name)
    r = outcomes[lang + name]
    assert r["tests"][0]["verdict"] == JUDGE_CONTROLS[name][1], r


def test_values_cross_as_plain_data(srv):
    """What the program returns arrives as the tests' own plain values, kind for kind (wire.md);
    what the tests pass arrives in the program the same way."""
    program = code('''
        function echo(x) { return x; }
        function kinds(x) { return x === null ? "null" : Array.isArray(x) ? "array" : typeof x; }
        function values() {
          return {int: 7, float: 0.5, neg0: -0, nan: NaN, inf: -Infinity, big: 2n ** 70n,
                  huge: 2 ** 60, s: "\\u00e9\\u{1F600}\\n\\"", nil: null, undef: undefined,
                  list: [1, [2, [3]]], holes: [1, , 3], map: new Map([[1, "a"]]),
                  strmap: new Map([["k", 1]]), set: new Set([1, 2]), typed: new Uint8Array([9]),
                  boxed: new String("b"), date: new Date(0), inst: new (class { constructor() { this.a = 1; } })()};
        }
        function proto() { return JSON.parse('{"__proto__": {"polluted": 1}, "b": 2}'); }
    ''')
    tests = code('''
        const assert = require("node:assert");
        const v = values();
        assert.strictEqual(Object.getPrototypeOf(v), Object.prototype);
        assert.strictEqual(v.int, 7);
        assert.strictEqual(v.float, 0.5);
        assert.ok(Object.is(v.neg0, -0));
        assert.ok(Number.isNaN(v.nan));
        assert.strictEqual(v.inf, -Infinity);
        assert.strictEqual(v.big, 2n ** 70n);
        assert.strictEqual(v.huge, 2 ** 60);
        assert.strictEqual(v.s, "\\u00e9\\u{1F600}\\n\\"");
        assert.strictEqual(v.nil, null);
        assert.strictEqual(v.undef, null);
        assert.deepStrictEqual(v.list, [1, [2, [3]]]);
        assert.deepStrictEqual(v.holes, [1, null, 3]);
        assert.deepStrictEqual(v.map, new Map([[1, "a"]]));
        assert.deepStrictEqual(v.strmap, {k: 1});
        assert.deepStrictEqual(v.set, new Set([1, 2]));
        assert.deepStrictEqual(v.typed, [9]);
        assert.strictEqual(v.boxed, "b");
        assert.deepStrictEqual(v.date, {});
        assert.deepStrictEqual(v.inst, {a: 1});
        const p = proto();
        assert.strictEqual(Object.getPrototypeOf(p), Object.prototype);
        assert.deepStrictEqual(Object.keys(p), ["__proto__", "b"]);
        assert.strictEqual({}.polluted, undefined);
        assert.deepStrictEqual(echo([1.5, "x", [true, null], {a: [2]}]), [1.5, "x", [true, null], {a: [2]}]);
        assert.strictEqual(echo(2n ** 64n), 2n ** 64n);
        assert.deepStrictEqual([kinds(1), kinds("s"), kinds([]), kinds({}), kinds(null), kinds(true)],
                               ["number", "string", "array", "object", "null", "boolean"]);
        assert.throws(() => echo(() => 1), TypeError);  // a function of the tests does not cross
    ''')
    for lang in ("nodejs", "typescript"):
        if lang == "typescript" and unavailable(srv, lang):
            continue  # the nodejs half still ran
        r = judge(srv, {"language": lang, "code": program, "harness": tests})
        assert r["reward"] == 1, r


def test_grader_out_of_reach(srv):
    """The tests (in the grader) see another uid than the program's and cwd /; the program sees
    no process of the grader's uid and can signal none."""
    program = code('''
        const fs = require("fs");
        function uid() { return process.getuid(); }
        function visibleUids() {
          return [...new Set(fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p))
                             .map((p) => fs.statSync("/proc/" + p).uid))];
        }
        function signalled() {
          let hit = 0;
          for (let p = 2; p < 4096; p++) {
            if (p === process.pid) continue;
            try { process.kill(p, 0); if (fs.statSync("/proc/" + p).uid !== process.getuid()) hit++; }
            catch (e) {}
          }
          return hit;
        }
    ''')
    tests = code('''
        const assert = require("node:assert");
        assert.strictEqual(process.cwd(), "/");
        assert.notStrictEqual(uid(), process.getuid());
        assert.deepStrictEqual(visibleUids(), [uid()]);
        assert.strictEqual(signalled(), 0);
    ''')
    r = judge(srv, {"language": "nodejs", "code": program, "harness": tests})
    assert r["reward"] == 1, r


@pytest.mark.parametrize("harness,want", [
    # node:test reports a failure through the exit code, after the script's end
    ("const test = require('node:test');\nconst assert = require('node:assert');\n"
     "test('d', () => { assert.strictEqual(double(2), 5); });\n", "WA"),
    ("const test = require('node:test');\nconst assert = require('node:assert');\n"
     "test('d', () => { assert.strictEqual(double(2), 4); });\n", "OK"),
    # console.assert prints and carries on: a failure all the same
    ("console.assert(double(2) === 5, 'double');\nconsole.log('done');\n", "WA"),
    ("console.assert(double(2) === 4, 'double');\n", "OK"),
    # an async check that fails after the script ran
    ("const assert = require('node:assert');\n"
     "Promise.resolve().then(() => assert.strictEqual(double(2), 5));\n", "WA"),
    ("setTimeout(() => { throw new Error('late'); }, 10);\n", "WA"),
    # a typo in the tests is not the program's answer... but the program is asked for it
    ("const assert = require('node:assert');\nassert.strictEqual(dubble(2), 4);\n", "RE"),
])
def test_reporters(srv, harness, want):
    code_ = "function double(x) { return x + x; }\n"
    r = judge(srv, {"language": "nodejs", "code": code_, "harness": harness})
    assert r["tests"][0]["verdict"] == want, r


def test_setup_and_entry_point(srv):
    """The setup is the grader's own; the entry point is the program's even where Node
    (escape) or the setup defines the name."""
    harness = "const assert = require('node:assert');\nassert.strictEqual(escape(2, 3), six());\n"
    body = {"language": "nodejs", "code": "function escape(a, b) { return a * b; }\n",
            "harness": harness, "harness_setup": "function six() { return 6; }\n"
                                                 "function escape() { return 6; }\n",
            "entry_point": "escape"}
    assert judge(srv, body)["reward"] == 1
    body["code"] = "function escape(a, b) { return a + b; }\nfunction six() { return 5; }\n"
    r = judge(srv, body)
    assert r["reward"] == 0 and r["tests"][0]["verdict"] == "WA", r
