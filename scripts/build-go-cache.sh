#!/usr/bin/env bash
# Warms a Go build cache, read-only for cells, with what benchmark tests compile again and
# again: testify (Debian's golang-github-stretchr-testify-dev, GOPATH mode) and its
# dependencies. The go_test template copies it into each compile's private GOCACHE, so a test
# file builds in about a second instead of ten, and no job can change what another reads.
# Usage: build-go-cache.sh [OUT] (default /var/lib/verdict/go-cache).
set -euo pipefail
out=${1:-/var/lib/verdict/go-cache}
go=/usr/lib/go/bin/go
[ -x "$go" ] || { echo "build-go-cache: no $go (apt-get install golang-go)" >&2; exit 1; }
stamp="$out/.built-with"
want="$("$go" version) testify"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "build-go-cache: $out is up to date"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/main_test.go" <<'GO'
package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWarm(t *testing.T) {
	assert.Equal(t, 1, 1)
}
GO
# The same environment as languages/go_test.json's compile step, so the cache's keys match.
(cd "$work" && env -i PATH=/usr/lib/go/bin:/usr/bin:/bin HOME=/tmp GOCACHE="$work/cache" \
    GOPATH=/usr/share/gocode GO111MODULE=off CGO_ENABLED=0 GOPROXY=off TMPDIR="$work" \
    "$go" test -c -o "$work/main.test" main_test.go)
rm -rf "$out.new"
mv "$work/cache" "$out.new"
echo "$want" >"$out.new/.built-with"
chmod -R a+rX "$out.new"
rm -rf "$out"
mv "$out.new" "$out"
echo "build-go-cache: $out ($(du -sh "$out" | cut -f1))"
