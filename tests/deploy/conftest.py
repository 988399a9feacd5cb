"""Replicas behind the balancer, for real: `verdict serve` processes on loopback (the API
tests' Server) and Debian's nginx with docker/nginx's config rendered for them, started as a
child of the test with its pid file, logs and temp files in a temp dir."""
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NGINX_DIR = os.path.join(ROOT, "docker", "nginx")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# The API tests' Server (a real `verdict serve` on 127.0.0.1 with a temp --db and --cache
# under /var/tmp), loaded under a name of its own: this directory has a conftest too.
_spec = importlib.util.spec_from_file_location(
    "verdict_api_conftest", os.path.join(ROOT, "tests", "api", "conftest.py"))
api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api)
VERDICT = api.VERDICT
load_example = api.load_example
server_cgroups = api.server_cgroups
pytest_sessionfinish = api.exit_77_when_all_skipped  # a hook: every test skipped -> 77


def need_root_and_nginx():
    """The only reasons these tests skip: no root (the sandbox needs it) or no nginx."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    if not os.access(NGINX, os.X_OK):
        pytest.skip("nginx is not installed (scripts/install-deps.sh installs it)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def render(out, replicas, listen):
    """docker/nginx/render.sh: the config for these replica addresses."""
    subprocess.run(["bash", os.path.join(NGINX_DIR, "render.sh"), "--listen", listen, out,
                    *replicas], check=True, timeout=30)


def main_conf(prefix):
    """The top-level file nginx starts with: one worker (a 2-core machine), every path in the
    temp dir, an access log naming the replicas each request was sent to and what each
    answered, and the rendered http-level file included, as Debian's nginx.conf includes
    conf.d/*.conf."""
    path = os.path.join(prefix, "nginx.conf")
    temps = "\n".join(f"    {k}_temp_path {prefix}/{k};"
                      for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    with open(path, "w") as f:
        f.write(f"""user root;
worker_processes 1;
events {{
    worker_connections 1024;
}}
http {{
    log_format up '$request $status up=$upstream_addr ups=$upstream_status t=$request_time';
    access_log {prefix}/access.log up;
{temps}
    include {prefix}/verdict.conf;
}}
""")
    return path


class Balancer:
    """Debian's nginx in the foreground, its config rendered for `replicas` (HOST:PORT); it is
    up when /v1/ping through it answers `ready` (200: a replica answered)."""

    def __init__(self, replicas, ready=200):
        self.prefix = tempfile.mkdtemp(prefix="verdict-deploy-nginx-", dir="/var/tmp")
        self.proc = None
        try:
            self._start(replicas, ready)
        except BaseException:
            self.stop()
            raise

    def _start(self, replicas, ready):
        said = ""
        for _ in range(3):  # a free port found may be taken before nginx binds it
            self.port = free_port()
            render(os.path.join(self.prefix, "verdict.conf"), replicas,
                   f"127.0.0.1:{self.port}")
            conf = main_conf(self.prefix)
            args = [NGINX, "-e", self.prefix + "/error.log", "-p", self.prefix + "/", "-c", conf,
                    "-g", f"daemon off; pid {self.prefix}/nginx.pid;"]
            subprocess.run([*args[:-2], "-t", "-q", *args[-2:]], check=True, timeout=30)
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.url = f"http://127.0.0.1:{self.port}"
            for _ in range(100):
                if self.proc.poll() is not None:
                    break
                try:
                    if requests.get(self.url + "/v1/ping", timeout=10).status_code == ready:
                        return
                except requests.ConnectionError:
                    pass
                time.sleep(0.1)
            said = self.error_log()
            self._end()
        raise AssertionError(f"nginx did not start: {said}")

    def error_log(self):
        try:
            with open(self.prefix + "/error.log") as f:
                return f.read()
        except OSError:
            return ""

    def access_log(self):
        """The access log's lines (written as each request ends)."""
        try:
            with open(self.prefix + "/access.log") as f:
                return f.read().splitlines()
        except OSError:
            return []

    def _end(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # nginx's fast shutdown: workers too
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self.proc = None

    def stop(self):
        self._end()
        shutil.rmtree(self.prefix, ignore_errors=True)


def requests_by_route(server):
    """verdict_requests_total of one replica, read from it directly: {route: count}."""
    counts = {}
    for line in requests.get(server.url + "/metrics", timeout=30).text.splitlines():
        if line.startswith("verdict_requests_total{"):
            labels, value = line.rsplit(" ", 1)
            route = labels.split('route="', 1)[1].split('"', 1)[0]
            counts[route] = counts.get(route, 0) + int(float(value))
    return counts

