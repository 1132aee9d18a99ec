#!/bin/sh
# make bench: build the kernel of patches/ (the check tree of make check,
# top of the series only), boot it with harness=bench and print the CMA vs
# GCMA allocation latency table, then the swap client's figures (swap-in
# latency, cache share, first allocation of 4096, 16384, 32000 pages and
# of the whole area when it is full of cached copies against empty), then
# the swap throughput comparison; all is saved to build/logs/bench.txt.
#
# The swap throughput comparison (guest/swap_throughput.c: a process
# writes 4 times its cgroup's limit, then reads it back; pages per second
# out and in) takes four settings of GCMA, each against the first:
#   compiled out     the series built with config/nogcma.config (objects
#                    in build/check/obj-nogcma), booted with cma=128M only
#   no area          the GCMA kernel booted with cma=128M only
#   client off, on   the GCMA kernel with its area (the boot of the latency
#                    figures), rounds of the two alternating
# so it costs a second kernel build and two more boots.
#
# Environment: GCMA_BENCH_ROUNDS (default 32), GCMA_BENCH_FILL (MiB of
# tmpfs filled before measuring, default 0, in every boot),
# GCMA_BENCH_THROUGHPUT (1, the default: run the throughput comparison;
# 0: skip it, and its build and boots), and those of scripts/qemu.sh.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

validate_settings
t0=$(now)
tput=${GCMA_BENCH_THROUGHPUT:-1}
NOGCMA_OBJ=$CHECK/obj-nogcma
ensure_base
base_line=$(describe_base)
say "$base_line"
prepare_check_tree || die "the series does not apply (log: build/logs/apply.log)"
say "building the kernel (log: build/logs/build-bench.log)"
build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/build-bench.log" || die "kernel build failed"
cp "$CHECK_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
cp "$CHECK_OBJ/.config" "$CHECK/config"
if [ "$tput" = 1 ]; then
	say "building the kernel without GCMA, for the throughput comparison (log: build/logs/build-bench-nogcma.log)"
	KCONFIG_EXTRA=nogcma.config build_kernel "$CHECK_TREE" "$NOGCMA_OBJ" \
		"$LOGS/build-bench-nogcma.log" ||
		die "the kernel without GCMA (config/nogcma.config) failed to build"
fi
sh "$here/initramfs.sh" "$CHECK_TREE" "$CHECK_OBJ" "$CHECK/initramfs.cpio" >/dev/null ||
	die "initramfs failed (log: build/logs/initramfs.log)"

append="${GCMA_VM_APPEND:-} ${GCMA_BENCH_FILL:+bench_fill=$GCMA_BENCH_FILL}"
tb=$(now)
tput_arg=
[ "$tput" = 1 ] && tput_arg="bench_tput=on,off"
GCMA_VM_APPEND="$append ${GCMA_BENCH_ROUNDS:+bench_rounds=$GCMA_BENCH_ROUNDS} $tput_arg" \
	sh "$here/qemu.sh" bench "$CHECK/bzImage" "$CHECK/initramfs.cpio" ||
	die "the benchmark guest failed"
say "the benchmark guest took $(($(now) - tb))s"

