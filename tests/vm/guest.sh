#!/bin/sh
# The cgroup v2 guest's run (scripts/vm/test-v2.sh puts this file at the payload's root; the
# guest's verdict-vm-run.service, Delegate=yes, runs it as root at boot). The payload holds
# `env` (SRC: the checkout's absolute path on the host), `ctest-args` (one per line), `tree/`
# (the checkout with build/vm-v2) and `out/`, where everything that goes back is written.
#
# Checks, in order, each logged "check NAME: ok|FAIL ...":
#   shared    verdict in a cgroup it shares (this unit's, with this script): doctor and serve
#             refuse, saying to give verdict a delegated cgroup of its own
#   doctor    verdict doctor in a Delegate=yes unit of its own: v2, ready
#   nocpu     verdict run in a delegated cgroup offering memory and pids but not cpu
#   scope     verdict run from a shell through systemd-run --scope -p Delegate=yes
#   service   scripts/systemd/verdict.service, as shipped, started by systemd: /run_code
#             answers (Python and C, a wrong answer, an MLE and a TLE), sessions keep their
#             state (and lose it past their memory limit), and a stop leaves no
#             cgroup of verdict's behind
#   ctest     the chosen ctest selection, each test, and each verdict a test starts, in a
#             cgroup of its own (own-cgroup.sh)
set -u
here=$(pwd)
out=$here/out
mkdir -p "$out"
. "$here/env"
fails=0
check() { # NAME STATUS DETAIL
    echo "check $1: $2 $3" | tee -a "$out/checks.log"
    [ "$2" = ok ] || fails=$((fails + 1))
}
log() { echo "verdict-vm: [$(cut -d' ' -f1 /proc/uptime) s] $*"; }

log "guest up: $(uname -r), $(stat -fc %T /sys/fs/cgroup), controllers: $(cat /sys/fs/cgroup/cgroup.controllers)"
# The tree at the path the build was configured for: ctest's files name absolute paths.
if ! mkdir -p "$SRC" || ! mount --bind "$here/tree" "$SRC"; then
    check setup FAIL "bind $SRC"
    exit 1
fi
cd "$SRC" || exit 1
bin=$SRC/build/vm-v2/verdict
unit=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)

# -- shared: this unit's cgroup holds this script and its parent shell.
log "shared cgroup: $unit ($(wc -l <"$unit/cgroup.procs") processes)"
"$bin" doctor --skip-toolchains --skip-gpu >"$out/doctor-shared.txt" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "delegated cgroup of its own" "$out/doctor-shared.txt"; then
    check shared-doctor ok "exit $rc: $(grep -m1 'delegated cgroup' "$out/doctor-shared.txt" | sed 's/  */ /g')"
else
    check shared-doctor FAIL "exit $rc; see doctor-shared.txt"
fi
timeout 60 "$bin" serve --listen 127.0.0.1:8099 --cells 1 >"$out/serve-shared.txt" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "delegated cgroup of its own" "$out/serve-shared.txt"; then
    check shared-serve ok "exit $rc: $(grep -m1 'delegated cgroup' "$out/serve-shared.txt")"
else
    check shared-serve FAIL "exit $rc; see serve-shared.txt"
fi
leftover=$(find "$unit" -mindepth 1 -maxdepth 1 -type d -name 'verdict-*' | wc -l)
if [ "$leftover" -eq 0 ]; then
    check shared-clean ok "no verdict-* cgroups left in $unit"
else
    check shared-clean FAIL "$leftover verdict-* cgroups left in $unit"
fi

# From here on this unit's processes live in a leaf, and tests get cgroups of their own
# beneath "tests", whose children have memory, pids and cpu.
mkdir "$unit/guest" "$unit/tests"
# (A pid listed may be gone by its turn: the $(cat) that listed it.)
for p in $(cat "$unit/cgroup.procs"); do echo "$p" >"$unit/guest/cgroup.procs" 2>/dev/null; done
[ -z "$(cat "$unit/cgroup.procs")" ] || check setup FAIL "processes left in $unit"
if ! echo "+memory +pids +cpu" >"$unit/cgroup.subtree_control" ||
    ! echo "+memory +pids +cpu" >"$unit/tests/cgroup.subtree_control"; then
    check setup FAIL "could not enable controllers below $unit"
fi

