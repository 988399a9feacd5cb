#!/usr/bin/env bash
# Fails when any C source or header differs from what the committed .clang-format produces.
set -euo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root"
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 1; }
# Fixtures under tests/sandbox/languages keep the shapes they test; problems/ counts its C and
# C++ reference solutions (not CUDA: clang-format splits `<<<...>>>` launches it misreads).
mapfile -t files < <({ find server runners tests benchmarks languages -name '*.[ch]' \
    -not -path '*/sandbox/languages/*'; find problems -name '*.c' -o -name '*.cpp'; } 2>/dev/null | sort)
[ ${#files[@]} -gt 0 ] || { echo "no sources found under $root"; exit 1; }
bad=0
for f in "${files[@]}"; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f (run: clang-format -i $f)"
        bad=1
    fi
done
[ $bad -eq 0 ] && echo "${#files[@]} files formatted"
exit $bad
