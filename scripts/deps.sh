#!/bin/sh
# make deps: install the Debian 12 packages the harness needs.  Quick and
# quiet when all are installed; runs apt-get only for missing ones.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

pkgs="linux-source-6.12 build-essential git flex bison bc libelf-dev libssl-dev
cpio busybox-static qemu-system-x86 ccache sparse python3 perl rsync kmod
xz-utils dwarves binutils coreutils file python3-ply python3-git e2fsprogs gnuplot-nox"

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	[ "$st" = "install ok installed" ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

say "installing:$missing"
sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: install$missing"
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q || die "apt-get update failed"
$sudo apt-get install -y -q --no-install-recommends $missing ||
	die "apt-get install failed for:$missing"
