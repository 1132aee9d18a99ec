#!/bin/sh
# make check-selftest: show that make check can fail, and says why.  Each
# case of check-selftest/cases breaks the series on purpose (patches
# applied after it, a bad setting, a Ctrl-C during the boot) and runs
# the stages of make check that must see it (GCMA_CHECK_STAGES); the case
# passes when make check fails and prints the expected line.
#
# usage: scripts/check-selftest.sh [CASE...]   (default: every case)
# Logs: build/logs/selftest-CASE.log.  A case takes 1 to 10 minutes warm.
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
	name=$1 patches=$2 stages=$3 append=$4 expect=$5
	log=$LOGS/selftest-$name.log
	t0=$(now)
	case $name in
	ctrl-c) ctrl_c "$log" ;;
	bad-setting) GCMA_VM_MEM=1X sh "$here/check.sh" </dev/null >"$log" 2>&1 ;;
	*)
		extra=
		for p in $(echo "$patches" | tr , ' '); do
			extra="$extra $ROOT/check-selftest/$p"
		done
		[ "$append" = - ] && append=
		GCMA_CHECK_STAGES=$(echo "$stages" | tr , ' ') \
		GCMA_CHECK_EXTRA_PATCHES=${extra# } \
		GCMA_VM_APPEND="${GCMA_VM_APPEND:-} $(echo "$append" | tr + ' ')" \
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
while read -r name patches stages append expect; do
	[ -n "$expect" ] ||
		die "check-selftest/cases: case $name needs patches, stages, kernel arguments and an expected line"
	for p in $(echo "$patches" | tr , ' '); do
		[ "$p" = - ] || [ -f "$ROOT/check-selftest/$p" ] ||
			die "check-selftest/cases: case $name: no check-selftest/$p"
	done
done <"$list"
for want in "$@"; do
	grep -q "^$want " "$list" || die "no case $want in check-selftest/cases"
done

while read -r name patches stages append expect; do
	[ $# -eq 0 ] || echo " $* " | grep -q " $name " || continue
	run_case "$name" "$patches" "$stages" "$append" "$expect"
done <"$list"
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ] && [ "$npass" -gt 0 ]
