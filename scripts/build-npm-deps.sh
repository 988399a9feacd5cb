#!/usr/bin/env bash
# Installs one of verdict's pinned npm sets (SPEC: a directory holding package.json and its
# package-lock.json: scripts/node-deps, the modules nodejs programs may require; scripts/ts-deps,
# the tsx typescript programs run with; scripts/jest-deps, Jest and its babel.config.js) once,
# with npm ci and no install scripts, into OUT as a read-only npm project (OUT/node_modules,
# and SPEC's other files, such as a babel.config.js), which a language template binds into cells.
# Skipped when OUT already holds this lock file's install; replaced in one rename otherwise,
# and left as it was when npm fails.
# Usage: build-npm-deps.sh SPEC OUT. Needs npm and the npm registry (only here: programs never
# reach a network).
set -euo pipefail
src=$(cd "${1:?usage: build-npm-deps.sh SPEC OUT}" && pwd)
out=${2:?usage: build-npm-deps.sh SPEC OUT}
name=$(basename "$src")
command -v npm >/dev/null || { echo "build-npm-deps: no npm (apt-get install npm)" >&2; exit 1; }
stamp="$out/.built-with"
want="$(sha256sum "$src/package-lock.json" | cut -d' ' -f1) $name/package-lock.json"
extra=()
for f in "$src"/*; do
    case "$(basename "$f")" in package.json | package-lock.json) ;; *) [ -f "$f" ] && extra+=("$f") ;; esac
done
for f in "${extra[@]}"; do
    want="$want $(sha256sum "$f" | cut -d' ' -f1) $name/$(basename "$f")"
done
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-npm-deps: $out is up to date"
    exit 0
fi
mkdir -p "$(dirname "$out")"
work=$(mktemp -d "$(dirname "$out")/.$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src/package.json" "$src/package-lock.json" ${extra[@]+"${extra[@]}"} "$work/"
(cd "$work" && npm ci --ignore-scripts --omit=dev --no-audit --no-fund --loglevel=error \
    </dev/null)
echo "$want" >"$work/.built-with"
chmod -R a+rX "$work"
chmod 755 "$work"
rm -rf "$out.new" "$out"
mv "$work" "$out"
trap - EXIT
echo "build-npm-deps: $(ls "$out/node_modules" | wc -l) packages of $name into $out ($(du -sh "$out" | cut -f1))"
