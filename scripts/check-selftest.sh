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
# A job started with & has SIGINT ignored, which a shell cannot trap:
# env --default-signal gives it back, as a terminal's foreground job has.
ctrl_c() {
	GCMA_CHECK_SCOPE=quick setsid env --default-signal=INT \
		sh "$here/check.sh" </dev/null >"$1" 2>&1 &
	_pid=$!
	_qemu="qemu-system-x86_64.*$CHECK/initramfs.cpio"
	_i=0
	until pgrep -f "$_qemu" >/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 900 ] || ! kill -0 $_pid 2>/dev/null; then
			echo "check-selftest: QEMU never started" >>"$1"
			kill -TERM -$_pid 2>/dev/null
			wait $_pid
			return 1
		fi
		sleep 1
	done
	sleep 5
	echo "check-selftest: QEMU is running, sending SIGINT to the group" >>"$1"
	kill -INT -$_pid
	wait $_pid
	_rc=$?
	sleep 2
	if pgrep -f "$_qemu" >/dev/null; then
		echo "check-selftest: QEMU still runs after the interrupt" >>"$1"
		pkill -f "$_qemu"
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
	bad-setting) GCMA_VM_MEM=1X sh "$here/check.sh" </dev/null >"$log" 2>&1 ;;
	*) GCMA_CHECK_SCOPE=quick \
		GCMA_CHECK_EXTRA_PATCHES="$ROOT/check-selftest/$patch" \
		sh "$here/check.sh" </dev/null >"$log" 2>&1 ;;
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

# The cases, checked before any runs: a bad line is a failure of its own.
list=$LOGS/selftest-cases
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$cases" >"$list"
while read -r name patch expect; do
	if [ -z "$expect" ] ||
	   { [ "$patch" != - ] && [ ! -f "$ROOT/check-selftest/$patch" ]; }; then
		die "check-selftest/cases: case $name needs an existing patch (or -) and an expected line"
	fi
done <"$list"
for want in "$@"; do
	grep -q "^$want " "$list" || die "no case $want in check-selftest/cases"
done

while read -r name patch expect; do
	[ $# -eq 0 ] || echo " $* " | grep -q " $name " || continue
	run_case "$name" "$patch" "$expect"
done <"$list"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ] && [ "$npass" -gt 0 ]
