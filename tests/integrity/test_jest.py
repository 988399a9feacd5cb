"""Jest harnesses (/v1/judge with `harness` in the jest template): their tests run in the Node
grader with Jest's API (languages/nodejs/jest.js), the program in Jest as SandboxFusion runs
it, serving the calls. Wrong programs that try to get reward 1 as a hostile policy would
(exits, the framework replaced, rigged values, the tests read, the grader attacked) score 0
and never SE; the honest program passes; what the grader does not give of Jest is SE."""
import pytest

from conftest import code, in_parallel, judge

HONEST = code('''
    export function histogram(words: string): Record<string, number> {
      const n: Record<string, number> = {};
      for (const w of words.split(" ")) if (w) n[w] = (n[w] || 0) + 1;
      const top = Math.max(0, ...Object.values(n));
      const out: Record<string, number> = {};
      for (const k of Object.keys(n)) if (n[k] === top) out[k] = top;
      return out;
    }
    export function mean(xs: number[]): number {
      if (xs.length === 0) throw new RangeError("empty");
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    }
''')
WRONG = code('''
    export function histogram(words: string): Record<string, number> { return {}; }
    export function mean(xs: number[]): number { return 0; }
''')

TESTS = code('''
    import { describe, expect, test } from "@jest/globals";
    let calls = 0;
    beforeEach(() => { calls++; });
    describe("histogram", () => {
      test("ties", () => {
        expect(histogram("a b b a")).toEqual({ a: 2, b: 2 });
        expect(histogram("a b c a b")).toStrictEqual({ a: 2, b: 2 });
      });
      it.each([["", {}], ["r t g", { r: 1, t: 1, g: 1 }]])("case %s", (s: string, want: object) => {
        expect(histogram(s)).toEqual(want);
      });
      test("not", () => { expect(histogram("x")).not.toEqual({ y: 1 }); });
    });
    describe("mean", () => {
      test("close", () => { expect(mean([1, 2, 2])).toBeCloseTo(1.6667, 3); });
      test("raises", () => { expect(() => mean([])).toThrow(RangeError); });
      test("async", async () => {
        await expect(Promise.resolve(mean([4]))).resolves.toBe(4);
        expect(calls).toBeGreaterThan(3);
      });
      test("done", (done) => { setTimeout(() => { expect(mean([2, 4])).toBe(3); done(); }, 1); });
    });
''')


def body(program, tests=TESTS):
    return {"language": "jest", "code": program, "harness": tests}


def verdict(r):
    return r["tests"][0]["verdict"]


def assert_zero(r, name=""):
    assert r["reward"] == 0 and verdict(r) not in ("OK", "SE"), (name, r)


def test_honest_passes_wrong_fails(srv):
    ok, wrong = in_parallel(lambda p: judge(srv, body(p), timeout=120), [(HONEST,), (WRONG,)])
    assert ok["reward"] == 1 and ok["grading"] == "isolated", ok
    assert wrong["reward"] == 0 and verdict(wrong) == "WA", wrong


STEAL = code('''
    function stolen(): Record<string, number> {
      const fs = require("fs");
      for (const f of ["main.test.ts", "/proc/self/cmdline", "/proc/1/cmdline"]) {
        try {
          const m = /histogram\\("a b b a"\\)\\)\\.toEqual\\((\\{[^)]*\\})/.exec(fs.readFileSync(f, "utf8"));
          if (m) return eval("(" + m[1] + ")");
        } catch (e) {}
      }
      return {};
    }
''')

