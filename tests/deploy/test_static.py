"""docker/nginx and docker/compose.yaml against the server they front: the rendered config is
one nginx accepts, and its sizes, timeouts and retried routes, and compose's command, port
and health check, agree with what verdict serve and its routes are."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest
import yaml

import conftest

ROOT = conftest.ROOT
CONF = os.path.join(conftest.NGINX_DIR, "verdict.conf")
COMPOSE = os.path.join(ROOT, "docker", "compose.yaml")
# The routes that judge a program: retried on another replica after the first failed
# (docker/nginx/README.md, "Retries").
JUDGING = {"/run_code", "/run_jupyter", "/submit", "/v1/judge", "/v1/judge/batch"}


def serve_help():
    r = subprocess.run([conftest.VERDICT, "serve", "--help"], capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout


def routes():
    """server/http/api.c's route table: {(method, path)}."""
    with open(os.path.join(ROOT, "server", "http", "api.c")) as f:
        return set(re.findall(r'\{"(GET|POST)", "(/[^"]*)", \w+, (?:true|false)\}',
                              f.read()))


def size(text):
    """nginx's or verdict's size (16m, 16M, 32K, 1024) in bytes."""
    m = re.fullmatch(r"(\d+)([kKmMgG]?)", text)
    assert m, text
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2).lower()]


def seconds(text):
    m = re.fullmatch(r"(\d+)(s|m)?", text)
    assert m, text
    return int(m.group(1)) * (60 if m.group(2) == "m" else 1)


def directives(text, name):
    """Every value of an nginx directive in text (comments skipped)."""
    body = "\n".join(l.split("#", 1)[0] for l in text.splitlines())
    return re.findall(rf"(?m)^\s*{name}\s+([^;{{}}]*);", body)


def locations(text):
    """{location argument: its body}, for the config's un-nested locations."""
    body = "\n".join(l.split("#", 1)[0] for l in text.splitlines())
    return dict(re.findall(r"location\s+([^{]+?)\s*\{([^}]*)\}", body))


def header(name):
    with open(os.path.join(ROOT, "server", "http", name)) as f:
        return f.read()


def define(text, name):
    m = re.search(rf"#define {name}\s+([\d.]+)", text)
    assert m, name
    return float(m.group(1))


@pytest.fixture(scope="module")
def conf():
    with open(CONF) as f:
        return f.read()


