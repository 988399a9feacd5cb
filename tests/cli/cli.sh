#!/usr/bin/env bash
# The built `verdict` binary, end to end: usage errors exit 2 with one line and the usage,
# --help exits 0, unbuilt subcommands exit 1, and `doctor` reports this host truthfully
# (text and JSON). Doctor's host-dependent assertions need root; without it they are skipped.
set -uo pipefail
bin=${1:?usage: cli.sh PATH/TO/verdict}
# $VERDICT_LAUNCHER, when set, starts each verdict (tests/vm/own-cgroup.sh on the v2 guest).
launch=()
[ -n "${VERDICT_LAUNCHER:-}" ] && launch=("$VERDICT_LAUNCHER")
py=/usr/bin/python3
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME EXIT_CODE STREAM PATTERN -- ARGS...
expect() {
    local name=$1 want=$2 stream=$3 pattern=$4
    shift 5
    "${launch[@]}" "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    local text
    text=$(cat "$tmp/$stream")
    if [ "$got" -ne "$want" ]; then
        echo "FAIL - $name: exit $got, want $want"; cat "$tmp/out" "$tmp/err"; fails=$((fails + 1))
    elif ! grep -qE -- "$pattern" <<<"$text"; then
        echo "FAIL - $name: $stream lacks /$pattern/"; cat "$tmp/$stream"; fails=$((fails + 1))
    else
        echo "ok - $name"
    fi
}

expect "no command"        2 err '^verdict: missing command'        --
expect "unknown command"   2 err "^verdict: unknown command 'frobnicate'" -- frobnicate
expect "unknown usage"     2 err '^usage: verdict COMMAND'          -- frobnicate
expect "top help"          0 out 'doctor +Inspect this host'        -- --help
expect "bad flag"          2 err '^verdict doctor: unknown option --frob' -- doctor --frob
expect "bad flag usage"    2 err '^usage: verdict doctor'           -- doctor --frob
expect "doctor extra arg"  2 err 'takes no arguments'               -- doctor extra
expect "version"           0 out '^verdict [0-9]+\.[0-9]+\.[0-9]+ ' -- version
expect "version libseccomp" 0 out '^libseccomp 2\.'                 -- version
for c in serve run bench datasets doctor version; do
    expect "$c --help"     0 out "^usage: verdict $c"               -- "$c" --help
done
expect "bench no args"     2 err 'expected DATASET SAMPLES.jsonl'   -- bench
expect "bench reference"   2 err 'takes only DATASET'               -- bench --reference a b
expect "datasets no args"  2 err 'expected: import NAME PATH'       -- datasets
expect "datasets bad verb" 2 err 'expected: import NAME PATH'       -- datasets drop x
expect "datasets bad flag" 2 err 'unknown option --frob'            -- datasets list --frob
expect "serve bad listen"  2 err 'unknown option --port'            -- serve --port 1
expect "serve extra arg"   2 err 'takes no arguments'               -- serve extra
expect "run no program"    2 err 'missing the program'              -- run
expect "run bad limit"     2 err "^verdict run: --time: invalid SECONDS 'x'" -- run --time x -- /bin/true

if [ "$(id -u)" -ne 0 ]; then
    echo "skip - doctor host checks need root"
    [ $fails -eq 0 ] && exit 77 || exit 1
fi

expect "doctor ready"      0 out '^ready: this host can run sandboxed jobs' -- doctor
expect "doctor pid ns"     0 out 'namespace +pid +ok'               -- doctor --skip-toolchains --skip-gpu
expect "doctor seccomp"    0 out 'seccomp +filter +ok +libseccomp'  -- doctor --skip-toolchains --skip-gpu
expect "doctor pivot_root" 0 out 'mount +pivot_root +ok'            -- doctor --skip-toolchains --skip-gpu

# verdict run: one program through a real cell, text and JSON, each verdict.
expect "run true"          0 err '^--- verdict: OK'                 -- run -- /bin/true
expect "run output"        0 out '^hello$'                          -- run -- /bin/echo hello
# Without a capability the cells use (here CAP_KILL, which stops jobs of other uids: without
# it a runaway job could never be stopped), verdict refuses to start and names it.
if command -v setpriv >/dev/null; then
    saved=("${launch[@]}")
    launch=("${saved[@]}" setpriv --bounding-set=-kill)
    expect "run without CAP_KILL" 3 err 'lacks: CAP_KILL \(run as root'   -- run -- /bin/true
    expect "doctor without CAP_KILL" 1 out 'root +FAIL +euid 0 without CAP_KILL' -- doctor --skip-toolchains --skip-gpu
    launch=("${saved[@]}")
