#!/bin/bash
# The container's entrypoint: prepares what verdict's sandbox needs inside a container, then
# replaces itself with verdict, so that verdict is the container's main process (pid 1: it
# gets the runtime's SIGTERM, and on cgroup v2 it is the only process of the container's
# cgroup, which it moves into a leaf of its own). docker/README.md says why each step is here.
#
#   (no arguments, or options)  verdict serve --listen 0.0.0.0:8080 [options...]
#   doctor|run|version|datasets|bench ...  that verdict command instead
set -euo pipefail

say() { echo "verdict-entrypoint: $*" >&2; }

# 1. cgroups. Runtimes mount the container's cgroupfs read-only unless the container is
# privileged. In a private cgroup namespace that cgroupfs shows the container's own cgroup
# as its root, so making the mount read-write (in the container's own mount namespace: the
# host's mounts are untouched) lets verdict create its cells' cgroups beneath the container's
# cgroup and nowhere else. Only the per-mount flag changes (a bind remount); the superblock,
# shared with the host, is not remounted. In the host's cgroup namespace (Docker's default on
# cgroup v1 hosts) the container sees host paths, and with CAP_SYS_ADMIN it could mount the
# host's whole hierarchy: refused unless VERDICT_CGROUPNS=host says it is meant (cgroup v1
# Kubernetes nodes, which offer no private cgroup namespace).
cgroupns_private=true
while IFS=: read -r _ _ path; do
    [ "$path" = / ] || cgroupns_private=false
done </proc/self/cgroup
if ! $cgroupns_private && [ "${VERDICT_CGROUPNS:-}" != host ]; then
    say "not in a private cgroup namespace (/proc/self/cgroup: $(tr '\n' ' ' </proc/self/cgroup));" \
        "run the container with --cgroupns=private (Kubernetes on cgroup v2 does so by default)," \
        "or set VERDICT_CGROUPNS=host to accept the host's (docker/README.md)"
    exit 1
fi
# mountinfo: ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS
while read -r line; do
    mnt=$(echo "$line" | cut -d' ' -f5)
    opts=$(echo "$line" | cut -d' ' -f6)
    fstype=${line#* - }
    fstype=${fstype%% *}
    case "$fstype" in cgroup | cgroup2) ;; *) continue ;; esac
    case ",$opts," in *,ro,*) ;; *) continue ;; esac
    if ! mount -o remount,bind,rw "$mnt" 2>/dev/null; then
        say "cannot make $mnt read-write: the container needs CAP_SYS_ADMIN and no" \
            "AppArmor profile that denies mount (docker/README.md)"
        exit 1
    fi
done </proc/self/mountinfo

# 2. /proc/sys/net. Each cell caps its socket buffers in its own network namespace
# (net.core.rmem_max, net.ipv4.tcp_rmem...: per-namespace sysctls). Runtimes bind /proc/sys
# read-only; only its net/ subtree is made writable here, and net/ shows the writer's own
# network namespace (the container's, or a cell's), never the host's: what `--sysctl net.*`
# allows. /proc/sys/kernel and the rest stay read-only.
if ! [ -w /proc/sys/net/ipv4/tcp_rmem ]; then
    if ! { mount --bind /proc/sys/net /proc/sys/net && mount -o remount,bind,rw /proc/sys/net; } 2>/dev/null; then
        say "cannot make /proc/sys/net read-write (CAP_SYS_ADMIN; docker/README.md)"
        exit 1
    fi
fi

# 3. Where the store and the compile cache live (a volume mounted on /data keeps the store).
mkdir -p "$(dirname "${VERDICT_DB:-/data/verdict.db}")" /var/cache/verdict

case "${1:-}" in
doctor | run | version | datasets | bench | help | --help | -h)
    exec /usr/local/bin/verdict "$@"
    ;;
esac
exec /usr/local/bin/verdict serve --listen 0.0.0.0:8080 "$@"
