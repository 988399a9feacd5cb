#!/usr/bin/env bash
# make test-container (ctest -L container): verdict's container image built and tested for real
# with podman (tests/container/test_container.py). Installs what it needs from Debian (podman,
# runc, mmdebstrap, CNI plugins, iptables, python3-yaml) where missing. Root only; skipped
# (77) unless VERDICT_CONTAINER_TEST=1, so that a plain `ctest` does not spend ten minutes
# building an image.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${VERDICT_CONTAINER_TEST:-}" != 1 ]; then
    echo "container test: set VERDICT_CONTAINER_TEST=1 (make test-container) to run it"
    exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "container test: needs root"
    exit 77
fi
packages=(podman runc mmdebstrap containernetworking-plugins iptables python3-pytest python3-requests python3-yaml)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "container test: installing ${missing[*]}"
    apt-get update -q </dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
fi
start=$(date +%s)
rc=0
/usr/bin/python3 -B -m pytest -v -p no:cacheprovider "$here/test_container.py" "$@" || rc=$?
echo "container test: $(($(date +%s) - start)) s in all (exit $rc)"
exit $rc
