#!/bin/sh
# make export: write the commits base..HEAD of build/linux as patches/.
#
# usage: scripts/export.sh [OUTDIR]	(default: patches/)
#
# The output is stable: exporting an unchanged tree changes no file.
# 0000-cover-letter.patch is hand-written above git's shortlog: its headers,
# Subject and body are kept (the "0/N" of the Subject follows the series'
# length) and only the shortlog, diffstat and base-commit part beneath is
# regenerated.  The Subject's prefix ("[RFC PATCH v2 0/N]") is used for
# every patch.  Patch files that no longer match a commit are removed.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

out=${1:-$PATCHES}
tree=$BUILD/linux
[ -d "$tree/.git" ] || die "no build/linux (run 'make tree')"
git -C "$tree" rev-parse -q --verify base >/dev/null || die "build/linux has no tag 'base'"
git -C "$tree" merge-base --is-ancestor base HEAD || die "HEAD of build/linux does not descend from base"
if [ -n "$(git -C "$tree" --no-optional-locks status --porcelain --untracked-files=no)" ]; then
	warn "build/linux has uncommitted changes; they are not exported:"
	git -C "$tree" --no-optional-locks status --short --untracked-files=no | head -20 >&2
fi
n=$(git -C "$tree" rev-list --count base..HEAD)
mkdir -p "$out"
cover=$out/0000-cover-letter.patch

# Subject prefix from the existing cover letter: "[RFC PATCH v2 0/3] ..."
prefix=PATCH
if [ -f "$cover" ]; then
	p=$(sed -n 's/^Subject: \[\(.*\) 0*0\/[0-9]*\].*/\1/p' "$cover" | head -1)
	[ -n "$p" ] && prefix=$p
fi

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
if [ "$n" -gt 0 ]; then
	# -c options neutralise user configuration that would change the output.
	git -C "$tree" -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.relative=false -c diff.algorithm=default -c diff.renames=true \
		-c diff.suppressBlankEmpty=false -c format.signOff=false \
		-c format.thread=false \
		-c format.outputDirectory= -c format.useAutoBase=false \
		format-patch -q --abbrev=9 --no-to --no-cc --zero-commit --no-signature --base=base --numbered \
		--cover-letter --subject-prefix="$prefix" -o "$tmp" base..HEAD ||
		die "git format-patch failed"
fi

# The cover letter: hand-written part of the old one + git's new shortlog.
newcover=$tmp/0000-cover-letter.patch
if [ "$n" -gt 0 ] && [ -f "$cover" ]; then
	# git's part starts at the first shortlog author line "Name (N):".
	gen=$(grep -n -E '^[^[:space:]].* \([0-9]+\):$' "$newcover" | head -1 | cut -d: -f1)
	old=$(grep -n -E '^[^[:space:]].* \([0-9]+\):$' "$cover" | head -1 | cut -d: -f1)
	[ -n "$gen" ] || die "no shortlog in git's cover letter"
	{
		if [ -n "$old" ]; then
			head -n $((old - 1)) "$cover"
		else
			cat "$cover"
			echo
		fi | sed -E "s|^(Subject: \[[^]]* )0*0/[0-9]+\]|\10/$n]|"
		tail -n +"$gen" "$newcover"
	} >"$tmp/cover"
	mv "$tmp/cover" "$newcover"
fi

# The series file, then sync into $out, touching only what changed.
(cd "$tmp" && ls | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-cover-letter\.patch$' | sort) >"$tmp/series"
for f in $(cd "$tmp" && ls); do
	cmp -s "$tmp/$f" "$out/$f" || { cp "$tmp/$f" "$out/$f"; say "wrote $f"; }
done
for f in $(cd "$out" && ls | grep -E '^[0-9]{4}-.*\.patch$'); do
	if [ ! -f "$tmp/$f" ]; then
		[ "$f" = 0000-cover-letter.patch ] && [ "$n" -eq 0 ] && continue
		rm -f "$out/$f"
		say "removed stale $f"
	fi
done
say "$n patches in ${out#"$ROOT"/}"
