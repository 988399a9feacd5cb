#!/usr/bin/env bash
# Boots the cgroup v2 test VM (scripts/vm/build-image.sh) under QEMU (TCG: a KVM guest stops
# at early boot on our machines) with a payload disk made from DIR, whose guest.sh the guest
# runs as root at boot on the unified cgroup v2 hierarchy; its output comes back on the
# serial console (this script's stdout), and the guest powers off. The root image is used
# with -snapshot: nothing the run writes outlives it but the cached image. With OUT_DIR,
# what the guest left in the payload's out/ is copied there (debugfs: nothing is mounted).
#
# usage: scripts/vm/run.sh DIR [TIMEOUT_S=1800 [OUT_DIR]]   (root)
set -euo pipefail
dir=$1
timeout_s=${2:-1800}
results=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
img=$("$here/build-image.sh" "${VERDICT_VM_CACHE:-/var/cache/verdict-vm}")
work=$(mktemp -d /var/tmp/verdict-vm-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
size=$(( $(du -sm "$dir" | cut -f1) * 2 + 256 ))
mkfs.ext4 -q -F -d "$dir" "$work/payload.ext4" "${size}M"
timeout --foreground "$timeout_s" qemu-system-x86_64 -accel tcg -m 3072 -smp 2 -nographic \
    -no-reboot -snapshot -kernel "$img/vmlinuz" -initrd "$img/initrd.img" \
    -append "root=/dev/vda rw console=ttyS0 systemd.unified_cgroup_hierarchy=1 quiet" \
    -drive "file=$img/rootfs.ext4,format=raw,if=virtio" \
    -drive "file=$work/payload.ext4,format=raw,if=virtio,snapshot=off" \
    -nic none </dev/null || echo "verdict-vm: qemu exit $?"
if [ -n "$results" ]; then
    mkdir -p "$results"
    debugfs -R "rdump /out $results" "$work/payload.ext4" >/dev/null 2>&1 || true
fi
