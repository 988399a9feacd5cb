// The typed wire (languages/wire.md) in JavaScript, for the nodejs and typescript graders
// (grader.js) and the program's host (host.js): one JSON text per line, parsed here by a strict
// parser of our own that builds only plain values and never evaluates what it reads.
//
// Encoding: undefined and null -> null; a number that is a safe integer -> an integer, any
// other finite number -> a float (with "." or an exponent: 2**60 is "1152921504606846976.0"),
// NaN and the infinities -> {"float":...}, -0 -> -0.0; a bigint -> an integer; a string -> a
// string; an array (or typed array) -> a list, its holes null; a Map -> a map; a Set -> a set;
// a boxed primitive -> its primitive; any other object -> a map of its own enumerable string
// keys (as JSON.stringify and the loose deepEqual see it). Functions and symbols do not cross.
// Decoding: an integer -> a number when it is a safe integer, else a bigint; a float -> a
// number; a list or tuple -> an array; a set -> a Set; a char -> a string; a map whose keys are
// all strings -> a plain object (keys defined as own data properties, "__proto__" included),
// any other map -> a Map.

const WIRE_DEPTH = 100; // nesting levels a value may have
const WIRE_LINE_MAX = 64 << 20; // bytes of one message

function wireNumber(v) {
  if (v !== v) return '{"float":"nan"}';
  if (v === Infinity) return '{"float":"inf"}';
  if (v === -Infinity) return '{"float":"-inf"}';
  if (v === 0) return 1 / v < 0 ? '-0.0' : '0';
  const s = String(v);
  if (Number.isSafeInteger(v)) return s;
  return /[.eE]/.test(s) ? s : s + '.0';
}

function wireEncode(v, depth) {
  depth = depth || 0;
  if (depth > WIRE_DEPTH) throw new RangeError('value nested too deeply to cross the wire');
  const d = depth + 1;
  switch (typeof v) {
    case 'undefined':
      return 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return wireNumber(v);
    case 'bigint':
      return BigInt.prototype.toString.call(v);
    case 'string':
      return JSON.stringify(v);
    case 'object':
      break;
    default:
      throw new TypeError('a ' + typeof v + ' cannot cross the wire');
  }
  if (v === null) return 'null';
  const items = [];
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    const n = v.length;
    for (let i = 0; i < n; i++) items.push(wireEncode(v[i], d));
    return '[' + items.join(',') + ']';
  }
  if (v instanceof Map) {
    for (const [k, x] of v) items.push('[' + wireEncode(k, d) + ',' + wireEncode(x, d) + ']');
    return '{"map":[' + items.join(',') + ']}';
  }
  if (v instanceof Set) {
    for (const x of v) items.push(wireEncode(x, d));
    return '{"set":[' + items.join(',') + ']}';
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt)
    return wireEncode(v.valueOf(), depth);
  for (const k of Object.keys(v))
    items.push('[' + JSON.stringify(k) + ',' + wireEncode(v[k], d) + ']');
  return '{"map":[' + items.join(',') + ']}';
}

function wireObject(entries) {
  const o = {};
  for (const [k, x] of entries)
    Object.defineProperty(o, k, {value: x, writable: true, enumerable: true, configurable: true});
  return o;
}

// A strict parser of one line: the wire's values, or (message = true) one object of named
// values at the top (a message: {"call":...}, {"ok":...}, {"raise":...,"message":...}), which
// is returned as [[key, value], ...].
function wireParse(text, message) {
  let i = 0;
  const fail = (why) => {
    throw new SyntaxError('wire: ' + why + ' at byte ' + i);
  };
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const expect = (c) => {
    ws();
    if (text[i] !== c) fail('expected ' + c);
    i++;
  };
  const RUN = /[^"\\\u0000-\u001f]*/y;
  const NUM = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  const ESC = {'"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t'};
  const str = () => {
    ws();
    if (text[i] !== '"') fail('expected a string');
    let out = '';
    for (i++; ; ) {
      RUN.lastIndex = i;
      RUN.exec(text);
      out += text.slice(i, RUN.lastIndex);
      i = RUN.lastIndex;
      if (i >= text.length) fail('unterminated string');
      if (text[i] === '"') break;
      if (text[i] !== '\\') fail('raw control character in a string');
      const e = text[i + 1];
      if (e === 'u') {
        const h = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('bad \\u escape');
        out += String.fromCharCode(parseInt(h, 16));
        i += 6;
      } else if (Object.prototype.hasOwnProperty.call(ESC, e)) {
        out += ESC[e];
        i += 2;
      } else {
        fail('bad escape');
      }
    }
    i++;
    return out;
  };
  const num = () => {
    NUM.lastIndex = i;
    const m = NUM.exec(text);
    if (!m) fail('expected a value');
    i = NUM.lastIndex;
    if (m[2] || m[3]) return Number(m[0]);
    const n = Number(m[0]);
    return Number.isSafeInteger(n) ? n : BigInt(m[0]);
  };
  const list = (depth) => {
    expect('[');
    const out = [];
    ws();
    if (text[i] === ']') {
      i++;
      return out;
    }
    for (;;) {
      out.push(value(depth));
      ws();
      if (text[i] === ']') break;
      expect(',');
    }
    i++;
    return out;
  };
  const entries = (depth) => {
    expect('{');
    const out = [];
    ws();
    if (text[i] === '}') {
      i++;
      return out;
    }
    for (;;) {
      const k = str();
      expect(':');
      if (out.some((e) => e[0] === k)) fail('duplicate key');
      out.push([k, value(depth)]);
      ws();
      if (text[i] === '}') break;
      expect(',');
    }
    i++;
    return out;
  };
  const tagged = (depth) => {
    const e = entries(depth);
    if (e.length !== 1) fail('an object must be one tagged value');
    const [tag, x] = e[0];
    if (tag === 'float' && (x === 'nan' || x === 'inf' || x === '-inf'))
      return x === 'nan' ? NaN : x === 'inf' ? Infinity : -Infinity;
    if (tag === 'char' && typeof x === 'string' && [...x].length === 1) return x;
    if (tag === 'tuple' && Array.isArray(x)) return x;
    if (tag === 'set' && Array.isArray(x)) return new Set(x);
    if (tag === 'map' && Array.isArray(x)) {
      if (!x.every((p) => Array.isArray(p) && p.length === 2)) fail('a map holds [key, value]');
      if (x.every((p) => typeof p[0] === 'string')) return wireObject(x);
      return new Map(x);
    }
    fail('unknown tagged value');
  };
  const value = (depth) => {
    if (depth > WIRE_DEPTH) fail('value nested too deeply');
    ws();
    const c = text[i];
    if (c === '[') return list(depth + 1);
    if (c === '{') return tagged(depth + 1);
    if (c === '"') return str();
    for (const [w, v] of [['true', true], ['false', false], ['null', null]])
      if (text.startsWith(w, i)) {
        i += w.length;
        return v;
      }
    return num();
  };
  const out = message ? entries(0) : value(0);
  ws();
  if (i !== text.length) fail('trailing bytes');
  return out;
}
