"""The browser rules (docs/api.md, "Browsers"): what keeps a web page the user happens to open
from using a verdict server on their machine.

- A JSON route takes a body only as `Content-Type: application/json` (415 otherwise): the
  bodies a page may send without asking the server first (a form, fetch's text/plain) are
  refused.
- A state-changing request (POST, DELETE) from a page of another origin is refused (403 naming
  Origin or Sec-Fetch-Site); same-origin, none and no such header (every non-browser client)
  pass.
- An open server (no --dashboard-token) on loopback answers only a Host naming it (localhost,
  127.0.0.1, [::1], any port): a DNS-rebinding page's Host gets 421 on every route.
- "Loopback" is exactly 127.0.0.1 (and ::1): --listen 127.0.0.2 is beyond it.

Each rule is driven with the raw headers a browser sends, then the real attack in Debian's
headless Chromium (pages on another loopback port: same-site, and on localhost: cross-site),
and the project's own clients are shown still accepted."""
import http.client
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import uuid

import pytest
import requests

from conftest import EXAMPLES, Server, load_example, needs_root, wait_for

JSON = "application/json"
# Every POST route that takes a JSON body (the route table in server/http/api.c).
JSON_ROUTES = ("/run_code", "/run_jupyter", "/v1/judge", "/v1/judge/batch", "/submit",
               "/get_prompts", "/get_prompt_by_id", "/list_ids", "/v1/runs", "/v1/sessions",
               "/v1/sessions/0123456789abcdef01234567/exec")
RUN = {"dataset": "browser-rules", "label": "from a page", "results": []}


@pytest.fixture(scope="module")
def srv():
    needs_root()
    s = Server(cells=1)
    s.port = int(s.url.rsplit(":", 1)[1])
    yield s
    code, left = s.stop()
    assert code == 0 and not left


def raw(s, method, path, headers=(), body=b"", host=None):
    """One request with exactly these headers (http.client adds only Host, from host when
    given, and Content-Length): (status, parsed JSON body or the text)."""
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
    try:
        c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        c.putheader("Host", host if host is not None else f"127.0.0.1:{s.port}")
        for k, v in headers:
            c.putheader(k, v)
        if isinstance(body, str):
            body = body.encode()
        if body or method in ("POST", "PUT"):
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body or None)
        r = c.getresponse()
        text = r.read().decode()
        try:
            return r.status, json.loads(text)
        except ValueError:
            return r.status, text
    finally:
        c.close()


def names(doc, header):
    """Whether a refusal's detail names header (FastAPI's shape: loc ["header", name])."""
    d = doc["detail"]
    return (isinstance(d, list) and d[0]["loc"] == ["header", header]
            and header in d[0]["msg"]), doc


def runs_labelled(s, label):
    r = requests.get(s.url + "/v1/runs", params={"limit": 100}, timeout=30)
    assert r.status_code == 200, r.text
    return [x for x in r.json()["runs"] if x.get("label") == label]


# ---- Content-Type ----------------------------------------------------------------------------

def test_json_routes_refuse_other_content_types(srv):
    body = json.dumps(RUN)
    for path in JSON_ROUTES:
        for ctype in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                      "multipart/form-data; boundary=x", "application/jsonp", "json", None):
            st, doc = raw(srv, "POST", path, [("Content-Type", ctype)] if ctype else [], body)
            assert st == 415, (path, ctype, st, doc)
            assert names(doc, "Content-Type")[0], doc
    assert runs_labelled(srv, RUN["label"]) == []


def test_json_content_type_accepted_with_parameters_and_any_case(srv):
    for ctype in (JSON, "Application/JSON", "application/json; charset=utf-8",
                  "application/json;charset=UTF-8"):
        st, doc = raw(srv, "POST", "/run_code", [("Content-Type", ctype)],
                      json.dumps({"code": "print(6 * 7)", "language": "python"}))
        assert st == 200 and doc["run_result"]["stdout"] == "42\n", (ctype, st, doc)


def test_empty_body_needs_no_content_type(srv):
    """No body and no Content-Type (requests.post(url), curl -X POST): the route's own answer
    (POST /v1/sessions opens a default session); an empty body of another type is 415."""
    st, doc = raw(srv, "POST", "/v1/sessions", [("Content-Type", "text/plain")])
    assert st == 415 and names(doc, "Content-Type")[0], doc
    r = requests.post(srv.url + "/v1/sessions", timeout=60)
    assert r.status_code == 201, r.text
    assert requests.delete(f"{srv.url}/v1/sessions/{r.json()['id']}", timeout=60).status_code == 200
    st, doc = raw(srv, "POST", "/run_code")  # still the route's 422
    assert st == 422, doc


