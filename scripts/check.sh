#!/bin/sh
# make check: test the committed series in patches/ (never build/linux).
#   apply, checkpatch (one item per patch), build at every commit (one item
#   per commit), W=1 + sparse on the .c files the series touches, boot with
#   the KUnit suites (one item per case, judged by the kernel's KTAP
#   parser) and the kselftests (the kernel's runner; one item per TAP
#   result and per program), a clean console; four boots of malformed
#   gcma= values; an arm64 build and boot (QEMU virt, the areas declared
#   in its device tree: scripts/dtb.sh) with the same tests; a 32-bit ARM
#   build (make check-arm boots it); then the x86 boot again with
#   config/debug.config (KASAN, lockdep, DEBUG_VM).  A skip, a missing
#   suite or program, a missing or short plan are failures.  Ends with
#   "N passed, N failed".
# Logs: build/logs/.  Environment: see README.md (GCMA_VM_TIMEOUT, ...).
# For scripts/check-selftest.sh only: GCMA_CHECK_EXTRA_PATCHES (patch
# files applied after the series) and GCMA_CHECK_SCOPE=quick (checkpatch,
# the top build and the plain boot only).  make check-arm:
# GCMA_CHECK_SCOPE=arm, the apply and a 32-bit ARM build and boot alone
# (cross_stage), its areas in HighMem.
set -u
here=$(dirname "$0")
# x86_64 throughout, but for cross_build and cross_stage, which name
# their own architecture.
GCMA_ARCH=x86_64
. "$here/lib.sh"

validate_settings
x86_kvm=${GCMA_KVM:-0}
scope=${GCMA_CHECK_SCOPE:-full}
case $scope in full|quick|arm) ;; *) die "GCMA_CHECK_SCOPE=$scope: full, quick or arm" ;; esac

npass=0 nfail=0
pass() { npass=$((npass + 1)); echo "PASS: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
# judge TAG NAME COMMAND...: run a judge (scripts/*_results.*), which
# prints "PASS: ..." and "FAIL: ..." items with their explanations; show
# them named after TAG and count them.  A judge that fails is a failure.
judge() {
	_items=$CHECK/$2-$1.items
	_tag=$1 _name=$2
	shift 2
	"$@" >"$_items" 2>&1 || echo "FAIL: $_name: the judge ${2##*/} failed" >>"$_items"
	sed -i "s/^\(PASS\|FAIL\): /\1: $_tag /" "$_items"
	cat "$_items"
	npass=$((npass + $(grep -c '^PASS: ' "$_items")))
	nfail=$((nfail + $(grep -c '^FAIL: ' "$_items")))
}
finish() {
	trap - EXIT
	echo "check: ${base_line:-base: unknown}"
	echo "check: logs in build/logs/, took $(($(now) - t_start))s"
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
}
# Whatever ends the run early (a die of lib.sh, a signal), it still ends
# with the counts, and what stopped it counts as a failure.
trap 'nfail=$((nfail + 1)); echo "FAIL: check stopped early (above)"; finish' EXIT
trap 'echo "check: interrupted"; exit 130' INT TERM HUP

t_start=$(now)
mkdir -p "$LOGS"
(cd "$LOGS" && rm -f apply.log checkpatch-*.log build-*.log w1-* initramfs.log \
	console-*.log results-*.txt qemu-*.log kunit-*.txt kselftests-*.txt base.txt)
ensure_base
base_line=$(describe_base)
echo "check: $base_line" | tee "$LOGS/base.txt"

# a. apply ------------------------------------------------------------
if prepare_check_tree; then
	pass "apply: $(series_patches | wc -l) patches onto base"
else
	fail "apply (log: build/logs/apply.log)"
	finish
fi
for p in ${GCMA_CHECK_EXTRA_PATCHES:-}; do
	if am_one "$CHECK_TREE" "$p" >>"$LOGS/apply.log" 2>&1; then
		echo "check: applied ${p##*/} on top (GCMA_CHECK_EXTRA_PATCHES)"
	else
		git -C "$CHECK_TREE" am --abort >/dev/null 2>&1
		fail "apply ${p##*/} (log: build/logs/apply.log)"
		finish
	fi
done
top=$(git -C "$CHECK_TREE" rev-parse HEAD)

# kunit_suites: the KUnit suites the series defines (the .name of every
# struct kunit_suite in the files it adds or changes); each must run.
kunit_suites() {
	git -C "$CHECK_TREE" diff --name-only base "$top" -- '*.c' '*.h' |
	while read -r f; do
		[ -f "$CHECK_TREE/$f" ] || continue
		awk '/struct kunit_suite [A-Za-z0-9_]+ = \{/ { s = 1 }
		     s && /\.name[[:space:]]*=/ {
			match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2); s = 0
		     }' "$CHECK_TREE/$f"
	done | sort -u
}
# vm_timeout: the guest's time limit for the initramfs $initrd, unless
# GCMA_VM_TIMEOUT is set: every kselftest may take its whole timeout (the
# runner's, as guest/init computes it) before the runner stops it, plus
# 15 minutes for the boot and KUnit.
vm_timeout() {
	[ -n "${GCMA_VM_TIMEOUT:-}" ] && { echo "$GCMA_VM_TIMEOUT"; return; }
	_per_test=$(sed -n 's/^timeout=//p' "$initrd.d/root/selftests/gcma/settings" 2>/dev/null)
	echo $(( $(cat "$ksft_list" 2>/dev/null | grep -c .) * ${_per_test:-45} * $(ksft_timeout_mult) + 900 ))
}

