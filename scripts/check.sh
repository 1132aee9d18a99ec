#!/bin/sh
# make check: test the committed series in patches/ (never build/linux),
# in stages (README.md): apply, checkpatch and the dt bindings, every
# commit's own objects compiled and their symbols checked, W=1 + sparse
# against the base, the top built whole (the debug kernel: KASAN, UBSAN,
# lockdep, kmemleak), the series' objects with GCMA, CMA or a client
# off, kunit.py at each series' top, 32-bit ARM's objects of the series
# (make check-arm boots it), four boots of malformed gcma= values, the
# debug boot (KUnit suites judged by the kernel's KTAP parser,
# kselftests by their runner, a clean console, kmemleak), and arm64's
# build and boot (its areas in the device tree of scripts/dtb.sh).  What
# passed before (lib.sh: build_key) is not redone.  A skip, a missing
# suite or program, a missing or short plan are failures.  Ends with
# "N passed, N failed" and the stages' times.
# Logs: build/logs/.  Environment: see README.md (GCMA_VM_TIMEOUT,
# GCMA_CHECK_STAGES, ...).  For scripts/check-selftest.sh:
# GCMA_CHECK_EXTRA_PATCHES (patch files applied after the series).
# GCMA_CHECK_SCOPE=quick: the test stage alone (the test kernel, without
# debug options, built and booted); =arm: make check-arm, the apply and
# a 32-bit ARM build and boot (cross_stage), its areas in HighMem; =one:
# make test-one (GCMA_CHECK_ONLY).
set -u
here=$(dirname "$0")
# One collation for sort and comm (the link checks), whatever the caller's.
LC_ALL=C
export LC_ALL
# x86_64 throughout, but for cross_build and cross_stage, which name
# their own architecture.
GCMA_ARCH=x86_64
. "$here/lib.sh"

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
# stage NAME: the stage that starts now (its time is said at the end).
stages= stage_name= stage_t0=
stage() {
	[ -n "$stage_name" ] && stages="$stages$stage_name $(($(now) - stage_t0))s, "
	stage_name=$1 stage_t0=$(now)
	[ -n "$1" ] && echo "check: -- $1"
}
finish() {
	trap - EXIT
	stage ""
	[ -n "$stages" ] && echo "check: stage times: ${stages%, }"
	echo "check: ${base_line:-base: unknown}"
	echo "check: logs in build/logs/, took $(($(now) - t_start))s"
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
}
# Whatever ends the run early (a die of lib.sh, a signal), it still ends
# with the counts, and what stopped it counts as a failure.
t_start=$(now)
trap 'nfail=$((nfail + 1)); echo "FAIL: check stopped early (above)"; finish' EXIT
trap 'echo "check: interrupted"; exit 130' INT TERM HUP

validate_settings
lock_build_check
x86_kvm=${GCMA_KVM:-0}
scope=${GCMA_CHECK_SCOPE:-full}
case $scope in full|quick|arm|one) ;; *) die "GCMA_CHECK_SCOPE=$scope: full, quick, arm or one" ;; esac
if [ "$scope" = one ]; then
	printf '%s\n' "${GCMA_CHECK_ONLY:-}" | grep -qxE '[A-Za-z0-9_.-]+' ||
		die "GCMA_CHECK_ONLY=${GCMA_CHECK_ONLY:-}: the name of one kselftest or KUnit suite"
	# The working tree, edits and all, not patches/.
	CHECK_TREE=$BUILD/linux CHECK_OBJ=$BUILD/obj-linux
	[ -d "$CHECK_TREE/.git" ] || die "no build/linux (run 'make tree')"
fi
# The stages of a full run; GCMA_CHECK_STAGES runs some of them (the
# top is always built), GCMA_CHECK_SCOPE=quick is "test", which a full
# run leaves out: it boots the debug kernel instead.
all_stages="checkpatch dt bisect w1 variants test params hibernate kunit-py arm64 arm debug"
full_stages="checkpatch dt bisect w1 variants params hibernate kunit-py arm64 arm debug"
case $scope in
quick) run_stages=test ;;
full) run_stages=${GCMA_CHECK_STAGES:-$full_stages} ;;
*) run_stages= ;;
esac
for st in $run_stages; do
	echo " $all_stages " | grep -q " $st " ||
		die "GCMA_CHECK_STAGES: $st is none of: $all_stages"
done
# want STAGE: this run runs STAGE.
want() { echo " $run_stages " | grep -q " $1 "; }
[ "$run_stages" = "$full_stages" ] ||
	echo "check: only these stages: $run_stages"

mkdir -p "$LOGS"
(cd "$LOGS" && rm -f apply.log checkpatch-*.log build-*.log w1-* initramfs.log \
	console-*.log results-*.txt qemu-*.log kunit-*.txt kselftests-*.txt base.txt)
ensure_base
base_line=$(describe_base)
echo "check: $base_line" | tee "$LOGS/base.txt"

# a. apply ------------------------------------------------------------
stage apply
if [ "$scope" = one ]; then
	:
elif prepare_check_tree; then
	pass "apply: $(series_patches | wc -l) patches onto base"
else
	fail "apply (log: build/logs/apply.log)"
	finish
fi
# Each series of the stack goes out on its own: its cover letter says,
# in paragraphs of its own, what it is based on, which interfaces it
# adds, and which figures show what it is worth, and git's base lines
# name the series below it.
if [ "$scope" != one ]; then
	stack_tops >"$CHECK/stack-tops"
	[ -s "$CHECK/stack-tops" ] || fail "stack: patches/series names no series directory (NN-name/)"
	while read -r _n _name; do
		_cl=$PATCHES/$_name/0000-cover-letter.patch _missing=
		for _h in Base Interfaces Figures; do
			grep -q "^$_h:\( \|\$\)" "$_cl" 2>/dev/null || _missing="$_missing $_h:"
		done
		grep -q '^base-commit: ' "$_cl" 2>/dev/null || _missing="$_missing base-commit:"
		if [ ! -f "$_cl" ]; then
			fail "stack: $_name has no 0000-cover-letter.patch"
		elif grep -q '\*\*\* [A-Z]* HERE \*\*\*' "$_cl"; then
			fail "stack: $_name's cover letter still has git's placeholders"
		elif [ -n "$_missing" ]; then
			fail "stack: $_name's cover letter lacks$_missing"
		else
			pass "stack: $_name's cover letter names its base, interfaces and figures"
		fi
	done <"$CHECK/stack-tops"
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
# make test-one judges the working tree, not a commit.
[ "$scope" = one ] && top=

