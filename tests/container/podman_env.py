"""A podman of the test's own: its configuration (containers.conf, storage.conf) written at
test time in a work directory that also holds its storage, its containers' cgroups beneath
the test's own cgroup, and a record of what the host had before, so that everything podman,
runc and CNI made is removed at the end and the test can assert that nothing is left.

What the host gets that a podman of its own cannot avoid, and is removed again here: the
cgroups of the containers (v1: one path in every hierarchy, beneath the test's own where the
hierarchy has it there, e.g. the memory cgroup a supervisor made; at the hierarchy's root
elsewhere); CNI's bridge, its iptables chains and its IP reservations under /var/lib/cni."""
import json
import os
import shlex
import shutil
import subprocess
import tempfile
import time

# runc: crun refuses hosts with a hybrid v1/v2 layout like ours. The ulimits: podman's own
# defaults (nofile 1048576) exceed the host's hard limit, and runc then fails the container
# with "error setting rlimit type 7: operation not permitted". cgroupns private: what verdict's
# image needs (docker/README.md); podman's default on cgroup v1 is the host's, and `podman kube
# play` has no flag for it (Kubernetes on cgroup v2 nodes gives pods a private one).
CONTAINERS_CONF = """\
[containers]
cgroupns = "private"
default_ulimits = ["nofile=16384:16384", "nproc=8192:8192"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "{w}/events.log"
tmp_dir = "{w}/libpod-tmp"
volume_path = "{w}/volumes"
[network]
network_config_dir = "{w}/cni"
"""
STORAGE_CONF = """\
[storage]
driver = "overlay"
graphroot = "{w}/storage"
runroot = "{w}/run"
"""
CGROUP_ROOT = "/sys/fs/cgroup"
# containers/image keeps a blob cache for root here whatever the storage configuration says
BLOB_CACHE = "/var/lib/containers/cache/blob-info-cache-v1.boltdb"


def own_cgroup():
    """This process's cgroup path: the v1 memory hierarchy's where there is one (a supervisor
    may have put us deep in it), else the v2 one."""
    paths = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for c in ctrls.split(",") or [""]:
                paths[c] = path
    return paths.get("memory") or paths.get("", "/")


def cgroup_dirs(scope=None):
    """Every cgroup directory on the host (all hierarchies), or only those whose path in its
    hierarchy is one of the paths in scope, beneath one, or above one (its ancestors):
    other processes (another verdict) make and remove cgroups of their own meanwhile."""
    out = set()
    for h in os.listdir(CGROUP_ROOT):
        top = os.path.join(CGROUP_ROOT, h)
        for dirpath, dirnames, _ in os.walk(top):
            for d in dirnames:
                rel = os.path.join(dirpath, d)[len(top):]
                if scope is None or any(rel == s or rel.startswith(s + "/") or s.startswith(rel + "/")
                                        for s in scope):
                    out.add(os.path.join(dirpath, d))
    return out


def iptables_rules():
    rules = {}
    if not shutil.which("iptables-save"):
        return rules
    for table in ("filter", "nat"):
        r = subprocess.run(["iptables-save", "-t", table], capture_output=True, text=True)
        rules[table] = [l for l in r.stdout.splitlines() if l.startswith((":", "-A"))]
    return rules


def links():
    r = subprocess.run(["ip", "-j", "link"], capture_output=True, text=True)
    return {l["ifname"] for l in json.loads(r.stdout or "[]")}