# What ends a boot: the kernel's reports of a hang or a crash.
fatal='INFO: task .* blocked for more than|soft lockup|hard LOCKUP|detected stalls? on CPU|self-detected stall|Kernel panic|Oops|kernel BUG at|(^|[^A-Z_])BUG:|general protection'
# What the console must never show: those, WARN()'s "WARNING: CPU: N PID:"
# and lockdep's "WARNING: possible ..." (not the CPU-bug lines
# "RETBleed: WARNING: Spectre ..." of some hosts), any other stack dump,
# KASAN, UBSAN, page allocation failures, and GCMA's reports of a bad
# release or of a client that keeps a page.
splat="$fatal|WARNING: (CPU: [0-9]+ PID:|[a-z])|INFO: trying to register|Call Trace:|UBSAN:|KASAN:|rcu: INFO:|page allocation failure|gcma: free of pfn|gcma: .*does not give its pages back"

# boot_failure CONSOLE QEMU_LOG: why a guest did not finish, in one line.
boot_failure() {
	if [ ! -s "$1" ]; then
		echo "QEMU did not boot the kernel: $(tail -n 2 "$2" 2>/dev/null | tr '\n' ' ')"
		return
	fi
	_why=$(tr -d '\r' <"$1" | grep -m1 -E "$fatal")
	if [ -n "$_why" ]; then
		echo "the kernel reported: $_why"
	elif tr -d '\r' <"$1" | grep -q 'AE_AML_LOOP_TIMEOUT'; then
		echo "ACPI's _PRT timed out (AE_AML_LOOP_TIMEOUT): a device got no interrupt line"
	elif grep -q 'did not finish within' "$2" 2>/dev/null; then
		echo "no report, but it did not finish within $(vm_timeout)s"
	else
		echo "it stopped before its last test, with no report on the console"
	fi
}