# suite_names: the .name of every struct kunit_suite of the C source on
# its input.
suite_names() {
	awk '/struct kunit_suite [A-Za-z0-9_]+ = \{/ { s = 1 }
	     s && /\.name[[:space:]]*=/ {
		match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2); s = 0
	     }'
}
# kunit_suites: the KUnit suites the series defines (suite_names of the
# files it adds or changes); each must run.
kunit_suites() {
	git -C "$CHECK_TREE" diff --name-only base ${top:+"$top"} -- '*.c' '*.h' |
	while read -r f; do
		[ -f "$CHECK_TREE/$f" ] || continue
		suite_names <"$CHECK_TREE/$f"
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

# What ends a boot, and what the console must never show (lib.sh's
# lists, plus any other stack dump and page allocation failures).
fatal=$FATAL_RE
splat="$REPORT_RE|Call Trace:|page allocation failure"

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

# boot_progress TAG T0: while TAG's guest runs, a line for each KUnit
# suite it starts (console) and each kselftest (results port), with the
# seconds since T0.
boot_progress() {
	_bp_seen=0 _bp_list=$CHECK/progress-$1
	# $$ is check.sh: an interrupted run leaves no loop behind.
	while sleep 10 && kill -0 $$ 2>/dev/null; do
		{
			tr -d '\r' <"$LOGS/console-$1.log" 2>/dev/null |
				sed -n 's/^\(\[[ 0-9.]*\] \)\{0,1\}    # Subtest: /KUnit suite /p'
			tr -d '\r' <"$LOGS/results-$1.txt" 2>/dev/null |
				sed -n 's/^# selftests: [^:]*: /kselftest /p'
		} >"$_bp_list"
		_bp_n=$(wc -l <"$_bp_list")
		[ "$_bp_n" -gt "$_bp_seen" ] &&
			tail -n +$((_bp_seen + 1)) "$_bp_list" | sed "s/^/check: [$1 $(($(now) - $2))s] /"
		_bp_seen=$_bp_n
	done
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
	# Without the lock's descriptor: a leftover sleep must not hold it.
	boot_progress "$tag" "$t0" 9>&- &
	progress=$!
	nfail_before=$nfail
	GCMA_VM_TIMEOUT=$(vm_timeout) GCMA_VM_APPEND="${GCMA_VM_APPEND:-} $append" \
		sh "$ROOT/scripts/qemu.sh" test "$kernel" "$initrd" "$tag" \
		2>"$LOGS/qemu-run-$tag.log"
	qrc=$?
	kill "$progress" 2>/dev/null
	wait "$progress" 2>/dev/null
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

	if [ -n "$suites" ]; then
		judge "$tag" kunit "$PYTHON" "$ROOT/scripts/kunit_results.py" \
			"$CHECK_TREE" "$console" "$LOGS/kunit-$tag.txt" $suites
	elif [ "$scope" != one ]; then
		fail "$tag kunit: no KUnit suite found in the series' files (kunit_suites)"
	fi

	tr -d '\r' <"$results" |
		sed -n '/^### BEGIN kselftests$/,/^### END kselftests/p' >"$LOGS/kselftests-$tag.txt"
	if [ ! -f "$ksft_list" ] && [ "$scope" = one ]; then
		:	# make test-one of a KUnit suite
	elif [ ! -f "$ksft_list" ]; then
		fail "$tag kselftests: no list of kselftests in the initramfs (log: build/logs/initramfs.log)"
	else
		judge "$tag" kselftests sh "$ROOT/scripts/ksft_results.sh" \
			"$LOGS/kselftests-$tag.txt" "$ksft_list"
	fi
	# swap_test plans what it is given (devices, cases): the boot's
	# swap_plan, when set, is what it must have planned.
	if [ -n "${swap_plan:-}" ]; then
		_sp=$(sed -n '/^# selftests: gcma: swap_test$/,/ok [0-9]* selftests: gcma: swap_test/s/^# 1\.\.\([0-9]*\).*/\1/p' \
			"$LOGS/kselftests-$tag.txt" | head -n 1)
		if [ "$_sp" = "$swap_plan" ]; then
			pass "$tag swap_test: $swap_plan cases planned, as asked"
		else
			fail "$tag swap_test: ${_sp:-no} cases planned, not $swap_plan (build/logs/kselftests-$tag.txt)"
		fi
	fi

	# Less the warnings a KUnit case declared it provokes (see the awk).
	reports=$LOGS/console-$tag.reports
	if ! awk -v stop="$OTHER_REPORT_RE" -f "$ROOT/scripts/console_reports.awk" \
		"$console" >"$reports" || ! grep -q 'Linux version' "$reports"; then
		fail "$tag console: not read (console_reports.awk failed, or no 'Linux version' in build/logs/console-$tag.log)"
	elif ! grep -qE "$splat" "$reports"; then
		pass "$tag console: no warning, BUG, oops, lockdep, stall, lockup or allocation failure"
	else
		fail "$tag console: kernel report (build/logs/console-$tag.log):"
		grep -nE -A2 "$splat" "$reports" | head -60
	fi

	# kmemleak (config/debug.config): guest/init scans before the
	# kselftests (what booting and the KUnit suites left; the objects
	# of config/kmemleak-boot-noise's functions are let pass) and once
	# the tests end.
	tr -d '\r' <"$results" |
		sed -n '/^### BEGIN kmemleak-boot$/,/^### END kmemleak-boot$/p' \
		>"$LOGS/kmemleak-boot-$tag.txt"
	if [ -s "$LOGS/kmemleak-boot-$tag.txt" ]; then
		awk -v noise="$ROOT/config/kmemleak-boot-noise" -f "$ROOT/scripts/kmemleak_filter.awk" \
			"$LOGS/kmemleak-boot-$tag.txt" >"$LOGS/kmemleak-boot-$tag.left"
		if grep -q KMEMLEAK_SCAN_FAILED "$LOGS/kmemleak-boot-$tag.txt"; then
			fail "$tag kmemleak at boot: the scan was refused (kmemleak off? see build/logs/console-$tag.log)"
		elif grep -q 'unreferenced object' "$LOGS/kmemleak-boot-$tag.left"; then
			fail "$tag kmemleak at boot: $(grep -c 'unreferenced object' "$LOGS/kmemleak-boot-$tag.left") leaks of booting or of the KUnit suites (build/logs/kmemleak-boot-$tag.txt):"
			head -n 30 "$LOGS/kmemleak-boot-$tag.left" | sed 's/^/    /'
		else
			pass "$tag kmemleak at boot: no leak but the known boot-time objects ($(grep -c 'unreferenced object' "$LOGS/kmemleak-boot-$tag.txt") let pass)"
		fi
	fi
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
	# Kept only after a failure, for a look at what the guest left.
	[ "$nfail" -eq "$nfail_before" ] && rm -f "$CHECK/swap-$tag.img" "$CHECK/ext4-$tag.img" "$CHECK/f2fs-$tag.img"
}

# hibernate_boot N MODE: boot N of hibernate_boots, on its disks; its
# results, without carriage returns, in build/check/results-hibernate-N.txt.
hibernate_boot() {
	GCMA_VM_SWAP_IMG=$CHECK/hibernate-swap.img \
	GCMA_VM_EXT4_IMG=$CHECK/hibernate-ext4.img \
	GCMA_VM_F2FS_IMG=$CHECK/hibernate-f2fs.img \
	GCMA_VM_AREAS="cma=32M gcma=128M,default,limit=512M" GCMA_VM_TIMEOUT=1800 \
	GCMA_VM_APPEND="${GCMA_VM_APPEND:-} kunit.enable=0 resume=/dev/vda no_console_suspend init_on_free=1" \
		sh "$ROOT/scripts/qemu.sh" "$2" "$top_image" "$initrd" "hibernate-$1" \
		2>"$LOGS/qemu-run-hibernate-$1.log"
	_hb_rc=$?
	[ $_hb_rc -eq 130 ] && { echo "check: interrupted"; exit 130; }
	tr -d '\r' 2>/dev/null <"$LOGS/results-hibernate-$1.txt" >"$CHECK/results-hibernate-$1.txt"
	awk -v stop="$OTHER_REPORT_RE" -f "$ROOT/scripts/console_reports.awk" \
		"$LOGS/console-hibernate-$1.log" >"$LOGS/console-hibernate-$1.reports"
	if [ $_hb_rc -ne 0 ]; then
		fail "hibernation boot $1: $(boot_failure "$LOGS/console-hibernate-$1.log" "$LOGS/qemu-run-hibernate-$1.log")"
		return 1
	fi
	if grep -qE "$splat" "$LOGS/console-hibernate-$1.reports"; then
		fail "hibernation boot $1: kernel report (build/logs/console-hibernate-$1.log):"
		grep -m 5 -E "$splat" "$LOGS/console-hibernate-$1.reports" | sed 's/^/    /'
		return 1
	fi
	pass "hibernation boot $1: ended by itself, no kernel report"
}

# hibernate_boots: hibernate_test over two boots of the same disks: the
# first makes three test images and hibernates, powering off; the second
# resumes the image, and the test goes on there.  Its results are the
# TAP lines of both boots, which its plan counts.
hibernate_boots() {
	rm -f "$CHECK/hibernate-swap.img" "$CHECK/hibernate-ext4.img" "$CHECK/hibernate-f2fs.img"
	hibernate_boot 1 hibernate || return
	if ! grep -q '^# hibernating with' "$CHECK/results-hibernate-1.txt" ||
	   grep -q '^Bail out!' "$CHECK/results-hibernate-1.txt"; then
		fail "hibernation boot 1: hibernate_test never hibernated (build/logs/results-hibernate-1.txt):"
		tail -n 10 "$CHECK/results-hibernate-1.txt" | sed 's/^/    /'
		return
	fi
	hibernate_boot 2 resume || return
	_hb_out=$CHECK/results-hibernate.txt
	cat "$CHECK/results-hibernate-1.txt" "$CHECK/results-hibernate-2.txt" >"$_hb_out"
	if grep -q '^### HARNESS resume' "$_hb_out"; then
		fail "hibernation boot 2: no image was resumed (build/logs/console-hibernate-2.log)"
		return
	fi
	# The size of each image, as the kernel logged it.
	echo "check: hibernation images: $(tr -d '\r' <"$LOGS/console-hibernate-1.log" |
		sed -n 's/.*PM: hibernation: Need to copy \([0-9]*\) pages.*/\1/p' | tr '\n' ' ')pages"
	grep -E '^(not )?ok [0-9]+' "$_hb_out" >"$CHECK/results-hibernate.tap"
	while read -r _hb_line; do
		_hb_desc=$(echo "$_hb_line" | sed -E 's/^(not )?ok [0-9]+ (- )?//')
		case $_hb_line in
		not*) fail "hibernate_test: $_hb_desc" ;;
		*) pass "hibernate_test: $_hb_desc" ;;
		esac
	done <"$CHECK/results-hibernate.tap"
	_hb_plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$_hb_out" | head -n 1)
	_hb_n=$(grep -cE '^(not )?ok [0-9]+' "$_hb_out")
	if [ -z "$_hb_plan" ] || [ "$_hb_n" != "$_hb_plan" ]; then
		fail "hibernate_test: $_hb_n results of a plan of ${_hb_plan:-none} (build/logs/results-hibernate-*.txt)"
		grep '^#' "$_hb_out" | tail -n 10 | sed 's/^/    /'
	elif ! grep -q '^### END hibernate_test rc=0' "$_hb_out"; then
		fail "hibernate_test: $(grep -m1 '^### END hibernate_test' "$_hb_out" || echo 'it never ended')"
	else
		pass "hibernate_test: $_hb_n results over the two boots, as planned"
		rm -f "$CHECK/hibernate-swap.img" "$CHECK/hibernate-ext4.img" "$CHECK/hibernate-f2fs.img"
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
		sh "$ROOT/scripts/qemu.sh" params "$top_image" "$initrd" "$tag" \
		2>"$LOGS/qemu-run-$tag.log"
	_qrc=$?
	[ $_qrc -eq 130 ] && { echo "check: interrupted"; exit 130; }
	# The guest's words, as a file: dash's echo would read backslashes.
	_out=$CHECK/results-$tag.txt
	tr -d '\r' <"$results" >"$_out" 2>/dev/null
	_said=$(grep -cE "$expect" "$_out")
	_reports_ok=1
	awk -v stop="$OTHER_REPORT_RE" -f "$ROOT/scripts/console_reports.awk" "$console" \
		>"$LOGS/console-$tag.reports" && grep -q 'Linux version' "$LOGS/console-$tag.reports" ||
		_reports_ok=
	if [ $_qrc -ne 0 ] || ! grep -q '^### HARNESS DONE' "$_out"; then
		fail "$tag boot ($values): $(boot_failure "$console" "$LOGS/qemu-run-$tag.log")"
	elif [ -z "$_reports_ok" ]; then
		fail "$tag ($values): console not read (console_reports.awk failed, or no 'Linux version' in build/logs/console-$tag.log)"
	elif ! grep -q '^AREA reserved gcma=0' "$_out"; then
		fail "$tag ($values): the guest listed no area, not even cma=32M's"
	elif grep -q '^AREA .* gcma=1' "$_out"; then
		fail "$tag ($values): a GCMA area was reserved"
	elif ! grep -qx 'DMA_AREA reserved' "$_out"; then
		fail "$tag ($values): the default DMA area changed: $(grep '^DMA_AREA' "$_out")"
	elif [ "$_said" -ne "$count" ]; then
		fail "$tag ($values): $_said lines say /$expect/, not $count (build/logs/results-$tag.txt)"
	elif grep -qE "$splat" "$LOGS/console-$tag.reports"; then
		fail "$tag ($values): kernel report (build/logs/console-$tag.log)"
		grep -nE -A2 "$splat" "$LOGS/console-$tag.reports" | head -20
	else
		pass "$tag: $values refused, boot went on: $(grep -m1 -E "$expect" "$_out")"
		rm -f "$CHECK/swap-$tag.img" "$CHECK/ext4-$tag.img" "$CHECK/f2fs-$tag.img"
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
	      build_kernel "$CHECK_TREE" "$CHECK/obj-$1" "$LOGS/build-$1.log" "${2:-}"); then
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
	# W=1 and sparse on what x86_64 does not compile (the device tree's
	# files).
	if want w1 && [ "$_arch" = arm64 ]; then
		_files=$(w1_files "$_obj")
		[ -z "$_files" ] || w1_run arm64 "$_obj" $_files
		[ -z "$_files" ] || w1_unchecked=$(echo "$w1_unchecked" | grep -vxF "$_files")
	fi
	_x86_initrd=$initrd _x86_ksft_list=$ksft_list
	initrd=$CHECK/initramfs-$_arch.cpio
	ksft_list=$initrd.d/root/selftests/kselftest-list.txt
	if GCMA_ARCH=$_arch sh "$ROOT/scripts/initramfs.sh" "$CHECK_TREE" "$_obj" \
		"$initrd" >/dev/null; then
		GCMA_ARCH=$_arch GCMA_KVM=0
		export GCMA_ARCH GCMA_KVM
		# arm64 runs every test with init_on_free=1, where GCMA
		# clears what clients left in a page at hand-over (x86_64's
		# debug boot has init_on_alloc=1, which init_on_free voids).
		_append=
		[ "$_arch" = arm64 ] && _append=init_on_free=1
		swap_plan=16 boot_tests "$_arch" "$_image" "$_append"
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
#     area made, four faulty GCMA nodes refused with their reasons, the
#     no-map one with a "reg" left unused and the one placed at boot,
#     before the linear map was built, not (of_reserved_mem), and no
#     coherent DMA pool made of a GCMA node;
#   arm: the same three areas (scripts/dtb.sh), all in HighMem, per the
#     boot's zone report.  Its CMA pages include CMA_SIZE_MBYTES' 16 MiB:
#     32-bit ARM reserves a default CMA area before it reads the device
#     tree's reserved memory (linux,cma-default then replaces it), as it
#     does without GCMA.
cross_console() {
	# As a file: dash's echo would read the console's backslashes.
	_log=$CHECK/console-$1.txt
	tr -d '\r' <"$LOGS/console-$1.log" >"$_log" 2>/dev/null
	_bad=
	case $1 in
	arm64)
		_what="two GCMA areas and a CMA area made, four faulty GCMA nodes refused with their reasons"
		_lines="gcma: reserved memory gcma@58000000: a GCMA area
