"""verdict's container image for real (make test-container; root, podman, runc, mmdebstrap):
the base built from Debian's packages (cached), docker/Dockerfile built unchanged, the image
run with exactly the privileges docker/README.md documents, every language it offers, hostile
probes, a HumanEval slice through /submit and the health check; each documented privilege
taken away in turn, with what then fails; then `podman kube play` of docker/k8s/deployment.yaml
and the same checks. Nothing podman made is left behind (containers, pods, images, volumes,
cgroups, CNI's bridge and chains): checked at the end."""
import json
import os
import re
import socket
import subprocess
import time

import pytest
import requests
import yaml

import checks
from podman_env import Podman

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
IMAGE = "localhost/verdict:latest"
# The least privileges (docker/README.md; docker/k8s/deployment.yaml has the same list).
CAPS = ["SYS_ADMIN", "NET_ADMIN", "MKNOD", "SETUID", "SETGID", "SETPCAP", "KILL", "CHOWN", "DAC_OVERRIDE"]
PRIVS = ["--cap-drop", "ALL", "--cap-add", ",".join(CAPS), "--cgroupns", "private"]
DATA = next((d for d in (os.environ.get("VERDICT_TEST_DATA"), os.path.join(REPO, "..", "shared", "datasets"),
                         "/work/shared/datasets") if d and os.path.isdir(d)), None)
RESULTS = os.path.join(REPO, "build", "container")
TIMES = {}


