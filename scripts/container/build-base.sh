#!/usr/bin/env bash
# Builds the base image the container's Dockerfile starts from (`FROM debian:bookworm-slim`)
# out of Debian's own packages, for hosts with no image registry: a minimal Debian 12 root
# made by mmdebstrap (variant minbase, documentation and locales left out as in Debian's
# official slim image), kept as a tarball in CACHE_DIR and rebuilt only when this recipe
# changes (the cache key is this script's hash, as scripts/vm/build-image.sh does).
# With --import the tarball is also imported into podman's storage as debian:bookworm-slim
# (whatever storage CONTAINERS_CONF / CONTAINERS_STORAGE_CONF name), so that
# `podman build --pull=never --format docker -f docker/Dockerfile .` builds unchanged.
#
# usage: scripts/container/build-base.sh [--import] [CACHE_DIR]
#   (root; default CACHE_DIR /var/cache/verdict-container; prints the tarball's path)
set -euo pipefail
import=false
if [ "${1:-}" = --import ]; then
    import=true
    shift
fi
cache=${1:-/var/cache/verdict-container}
key=$(sha256sum "$0" | cut -c1-16)
tarball=$cache/debian-bookworm-slim-$key.tar
mirror=http://deb.debian.org/debian
if [ ! -f "$tarball" ]; then
    if ! command -v mmdebstrap >/dev/null; then
        apt-get update -q >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap >&2
    fi
    mkdir -p "$cache"
    tmp=$(mktemp "$cache/.base.XXXXXX.tar")
    trap 'rm -f "$tmp"' EXIT
    # minbase: Essential and apt, nothing else. The dpkg path excludes are what Debian's
    # slim image leaves out (they stay in the image for later installs, as there); man1 is
    # kept as an empty directory because some postinst scripts (openjdk) register man pages
    # with update-alternatives. The apt lists are dropped: every Dockerfile stage starts with
    # apt-get update. (The hooks' "$1" is mmdebstrap's, not this script's.)
    # shellcheck disable=SC2016
    mmdebstrap --variant=minbase --mode=root --format=tar \
        --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/doc/*' \
        --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/info/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-include=/usr/share/locale/locale.alias' \
        --dpkgopt='path-exclude=/usr/share/lintian/*' \
        --customize-hook='mkdir -p "$1/usr/share/man/man1"' \
        --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
        bookworm "$tmp" \
        "deb $mirror bookworm main" \
        "deb $mirror bookworm-updates main" \
        "deb http://deb.debian.org/debian-security bookworm-security main" >&2
    chmod 644 "$tmp"
    mv "$tmp" "$tarball"
    trap - EXIT
    # Tarballs of older recipes are never used again.
    find "$cache" -maxdepth 1 -name 'debian-bookworm-slim-*.tar' ! -name "$(basename "$tarball")" -delete
fi
if $import; then
    # Imported again only when the image there is not this tarball's (its label says which).
    have=$(podman image inspect --format '{{index .Labels "org.verdict.base"}}' \
        debian:bookworm-slim 2>/dev/null || true)
    if [ "$have" != "$key" ]; then
        podman import --quiet \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change "LABEL org.verdict.base=$key" \
            --change 'CMD ["bash"]' \
            "$tarball" debian:bookworm-slim >&2
    fi
fi
echo "$tarball"
