#!/bin/sh
# Judge the output of the kselftest runner (run_kselftest.sh) of one boot.
#
# usage: scripts/ksft_results.sh RUNNER_OUTPUT KSELFTEST_LIST
#   RUNNER_OUTPUT  what run_kselftest.sh printed in the guest
#   KSELFTEST_LIST the kselftest-list.txt installed with it (collection:test)
#
# Prints "PASS: ..." or "FAIL: ..." per item, and under a failure the
# test's own "#" lines.  Items: each TAP result a test printed, and each
# test program.  Failures besides "not ok": a SKIP (the harness boots a
# kernel with GCMA areas, so no GCMA test has a reason to skip), a program
# without a TAP plan, with an empty one (1..0) or whose plan does not
# match its results, a program the list names that did not run, a runner
# plan that does not match the list.
set -u
[ $# -eq 2 ] || { echo "usage: $0 RUNNER_OUTPUT KSELFTEST_LIST" >&2; exit 2; }

awk -v listfile="$2" '
function fail(msg) { print "FAIL: " msg }
# explain(since): what the failing program printed after line since of
# its log (its previous result), 30 lines at most.
function explain(since,   i, from) {
	from = since + 1
	if (nlog - from >= 30)
		from = nlog - 29
	for (i = from; i <= nlog; i++)
		print "    " logl[i]
}
function begin_prog(name) {
	prog = name; nres = 0; nbad = 0; nskip = 0; plan = -1; nlog = 0; lastres = 0
}
BEGIN {
	nexp = 0
	while ((getline l < listfile) > 0) {
		if (l == "")
			continue
		split(l, a, ":")
		expected[a[2]] = 1; order[++nexp] = a[2]
	}
	top_plan = -1; nprog = 0; prog = ""
}
{ sub(/\r$/, "") }
/^1\.\.[0-9]+$/ { top_plan = substr($0, 4) + 0; next }
/^# selftests: [^:]+: / { begin_prog($4); next }
/^# / && prog != "" {
	line = substr($0, 3)
	logl[++nlog] = line
	if (line ~ /^1\.\.[0-9]+/) {
		plan = substr(line, 4) + 0
	} else if (line ~ /^(not )?ok [0-9]+/) {
		nres++
		desc = line
		sub(/^(not )?ok [0-9]+ (- )?/, "", desc)
		if (line ~ /^not ok/) {
			fail("kselftest " prog ": " desc); explain(lastres); nbad++
		} else if (line ~ /# [Ss][Kk][Ii][Pp]/) {
			fail("kselftest " prog ": " desc " (a skip is a failure here)")
			explain(lastres); nskip++
		} else {
			print "PASS: kselftest " prog ": " desc
		}
		lastres = nlog
	}
	next
}
/^(not )?ok [0-9]+ selftests: / {
	name = $0; sub(/^.*selftests: [^:]+: /, "", name); sub(/ #.*$/, "", name)
	if (name != prog)
		begin_prog(name)
	ran[name]++; nprog++
	verdict = $0; sub(/^.*selftests: [^:]+: [^ ]*/, "", verdict)
	if ($0 ~ /^not ok/) {
		fail("kselftest " name ":" (verdict == "" ? " failed" : verdict) \
			" (after " nres " TAP results)")
		explain(0)
	} else if ($0 ~ /# SKIP/) {
		fail("kselftest " name ": skipped (exit 4; a skip is a failure here)")
		explain(0)
	} else if (plan < 0) {
		fail("kselftest " name ": exited 0 without a TAP plan (1..N)")
		explain(0)
	} else if (plan == 0) {
		fail("kselftest " name ": plan 1..0, it tested nothing")
		explain(0)
	} else if (plan != nres) {
		fail("kselftest " name ": plan 1.." plan " but " nres " results")
		explain(0)
	} else if (nbad == 0 && nskip == 0) {
		print "PASS: kselftest " name ": exit 0, " nres "/" plan " results"
	}
	prog = ""
	next
}
END {
	if (top_plan < 0)
		fail("kselftests: the runner printed no plan (did it run?)")
	else if (top_plan != nexp)
		fail("kselftests: the runner planned " top_plan " programs, " \
			"the list has " nexp)
	for (i = 1; i <= nexp; i++) {
		if (order[i] in ran)
			continue
		if (order[i] == prog) {
			fail("kselftest " prog ": no result, it was running " \
				"when the output ended")
			explain(0)
		} else {
			fail("kselftest " order[i] ": listed, but it never ran")
		}
	}
	for (n in ran)
		if (!(n in expected))
			fail("kselftest " n ": ran, but the list does not name it")
}
' "$1"
