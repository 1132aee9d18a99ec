#!/bin/sh
# make export-check: is build/linux fully captured by patches/?
# Fails, naming what, when build/linux has uncommitted changes or new
# files not added (even if a top-level "/*" rule hides them), or when
# exporting it would change patches/.
# Succeeds when build/linux does not exist.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

tree=$BUILD/linux
[ -e "$tree" ] || exit 0
[ -d "$tree/.git" ] || die "build/linux exists but is not a git repository"

# New files must be added too.  '!/*/' lifts a top-level "/*" rule such as
# Debian's tarball ships (scripts/base.sh strips it; a tree made from an
# older base may still have it); all other ignore rules still apply.
dirty=$(git -C "$tree" --no-optional-locks status --porcelain --untracked-files=no
	git -C "$tree" ls-files -o --exclude-standard --exclude='!/*/' \
		--directory --no-empty-directory | sed 's/^/?? /')
if [ -n "$dirty" ]; then
	warn "build/linux has uncommitted changes (commit or stash them, then 'make export'):"
	echo "$dirty" | head -30 >&2
	exit 1
fi

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/patches"
[ -d "$PATCHES" ] && cp -a "$PATCHES"/. "$tmp/patches/"
sh "$here/export.sh" "$tmp/patches" >"$tmp/export.log" 2>&1 ||
	{ cat "$tmp/export.log" >&2; die "export into a temporary directory failed"; }
src=$PATCHES
[ -d "$src" ] || { src=$tmp/none; mkdir "$src"; }
# No series file and no commits: nothing to tell apart.
[ ! -f "$src/series" ] && [ ! -s "$tmp/patches/series" ] && rm -f "$tmp/patches/series"
if ! diff -ruN "$src" "$tmp/patches" >"$tmp/diff" 2>&1; then
	warn "build/linux has commits not in patches/ (run 'make export'); differences:"
	grep -E '^(diff|Only in)' "$tmp/diff" | sed "s|$tmp/patches|<export>|; s|$ROOT/||g" >&2
	exit 1
fi
