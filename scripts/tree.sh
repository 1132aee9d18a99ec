#!/bin/sh
# make tree: build/linux = build/base + patches/series, on branch 'gcma',
# ready for work.  Refuses to replace a build/linux that holds work not in
# patches/ (see export-check.sh); FORCE=1 replaces it anyway.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

tree=$BUILD/linux
if [ -e "$tree" ]; then
	if [ "${FORCE:-0}" != 1 ]; then
		sh "$here/export-check.sh" ||
			die "build/linux holds work that is not in patches/ (above); 'make export' it, or FORCE=1 make tree to throw it away"
	fi
	say "replacing build/linux"
fi
mkdir -p "$LOGS"
clone_base "$tree"
git -C "$tree" checkout -q -b gcma base || die "cannot create branch gcma at base"
git -C "$tree" branch -q -D master 2>/dev/null
am_series "$tree" "$LOGS/tree-am.log" || die "the series does not apply (log: build/logs/tree-am.log)"
say "build/linux: branch gcma, $(git -C "$tree" rev-list --count base..HEAD) patches on base"