gcma: reserved memory gcma@68000000: a GCMA area
initialized node cma@50000000,
refused-no-map@6c000000: not a GCMA area: it is no-map
node refused-no-map@6c000000: its no-map memory stays unused
refused-not-reusable@6c400000: not a GCMA area: it is not reusable
refused-misaligned@6c810000: not a GCMA area: its base or size is not a multiple
refused-placed-no-map: not a GCMA area: it is no-map
node refused-no-map@6c000000 compatible matching fail
node refused-not-reusable@6c400000 compatible matching fail
node refused-misaligned@6c810000 compatible matching fail
node refused-placed-no-map compatible matching fail"
		grep -q 'created DMA memory pool' "$_log" &&
			_bad=" [a coherent DMA pool was made]"
		# Placed before the linear map was built: mapped, so not left out.
		grep -q 'node refused-placed-no-map: its no-map memory stays unused' "$_log" &&
			_bad="$_bad [the no-map node placed at boot was left unused]" ;;
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
		[ "$(grep -cF -- "$_line" "$_log")" -eq 1 ] || _bad="$_bad [$_line]"
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
	stage arm
	cross_stage arm
	finish
fi

# make test-one: one kselftest or KUnit suite of the working tree, in one
# boot, judged on that alone (and on the console).
if [ "$scope" = one ]; then
	stage "build/linux: $GCMA_CHECK_ONLY"
	build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/build-one.log" ||
		{ fail "build of build/linux (log: build/logs/build-one.log)"; finish; }
	pass "build of build/linux"
	initrd=$CHECK/initramfs-one.cpio
	sh "$ROOT/scripts/initramfs.sh" "$CHECK_TREE" "$CHECK_OBJ" "$initrd" >/dev/null ||
		{ fail "initramfs (log: build/logs/initramfs.log)"; finish; }
	ksft_all=$initrd.d/root/selftests/kselftest-list.txt
	if grep -qxF "gcma:$GCMA_CHECK_ONLY" "$ksft_all" 2>/dev/null; then
		suites= ksft_list=$CHECK/kselftest-list-one.txt
		echo "gcma:$GCMA_CHECK_ONLY" >"$ksft_list"
		only="kunit.enable=0 ksft_only=$GCMA_CHECK_ONLY"
	elif kunit_suites | grep -qxF "$GCMA_CHECK_ONLY"; then
		suites=$GCMA_CHECK_ONLY ksft_list=$CHECK/no-kselftests
		only="kunit.filter_glob=$GCMA_CHECK_ONLY ksft_only=none"
	else
		fail "$GCMA_CHECK_ONLY: neither a kselftest ($(sed 's/^gcma://' "$ksft_all" 2>/dev/null | tr '\n' ' '))nor a KUnit suite ($(kunit_suites | tr '\n' ' '))"
		finish
	fi
	boot_tests one "$(kernel_image "$CHECK_OBJ")" "gcma=128M,default,limit=512M $only"
	finish
fi