def record(key, value):
    TIMES[key] = value
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "figures.json"), "w") as f:
        json.dump(TIMES, f, indent=1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def podman():
    if os.geteuid() != 0:
        pytest.skip("needs root")
    p = Podman()
    yield p
    p.clean()
    left = p.leftovers()
    assert not left, "left behind:\n" + "\n".join(left)


@pytest.fixture(scope="session")
def image(podman):
    t0 = time.monotonic()
    r = subprocess.run(["bash", os.path.join(REPO, "scripts/container/build-base.sh"), "--import"],
                       env=podman.env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    record("base_s", round(time.monotonic() - t0, 1))
    # A TLS-intercepting proxy in front of the npm registry: the host's CA bundle as the
    # build secret npm_ca (docker/Dockerfile). Harmless where there is none.
    ca = next((f for f in (os.environ.get("NODE_EXTRA_CA_CERTS"), "/etc/ssl/certs/ca-certificates.crt")
               if f and os.path.isfile(f)), None)
    t0 = time.monotonic()
    podman("build", "--pull=never", "--format", "docker", "--cgroup-parent", podman.build_cgroup_parent,
           *(["--secret", f"id=npm_ca,src={ca}"] if ca else []),
           "-f", os.path.join(REPO, "docker/Dockerfile"), "-t", IMAGE, REPO, timeout=3600)
    record("image_build_s", round(time.monotonic() - t0, 1))
    size = json.loads(podman("image", "inspect", IMAGE).stdout)[0]["Size"]
    record("image_bytes", size)
    # the build's intermediate images (its stages) are not needed to run it
    podman("image", "prune", "-f", check=False)
    return IMAGE


class Container:
    """A `podman run -d` of the image, published on a free 127.0.0.1 port."""

    def __init__(self, podman, name, privs, args=(), volumes=(), wait=True):
        self.podman, self.name, self.port = podman, name, free_port()
        podman("rm", "-f", "-t", "0", name, check=False)
        podman("run", "-d", "--name", name, "--cgroup-parent", podman.cgroup_parent,
               "-p", f"127.0.0.1:{self.port}:8080", *privs, *volumes, IMAGE, *args)
        self.url = f"http://127.0.0.1:{self.port}"
        self.serving = self.wait() if wait else False

    def logs(self):
        r = self.podman("logs", self.name, check=False)
        return r.stdout + r.stderr

    def wait(self, timeout=120):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if "serving on" in self.logs():
                return True
            state = json.loads(self.podman("inspect", self.name).stdout)[0]["State"]
            if not state["Running"]:
                return False
            time.sleep(0.5)
        return False

    def exec(self, *cmd):
        return self.podman("exec", self.name, *cmd, check=False)

    def remove(self):
        self.podman("rm", "-f", "-t", "10", self.name, check=False)


# The host's uid-lock directory, shared with every verdict on the host (docker/README.md,
# "Several verdicts on one host"): the container's cells take their uids there, so they never
# run jobs under a uid that another verdict's cells use.
UID_LOCKS = "/run/verdict"


def uid_locks_held_by(pid):
    """The uid-<n>.lock files of UID_LOCKS on which process pid (as the host sees it) holds a
    flock, from /proc/locks."""
    by_inode = {}
    for name in os.listdir(UID_LOCKS):
        st = os.stat(os.path.join(UID_LOCKS, name))
        by_inode[(os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)] = name
    held = set()
    with open("/proc/locks") as f:
        for line in f:  # "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF"
            parts = line.split()
            if len(parts) > 5 and parts[1] == "FLOCK" and parts[4] == str(pid):
                major, minor, ino = parts[5].split(":")
                name = by_inode.get((int(major, 16), int(minor, 16), int(ino)))
                if name:
                    held.add(name)
    return held


@pytest.fixture(scope="module")
def served(podman, image):
    os.makedirs(UID_LOCKS, mode=0o700, exist_ok=True)
    vols = ["-v", f"{UID_LOCKS}:{UID_LOCKS}"]
    if DATA and os.path.isfile(os.path.join(DATA, "HumanEval.jsonl.gz")):
        vols += ["-v", f"{os.path.join(DATA, 'HumanEval.jsonl.gz')}:/datasets/HumanEval.jsonl.gz:ro"]
    t0 = time.monotonic()
    c = Container(podman, "verdict-ctest", PRIVS, ["--cells", "4", *(["--datasets", "/datasets"] if vols else [])],
                  vols)
    record("start_s", round(time.monotonic() - t0, 1))
    assert c.serving, c.logs()[-3000:]
    yield c
    c.remove()


def test_uid_locks_shared_with_the_host(served, podman):
    """With the host's /run/verdict mounted, the container's verdict takes its cells' uids in
    the host's lock files: two cells of 4, each a job uid and a grader uid."""
    pid = int(podman("inspect", "-f", "{{.State.Pid}}", served.name).stdout)
    held = uid_locks_held_by(pid)
    assert len(held) >= 8, held


def test_languages(served):
    offered, missing = checks.check_languages(served.url)
    record("languages_offered", offered)
    record("languages_not_offered", missing)
    # what Debian 12 has is all there: only the GPU's and the official-release ones are not
    assert set(missing) <= {"cuda", "julia", "swift", "lean"}, missing
    assert len(offered) >= 28, offered


def test_hostile(served):
    checks.check_hostile(served.url, served.exec)


def test_humaneval(served):
    if not DATA:
        pytest.skip("no ../shared/datasets")
    checks.check_humaneval(served.url, DATA)


def test_healthcheck(served, podman):
    # podman keeps the Dockerfile's HEALTHCHECK (docker format); run it as the runtime would
    r = podman("healthcheck", "run", served.name, check=False)
    assert r.returncode == 0 and "unhealthy" not in r.stdout, r.stdout + r.stderr
    state = json.loads(podman("inspect", served.name).stdout)[0]["State"]
    assert state["Health"]["Status"] == "healthy", state["Health"]
    # verdict is the container's main process
    assert served.exec("cat", "/proc/1/comm").stdout.strip() == "verdict"


def test_graceful_stop(podman, image):
    """SIGTERM (podman stop) ends verdict cleanly, and fast: exit status 0."""
    c = Container(podman, "verdict-ctest-stop", PRIVS, ["--cells", "2"])
    try:
        assert c.serving, c.logs()[-2000:]
        t0 = time.monotonic()
        podman("stop", "-t", "30", c.name)
        assert time.monotonic() - t0 < 25
        state = json.loads(podman("inspect", c.name).stdout)[0]["State"]
        assert state["ExitCode"] == 0, c.logs()[-2000:]
    finally:
        c.remove()


def without(cap):
    return ["--cap-drop", "ALL", "--cap-add", ",".join(c for c in CAPS if c != cap), "--cgroupns", "private"]


# Each documented privilege taken away, and what then fails (docker/README.md's table): the
# entrypoint's remounts without CAP_SYS_ADMIN or a private cgroup namespace; else verdict,
# which refuses to start naming the capability its cells lack. (privileges, what it says)
WITHOUT = {cap: (without(cap), f"lacks: CAP_{cap} (") for cap in CAPS}
WITHOUT["SYS_ADMIN"] = (without("SYS_ADMIN"), "cannot make /sys/fs/cgroup")
WITHOUT["cgroupns=private"] = (["--cap-drop", "ALL", "--cap-add", ",".join(CAPS), "--cgroupns", "host"],
                               "not in a private cgroup namespace")


@pytest.mark.parametrize("taken", list(WITHOUT))
def test_each_privilege_is_needed(podman, image, taken):
    privs, says = WITHOUT[taken]
    c = Container(podman, f"verdict-ctest-without-{re.sub('[^a-z0-9]', '-', taken.lower())}", privs,
                  ["--cells", "2"], wait=True)
    try:
        assert not c.serving and says in c.logs(), c.logs()[-2000:]
    finally:
        c.remove()


def kube_manifest(port):
    """docker/k8s/deployment.yaml as a test runs it: the image as built here, its port
    published on 127.0.0.1, one replica, VERDICT_CGROUPNS=host (below), the HumanEval file
    mounted and served (the only changes; the security context, probes and resources are the
    manifest's own)."""
    with open(os.path.join(REPO, "docker/k8s/deployment.yaml")) as f:
        d = yaml.safe_load(f)
    spec = d["spec"]["template"]["spec"]
    d["spec"]["replicas"] = 1
    ctr = spec["containers"][0]
    ctr["image"] = IMAGE
    ctr["ports"][0].update(hostPort=port, hostIP="127.0.0.1")
    ctr["args"] = ["--cells", "4"]
    # podman's kube play puts a pod's containers in its infra container's cgroup namespace,
    # the host's on cgroup v1 (no flag or containers.conf setting changes it), as Kubernetes
    # does on cgroup v1 nodes: the entrypoint's documented opt-in for them
    ctr["env"] = [{"name": "VERDICT_CGROUPNS", "value": "host"}]
    if DATA:
        ctr["args"] += ["--datasets", "/datasets"]
        ctr["volumeMounts"].append({"name": "datasets", "mountPath": "/datasets/HumanEval.jsonl.gz",
                                    "readOnly": True})
        spec["volumes"].append({"name": "datasets", "hostPath": {
            "path": os.path.realpath(os.path.join(DATA, "HumanEval.jsonl.gz")), "type": "File"}})
    return d


def test_kube_play(podman, image, tmp_path):
    port = free_port()
    man = tmp_path / "deployment.yaml"
    man.write_text(yaml.safe_dump(kube_manifest(port)))
    t0 = time.monotonic()
    # (kube play has no --cgroup-parent: the pod's cgroups go under /libpod_parent at each
    # hierarchy's root; Podman.clean removes them)
    podman("kube", "play", str(man))
    try:
        pods = json.loads(podman("pod", "ps", "--format", "json").stdout)
        names = [c["Names"] for p in pods for c in p.get("Containers", []) if not c["Names"].endswith("-infra")]
        assert names, pods
        url = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                if requests.get(url + "/healthz", timeout=5).status_code == 200:
                    break
            except requests.exceptions.ConnectionError:
                pass
            time.sleep(0.5)
        else:
            logs = podman("logs", names[0], check=False)
            pytest.fail("the pod did not serve: " + (logs.stdout + logs.stderr)[-3000:])
        record("kube_start_s", round(time.monotonic() - t0, 1))
        # the manifest's security context is what the container got
        caps = json.loads(podman("inspect", names[0]).stdout)[0]["EffectiveCaps"]
        assert sorted(c.removeprefix("CAP_") for c in caps) == sorted(CAPS), caps
        checks.check_languages(url)
        checks.check_hostile(url, lambda *cmd: podman("exec", names[0], *cmd, check=False))
        if DATA:
            checks.check_humaneval(url, DATA)
    finally:
        podman("kube", "down", str(man), check=False)