# -- doctor, delegated: a oneshot unit with Delegate=yes, verdict its only process.
cat >/etc/systemd/system/verdict-doctor.service <<EOF
[Service]
Type=oneshot
Delegate=yes
ExecStart=$bin doctor --skip-gpu --languages $SRC/languages
StandardOutput=file:$out/doctor.txt
StandardError=inherit
EOF
systemctl daemon-reload
systemctl start verdict-doctor.service
rc=$(systemctl show -p ExecMainStatus --value verdict-doctor.service)
if [ "$rc" = 0 ] && grep -q "ready: this host can run sandboxed jobs (cgroup v2)" "$out/doctor.txt"; then
    check doctor ok "$(grep -m1 'cgroup  *version' "$out/doctor.txt" | sed 's/  */ /g')"
else
    check doctor FAIL "exit $rc; see doctor.txt"
fi

# -- nocpu: a delegated cgroup offering memory and pids but not cpu (a host may keep cpu to
# itself). The kernel refuses a subtree_control write naming a controller not offered, as a
# whole; verdict enables what is offered and accounts CPU from cpu.stat all the same.
mkdir "$unit/nocpu" "$unit/nocpu/probe"
echo "+memory +pids" >"$unit/nocpu/cgroup.subtree_control"
mkdir "$unit/nocpu/probe/child"
if echo "+memory +pids +cpu" >"$unit/nocpu/probe/cgroup.subtree_control" 2>/dev/null; then
    whole="the kernel took +cpu"
else
    whole="the kernel refused +memory +pids +cpu as a whole"
fi
rmdir "$unit/nocpu/probe/child" "$unit/nocpu/probe"
VERDICT_TEST_CGROUP=$unit/nocpu "$SRC/tests/vm/own-cgroup.sh" "$bin" run --time 10 -- /bin/sh -c \
    'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo counted' >"$out/nocpu.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^counted" "$out/nocpu.txt" && grep -q "cpu [1-9][0-9]* ms" "$out/nocpu.txt"; then
    check nocpu ok "$whole; verdict run: $(grep -m1 'cpu ' "$out/nocpu.txt" | sed 's/  */ /g')"
else
    check nocpu FAIL "$whole; exit $rc; see nocpu.txt"
fi

# -- scope: a one-off command from a shell, in a scope of its own, as docs/design.md says.
systemd-run --scope --quiet -p Delegate=yes "$bin" run -- /bin/echo scoped >"$out/scope.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "^scoped$" "$out/scope.txt"; then
    check scope ok "systemd-run --scope -p Delegate=yes verdict run: $(grep -m1 'verdict' "$out/scope.txt")"
else
    check scope FAIL "exit $rc; see scope.txt"
fi

# -- service: the shipped unit file, with a drop-in for this build's paths.
cp "$SRC/scripts/systemd/verdict.service" /etc/systemd/system/verdict.service
mkdir -p /etc/systemd/system/verdict.service.d
cat >/etc/systemd/system/verdict.service.d/vm.conf <<EOF
[Service]
ExecStart=
ExecStart=$bin serve --listen 127.0.0.1:8080 --cells 2 --languages $SRC/languages --cache /var/tmp/verdict-cache --db /var/tmp/verdict.db
EOF
systemctl daemon-reload
systemctl start verdict.service
svc=/sys/fs/cgroup/system.slice/verdict.service
/usr/bin/python3 - "$out/service.json" <<'PY'
import json, sys, time, urllib.request

def post(path, body, timeout=120):
    req = urllib.request.Request("http://127.0.0.1:8080" + path, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)

deadline = time.time() + 120
while True:
    try:
        urllib.request.urlopen("http://127.0.0.1:8080/v1/ping", timeout=5).read()
        break
    except OSError:
        if time.time() > deadline:
            raise
        time.sleep(0.5)
cases = {
    "python": ({"code": "print(sum(range(10)))", "language": "python"}, "Success", "45\n"),
    "c": ({"code": "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}", "language": "c"},
          "Success", "hi\n"),
    "python_wrong": ({"code": "import sys\nsys.exit(3)", "language": "python"}, "Failed", None),
    "python_mle": ({"code": "x = b'x' * (1 << 30)\nprint(len(x))", "language": "python",
                    "memory_limit_MB": 128}, "Failed", None),
    "python_tle": ({"code": "while True: pass", "language": "python", "run_timeout": 1},
                   "Failed", None),
}
got, bad = {}, []
for name, (body, status, stdout) in cases.items():
    r = post("/run_code", body)
    got[name] = r
    run = r.get("run_result") or {}
    if r.get("status") != status or (stdout is not None and run.get("stdout") != stdout):
        bad.append(name)
want = {"python": "OK", "c": "OK", "python_wrong": "RE", "python_mle": "MLE", "python_tle": "TLE"}
for name, verdict in want.items():
    v = (got[name].get("run_result") or {}).get("verdict")
    if v != verdict:
        bad.append("%s: verdict %s, not %s" % (name, v, verdict))
