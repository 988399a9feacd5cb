#!/usr/bin/env bash
# Installs the Debian packages verdict needs to build, test and run, skipping what is present.
# Needs root (or password-less sudo) only when something is missing. Never reads stdin.
set -euo pipefail

packages=(
    # build
    gcc make cmake pkg-config git clang-format
    # libraries (each behind one module: see docs/design.md)
    libmicrohttpd-dev libseccomp-dev libsqlite3-dev libpcre2-dev libcjson-dev zlib1g-dev
    # toolchains verdict offers to submissions (languages/*.json), their libraries, and the
    # test suite's helpers
    python3 golang-go golang-github-stretchr-testify-dev libboost-dev libssl-dev
    librust-rand-dev librust-regex-dev librust-md5-dev
    # java: the JDK languages/java.json runs, and org.javatuples on its classpath (MultiPL-E)
    openjdk-17-jdk-headless libjavatuples-java
    # interpreters SandboxFusion offers: php, lua, perl, ruby (about 9 MB of downloads)
    php-cli lua5.4 perl ruby
    # the test libraries MultiPL-E's Lua and Perl tests load: luaunit and Test::Deep (0.2 MB),
    # and Data::Compare, which SandboxFusion's Perl tests use (0.1 MB)
    lua-unit libtest-deep-perl libdata-compare-perl
    # Python's libraries RL datasets import (SandboxFusion's runtime has them; its HumanEval
    # harness starts with `import numpy`): Debian's scientific stack, about 75 MB of downloads
    # (languages/python.json's `packages` lists what a host has; the warm interpreter imports
    # numpy: docs/performance.md, "Python's libraries")
    python3-numpy python3-scipy python3-pandas python3-sympy python3-networkx
    python3-matplotlib python3-sklearn python3-regex python3-dateutil python3-sortedcontainers
    # D: LDC (ldmd2 takes dmd's options) and its shared Phobos, for languages/d.json and d_ut.json
    ldc
    # R, racket, sql and verilog as SandboxFusion names them: Rscript (r-base-core, 26 MB),
    # Racket CS (racket and racket-common, 107 MB: Debian has no smaller Racket), the sqlite3
    # shell (0.4 MB) and Icarus Verilog (iverilog and vvp, 2 MB)
    r-base-core racket sqlite3 iverilog
    # SandboxFusion's scala, kotlin_script, csharp and junit on the JDK above and Mono: scala
    # 2.11 (25 MB of downloads), kotlin 1.3.31 (87 MB: its compiler pulls in Debian's Maven
    # libraries), mono-mcs and mono-runtime (7 MB), junit5 (4 MB: the JUnit 5 console launcher)
    scala kotlin mono-mcs mono-runtime junit5
    # the API tests: a real client against the real server
    python3-pytest python3-requests
    # the deployment tests (tests/deploy): Debian's nginx as the balancer in front of replicas
    # (nginx: the server with its proxy and upstream modules built in, 0.6 MB with
    # nginx-common; Debian 12's nginx-light only adds the echo module to it) and PyYAML for
    # docker/compose.yaml (0.1 MB). The tests start nginx themselves, on loopback.
    nginx python3-yaml
    # the dashboard's browser test (tests/browser): headless Chromium driven by Selenium through
    # chromedriver (about 124 MB of downloads with their dependencies: chromium 81 MB,
    # chromium-common 32 MB, chromium-driver 9 MB, python3-selenium 0.1 MB)
    chromium chromium-driver python3-selenium
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

# The Rust crates programs may use, built once from the Debian sources above, the Go cache and
# the Node modules (root only: they go to /var/lib/verdict; skipped, with a note, where there
# is no rustup toolchain or no npm).
rust_deps() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "install-deps: not root, Rust crates not built (run scripts/build-rust-deps.sh as root)"
    elif [ -f "${RUSTUP_HOME:-$HOME/.rustup}/settings.toml" ]; then
        bash "$(dirname "$0")/build-rust-deps.sh"
        # The Rust grader's runtime, compiled once (without it each grader compiles it).
        if ! bash "$(dirname "$0")/build-rust-runtime.sh"; then
            echo "install-deps: the Rust grader's runtime not built, Rust graders compile it" >&2
        fi
    else
        echo "install-deps: no rustup toolchain, Rust crates not built"
    fi
    if [ "$(id -u)" -eq 0 ]; then
        bash "$(dirname "$0")/build-go-cache.sh"
        # The C and C++ graders' headers, precompiled once (without them each compile parses them).
        if ! bash "$(dirname "$0")/build-cpp-pch.sh"; then
            echo "install-deps: the C and C++ graders' headers not precompiled, each compile parses them" >&2
        fi
        # The Scala grader's runtime, compiled once (without it scala is unavailable).
        if ! bash "$(dirname "$0")/build-scala-runtime.sh"; then
            echo "install-deps: the Scala grader's runtime not built, scala unavailable" >&2
        fi
        # The modules nodejs programs may require (npm and its registry; without them nodejs
        # is listed unavailable, which need not stop the rest).
        if ! command -v npm >/dev/null; then
            echo "install-deps: no npm, Node modules not installed"
        elif ! bash "$(dirname "$0")/build-npm-deps.sh" "$(dirname "$0")/node-deps" /var/lib/verdict/node; then
            echo "install-deps: Node modules not installed (npm failed), nodejs unavailable" >&2
        fi
        # tsx, which typescript programs run with (the same: without it typescript is unavailable).
        if command -v npm >/dev/null &&
            ! bash "$(dirname "$0")/build-npm-deps.sh" "$(dirname "$0")/ts-deps" /var/lib/verdict/ts; then
            echo "install-deps: tsx not installed (npm failed), typescript unavailable" >&2
        fi
        # Jest and Babel, which jest programs run with (37 MB installed, 276 packages; the same:
        # without them jest is unavailable).
        if command -v npm >/dev/null &&
            ! bash "$(dirname "$0")/build-npm-deps.sh" "$(dirname "$0")/jest-deps" /var/lib/verdict/jest; then
            echo "install-deps: Jest not installed (npm failed), jest unavailable" >&2
        fi
    fi
}

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    rust_deps
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        as_root=(sudo -n)
    else
        echo "install-deps: missing packages (${missing[*]}) and not root; run as root" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q </dev/null
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
# nginx installed here is a test tool: the service the package starts (Debian's default site,
# every address, port 80) is stopped and disabled again. An nginx installed before is left
# as it is.
if [[ " ${missing[*]} " == *" nginx "* ]] && [ -d /run/systemd/system ]; then
    "${as_root[@]}" systemctl disable --now nginx.service || true
fi
rust_deps