# ---- Origin and Sec-Fetch-Site ---------------------------------------------------------------

def test_foreign_origin_refused(srv):
    body = json.dumps({"code": "print(1)", "language": "python"})
    for origin in (f"http://127.0.0.1:{srv.port + 1}", f"http://localhost:{srv.port + 1}",
                   "http://evil.example", f"http://evil.example:{srv.port}",
                   f"https://127.0.0.1:{srv.port}x", "null", "file://", ""):
        st, doc = raw(srv, "POST", "/run_code", [("Content-Type", JSON), ("Origin", origin)], body)
        assert st == 403 and names(doc, "Origin")[0], (origin, st, doc)


def test_cross_and_same_site_fetches_refused(srv):
    body = json.dumps({"code": "print(1)", "language": "python"})
    for site in ("cross-site", "same-site", "Cross-Site", "bogus"):
        st, doc = raw(srv, "POST", "/run_code", [("Content-Type", JSON), ("Sec-Fetch-Site", site)],
                      body)
        assert st == 403 and names(doc, "Sec-Fetch-Site")[0], (site, st, doc)


def test_what_a_no_cors_fetch_and_a_form_send_stores_nothing(srv):
    """Exactly what Chromium sends for fetch(url, {mode: "no-cors", method: "POST", body}) from
    a page on another loopback port, and for a text/plain form from another site."""
    other = f"http://127.0.0.1:{srv.port + 1}"
    fetch = [("Content-Type", "text/plain;charset=UTF-8"), ("Origin", other),
             ("Sec-Fetch-Site", "same-site"), ("Sec-Fetch-Mode", "no-cors"),
             ("Sec-Fetch-Dest", "empty"), ("Referer", other + "/")]
    form = [("Content-Type", "text/plain"), ("Origin", "http://localhost:1"),
            ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Mode", "navigate"),
            ("Sec-Fetch-Dest", "iframe"), ("Cookie", "verdict_token=whatever")]
    for headers in (fetch, form):
        st, doc = raw(srv, "POST", "/v1/runs", headers, json.dumps(RUN))
        assert st in (403, 415), (st, doc)
        # One rule at a time: each alone refuses.
        for drop in ("Origin", "Sec-Fetch-Site", "Content-Type"):
            rest = [h for h in headers if h[0] != drop]
            st, doc = raw(srv, "POST", "/v1/runs", rest, json.dumps(RUN))
            assert st in (403, 415), (drop, st, doc)
    assert runs_labelled(srv, RUN["label"]) == []