# A session on v2: state kept across calls, its memory limit (MLE ends the interpreter, the
# next call restarts it), files kept, a C session's compile and run, DELETE.
def req(method, path, body=None):
    r = urllib.request.Request("http://127.0.0.1:8080" + path,
                               json.dumps(body).encode() if body is not None else None,
                               {"Content-Type": "application/json"}, method=method)
    with urllib.request.urlopen(r, timeout=120) as resp:
        return json.load(resp)

sid = req("POST", "/v1/sessions", {"language": "python", "limits": {"memory_mb": 64}})["id"]
steps = [("x = 41\nopen('kept.txt', 'w').write('kept')", "OK", "new", None),
         ("x + 1", "OK", "kept", [{"text/plain": "42"}]),
         ("b = bytearray(200 << 20)", "MLE", "lost", None),
         ("print(open('kept.txt').read(), 'x' in globals())", "OK", "restarted", None)]
session = []
for code, verdict, state, display in steps:
    r = req("POST", "/v1/sessions/%s/exec" % sid, {"code": code})
    session.append(r)
    if r.get("verdict") != verdict or r.get("state") != state or \
            (display is not None and r.get("display") != display):
        bad.append("session %r: %s %s" % (code, r.get("verdict"), r.get("state")))
if session[-1].get("stdout") != "kept False\n":
    bad.append("session: files kept, names gone after the restart: %r" % session[-1].get("stdout"))
if req("DELETE", "/v1/sessions/" + sid).get("state") != "closed":
    bad.append("session: DELETE")
cid = req("POST", "/v1/sessions", {"language": "c"})["id"]
w = req("POST", "/v1/sessions/%s/exec" % cid, {"code": "#include <stdio.h>\nint main(void)"
        "{FILE *f = fopen(\"n\", \"w\"); fputs(\"41\", f); return fclose(f);}"})
r = req("POST", "/v1/sessions/%s/exec" % cid, {"code": "#include <stdio.h>\nint main(void)"
        "{int n; FILE *f = fopen(\"n\", \"r\"); fscanf(f, \"%d\", &n); printf(\"%d\\n\", n + 1);}"})
session += [w, r]
if w.get("verdict") != "OK" or r.get("stdout") != "42\n":
    bad.append("c session: %s, %r" % (r.get("verdict"), r.get("stdout")))
req("DELETE", "/v1/sessions/" + cid)
got["sessions"] = session
json.dump(got, open(sys.argv[1], "w"), indent=1)
print("bad: " + ", ".join(bad) if bad else "all answered as expected")
sys.exit(1 if bad else 0)
PY
rc=$?
tree=$(ls -d "$svc"/verdict-* 2>/dev/null | tr '\n' ' ')
if [ $rc -eq 0 ]; then
    check service ok "/run_code answered python, c, exit 3, MLE, TLE; sessions kept state, MLE, files; cgroups: $tree"
else
    check service FAIL "see service.json and service.log"
fi
systemctl stop verdict.service
journalctl -u verdict.service --no-pager >"$out/service.log" 2>&1
result=$(systemctl show -p Result --value verdict.service)
left=$(find "$svc" -mindepth 1 -type d 2>/dev/null | wc -l)
if [ "$result" = success ] && [ "$left" -eq 0 ]; then
    check service-stop ok "Result=$result, no cgroups left beneath the service's"
else
    check service-stop FAIL "Result=$result, $left cgroups left beneath $svc"
fi

# -- ctest
set --
while IFS= read -r a; do set -- "$@" "$a"; done <"$here/ctest-args"
log "ctest $*"
# Tests that start verdict themselves (cli, api) put the launcher before it too.
export VERDICT_TEST_CGROUP="$unit/tests" VERDICT_LAUNCHER="$SRC/tests/vm/own-cgroup.sh"
export VERDICT_TEST_LANGUAGES="${VERDICT_TEST_LANGUAGES:-c,cpp,python,bash}"
# Side by side on the guest's CPUs (each test in a cgroup of its own: own-cgroup.sh), as the
# host's passes run them: the emulated CPUs are the step's whole cost.
ctest --test-dir build/vm-v2 -j "$(nproc)" --output-on-failure --output-junit "$out/ctest.xml" "$@" >"$out/ctest.txt" 2>&1
rc=$?
cat "$out/ctest.txt"
cp build/vm-v2/Testing/Temporary/LastTest.log "$out/LastTest.log" 2>/dev/null
if [ $rc -eq 0 ]; then
    check ctest ok "$(grep 'tests passed' "$out/ctest.txt")"
else
    check ctest FAIL "exit $rc: $(grep 'tests passed' "$out/ctest.txt")"
fi

log "done: $fails failed"
echo "$fails" >"$out/failed"
