#!/bin/sh
# make deps: install the Debian 12 packages the harness needs.  Quick and
# quiet when all are installed; runs apt-get only for missing ones.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

# The arm64 guest (make check's arm64 boot): cross compiler and C library,
# QEMU's virt machine, dtc for its device tree, and busybox-static:arm64,
# which is not installed but unpacked into build/deps/arm64.
pkgs="linux-source-6.12 build-essential git flex bison bc libelf-dev libssl-dev
cpio busybox-static qemu-system-x86 ccache sparse python3 perl rsync kmod
xz-utils dwarves binutils coreutils file python3-ply python3-git e2fsprogs gnuplot-nox
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm device-tree-compiler"
arm64_busybox=$BUILD/deps/arm64/bin/busybox

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$st" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && [ -x "$arm64_busybox" ] && exit 0

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: install$missing and busybox-static:arm64"
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	say "installing:$missing"
	$sudo apt-get update -q || die "apt-get update failed"
	$sudo apt-get install -y -q --no-install-recommends $missing ||
		die "apt-get install failed for:$missing"
fi

[ -x "$arm64_busybox" ] && exit 0
say "unpacking busybox-static:arm64 into build/deps/arm64"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$sudo dpkg --add-architecture arm64 || die "dpkg --add-architecture arm64 failed"
	$sudo apt-get update -q || die "apt-get update failed"
fi
rm -rf "$BUILD/deps/arm64" "$BUILD/deps/download"
mkdir -p "$BUILD/deps/download"
(cd "$BUILD/deps/download" && apt-get download -q busybox-static:arm64) ||
	die "apt-get download busybox-static:arm64 failed"
dpkg-deb -x "$BUILD/deps/download"/busybox-static_*_arm64.deb "$BUILD/deps/arm64" ||
	die "cannot unpack busybox-static:arm64"
[ -x "$arm64_busybox" ] || die "busybox-static:arm64 has no bin/busybox"
