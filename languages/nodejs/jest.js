// Jest's API for the jest template's grader (grader.js, jest.json): a harness written for Jest
// (describe, test/it, hooks, expect and its matchers) runs here, in the grader's process, its
// names resolving to the program's functions as any JavaScript harness's do (and so do the
// names it imports from a relative path: the module under test). Tests run in
// order, each with the hooks of its describe blocks, as `jest --runInBand` runs one file; the
// first failure ends the run (FAILED), and an exception the program threw that no test caught
// is BROKE, as grader.js says. What this file does not give (jest.fn and the rest of the
// `jest` object, mocks' and snapshots' matchers, the tagged-template form of `each`) ends the
// run with CANNOT: the request's tests need what the grader lacks (SE), never the program's
// fault. Only the tests' own values can be asymmetric matchers (expect.any and the rest):
// an answer of the program is a plain value (wire.js), never a matcher.

const CANNOT = 3;

function jestCannot(what) {
  say('the tests use ' + what + ", which verdict's Jest grader does not provide");
  finish(CANNOT);
}

const jestMatchers = new WeakSet(); // asymmetric matchers of the tests' making

function jestAsymmetric(name, test) {
  const m = {asymmetricMatch: test, toString: () => name};
  jestMatchers.add(m);
  return m;
}

function jestType(v) {
  return Object.prototype.toString.call(v).slice(8, -1);
}

// Jest's `equals`: toEqual when loose (undefined properties ignored, sparse items as undefined),
// toStrictEqual otherwise (those count, and so do the constructors).
function jestEquals(a, b, strict, seen) {
  if (jestMatchers.has(a)) return a.asymmetricMatch(b);
  if (jestMatchers.has(b)) return b.asymmetricMatch(a);
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ta = jestType(a);
  if (ta !== jestType(b)) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ta === 'Number' || ta === 'String' || ta === 'Boolean') return Object.is(a.valueOf(), b.valueOf());
  if (ta === 'Date') return Object.is(a.getTime(), b.getTime());
  if (ta === 'RegExp') return String(a) === String(b);
  if (a instanceof Error) return b instanceof Error && a.message === b.message;
  seen = seen || [];
  for (const [x, y] of seen) if (x === a) return y === b;
  seen = seen.concat([[a, b]]);
  if (ta === 'Map') {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (b.has(k)) {
        if (!jestEquals(v, b.get(k), strict, seen)) return false;
      } else if (![...b].some(([k2, v2]) => jestEquals(k, k2, strict, seen) &&
                                             jestEquals(v, v2, strict, seen))) {
        return false;
      }
    }
    return true;
  }
  if (ta === 'Set') {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v) && ![...b].some((w) => jestEquals(v, w, strict, seen))) return false;
    return true;
  }
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (strict && (i in a) !== (i in b)) return false;
      if (!jestEquals(a[i], b[i], strict, seen)) return false;
    }
  }
  const keys = (o) => Object.keys(o).filter((k) => !(Array.isArray(o) && /^\d+$/.test(k)) &&
                                                   (strict || o[k] !== undefined));
  const ka = keys(a), kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka)
    if (!Object.prototype.hasOwnProperty.call(b, k) || !jestEquals(a[k], b[k], strict, seen)) return false;
  return true;
}

// toMatchObject: every property of expected is in received, recursively.
function jestSubset(received, expected, seen) {
  if (jestMatchers.has(expected)) return expected.asymmetricMatch(received);
  if (typeof expected !== 'object' || expected === null || typeof received !== 'object' ||
      received === null)
    return jestEquals(received, expected, false);
  if (Array.isArray(expected))
    return Array.isArray(received) && received.length === expected.length &&
           expected.every((e, i) => jestSubset(received[i], e));
  return Object.keys(expected).every((k) => k in Object(received) && jestSubset(received[k], expected[k]));
}

