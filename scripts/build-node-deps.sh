#!/usr/bin/env bash
# Installs the pure-JS modules nodejs programs may require (lodash, jsdom, ...: the list and
# the exact versions are scripts/node-deps/package.json and its package-lock.json) once, with
# npm ci and no install scripts, into a read-only node_modules the nodejs template binds into
# cells and names in NODE_PATH. Skipped when OUT already holds this lock file's install.
# Usage: build-node-deps.sh [OUT] (default /var/lib/verdict/node_modules). Needs npm and the
# npm registry (only here: programs never reach a network).
set -euo pipefail
out=${1:-/var/lib/verdict/node_modules}
src="$(cd "$(dirname "$0")" && pwd)/node-deps"
command -v npm >/dev/null || { echo "build-node-deps: no npm (apt-get install npm)" >&2; exit 1; }
stamp="$out/.built-with"
want="$(sha256sum "$src/package-lock.json" | cut -d' ' -f1) package-lock.json"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-node-deps: $out is up to date"
    exit 0
fi
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$(dirname "$out")/.node-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$work/"
(cd "$work" && npm ci --ignore-scripts --omit=dev --no-audit --no-fund --loglevel=error \
    </dev/null)
rm -rf "$out.new"
mv "$work/node_modules" "$out.new"
echo "$want" >"$out.new/.built-with"
chmod -R a+rX "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-node-deps: $(ls "$out" | wc -l) modules into $out ($(du -sh "$out" | cut -f1))"