# The boots without a GCMA area: their failure is said after the figures
# of the others.
failed_boots=
if [ "$tput" = 1 ]; then
	for b in noarea:"$CHECK/bzImage" nogcma:"$NOGCMA_OBJ/arch/x86/boot/bzImage"; do
		tag=bench-${b%%:*} kernel=${b#*:} setting=${b%%:*}
		[ "$setting" = nogcma ] && setting=out
		tb=$(now)
		if GCMA_VM_AREAS="cma=128M" \
		   GCMA_VM_APPEND="$append bench_latency=0 bench_tput=$setting" \
		   sh "$here/qemu.sh" bench "$kernel" "$CHECK/initramfs.cpio" "$tag"; then
			say "the guest of setting $setting took $(($(now) - tb))s"
		else
			failed_boots="$failed_boots $tag"
		fi
	done
fi

# section TAG NAME FILE: the lines of build/logs/results-TAG.txt between
# "### BEGIN NAME" and "### END NAME rc=N" into FILE; prints N, nothing
# when the section did not end.
section() {
	[ -f "$LOGS/results-$1.txt" ] || { : >"$3"; return 0; }
	tr -d '\r' <"$LOGS/results-$1.txt" |
		sed -n "/^### BEGIN $2\$/,/^### END $2 rc=/p" | sed '1d' >"$3"
	sed -n "s/^### END $2 rc=//p" "$3"
	sed -i "/^### END $2 rc=/d" "$3"
}

out=$LOGS/bench.txt
rc=$(section bench bench "$out.tmp")
swaprc=$(section bench swapbench "$out.swap")
: >"$out.tput"
tputrc=
if [ "$tput" = 1 ]; then
	tputrc=$(section bench swaptput "$out.tput-on")
	noarearc=$(section bench-noarea swaptput "$out.tput-noarea")
	outrc=$(section bench-nogcma swaptput "$out.tput-out")
	# The rounds, errors and summaries; the table of each boot is left
	# out for tput_table's, which has the three boots.
	cat "$out.tput-out" "$out.tput-noarea" "$out.tput-on" |
		grep -v -e '^  ' -e '^swap throughput (' -e '^$' >"$out.tput"
	rm -f "$out.tput-out" "$out.tput-noarea" "$out.tput-on"
fi

# tput_table: the settings side by side from the SWAPTPUT_SUMMARY lines
# of the three boots, each figure's median (min-max) and the ratio of its
# median to compiled out's.
tput_table() {
	awk '
	function val(k,   i, kv) {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == k)
				return kv[2]
		}
		return ""
	}
	/^SWAPTPUT_SUMMARY / {
		s = val("setting")
		have[s] = 1
		ok[s] = val("rounds") "/" val("tried")
		for (d = 0; d < 2; d++) {
			k = d ? "in_pps" : "out_pps"
			med[s, d] = val(k "_median")
			rng[s, d] = val(k "_min") "-" val(k "_max")
		}
		size = val("size_mib")
		limit = val("limit_mib")
	}
	function ratio(s, d) {
		if (med["out", d] !~ /^[0-9.]+$/ || med["out", d] + 0 == 0 ||
		    med[s, d] !~ /^[0-9.]+$/)
			return "-"
		return sprintf("%.2f", med[s, d] / med["out", d])
	}
	END {
		n = split("out noarea off on", order, " ")
		label["out"] = "GCMA compiled out"
		label["noarea"] = "no area"
		label["off"] = "area, client off"
		label["on"] = "area, client on"
		printf "swap throughput, a process writing %s MiB in a %s MiB cgroup, then reading it back\n",
		       size == "" ? "?" : size, limit == "" ? "?" : limit
		printf "(pages/s: median of the rounds that counted, min-max; vs out: ratio of medians to compiled out):\n"
		printf "  %-18s %5s  %-22s %6s  %-22s %6s\n", "setting", "ok",
		       "out/s median (min-max)", "vs out", "in/s median (min-max)", "vs out"
		for (i = 1; i <= n; i++) {
			s = order[i]
			if (!have[s]) {
				printf "  %-18s no result\n", label[s]
				continue
			}
			printf "  %-18s %5s  %-22s %6s  %-22s %6s\n", label[s], ok[s],
			       med[s, 0] " (" rng[s, 0] ")", ratio(s, 0),
			       med[s, 1] " (" rng[s, 1] ")", ratio(s, 1)
		}
	}' "$out.tput"
}

{
	echo "# $(git -C "$CHECK_TREE" log -1 --format='%h %s') ($(series_patches | wc -l) patches)"
	echo "# $base_line"
	accel=TCG
	[ "${GCMA_KVM:-0}" = 1 ] && accel=KVM
	echo "# guest: QEMU $accel, ${GCMA_VM_MEM:-1G} memory, ${GCMA_VM_SMP:-2} CPUs;" \
		"host: $(nproc) CPUs, $(uname -r); $(date -u +%Y-%m-%dT%H:%MZ)"
	cat "$out.tmp"
	echo
	cat "$out.swap"
	if [ "$tput" = 1 ]; then
		echo
		echo "# swap throughput: GCMA compiled out (config/nogcma.config) and no area" \
			"boot with cma=128M only, client off and on with cma=128M gcma=128M"
		cat "$out.tput"
		echo
		tput_table
	fi
} >"$out"
rm -f "$out.swap" "$out.tmp" "$out.tput"
cat "$out"
if [ -z "$rc" ]; then
	tail_log "$LOGS/console-bench.log"
	die "no benchmark results (console: build/logs/console-bench.log)"
fi
say "saved build/logs/bench.txt ($(($(now) - t0))s)"
[ "$rc" -eq 0 ] || die "cma_bench exited with status $rc (failed allocations?)"
[ "${swaprc:-1}" -eq 0 ] ||
	warn "swap_bench exited with status ${swaprc:-none}: its figures are missing or partial"
[ "$tput" = 1 ] || exit 0
for t in bench:"on, off:$tputrc" bench-noarea:"noarea:$noarearc" bench-nogcma:"out:$outrc"; do
	tag=${t%%:*} setting=${t#*:}
	trc=${setting#*:} setting=${setting%%:*}
	case " $failed_boots " in *" $tag "*) continue ;; esac
	case ${trc:-none} in
	0) ;;
	3) die "swap_throughput read back data that it had not written (setting $setting; console: build/logs/console-$tag.log)" ;;
	*) warn "swap_throughput (setting $setting) exited with status ${trc:-none}: its figures are missing or partial" ;;
	esac
done
for tag in $failed_boots; do
	tail_log "$LOGS/console-$tag.log" 20
	warn "error: the guest $tag failed (console: build/logs/console-$tag.log)"
done
[ -z "$failed_boots" ] || die "no throughput figures from:$failed_boots"