def test_foreign_delete_refused(srv):
    r = requests.post(srv.url + "/v1/sessions", json={}, timeout=60)
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    try:
        st, doc = raw(srv, "DELETE", f"/v1/sessions/{sid}",
                      [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")])
        assert st == 403, doc
        assert requests.get(f"{srv.url}/v1/sessions/{sid}", timeout=30).status_code == 200
    finally:
        assert requests.delete(f"{srv.url}/v1/sessions/{sid}", timeout=60).status_code == 200


def test_same_origin_and_non_browser_clients_accepted(srv):
    body = json.dumps({"code": "print(2)", "language": "python"})
    own = f"127.0.0.1:{srv.port}"
    for host, headers in ((own, [("Origin", f"http://{own}"), ("Sec-Fetch-Site", "same-origin")]),
                          (f"localhost:{srv.port}", [("Origin", f"http://localhost:{srv.port}")]),
                          (own, [("Origin", f"http://localhost:{srv.port}")]),
                          (own, [("Sec-Fetch-Site", "none")]), (own, [])):
        st, doc = raw(srv, "POST", "/run_code", [("Content-Type", JSON), *headers], body,
                      host=host)
        assert st == 200 and doc["run_result"]["stdout"] == "2\n", (host, headers, st, doc)
    # A GET is not state-changing: a foreign Origin still reads what CORS lets it.
    st, _ = raw(srv, "GET", "/v1/ping", [("Origin", "http://evil.example"),
                                         ("Sec-Fetch-Site", "cross-site")])
    assert st == 200


# ---- Host ----------------------------------------------------------------------------------

def test_open_loopback_server_refuses_a_foreign_host(srv):
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: every route refuses it."""
    for host in (f"evil.example:{srv.port}", "evil.example", "localhost.evil.example",
                 "127.0.0.1.nip.io", f"localhost:{srv.port}@evil.example", "127.0.0.2",
                 "0.0.0.0", "[::2]", "localhost:x", ""):
        for method, path in (("GET", "/v1/submissions"), ("GET", "/"), ("GET", "/v1/ping"),
                             ("POST", "/v1/runs")):
            st, doc = raw(srv, method, path, [("Content-Type", JSON)] if method == "POST" else [],
                          json.dumps(RUN) if method == "POST" else b"", host=host)
            assert st == 421 and names(doc, "Host")[0], (host, path, st, doc)
    for host in ("localhost", f"localhost:{srv.port}", "LocalHost", "127.0.0.1",
                 f"127.0.0.1:{srv.port}", "[::1]", f"[::1]:{srv.port}", "localhost:8080"):
        st, doc = raw(srv, "GET", "/v1/submissions", host=host)
        assert st == 200, (host, st, doc)
    assert runs_labelled(srv, RUN["label"]) == []


def test_token_and_beyond_loopback_servers_keep_any_host():
    """With a token the token guards what a rebinding page could read (it holds no cookie for
    its own name); beyond loopback the server is reached by names it cannot know (nginx's
    $http_host, a Kubernetes Service, a pod's address)."""
    needs_root()
    token = uuid.uuid4().hex
    s = Server(cells=1, env={"VERDICT_DASHBOARD_TOKEN": token})
    s.port = int(s.url.rsplit(":", 1)[1])
    try:
        st, doc = raw(s, "GET", "/v1/submissions", [("Authorization", "Bearer " + token)],
                      host="verdict.example:8080")
        assert st == 200, doc
        st, doc = raw(s, "GET", "/v1/submissions", host="verdict.example:8080")
        assert st == 401, doc
    finally:
        code, left = s.stop()
    assert code == 0 and not left
    s = Server(cells=1, listen="0.0.0.0:0")
    s.port = int(s.url.rsplit(":", 1)[1])
    try:
        st, doc = raw(s, "GET", "/healthz", host="verdict.default.svc:8080")
        assert st == 200, doc
        st, doc = raw(s, "POST", "/run_code", [("Content-Type", JSON),
                                               ("Origin", "http://verdict.example"),
                                               ("Sec-Fetch-Site", "same-origin")],
                      json.dumps({"code": "print(3)", "language": "python"}), host="verdict.example")
        assert st == 200 and doc["run_result"]["stdout"] == "3\n", doc
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_only_127_0_0_1_is_loopback():
    """--listen 127.0.0.2 is beyond loopback: no open dashboard, no open store."""
    needs_root()
    s = Server(cells=1, listen="127.0.0.2:0")
    s.url = s.url.replace("127.0.0.1", "127.0.0.2")
    try:
        for path in ("/", "/v1/submissions", "/v1/runs"):
            r = requests.get(s.url + path, timeout=30)
            assert r.status_code == 403 and "--dashboard-token" in r.json()["detail"], (path, r.text)
        assert requests.get(s.url + "/v1/ping", timeout=30).status_code == 200
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def _deploy():
    """tests/deploy's conftest (docker/nginx's config rendered and run), by its path."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "verdict_deploy_conftest", os.path.join(os.path.dirname(EXAMPLES), "tests", "deploy",
                                                "conftest.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_dashboard_origin_through_nginx(srv):
    """Behind docker/nginx, the page's own origin is the balancer's address with its port:
    nginx passes the Host the browser sent ($http_host), so a same-origin POST (the
    dashboard's /get_prompt_by_id) passes and another origin's is refused."""
    deploy = _deploy()
    if not os.access(deploy.NGINX, os.X_OK):
        pytest.skip("nginx is not installed")
    lb = deploy.Balancer([f"127.0.0.1:{srv.port}"])
    try:
        body = json.dumps({"code": "print(5)", "language": "python"}).encode()
        for origin, want in ((lb.url, 200), (f"http://127.0.0.1:{lb.port + 1}", 403)):
            r = requests.post(lb.url + "/run_code", data=body, timeout=60,
                              headers={"Content-Type": JSON, "Origin": origin,
                                       "Sec-Fetch-Site": "same-origin"})
            assert r.status_code == want, (origin, r.status_code, r.text)
    finally:
        lb.stop()


# ---- the project's own clients ---------------------------------------------------------------

def test_project_clients_accepted(srv):
    r = requests.post(srv.url + "/v1/runs", json={**RUN, "label": "requests json="}, timeout=30)
    assert r.status_code == 201, r.text
    for args in (["--json"], ["-H", "Content-Type: application/json", "-d"]):
        if args == ["--json"] and b"--json" not in subprocess.run(
                ["curl", "--help", "all"], capture_output=True, timeout=30).stdout:
            continue  # curl older than 7.82
        p = subprocess.run(["curl", "-sS", "--max-time", "60", *args,
                            '{"code": "print(int(input()) * 2)", "language": "python", '
                            '"stdin": "21"}', srv.url + "/run_code"],
                           capture_output=True, timeout=90)
        assert p.returncode == 0 and json.loads(p.stdout)["run_result"]["stdout"] == "42\n", p
    scorer = load_example("runloop/scorer_request.py")  # urllib, as every example posts
    d = scorer.judge(srv.url, {"language": "python", "code": "print(int(input()) * 2)",
                               "tests": [{"stdin": "2\n", "expected": "4\n"}]})
    assert d["status"] == "OK", d


# ---- the attack in a real browser ------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

ATTACK = """<!doctype html><title>attack</title>
<iframe name="sink"></iframe>
<form id="f" method="POST" enctype="text/plain" target="sink" action="@TARGET@/v1/runs">
<input name='{"dataset":"browser-rules","label":"form @TAG@","results":[],"pad":"'
       value='"}'>
</form>
<script>
async function go() {
  const run = {dataset: "browser-rules", label: "fetch @TAG@", results: []};
  const sent = [
    fetch("@TARGET@/v1/runs", {method: "POST", mode: "no-cors", body: JSON.stringify(run)}),
    fetch("@TARGET@/v1/sessions", {method: "POST", mode: "no-cors"}),
    fetch("@TARGET@/run_code", {method: "POST", mode: "no-cors",
                                body: JSON.stringify({language: "python", code: "print(1)"})}),
  ];
  for (const p of sent) { try { await p; } catch (e) {} }
  await new Promise((done) => {
    document.querySelector("iframe").onload = done;
    document.getElementById("f").submit();
    setTimeout(done, 20000);
  });
  await fetch("/done");
}
go();
</script>"""


class _Attacker(http.server.BaseHTTPRequestHandler):
    """The other loopback port's pages: GET /attack serves the page, GET /done is its beacon."""
    def do_GET(self):
        if self.path == "/done":
            self.server.done.set()
        body = (self.server.page if self.path == "/attack" else "ok").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def attack_in_chromium(target, page_host, tag):
    """Loads the attack page from page_host (another port) in headless Chromium until its
    beacon (bounded)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Attacker)
    httpd.page = ATTACK.replace("@TARGET@", target).replace("@TAG@", tag)
    httpd.done = threading.Event()
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    profile = tempfile.mkdtemp(prefix="verdict-browser-rules-", dir="/var/tmp")
    chromium = subprocess.Popen(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-extensions", "--no-first-run",
         "--disable-sync", f"--user-data-dir={profile}",
         f"http://{page_host}:{httpd.server_address[1]}/attack"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True)
    try:
        assert httpd.done.wait(90), "the attack page never finished"
    finally:
        os.killpg(chromium.pid, 9)
        err = chromium.communicate(timeout=60)[1]
        httpd.shutdown()
        httpd.server_close()
        shutil.rmtree(profile, ignore_errors=True)
    return err


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="chromium is not installed")
def test_pages_on_another_port_store_nothing(srv):
    """The attack itself: a page on another loopback port (same-site: 127.0.0.1) and one on
    localhost (cross-site) POST a run and open a session with fetch(no-cors) and a text/plain
    form; nothing is stored and no session opened."""
    tag = uuid.uuid4().hex[:8]
    for page_host in ("127.0.0.1", "localhost"):
        attack_in_chromium(srv.url, page_host, tag)
    # A run posted after the attack's, once visible, shows theirs were written before it.
    r = requests.post(srv.url + "/v1/runs", json={**RUN, "label": "after " + tag}, timeout=30)
    assert r.status_code == 201, r.text
    wait_for("the run after the attack", lambda: runs_labelled(srv, "after " + tag))
    assert runs_labelled(srv, "fetch " + tag) == [] and runs_labelled(srv, "form " + tag) == []
    sessions = requests.get(srv.url + "/v1/sessions", timeout=30).json()
    assert sessions["sessions"] == [], sessions