function jestShow(v) {
  try {
    if (typeof v === 'bigint') return v + 'n';
    if (typeof v === 'string') return JSON.stringify(v);
    if (v instanceof Map) return 'Map ' + JSON.stringify([...v]);
    if (v instanceof Set) return 'Set ' + JSON.stringify([...v]);
    const s = JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x + 'n' : x));
    return s === undefined ? String(v) : s.length > 500 ? s.slice(0, 500) + '...' : s;
  } catch (_) {
    return String(v);
  }
}

const jestState = {assertions: 0, expected: null, has: false};

function jestThrowMatch(e, expected) {
  if (expected === undefined) return true;
  const message = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
  if (typeof expected === 'string') return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === 'function') return e instanceof expected;
  if (expected && typeof expected === 'object') return message === String(expected.message);
  return false;
}

function jestMatchersFor(received) {
  const num = (n, what) => {
    if (typeof n !== 'number' && typeof n !== 'bigint')
      throw new TypeError(what + ' must be a number or a bigint: ' + jestShow(n));
  };
  return {
    toBe: (e) => Object.is(received, e),
    toEqual: (e) => jestEquals(received, e, false),
    toStrictEqual: (e) => jestEquals(received, e, true),
    toBeCloseTo: (e, digits) => {
      const d = digits === undefined ? 2 : digits;
      if (received === Infinity && e === Infinity) return true;
      if (received === -Infinity && e === -Infinity) return true;
      return Math.abs(e - received) < Math.pow(10, -d) / 2;
    },
    toBeTruthy: () => !!received,
    toBeFalsy: () => !received,
    toBeNull: () => received === null,
    toBeUndefined: () => received === undefined,
    toBeDefined: () => received !== undefined,
    toBeNaN: () => Number.isNaN(received),
    toBeGreaterThan: (e) => (num(received, 'received'), received > e),
    toBeGreaterThanOrEqual: (e) => (num(received, 'received'), received >= e),
    toBeLessThan: (e) => (num(received, 'received'), received < e),
    toBeLessThanOrEqual: (e) => (num(received, 'received'), received <= e),
    toBeInstanceOf: (c) => received instanceof c,
    toContain: (e) => typeof received === 'string' ? received.includes(e)
                                                   : Array.from(received).some((x) => x === e),
    toContainEqual: (e) => Array.from(received).some((x) => jestEquals(x, e, false)),
    toHaveLength: (n) => received != null && received.length === n,
    toHaveProperty: function (path) {
      const keys = Array.isArray(path) ? path : String(path).split('.');
      let o = received;
      for (const k of keys) {
        if (o == null || !(k in Object(o))) return false;
        o = o[k];
      }
      return arguments.length < 2 || jestEquals(o, arguments[1], false);
    },
    toMatch: (e) => typeof received === 'string' &&
                    (e instanceof RegExp ? e.test(received) : received.includes(e)),
    toMatchObject: (e) => jestSubset(received, e),
    toThrow: (e) => {
      if (typeof received !== 'function') throw new TypeError('toThrow needs a function');
      try {
        received();
      } catch (err) {
        return jestThrowMatch(err, e);
      }
      return false;
    },
  };
}

// A matcher's failure is an Error of the tests' (WA), whatever the program answered.
function jestExpect(received) {
  const build = (negate, settle) => {
    const base = jestMatchersFor(received);
    base.toThrowError = base.toThrow;
    return new Proxy({}, {
      get: (_, name) => {
        if (name === 'not' && !negate) return build(true, settle);
        if (name === 'resolves' || name === 'rejects') {
          if (settle) jestCannot('expect().' + settle + '.' + String(name));
          return build(negate, name);
        }
        if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(base, name)) {
          if (typeof name === 'string' && name.startsWith('to')) jestCannot('the matcher ' + name);
          return undefined;
        }
        return (...args) => {
          jestState.assertions++;
          const judge = (value) => {
            const m = jestMatchersFor(value);
            m.toThrowError = m.toThrow;
            if (!!m[name](...args) === negate)
              throw new Error('expect(' + jestShow(value) + ')' + (negate ? '.not.' : '.') + name +
                              '(' + args.map(jestShow).join(', ') + ') failed');
          };
          if (!settle) return judge(received);
          return Promise.resolve(received).then(
              (v) => {
                if (settle === 'rejects') throw new Error('expected a rejection, got ' + jestShow(v));
                return judge(v);
              },
              (e) => {
                if (settle === 'resolves') throw e;
                return judge(e);
              });
        };
      },
    });
  };
  return build(false, null);
}

