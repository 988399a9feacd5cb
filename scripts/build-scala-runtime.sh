#!/usr/bin/env bash
# Compiles the Scala grader's runtime (languages/scala/: the typed wire, the grader's and the
# host's sides) once, into OUT/runtime.jar, read-only for cells, so that a Scala grader and a
# graded program compile only their own text (scalac's seconds for these 500 lines, every
# time, otherwise). Beside it, the exact texts the server appends to a grader's source
# (grader-tail.scala: wire.scala and grader.scala, then the layout's newline) and writes as
# the host's file (VerdictHost.scala: host.scala and wire.scala): languages/scala.json's
# compile steps use the jar only when the texts they were given are these, byte for byte, and
# compile the texts themselves otherwise (templates newer than this build: slower, never wrong).
# Usage: build-scala-runtime.sh [LANGUAGES_DIR] [OUT] (default: this checkout's languages/,
# /var/lib/verdict/scala).
set -euo pipefail
langs=${1:-$(cd "$(dirname "$0")/.." && pwd)/languages}
out=${2:-/var/lib/verdict/scala}
lib=/usr/share/java
[ -r "$lib/scala-compiler-2.11.jar" ] || { echo "build-scala-runtime: no scala (apt-get install scala)" >&2; exit 1; }
src="$langs/scala"
stamp="$out/.built-with"
want="$(cat "$src/wire.scala" "$src/grader.scala" "$src/host.scala" | sha256sum | cut -d' ' -f1) $(readlink -f "$lib/scala-compiler-2.11.jar")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-scala-runtime: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/classes" "$work/new"
# The same compiler and options as languages/scala.json's grader compile.
/usr/bin/java -Xmx768m -Xss16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:off \
    -Dscala.usejavacp=true \
    -cp "$lib/scala-compiler-2.11.jar:$lib/scala-library-2.11.jar:$lib/scala-reflect-2.11.jar" \
    scala.tools.nsc.Main -encoding UTF-8 -nowarn -d "$work/classes" \
    "$src/wire.scala" "$src/grader.scala" "$src/host.scala"
/usr/bin/jar --create --file "$work/new/runtime.jar" -C "$work/classes" .
{ cat "$src/wire.scala" "$src/grader.scala"; printf '\n'; } >"$work/new/grader-tail.scala"
cat "$src/host.scala" "$src/wire.scala" >"$work/new/VerdictHost.scala"
echo "$want" >"$work/new/.built-with"
chmod -R a+rX "$work/new"
rm -rf "$out.new"
mkdir -p "$(dirname "$out")"
mv "$work/new" "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-scala-runtime: $out ($(du -sh "$out" | cut -f1))"
