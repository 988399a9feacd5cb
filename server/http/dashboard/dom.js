/*
 * dom.js: building the page. Every string that comes from the server (code, output, names,
 * labels) goes in as a text node: nothing here parses HTML, so what a submission printed is
 * shown, never run.
 */
"use strict";

const V = (window.V = window.V || {});

/* h("a", {href: "#/", class: "x"}, "text", child...): an element. Attributes are set with
 * setAttribute (no "on*" handlers, no "style": the page's CSP forbids inline script and
 * style); children are nodes, strings (text nodes) or arrays of them; null is skipped. */
V.h = function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  V.attrs(el, attrs);
  V.append(el, children);
  return el;
};

V.SVG = "http://www.w3.org/2000/svg";

V.s = function s(tag, attrs, ...children) {
  const el = document.createElementNS(V.SVG, tag);
  V.attrs(el, attrs);
  V.append(el, children);
  return el;
};

V.attrs = function attrs(el, a) {
  if (!a) return;
  for (const [k, v] of Object.entries(a)) {
    if (v === null || v === undefined || v === false) continue;
    if (/^on/i.test(k) || k === "style") throw new Error("no inline handlers or styles");
    el.setAttribute(k, v === true ? "" : String(v));
  }
};

V.append = function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) V.append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
};

V.clear = function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
};

/* GET (or POST with a JSON body) a route; the JSON answer, or an Error with the detail. */
V.api = async function api(path, body) {
  const opts = { credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let doc = null;
  try {
    doc = await r.json();
  } catch (e) {
    doc = null;
  }
  if (!r.ok) {
    let d = doc && doc.detail;
    if (Array.isArray(d))
      d = d.map((e) => (e.loc ? e.loc.join(".") + ": " : "") + (e.msg || "")).join("; ");
    const err = new Error(`${r.status}: ${d || r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return doc;
};

V.fmt = {
  num(x, digits) {
    if (x === null || x === undefined || Number.isNaN(x)) return "–";
    if (digits !== undefined) return Number(x).toFixed(digits);
    return Number(x).toLocaleString("en");
  },
  ms(x) {
    if (x === null || x === undefined) return "–";
    if (x >= 10000) return (x / 1000).toFixed(1) + " s";
    return Math.round(x) + " ms";
  },
  kib(x) {
    if (x === null || x === undefined) return "–";
    if (x >= 1024 * 1024) return (x / 1024 / 1024).toFixed(1) + " GiB";
    if (x >= 1024) return (x / 1024).toFixed(1) + " MiB";
    return x + " KiB";
  },
  bytes(x) {
    if (x === null || x === undefined) return "–";
    return V.fmt.kib(Math.round(x / 1024));
  },
  pct(x) {
    if (x === null || x === undefined || Number.isNaN(x)) return "–";
    return (100 * x).toFixed(1) + "%";
  },
  time(ms) {
    if (ms === null || ms === undefined) return "–";
    const d = new Date(ms);
    const p = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(
      d.getMinutes()
    )}:${p(d.getSeconds())}`;
  },
  str(x) {
    return x === null || x === undefined || x === "" ? "–" : String(x);
  },
  /* A duration in seconds: "42 s", "3 min 5 s", "2 h 10 min". */
  dur(s) {
    if (s === null || s === undefined || Number.isNaN(s)) return "–";
    const t = Math.max(0, Math.round(s));
    if (t < 60) return t + " s";
    if (t < 3600) return `${Math.floor(t / 60)} min ${t % 60} s`;
    return `${Math.floor(t / 3600)} h ${Math.floor((t % 3600) / 60)} min`;
  },
};

/* A verdict as a badge (class by verdict name, text the name). */
V.badge = function badge(v) {
  const name = v === null || v === undefined ? "–" : String(v);
  const cls = /^[A-Za-z_]+$/.test(name) ? "v-" + name : "v-other";
  return V.h("span", { class: "badge " + cls }, name);
};

/* A table with a caption, header cells (scope=col) and rows of cells (nodes or text). */
V.table = function table(caption, heads, rows, opts) {
  const o = opts || {};
  const t = V.h(
    "table",
    { class: o.class || "data" },
    caption ? V.h("caption", null, caption) : null,
    V.h(
      "thead",
      null,
      V.h(
        "tr",
        null,
        heads.map((x) => V.h("th", { scope: "col" }, x))
      )
    ),
    V.h(
      "tbody",
      null,
      rows.map((r) =>
        V.h(
          "tr",
          r.attrs || null,
          (r.cells || r).map((c, i) => (i === 0 && o.rowHeader ? V.h("th", { scope: "row" }, c) : V.h("td", null, c)))
        )
      )
    )
  );
  return V.h("div", { class: "table-wrap" }, t);
};

/* A <dl> of [term, value] pairs. */
V.dl = function dl(pairs, cls) {
  return V.h(
    "dl",
    { class: cls || "facts" },
    pairs.filter(Boolean).map(([k, v]) => V.h("div", null, V.h("dt", null, k), V.h("dd", null, v)))
  );
};

/* The query of a hash route ("#/submissions?language=c") as a URLSearchParams. */
V.params = function params(query) {
  return new URLSearchParams(query || "");
};

V.say = function say(text) {
  const s = document.getElementById("status");
  if (s) s.textContent = text;
};

V.error = function error(e) {
  return V.h("p", { class: "error", role: "alert" }, String(e && e.message ? e.message : e));
};
