#!/usr/bin/env bash
# verdict on the unified cgroup v2 hierarchy, for real (`make test-cgroup-v2`): builds the
# vm-v2 preset (release; each test in a delegated cgroup of its own), puts the checkout and
# that build on a payload disk, boots the v2 guest (scripts/vm/run.sh) and runs
# tests/vm/guest.sh there: the shared-cgroup refusal, doctor, the shipped systemd unit
# answering /run_code, then a ctest selection. Results come back to RESULTS_DIR (console.log,
# checks.log, ctest.txt, ctest.xml, LastTest.log, doctor and service output). Exits 0 when
# every check passed.
#
# usage: scripts/vm/test-v2.sh [CTEST_ARG...]   (root; default: -L "unit|sandbox|cli")
# env:   VERDICT_VM_RESULTS (default build/vm-v2-results), VERDICT_VM_TIMEOUT (s, default
#        3000), VERDICT_TEST_LANGUAGES (default c,cpp,python,bash: the guest's toolchains)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
results=${VERDICT_VM_RESULTS:-$src/build/vm-v2-results}
[ $# -gt 0 ] || set -- -L "unit|sandbox|cli"
start=$(date +%s)
img=$("$src/scripts/vm/build-image.sh" "${VERDICT_VM_CACHE:-/var/cache/verdict-vm}")
imaged=$(date +%s)
cmake --preset vm-v2 >/dev/null
cmake --build --preset vm-v2 -j "$(nproc)" >/dev/null
built=$(date +%s)

payload=$(mktemp -d /var/tmp/verdict-vm-payload.XXXXXX)
trap 'rm -rf "$payload"' EXIT
trap 'exit 130' INT TERM
mkdir "$payload/tree" "$payload/out"
# The checkout's files (tracked, and untracked but not ignored) and the vm-v2 build, without
# its object files.
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$payload/tree" -xf -
tar -C "$src" --exclude='*.o' -cf - build/vm-v2 | tar -C "$payload/tree" -xf -
cp "$src/tests/vm/guest.sh" "$payload/guest.sh"
printf 'SRC=%s\nVERDICT_TEST_LANGUAGES=%s\n' "$src" "${VERDICT_TEST_LANGUAGES:-c,cpp,python,bash}" \
    >"$payload/env"
printf '%s\n' "$@" >"$payload/ctest-args"

rm -rf "$results"
mkdir -p "$results"
"$src/scripts/vm/run.sh" "$payload" "${VERDICT_VM_TIMEOUT:-3000}" "$results/guest" |
    tee "$results/console.log"
end=$(date +%s)
if [ -d "$results/guest/out" ]; then
    mv "$results/guest/out"/* "$results/"
    rm -rf "$results/guest"
fi
{
    echo "image $((imaged - start)) s (cached: $img), build $((built - imaged)) s, guest $((end - built)) s"
    cat "$results/checks.log" 2>/dev/null || echo "no checks.log: the guest did not finish"
} | tee "$results/summary.txt"
[ "$(cat "$results/failed" 2>/dev/null)" = 0 ]
