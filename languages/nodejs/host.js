// The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), loaded by
// the line the template's `join` adds after the program's code, with a function that looks a
// name up in the program's module scope (a direct eval there of an identifier). It holds no
// secret and decides nothing: it answers each {"call":NAME,"args":[...]} with {"ok":VALUE} or
// {"raise":TYPE,"message":TEXT} (languages/wire.md, wire.js), one line each, until the grader
// closes the channel; the grader trusts nothing it says beyond the values it carries.

const verdictFs = require('fs');

function verdictServe(lookup) {
  const fs = verdictFs;
  const chunk = Buffer.alloc(1 << 16);
  const decoder = new TextDecoder('utf-8', {fatal: true});
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let held = [];
  let heldLen = 0;
  const io = (f) => {
    for (;;) {
      try {
        return f();
      } catch (e) {
        if (e.code !== 'EAGAIN' && e.code !== 'EINTR') return -1;
        Atomics.wait(nap, 0, 0, 1);
      }
    }
  };
  const readLine = () => {
    for (;;) {
      const at = held.length ? held[held.length - 1].indexOf(10) : -1;
      if (at >= 0) {
        const all = Buffer.concat(held);
        const end = heldLen - held[held.length - 1].length + at;
        held = end + 1 < all.length ? [all.subarray(end + 1)] : [];
        heldLen = all.length - end - 1;
        return decoder.decode(all.subarray(0, end));
      }
      if (heldLen > WIRE_LINE_MAX) return null;
      const n = io(() => fs.readSync(3, chunk, 0, chunk.length, null));
      if (n <= 0) return null;
      held.push(Buffer.from(chunk.subarray(0, n)));
      heldLen += n;
    }
  };
  const write = (text) => {
    const b = Buffer.from(text + '\n');
    for (let off = 0; off < b.length; ) {
      const n = io(() => fs.writeSync(4, b, off, b.length - off));
      if (n < 0) return false;
      off += n;
    }
    return true;
  };
  const answer = (line) => {
    const m = wireParse(line, true);
    if (m.length !== 2 || m[0][0] !== 'call' || m[1][0] !== 'args' ||
        typeof m[0][1] !== 'string' || !Array.isArray(m[1][1]) ||
        !/^[A-Za-z_$][\w$]*$/.test(m[0][1]))
      throw new TypeError('not a call');
    const f = lookup(m[0][1]);
    if (typeof f !== 'function') throw new TypeError(m[0][1] + ' is not a function');
    return '{"ok":' + wireEncode(f(...m[1][1])) + '}';
  };
  const raised = (e) => {
    try {
      const type = e !== null && typeof e === 'object' && typeof e.name === 'string' ? e.name : '';
      const text = e !== null && typeof e === 'object' ? e.message : e;
      return '{"raise":' + JSON.stringify(type) + ',"message":' +
          JSON.stringify(String(text).slice(0, 2000)) + '}';
    } catch (_) {
      return '{"raise":"","message":""}';
    }
  };
  for (;;) {
    let line;
    try {
      line = readLine();
    } catch (_) {
      return; /* not UTF-8: not our grader */
    }
    if (line === null) return;
    let out;
    try {
      out = answer(line);
    } catch (e) {
      out = raised(e);
    }
    if (!write(out)) return;
  }
}

module.exports = verdictServe;
