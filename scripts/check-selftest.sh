#!/bin/sh
# make check-selftest: show that make check can fail, and says why.  Each
# case of check-selftest/cases breaks the series on purpose (a patch
# applied after it, a bad setting, a Ctrl-C during the boot) and runs
# make check in its quick scope (top build and plain boot); the case
# passes when make check fails and prints the expected line.
#
# usage: scripts/check-selftest.sh [CASE...]   (default: every case)
# Logs: build/logs/selftest-CASE.log.  Takes about 3 minutes a case.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

cases=$ROOT/check-selftest/cases
npass=0 nfail=0
mkdir -p "$LOGS"
trap 'echo "check-selftest: interrupted"; exit 130' INT TERM HUP

# ctrl_c LOG: start make check in a session of its own, interrupt it
# during the boot as a terminal's Ctrl-C would (SIGINT to the whole
# process group), and verify that it stops and leaves no QEMU behind.
ctrl_c() {
	GCMA_CHECK_SCOPE=quick setsid sh "$here/check.sh" >"$1" 2>&1 &
	_pid=$!
	_i=0
	until pgrep -f "qemu-system-x86_64.*$CHECK/initramfs.cpio" >/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 900 ] || ! kill -0 $_pid 2>/dev/null; then
			echo "check-selftest: QEMU never started" >>"$1"
			return 1
		fi
		sleep 1
	done
	sleep 5
	echo "check-selftest: QEMU is running, sending SIGINT to the group" >>"$1"
	kill -INT -- -$_pid
	wait $_pid
	_rc=$?
	sleep 2
	if pgrep -f "qemu-system-x86_64.*$CHECK/initramfs.cpio" >/dev/null; then
		echo "check-selftest: QEMU still runs after the interrupt" >>"$1"
		pkill -f "qemu-system-x86_64.*$CHECK/initramfs.cpio"
		return 1
	fi
	echo "check-selftest: exit status $_rc, no QEMU left" >>"$1"
	return $_rc
}

run_case() {
	name=$1 patch=$2 expect=$3
	log=$LOGS/selftest-$name.log
	t0=$(now)
	case $name in
	ctrl-c) ctrl_c "$log" ;;
	bad-setting) GCMA_VM_MEM=1X sh "$here/check.sh" >"$log" 2>&1 ;;
	*) GCMA_CHECK_SCOPE=quick GCMA_VM_TIMEOUT=${GCMA_VM_TIMEOUT:-900} \
		GCMA_CHECK_EXTRA_PATCHES="$ROOT/check-selftest/$patch" \
		sh "$here/check.sh" >"$log" 2>&1 ;;
	esac
	rc=$?
	if [ $rc -ne 0 ] && grep -qE "$expect" "$log"; then
		npass=$((npass + 1))
		echo "PASS: $name: make check failed (status $rc, $(($(now) - t0))s) and said:"
		grep -E "$expect" "$log" | head -n 3 | sed 's/^/    /'
	else
		nfail=$((nfail + 1))
		echo "FAIL: $name: status $rc, expected a line matching '$expect' (log: build/logs/selftest-$name.log)"
		grep -E '^(FAIL|check):' "$log" | head -n 10 | sed 's/^/    /'
	fi
}

sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$cases" | while read -r name patch expect; do
	[ $# -eq 0 ] || echo " $* " | grep -q " $name " || continue
	[ "$patch" = - ] || [ -f "$ROOT/check-selftest/$patch" ] ||
		die "check-selftest/cases names $patch, which does not exist"
	run_case "$name" "$patch" "$expect"
	echo "$npass $nfail" >"$LOGS/selftest-counts"
done
read -r npass nfail <"$LOGS/selftest-counts" 2>/dev/null || { npass=0 nfail=1; }
rm -f "$LOGS/selftest-counts"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
