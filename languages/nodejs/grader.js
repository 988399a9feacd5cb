// verdict's grader for JavaScript and TypeScript harnesses (docs/integrity.md). It runs in a
// process of its own, as another uid than the program (runners/job.h), with the tests on its
// stdin: the program can neither read the tests nor reach this process. The tests run here,
// as a script of this process's global scope, with Node's own node:assert; the entry point and
// any other name the tests use that neither they nor Node define is a function that calls the
// program's function of that name over the channel (fd 4 out, fd 3 in; wire.js), and every
// answer is decoded here, by our own parser, into plain values: the program can only choose
// what it answers, never what the checks are or how they compare.
//
// Bootstrap (nodejs.json, typescript.json, jest.json): ARGS = [tests, setup, entry point]; TS:
// the tests and setup are TypeScript, whose types esbuild strips (as tsx does for the
// program); JEST (jest.json's alone): the tests are Jest's, run by jest.js's API.
// Exit status: 0 the tests ran to their end with no failure (console.assert failures and a
// non-zero process.exitCode, as node:test leaves, count as failures); FAILED a check failed
// (an assertion, the checks' own code throwing on the answers: WA); BROKE the program failed a
// call: it threw (and the tests did not catch it), exited, closed the channel or answered out
// of protocol (RE). A broken channel ends this process at once: no handler of the tests can
// swallow it.

const fs = require('fs');
const vm = require('vm');
const FAILED = 1;
const BROKE = 2;
const programThrew = new WeakSet();
let final = null;
let consoleFailures = 0;

function say(text) {
  try {
    fs.writeSync(2, 'verdict grader: ' + text + '\n');
  } catch (_) {
    /* nowhere to say it */
  }
}

function finish(status) {
  final = status;
  process.exit(status);
}

function broke(why) {
  say(why);
  finish(BROKE);
}

function report(e) {
  try {
    fs.writeSync(2, (e && e.stack ? e.stack : String(e)) + '\n');
  } catch (_) {
    /* the same */
  }
}

process.on('exit', (code) => {
  if (final !== null) process.exitCode = final;
  else process.exitCode = code === 0 && consoleFailures === 0 ? 0 : FAILED;
});
const failed = (e) => {
  report(e);
  finish(programThrew.has(e) ? BROKE : FAILED);
};
process.on('uncaughtException', failed);
process.on('unhandledRejection', failed);

// ---- the channel ---------------------------------------------------------------------------

const chunk = Buffer.alloc(1 << 16);
const decoder = new TextDecoder('utf-8', {fatal: true});
const nap = new Int32Array(new SharedArrayBuffer(4));

function io(f, why) {
  for (;;) {
    try {
      return f();
    } catch (e) {
      if (e.code !== 'EAGAIN' && e.code !== 'EINTR') broke(why);
      Atomics.wait(nap, 0, 0, 1);
    }
  }
}

const STOPPED = 'the program stopped serving (it exited or closed its channel)';

function send(text) {
  const b = Buffer.from(text);
  for (let off = 0; off < b.length; )
    off += io(() => fs.writeSync(4, b, off, b.length - off), STOPPED);
}

function receive() {
  const parts = [];
  let total = 0;
  for (;;) {
    const n = io(() => fs.readSync(3, chunk, 0, chunk.length, null), STOPPED);
    if (n === 0) broke(STOPPED);
    const got = chunk.subarray(0, n);
    const at = got.indexOf(10);
    if (at >= 0 && at !== n - 1) broke('the program answered out of protocol (more than a line)');
    total += n;
    if (total > WIRE_LINE_MAX + 1) broke("the program's answer is too long");
    parts.push(Buffer.from(at >= 0 ? got.subarray(0, at) : got));
    if (at >= 0) break;
  }
  try {
    return decoder.decode(Buffer.concat(parts));
  } catch (_) {
    broke('the program answered with what is not UTF-8');
  }
}

const ERRORS = {Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError};