# boot_tests TAG KERNEL [APPEND]: boot KERNEL with the initramfs and
# APPEND added to its command line; judge its KUnit suites, kselftests and console as items named
# after TAG.  Logs in build/logs/*-TAG.*.  When the guest does not finish,
# that is one failure with its reason, and nothing else is judged.
boot_tests() {
	tag=$1 kernel=$2 append=${3:-}
	t0=$(now)
	console=$LOGS/console-$tag.log
	results=$LOGS/results-$tag.txt
	GCMA_VM_TIMEOUT=$(vm_timeout) GCMA_VM_APPEND="${GCMA_VM_APPEND:-} $append" \
		sh "$ROOT/scripts/qemu.sh" test "$kernel" "$initrd" "$tag" \
		2>"$LOGS/qemu-run-$tag.log"
	qrc=$?
	[ $qrc -eq 130 ] && { cat "$LOGS/qemu-run-$tag.log"; echo "check: interrupted"; exit 130; }
	if [ $qrc -ne 0 ] || ! tr -d '\r' <"$results" 2>/dev/null | grep -q '^### HARNESS DONE'; then
		fail "$tag boot: the guest did not finish its tests: $(boot_failure "$console" "$LOGS/qemu-run-$tag.log")"
		if [ -s "$console" ]; then
			echo "---- build/logs/console-$tag.log, from the first report ----"
			tr -d '\r' <"$console" | awk -v re="$splat" '$0 ~ re { p = 1 } p' |
				head -n 40 | sed 's/^/    /'
		fi
		echo "$tag: KUnit, kselftest and console checks not run: the boot failed"
		return
	fi
	pass "$tag boot: the guest ran its tests and powered off ($(($(now) - t0))s)"

	judge "$tag" kunit "$PYTHON" "$ROOT/scripts/kunit_results.py" \
		"$CHECK_TREE" "$console" "$LOGS/kunit-$tag.txt" $suites

	tr -d '\r' <"$results" |
		sed -n '/^### BEGIN kselftests$/,/^### END kselftests/p' >"$LOGS/kselftests-$tag.txt"
	if [ ! -f "$ksft_list" ]; then
		echo "$tag: the series has no kselftests"
	else
		judge "$tag" kselftests sh "$ROOT/scripts/ksft_results.sh" \
			"$LOGS/kselftests-$tag.txt" "$ksft_list"
	fi

	# Less the warnings a KUnit case declared it provokes (see the awk).
	reports=$LOGS/console-$tag.reports
	awk -f "$ROOT/scripts/console_reports.awk" "$console" >"$reports"
	if ! grep -qE "$splat" "$reports"; then
		pass "$tag console: no warning, BUG, oops, lockdep, stall, lockup or allocation failure"
	else
		fail "$tag console: kernel report (build/logs/console-$tag.log):"
		grep -nE -A2 "$splat" "$reports" | head -60
	fi

	# kmemleak (config/debug.config): guest/init scans once the tests end.
	tr -d '\r' <"$results" | sed -n '/^### BEGIN kmemleak$/,/^### END kmemleak$/p' \
		>"$LOGS/kmemleak-$tag.txt"
	if [ ! -s "$LOGS/kmemleak-$tag.txt" ]; then
		grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "${kernel%/arch/*}/.config" 2>/dev/null &&
			fail "$tag kmemleak: the kernel has kmemleak, the guest did not scan"
	elif grep -q KMEMLEAK_SCAN_FAILED "$LOGS/kmemleak-$tag.txt"; then
		fail "$tag kmemleak: the scan was refused (kmemleak off? see build/logs/console-$tag.log)"
	elif grep -q 'unreferenced object' "$LOGS/kmemleak-$tag.txt"; then
		fail "$tag kmemleak: $(grep -c 'unreferenced object' "$LOGS/kmemleak-$tag.txt") leaks (build/logs/kmemleak-$tag.txt):"
		head -n 30 "$LOGS/kmemleak-$tag.txt" | sed 's/^/    /'
	else
		pass "$tag kmemleak: no leak after the tests"
	fi
}