jestExpect.any = (c) => jestAsymmetric('Any', (v) =>
    v != null && (Object(v) instanceof c || (c === Number && typeof v === 'number') ||
                  (c === String && typeof v === 'string') || (c === Boolean && typeof v === 'boolean') ||
                  (c === BigInt && typeof v === 'bigint')));
jestExpect.anything = () => jestAsymmetric('Anything', (v) => v != null);
jestExpect.arrayContaining = (e) => jestAsymmetric('ArrayContaining', (v) =>
    Array.isArray(v) && e.every((x) => v.some((y) => jestEquals(y, x, false))));
jestExpect.objectContaining = (e) => jestAsymmetric('ObjectContaining', (v) =>
    v != null && typeof v === 'object' &&
    Object.keys(e).every((k) => k in v && jestEquals(v[k], e[k], false)));
jestExpect.stringContaining = (e) => jestAsymmetric('StringContaining', (v) =>
    typeof v === 'string' && v.includes(e));
jestExpect.stringMatching = (e) => jestAsymmetric('StringMatching', (v) =>
    typeof v === 'string' && (e instanceof RegExp ? e : new RegExp(e)).test(v));
jestExpect.closeTo = (e, digits) => jestAsymmetric('CloseTo', (v) =>
    typeof v === 'number' && Math.abs(e - v) < Math.pow(10, -(digits === undefined ? 2 : digits)) / 2);
jestExpect.assertions = (n) => {
  jestState.expected = n;
};
jestExpect.hasAssertions = () => {
  jestState.has = true;
};
for (const k of ['extend', 'addSnapshotSerializer', 'getState', 'setState'])
  jestExpect[k] = () => jestCannot('expect.' + k);

// ---- collection ----------------------------------------------------------------------------

function jestBlock(name, parent) {
  return {name, parent, items: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [],
          skip: false, only: false};
}

const jestRoot = jestBlock('', null);
let jestCurrent = jestRoot;
let jestOnly = false;

function jestEach(register) {
  return (table, ...rest) => {
    if (!Array.isArray(table) || rest.length) jestCannot('the tagged-template form of each');
    return (name, fn, timeout) => {
      table.forEach((row, i) => {
        const args = Array.isArray(row) ? row : [row];
        register(String(name) + ' [' + i + ']', function () {
          return fn.apply(this, args);
        }, timeout);
      });
    };
  };
}

function jestDescribe(flags) {
  const d = (name, fn) => {
    const b = jestBlock(String(name), jestCurrent);
    b.skip = !!flags.skip;
    b.only = !!flags.only;
    if (b.only) jestOnly = true;
    jestCurrent.items.push(b);
    const outer = jestCurrent;
    jestCurrent = b;
    try {
      const r = fn && fn();
      if (r && typeof r.then === 'function') jestCannot('an async describe callback');
    } finally {
      jestCurrent = outer;
    }
  };
  d.each = jestEach(d);
  return d;
}

function jestTest(flags) {
  const t = (name, fn) => {
    const test = {name: String(name), fn, skip: !!flags.skip || !fn, only: !!flags.only,
                  failing: !!flags.failing, parent: jestCurrent};
    if (test.only) jestOnly = true;
    jestCurrent.items.push(test);
  };
  t.each = jestEach(t);
  return t;
}