function thrown(type, message) {
  const own = Object.prototype.hasOwnProperty.call(ERRORS, type);
  const e = new (own ? ERRORS[type] : Error)(message);
  if (!own && type) e.name = type;
  programThrew.add(e);
  return e;
}

function call(name, args) {
  send('{"call":' + JSON.stringify(name) + ',"args":' + wireEncode(args) + '}\n');
  const line = receive();
  let m;
  try {
    m = wireParse(line, true);
  } catch (e) {
    broke('the program answered with what is not a value (' + e.message + ')');
  }
  if (m.length === 1 && m[0][0] === 'ok') return m[0][1];
  if (m.length === 2 && m[0][0] === 'raise' && m[1][0] === 'message' &&
      typeof m[0][1] === 'string' && typeof m[1][1] === 'string')
    throw thrown(m[0][1], m[1][1]);
  broke('the program answered out of protocol');
}

const proxies = new Map();

function programFunction(name) {
  let f = proxies.get(name);
  if (!f) {
    f = {
      [name]: function () {
        return call(name, Array.prototype.slice.call(arguments));
      },
    }[name];
    proxies.set(name, f);
  }
  return f;
}

// ---- the tests' names ----------------------------------------------------------------------

// A name the tests (or setup) use that Node does not define resolves, through a proxy at the
// end of the global object's prototype chain, to the program's function of that name; only
// names that occur in their text, so that Node's own code never meets one.
function programNames(texts) {
  const used = new Set(texts.join('\n').match(/[A-Za-z_$][\w$]*/g) || []);
  const base = Object.getPrototypeOf(globalThis);
  const ours = (t, k) => typeof k === 'string' && used.has(k) && !Reflect.has(t, k);
  Object.setPrototypeOf(globalThis, new Proxy(base, {
    has: (t, k) => ours(t, k) || Reflect.has(t, k),
    get: (t, k, r) => (ours(t, k) ? programFunction(k) : Reflect.get(t, k, r)),
  }));
}

// The tests' TypeScript as JavaScript; tests that esbuild cannot read are the request's
// fault, never the program's: CANNOT (3, SE).
function typescript(text, esbuild) {
  if (!text) return text;
  const cp = require('child_process');
  try {
    return cp.execFileSync(esbuild, ['--loader=ts', '--format=cjs', '--log-level=error'],
                           {input: text, encoding: 'utf8', maxBuffer: 1 << 30,
                            stdio: ['pipe', 'pipe', 'inherit']});
  } catch (e) {
    say('the tests are not TypeScript that esbuild reads (' + (e.code || 'status ' + e.status) + ')');
    finish(3);
  }
}

function main(tests, setup, entry, ts, jest) {
  if (ts) {
    const bin = '/var/lib/verdict/ts/node_modules/@esbuild/linux-' + process.arch + '/bin/esbuild';
    tests = typescript(tests, bin);
    setup = typescript(setup, bin);
  }
  const realAssert = console.assert;
  console.assert = function (ok, ...rest) {
    if (!ok) consoleFailures++;
    return realAssert.call(console, ok, ...rest);
  };
  globalThis.require = require;
  globalThis.module = {exports: {}};
  globalThis.exports = globalThis.module.exports;
  const runJest = jest ? installJest() : null; // jest.js: Jest's globals, @jest/globals
  programNames([tests, setup]);
  if (setup) vm.runInThisContext(setup, {filename: 'setup'});
  if (/^[A-Za-z_$][\w$]*$/.test(entry)) {
    // the program's, even where Node or the setup defines the name
    const f = programFunction(entry);
    try {
      Object.defineProperty(globalThis, entry,
                            {value: f, writable: true, enumerable: false, configurable: true});
    } catch (_) {
      globalThis[entry] = f; /* the setup's own function of that name */
    }
  }
  vm.runInThisContext(tests, {filename: 'tests'});
  if (runJest) runJest().catch(failed);
}

try {
  main(ARGS[0], ARGS[1], ARGS[2], TS, typeof JEST !== 'undefined' && JEST);
} catch (e) {
  failed(e);
}
