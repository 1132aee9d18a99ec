#!/bin/sh
# make check: test the committed series in patches/ (never build/linux).
#   apply, checkpatch (one item per patch), build at every commit (one item
#   per commit), W=1 + sparse on the .c files the series touches, boot with
#   KUnit (one item per test case), kselftests (one item per TAP result),
#   a clean console; then the same boot again with config/debug.config
#   (KASAN, lockdep, DEBUG_VM).  Ends with "N passed, N failed, N skipped".
# Logs: build/logs/.  Environment: see README.md (GCMA_VM_TIMEOUT, ...).
set -u
here=$(dirname "$0")
. "$here/lib.sh"

npass=0 nfail=0 nskip=0
pass() { npass=$((npass + 1)); echo "PASS: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
skip() { nskip=$((nskip + 1)); echo "SKIP: $*"; }
finish() {
	echo "check: logs in build/logs/, took $(($(now) - t_start))s"
	echo "$npass passed, $nfail failed, $nskip skipped"
	[ "$nfail" -eq 0 ]
	exit
}

t_start=$(now)
mkdir -p "$LOGS"
(cd "$LOGS" && rm -f apply.log checkpatch-*.log build-*.log w1-* initramfs.log \
	console-test.log results-test.txt qemu-test.log \
	console-debug.log results-debug.txt qemu-debug.log)

# a. apply ------------------------------------------------------------
if prepare_check_tree; then
	pass "apply: $(series_patches | wc -l) patches onto base"
else
	fail "apply (log: build/logs/apply.log)"
	finish
fi
top=$(git -C "$CHECK_TREE" rev-parse HEAD)

# b. checkpatch ---------------------------------------------------------
exceptions=$PATCHES/checkpatch-exceptions
for p in $(series_patches); do
	ignore=
	if [ -f "$exceptions" ]; then
		ignore=$(sed -e 's/#.*//' "$exceptions" |
			awk -v p="$p" '$1 == p && NF >= 2 { printf "%s%s", sep, $2; sep = "," }')
	fi
	log=$LOGS/checkpatch-${p%.patch}.log
	(cd "$CHECK_TREE" && ./scripts/checkpatch.pl --strict --no-tree \
		${ignore:+--ignore "$ignore"} "$PATCHES/$p") >"$log" 2>&1
	rc=$?
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' "$log")
	if [ $rc -eq 0 ] && echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		pass "checkpatch $p${ignore:+ (ignoring $ignore)}"
	else
		fail "checkpatch $p: ${total:-checkpatch.pl exited with $rc}"
		grep -E -A3 '^(ERROR|WARNING|CHECK):' "$log" | head -60
	fi
done

# c. build at every commit ---------------------------------------------
commits=$(git -C "$CHECK_TREE" rev-list --reverse base..check)
[ -n "$commits" ] || commits=$(git -C "$CHECK_TREE" rev-parse base)
n=$(echo "$commits" | wc -l)
i=0 top_built=
for c in $commits; do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	log=$LOGS/build-$(printf %02d $i).log
	t0=$(now)
	if git -C "$CHECK_TREE" checkout -q "$c" &&
	   build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$log"; then
		pass "build $i/$n: $subject ($(($(now) - t0))s)"
		[ "$c" = "$top" ] && top_built=1
	else
		fail "build $i/$n: $subject (log: build/logs/${log##*/})"
	fi
done
if [ -n "$top_built" ]; then
	cp "$CHECK_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
	cp "$CHECK_OBJ/.config" "$CHECK/config"
fi

# d. W=1 and sparse on the touched .c files -------------------------------
# warnings TREE-REV FILE LOG: the W=1/sparse warnings of FILE's object,
# without line and column numbers, sorted.
warnings() {
	kmake "$CHECK_TREE" "$CHECK_OBJ" W=1 C=2 "${2%.c}.o" >"$3" 2>&1
	_rc=$?
	grep -E '(warning|error):' "$3" |
		sed -E 's/:[0-9]+(:[0-9]+)?:/:/; s/^(\.\.\/)+//' | sort -u
	return $_rc
}
if [ -z "$top_built" ]; then
	fail "W=1 + sparse: the top of the series does not build"
else
	files=
	for f in $(git -C "$CHECK_TREE" diff --name-only base "$top" -- '*.c'); do
		# Only what this config compiles: the top build made its object.
		[ -f "$CHECK_OBJ/${f%.c}.o" ] && files="$files $f"
	done
	new=$LOGS/w1-new-warnings.txt
	: >"$new"
	w1ok=1
	if [ -n "$files" ]; then
		git -C "$CHECK_TREE" checkout -q "$top"
		kconfig "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/w1-config-top.log" || w1ok=
		for f in $files; do
			warnings top "$f" "$LOGS/w1-top-$(echo "$f" | tr / _).log" \
				>"$CHECK/w1-top-$(echo "$f" | tr / _)" || w1ok=
		done
		git -C "$CHECK_TREE" checkout -q base
		kconfig "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/w1-config-base.log" || w1ok=
		for f in $files; do
			key=$(echo "$f" | tr / _)
			: >"$CHECK/w1-base-$key"
			if git -C "$CHECK_TREE" cat-file -e "base:$f" 2>/dev/null; then
				warnings base "$f" "$LOGS/w1-base-$key.log" >"$CHECK/w1-base-$key"
			fi
			comm -23 "$CHECK/w1-top-$key" "$CHECK/w1-base-$key" >>"$new"
		done
		git -C "$CHECK_TREE" checkout -q "$top"
	fi
	nfiles=$(echo $files | wc -w)
	if [ -z "$w1ok" ]; then
		fail "W=1 + sparse: a build failed (logs: build/logs/w1-*.log)"
		cat "$new"
	elif [ -s "$new" ]; then
		fail "W=1 + sparse: $(wc -l <"$new") new warnings in $nfiles files"
		cat "$new"
	else
		pass "W=1 + sparse: no new warnings in $nfiles changed .c files"
	fi
fi

# e. boot: KUnit, kselftests, console ------------------------------------
if [ -z "$top_built" ]; then
	fail "boot: no kernel at the top of the series"
	finish
fi
initrd=$CHECK/initramfs.cpio
if out=$(sh "$ROOT/scripts/initramfs.sh" "$CHECK_TREE" "$CHECK_OBJ" "$initrd"); then
	echo "$out"
else
	fail "initramfs (log: build/logs/initramfs.log)"
	finish
fi

# boot_tests TAG KERNEL CONFIG [APPEND]: boot KERNEL (built with the
# .config file CONFIG) with the initramfs and APPEND added to its command
# line, count its KUnit cases, kselftest results and a clean console as
# items named after TAG; logs in build/logs/*-TAG.*.
boot_tests() {
	tag=$1 kernel=$2 config=$3 append=${4:-}
	t0=$(now)
	console=$LOGS/console-$tag.log
	results=$LOGS/results-$tag.txt
	if GCMA_VM_APPEND="${GCMA_VM_APPEND:-} $append" \
	   sh "$ROOT/scripts/qemu.sh" test "$kernel" "$initrd" "$tag" &&
	   tr -d '\r' <"$results" | grep -q '^### HARNESS DONE'; then
		pass "$tag boot: the guest ran its tests and powered off ($(($(now) - t0))s)"
	else
		fail "$tag boot: the guest did not finish its run (console: build/logs/console-$tag.log)"
		tail_log "$console" 2>&1
	fi

	# KUnit: case-level results (4 spaces of indent) of every suite.
	suites=0 suite='?'
	while IFS= read -r line; do
		case $line in
		"    # Subtest: "*) suite=${line#    \# Subtest: }; suites=$((suites + 1)) ;;
		"    ok "*"# SKIP"*) skip "$tag kunit $suite: ${line#    ok }" ;;
		"    ok "*) pass "$tag kunit $suite: ${line#    ok }" ;;
		"    not ok "*) fail "$tag kunit $suite: ${line#    not ok }" ;;
		esac
	done <<-EOF
	$(tr -d '\r' <"$console" 2>/dev/null | grep -E '^    ((not )?ok [0-9]+ |# Subtest: )')
	EOF
	if [ "${suites:-0}" -eq 0 ] && config_has "$config" GCMA_KUNIT_TEST; then
		fail "$tag kunit: CONFIG_GCMA_KUNIT_TEST=y but no KUnit suite ran"
	fi
	echo "$tag kunit: ${suites:-0} suites"

	# kselftests: TAP between the BEGIN/END markers in the results file.
	tr -d '\r' <"$results" >"$CHECK/results-$tag.txt" 2>/dev/null
	nksft=0
	for t in $(sed -n 's/^### BEGIN kselftest //p' "$CHECK/results-$tag.txt"); do
		nksft=$((nksft + 1))
		sed -n "/^### BEGIN kselftest $t\$/,/^### END kselftest $t rc=/p" \
			"$CHECK/results-$tag.txt" >"$CHECK/ksft-$tag-$t.txt"
		end=$(sed -n "s/^### END kselftest $t rc=//p" "$CHECK/ksft-$tag-$t.txt")
		nres=0 nbad=0
		while IFS= read -r line; do
			case $line in
			"ok "*"# SKIP"*|"ok "*"# skip"*) skip "$tag kselftest $t: ${line#ok }" ;;
			"ok "*) pass "$tag kselftest $t: ${line#ok }" ;;
			"not ok "*) fail "$tag kselftest $t: ${line#not ok }"; nbad=$((nbad + 1)) ;;
			*) continue ;;
			esac
			nres=$((nres + 1))
		done <"$CHECK/ksft-$tag-$t.txt"
		if [ -z "$end" ]; then
			fail "$tag kselftest $t: no END marker (hung or crashed guest?)"
			tail -n 20 "$CHECK/ksft-$tag-$t.txt"
		elif [ "$nres" -eq 0 ] && [ "$end" -eq 4 ]; then
			skip "$tag kselftest $t: skipped (rc=4) $(grep -m1 -i 'skip' "$CHECK/ksft-$tag-$t.txt")"
		elif [ "$nres" -eq 0 ] && [ "$end" -eq 0 ]; then
			pass "$tag kselftest $t: rc=0 (no TAP lines)"
		elif [ "$end" -ne 0 ] && [ "$end" -ne 4 ] && [ "$nbad" -eq 0 ]; then
			fail "$tag kselftest $t: rc=$end without a failing TAP line"
			tail -n 20 "$CHECK/ksft-$tag-$t.txt"
		fi
	done
	echo "$tag kselftests: $nksft programs run"

	# The console: no splat of any kind.
	# Lockdep reports start with WARNING: or BUG:; "RCU lockdep checking is
	# enabled" is not one.
	splat='WARNING:|(^|[^A-Z_])BUG:|Oops|Kernel panic|possible circular locking|INFO: task|general protection|UBSAN:|KASAN:'
	if [ -f "$console" ] && ! grep -qE "$splat" "$console"; then
		pass "$tag console: no warning, BUG, oops or lockdep splat"
	else
		fail "$tag console: kernel splat (build/logs/console-$tag.log):"
		grep -nE -A2 "$splat" "$console" 2>/dev/null | head -60
	fi
}

boot_tests test "$CHECK/bzImage" "$CHECK/config"

# f. the same tests under KASAN, lockdep, DEBUG_VM and DEBUG_LIST -----------
DEBUG_OBJ=$CHECK/obj-debug
t0=$(now)
git -C "$CHECK_TREE" checkout -q "$top"
if KCONFIG_EXTRA=debug.config build_kernel "$CHECK_TREE" "$DEBUG_OBJ" "$LOGS/build-debug.log"; then
	pass "debug build: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") ($(($(now) - t0))s)"
	# Smaller areas keep the swap tests short under KASAN and lockdep.
	boot_tests debug "$DEBUG_OBJ/arch/x86/boot/bzImage" "$DEBUG_OBJ/.config" \
		"cma=32M gcma=32M"
else
	fail "debug build (log: build/logs/build-debug.log)"
fi

finish
