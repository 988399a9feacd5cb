#!/usr/bin/env bash
# Writes the balancer's nginx config: verdict.conf (beside this script) with its replica line
# once per replica address and the address nginx serves on; nothing else is templated.
#
#   render.sh [--listen ADDR] OUT.conf HOST:PORT [HOST:PORT...]
#
# --listen: PORT, HOST:PORT or [IPv6]:PORT (default 8080: every IPv4 address). OUT.conf is
# written whole or not at all (an http-level file: conf.d/, or included in an http block).
set -euo pipefail

usage() {
    echo "usage: render.sh [--listen ADDR] OUT.conf HOST:PORT [HOST:PORT...]" >&2
    exit 2
}

listen=8080
if [ "${1:-}" = "--listen" ]; then
    [ $# -ge 2 ] || usage
    listen=$2
    shift 2
fi
[ $# -ge 2 ] || usage
out=$1
shift

# Addresses only: a name or an address and a port, so that nothing else reaches the config.
port_re='[0-9]{1,5}'
host_re='([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])'
if ! [[ $listen =~ ^($host_re:)?$port_re$ ]]; then
    echo "render.sh: bad listen address: $listen" >&2
    exit 2
fi
for a in "$@"; do
    if ! [[ $a =~ ^$host_re:$port_re$ ]]; then
        echo "render.sh: bad replica address (HOST:PORT): $a" >&2
        exit 2
    fi
done

template="$(dirname "$0")/verdict.conf"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT
while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line == *@REPLICA@* ]]; then
        for a in "$@"; do
            printf '%s\n' "${line//@REPLICA@/$a}"
        done
    else
        printf '%s\n' "${line//@LISTEN@/$listen}"
    fi
done <"$template" >"$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
