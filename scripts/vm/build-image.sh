#!/usr/bin/env bash
# Builds the cgroup v2 test VM's image from Debian's packages, or reuses the cached one: a
# Debian 12 root (debootstrap, minbase) with Debian's kernel (its initrd built in the chroot),
# as an ext4 image made with `mkfs.ext4 -d`, plus the kernel and initrd beside it. The cache
# key is this script's own hash: change the recipe and the image is rebuilt.
#
# usage: scripts/vm/build-image.sh [CACHE_DIR]   (root; default /var/cache/verdict-vm)
# Prints the directory holding rootfs.ext4, vmlinuz and initrd.img.
set -euo pipefail
cache=${1:-/var/cache/verdict-vm}
key=$(sha256sum "$0" | cut -c1-16)
out=$cache/$key
if [ -f "$out/rootfs.ext4" ] && [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.img" ]; then
    echo "$out"
    exit 0
fi
if ! command -v debootstrap >/dev/null || ! command -v qemu-system-x86_64 >/dev/null; then
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap qemu-system-x86 >&2
fi
work=$(mktemp -d /var/tmp/verdict-vm-build.XXXXXX)
# debootstrap mounts /proc, /sys (and may bind /dev) in the chroot: whatever ends the build,
# unmount everything beneath it, and remove nothing while a mount is left (rm -rf would
# reach through it).
cleanup() {
    grep -o " $work/root[^ ]*" /proc/mounts | sort -r | xargs -r umount -l 2>/dev/null || true
    if grep -q " $work/" /proc/mounts; then
        echo "build-image: mounts left under $work; not removed" >&2
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
root=$work/root
# The guest runs verdict's release build and its tests under ctest (from cmake): their
# libraries; gcc, g++ (with the OpenSSL and Boost its template and tests link) and python3
# for the C, C++ and Python templates (bash is in minbase), with numpy (the warm interpreter
# imports it; the rest of the scientific stack install-deps.sh adds stays on the host's
# tests, to keep the image small); python3's pytest and requests
# for the API tests; systemd, and dbus for systemd-run, for the delegation the docs tell
# users to set up.
debootstrap --variant=minbase \
    --include=systemd,systemd-sysv,udev,kmod,linux-image-amd64,libmicrohttpd12,libseccomp2,libsqlite3-0,libpcre2-8-0,libcjson1,zlib1g,python3,python3-numpy,python3-pytest,python3-requests,gcc,g++,libc6-dev,libssl-dev,libboost-dev,procps,cmake,dbus \
    bookworm "$root" http://deb.debian.org/debian >&2
echo verdict-v2 >"$root/etc/hostname"
echo "/dev/vda / ext4 rw,relatime 0 1" >"$root/etc/fstab"
# No login: one unit, started at boot, mounts the payload disk (/dev/vdb, made by
# scripts/vm/run.sh) on /verdict, runs its guest.sh as root with its output on the serial
# console, and powers the guest off, whatever the script did. Delegate=yes gives it a cgroup
# subtree of its own, as docs/design.md tells users to run verdict under systemd.
chroot "$root" passwd -d root >&2
cat >"$root/etc/systemd/system/verdict-vm-run.service" <<'UNIT'
[Unit]
Description=verdict: run the payload's guest.sh, then power off
After=multi-user.target
SuccessAction=poweroff-force
FailureAction=poweroff-force
[Service]
Type=oneshot
Delegate=yes
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
ExecStartPre=/bin/mkdir -p /verdict
ExecStartPre=/bin/mount /dev/vdb /verdict
ExecStart=/bin/sh -c 'cd /verdict && sh ./guest.sh; echo "verdict-vm: guest.sh exit $?"'
[Install]
WantedBy=multi-user.target
UNIT
chroot "$root" systemctl enable verdict-vm-run.service >&2
chroot "$root" systemctl mask serial-getty@ttyS0.service getty@tty1.service >&2
mkdir -p "$out.tmp"
cp "$root"/boot/vmlinuz-* "$out.tmp/vmlinuz"
cp "$root"/boot/initrd.img-* "$out.tmp/initrd.img"
rm -rf "$root"/var/cache/apt/archives/*.deb
mkfs.ext4 -q -F -L verdict-v2 -d "$root" "$out.tmp/rootfs.ext4" 6G >&2
rm -rf "$out"
mv "$out.tmp" "$out"
# Images of older recipes are never used again.
find "$cache" -mindepth 1 -maxdepth 1 -type d -regextype egrep -regex '.*/[0-9a-f]{16}(\.tmp)?' \
    ! -name "$key" -exec rm -rf {} +
echo "$out"
