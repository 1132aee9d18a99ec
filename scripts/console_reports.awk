# Print a kernel console log without the warnings a test said it provokes.
#
# A KUnit case that calls a function with a bad argument on purpose, to
# show that the kernel warns and carries on, first logs
#	"expect a warning from FUNCTION"
# The next WARNING raised in FUNCTION, up to its "---[ end trace" line, is
# then left out; one declaration covers one warning, and only until the
# case ends (its "ok"/"not ok" line).  Every other line is printed, for
# check.sh to search for kernel reports.
{ sub(/\r$/, "") }
skipping {
	if ($0 ~ /---\[ end trace/)
		skipping = 0
	next
}
/expect a warning from [A-Za-z0-9_]+/ {
	fn = $0
	sub(/.*expect a warning from /, "", fn)
	sub(/[^A-Za-z0-9_].*/, "", fn)
	expected[fn]++
}
/^[ \t]*(not )?ok [0-9]+ / { split("", expected) }
/WARNING: CPU: [0-9]+ PID: [0-9]+ at / {
	fn = $0
	sub(/.* at [^ ]+ /, "", fn)
	sub(/\+.*/, "", fn)
	if (expected[fn] > 0) {
		expected[fn]--
		skipping = 1
		next
	}
}
{ print }
