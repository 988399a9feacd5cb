/*
 * app.js: the hash router (#/, #/submissions?..., #/submissions/<id>, #/datasets,
 * #/datasets/<name>, #/runs, #/runs/<id>, #/runs/compare?ids=1,2, #/sessions), the menu
 * that collapses on a narrow screen, and the light/dark toggle (kept in localStorage; the
 * system's preference until it is used).
 */
"use strict";

(function () {
  const V = window.V;
  const main = document.getElementById("main");
  let stop = null;
  let seq = 0;

  function parse(hash) {
    const raw = hash.replace(/^#/, "") || "/";
    const q = raw.indexOf("?");
    const path = q < 0 ? raw : raw.slice(0, q);
    const query = q < 0 ? "" : raw.slice(q + 1);
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (!parts.length) return { page: "overview", nav: "overview", query };
    const [top, arg] = parts;
    if (top === "submissions") return arg ? { page: "submission", nav: "submissions", arg, query } : { page: "submissions", nav: "submissions", query };
    if (top === "datasets") return arg ? { page: "dataset", nav: "datasets", arg, query } : { page: "datasets", nav: "datasets", query };
    if (top === "runs") {
      if (arg === "compare") return { page: "compare", nav: "runs", query };
      return arg ? { page: "run", nav: "runs", arg, query } : { page: "runs", nav: "runs", query };
    }
    if (top === "sessions" && !arg) return { page: "sessions", nav: "sessions", query };
    return { page: "missing", nav: null, query };
  }

  async function render() {
    if (location.hash && !location.hash.startsWith("#/")) return; /* an in-page anchor */
    const route = parse(location.hash);
    if (stop) stop();
    stop = null;
    const mine = ++seq;
    for (const a of document.querySelectorAll("#nav a")) {
      if (a.dataset.page === route.nav) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    closeMenu();
    V.clear(main);
    main.setAttribute("data-page", route.page);
    main.removeAttribute("data-ready");
    const page = V.pages[route.page];
    if (!page) {
      main.append(V.h("h1", null, "Not found"), V.h("p", null, "No such page. ", V.h("a", { href: "#/" }, "Overview")));
      main.setAttribute("data-ready", "1");
      return;
    }
    try {
      const r = await page(main, route);
      if (mine !== seq) {
        if (typeof r === "function") r();
        return;
      }
      if (typeof r === "function") stop = r;
    } catch (e) {
      if (mine === seq) main.append(V.error(e));
    }
    if (mine === seq) {
      main.setAttribute("data-ready", "1");
      const h1 = document.getElementById("page-title");
      V.say(h1 ? h1.textContent : "");
    }
  }

  /* ---- menu --------------------------------------------------------------------------- */
  const toggle = document.getElementById("menu-toggle");
  const nav = document.getElementById("nav");
  function closeMenu() {
    toggle.setAttribute("aria-expanded", "false");
    nav.classList.remove("open");
  }
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    nav.classList.toggle("open", open);
    if (open) nav.querySelector("a").focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && nav.classList.contains("open")) {
      closeMenu();
      toggle.focus();
    }
  });

  /* ---- theme -------------------------------------------------------------------------- */
  const themeBtn = document.getElementById("theme-toggle");
  const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  let choice = null;
  try {
    choice = localStorage.getItem("verdict-theme");
  } catch (e) {
    choice = null; /* storage refused: the toggle still works for this page */
  }
  const isDark = () => (choice === "dark" || choice === "light" ? choice === "dark" : !!(media && media.matches));
  function applyTheme() {
    if (choice === "dark" || choice === "light") document.documentElement.setAttribute("data-theme", choice);
    else document.documentElement.removeAttribute("data-theme");
    const d = isDark();
    themeBtn.textContent = d ? "Light theme" : "Dark theme";
    themeBtn.setAttribute("aria-label", d ? "Switch to the light theme" : "Switch to the dark theme");
  }
  themeBtn.addEventListener("click", () => {
    choice = isDark() ? "light" : "dark";
    try {
      localStorage.setItem("verdict-theme", choice);
    } catch (e) {
      /* kept for this page only */
    }
    applyTheme();
  });
  if (media) media.addEventListener("change", applyTheme);

  /* ---- skip link: focus the content without touching the route -------------------------- */
  document.getElementById("skip").addEventListener("click", (e) => {
    e.preventDefault();
    main.focus();
  });

  applyTheme();
  window.addEventListener("hashchange", render);
  render();
})();
