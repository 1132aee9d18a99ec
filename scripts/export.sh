#!/bin/sh
# make export: write the commits base..HEAD of build/linux as patches/, a
# stack of series.  Each directory patches/NN-name/ is one git
# format-patch series with its own cover letter, based on the series
# below it (its cover letter's base-commit and prerequisite-patch-id
# lines say so); patches/series lists every patch of the stack in order,
# as the harness applies them.
#
# usage: scripts/export.sh [OUTDIR]	(default: patches/)
#
# The series a commit belongs to is read from OUTDIR as it stands: the
# series holding a patch with the commit's subject.  A commit that no
# series holds (new, or reworded) joins the series of the commit before
# it; to move a patch to another series, move its file into that
# directory and export again.  A new series is a new directory holding
# the file of its first patch.
#
# The output is stable: exporting an unchanged tree changes no file.
# Each 0000-cover-letter.patch is hand-written above git's shortlog: its
# headers, Subject and body are kept (the "0/N" of the Subject follows
# the series' length) and only the shortlog, diffstat and base part
# beneath is regenerated.  Its Subject's prefix ("[RFC PATCH v2 0/N]")
# is used for every patch of its series.  Patch files that no longer
# match a commit are removed.
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
mkdir -p "$out"
stacks=$(cd "$out" && ls -d [0-9][0-9]-* 2>/dev/null)
[ -n "$stacks" ] || die "no series directory in ${out#"$ROOT"/} (make the first one: mkdir ${out#"$ROOT"/}/01-NAME)"

tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# Every patch's subject as git log prints it (git mailinfo decodes,
# unfolds and strips the "[PATCH n/m]"), and the series holding it:
# "SERIES<TAB>SUBJECT".  A subject in two files is an error: the commit
# would have no one series.
for s in $stacks; do
	for f in "$out/$s"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$f" ] || continue
		[ "${f##*/}" = 0000-cover-letter.patch ] && continue
		subj=$(git mailinfo "$tmp/msg" "$tmp/patch" <"$f" | sed -n 's/^Subject: //p') ||
			die "git mailinfo cannot read ${f#"$out"/}"
		printf '%s\t%s\n' "$s" "$subj"
	done
done >"$tmp/known"
dup=$(cut -f 2- "$tmp/known" | sort | uniq -d | head -n 1)
[ -z "$dup" ] || die "two patches of ${out#"$ROOT"/} have the subject '$dup': remove one"