# b. checkpatch ---------------------------------------------------------
want checkpatch && stage checkpatch
exceptions=$PATCHES/checkpatch-exceptions
# The series, and the patches check-selftest applies after it.  A patch
# that passed before, with the same exceptions and the same checkpatch
# (the tree's scripts/ and LICENSES/, the options and verdict of this
# stage, the Python of spdxcheck.py), is not checked again; the others
# are checked $NPROC at a time (20 s each), then judged in order.
checkpatch_scripts=$({
	git -C "$CHECK_TREE" ls-tree -r "$top" scripts/ LICENSES/
	sed -n '/^# b\. checkpatch/,/^done <"\$cp_list"/p' "$here/check.sh"
	"$PYTHON" --version 2>&1
	"$PYTHON" -c 'import ply; print(ply.__version__)' 2>&1
} | sha1sum)
mkdir -p "$GCMA_CACHE_DIR/builds"
# checkpatch_one LOG IGNORE FILE: run checkpatch, its status in LOG.rc.
checkpatch_one() {
	# spdxcheck.py runs as "env python3": make that Debian's.
	(cd "$CHECK_TREE" && PATH=${PYTHON%/*}:$PATH ./scripts/checkpatch.pl --strict \
		${2:+--ignore "$2"} "$3") >"$1" 2>&1
	echo $? >"$1.rc"
}
cp_list=$CHECK/checkpatch-list
: >"$cp_list"
# An exception for a patch the series no longer has would wait, unused,
# for the patch's new name.
if want checkpatch && [ -f "$exceptions" ]; then
	for _e in $(sed -e 's/#.*//' "$exceptions" | awk 'NF >= 2 { print $1 }'); do
		series_patches | grep -q -x -F "$_e" ||
			fail "checkpatch: patches/checkpatch-exceptions names $_e, which patches/series does not list"
	done
fi
running=0
for p in $(want checkpatch && series_patches && echo ${GCMA_CHECK_EXTRA_PATCHES:-}); do
	# The exceptions name a patch as patches/series does (NN-name/file).
	file=$PATCHES/$p
	case $p in /*) file=$p p=${p##*/} ;; esac
	ignore=
	if [ -f "$exceptions" ]; then
		ignore=$(sed -e 's/#.*//' "$exceptions" |
			awk -v p="$p" '$1 == p && NF >= 2 { printf "%s%s", sep, $2; sep = "," }')
	fi
	log=$LOGS/checkpatch-$(echo "${p%.patch}" | tr / _).log
	key=checkpatch-$({ cat "$file"; echo "$ignore $checkpatch_scripts"; } | sha1sum | cut -d' ' -f1)
	echo "$p $key ${ignore:--}" >>"$cp_list"
	built_before "$key" && continue
	checkpatch_one "$log" "$ignore" "$file" &
	running=$((running + 1))
	[ $running -lt "$NPROC" ] || { wait; running=0; }
done
wait
while read -r p key ignore; do
	[ "$ignore" = - ] && ignore=
	if built_before "$key"; then
		pass "checkpatch $p${ignore:+ (ignoring $ignore)} (passed before)"
		continue
	fi
	log=$LOGS/checkpatch-$(echo "${p%.patch}" | tr / _).log
	rc=$(cat "$log.rc" 2>/dev/null || echo "not run")
	total=$(grep -E '^total: [0-9]+ errors, [0-9]+ warnings, [0-9]+ checks' "$log")
	if grep -q '^Traceback' "$log"; then
		fail "checkpatch $p: a helper of checkpatch crashed (log: build/logs/${log##*/})"
		grep -A8 '^Traceback' "$log" | head -20
	elif [ "$rc" = 0 ] && echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		pass "checkpatch $p${ignore:+ (ignoring $ignore)}"
		touch "$GCMA_CACHE_DIR/builds/$key"
	else
		fail "checkpatch $p: ${total:-checkpatch.pl exited with $rc}"
		grep -E -A3 '^(ERROR|WARNING|CHECK):' "$log" | head -60
	fi
done <"$cp_list"

# The device-tree bindings the series adds or changes.  6.12's make
# dt_binding_check wants dtschema 2023.9 or later; Debian 12 has
# 2022.08, whose tools run on one binding: yamllint with the kernel's
# rules, dt-doc-validate (the binding against dtschema's meta-schemas)
# and its examples, compiled with dtc, against the binding and
# dtschema's core schemas (dt-mk-schema, dt-validate).  Not checked: the
# other bindings together (dtschema 2022.08 fails on some of 6.12's), and
# dtschema's own shared-dma-pool.yaml, which 2022.08 does not have.
dt_check() {
	_bindings=$CHECK_TREE/Documentation/devicetree/bindings
	_dir=$CHECK/dt-binding
	if ! _ys=$(git -C "$CHECK_TREE" diff --name-only --diff-filter=AM base "$top" -- \
	    'Documentation/devicetree/bindings/*.yaml'); then
		fail "dt bindings: git cannot list the series' bindings"
		return
	fi
	# The series changes shared-dma-pool.yaml: none found is a fault here.
	[ -n "$_ys" ] || fail "dt bindings: the series changes no binding"
	for _y in $_ys; do
		_log=$LOGS/dt-$(basename "$_y" .yaml).log
		rm -rf "$_dir"
		mkdir -p "$_dir/schema"
		cp "$CHECK_TREE/$_y" "$_dir/schema/"
		{
			yamllint -f parsable -c "$_bindings/.yamllint" "$CHECK_TREE/$_y" &&
			dt-doc-validate -u "$_bindings" "$CHECK_TREE/$_y" &&
			dt-extract-example "$CHECK_TREE/$_y" >"$_dir/example.dts" &&
			dtc -q -I dts -O dtb -o "$_dir/example.dtb" "$_dir/example.dts" &&
			dt-mk-schema -j "$_dir/schema" >"$_dir/schema.json" &&
			dt-validate -s "$_dir/schema.json" "$_dir/example.dtb"
		} >"$_log" 2>&1
		_rc=$?
		if [ $_rc -eq 0 ] && [ ! -s "$_log" ]; then
			pass "dt binding $_y: yamllint, meta-schema and examples"
		else
			fail "dt binding $_y (log: build/logs/${_log##*/}):"
			head -n 20 "$_log" | sed 's/^/    /'
		fi
	done
}
if want dt; then
	stage "dt bindings"
	dt_check
fi

# c. build at every commit ---------------------------------------------
# kbuild_builds CONFIG DIR WORD: DIR's Makefile (or Kbuild) builds WORD
# (name.o, or sub/ for a directory) under the .config CONFIG, by the
# rules the series' files meet: obj-y, obj-$(CONFIG_X), and a composite
# object's NAME-y or NAME-$(CONFIG_X), which count when NAME.o is built
# (or, as mm's mmu-y, when NAME.o is never named).  Lines inside ifdef
# are read as if the condition held.  A WORD that no line names is not
# built.
kbuild_builds() {
	_kb_mk=$2/Kbuild
	[ -f "$_kb_mk" ] || _kb_mk=$2/Makefile
	[ -f "$_kb_mk" ] || return 1
	awk -v word="$3" '
	function cond(lhs, depth,   sym, name) {
		if (lhs == "obj-y")
			return 1
		if (match(lhs, /\$\(CONFIG_[A-Z0-9_]+\)$/)) {
			sym = substr(lhs, RSTART + 2, RLENGTH - 3)
			if (!(sym in on))
				return 0
			name = substr(lhs, 1, RSTART - 2)
		} else if (lhs ~ /-(y|objs)$/) {
			name = lhs
			sub(/-(y|objs)$/, "", name)
		} else {
			return lhs ~ /^obj-/
		}
		return name == "obj" || builds(name ".o", depth + 1, 1)
	}
	function builds(w, depth, composite,   i, named) {
		if (depth > 4)
			return 1
		for (i = 1; i <= n; i++) {
			if (!index(rhs[i], " " w " "))
				continue
			named = 1
			if (cond(lhs[i], depth))
				return 1
		}
		return composite && !named
	}
	FNR == 1 { file++ }
	file == 1 {
		if ($0 ~ /^CONFIG_[A-Z0-9_]+=[ym]$/) {
			sub(/=.*/, "")
			on[$0] = 1
		}
		next
	}
	{ sub(/#.*/, ""); buf = buf " " $0 }
	/\\$/ { sub(/\\$/, "", buf); next }
	{
		if (match(buf, /^[ \t]*[^ \t:+?=]+[ \t]*(:=|\+=|\?=|=)/)) {
			n++
			lhs[n] = substr(buf, 1, RLENGTH)
			sub(/(:=|\+=|\?=|=)$/, "", lhs[n])
			gsub(/[ \t]/, "", lhs[n])
			rhs[n] = " " substr(buf, RLENGTH + 1) " "
			gsub(/[ \t]+/, " ", rhs[n])
		}
		buf = ""
	}
	END { exit !builds(word, 0, 0) }' "$1" "$_kb_mk"
}

# series_files: the .c files the series changes (base..top), outside
# tools/ and Documentation/; fails when git does.
series_files() {
	git -C "$CHECK_TREE" diff --name-only base "$top" -- '*.c' ':!tools/' ':!Documentation/'
}

# series_objects TREE OBJ: the objects of series_files that TREE has and
# OBJ/.config builds: the file's Makefile builds it and every directory
# above it, below the top level, is built.  Fails without a .config or
# the list of files.
series_objects() {
	[ -s "$2/.config" ] || return 1
	_so_files=$(series_files) || return 1
	for _so_f in $_so_files; do
		[ -f "$1/$_so_f" ] || continue
		_so_dir=${_so_f%/*} _so_word=$(basename "$_so_f" .c).o _so_ok=1
		while [ "$_so_ok" = 1 ] && [ "$_so_dir" != "$_so_f" ]; do
			kbuild_builds "$2/.config" "$1/$_so_dir" "$_so_word" || _so_ok=0
			_so_word=${_so_dir##*/}/
			case $_so_dir in */*) _so_dir=${_so_dir%/*} ;; *) break ;; esac
		done
		[ "$_so_ok" = 1 ] && echo "${_so_f%.c}.o"
	done
	return 0
}

# symbol_uses OBJ OUT OBJECT...: of the OBJECTs of OBJ, the symbols they
# use that none of them defines (OUT.used), the global symbols they
# define, weak ones aside (OUT.defined), and those that two of them
# define (OUT.twice), each sorted; fails when nm does.
symbol_uses() {
	_su_obj=$1 _su_out=$2
	shift 2
	: >"$_su_out.used"
	: >"$_su_out.defined"
	: >"$_su_out.twice"
	[ $# -gt 0 ] || return 0
	(cd "$_su_obj" && nm "$@") >"$_su_out.nm" || return 1
	awk -v used="$_su_out.used" -v defined="$_su_out.defined" -v twice="$_su_out.twice" '
		NF == 3 && $2 ~ /^[A-Z]$/ && $2 != "U" { def[$3] = 1 }
		NF == 3 && $2 ~ /^[A-TX-Z]$/ && $2 != "U" {
			print $3 >defined
			if (++strong[$3] == 2)
				print $3 >twice
		}
		NF == 2 && $1 == "U" { use[$2] = 1 }
		END { for (s in use) if (!(s in def)) print s >used }' "$_su_out.nm" &&
		touch "$_su_out.used" "$_su_out.defined" "$_su_out.twice" &&
		sort -u -o "$_su_out.used" "$_su_out.used" &&
		sort -u -o "$_su_out.defined" "$_su_out.defined" &&
		sort -u -o "$_su_out.twice" "$_su_out.twice"
}

# The rest of the kernel, for the link check of a build of the series'
# objects alone: the global symbols of the top's System.map less those
# the top's series objects define (kernel_symbols), and of those the
# ones that are not weak (kernel_symbols.strong).  Written once the top
# is linked (top_symbols OBJ); empty when it cannot be.
kernel_symbols=$CHECK/kernel-symbols
top_symbols() {
	rm -f "$kernel_symbols" "$kernel_symbols.strong"
	_ts_objs=$(cd "$1" && series_objects "$CHECK_TREE" "$1" |
		while read -r _o; do [ -f "$_o" ] && echo "$_o"; done)
	[ -n "$_ts_objs" ] && [ -s "$1/System.map" ] || return 0
	# shellcheck disable=SC2086 # one argument per object
	symbol_uses "$1" "$kernel_symbols.series" $_ts_objs || return 0
	awk '$2 ~ /^[A-Z]$/ { print $3 }' "$1/System.map" | sort -u |
		comm -23 - "$kernel_symbols.series.defined" >"$kernel_symbols.all" &&
	awk '$2 ~ /^[A-Z]$/ && $2 !~ /^[VW]$/ { print $3 }' "$1/System.map" | sort -u |
		comm -23 - "$kernel_symbols.series.defined" >"$kernel_symbols.strong" &&
	mv "$kernel_symbols.all" "$kernel_symbols"
}

# link_verdict WHAT USES KEY: the link item of a build of the series'
# objects whose symbol_uses are USES.used and USES.defined: a symbol
# used that the rest of the kernel lacks, or one defined that it
# defines too, would not link.  KEY is recorded when it passes.
link_verdict() {
	if [ ! -s "$kernel_symbols" ]; then
		fail "$1: not linked: no kernel at the top to link against"
		return
	fi
	if ! _lv_missing=$(comm -23 "$2.used" "$kernel_symbols") ||
	   ! _lv_twice=$(comm -12 "$2.defined" "$kernel_symbols.strong" |
		sort -u - "$2.twice"); then
		fail "$1: its symbols cannot be compared (${2#"$ROOT"/}.*)"
		return
	fi
	_lv_missing=$(echo $_lv_missing) _lv_twice=$(echo $_lv_twice)
	if [ -n "$_lv_missing" ]; then
		fail "$1: would not link: nothing defines $_lv_missing"
	elif [ -n "$_lv_twice" ]; then
		fail "$1: would not link: defined twice: $_lv_twice"
	else
		pass "$1: its objects link"
		[ -n "$3" ] && mkdir -p "$GCMA_CACHE_DIR/builds" && touch "$GCMA_CACHE_DIR/builds/$3"
	fi
}

# The x86_64 kernel of the top, built whole and linked, and the object
# dir where every commit's objects are compiled before it: the debug
# kernel (config/debug.config: KASAN, UBSAN, lockdep, kmemleak,
# DEBUG_VM) when the debug stage runs, in build/check/obj-debug, else
# the test kernel in build/check/obj.  The commits are compiled with the
# config they are linked against.
DEBUG_OBJ=$CHECK/obj-debug
if want debug; then
	top_obj=$DEBUG_OBJ top_extra=debug.config
else
	top_obj=$CHECK_OBJ top_extra=
fi
# What the keys of these builds depend on beyond build_key: the
# functions above, the loop below, the series' list of .c files and the
# config added.
light_code=$({
	sed -n '/^series_files() {/,/^}/p; /^kbuild_builds() {/,/^}/p;
		/^series_objects() {/,/^}/p; /^symbol_uses() {/,/^}/p;
		/^top_symbols() {/,/^}/p; /^link_verdict() {/,/^}/p;
		/^# c1\./,/^# d\. W=1/p' "$here/check.sh"
	series_files
	echo "$top_extra"
} | sha1sum | cut -d' ' -f1)

# c1. Every commit below the top, in $top_obj: the objects of the .c
# files the series changes that the commit's config builds
# (series_objects) are compiled, and what they use and define is checked
# against the rest of the top's kernel once it is linked (c2): a symbol
# nothing else defines, or one defined twice, would not link.  A header
# change that breaks a file the series does not change is seen at the
# top alone, whose build is whole (and not if a later commit repairs
# it): compiling every commit whole rebuilt most of the kernel three
# times (two patches change fs.h and vm_event_item.h), 40 minutes of a
# cold run.  A commit whose key
# (lib.sh: build_key) passed before is not compiled again.
# drivers/of/of_reserved_mem.c and kernel/dma/coherent.c, which x86_64
# does not build, are compiled at the top alone (arm64, arm).
link_pending= commits= n=0
if want bisect; then
	stage "build at every commit"
	commits=$(git -C "$CHECK_TREE" rev-list --reverse "base..$top^" 2>/dev/null)
	n=$(($(echo "$commits" | grep -c .) + 1))
	i=0
	for c in $commits; do
		i=$((i + 1))
		subject=$(git -C "$CHECK_TREE" log -1 --format=%s "$c")
		log=$LOGS/build-$(printf %02d $i).log
		t0=$(now)
		key=$(KCONFIG_EXTRA=$top_extra build_key "$CHECK_TREE" "$c" "series objects $light_code")
		# What a compile of that key found: its objects' symbols, which
		# are checked against this run's top again.
		kept=$GCMA_CACHE_DIR/symbols/$key
		if [ -n "$key" ] && [ -f "$kept.used" ] && [ -f "$kept.defined" ] &&
		   [ -f "$kept.twice" ]; then
			cp "$kept.used" "$CHECK/symbols-$i.used"
			cp "$kept.defined" "$CHECK/symbols-$i.defined"
			cp "$kept.twice" "$CHECK/symbols-$i.twice"
			pass "build $i/$n: $subject (its sources and config compiled before)"
			link_pending="$link_pending $i:$key"
			continue
		fi
		echo "check: building $i/$n: $subject"
		rm -f "$top_obj/.gcma-build-key"
		objects=
		if git -C "$CHECK_TREE" checkout -q "$c" &&
		   KCONFIG_EXTRA=$top_extra kconfig "$CHECK_TREE" "$top_obj" "$log" &&
		   objects=$(series_objects "$CHECK_TREE" "$top_obj") &&
		   { [ -n "$objects" ] || { echo "it builds none of the series' files" >>"$log"; false; }; } &&
		   kmake "$CHECK_TREE" "$top_obj" $objects >>"$log" 2>&1 &&
		   symbol_uses "$top_obj" "$CHECK/symbols-$i" $objects; then
			pass "build $i/$n: $subject ($(echo $objects | wc -w) objects, $(($(now) - t0))s)"
			link_pending="$link_pending $i:$key"
			if [ -n "$key" ]; then
				mkdir -p "$GCMA_CACHE_DIR/symbols"
				cp "$CHECK/symbols-$i.used" "$kept.used"
				cp "$CHECK/symbols-$i.defined" "$kept.defined"
				cp "$CHECK/symbols-$i.twice" "$kept.twice"
				ls -t "$GCMA_CACHE_DIR/symbols" | tail -n +401 |
					(cd "$GCMA_CACHE_DIR/symbols" && xargs rm -f)
			fi
		else
			fail "build $i/$n: $subject (log: build/logs/${log##*/})"
			grep -E 'error:|Error [0-9]' "$log" | head -20
		fi
	done
fi
# d. W=1 and sparse on the touched .c files -------------------------------
# warnings TREE OBJ FILE LOG: the W=1/sparse warnings of FILE's object,
# without the tree's path and line and column numbers, each numbered
# among its like ("#2": a second one of the same text, new if the base
# has one), sorted.
# The object is removed first: an object already up to date (the base's,
# from an earlier run) would not be compiled again, and only sparse
# would report.
warnings() {
	rm -f "$2/${3%.c}.o"
	kmake "$1" "$2" W=1 C=2 "${3%.c}.o" >"$4" 2>&1
	_rc=$?
	grep -E '(warning|error):' "$4" |
		sed -E 's/:[0-9]+(:[0-9]+)?:/:/; s#^[^: ]*/(linux|base)/##' | sort |
		awk '{ print $0 " #" ++seen[$0] }' | sort
	return $_rc
}
# w1_check ARCH OBJ FILE...: W=1 and sparse on each FILE, at the top
# (OBJ, the top's build for ARCH, which these objects then replace) and
# at the base (build/base itself, objects in build/check/obj-base-ARCH,
# so the check tree is not checked out elsewhere); a warning the base
# lacks is new.  Appends the new ones to $w1_new; returns non-zero when
# a build failed.
w1_check() (
	_w1c_arch=$1 _w1c_obj=$2
	shift 2
	GCMA_ARCH=$_w1c_arch
	. "$here/lib.sh"
	_w1c_ok=0
	rm -f "$_w1c_obj/.gcma-build-key"
	KCONFIG_EXTRA=${w1_extra:-}
	kconfig "$CHECK_TREE" "$_w1c_obj" "$LOGS/w1-config-top-$_w1c_arch.log" || _w1c_ok=1
	# The base takes the top's config, less the symbols it lacks: a
	# file that only the series' config fragments build (memory-failure.c
	# under the KUnit fragment) must be built alike on both sides.
	_w1c_base=1
	mkdir -p "$CHECK/obj-base-$_w1c_arch" && {
		cmp -s "$_w1c_obj/.config" "$CHECK/obj-base-$_w1c_arch/.config" ||
		cp "$_w1c_obj/.config" "$CHECK/obj-base-$_w1c_arch/.config"
	} && kmake "$BUILD/base" "$CHECK/obj-base-$_w1c_arch" olddefconfig \
		>"$LOGS/w1-config-base-$_w1c_arch.log" 2>&1 || {
		warn "the base's config failed (log: build/logs/w1-config-base-$_w1c_arch.log)"
		_w1c_ok=1 _w1c_base=
	}
	for _w1c_f; do
		_w1c_key=$_w1c_arch-$(echo "$_w1c_f" | tr / _)
		warnings "$CHECK_TREE" "$_w1c_obj" "$_w1c_f" "$LOGS/w1-top-$_w1c_key.log" \
			>"$CHECK/w1-top-$_w1c_key" || _w1c_ok=1
		: >"$CHECK/w1-base-$_w1c_key"
		if [ -n "$_w1c_base" ] && [ -f "$BUILD/base/$_w1c_f" ]; then
			warnings "$BUILD/base" "$CHECK/obj-base-$_w1c_arch" "$_w1c_f" \
				"$LOGS/w1-base-$_w1c_key.log" >"$CHECK/w1-base-$_w1c_key" || _w1c_ok=1
		fi
		comm -23 "$CHECK/w1-top-$_w1c_key" "$CHECK/w1-base-$_w1c_key" >>"$w1_new"
	done
	exit $_w1c_ok
)
# w1_verdict WHERE FILES T0: the item of one w1_check.
w1_verdict() {
	if [ -n "$w1_failed" ]; then
		fail "W=1 + sparse ($1): a build failed (logs: build/logs/w1-*.log)"
	elif [ -s "$w1_new" ]; then
		fail "W=1 + sparse ($1): $(wc -l <"$w1_new") new warnings"
		cat "$w1_new"
	else
		pass "W=1 + sparse ($1): no new warnings in$2 ($(($(now) - $3))s)"
	fi
}
# w1_run ARCH OBJ FILE...: w1_check and its item, unless the same check
# (the top's build key, the files) passed before.
w1_run() {
	_w1_t0=$(now) _w1_arch=$1 _w1_obj=$2
	shift 2
	_w1_key=$(GCMA_ARCH=$_w1_arch KCONFIG_EXTRA=${w1_extra:-} && . "$here/lib.sh" &&
		build_key "$CHECK_TREE" "$top" "W=1 C=2 $* $(sparse --version 2>&1;
			sed -n '/^# d. W=1/,/^w1_run()/p' "$here/check.sh" | sha1sum)")
	[ -n "$_w1_key" ] || _w1_key=none
	if built_before "$_w1_key"; then
		pass "W=1 + sparse ($_w1_arch): no new warnings in $* (passed before)"
		return
	fi
	w1_new=$LOGS/w1-new-warnings-$_w1_arch.txt w1_failed=
	: >"$w1_new"
	w1_check "$_w1_arch" "$_w1_obj" "$@" || w1_failed=1
	w1_verdict "$_w1_arch" " $*" "$_w1_t0"
	[ -z "$w1_failed" ] && [ ! -s "$w1_new" ] && [ "$_w1_key" != none ] &&
		mkdir -p "$GCMA_CACHE_DIR/builds" && touch "$GCMA_CACHE_DIR/builds/$_w1_key"
}
# w1_files OBJ: the files of $w1_unchecked whose objects OBJ's build made.
w1_files() {
	for _f in $w1_unchecked; do
		[ -f "$1/${_f%.c}.o" ] && echo "$_f"
	done
}
# The touched .c files that no W=1 run compiled yet.
w1_unchecked=$(git -C "$CHECK_TREE" diff --name-only base "$top" -- '*.c' ':!tools/')
# Before the top's whole build, in the same object dir and config: that
# build then compiles these objects as it would, and its image and key
# stay valid for the next run.
if want w1; then
	stage "W=1 + sparse"
	git -C "$CHECK_TREE" checkout -q "$top" ||
		{ fail "cannot check out the top of the series"; finish; }
	w1_extra=$top_extra
	if KCONFIG_EXTRA=$top_extra kconfig "$CHECK_TREE" "$top_obj" "$LOGS/w1-config-top-x86_64.log" &&
	   files=$(series_objects "$CHECK_TREE" "$top_obj"); then
		files=$(echo "$files" | sed 's/\.o$/.c/')
		if [ -z "$files" ]; then
			[ -z "$w1_unchecked" ] || fail "W=1 + sparse: x86_64 builds none of the series' .c files"
		else
			# shellcheck disable=SC2086 # one argument per file
			w1_run x86_64 "$top_obj" $files
		fi
		[ -z "$files" ] || w1_unchecked=$(echo "$w1_unchecked" | grep -vxF "$files")
	else
		fail "W=1 + sparse: no config for the top (log: build/logs/w1-config-top-x86_64.log)"
	fi
	w1_extra=
fi

# c2. ---------------------------------------------------------------------
# The top, whole and linked, in $top_obj; with the debug stage and the
# test stage, the test kernel too (build/check/obj).
stage "build of the top"
git -C "$CHECK_TREE" checkout -q "$top" ||
	{ fail "cannot check out the top of the series"; finish; }
top_built= test_built= top_image=
[ "$n" -gt 0 ] || n=1
t0=$(now)
if KCONFIG_EXTRA=$top_extra build_kernel "$CHECK_TREE" "$top_obj" "$LOGS/build-$n.log"; then
	pass "build $n/$n: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") (whole${top_extra:+, with $top_extra}, $(($(now) - t0))s)"
	top_built=1 top_image=$(kernel_image "$top_obj")
	if [ "$top_obj" = "$CHECK_OBJ" ]; then
		cp "$top_image" "$CHECK/bzImage"
		test_built=1
	fi
else
	fail "build $n/$n: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") (whole${top_extra:+, with $top_extra}; log: build/logs/build-$n.log)"
fi
if want test && [ "$top_obj" != "$CHECK_OBJ" ]; then
	t0=$(now)
	if build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/build-test.log"; then
		pass "test build: $(git -C "$CHECK_TREE" log -1 --format=%s "$top") (whole, $(($(now) - t0))s)"
		cp "$CHECK_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
		test_built=1
	else
		fail "test build (log: build/logs/build-test.log)"
	fi
fi
# A link table of an earlier run must not stand in for a failed build.
rm -f "$kernel_symbols" "$kernel_symbols.strong"
if [ -n "$top_built" ] && { [ -n "$link_pending" ] || want variants; }; then
	top_symbols "$top_obj"
fi
for item in $link_pending; do
	i=${item%%:*}
	c=$(echo "$commits" | sed -n "${i}p")
	link_verdict "link $i/$n: $(git -C "$CHECK_TREE" log -1 --format=%s "$c")" \
		"$CHECK/symbols-$i" "${item#*:}"
done

# variant_build NAME SYMBOL...: the series' objects (series_objects) of
# the top with the top's config ($top_obj: the debug one in a full run)
# less each SYMBOL (and what depends on it), plus each +SYMBOL, compiled in
# build/check/obj-variant and checked against the top's symbols as in
# c1: the stubs and hooks that such a config compiles instead, the first
# thing a randconfig would try.  One object dir for all: make recompiles
# what the symbols changed.  Not seen: a file the series does not change
# that such a config breaks through a header of the series, and a
# symbol outside the series that the config takes away (the top's
# System.map still has it).
variant_build() {
	_vb_name=$1 _vb_t0=$(now)
	shift
	_vb_obj=$CHECK/obj-variant _vb_log=$LOGS/build-$_vb_name.log
	_vb_what="build with$(printf ' %s=n' "$@" | sed 's/ +\([A-Z0-9_]*\)=n/ \1=y/g')"
	_vb_key=$(KCONFIG_EXTRA=$top_extra build_key "$CHECK_TREE" "$top" "variant $* $light_code $(
		sed -n '/^variant_build()/,/^}/p' "$here/check.sh" | sha1sum)")
	if [ -n "$_vb_key" ] && built_before "$_vb_key"; then
		pass "$_vb_what (built and linked before)"
		return
	fi
	echo "check: $_vb_what"
	mkdir -p "$_vb_obj"
	rm -f "$_vb_obj/.config.old"
	cp "$top_obj/.config" "$_vb_obj/.config"
	for _s; do
		case $_s in
		+*) "$CHECK_TREE/scripts/config" --file "$_vb_obj/.config" --enable "${_s#+}" ;;
		*) "$CHECK_TREE/scripts/config" --file "$_vb_obj/.config" --disable "$_s" ;;
		esac
	done
	if ! kmake "$CHECK_TREE" "$_vb_obj" olddefconfig >"$_vb_log" 2>&1; then
		fail "$_vb_what: olddefconfig failed (log: build/logs/${_vb_log##*/})"
		return
	fi
	for _s; do
		case $_s in
		+*) grep -q "^CONFIG_${_s#+}=y" "$_vb_obj/.config" && continue
		    fail "$_vb_what: CONFIG_${_s#+} is not set after olddefconfig (a dependency missing?)" ;;
		*) grep -q "^CONFIG_$_s=" "$_vb_obj/.config" || continue
		   fail "$_vb_what: CONFIG_$_s is still set after olddefconfig (selected?)" ;;
		esac
		return
	done
	if ! _vb_objs=$(series_objects "$CHECK_TREE" "$_vb_obj") || [ -z "$_vb_objs" ]; then
		fail "$_vb_what: it builds none of the series' files"
		return
	fi
	# shellcheck disable=SC2086 # one make target per object
	if kmake "$CHECK_TREE" "$_vb_obj" $_vb_objs >>"$_vb_log" 2>&1; then
		pass "$_vb_what: $(echo $_vb_objs | wc -w) objects compile ($(($(now) - _vb_t0))s)"
		# A symbol turned on changes what the objects call (PREEMPT_RT's
		# locks): the top's System.map cannot tell whether they link.
		case " $* " in
		*" +"*) _vb_link= ;;
		*) _vb_link=yes ;;
		esac
		if [ -z "$_vb_link" ]; then
			[ -n "$_vb_key" ] && mkdir -p "$GCMA_CACHE_DIR/builds" &&
				touch "$GCMA_CACHE_DIR/builds/$_vb_key"
			return
		fi
		# shellcheck disable=SC2086 # one argument per object
		if symbol_uses "$_vb_obj" "$CHECK/symbols-$_vb_name" $_vb_objs; then
			link_verdict "$_vb_what" "$CHECK/symbols-$_vb_name" "$_vb_key"
		else
			fail "$_vb_what: nm cannot read its objects"
		fi
	else
		fail "$_vb_what (log: build/logs/${_vb_log##*/})"
		grep -E 'error:|Error [0-9]' "$_vb_log" | head -20
	fi
}
if want variants && [ -n "$top_built" ]; then
	stage "builds with GCMA, CMA or a client off, and with PREEMPT_RT"
	variant_build gcma-off GCMA
	variant_build cma-off CMA
	variant_build swap-client-off GCMA_SWAP
	variant_build file-client-off GCMA_FILE
	# x86_64 supports PREEMPT_RT; the clients are not built there.
	variant_build preempt-rt +EXPERT +PREEMPT_RT PREEMPT_NONE \
		PREEMPT_VOLUNTARY PREEMPT
