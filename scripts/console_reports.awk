# Print a kernel console log without the warnings a test said it provokes.
#
# A KUnit case that calls a function with a bad argument on purpose, to
# show that the kernel warns and carries on, first logs
#	"expect a warning from FUNCTION"
# Until that case ends (its "ok"/"not ok" line), the next WARNING raised in
# FUNCTION is left out, up to its "---[ end trace" line (at most 60 lines,
# and never past the start of another report), and so are GCMA's
# "gcma: free of pfn ...: ignored" lines, the message that goes with it.
# Every other line is printed, for check.sh to search for kernel reports.
# Any other report (stop, an ERE: lib.sh's REPORT_RE and the page
# allocation failures) ends the leaving out at once, so that a report
# that interleaves with the expected warning is still printed.
# Console timestamps (CONFIG_PRINTK_TIME) are allowed.
{
	sub(/\r$/, "")
	line = $0
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line)
}
skipping && /---\[ end trace/ { skipping = 0; next }
skipping && ++skipped > 60 { skipping = 0 }
skipping && !/(WARNING:|BUG:|Oops|INFO:|Kernel panic|======)/ && (stop == "" || $0 !~ stop) { next }
{ skipping = 0 }
/expect a warning from [A-Za-z0-9_]+/ {
	fn = $0
	sub(/.*expect a warning from /, "", fn)
	sub(/[^A-Za-z0-9_].*/, "", fn)
	expected[fn]++
	declared = 1
}
line ~ /^[ \t]*(not )?ok [0-9]+ / { split("", expected); declared = 0 }
declared && /gcma: free of pfn .*: ignored$/ { next }
/WARNING: CPU: [0-9]+ PID: [0-9]+ at / {
	fn = $0
	sub(/.* at [^ ]+ /, "", fn)
	sub(/\+.*/, "", fn)
	if (expected[fn] > 0) {
		expected[fn]--
		skipping = 1
		skipped = 0
		next
	}
}
{ print }
