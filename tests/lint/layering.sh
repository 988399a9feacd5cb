#!/usr/bin/env bash
# Builds tests/lint/reversed_include.c (a judge-room file including an http-room header) and
# passes only when the compiler refuses it for that include: the layering is enforced by the
# rooms' include roots, not by review.
set -uo pipefail
build=$1
out=$(cmake --build "$build" --target layering_reversed 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
    echo "FAIL: a judge-room file including server/http/api.h compiled"
    exit 1
fi
if ! grep -q 'server/http/api.h: No such file' <<<"$out"; then
    echo "FAIL: the build failed for another reason:"
    echo "$out" | tail -20
    exit 1
fi
echo "ok: the reversed include is refused by the compiler"
