#!/usr/bin/env bash
# Installs tsx (and the esbuild it transpiles with), which the typescript template runs
# programs with as SandboxFusion does, at the exact versions of scripts/ts-deps/package.json and
# its package-lock.json, once, with npm ci and no install scripts, into a read-only OUT/node_modules
# the typescript template binds into cells. Skipped when OUT already holds this lock file's
# install. Usage: build-ts-deps.sh [OUT] (default /var/lib/verdict/ts). Needs npm and the npm
# registry (only here: programs never reach a network).
set -euo pipefail
out=${1:-/var/lib/verdict/ts}
src="$(cd "$(dirname "$0")" && pwd)/ts-deps"
command -v npm >/dev/null || { echo "build-ts-deps: no npm (apt-get install npm)" >&2; exit 1; }
stamp="$out/.built-with"
want="$(sha256sum "$src/package-lock.json" | cut -d' ' -f1) package-lock.json"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-ts-deps: $out is up to date"
    exit 0
fi
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$(dirname "$out")/.ts-deps.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$work/"
(cd "$work" && npm ci --ignore-scripts --omit=dev --no-audit --no-fund --loglevel=error \
    </dev/null)
# esbuild's binary comes from its platform package; --ignore-scripts skips only the check.
"$work/node_modules/.bin/tsx" --version >/dev/null
echo "$want" >"$work/.built-with"
chmod -R a+rX "$work"
chmod 755 "$work"
rm -rf "$out.new" "$out"
mv "$work" "$out"
trap - EXIT
echo "build-ts-deps: tsx into $out ($(du -sh "$out" | cut -f1))"
