"""docker/ checked without podman (ctest -R manifests, label deploy): every Kubernetes YAML
parses; the ports, probes and options in the manifests, the Dockerfile and the entrypoint are
the server's (`verdict serve --help`, /healthz, /metrics' verdict_queue_depth); every path
the Dockerfile copies from the context exists and is not excluded by .dockerignore; the
capabilities in the securityContexts are docker/README.md's list, and the container test's."""
import fnmatch
import glob
import os
import re
import subprocess

import pytest
import yaml

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCKER = os.path.join(REPO, "docker")
VERDICT = os.environ.get("VERDICT_BIN", os.path.join(REPO, "build/release/verdict"))
PORT = 8080


def read(*path):
    with open(os.path.join(REPO, *path)) as f:
        return f.read()


def manifests():
    out = {}
    for f in sorted(glob.glob(os.path.join(DOCKER, "k8s", "*.yaml"))):
        with open(f) as fh:
            out[os.path.basename(f)] = [d for d in yaml.safe_load_all(fh) if d is not None]
    return out


def deployments():
    return [(name, d) for name, docs in manifests().items() for d in docs if d["kind"] == "Deployment"]


def serve_help():
    if not os.path.exists(VERDICT):
        pytest.skip(f"no verdict binary at {VERDICT}")
    r = subprocess.run([VERDICT, "serve", "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


def readme_caps():
    text = read("docker", "README.md")
    found = re.findall(r"--cap-add[ =]([A-Z_,]+)", text)
    assert found, "docker/README.md names no --cap-add list"
    lists = {tuple(sorted(f.split(","))) for f in found}
    assert len(lists) == 1, f"docker/README.md gives different capability lists: {lists}"
    return sorted(lists.pop())


def test_every_manifest_parses():
    m = manifests()
    assert {"deployment.yaml", "deployment-gpu.yaml", "service.yaml", "hpa.yaml",
            "prometheus-adapter.yaml", "pdb.yaml"} <= set(m), sorted(m)
    for name, docs in m.items():
        assert docs, name
        for d in docs:
            assert d.get("apiVersion") and d.get("kind") and d.get("metadata", {}).get("name"), name


def test_ports_and_probes_match_the_server():
    help_text = serve_help()
    assert "--listen HOST:PORT" in help_text and "/healthz" in help_text
    for name, d in deployments():
        spec = d["spec"]["template"]["spec"]
        (c,) = spec["containers"]
        assert [p["containerPort"] for p in c["ports"]] == [PORT], name
        for probe in ("readinessProbe", "livenessProbe"):
            get = c[probe]["httpGet"]
            assert get["path"] == "/healthz" and get["port"] in (PORT, "http"), (name, probe)
        # every option given to the server is one `verdict serve` has
        for a in c.get("args", []):
            if a.startswith("--"):
                assert re.search(rf"\s{re.escape(a.split('=')[0])}\b", help_text), (name, a)
        # the selector picks the template's pods
        labels = d["spec"]["template"]["metadata"]["labels"]
        assert d["spec"]["selector"]["matchLabels"].items() <= labels.items(), name
    dockerfile = read("docker", "Dockerfile")
    assert re.search(rf"^EXPOSE {PORT}$", dockerfile, re.M)
    assert f"http://127.0.0.1:{PORT}/healthz" in dockerfile.split("HEALTHCHECK", 1)[1]
    entry = read("docker", "entrypoint.sh")
    assert f"verdict serve --listen 0.0.0.0:{PORT}" in entry
    svc = manifests()["service.yaml"][0]
    assert svc["spec"]["ports"][0]["port"] == PORT and svc["spec"]["ports"][0]["targetPort"] in (PORT, "http")
    for name, d in deployments():
        assert svc["spec"]["selector"].items() <= d["spec"]["template"]["metadata"]["labels"].items(), name
    pdb = manifests()["pdb.yaml"][0]
    for name, d in deployments():
        assert pdb["spec"]["selector"]["matchLabels"].items() <= \
            d["spec"]["template"]["metadata"]["labels"].items(), name


def test_queue_metric_is_the_servers():
    assert re.search(r"# TYPE verdict_queue_depth gauge", read("server", "http", "metrics.c"))
    hpa = manifests()["hpa.yaml"][0]
    pods = [m["pods"]["metric"]["name"] for m in hpa["spec"]["metrics"] if m["type"] == "Pods"]
    assert pods == ["verdict_queue_depth"]
    assert hpa["spec"]["scaleTargetRef"]["name"] == "verdict"
    rules = yaml.safe_load(manifests()["prometheus-adapter.yaml"][0]["data"]["config.yaml"])["rules"]
    assert any("verdict_queue_depth" in r["seriesQuery"] and r["name"]["as"] == "verdict_queue_depth"
               for r in rules)


def test_security_context_is_the_documented_one():
    caps = readme_caps()
    import test_container  # the container test runs the image with the same list
    assert sorted(test_container.CAPS) == caps
    # the capabilities verdict checks for at start (runners/pool.c, needed_caps)
    with open(os.path.join(REPO, "runners", "pool.c")) as f:
        pool = f.read()
    table = pool[pool.index("needed_caps[] = {"):]
    checked = re.findall(r'\{CAP_(\w+), "(\w+)"\}', table[:table.index("};")])
    assert all(a == b for a, b in checked) and sorted(a for a, _ in checked) == caps, checked
    for name, d in deployments():
        (c,) = d["spec"]["template"]["spec"]["containers"]
        sc = c["securityContext"]
        assert sc["privileged"] is False, name
        assert sc["capabilities"]["drop"] == ["ALL"], name
        assert sorted(sc["capabilities"]["add"]) == caps, name
        assert sc["seccompProfile"]["type"] == "RuntimeDefault", name
        assert sc["appArmorProfile"]["type"] == "Unconfined", name
        # the node's uid locks, shared by every verdict on it (docker/README.md)
        vols = {v["name"]: v for v in d["spec"]["template"]["spec"]["volumes"]}
        mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
        assert mounts["uid-locks"] == "/run/verdict", name
        assert vols["uid-locks"]["hostPath"]["path"] == "/run/verdict", name
        ann = d["spec"]["template"]["metadata"]["annotations"]
        assert ann[f"container.apparmor.security.beta.kubernetes.io/{c['name']}"] == "unconfined", name
    gpu_limits = manifests()["deployment-gpu.yaml"][0]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]
    assert gpu_limits["nvidia.com/gpu"] == 1


def dockerignore():
    pats = []
    for line in read(".dockerignore").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            pats.append(line.rstrip("/"))
    return pats


def test_dockerfile_copies_exist():
    ignored = dockerignore()
    copies = 0
    for line in read("docker", "Dockerfile").splitlines():
        m = re.match(r"^COPY\s+(.*)$", line)
        if not m or "--from=" in line:
            continue
        *srcs, _dst = m.group(1).split()
        for src in srcs:
            copies += 1
            path = os.path.join(REPO, src)
            assert os.path.exists(path), f"docker/Dockerfile copies {src}, which does not exist"
            rel = src.rstrip("/")
            assert not any(fnmatch.fnmatch(rel, p) or rel.startswith(p + "/") for p in ignored), \
                f"docker/Dockerfile copies {src}, which .dockerignore leaves out"
    assert copies >= 10
    # the build stage's CMake configures without the tests (BUILD_TESTING=OFF), and .dockerignore
    # keeps the heavy and irrelevant parts out of the context
    assert "-DBUILD_TESTING=OFF" in read("docker", "Dockerfile")
    assert {".git", "build"} <= set(ignored)


def test_scripts_are_shell_clean():
    for script in ("docker/entrypoint.sh", "scripts/container/build-base.sh", "tests/container/run.sh"):
        r = subprocess.run(["bash", "-n", os.path.join(REPO, script)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        if subprocess.run(["sh", "-c", "command -v shellcheck"], capture_output=True).returncode == 0:
            r = subprocess.run(["shellcheck", os.path.join(REPO, script)], capture_output=True, text=True)
            assert r.returncode == 0, r.stdout
