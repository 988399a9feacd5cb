#!/usr/bin/env bash
# Compiles the Rust grader's runtime (languages/rust/: the typed wire, the grader's and the
# host's sides) once, as the library crate verdict_rt, into OUT/libverdict_rt.rlib inside the
# Rust crates' directory the rust templates already bind, so that a Rust grader and a graded
# program compile only their own text (rustc -O's two seconds for these 900 lines, every time,
# otherwise). Beside it, the exact texts the server appends to a grader's source
# (grader-tail.rs: wire.rs, grader.rs and host.rs) and writes as the host's file
# (verdict_host.rs: wire.rs and host.rs), and the compiler's version: languages/rust.json's
# and rust_test.json's compile steps use the library only when the texts they were given are
# these, byte for byte, and the compiler is this one, and compile the texts themselves
# otherwise (templates newer than this build, another toolchain: slower, never wrong).
# Run it after scripts/build-rust-deps.sh, which replaces the whole directory.
# Usage: build-rust-runtime.sh [LANGUAGES_DIR] [OUT] (default: this checkout's languages/,
# /var/lib/verdict/rust-deps/verdict_rt).
set -euo pipefail
langs=${1:-$(cd "$(dirname "$0")/.." && pwd)/languages}
out=${2:-/var/lib/verdict/rust-deps/verdict_rt}
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
default=$(sed -n 's/^default_toolchain *= *"\(.*\)"/\1/p' "$rustup_home/settings.toml" 2>/dev/null || true)
rustc="$rustup_home/toolchains/$default/bin/rustc"
[ -x "$rustc" ] || { echo "build-rust-runtime: no rustup toolchain rustc at $rustc" >&2; exit 1; }
src="$langs/rust"
version=$("$rustc" --version)
stamp="$out/.built-with"
want="$(cat "$src/wire.rs" "$src/grader.rs" "$src/host.rs" | sha256sum | cut -d' ' -f1) $version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-rust-runtime: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new"
cat "$src/wire.rs" "$src/grader.rs" "$src/host.rs" >"$work/new/grader-tail.rs"
cat "$src/wire.rs" "$src/host.rs" >"$work/new/verdict_host.rs"
# The same compiler and options as the templates' compile steps.
"$rustc" -O --edition 2021 --crate-type rlib --crate-name verdict_rt \
    -o "$work/new/libverdict_rt.rlib" "$work/new/grader-tail.rs"
echo "$version" >"$work/new/rustc-version"
echo "$want" >"$work/new/.built-with"
chmod -R a+rX "$work/new"
rm -rf "$out.new"
mkdir -p "$(dirname "$out")"
mv "$work/new" "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-rust-runtime: $out ($(du -sh "$out" | cut -f1))"
