/*
 * charts.js: SVG line charts, stacked bars and grouped bars, drawn from numbers (colours come
 * from classes in app.css, so they follow the theme). Each chart carries a <title> and a
 * <desc> for screen readers; the numbers are also in the page as text.
 */
"use strict";

(function () {
  const V = window.V;
  const s = V.s;

  /* A "nice" upper bound at or above x (1, 2, 5 times a power of ten). */
  function nice(x) {
    if (!(x > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(x)));
    for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
    return 10 * p;
  }

  /* Charts are drawn in user units at about the size they show, so that their text stays
   * legible on a phone: narrower there. */
  const width = () => (window.innerWidth < 640 ? 360 : 600);

  function label(x) {
    if (x >= 1e6) return (x / 1e6).toFixed(1) + "M";
    if (x >= 1e3) return (x / 1e3).toFixed(1) + "k";
    if (x >= 10 || x === 0) return String(Math.round(x));
    return x.toFixed(1);
  }

  /* lines: [{name, values: [number|null], cls}], over times (ms) t. */
  V.lineChart = function lineChart(title, t, lines, unit) {
    const W = width(),
      H = 180,
      L = 44,
      R = 8,
      T = 10,
      B = 24;
    let max = 0;
    for (const l of lines) for (const v of l.values) if (v !== null && v > max) max = v;
    const top = 4 * nice(max / 4);
    const n = Math.max(t.length, 2);
    const X = (i) => L + ((W - L - R) * i) / (n - 1);
    const Y = (v) => T + (H - T - B) * (1 - v / top);
    const svg = s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title },
      s("title", null, title)
    );
    const last = lines
      .map((l) => {
        const v = [...l.values].reverse().find((x) => x !== null);
        return `${l.name} ${v === undefined ? "none" : label(v)}${unit ? " " + unit : ""}`;
      })
      .join(", ");
    svg.appendChild(s("desc", null, `latest: ${last}`));
    for (let k = 0; k <= 4; k++) {
      const v = (top * k) / 4;
      svg.appendChild(s("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid" }));
      svg.appendChild(s("text", { x: L - 4, y: Y(v) + 4, class: "tick", "text-anchor": "end" }, label(v)));
    }
    if (t.length) {
      const fmt = (ms) => {
        const d = new Date(ms);
        return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
      };
      for (const i of [0, Math.floor((t.length - 1) / 2), t.length - 1])
        svg.appendChild(
          s("text", { x: X(i), y: H - 6, class: "tick", "text-anchor": i === 0 ? "start" : i === t.length - 1 ? "end" : "middle" }, fmt(t[i]))
        );
    }
    lines.forEach((l, j) => {
      let d = "";
      let pen = false;
      l.values.forEach((v, i) => {
        if (v === null || v === undefined) {
          pen = false;
          return;
        }
        d += `${pen ? "L" : "M"}${X(i).toFixed(1)},${Y(v).toFixed(1)}`;
        pen = true;
      });
      if (d) svg.appendChild(s("path", { d, class: "line " + (l.cls || "s" + j) }));
    });
    return V.h("figure", { class: "chart-box" }, V.h("figcaption", null, title), svg, legend(lines.map((l, j) => [l.name, l.cls || "s" + j])));
  };

  function legend(items) {
    return V.h(
      "ul",
      { class: "legend" },
      items.map(([name, cls]) => V.h("li", null, V.h("span", { class: "key " + cls, "aria-hidden": "true" }), name))
    );
  }
  V.legend = legend;

  /* rows: [[name, {verdict: n}]]: one horizontal bar per row, one segment per verdict. */
  V.stackedBars = function stackedBars(title, rows) {
    const W = width(),
      L = W < 600 ? 84 : 110,
      R = 40,
      rowH = 24;
    const H = Math.max(rows.length, 1) * rowH + 8;
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart bars", role: "img", "aria-label": title }, s("title", null, title));
    const seen = new Set();
    if (!rows.length)
      svg.appendChild(s("text", { x: W / 2, y: 20, class: "tick", "text-anchor": "middle" }, "nothing judged in the window"));
    rows.forEach(([name, counts], r) => {
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      const y = 4 + r * rowH;
      const nm = name.length > 14 ? name.slice(0, 13) + "…" : name;
      svg.appendChild(s("text", { x: L - 6, y: y + 15, class: "tick", "text-anchor": "end" }, nm));
      let x = L;
      for (const [v, n] of Object.entries(counts).sort()) {
        if (!n) continue;
        const w = total ? ((W - L - R) * n) / total : 0;
        const cls = /^[A-Za-z_]+$/.test(v) ? "v-" + v : "v-other";
        seen.add(v);
        svg.appendChild(s("rect", { x, y, width: Math.max(w, 0.5), height: rowH - 6, class: "seg " + cls }, s("title", null, `${name} ${v}: ${n}`)));
        x += w;
      }
      svg.appendChild(s("text", { x: W - R + 6, y: y + 15, class: "tick" }, String(total)));
    });
    const desc = rows.map(([n, c]) => `${n}: ` + Object.entries(c).map(([v, k]) => `${v} ${k}`).join(", ")).join("; ");
    svg.appendChild(s("desc", null, desc || "none"));
    return V.h("figure", { class: "chart-box" }, V.h("figcaption", null, title), svg, legend([...seen].sort().map((v) => [v, "v-" + v])));
  };

  /* groups: category names (e.g. pass@1, pass@10); series: [{name, values: [0..1]}]. */
  V.groupedBars = function groupedBars(title, groups, series) {
    const W = width(),
      H = 220,
      L = 44,
      R = 8,
      T = 10,
      B = 28;
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title }, s("title", null, title));
    const Y = (v) => T + (H - T - B) * (1 - v);
    for (let k = 0; k <= 4; k++) {
      const v = k / 4;
      svg.appendChild(s("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid" }));
      svg.appendChild(s("text", { x: L - 4, y: Y(v) + 4, class: "tick", "text-anchor": "end" }, `${k * 25}%`));
    }
    const gw = (W - L - R) / Math.max(groups.length, 1);
    const bw = Math.min(40, (gw * 0.8) / Math.max(series.length, 1));
    groups.forEach((g, i) => {
      const x0 = L + i * gw + (gw - bw * series.length) / 2;
      series.forEach((sr, j) => {
        const v = sr.values[i];
        if (v === null || v === undefined) return;
        svg.appendChild(
          s("rect", { x: x0 + j * bw, y: Y(v), width: bw - 2, height: Y(0) - Y(v), class: "bar s" + (j % 6) }, s("title", null, `${sr.name} ${g}: ${(100 * v).toFixed(1)}%`))
        );
      });
      svg.appendChild(s("text", { x: L + i * gw + gw / 2, y: H - 8, class: "tick", "text-anchor": "middle" }, g));
    });
    svg.appendChild(
      s("desc", null, series.map((sr) => sr.name + ": " + groups.map((g, i) => `${g} ${sr.values[i] === null || sr.values[i] === undefined ? "none" : (100 * sr.values[i]).toFixed(1) + "%"}`).join(", ")).join("; "))
    );
    return V.h("figure", { class: "chart-box" }, V.h("figcaption", null, title), svg, legend(series.map((sr, j) => [sr.name, "s" + (j % 6)])));
  };
})();