# Each commit's series, in order: "SERIES COMMIT".
series= prev_rank=0
git -C "$tree" rev-list --reverse base..HEAD >"$tmp/commits"
while read -r c; do
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	# ENVIRON, not -v: awk -v would read backslashes as escapes.
	s=$(subj=$subj awk -F '\t' '{ t = $0; sub(/^[^\t]*\t/, "", t) }
		t == ENVIRON["subj"] { print $1; exit }' "$tmp/known")
	if [ -z "$s" ]; then
		s=${series:-$(echo "$stacks" | head -n 1)}
		warn "'$subj' is in no series: it joins $s"
	fi
	rank=$(echo "$stacks" | grep -n -x -F "$s" | cut -d: -f1)
	[ "$rank" -ge "$prev_rank" ] ||
		die "'$subj' is in series $s, below the series of the commit before it ($series): reorder build/linux or move the patch's file"
	series=$s prev_rank=$rank
	echo "$s $c"
done <"$tmp/commits" >"$tmp/assigned"

# format-patch options that neutralise user configuration.
fp() {
	git -C "$tree" -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.relative=false -c diff.algorithm=default -c diff.renames=true \
		-c diff.suppressBlankEmpty=false -c format.signOff=false \
		-c format.thread=false \
		-c format.outputDirectory= -c format.useAutoBase=false \
		format-patch -q --abbrev=9 --no-to --no-cc --zero-commit --no-signature \
		--base=base --numbered --cover-letter "$@"
}

: >"$tmp/series"
below=base
for s in $stacks; do
	mkdir -p "$tmp/$s"
	cover=$out/$s/0000-cover-letter.patch
	first=$(awk -v s="$s" '$1 == s { print $2; exit }' "$tmp/assigned")
	top=$(awk -v s="$s" '$1 == s { c = $2 } END { print c }' "$tmp/assigned")
	if [ -z "$top" ]; then
		# Emptying a series is done by hand (git rm its files), never
		# by a commit that matched nothing.
		ls "$out/$s" | grep -v '^0000-cover-letter\.patch$' | grep -q '^[0-9]\{4\}-.*\.patch$' &&
			die "no commit of build/linux is in series $s, which holds patches: move or remove them by hand"
		[ -f "$cover" ] && cp "$cover" "$tmp/$s/"
		continue
	fi
	n=$(git -C "$tree" rev-list --count "$first^..$top")
	# Subject prefix from the existing cover letter: "[RFC PATCH v2 0/3] ..."
	prefix=PATCH
	if [ -f "$cover" ]; then
		p=$(sed -n 's/^Subject: \[\(.*\) 0*0\/[0-9]*\].*/\1/p' "$cover" | head -1)
		[ -n "$p" ] && prefix=$p
	fi
	fp --subject-prefix="$prefix" -o "$tmp/$s" "$below..$top" ||
		die "git format-patch failed for series $s"
	below=$top

	# The cover letter: hand-written part of the old one + git's new shortlog.
	newcover=$tmp/$s/0000-cover-letter.patch
	if [ -f "$cover" ]; then
		# git's part starts at the first shortlog author line "Name (N):";
		# in the old letter, at the last line that names that author in
		# that form, so that a hand-written line of the same shape cannot end the
		# hand-written part early.  An author the old letter does not
		# name (a new first author) falls back to its first such line.
		shortlog_line='^[^[:space:]].* \([0-9]+\):$'
		gen=$(grep -n -E "$shortlog_line" "$newcover" | head -1 | cut -d: -f1)
		[ -n "$gen" ] || die "no shortlog in git's cover letter of $s"
		author=$(sed -n "${gen}p" "$newcover" | sed -E 's/ \([0-9]+\):$//')
		old=$(author=$author awk '
			substr($0, 1, length(ENVIRON["author"]) + 2) == ENVIRON["author"] " (" &&
			    /\([0-9]+\):$/ { l = NR }
			END { if (l) print l }' "$cover")
		[ -n "$old" ] ||
			old=$(grep -n -E "$shortlog_line" "$cover" | head -1 | cut -d: -f1)
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
	(cd "$tmp/$s" && ls | grep -E '^[0-9]{4}-.*\.patch$' |
		grep -v '^0000-cover-letter\.patch$' | sort | sed "s|^|$s/|") >>"$tmp/series"
done

# Sync into $out, touching only what changed.
cmp -s "$tmp/series" "$out/series" || { cp "$tmp/series" "$out/series"; say "wrote series"; }
for s in $stacks; do
	for f in $(cd "$tmp/$s" && ls); do
		cmp -s "$tmp/$s/$f" "$out/$s/$f" || { cp "$tmp/$s/$f" "$out/$s/$f"; say "wrote $s/$f"; }
	done
	for f in $(cd "$out/$s" && ls | grep -E '^[0-9]{4}-.*\.patch$'); do
		[ -f "$tmp/$s/$f" ] || { rm -f "$out/$s/$f"; say "removed stale $s/$f"; }
	done
done
# Patches of the single series this directory held before the stack.
for f in $(cd "$out" && ls | grep -E '^[0-9]{4}-.*\.patch$'); do
	rm -f "$out/$f"
	say "removed stale $f"
done
say "$(grep -c . "$tmp/series") patches in $(echo "$stacks" | wc -l) series in ${out#"$ROOT"/}"