# param_boot NAME COUNT ERE VALUES: boot with the malformed gcma= VALUES
# (KUnit off, a CMA area beside): the kernel must say ERE on COUNT lines
# of its log, reserve no GCMA area, leave cma='s area the default DMA
# area, and report nothing on the console.
param_boot() {
	tag=params-$1 count=$2 expect=$3 values=$4
	console=$LOGS/console-$tag.log results=$LOGS/results-$tag.txt
	GCMA_VM_AREAS="cma=32M $values" GCMA_VM_TIMEOUT=900 \
	GCMA_VM_APPEND="${GCMA_VM_APPEND:-} kunit.enable=0" \
		sh "$ROOT/scripts/qemu.sh" params "$CHECK/bzImage" "$initrd" "$tag" \
		2>"$LOGS/qemu-run-$tag.log"
	[ $? -eq 130 ] && { echo "check: interrupted"; exit 130; }
	_out=$(tr -d '\r' <"$results" 2>/dev/null)
	_said=$(echo "$_out" | grep -cE "$expect")
	awk -f "$ROOT/scripts/console_reports.awk" "$console" >"$LOGS/console-$tag.reports"
	if ! echo "$_out" | grep -q '^### HARNESS DONE'; then
		fail "$tag boot ($values): $(boot_failure "$console" "$LOGS/qemu-run-$tag.log")"
	elif ! echo "$_out" | grep -q '^AREA reserved gcma=0'; then
		fail "$tag ($values): the guest listed no area, not even cma=32M's"
	elif echo "$_out" | grep -q '^AREA .* gcma=1'; then
		fail "$tag ($values): a GCMA area was reserved"
	elif ! echo "$_out" | grep -qx 'DMA_AREA reserved'; then
		fail "$tag ($values): the default DMA area changed: $(echo "$_out" | grep '^DMA_AREA')"
	elif [ "$_said" -ne "$count" ]; then
		fail "$tag ($values): $_said lines say /$expect/, not $count (build/logs/results-$tag.txt)"
	elif grep -qE "$splat" "$LOGS/console-$tag.reports"; then
		fail "$tag ($values): kernel report (build/logs/console-$tag.log)"
		grep -nE -A2 "$splat" "$LOGS/console-$tag.reports" | head -20
	else
		pass "$tag: $values refused, boot went on: $(echo "$_out" | grep -m1 -E "$expect")"
	fi
}

# cross_build ARCH [TARGET]: build TARGET (default: the image) of the top
# of the series for ARCH in build/check/obj-ARCH, as one item.
cross_build() {
	_cb_t0=$(now)
	if ! git -C "$CHECK_TREE" checkout -q "$top"; then
		fail "$1: cannot check out the top of the series"
		return 1
	fi
	if ! (GCMA_ARCH=$1 && . "$here/lib.sh" &&
	      build_kernel "$CHECK_TREE" "$CHECK/obj-$1" "$LOGS/build-$1.log" ${2:-}); then
		fail "$1 build${2:+ of $2} (log: build/logs/build-$1.log)"
		return 1
	fi
	pass "$1 build${2:+ of $2}: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") ($(($(now) - _cb_t0))s)"
}

# cross_stage ARCH: build the top of the series for ARCH (lib.sh: arm64
# or arm), cross-compiled, and boot it under TCG with the series' KUnit
# suites and the kselftests built for it; then check what that machine's
# console must say (cross_console).
cross_stage() {
	_arch=$1 _t0=$(now) _obj=$CHECK/obj-$1
	case $_arch in
	arm64) _image=$_obj/arch/arm64/boot/Image ;;
	arm) _image=$_obj/arch/arm/boot/zImage ;;
	esac
	cross_build "$_arch" || return
	_x86_initrd=$initrd _x86_ksft_list=$ksft_list
	initrd=$CHECK/initramfs-$_arch.cpio
	ksft_list=$initrd.d/root/selftests/kselftest-list.txt
	if GCMA_ARCH=$_arch sh "$ROOT/scripts/initramfs.sh" "$CHECK_TREE" "$_obj" \
		"$initrd" >/dev/null; then
		GCMA_ARCH=$_arch GCMA_KVM=0
		export GCMA_ARCH GCMA_KVM
		boot_tests "$_arch" "$_image"
		GCMA_ARCH=x86_64 GCMA_KVM=$x86_kvm
		cross_console "$_arch"
	else
		fail "$_arch initramfs (log: build/logs/initramfs.log)"
	fi
	initrd=$_x86_initrd ksft_list=$_x86_ksft_list
	echo "check: $_arch took $(($(now) - _t0))s"
}

# cross_console ARCH: the lines ARCH's test boot must print once each.
#   arm64: the device tree of scripts/dtb.sh: two GCMA areas and a CMA
#     area made, three faulty GCMA nodes refused with their reasons, and
#     no coherent DMA pool made of a GCMA node;
#   arm: the same three areas (scripts/dtb.sh), all in HighMem, per the
#     boot's zone report.  Its CMA pages include CMA_SIZE_MBYTES' 16 MiB:
#     32-bit ARM reserves a default CMA area before it reads the device
#     tree's reserved memory (linux,cma-default then replaces it), as it
#     does without GCMA.
cross_console() {
	_log=$(tr -d '\r' <"$LOGS/console-$1.log" 2>/dev/null)
	_bad=
	case $1 in
	arm64)
		_what="two GCMA areas and a CMA area made, three faulty GCMA nodes refused with their reasons"
		_lines="gcma: reserved memory gcma@58000000: a GCMA area