ATTACKS = [
    ("exit_at_load", WRONG + "process.exit(0);\n"),
    ("exit_in_call", "export function histogram(w: string) { process.exit(0); }\n"
                     "export function mean(x: number[]) { return 0; }\n"),
    ("exit_hook", WRONG + "process.on('exit', () => { process.exitCode = 0; });\n"
                          "afterAll(() => process.exit(0));\n"),
    # Jest's globals in the program's process are not the tests'
    ("expect_replaced", WRONG + code('''
        (globalThis as any).expect = () => new Proxy({}, { get: () => () => undefined });
        (globalThis as any).test = (globalThis as any).it = () => {};
        (globalThis as any).describe = () => {};
    ''')),
    ("equals_patched", WRONG + code('''
        Object.defineProperty(Object.prototype, "asymmetricMatch", { value: () => true });
        (Object as any).is = () => true;
    ''')),
    # an answer shaped like one of Jest's asymmetric matchers is a plain object here
    ("asymmetric_answer", code('''
        export function histogram(w: string) {
          return { asymmetricMatch: true, $$typeof: Symbol.for("jest.asymmetricMatcher") };
        }
        export function mean(x: number[]) { return { asymmetricMatch: () => true }; }
    ''')),
    ("tests_read", STEAL + "export function histogram(w: string) { return stolen(); }\n"
                           "export function mean(x: number[]) { return 1.6667; }\n"),
    ("grader_killed", WRONG + code('''
        const cp = require("child_process");
        try { cp.execSync("kill -9 -1; pkill -STOP node; kill -STOP 1"); } catch (e) {}
        for (let p = 2; p < 4096; p++) { try { if (p !== process.pid) process.kill(p, "SIGKILL"); } catch (e) {} }
    ''')),
    ("jest_exit_flags", WRONG + code('''
        process.argv.push("--passWithNoTests", "--testNamePattern=^$");
        process.env.JEST_WORKER_ID = "0";
    ''')),
    ("silence_and_flood", WRONG + code('''
        for (let i = 0; i < 1000; i++) console.log("PASS main.test.ts\\nTests: 9 passed, 9 total");
        require("fs").writeSync(4, '{"ok":{"a":2,"b":2}}\\n');
    ''')),
]


@pytest.mark.parametrize("name,program", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_attack_fails(srv, name, program):
    assert_zero(judge(srv, body(program), timeout=120), name)


@pytest.mark.parametrize("name,tests,want", [
    # Jest's semantics: skipped and todo tests do not run, only narrows, failing inverts
    ("skip", "test.skip('s', () => { expect(1).toBe(2); });\ntest('t', () => { expect(one()).toBe(1); });\n", "OK"),
    ("only", "test.only('t', () => { expect(one()).toBe(1); });\ntest('u', () => { expect(1).toBe(2); });\n", "OK"),
    ("failing", "test.failing('f', () => { expect(one()).toBe(2); });\n", "OK"),
    ("failing_passes", "test.failing('f', () => { expect(one()).toBe(1); });\n", "WA"),
    ("hook_fails", "beforeAll(() => { expect(one()).toBe(3); });\ntest('t', () => {});\n", "WA"),
    ("assertions", "test('t', () => { expect.assertions(2); expect(one()).toBe(1); });\n", "WA"),
    ("matchers", "test('t', () => {\n  expect([one(), 2]).toContain(1);\n"
                 "  expect({a: [one()]}).toMatchObject({a: [expect.any(Number)]});\n"
                 "  expect('one').toMatch(/n/);\n  expect(one()).toBeTruthy();\n});\n", "OK"),
    # the module under test imported by path is the program
    ("import_main", "import { one } from './main';\nimport * as m from '../src/main';\n"
                    "test('t', () => { expect(one()).toBe(1); expect(m.one()).toBe(1); });\n", "OK"),
    # the program's raise that no test catches is the program's (RE)
    ("raised", "test('t', () => { expect(boom()).toBe(1); });\n", "RE"),
    # what the grader lacks is SE: the request's tests, never the program
    ("mock", "test('t', () => { const f = jest.fn(); expect(one()).toBe(1); });\n", "SE"),
    ("snapshot", "test('t', () => { expect(one()).toMatchSnapshot(); });\n", "SE"),
    ("template_each", "test.each`a\n${1}`('t', ({a}) => { expect(one()).toBe(a); });\n", "SE"),
    ("no_tests", "const x = one();\n", "SE"),
    ("syntax", "test('t', () => { expect(one()).toBe(1) ;;; }}\n", "SE"),
])
def test_jest_semantics(srv, name, tests, want):
    program = ("export function one(): number { return 1; }\n"
               "export function boom(): number { throw new Error('boom'); }\n")
    r = judge(srv, body(program, tests), timeout=120)
    assert verdict(r) == want, (name, r)
