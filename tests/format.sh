#!/usr/bin/env bash
# Fails when any C source or header differs from what the committed .clang-format produces.
# Files go to clang-format in batches, one batch per core (a loaded CI machine ran one
# clang-format per file past the test's timeout).
set -euo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root"
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 1; }
# Fixtures under tests/sandbox/languages keep the shapes they test; problems/ counts its C and
# C++ reference solutions (not CUDA: clang-format splits `<<<...>>>` launches it misreads).
mapfile -t files < <({ find server runners tests benchmarks languages -name '*.[ch]' \
    -not -path '*/sandbox/languages/*'; find problems -name '*.c' -o -name '*.cpp'; } 2>/dev/null | sort)
[ ${#files[@]} -gt 0 ] || { echo "no sources found under $root"; exit 1; }
# --dry-run -Werror names each file that differs ("file:line:col: error: code should be
# clang-formatted") and exits non-zero; any other failure is shown as it came.
status=0
out=$(printf '%s\0' "${files[@]}" | xargs -0 -n 40 -P "$(nproc)" clang-format --dry-run -Werror 2>&1) ||
    status=$?
bad=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$out" | sort -u)
if [ -n "$bad" ]; then
    while read -r f; do echo "not formatted: $f (run: clang-format -i $f)"; done <<<"$bad"
    exit 1
fi
if [ $status -ne 0 ]; then
    printf 'clang-format failed (status %d):\n%s\n' $status "$out"
    exit 1
fi
echo "${#files[@]} files formatted"