fi

# e. kunit.py at the top of each series of the stack: the command a
# message of the series gives for its KUnit suites (kunit.py run
# --arch=x86_64 and a --kunitconfig), with the kernel's own tool: its
# config, its build in build/check/kunit, its QEMU and its parser; only
# make's compiler (ccache) and a GCMA area (gcma=32M) are added, so that
# no suite skips for want of an area.  At each series' top, where the
# kunitconfig exists, it must pass, and every suite the stack defines up
# to there must run and pass whole: a series is tested as a maintainer
# would have it, without the series above it.  The one skip allowed is a
# case's own for want of a second CPU: kunit.py's config has no SMP (the
# cases run in the boots); the raw output (test.log) gives the reason.  The tops are built in turn in one build
# directory, each on the objects of the one before.  A top whose key
# (build_key) passed before is not run again.
kunit_py() {
	_kp_config=
	for _c in $(git -C "$CHECK_TREE" rev-list --reverse "base..$top"); do
		_kp_config=$(git -C "$CHECK_TREE" log -1 --format=%B "$_c" |
			sed -n '/kunit\.py run --arch=x86_64/{n;s|^[[:space:]]*--kunitconfig=\([^[:space:]]*\).*|\1|p}' |
			head -n 1)
		[ -n "$_kp_config" ] && break
	done
	if [ -z "$_kp_config" ]; then
		fail "kunit.py: no message of the series gives 'kunit.py run --arch=x86_64 --kunitconfig=FILE'"
		return
	fi
	_kp_commits=$(git -C "$CHECK_TREE" rev-list --reverse "base..$top")
	_kp_code=$({
		sed -n '/^kunit_py() {/,/^}/p' "$here/check.sh"
		git -C "$CHECK_TREE" ls-tree -r "$top" tools/testing/kunit
		qemu-system-x86_64 --version | head -n 1
		"$PYTHON" --version
	} | sha1sum)
	# Read from a file, not a pipe: pass and fail count in this shell.
	stack_tops >"$CHECK/stack-tops"
	while read -r _kp_n _kp_name; do
		_kp_c=$(echo "$_kp_commits" | sed -n "${_kp_n}p")
		_kp_what="kunit.py at the top of $_kp_name"
		if [ -z "$_kp_c" ]; then
			fail "$_kp_what: the tree has no commit $_kp_n"
			continue
		fi
		if ! git -C "$CHECK_TREE" cat-file -e "$_kp_c:$_kp_config" 2>/dev/null; then
			pass "$_kp_what: no $_kp_config there, no KUnit suite to run"
			continue
		fi
		# The suites of the files the stack changes up to this top.
		_kp_suites=$(git -C "$CHECK_TREE" diff --name-only base "$_kp_c" -- '*.c' '*.h' |
			while read -r _f; do
				git -C "$CHECK_TREE" show "$_kp_c:$_f" 2>/dev/null | suite_names
			done | sort -u)
		# build_key leaves tools/testing/ out: kunit.py itself, and QEMU,
		# go into this one.
		_kp_key=$(build_key "$CHECK_TREE" "$_kp_c" "kunit.py $_kp_config $_kp_code")
		if [ -n "$_kp_key" ] && built_before "$_kp_key"; then
			pass "$_kp_what: $(echo $_kp_suites) passed whole before"
			continue
		fi
		_kp_log=$LOGS/kunit-py-$_kp_name.log _kp_t0=$(now)
		if ! git -C "$CHECK_TREE" checkout -q "$_kp_c"; then
			fail "$_kp_what: cannot check out $_kp_c"
			continue
		fi
		rm -f "$CHECK/kunit/test.log"
		(cd "$CHECK_TREE" && "$PYTHON" tools/testing/kunit/kunit.py run --arch=x86_64 \
			--kunitconfig="$_kp_config" --build_dir="$CHECK/kunit" --jobs="$NPROC" \
			--make_options="CC=ccache gcc" --make_options="HOSTCC=ccache gcc" \
			--kernel_args=gcma=32M \
			--timeout=1800) </dev/null >"$_kp_log" 2>&1
		_kp_rc=$?
		_kp_result=$(grep -E 'Testing complete\.' "$_kp_log" | tail -n 1)
		_kp_bad= _kp_one_cpu=0
		for _s in $_kp_suites; do
			# The suite's own cases: the result lines indented as its
			# "# Subtest:" line (a parameterised case's are deeper),
			# until a KTAP line less indented ends the suite.
			_kp_p=$(s=$_s awk '
				{ line = $0; match(line, /^[ \t]*/); ind = RLENGTH
				  body = substr(line, ind + 1) }
				# Kernel messages come between the KTAP lines.
				body !~ /^(ok |not ok |# |KTAP |1\.\.)/ { next }
				!in_s && body == "# Subtest: " ENVIRON["s"] { in_s = 1; depth = ind; next }
				!in_s { next }
				ind < depth { in_s = 0; next }
				ind > depth { next }
				body ~ /^not ok / { bad++; next }
				body ~ /^ok [0-9]+ .*# SKIP/ {
					if (body ~ /# SKIP (needs two CPUs|one CPU online)/)
						cpu++
					else
						bad++
					next
				}
				body ~ /^ok [0-9]+ / { p++ }
				END { print ((bad || !p) ? "bad" : p), cpu + 0 }' "$CHECK/kunit/test.log" 2>/dev/null)
			case $_kp_p in
			bad* | "") _kp_bad="$_kp_bad $_s" ;;
			*) _kp_one_cpu=$((_kp_one_cpu + ${_kp_p#* })) ;;
			esac
		done
		if [ $_kp_rc -ne 0 ] || [ -z "$_kp_result" ]; then
			fail "$_kp_what: exit $_kp_rc (log: build/logs/${_kp_log##*/})"
			grep -E '\[(FAILED|CRASHED|SKIPPED)\]|ERROR|rror:' "$_kp_log" | head -20
		elif [ -z "$_kp_suites" ] || [ -n "$_kp_bad" ]; then
			fail "$_kp_what: not every suite passed whole:${_kp_bad:- the stack defines none there} (log: build/logs/${_kp_log##*/})"
			grep -E '\[(FAILED|CRASHED|SKIPPED)\]' "$_kp_log" | head -20
		else
			pass "$_kp_what: $(echo $_kp_suites) passed whole; ${_kp_result#*Testing complete. }, $_kp_one_cpu of them for want of a second CPU ($(($(now) - _kp_t0))s)"
			[ -n "$_kp_key" ] && touch "$GCMA_CACHE_DIR/builds/$_kp_key"
		fi
	done <"$CHECK/stack-tops"
	git -C "$CHECK_TREE" checkout -q "$top"
}
if want kunit-py; then
	stage "kunit.py"
	kunit_py
fi

# f. 32-bit ARM: the series' objects its config builds (make check-arm
# builds and boots it whole), for what no other build compiles: highmem,
# no CONFIG_MEMORY_FAILURE, no memory hotplug.
if want arm; then
	stage "arm build"
	# Compiled, not linked: nothing links the rest of arm's kernel.
	arm_objects=$(GCMA_ARCH=arm && . "$here/lib.sh" &&
		git -C "$CHECK_TREE" checkout -q "$top" &&
		kconfig "$CHECK_TREE" "$CHECK/obj-arm" "$LOGS/build-arm-config.log" &&
		series_objects "$CHECK_TREE" "$CHECK/obj-arm")
	if [ -n "$arm_objects" ]; then
		cross_build arm "$(echo $arm_objects)"
	else
		fail "arm: no config, or it builds none of the series' files (log: build/logs/build-arm-config.log)"
	fi
fi
# g. boot: KUnit, kselftests, console ------------------------------------
# The x86_64 boots; kunit.py and the ARM stages run without them.
initrd=$CHECK/initramfs.cpio x86_boots=
if ! want test && ! want params && ! want hibernate && ! want debug; then
	:
elif [ -z "$top_built" ]; then
	fail "x86_64 boots: no kernel at the top of the series"
else
	stage initramfs
	if out=$(sh "$ROOT/scripts/initramfs.sh" "$CHECK_TREE" "$top_obj" "$initrd"); then
		echo "$out"
		x86_boots=1
	else
		fail "initramfs (log: build/logs/initramfs.log)"
	fi
fi

suites=$(kunit_suites)
ksft_list=$initrd.d/root/selftests/kselftest-list.txt
echo "check: expected KUnit suites: $(echo $suites); kselftests:" \
	"$(sed 's/^[^:]*://' "$ksft_list" 2>/dev/null | tr '\n' ' ')"

# The GCMA area is the default DMA area (dma_users_test), below 512 MiB,
# where the 1 GiB guest would not put it unasked.
if want test && [ -n "$test_built" ] && [ -n "$x86_boots" ]; then
	stage "test boot"
	swap_plan=16 boot_tests test "$CHECK/bzImage" "gcma=128M,default,limit=512M"
fi

if want params && [ -n "$x86_boots" ]; then
	stage "gcma= boots"
	# The worst gcma= values, each boot with its own (the last gcma=
	# wins).  A malformed value also cancels a good one before it.
	param_boot malformed 7 'gcma.*no area reserved' \
		'gcma gcma= gcma=64Mjunk gcma=99999999999999999999 gcma=64M,bogus gcma=64M,default,limit=32M gcma=64M gcma=64M@'
	param_boot outside-memory 1 'cannot reserve .* for gcma=' 'gcma=16M@0x100000000000'
	param_boot misaligned 1 'cannot reserve .* for gcma=' 'gcma=16M@0x1001000,default'
	param_boot larger-than-memory 1 'cannot reserve .* for gcma=' 'gcma=64G'
fi

if want hibernate && [ -n "$x86_boots" ]; then
	stage "hibernation boots"
	hibernate_boots
fi

# h. the tests under KASAN, UBSAN, lockdep, kmemleak and DEBUG_VM --------
# Before arm64: the longest stage, and the one most likely to report.
# Smaller areas keep the tests short under KASAN and lockdep.
# init_on_alloc=1: gcma_test_handover_cleared checks the clearing.
# swap_test on the disk alone (zram would add 15 minutes here), and only
# its cases where KASAN and lockdep find most: the copies stored and
# loaded, dropped under contiguous requests, dropped at swapoff (7
# minutes less).  The arm64 boot runs every case on both devices.
if want debug && [ "$top_obj" = "$DEBUG_OBJ" ] && [ -n "$x86_boots" ]; then
	stage "debug boot"
	swap_plan=3 boot_tests debug "$top_image" \
		"cma=32M gcma=32M,default,limit=512M init_on_alloc=1 swap_test_devices=vda swap_test_cases=integrity,discard,swapoff"
fi

# i. arm64: QEMU virt, its areas declared in the device tree ---------------
# The same KUnit suites and kselftests, cross-compiled and under TCG,
# with the areas of scripts/dtb.sh's device tree: shared-dma-pool nodes,
# two with "linux,gcma" (one of them "linux,cma-default"), a plain CMA
# one, and four GCMA nodes the kernel must refuse, each with its reason,
# and boot on.  It adds 7 minutes warm, 15 cold; GCMA_CHECK_ARM64=0
# leaves it out (a developer's run: make check in CI runs it).
if ! want arm64; then
	:
elif [ "${GCMA_CHECK_ARM64:-1}" = 0 ]; then
	fail "arm64: not run (GCMA_CHECK_ARM64=0)"
else
	stage arm64
	cross_stage arm64
fi
[ -z "$w1_unchecked" ] || ! want w1 ||
	echo "check: W=1 + sparse compiled none of:" $w1_unchecked

finish