class Podman:
    def __init__(self):
        self.work = tempfile.mkdtemp(prefix="verdict-container-test-", dir="/var/tmp")
        for name, text in (("containers.conf", CONTAINERS_CONF), ("storage.conf", STORAGE_CONF)):
            with open(os.path.join(self.work, name), "w") as f:
                f.write(text.format(w=self.work))
        self.env = {**os.environ,
                    "CONTAINERS_CONF": os.path.join(self.work, "containers.conf"),
                    "CONTAINERS_STORAGE_CONF": os.path.join(self.work, "storage.conf")}
        base = own_cgroup().rstrip("/")
        tag = f"verdict-ctest-{os.getpid()}"
        # Containers (and conmon) beneath one parent; buildah puts a build step's container
        # in its --cgroup-parent itself, which must then have no children: a parent of its own.
        self.cgroup_parent = f"{base}/{tag}"
        self.build_cgroup_parent = f"{base}/{tag}-build"
        # ours: those two, and what `podman kube play` (no --cgroup-parent) uses
        self.cgroup_scope = [self.cgroup_parent, self.build_cgroup_parent, "/libpod_parent"]
        self.before = {"cgroups": cgroup_dirs(), "iptables": iptables_rules(),
                       "links": links(), "cni": os.path.exists("/var/lib/cni"),
                       "blob_cache": os.path.exists(BLOB_CACHE),
                       "var_lib_containers": os.path.exists("/var/lib/containers")}

    def __call__(self, *args, check=True, timeout=600, **kw):
        r = subprocess.run(["podman", *args], env=self.env, capture_output=True, text=True,
                           timeout=timeout, **kw)
        if check and r.returncode != 0:
            raise AssertionError(f"podman {' '.join(args)[:300]}: exit {r.returncode}\n{r.stderr[-3000:]}")
        return r

    def leftovers(self):
        """What the test made that is still there (empty once clean)."""
        left = []
        for what in ("containers", "pods", "images", "volumes"):
            if os.path.isdir(os.path.join(self.work, "storage")):
                r = self(*( ["ps", "-a"] if what == "containers" else
                            ["pod", "ps"] if what == "pods" else
                            ["images", "-a"] if what == "images" else ["volume", "ls"]),
                         "--format", "json", check=False)
                items = json.loads(r.stdout or "[]") if r.returncode == 0 else []
                left += [f"{what[:-1]} {i.get('Id') or i.get('Name') or i}"[:100] for i in items]
        left += [f"cgroup {d}" for d in sorted(cgroup_dirs(self.cgroup_scope) - self.before["cgroups"])]
        left += [f"link {l}" for l in sorted(links() - self.before["links"])]
        now = iptables_rules()
        for table, rules in now.items():
            left += [f"iptables -t {table} {r}" for r in rules if r not in self.before["iptables"].get(table, [])]
        if not self.before["cni"] and os.path.exists("/var/lib/cni"):
            left.append("/var/lib/cni")
        if not self.before["blob_cache"] and os.path.exists(BLOB_CACHE):
            left.append(BLOB_CACHE)
        if any(f" {self.work}" in l for l in open("/proc/mounts")):
            left.append(f"mounts under {self.work}")
        return left

    def clean(self):
        """Removes everything: containers, pods, images, then podman's storage and the work
        directory, the cgroups made since the start (children first), CNI's bridge, chains
        and state where they were not there before and nothing else uses them now."""
        if os.path.isdir(os.path.join(self.work, "storage")):
            self("pod", "rm", "-a", "-f", "-t", "0", check=False)
            self("rm", "-a", "-f", "-t", "0", check=False)
            self("volume", "rm", "-a", "-f", check=False)
            self("image", "rm", "-a", "-f", check=False)
            # overlay's own mounts (its layers' merged dirs, shm) go with the storage
            self("system", "reset", "--force", check=False)
        for _ in range(3):  # a container's cgroup goes a moment after its process
            new = sorted(cgroup_dirs(self.cgroup_scope) - self.before["cgroups"], key=lambda d: -d.count("/"))
            for d in new:
                try:
                    os.rmdir(d)
                except OSError:
                    pass
            if not cgroup_dirs(self.cgroup_scope) - self.before["cgroups"]:
                break
            time.sleep(1)
        self._clean_cni()
        if not self.before["blob_cache"] and os.path.exists(BLOB_CACHE):
            os.unlink(BLOB_CACHE)
            for d in ("/var/lib/containers/cache", "/var/lib/containers"):
                if d == "/var/lib/containers/cache" or not self.before["var_lib_containers"]:
                    try:
                        os.rmdir(d)  # only if empty: another podman's storage stays
                    except OSError:
                        pass
        mounts = [l.split()[1] for l in open("/proc/mounts") if f" {self.work}" in l]
        for m in sorted(mounts, key=len, reverse=True):
            subprocess.run(["umount", "-l", m], check=False)
        if not any(f" {self.work}" in l for l in open("/proc/mounts")):
            shutil.rmtree(self.work, ignore_errors=True)

    def _clean_cni(self):
        # CNI's per-container chains and rules go when the container does; what stays is the
        # network's: the bridge, the CNI-HOSTPORT-*/CNI-FORWARD/CNI-ADMIN chains and the jumps
        # to them. Removed only when new since the start and when no rule of any container
        # (a "name: ... id: ..." comment or a DNAT) is left, i.e. nobody else uses them now.
        now = iptables_rules()
        for table, rules in now.items():
            new = [r for r in rules if r not in self.before["iptables"].get(table, [])]
            if not new or any(" id: " in r or "DNAT --to" in r for r in new):
                continue
            for r in reversed([r for r in new if r.startswith("-A")]):
                parts = shlex.split(r)  # -A CHAIN ARGS... (quoted comments kept whole)
                subprocess.run(["iptables", "-t", table, "-D", *parts[1:]], check=False)
            for r in new:
                if r.startswith(":"):
                    chain = r[1:].split()[0]
                    subprocess.run(["iptables", "-t", table, "-F", chain], check=False)
                    subprocess.run(["iptables", "-t", table, "-X", chain], check=False)
        for l in sorted(links() - self.before["links"]):
            if l.startswith("cni-podman"):
                subprocess.run(["ip", "link", "del", l], check=False)
        if not self.before["cni"] and os.path.isdir("/var/lib/cni"):
            reserved = [f for f in os.listdir("/var/lib/cni/networks/podman")
                        if f[0].isdigit()] if os.path.isdir("/var/lib/cni/networks/podman") else []
            if not reserved:
                shutil.rmtree("/var/lib/cni", ignore_errors=True)

