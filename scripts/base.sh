#!/bin/sh
# Unpack Debian's linux-source-6.12 into a git repository whose single
# commit is the base the series applies to.  The commit is made with a
# fixed identity and date, so its hash is the same on every machine and
# the series' "base-commit:" line stays stable.
#
# usage: scripts/base.sh DIR
set -eu

dir=$1
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

if [ -d "$dir/.git" ] && git -C "$dir" rev-parse -q --verify base >/dev/null; then
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "base.sh: $tarball is missing; run 'make deps' first" >&2
	exit 1
fi

tmp="$dir.tmp.$$"
# A failed or interrupted unpack leaves nothing behind (1.7 GB).
trap 'rm -rf "$tmp"' EXIT
trap 'echo "base.sh: interrupted, $tmp removed" >&2; exit 130' INT TERM HUP
rm -rf "$tmp"
mkdir -p "$tmp"
echo "base.sh: unpacking $tarball"
tar -xJf "$tarball" -C "$tmp" --strip-components=1

export GIT_AUTHOR_NAME="GCMA harness" GIT_AUTHOR_EMAIL="gcma@localhost"
export GIT_COMMITTER_NAME="GCMA harness" GIT_COMMITTER_EMAIL="gcma@localhost"
export GIT_AUTHOR_DATE="2025-01-01T00:00:00Z" GIT_COMMITTER_DATE="2025-01-01T00:00:00Z"
version=$(make -s -C "$tmp" kernelversion)
# Debian's tarball adds a .gitignore block that ignores every top-level
# entry, which would hide new files from git; upstream Linux has no such
# block, and no patch of the series touches .gitignore.
sed -i '/^# Debian packaging:/,/^!\/debian\/$/d' "$tmp/.gitignore"
sed -i '${/^#$/d}' "$tmp/.gitignore"
git -C "$tmp" init -q -b master
git -C "$tmp" config core.autocrlf false
# The tarball ships .gitignore files; the base must hold every file of it.
git -C "$tmp" add -f -A
git -C "$tmp" commit -q -m "Linux $version (Debian linux-source-6.12)"
git -C "$tmp" tag base
rm -rf "$dir"
mv "$tmp" "$dir"
echo "base.sh: $dir is Linux $version at tag 'base' ($(git -C "$dir" rev-parse --short base))"
