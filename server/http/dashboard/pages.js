/*
 * pages.js: the dashboard's pages, each a function (main element, route) that fills main
 * from the JSON routes (docs/api.md) and may return a stop function (the timers of the
 * overview and the sessions page).
 */
"use strict";

(function () {
  const V = window.V;
  const h = V.h;
  const f = V.fmt;
  const P = (V.pages = {});

  const VERDICTS = ["OK", "WA", "TLE", "MLE", "OLE", "RE", "CE", "SE", "SKIP"];
  const ROUTES = ["/run_code", "/v1/judge", "/v1/judge/batch", "/submit", "/run_jupyter"];
  /* How a submission's tests were decided (docs/integrity/grading.md); null: none decided. */
  const GRADINGS = {
    isolated: "tests run in a grader process the program never runs in",
    output: "stdout compared outside the sandbox",
    "in-process": "tests in the program's own process, sealed by a completion marker",
    "exit-status": "tests joined to the program: any exit 0 passes",
  };

  function grading(g) {
    if (!g) return h("span", { class: "grading grading-none", title: "no test decided (a plain run)" }, "–");
    const known = Object.prototype.hasOwnProperty.call(GRADINGS, g);
    return h("span", { class: "grading grading-" + (known ? g : "other"), title: known ? GRADINGS[g] : null }, g);
  }

  function title(main, text, ...extra) {
    const h1 = h("h1", { id: "page-title" }, text, ...extra);
    main.appendChild(h1);
    document.title = `${typeof text === "string" ? text : "verdict"} · verdict`;
    return h1;
  }

  function section(heading, ...children) {
    return h("section", { class: "panel" }, h("h2", null, heading), ...children);
  }

  function mix(counts) {
    if (!counts) return "–";
    const parts = Object.entries(counts).filter(([, n]) => n);
    if (!parts.length) return "–";
    return h(
      "span",
      { class: "mix" },
      parts.map(([v, n]) => h("span", { class: "mix-item" }, V.badge(v), " ", String(n)))
    );
  }

  function rate(passed, total) {
    return total ? f.pct(passed / total) : "–";
  }

  /* Cards in `box`, made once and their numbers updated in place, so that a live region
   * announces what changed, not the whole set every 2 s: card(id, name, value, sub, warn). */
  function cardMaker(box) {
    const made = {};
    return function card(id, name, value, sub, warn) {
      let c = made[id];
      if (!c) {
        c = made[id] = {
          box: h("div", { class: "card", id }),
          value: h("div", { class: "card-value" }),
          sub: h("div", { class: "card-sub" }),
        };
        c.box.append(h("div", { class: "card-name" }, name), c.value, c.sub);
        box.append(c.box);
      }
      if (c.value.textContent !== value) c.value.textContent = value;
      if (c.sub.textContent !== (sub || "")) c.sub.textContent = sub || "";
      c.box.classList.toggle("warn", !!warn);
    };
  }

  /* A page that reads `load()` every 2 s and draws it: the first answer is awaited (so
   * that data-ready means drawn), then a timer; returns the stop function. */
  async function every2s(err, load, draw) {
    let stopped = false;
    let timer = null;
    async function tick() {
      try {
        const doc = await load();
        if (stopped) return;
        V.clear(err);
        draw(doc);
      } catch (e) {
        if (stopped) return;
        V.clear(err).append(V.error(e));
      }
      if (!stopped) timer = setTimeout(tick, 2000);
    }
    await tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  /* ---- overview: /v1/stats every 2 s ------------------------------------------------ */

  P.overview = function overview(main) {
    title(main, "Overview");
    const cards = h("div", { class: "cards", id: "live-cards", "aria-live": "polite" });
    const charts = h("div", { class: "charts" });
    const mixes = h("div", { class: "charts" });
    const err = h("div", { class: "overview-error" });
    const stamp = h("p", { class: "muted", id: "stats-stamp" }, "loading…");
    main.append(stamp, err, cards, section("Over the last 15 minutes", charts), section("Verdicts by language and by route", mixes));

    const card = cardMaker(cards);

    function draw(st, ss) {
      const q = st.queue || {};
      const c = st.cells || {};
      const lat = st.latency_ms || {};
      const store = st.store || {};
      card("card-throughput", "Throughput", `${f.num(st.throughput_rps, 1)} /s`, "judged, last 60 s");
      card("card-latency", "Latency p50 / p90 / p99", `${f.ms(lat.p50)} / ${f.ms(lat.p90)} / ${f.ms(lat.p99)}`, "last 60 s");
      card("card-queue", "Queue", `${f.num(q.queued)} queued`, `${f.num(q.running)} running of ${f.num(q.capacity)}`);
      card("card-inflight", "In flight", f.num(st.in_flight), "");
      card("card-cells", "Cells busy", `${f.num(c.busy)} / ${f.num(c.started)}`, `up to ${f.num(c.max)}`);
      card("card-se", "Sandbox errors", f.num(st.sandbox_errors), "SE over the window", st.sandbox_errors > 0);
      card(
        "card-store",
        "Store",
        !store.enabled ? "off" : store.ok ? "ok" : "failing",
        store.enabled
          ? `${f.num(store.written)} written, ${f.num(store.queued)} queued, ${f.num(store.dropped)} dropped, ${f.num(store.errors)} errors, ${f.bytes(store.db_bytes)}` +
              (store.last_error ? ` — ${store.last_error}` : "")
          : "--store off: nothing kept",
        store.enabled && !store.ok
      );
      if (ss)
        card(
          "card-sessions",
          "Sessions open",
          ss.max ? `${f.num(ss.open)} / ${f.num(ss.max)}` : "off",
          ss.max ? `${f.num((ss.totals || {}).calls)} calls` : "--max-sessions 0"
        );
      const series = st.series || [];
      const t = series.map((b) => b.t);
      const per = st.bucket_s || 5;
      const val = (k) => series.map((b) => (b[k] === null || b[k] === undefined ? null : b[k]));
      V.clear(charts).append(
        V.lineChart("Throughput (per second)", t, [
          { name: "judged", values: series.map((b) => (b.judged || 0) / per) },
          { name: "requests", values: series.map((b) => (b.requests || 0) / per) },
          { name: "errors (5xx)", values: series.map((b) => (b.errors || 0) / per), cls: "s3" },
        ], "/s"),
        V.lineChart("Latency (ms)", t, [
          { name: "p50", values: val("p50_ms") },
          { name: "p90", values: val("p90_ms") },
          { name: "p99", values: val("p99_ms") },
        ], "ms"),
        V.lineChart("Queue depth", t, [
          { name: "queued", values: val("queued") },
          { name: "running", values: val("running") },
        ]),
        V.lineChart("Cells busy", t, [{ name: "busy", values: val("cells_busy") }])
      );
      const rows = (o) => Object.entries(o || {}).sort((a, b) => a[0].localeCompare(b[0]));
      V.clear(mixes).append(V.stackedBars("By language", rows(st.by_language)), V.stackedBars("By route", rows(st.by_route)));
      stamp.textContent = `updated ${f.time(st.now_ms)} · up ${f.num(Math.round(st.uptime_s || 0))} s · refreshes every 2 s`;
      main.setAttribute("data-updated", String(st.now_ms));
    }

    /* The sessions' card is extra: a server without the route shows none. */
    const load = () => Promise.all([V.api("/v1/stats"), V.api("/v1/sessions").catch(() => null)]);
    return every2s(err, load, ([st, ss]) => draw(st, ss));
  };

  /* ---- sessions: /v1/sessions every 2 s ------------------------------------------------- */

  const CLOSE_REASONS = ["deleted", "idle", "lifetime", "lost", "shutdown"];

  P.sessions = function sessions(main) {
    title(main, "Sessions");
    const stamp = h("p", { class: "muted", id: "sessions-stamp" }, "loading…");
    const err = h("div", { class: "sessions-error" });
    const cards = h("div", { class: "cards", id: "session-cards", "aria-live": "polite" });
    const out = h("div", { id: "sessions" });
    main.append(stamp, err, cards, section("Open sessions", out));
    const card = cardMaker(cards);

    function draw(doc) {
      const t = doc.totals || {};
      const closed = t.closed || {};
      const nClosed = CLOSE_REASONS.reduce((n, k) => n + (closed[k] || 0), 0);
      card("sess-open", "Open", doc.max ? `${f.num(doc.open)} / ${f.num(doc.max)}` : "off", doc.max ? "open / --max-sessions" : "--max-sessions 0");
      card("sess-opened", "Opened", f.num(t.opened), "since the server started");
      card(
        "sess-closed",
        "Closed",
        f.num(nClosed),
        CLOSE_REASONS.filter((k) => closed[k]).map((k) => `${k} ${f.num(closed[k])}`).join(", ") || "none yet",
        closed.lost > 0
      );
      card("sess-calls", "Calls", f.num(t.calls), "exec, all sessions");
      card("sess-refused", "Refused", f.num(t.refused), "503: at --max-sessions or no cell", t.refused > 0);

      const list = doc.sessions || [];
      const rows = list.map((x) => {
        const shown = String(x.id);
        const ev = x.events || {};
        const interp = x.interpreter;
        /* The server's clock: now is the last call (or the opening) plus the idle time. */
        const now = typeof x.idle_s === "number" ? (x.last_call_at || x.created_at) + x.idle_s : Date.now() / 1000;
        const last = x.last && x.last.verdict ? h("span", { title: x.last.message || null }, V.badge(x.last.verdict)) : "–";
        return {
          attrs: { "data-id": shown.replace(/…$/, "") },
          cells: [
            h("span", { class: "sid" }, shown),
            h("span", { class: "lang" }, f.str(x.language)),
            h("span", { class: "state state-" + (x.state === "busy" ? "busy" : "open") }, f.str(x.state)),
            f.dur(now - x.created_at),
            f.dur(x.idle_s),
            h("span", { class: "calls" }, f.num(x.calls)),
            f.ms(x.cpu_ms),
            `${f.kib(x.memory_kib)} / ${f.kib(x.memory_peak_kib)}`,
            interp ? `${f.num(interp.starts)}${interp.starts > 0 && interp.alive === false ? " (down)" : ""}` : "–",
            h("span", { class: ev.lost > 0 ? "events bad" : "events" }, `${f.num(ev.tle || 0)} / ${f.num(ev.mle || 0)} / ${f.num(ev.lost || 0)}`),
            last,
          ],
        };
      });
      V.clear(out);
      if (!rows.length) out.append(h("p", { class: "empty" }, "No open sessions."));
      else
        out.append(
          V.table(
            `${rows.length} open session${rows.length === 1 ? "" : "s"}`,
            ["Session", "Language", "State", "Age", "Idle for", "Calls", "CPU", "Memory now / peak", "Interpreter starts", "TLE / MLE / lost", "Last verdict"],
            rows,
            { rowHeader: true, class: "data sessions" }
          )
        );
      stamp.textContent = `updated ${f.time(Date.now())} · refreshes every 2 s`;
      main.setAttribute("data-updated", String(Date.now()));
    }

    return every2s(err, () => V.api("/v1/sessions"), draw);
  };

  /* ---- submissions --------------------------------------------------------------------- */

  const FILTERS = ["language", "verdict", "grading", "route", "dataset", "problem", "client"];

  function subsLink(params, extra) {
    const q = new URLSearchParams();
    for (const k of [...FILTERS, "limit"]) if (params.get(k)) q.set(k, params.get(k));
    for (const [k, v] of Object.entries(extra || {})) q.set(k, v);
    const s = q.toString();
    return "#/submissions" + (s ? "?" + s : "");
  }

  P.submissions = async function submissions(main, route) {
    const params = V.params(route.query);
    title(main, "Submissions");
    const form = h("form", { class: "filters", id: "filters", "aria-label": "Filter submissions" });
    const field = (name, labelText, input) =>
      h("div", { class: "field" }, h("label", { for: "f-" + name }, labelText), input);
    const text = (name, placeholder) =>
      h("input", { id: "f-" + name, name, type: "text", value: params.get(name) || "", placeholder, autocomplete: "off" });
    const select = (name, opts) => {
      const sel = h("select", { id: "f-" + name, name }, h("option", { value: "" }, "any"), opts.map((o) => h("option", { value: o }, o)));
      sel.value = params.get(name) || "";
      return sel;
    };
    const langInput = text("language", "e.g. python");
    langInput.setAttribute("list", "language-names");
    const names = h("datalist", { id: "language-names" });
    V.api("/v1/languages")
      .then((ls) => names.append(...ls.filter((l) => l.available).map((l) => h("option", { value: l.name }))))
      .catch(() => {}); /* a suggestion list only */
    form.append(
      field("language", "Language", langInput),
      names,
      field("verdict", "Verdict", select("verdict", VERDICTS)),
      field("grading", "Decided by", select("grading", Object.keys(GRADINGS))),
      field("route", "Route", select("route", ROUTES)),
      field("dataset", "Dataset", text("dataset", "")),
      field("problem", "Problem", text("problem", "")),
      field("client", "Client", text("client", "label or address")),
      h("div", { class: "field buttons" }, h("button", { type: "submit" }, "Filter"), h("a", { href: "#/submissions", class: "button-link" }, "Clear"))
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const q = new URLSearchParams();
      for (const k of FILTERS) {
        const v = form.elements[k].value.trim();
        if (v) q.set(k, v);
      }
      const s = q.toString();
      location.hash = "#/submissions" + (s ? "?" + s : "");
    });
    main.appendChild(form);
    const out = h("div", { id: "submissions" }, h("p", { class: "muted" }, "loading…"));
    main.appendChild(out);

    const q = new URLSearchParams();
    for (const k of [...FILTERS, "limit", "before"]) if (params.get(k)) q.set(k, params.get(k));
    let doc;
    try {
      doc = await V.api("/v1/submissions" + (q.toString() ? "?" + q : ""));
    } catch (e) {
      V.clear(out).append(V.error(e));
      return;
    }
    const rows = doc.submissions.map((r) => ({
      attrs: { "data-id": r.id },
      cells: [
        h("a", { href: `#/submissions/${r.id}`, class: "sub-link" }, `#${r.id}`),
        f.time(r.at),
        f.str(r.route),
        f.str(r.language),
        r.dataset ? `${r.dataset}${r.problem !== null && r.problem !== undefined ? " / " + r.problem : ""}` : "–",
        V.badge(r.verdict),
        grading(r.grading),
        h("span", { class: "counts" }, r.total !== null && r.total !== undefined ? `${r.passed}/${r.total}` : "–"),
        r.reward === null || r.reward === undefined ? "–" : f.num(r.reward, 2),
        f.ms(r.cpu_ms),
        f.ms(r.wall_ms),
        f.kib(r.memory_kib),
        f.str(r.label || r.client),
      ],
    }));
    V.clear(out);
    if (!rows.length) out.append(h("p", { class: "empty" }, "No submissions match."));
    else
      out.append(
        V.table(
          `Submissions, newest first${params.get("before") ? ` (before #${params.get("before")})` : ""}`,
          ["Id", "At", "Route", "Language", "Dataset / problem", "Verdict", "Decided by", "Passed", "Reward", "CPU", "Wall", "Memory", "Client"],
          rows,
          { class: "data submissions" }
        )
      );
    const pager = h("nav", { class: "pager", "aria-label": "Pages" });
    if (params.get("before")) pager.append(h("a", { href: subsLink(params), id: "newest" }, "← Newest"));
    if (doc.next_before !== null && doc.next_before !== undefined)
      pager.append(h("a", { href: subsLink(params, { before: doc.next_before }), id: "older" }, "Older →"));
    out.append(pager);
    V.say(`${rows.length} submissions shown`);
  };

  /* ---- one submission ------------------------------------------------------------------- */

  const KEYWORDS = new Set(
    ("and as assert async await auto break case catch char class const continue def default del delete do double elif else " +
      "end enum except export extends extern false final finally float fn for from func function go if impl import in " +
      "include int interface is lambda let long loop match mod module mut namespace new nil none None not null or package " +
      "pass private protected pub public raise return self short signed sizeof static struct super switch template then " +
      "this throw throws true True False try type typedef typename union unsigned use using val var void volatile where while with yield")
      .split(" ")
  );
  const HASH_COMMENT = new Set(["python", "python3", "pypy", "ruby", "perl", "r", "bash", "shell", "sh", "julia", "elixir", "nim", "cpp_hash", "jupyter"]);
  const DASH_COMMENT = new Set(["lua", "sql", "haskell", "ada"]);

  /* One line of code as spans (text nodes, classes for strings, comments, numbers, keywords). */
  function highlight(line, lang, state) {
    const out = [];
    const hash = HASH_COMMENT.has(lang) || /^python/.test(lang || "");
    const dash = DASH_COMMENT.has(lang);
    let i = 0;
    let plain = "";
    const flush = () => {
      if (plain) out.push(document.createTextNode(plain));
      plain = "";
    };
    const span = (cls, text) => {
      flush();
      out.push(h("span", { class: "tok-" + cls }, text));
    };
    if (state.block) {
      const end = line.indexOf("*/");
      if (end < 0) {
        span("com", line);
        return out;
      }
      span("com", line.slice(0, end + 2));
      i = end + 2;
      state.block = false;
    }
    if (!hash && /^\s*#/.test(line)) {
      span("pre", line);
      return out;
    }
    while (i < line.length) {
      const rest = line.slice(i);
      let m;
      if ((hash && rest[0] === "#") || (!hash && rest.startsWith("//")) || (dash && rest.startsWith("--"))) {
        span("com", rest);
        break;
      }
      if (!hash && rest.startsWith("/*")) {
        const end = rest.indexOf("*/", 2);
        if (end < 0) {
          span("com", rest);
          state.block = true;
          break;
        }
        span("com", rest.slice(0, end + 2));
        i += end + 2;
        continue;
      }
      if ((m = /^("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)/.exec(rest))) {
        span("str", m[0]);
        i += m[0].length;
        continue;
      }
      if ((m = /^\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(rest)) && !/[A-Za-z0-9_]/.test(line[i - 1] || "")) {
        span("num", m[0]);
        i += m[0].length;
        continue;
      }
      if ((m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
        if (KEYWORDS.has(m[0])) span("kw", m[0]);
        else plain += m[0];
        i += m[0].length;
        continue;
      }
      plain += line[i];
      i++;
    }
    flush();
    return out;
  }

  function codeBlock(code, lang, caption) {
    const lines = code.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const state = { block: false };
    const table = h(
      "table",
      { class: "code", "aria-label": caption },
      h(
        "tbody",
        null,
        lines.map((l, i) =>
          h("tr", null, h("td", { class: "ln", "aria-hidden": "true" }, String(i + 1)), h("td", { class: "src" }, highlight(l, lang, state)))
        )
      )
    );
    return h("div", { class: "code-wrap", tabindex: "0", role: "region", "aria-label": caption }, table);
  }

  function pre(text, label, cls) {
    return h(
      "div",
      { class: "out" },
      h("div", { class: "out-label" }, label),
      text === null || text === undefined || text === ""
        ? h("p", { class: "muted" }, "(empty)")
        : h("pre", { class: cls || "text", tabindex: "0" }, text)
    );
  }

  /* A line diff of expected against actual (longest common subsequence). */
  function diffLines(a, b) {
    const lines = (t) => (t.endsWith("\n") ? t.slice(0, -1) : t).split("\n"); /* a final newline is no line */
    const A = lines(a),
      B = lines(b);
    if (A.length * B.length > 250000) return null;
    const n = A.length,
      m = B.length;
    const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) L[i][j] = A[i] === B[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    const out = [];
    let i = 0,
      j = 0;
    while (i < n && j < m) {
      if (A[i] === B[j]) {
        out.push([" ", A[i]]);
        i++;
        j++;
      } else if (L[i + 1][j] >= L[i][j + 1]) out.push(["-", A[i++]]);
      else out.push(["+", B[j++]]);
    }
    while (i < n) out.push(["-", A[i++]]);
    while (j < m) out.push(["+", B[j++]]);
    return out;
  }

  function diffView(expected, actual) {
    const d = diffLines(expected || "", actual || "");
    const same = d ? d.every(([op]) => op === " ") : (expected || "") === (actual || "");
    const box = h(
      "div",
      { class: "out diff-box" },
      h("div", { class: "out-label" }, "Expected / actual ", h("span", { class: "muted" }, same ? "(identical)" : "(− expected, + actual)"))
    );
    if (!d) {
      box.append(h("div", { class: "two" }, pre(expected, "Expected"), pre(actual, "Actual")));
      return box;
    }
    box.append(
      h(
        "pre",
        { class: "diff", tabindex: "0" },
        d.map(([op, text]) =>
          h("span", { class: op === "-" ? "del" : op === "+" ? "ins" : "same" }, h("span", { class: "op", "aria-label": op === "-" ? "expected" : op === "+" ? "actual" : "" }, op + " "), text + "\n")
        )
      )
    );
    return box;
  }

  P.submission = async function submission(main, route) {
    const id = route.arg;
    const h1 = title(main, `Submission #${id}`);
    let r;
    try {
      r = await V.api(`/v1/submissions/${encodeURIComponent(id)}`);
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    h1.append(" ", V.badge(r.verdict));
    const d = r.detail || {};
    main.append(
      h("p", null, h("a", { href: "#/submissions" }, "← All submissions")),
      section(
        "Summary",
        V.dl([
          ["Id", String(r.id)],
          ["At", f.time(r.at)],
          ["Route", f.str(r.route)],
          ["Client", f.str(r.client)],
          ["Label", f.str(r.label)],
          ["Language", f.str(r.language)],
          ["Dataset", r.dataset ? h("a", { href: `#/datasets/${encodeURIComponent(r.dataset)}` }, r.dataset) : "–"],
          ["Problem", f.str(r.problem)],
          ["Verdict", V.badge(r.verdict)],
          ["Decided by", h("span", { id: "grading" }, grading(r.grading), r.grading ? ` — ${GRADINGS[r.grading] || ""}` : "")],
          ["Passed", r.total !== null && r.total !== undefined ? h("span", { id: "passed" }, `${r.passed}/${r.total}`) : "–"],
          ["Reward", r.reward === null || r.reward === undefined ? "–" : f.num(r.reward, 3)],
          ["CPU", f.ms(r.cpu_ms)],
          ["Wall", f.ms(r.wall_ms)],
          ["Memory", f.kib(r.memory_kib)],
          ["Compiled", r.compiled === null || r.compiled === undefined ? "–" : r.compiled ? (r.cached ? "yes (cached)" : "yes") : "no"],
          ["Code", h("span", null, `${f.num(r.code_bytes)} bytes`, h("br"), h("span", { class: "sha", title: f.str(r.code_sha256) }, `sha256 ${f.str(r.code_sha256).slice(0, 12)}…`))],
        ]),
        d.message ? h("p", { class: "message" }, d.message) : null
      )
    );
    main.append(
      section(
        "Code",
        r.code_truncated ? h("p", { class: "warn-text" }, `Kept truncated: the first ${f.num((r.code || "").length)} characters of ${f.num(r.code_bytes)} bytes.`) : null,
        codeBlock(r.code || "", r.language || "", `Code of submission ${r.id}`)
      )
    );
    if (d.compile && (d.compile.compiled || d.compile.output)) {
      const c = d.compile;
      main.append(
        section(
          "Compile",
          V.dl([
            ["Compiled", c.compiled ? "yes" : "no"],
            ["Cached", c.cached ? "yes" : "no"],
            ["Verdict", c.verdict ? V.badge(c.verdict) : "–"],
            ["Wall", f.ms(c.wall_ms)],
          ]),
          c.output !== undefined ? pre(c.output, "Compiler output") : null
        )
      );
    }
    if (d.limits) {
      const l = d.limits;
      const lim = (v, fn) => (v ? fn(v) : "the language's default");
      main.append(section("Limits", V.dl([["CPU", lim(l.cpu_ms, f.ms)], ["Wall", lim(l.wall_ms, f.ms)], ["Memory", lim(l.memory_kib, f.kib)]])));
    }
    const tests = d.tests || [];
    const ts = h("section", { class: "panel", id: "tests" }, h("h2", null, `Tests (${tests.length}${d.tests_dropped ? ` shown, ${d.tests_dropped} more not kept` : ""})`));
    if (!tests.length) ts.append(h("p", { class: "muted" }, "No tests ran."));
    for (const t of tests) {
      const box = h(
        "article",
        { class: "test", id: `test-${t.index}` },
        h("h3", null, `Test ${t.index} `, V.badge(t.verdict)),
        V.dl(
          [
            ["CPU", f.ms(t.cpu_ms)],
            ["Wall", f.ms(t.wall_ms)],
            ["Memory", f.kib(t.memory_kib)],
            ["Decided by", grading(r.grading)],
            t.exit_code !== undefined ? ["Exit code", f.str(t.exit_code)] : null,
            t.signal ? ["Signal", String(t.signal)] : null,
            t.reason ? ["Reason", t.reason] : null,
          ],
          "facts compact"
        )
      );
      if (t.stdin !== undefined) box.append(pre(t.stdin, "Stdin"));
      if (t.expected !== undefined) box.append(diffView(t.expected, t.stdout));
      else box.append(pre(t.stdout, "Stdout", "text stdout"));
      if (t.stdout_truncated) box.append(h("p", { class: "muted" }, "stdout truncated"));
      box.append(pre(t.stderr, "Stderr", "text stderr"));
      if (t.stderr_truncated) box.append(h("p", { class: "muted" }, "stderr truncated"));
      ts.append(box);
    }
    main.append(ts);
  };

  /* ---- datasets ------------------------------------------------------------------------- */

  P.datasets = async function datasets(main) {
    title(main, "Datasets");
    let doc;
    try {
      doc = await V.api("/v1/datasets");
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    const ds = doc.datasets || [];
    if (!ds.length) {
      main.append(h("p", { class: "empty" }, "No datasets imported (verdict serve --datasets DIR, or verdict datasets import)."));
      return;
    }
    main.append(
      V.table(
        "Imported datasets and how submissions against them fared",
        ["Dataset", "Format", "Problems", "Submissions", "Passed", "Pass rate", "Verdicts"],
        ds.map((d) => [
          h("a", { href: `#/datasets/${encodeURIComponent(d.name)}` }, d.name),
          f.str(d.format),
          f.num(d.problems),
          f.num(d.submissions),
          f.num(d.passed),
          rate(d.passed, d.submissions),
          mix(d.by_verdict),
        ]),
        { rowHeader: true }
      )
    );
  };

  P.dataset = async function dataset(main, route) {
    const name = route.arg;
    title(main, `Dataset ${name}`);
    let d;
    try {
      d = await V.api(`/v1/datasets/${encodeURIComponent(name)}`);
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    main.append(
      h("p", null, h("a", { href: "#/datasets" }, "← All datasets")),
      section(
        "Summary",
        V.dl([
          ["Format", f.str(d.format)],
          ["Problems", h("span", { id: "problem-count" }, f.num(Array.isArray(d.problems) ? d.problems.length : d.problems))],
          ["Submissions", h("a", { href: `#/submissions?dataset=${encodeURIComponent(name)}` }, f.num(d.submissions))],
          ["Passed", f.num(d.passed)],
          ["Pass rate", rate(d.passed, d.submissions)],
          ["Verdicts", mix(d.by_verdict)],
        ])
      )
    );
    const probs = d.problems || [];
    const rows = probs.map((p) => {
      const pid = String(p.id);
      const btn = h("button", { type: "button", class: "small", "aria-expanded": "false", "aria-label": `Show the text of problem ${pid}` }, "Text");
      const cell = h("div", { class: "prompt", hidden: true });
      btn.addEventListener("click", async () => {
        const open = btn.getAttribute("aria-expanded") === "true";
        btn.setAttribute("aria-expanded", open ? "false" : "true");
        cell.hidden = open;
        if (open || cell.firstChild) return;
        cell.append(h("p", { class: "muted" }, "loading…"));
        try {
          const r = await V.api("/get_prompt_by_id", { dataset: name, id: p.id });
          const text = typeof r.prompt === "string" ? r.prompt : JSON.stringify(r, null, 2);
          V.clear(cell).append(h("pre", { class: "text", tabindex: "0" }, text));
        } catch (e) {
          V.clear(cell).append(V.error(e));
        }
      });
      return [
        h("a", { href: `#/submissions?dataset=${encodeURIComponent(name)}&problem=${encodeURIComponent(pid)}` }, pid),
        f.num(p.submissions),
        f.num(p.passed),
        rate(p.passed, p.submissions),
        mix(p.by_verdict),
        h("div", null, btn, cell),
      ];
    });
    main.append(section(`Problems (${probs.length})`, V.table(null, ["Problem", "Submissions", "Passed", "Pass rate", "Verdicts", "Problem text"], rows, { rowHeader: true, class: "data problems" })));
  };

  /* ---- runs ----------------------------------------------------------------------------- */

  function passKeys(runs) {
    const keys = new Set();
    for (const r of runs) for (const k of Object.keys(r.pass_at_k || {})) keys.add(k);
    const num = (k) => parseInt(String(k).replace(/^pass@/, ""), 10);
    return [...keys].sort((a, b) => num(a) - num(b));
  }
  const passName = (k) => (/^\d+$/.test(k) ? "pass@" + k : k);

  P.runs = async function runs(main) {
    title(main, "Runs");
    let doc;
    try {
      doc = await V.api("/v1/runs");
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    const runs = doc.runs || [];
    if (!runs.length) {
      main.append(h("p", { class: "empty" }, "No runs recorded yet (verdict bench --server URL sends its summary here)."));
      return;
    }
    const keys = passKeys(runs);
    const chosen = new Set();
    const compare = h("button", { type: "button", id: "compare", disabled: true }, "Compare selected");
    const hint = h("span", { class: "muted", id: "compare-hint" }, " select two or more runs");
    compare.addEventListener("click", () => {
      location.hash = `#/runs/compare?ids=${[...chosen].join(",")}`;
    });
    const rows = runs.map((r) => {
      const box = h("input", { type: "checkbox", id: `pick-${r.id}`, "aria-label": `Select run ${r.id}`, value: r.id });
      box.addEventListener("change", () => {
        if (box.checked) chosen.add(r.id);
        else chosen.delete(r.id);
        compare.disabled = chosen.size < 2;
        hint.textContent = chosen.size < 2 ? " select two or more runs" : ` ${chosen.size} selected`;
      });
      return [
        box,
        h("a", { href: `#/runs/${r.id}` }, `#${r.id}`),
        f.time(r.at),
        f.str(r.dataset),
        f.str(r.label),
        f.str(r.model),
        f.num(r.problems),
        f.num(r.samples),
        ...keys.map((k) => (r.pass_at_k && typeof r.pass_at_k[k] === "number" ? f.pct(r.pass_at_k[k]) : "–")),
        r.seconds === null || r.seconds === undefined ? "–" : `${f.num(r.seconds, 1)} s`,
        r.interrupted ? "interrupted" : "",
      ];
    });
    main.append(
      h("div", { class: "toolbar" }, compare, hint),
      V.table("Benchmark runs, newest first", ["Select", "Run", "At", "Dataset", "Label", "Model", "Problems", "Samples", ...keys.map(passName), "Time", ""], rows, { class: "data runs" })
    );
  };

  function runName(r) {
    return `#${r.id}${r.label ? " " + r.label : r.model ? " " + r.model : ""}`;
  }

  P.run = async function run(main, route) {
    const id = route.arg;
    title(main, `Run #${id}`);
    let r;
    try {
      r = await V.api(`/v1/runs/${encodeURIComponent(id)}`);
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    const keys = passKeys([r]);
    main.append(
      h("p", null, h("a", { href: "#/runs" }, "← All runs")),
      section(
        "Summary",
        V.dl([
          ["At", f.time(r.at)],
          ["Dataset", r.dataset ? h("a", { href: `#/datasets/${encodeURIComponent(r.dataset)}` }, r.dataset) : "–"],
          ["Source", f.str(r.source)],
          ["Label", f.str(r.label)],
          ["Model", f.str(r.model)],
          ["Problems", f.num(r.problems)],
          ["Samples", f.num(r.samples)],
          ["Judged", f.num(r.judged)],
          ["Time", r.seconds === null || r.seconds === undefined ? "–" : `${f.num(r.seconds, 1)} s`],
          ["Interrupted", r.interrupted ? "yes" : "no"],
          ...keys.map((k) => [passName(k), typeof r.pass_at_k[k] === "number" ? f.pct(r.pass_at_k[k]) : "–"]),
          ["Verdicts", mix(r.verdicts)],
        ])
      )
    );
    const results = r.results || [];
    main.append(
      section(
        `Problems (${results.length})`,
        V.table(
          null,
          ["Problem", "Language", "Samples", "Passed", "Verdicts"],
          results.map((p) => [String(p.task_id), f.str(p.language), f.num(p.samples), f.num(p.passed), mix(p.verdicts)]),
          { rowHeader: true }
        )
      )
    );
    const failed = r.failed || [];
    if (failed.length)
      main.append(
        section(
          `Failed samples (${failed.length})`,
          V.table(null, ["Problem", "Language", "Verdict"], failed.map((x) => [String(x.task_id), f.str(x.language), V.badge(x.verdict)]), { rowHeader: true })
        )
      );
  };

  P.compare = async function compare(main, route) {
    const ids = (V.params(route.query).get("ids") || "")
      .split(",")
      .map((x) => x.trim())
      .filter((x) => /^\d+$/.test(x));
    title(main, "Compare runs");
    main.append(h("p", null, h("a", { href: "#/runs" }, "← All runs")));
    if (ids.length < 2) {
      main.append(V.error("Pick two or more runs on the runs page (#/runs/compare?ids=1,2)."));
      return;
    }
    let runs;
    try {
      runs = await Promise.all(ids.map((i) => V.api(`/v1/runs/${i}`)));
    } catch (e) {
      main.append(V.error(e));
      return;
    }
    const keys = passKeys(runs);
    main.append(
      section(
        "pass@k side by side",
        V.groupedBars(
          "pass@k by run",
          keys.map(passName),
          runs.map((r) => ({ name: runName(r), values: keys.map((k) => (typeof r.pass_at_k[k] === "number" ? r.pass_at_k[k] : null)) }))
        ),
        V.table(
          null,
          ["Run", "Dataset", "Samples", ...keys.map(passName)],
          runs.map((r) => ({
            attrs: { "data-run": r.id },
            cells: [
              h("a", { href: `#/runs/${r.id}` }, runName(r)),
              f.str(r.dataset),
              f.num(r.samples),
              ...keys.map((k) => h("span", { class: "passk" }, typeof r.pass_at_k[k] === "number" ? f.pct(r.pass_at_k[k]) : "–")),
            ],
          })),
          { rowHeader: true, class: "data compare" }
        )
      )
    );
    /* Problems where the runs differ: the fraction passed is not the same in all. */
    const by = new Map();
    runs.forEach((r, j) => {
      for (const p of r.results || []) {
        const key = String(p.task_id);
        if (!by.has(key)) by.set(key, new Array(runs.length).fill(null));
        by.get(key)[j] = p;
      }
    });
    const differ = [];
    for (const [task, per] of by) {
      const fr = per.map((p) => (p && p.samples ? p.passed / p.samples : null));
      if (fr.some((x) => x !== fr[0])) differ.push([task, per]);
    }
    differ.sort((a, b) => a[0].localeCompare(b[0], "en", { numeric: true }));
    main.append(
      section(
        `Problems where the runs differ (${differ.length} of ${by.size})`,
        differ.length
          ? V.table(
              null,
              ["Problem", ...runs.map(runName)],
              differ.map(([task, per]) => [
                task,
                ...per.map((p) => (p ? h("span", { class: p.passed === p.samples ? "good" : p.passed ? "" : "bad" }, `${p.passed}/${p.samples}`) : "–")),
              ]),
              { rowHeader: true, class: "data differ" }
            )
          : h("p", { class: "empty" }, "The runs agree on every problem.")
      )
    );
  };
})();