def test_rendered_config_is_accepted_by_nginx():
    conftest.need_root_and_nginx()
    prefix = tempfile.mkdtemp(prefix="verdict-deploy-static-", dir="/var/tmp")
    try:
        out = os.path.join(prefix, "verdict.conf")
        conftest.render(out, ["127.0.0.1:18081", "127.0.0.1:18082", "[::1]:18083"],
                        "127.0.0.1:18080")
        with open(out) as f:
            text = f.read()
        assert "@" not in text.replace("@unavailable", "")  # every placeholder replaced
        assert [s.split()[0] for s in directives(text, "server")] == [
            "127.0.0.1:18081", "127.0.0.1:18082", "[::1]:18083"]
        assert directives(text, "listen") == ["127.0.0.1:18080"]
        conf = conftest.main_conf(prefix)
        r = subprocess.run([conftest.NGINX, "-t", "-q", "-e", prefix + "/error.log",
                            "-p", prefix + "/", "-c", conf, "-g", f"pid {prefix}/nginx.pid;"],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stderr
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


@pytest.mark.parametrize("args", [
    ["OUT"], [],  # no replica
    ["OUT", "verdict-1"],  # no port
    ["OUT", "a:1; include /etc/passwd"],
    ["--listen", "80; x", "OUT", "a:1"],
])
def test_render_refuses_what_is_not_an_address(args):
    prefix = tempfile.mkdtemp(prefix="verdict-deploy-static-", dir="/var/tmp")
    try:
        out = os.path.join(prefix, "out.conf")
        r = subprocess.run(["bash", os.path.join(conftest.NGINX_DIR, "render.sh"),
                            *[out if a == "OUT" else a for a in args]],
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 2 and r.stderr, r
        assert os.listdir(prefix) == []  # nothing written, not even a temp file
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def test_body_and_header_sizes_take_what_verdict_takes(conf):
    text = serve_help()
    body = re.search(r"--max-body SIZE .*\(default (\w+)\)", text).group(1)
    head = re.search(r"--max-header SIZE .*\(default (\w+);", text).group(1)
    assert size(directives(conf, "client_max_body_size")[0]) >= size(body)
    count, each = directives(conf, "large_client_header_buffers")[0].split()
    assert size(each) >= size(head)


def test_timeouts_outlast_the_longest_run(conf):
    """README.md ("Timeouts"): a /run_code at the largest limits it accepts waits in the queue
    up to compile_timeout + 1 s, compiles up to its wall-clock backstop (3 x compile_timeout
    + 1 s) and runs up to run_timeout + its backstop."""
    request = header("request.h")
    longest = define(request, "REQUEST_MAX_TIMEOUT_S")
    backstop = define(request, "REQUEST_RUN_BACKSTOP_MS") / 1000
    with open(os.path.join(ROOT, "server", "judge", "program.c")) as f:
        factor = int(re.search(r"int64_t factor = (\d+);", f.read()).group(1))
    queue, compile_, run = longest + 1, factor * longest + 1, longest + backstop
    assert queue + compile_ + run == 1510  # as README.md says
    read = seconds(directives(conf, "proxy_read_timeout")[0])
    send = seconds(directives(conf, "proxy_send_timeout")[0])
    assert min(read, send) >= queue + compile_ + run
    # Resending is bounded in time below them: a request that timed out is never resent.
    for body in locations(conf).values():
        if "proxy_pass" in body:
            assert seconds(directives(body, "proxy_next_upstream_timeout")[0]) < read
            assert directives(body, "proxy_next_upstream_tries") == ["2"]


def test_only_judging_routes_are_resent_after_sending(conf):
    table = routes()
    assert ("GET", "/healthz") in table and ("POST", "/v1/judge/batch") in table
    locs = locations(conf)
    judging = [k for k, v in locs.items() if "non_idempotent" in v]
    assert len(judging) == 1
    pattern = re.fullmatch(r"~\s+(\S+)", judging[0]).group(1)
    resent = {path for _, path in table if re.match(pattern, path)}
    assert resent == JUDGING, resent
    assert JUDGING <= {path for method, path in table if method == "POST"}
    for body in locs.values():
        retried = directives(body, "proxy_next_upstream")
        if retried:  # never a 504: verdict's answer to a /run_code too late for its client
            assert "http_504" not in retried[0] and "http_503" in retried[0]
    assert directives(conf, "proxy_http_version") == ["1.1"]
    assert directives(conf, "proxy_buffering") == ["off"]
    assert directives(conf, "proxy_request_buffering") == ["on"]  # resending needs the body


def test_compose_matches_the_server():
    with open(os.path.join(os.path.dirname(COMPOSE), "entrypoint.sh")) as f:
        assert "exec /usr/local/bin/verdict serve --listen 0.0.0.0:8080 " in f.read()
    with open(COMPOSE) as f:
        compose = yaml.safe_load(f)
    services = compose["services"]
    replicas = {k: v for k, v in services.items() if k.startswith("verdict-")}
    assert len(replicas) >= 2
    flags = set(re.findall(r"(?m)^\s+(?:-\w, )?(--[\w-]+)", serve_help()))
    for name, svc in replicas.items():
        assert svc["build"] == {"context": "..", "dockerfile": "docker/Dockerfile"}
        assert os.path.isfile(os.path.join(os.path.dirname(COMPOSE), "..", "docker/Dockerfile"))
        cmd = svc["command"]
        used = [a for a in cmd if a.startswith("--")]
        assert set(used) <= flags, set(used) - flags
        assert "--listen" not in cmd  # the entrypoint's, the address nginx names
        assert svc["cap_drop"] == ["ALL"]
        assert "/run/verdict:/run/verdict" in svc["volumes"]  # the host's uid locks, shared
        assert svc["ulimits"]["nproc"]["hard"] <= 8192
        assert svc["ulimits"]["nofile"]["soft"] >= 4096  # serve's --connections default
        assert svc["cgroup"] == "private"
        check = " ".join(svc["healthcheck"]["test"])
        path = re.search(r"127\.0\.0\.1:8080(/\w*)", check).group(1)
        assert ("GET", path) in routes() and path == "/healthz"
    nginx = services["nginx"]
    line = " ".join(nginx["command"])
    rendered = re.search(r"render\.sh --listen (\S+) (\S+) ([^&]+)&&", line)
    assert rendered, line
    listen, _, upstreams = rendered.groups()
    assert sorted(upstreams.split()) == sorted(f"{name}:8080" for name in replicas)
    assert [p.split(":")[-1] for p in nginx["ports"]] == [listen]
    assert set(nginx["depends_on"]) == set(replicas)
    mounts = [v.split(":")[:2] for v in nginx["volumes"]]
    assert ["./nginx", "/verdict-nginx"] in mounts