gcma: reserved memory gcma@68000000: a GCMA area
initialized node cma@50000000,
refused-no-map@6c000000: not a GCMA area: it is no-map
node refused-no-map@6c000000: its no-map memory stays unused
refused-not-reusable@6c400000: not a GCMA area: it is not reusable
refused-misaligned@6c810000: not a GCMA area: its base or size is not a multiple
node refused-no-map@6c000000 compatible matching fail
node refused-not-reusable@6c400000 compatible matching fail
node refused-misaligned@6c810000 compatible matching fail"
		echo "$_log" | grep -q 'created DMA memory pool' &&
			_bad=" [a coherent DMA pool was made]" ;;
	arm)
		_what="the CMA area and both GCMA areas in HighMem"
		_lines="gcma: reserved memory gcma@a0000000: a GCMA area
gcma: reserved memory gcma@a8000000: a GCMA area
initialized node cma@98000000,
cma: node 0, zone HighMem: 36864 pages to CMA areas, 49152 to GCMA areas" ;;
	esac
	_nl='
'
	_ifs=$IFS IFS=$_nl
	set -f
	for _line in $_lines; do
		[ "$(echo "$_log" | grep -cF "$_line")" -eq 1 ] || _bad="$_bad [$_line]"
	done
	set +f
	IFS=$_ifs
	if [ -z "$_bad" ]; then
		pass "$1 console: $_what"
	else
		fail "$1 console: not said once (build/logs/console-$1.log):$_bad"
	fi
}

# make check-arm: 32-bit ARM alone (see cross_stage), after the apply.
if [ "$scope" = arm ]; then
	suites=$(kunit_suites) initrd= ksft_list=
	cross_stage arm
	finish
fi

# b. checkpatch ---------------------------------------------------------
exceptions=$PATCHES/checkpatch-exceptions
[ "$scope" = quick ] && echo "check: quick scope: no checkpatch, no bisect build, no W=1, no debug boot"
for p in $([ "$scope" = full ] && series_patches); do
	ignore=
	if [ -f "$exceptions" ]; then
		ignore=$(sed -e 's/#.*//' "$exceptions" |
			awk -v p="$p" '$1 == p && NF >= 2 { printf "%s%s", sep, $2; sep = "," }')
	fi
	log=$LOGS/checkpatch-${p%.patch}.log
	# spdxcheck.py runs as "env python3": make that Debian's.
	(cd "$CHECK_TREE" && PATH=${PYTHON%/*}:$PATH ./scripts/checkpatch.pl --strict \
		${ignore:+--ignore "$ignore"} "$PATCHES/$p") >"$log" 2>&1
	rc=$?
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' "$log")
	if grep -q '^Traceback' "$log"; then
		fail "checkpatch $p: a helper of checkpatch crashed (log: build/logs/${log##*/})"
		grep -A8 '^Traceback' "$log" | head -20
	elif [ $rc -eq 0 ] && echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		pass "checkpatch $p${ignore:+ (ignoring $ignore)}"
	else
		fail "checkpatch $p: ${total:-checkpatch.pl exited with $rc}"
		grep -E -A3 '^(ERROR|WARNING|CHECK):' "$log" | head -60
	fi
done

# c. build at every commit ---------------------------------------------
# vmlinux below the top: compiled and linked, which is what a bisect
# needs, without compressing an image no one boots (10 s a commit).
commits=$(git -C "$CHECK_TREE" rev-list --reverse base..check)
[ "$scope" = quick ] && commits=$top
[ -n "$commits" ] || commits=$(git -C "$CHECK_TREE" rev-parse base)
n=$(echo "$commits" | wc -l)
i=0 top_built=
for c in $commits; do
	i=$((i + 1))
	subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
	log=$LOGS/build-$(printf %02d $i).log
	t0=$(now)
	target=vmlinux
	[ "$c" = "$top" ] && target=$KIMAGE
	if git -C "$CHECK_TREE" checkout -q "$c" &&
	   build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$log" "$target"; then
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
t0=$(now)
if [ "$scope" = quick ]; then
	:
elif [ -z "$top_built" ]; then
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
	ntouched=$(git -C "$CHECK_TREE" diff --name-only base "$top" -- '*.c' | wc -l)
	if [ "$nfiles" -eq 0 ] && [ "$ntouched" -gt 0 ]; then
		fail "W=1 + sparse: the series changes $ntouched .c files, the config builds none of them"
	elif [ -z "$w1ok" ]; then
		fail "W=1 + sparse: a build failed (logs: build/logs/w1-*.log)"
		cat "$new"
	elif [ -s "$new" ]; then
		fail "W=1 + sparse: $(wc -l <"$new") new warnings in $nfiles files"
		cat "$new"
	else
		pass "W=1 + sparse: no new warnings in $nfiles changed .c files ($(($(now) - t0))s)"
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

suites=$(kunit_suites)
ksft_list=$initrd.d/root/selftests/kselftest-list.txt
echo "check: expected KUnit suites: $(echo $suites); kselftests:" \
	"$(sed 's/^[^:]*://' "$ksft_list" 2>/dev/null | tr '\n' ' ')"

# The GCMA area is the default DMA area (dma_users_test), below 512 MiB,
# where the 1 GiB guest would not put it unasked.
boot_tests test "$CHECK/bzImage" "gcma=128M,default,limit=512M"
[ "$scope" = quick ] && finish

# The worst gcma= values, each boot with its own (the last gcma= wins).
# A malformed value also cancels a good one before it.
param_boot malformed 7 'gcma.*no area reserved' \
	'gcma gcma= gcma=64Mjunk gcma=99999999999999999999 gcma=64M,bogus gcma=64M,default,limit=32M gcma=64M gcma=64M@'
param_boot outside-memory 1 'cannot reserve .* for gcma=' 'gcma=16M@0x100000000000'
param_boot misaligned 1 'cannot reserve .* for gcma=' 'gcma=16M@0x1001000,default'
param_boot larger-than-memory 1 'cannot reserve .* for gcma=' 'gcma=64G'

# g. arm64: QEMU virt, its areas declared in the device tree ---------------
# The same KUnit suites and kselftests, cross-compiled and under TCG,
# with the areas of scripts/dtb.sh's device tree: shared-dma-pool nodes,
# two with "guarantee" (one of them "linux,cma-default"), a plain CMA
# one, and three GCMA nodes the kernel must refuse, each with its reason,
# and boot on.  It adds 7 minutes warm, 15 cold; GCMA_CHECK_ARM64=0
# leaves it out (a developer's run: make check in CI runs it).
if [ "${GCMA_CHECK_ARM64:-1}" = 0 ]; then
	fail "arm64: not run (GCMA_CHECK_ARM64=0)"
else
	cross_stage arm64
fi
# 32-bit ARM: built only (make check-arm boots it), for what no other
# build compiles: highmem, no CONFIG_MEMORY_FAILURE, no memory hotplug.
cross_build arm vmlinux

# f. the same tests under KASAN, lockdep, DEBUG_VM and DEBUG_LIST -----------
DEBUG_OBJ=$CHECK/obj-debug
t0=$(now)
git -C "$CHECK_TREE" checkout -q "$top"
if KCONFIG_EXTRA=debug.config build_kernel "$CHECK_TREE" "$DEBUG_OBJ" "$LOGS/build-debug.log"; then
	pass "debug build: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") ($(($(now) - t0))s)"
	# Smaller areas keep the tests short under KASAN and lockdep.
	# init_on_alloc=1: gcma_test_handover_cleared checks the clearing.
	# swap_test on the disk alone: the test boot runs it on zram as well,
	# where it would add 15 minutes here.
	boot_tests debug "$DEBUG_OBJ/arch/x86/boot/bzImage" \
		"cma=32M gcma=32M,default,limit=512M init_on_alloc=1 swap_test_devices=vda"
else
	fail "debug build (log: build/logs/build-debug.log)"
fi

finish