function jestApi() {
  const describe = jestDescribe({});
  describe.skip = jestDescribe({skip: true});
  describe.only = jestDescribe({only: true});
  const test = jestTest({});
  test.skip = jestTest({skip: true});
  test.only = jestTest({only: true});
  test.failing = jestTest({failing: true});
  test.concurrent = test;
  test.todo = () => {};
  const hook = (kind) => (fn) => jestCurrent[kind].push(fn);
  const jest = new Proxy({}, {get: (_, k) => jestCannot('jest.' + String(k))});
  return {describe, fdescribe: describe.only, xdescribe: describe.skip, test, it: test,
          fit: test.only, xit: test.skip, xtest: test.skip, expect: jestExpect,
          beforeAll: hook('beforeAll'), afterAll: hook('afterAll'),
          beforeEach: hook('beforeEach'), afterEach: hook('afterEach'), jest};
}

// ---- running -------------------------------------------------------------------------------

// fn(), awaited; with a `done` parameter, until done is called (done(error) fails).
function jestCall(fn) {
  if (fn.length > 0)
    return new Promise((resolve, reject) => {
      const done = (e) => (e ? reject(e instanceof Error ? e : new Error(String(e))) : resolve());
      done.fail = (e) => reject(new Error(String(e)));
      fn(done);
    });
  return Promise.resolve().then(() => fn());
}

function jestChain(block) {
  const chain = [];
  for (let b = block; b; b = b.parent) chain.unshift(b);
  return chain;
}

function jestSelected(item) {
  for (let b = item.parent; b; b = b.parent) if (b.skip) return false;
  if (item.skip) return false;
  if (!jestOnly) return true;
  if (item.only) return true;
  for (let b = item.parent; b; b = b.parent) if (b.only) return true;
  return false;
}

function jestHasSelected(block) {
  return block.items.some((x) => (x.items ? jestHasSelected(x) : jestSelected(x)));
}

async function jestRunTest(t) {
  jestState.assertions = 0;
  jestState.expected = null;
  jestState.has = false;
  const chain = jestChain(t.parent);
  let error = null;
  try {
    for (const b of chain) for (const f of b.beforeEach) await jestCall(f);
    await jestCall(t.fn);
    if (jestState.expected !== null && jestState.assertions !== jestState.expected)
      throw new Error('expected ' + jestState.expected + ' assertions, ' + jestState.assertions +
                      ' were called');
    if (jestState.has && jestState.assertions === 0) throw new Error('expected an assertion, none was called');
  } catch (e) {
    error = e;
  }
  try {
    for (const b of chain.reverse()) for (const f of b.afterEach) await jestCall(f);
  } catch (e) {
    error = error || e;
  }
  if (t.failing) error = error ? null : new Error('test.failing passed');
  if (error) {
    if (programThrew.has(error)) throw error;
    const name = chain.map((b) => b.name).concat([t.name]).filter((s) => s).join(' > ');
    report(error);
    say('the test "' + name + '" failed');
    finish(FAILED);
  }
}

async function jestRunBlock(block) {
  if (!jestHasSelected(block)) return;
  for (const f of block.beforeAll) await jestCall(f);
  for (const x of block.items) await (x.items ? jestRunBlock(x) : jestSelected(x) ? jestRunTest(x) : null);
  for (const f of block.afterAll) await jestCall(f);
}

// Installs the API as globals (before the setup and tests run); returns what runs the tests
// they registered.
function installJest() {
  const api = jestApi();
  for (const k of Object.keys(api))
    Object.defineProperty(globalThis, k, {value: api[k], writable: true, enumerable: false,
                                          configurable: true});
  // the module under test, imported by a relative path (`import {f} from './main'`), is the
  // program: its names are the program's functions, as the tests' free names are
  // (`import * as m`: esbuild's interop makes an object whose prototype is the module's own)
  const program = new Proxy({}, {
    get: (_, k) => (typeof k === 'string' && /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'then' &&
                    k !== '__esModule' ? programFunction(k) : undefined),
    getPrototypeOf: () => program,
  });
  const real = globalThis.require;
  globalThis.require = (m) => (m === '@jest/globals' ? api : /^\.\.?\//.test(m) ? program : real(m));
  return async () => {
    if (!jestHasSelected(jestRoot)) {
      say('the tests define no test to run (test or it)');
      finish(CANNOT);
    }
    await jestRunBlock(jestRoot);
  };
}