fi
expect "run exit code"     1 err '^--- verdict: RE \(exit code 3\)'  -- run -- /bin/sh -c 'exit 3'
cat >"$tmp/spin.c" <<'C'
int main(void) { for (volatile unsigned long i = 0;; i++) ; }
C
cat >"$tmp/hog.c" <<'C'
#include <stdlib.h>
#include <string.h>
int main(void) { for (;;) { char *p = malloc(1 << 20); if (p) memset(p, 1, 1 << 20); } }
C
cat >"$tmp/flood.c" <<'C'
#include <stdio.h>
int main(void) { for (;;) fputs("flood flood flood flood\n", stdout); }
C
cat >"$tmp/crash.c" <<'C'
int main(void) { return *(volatile int *)0; }
C
for p in spin hog flood crash; do gcc -O1 -o "$tmp/$p" "$tmp/$p.c" || fails=$((fails + 1)); done
expect "run C TLE"         1 err '^--- verdict: TLE \(CPU time'     -- run --time 0.3 -- "$tmp/spin"
expect "run C MLE"         1 err '^--- verdict: MLE'                -- run --mem 32M -- "$tmp/hog"
expect "run C OLE"         1 err '^--- verdict: OLE'                -- run --output 64K -- "$tmp/flood"
expect "run C RE"          1 err '^--- verdict: RE \(killed by signal 11' -- run -- "$tmp/crash"
printf abcd >"$tmp/in.txt"
expect "run stdin"         0 out '^4$'                              -- run --stdin "$tmp/in.txt" -- /usr/bin/wc -c
expect "run json"          1 out '"status":[[:space:]]+"TLE"'       -- run --json --time 0.2 -- "$tmp/spin"
expect "run json clock"    1 out '"tle_clock":[[:space:]]+"cpu"'    -- run --json --time 0.2 -- "$tmp/spin"

# verdict run --lang: compile through the cache (kept out of /tmp: cells mount their own).
cache=$(mktemp -d /var/tmp/verdict-cli-cache-XXXXXX)
trap 'rm -rf "$tmp" "$cache"' EXIT
printf '#include <stdio.h>\nint main(void) { puts("hi from c"); return 0; }\n' >"$tmp/ok.c"
printf 'int main(void) { return nope; }\n' >"$tmp/bad.c"
printf 'print(input()[::-1])\n' >"$tmp/rev.py"
expect "lang C"            0 out '^hi from c$'                      -- run --cache "$cache" --lang c "$tmp/ok.c"
expect "lang C cached"     0 out '"cached":[[:space:]]+true'        -- run --cache "$cache" --json --lang c "$tmp/ok.c"
expect "lang CE"           1 err '^--- verdict: CE'                 -- run --cache "$cache" --lang c "$tmp/bad.c"
expect "lang CE message"   1 err 'nope.{1,3} undeclared'               -- run --cache "$cache" --lang c "$tmp/bad.c"
expect "lang python stdin" 0 out '^dcba$'                           -- run --cache "$cache" --lang py3 --stdin "$tmp/in.txt" "$tmp/rev.py"
expect "lang unknown"      2 err "unknown language 'cobol'; known: bash c cpp" -- run --lang cobol "$tmp/ok.c"
expect "lang two files"    2 err 'exactly one source file'          -- run --lang c "$tmp/ok.c" "$tmp/bad.c"

# JSON: every required check ok, cgroup controllers probed, toolchains and GPU reported.
"${launch[@]}" "$bin" doctor --json >"$tmp/doctor.json" 2>"$tmp/err"
rc=$?
templates=$(find "$(dirname "$0")/../../languages" -maxdepth 1 -name '*.json' | wc -l)
if ! $py - "$tmp/doctor.json" "$rc" "$templates" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
assert doc["ready"] is True and rc == 0, (rc, doc["reason"])
checks = {(c["group"], c["name"]): c for c in doc["checks"]}
for ns in ("pid", "mount", "net", "ipc", "uts"):
    assert checks[("namespace", ns)]["status"] == "ok", checks[("namespace", ns)]
