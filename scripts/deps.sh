#!/bin/sh
# make deps: install the Debian 12 packages the harness needs.  Quick and
# quiet when all are installed; runs apt-get only for missing ones.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

# The arm64 guest (make check's arm64 boot) and the 32-bit ARM one (make
# check-arm): cross compilers and C libraries, QEMU's virt machines, dtc
# for arm64's device tree, and Debian's busybox-static for arm64 and
# armhf, which are not installed but unpacked into build/deps/<arch>.
pkgs="linux-source-6.12 build-essential git flex bison bc libelf-dev libssl-dev
cpio busybox-static qemu-system-x86 ccache sparse python3 perl rsync kmod
xz-utils dwarves binutils coreutils file python3-ply python3-git e2fsprogs f2fs-tools erofs-utils gnuplot-nox
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm device-tree-compiler
gcc-arm-linux-gnueabihf libc6-dev-armhf-cross dt-schema yamllint"
foreign="arm64 armhf"

missing= unpacked=1
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$st" = "install ok installed" ] || missing="$missing $p"
done
for a in $foreign; do
	[ -x "$BUILD/deps/$a/bin/busybox" ] || unpacked=
done
[ -z "$missing" ] && [ -n "$unpacked" ] && exit 0

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null ||
		die "not root and no sudo: install$missing and busybox-static for $foreign"
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	say "installing:$missing"
	$sudo apt-get update -q || die "apt-get update failed"
	$sudo apt-get install -y -q --no-install-recommends $missing ||
		die "apt-get install failed for:$missing"
fi

# unpack_busybox ARCH: busybox-static:ARCH into build/deps/ARCH, without
# installing it (apt-get download needs ARCH as a foreign architecture).
unpack_busybox() {
	[ -x "$BUILD/deps/$1/bin/busybox" ] && return
	say "unpacking busybox-static:$1 into build/deps/$1"
	_added=
	if ! dpkg --print-foreign-architectures | grep -qx "$1"; then
		$sudo dpkg --add-architecture "$1" || die "dpkg --add-architecture $1 failed"
		_added=1
		# Interrupted or failed before the download ends, the host
		# still gets its architectures back.
		trap "$sudo dpkg --remove-architecture $1" EXIT
		trap 'exit 130' INT TERM HUP
		# An index of another suite may fail (a mirror mid-sync): the
		# download below says whether the one needed came.
		$sudo apt-get update -q || warn "apt-get update reported errors"
	fi
	rm -rf "$BUILD/deps/$1" "$BUILD/deps/download-$1"
	mkdir -p "$BUILD/deps/download-$1"
	# As root, apt downloads as _apt, which needs write access here.
	chmod 0777 "$BUILD/deps/download-$1"
	(cd "$BUILD/deps/download-$1" && apt-get download -q "busybox-static:$1")
	_rc=$?
	# The host keeps the architectures it had: dpkg needed this one only
	# for the download (no package of it is installed).
	if [ -n "$_added" ]; then
		trap - EXIT INT TERM HUP
		$sudo dpkg --remove-architecture "$1" ||
			warn "dpkg --remove-architecture $1 failed: $1 stays a foreign architecture"
	fi
	[ $_rc -eq 0 ] || die "apt-get download busybox-static:$1 failed"
	dpkg-deb -x "$BUILD/deps/download-$1"/busybox-static_*_"$1".deb "$BUILD/deps/$1" ||
		die "cannot unpack busybox-static:$1"
	[ -x "$BUILD/deps/$1/bin/busybox" ] || die "busybox-static:$1 has no bin/busybox"
}
for a in $foreign; do
	unpack_busybox "$a"
done
