#!/usr/bin/env bash
# Precompiles, once, the C++ headers that C's and C++'s graded jobs include (languages/cpp/),
# into OUT, which is under /usr and so seen read-only by every cell:
# - OUT/host/verdict_host.hpp(.gch): the host (wire.hpp and host.hpp) of a graded C program's
#   C++ half (languages/c.json's compile step) and of a C++ problem's host unit (cpp.json's
#   host_unit, which includes it before the prompt's own includes);
# - OUT/host/stdc/verdict_host.hpp(.gch): the same after <bits/stdc++.h>;
# - OUT/grader/verdict_grader.hpp(.gch): a grader's runtime (wire.hpp and grader.hpp), which
#   the graders of languages/cpp.json and c.json include before the prompt's own includes;
# - OUT/grader/stdc/verdict_grader.hpp(.gch): the same after <bits/stdc++.h>, for a grader
#   whose prompt includes that (MultiPL-E's all do: its parse is most of their compile);
# beside each the exact text the server writes to the work dir, and OUT/gxx-version. A compile
# step whose text and compiler are these includes the precompiled header; any other (templates
# newer than this build, another g++) compiles the text it was given: slower, never wrong.
# Usage: build-cpp-pch.sh [LANGUAGES_DIR] [OUT] (default: this checkout's languages/,
# /usr/local/lib/verdict/cpp-pch).
set -euo pipefail
langs=${1:-$(cd "$(dirname "$0")/.." && pwd)/languages}
out=${2:-/usr/local/lib/verdict/cpp-pch}
gxx=/usr/bin/g++
[ -x "$gxx" ] || { echo "build-cpp-pch: no g++" >&2; exit 1; }
src="$langs/cpp"
version=$("$gxx" --version | head -n 1)
stamp="$out/.built-with"
want="$(cat "$src/wire.hpp" "$src/host.hpp" "$src/grader.hpp" "$0" | sha256sum | cut -d' ' -f1) $version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-cpp-pch: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
new="$work/new"
mkdir -p "$new/host/stdc" "$new/grader/stdc"
cat "$src/wire.hpp" "$src/host.hpp" >"$new/host/verdict_host.hpp"
{ echo '#include <bits/stdc++.h>'; cat "$new/host/verdict_host.hpp"; } >"$new/host/stdc/verdict_host.hpp"
cat "$src/wire.hpp" "$src/grader.hpp" >"$new/grader/verdict_grader.hpp"
{ echo '#include <bits/stdc++.h>'; cat "$new/grader/verdict_grader.hpp"; } >"$new/grader/stdc/verdict_grader.hpp"
# The options of the templates' compile steps (-fpermissive, C's grader's alone, does not
# change what a header compiles to: g++ takes these headers for it too).
for h in host/verdict_host.hpp host/stdc/verdict_host.hpp grader/verdict_grader.hpp \
    grader/stdc/verdict_grader.hpp; do
    "$gxx" -std=gnu++17 -O0 -pipe -w -x c++-header "$new/$h" -o "$new/$h.gch"
done
echo "$version" >"$new/gxx-version"
echo "$want" >"$new/.built-with"
chmod -R a+rX "$new"
rm -rf "$out.new"
mkdir -p "$(dirname "$out")"
mv "$new" "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-cpp-pch: $out ($(du -sh "$out" | cut -f1))"
