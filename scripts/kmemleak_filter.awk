# Print a kmemleak report (/sys/kernel/debug/kmemleak) less the objects
# whose backtrace names a function of the file `noise` (one name a line,
# "#" comments): allocations of booting that kmemleak cannot follow, each
# named with its reason there.  Every other object is printed whole.
BEGIN {
	while ((getline l < noise) > 0) {
		sub(/#.*/, "", l)
		gsub(/[ \t]/, "", l)
		if (l != "")
			known[l] = 1
	}
}
function flush(   i) {
	if (n && !skip)
		for (i = 1; i <= n; i++)
			print obj[i]
	n = 0
	skip = 0
}
/unreferenced object/ { flush() }
{
	obj[++n] = $0
	# Backtrace lines: "    function+0x12/0x34" (6.12), or with the
	# address first, "    [<ffffffff81234567>] function+0x12/0x34".
	f = $0
	sub(/^[ \t]+(\[<[0-9a-f]+>\] )?/, "", f)
	if (f != $0 && sub(/\+0x.*/, "", f) && (f in known))
		skip = 1
}
END { flush() }