version = doc["cgroup"]["version"]
assert version in (1, 2), version
for ctrl in ("memory", "pids", "cpuacct"):
    c = checks[("cgroup", ctrl)]
    assert c["status"] == "ok" and c["required"], c
    assert doc["cgroup"]["dirs"][ctrl], ctrl
assert checks[("seccomp", "filter")]["status"] == "ok"
assert checks[("mount", "pivot_root")]["status"] == "ok"
assert checks[("sandbox", "cell")]["status"] == "ok", checks[("sandbox", "cell")]
names = [t["name"] for t in doc["toolchains"]]
for want in ("gcc", "g++", "python3", "go", "rustc", "nvcc", "node", "java"):
    assert want in names, want
gcc = [t for t in doc["toolchains"] if t["name"] == "gcc"][0]
assert gcc["ok"] and gcc["version"].startswith("gcc"), gcc
py = [t for t in doc["toolchains"] if t["name"] == "python3"][0]
assert py["path"] in (None, "/usr/bin/python3"), py  # never a pyenv shim
rust = [t for t in doc["toolchains"] if t["name"] == "rustc"][0]
assert rust["path"] is None or "/rustup/" not in rust["path"] or "/toolchains/" in rust["path"], rust
langs = {c["name"]: c for c in doc["checks"] if c["group"] == "language"}
assert len(langs) == int(sys.argv[3]), (len(langs), sys.argv[3])  # every template reported
# $VERDICT_TEST_LANGUAGES (the v2 guest's c,cpp,python,bash): the only ones this host has.
have = os.environ.get("VERDICT_TEST_LANGUAGES")
for want in ("c", "cpp", "python", "go", "rust", "java", "nodejs", "bash", "cuda"):
    assert want in langs, (want, list(langs))
    if have is None or want in have.split(","):
        assert langs[want]["status"] == "ok", langs[want]
    else:  # reported, with the reason
        assert langs[want]["status"] in ("ok", "warn") and langs[want]["detail"], langs[want]
# SandboxFusion's JVM, .NET, npm and GPU languages: reported, with a version or the reason.
for want in ("scala", "kotlin_script", "csharp", "junit", "jest", "python_gpu"):
    assert want in langs and langs[want]["detail"], (want, list(langs))
if langs["python_gpu"]["status"] == "ok":
    assert "runs need a GPU" in langs["python_gpu"]["detail"], langs["python_gpu"]
gpu = doc["gpu"]
assert isinstance(gpu["count"], (int, float)) and gpu["detail"], gpu
assert gpu["count"] == len(gpu["devices"]), gpu
print("ok - doctor --json: cgroup v%d, %d toolchains ok, gpu: %s"
      % (version, sum(t["ok"] for t in doc["toolchains"]), gpu["detail"]))
PY
then
    echo "FAIL - doctor --json"; cat "$tmp/doctor.json" "$tmp/err"; fails=$((fails + 1))
fi

# verdict bench records its run in the results store at --db (label and model kept).
languages=$(cd "$(dirname "$0")/../../languages" && pwd)
cat >"$tmp/tiny.jsonl" <<'J'
{"task_id": "Tiny/0", "prompt": "def one():\n", "canonical_solution": "    return 1\n", "test": "def check(candidate):\n    assert candidate() == 1\n", "entry_point": "one"}
J
"$bin" datasets import tiny "$tmp/tiny.jsonl" --db "$tmp/bench.db" >/dev/null 2>&1
expect "bench records run" 0 err '^run 1 recorded$' -- bench --reference tiny --db "$tmp/bench.db" \
    --languages "$languages" -k 1 --label cli-run --model m1
expect "bench no-record"   0 err 'samples judged'   -- bench --reference tiny --db "$tmp/bench.db" \
    --languages "$languages" -k 1 --no-record
if "$py" - "$tmp/bench.db" <<'PY'
import json, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT label, model, source, dataset, results FROM run").fetchall()
assert len(rows) == 1, rows  # --no-record kept none
label, model, source, dataset, results = rows[0]
assert (label, model, source, dataset) == ("cli-run", "m1", "local", "tiny"), rows
res = json.loads(results)["results"]
assert [r["task_id"] for r in res] == ["Tiny/0"] and res[0]["samples"] == 1, res
print("ok - bench run in the store")
PY
then :; else
    echo "FAIL - bench run in the store"; fails=$((fails + 1))
fi

[ $fails -eq 0 ] && echo "cli: all passed" || echo "cli: $fails failed"
[ $fails -eq 0 ]
