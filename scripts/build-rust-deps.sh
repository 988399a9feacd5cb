#!/usr/bin/env bash
# Builds the Rust crates benchmark programs use (rand, regex, md5) once, offline, from
# Debian's librust-*-dev sources (cargo's directory source), into a read-only dependency
# directory the rust template binds into cells:
#   OUT/deps/*.rlib       every crate, for rustc -L dependency=OUT/deps
#   OUT/extern/lib<crate>.rlib   the three a program may name with --extern
# Usage: build-rust-deps.sh [OUT] (default /var/lib/verdict/rust-deps). Needs the rustup
# toolchain's cargo and the Debian packages (scripts/install-deps.sh installs them).
set -euo pipefail
out=${1:-/var/lib/verdict/rust-deps}
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
default=$(sed -n 's/^default_toolchain *= *"\(.*\)"/\1/p' "$rustup_home/settings.toml" 2>/dev/null || true)
bin="$rustup_home/toolchains/$default/bin"
[ -x "$bin/cargo" ] || { echo "build-rust-deps: no rustup toolchain cargo at $bin" >&2; exit 1; }
stamp="$out/.built-with"
want="$("$bin/rustc" --version) rand-0.8 regex-1.7 md5-0.7"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-rust-deps: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/.cargo"
cat >"$work/Cargo.toml" <<'TOML'
[package]
name = "verdict-rust-deps"
version = "0.0.0"
edition = "2021"

[dependencies]
rand = "0.8"
regex = { version = "1.7", default-features = false, features = ["std", "unicode"] }
md5 = "0.7"

[profile.release]
opt-level = 3
TOML
cat >"$work/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true
TOML
echo 'fn main() {}' >"$work/src/main.rs"
(cd "$work" && CARGO_HOME="$work/.cargo-home" "$bin/cargo" build --release --offline -q)
rm -rf "$out.new"
mkdir -p "$out.new/deps" "$out.new/extern"
cp "$work"/target/release/deps/*.rlib "$out.new/deps/"
for crate in rand regex md5; do
    lib=$(ls "$out.new/deps/lib$crate"-*.rlib | head -n 1)
    cp "$lib" "$out.new/extern/lib$crate.rlib"
done
echo "$want" >"$out.new/.built-with"
chmod -R a+rX "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-rust-deps: built $(ls "$out/deps" | wc -l) crates into $out"
