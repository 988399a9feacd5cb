#!/usr/bin/env bash
# Precompiles the C grader's host (languages/cpp/wire.hpp and host.hpp, which a graded C
# program's C++ half includes: languages/c.json) once, into OUT/verdict_host.hpp.gch beside
# the exact text the server writes as verdict_host.hpp, and g++'s version. OUT is under /usr,
# which every cell sees read-only. A C compile step whose host text and compiler are these
# includes the precompiled header (g++'s parse of the C++ headers, most of the host's cost);
# any other (templates newer than this build, another g++) compiles the text it was given.
# Usage: build-c-host.sh [LANGUAGES_DIR] [OUT] (default: this checkout's languages/,
# /usr/local/lib/verdict/c-host).
set -euo pipefail
langs=${1:-$(cd "$(dirname "$0")/.." && pwd)/languages}
out=${2:-/usr/local/lib/verdict/c-host}
gxx=/usr/bin/g++
[ -x "$gxx" ] || { echo "build-c-host: no g++" >&2; exit 1; }
src="$langs/cpp"
version=$("$gxx" --version | head -n 1)
stamp="$out/.built-with"
want="$(cat "$src/wire.hpp" "$src/host.hpp" | sha256sum | cut -d' ' -f1) $version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-c-host: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new"
cat "$src/wire.hpp" "$src/host.hpp" >"$work/new/verdict_host.hpp"
# The same compiler and options as languages/c.json's host compile.
"$gxx" -std=gnu++17 -O0 -pipe -w -x c++-header "$work/new/verdict_host.hpp" \
    -o "$work/new/verdict_host.hpp.gch"
echo "$version" >"$work/new/gxx-version"
echo "$want" >"$work/new/.built-with"
chmod -R a+rX "$work/new"
rm -rf "$out.new"
mkdir -p "$(dirname "$out")"
mv "$work/new" "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-c-host: $out ($(du -sh "$out" | cut -f1))"
