#!/bin/sh
# make bench: build the kernel of patches/ (the check tree of make check,
# top of the series only), boot it with harness=bench and print the CMA vs
# GCMA allocation latency table, then the swap client's figures (swap-in
# latency, cache share, whole-area allocation when full); all is saved to
# build/logs/bench.txt.
#
# Environment: GCMA_BENCH_ROUNDS (default 32), GCMA_BENCH_FILL (MiB of
# tmpfs filled before measuring, default 0), and those of scripts/qemu.sh.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

validate_settings
t0=$(now)
ensure_base
base_line=$(describe_base)
say "$base_line"
prepare_check_tree || die "the series does not apply (log: build/logs/apply.log)"
say "building the kernel (log: build/logs/build-bench.log)"
build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/build-bench.log" || die "kernel build failed"
cp "$CHECK_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
cp "$CHECK_OBJ/.config" "$CHECK/config"
sh "$here/initramfs.sh" "$CHECK_TREE" "$CHECK_OBJ" "$CHECK/initramfs.cpio" >/dev/null ||
	die "initramfs failed (log: build/logs/initramfs.log)"

GCMA_VM_APPEND="${GCMA_VM_APPEND:-} ${GCMA_BENCH_ROUNDS:+bench_rounds=$GCMA_BENCH_ROUNDS} ${GCMA_BENCH_FILL:+bench_fill=$GCMA_BENCH_FILL}"
export GCMA_VM_APPEND
sh "$here/qemu.sh" bench "$CHECK/bzImage" "$CHECK/initramfs.cpio" || die "the benchmark guest failed"

results=$LOGS/results-bench.txt
out=$LOGS/bench.txt
tr -d '\r' <"$results" | sed -n '/^### BEGIN bench$/,/^### END bench rc=/p' |
	sed '1d' >"$out.tmp"
rc=$(sed -n 's/^### END bench rc=//p' "$out.tmp")
sed -i '/^### END bench rc=/d' "$out.tmp"
tr -d '\r' <"$results" | sed -n '/^### BEGIN swapbench$/,/^### END swapbench rc=/p' |
	sed '1d' >"$out.swap"
swaprc=$(sed -n 's/^### END swapbench rc=//p' "$out.swap")
sed -i '/^### END swapbench rc=/d' "$out.swap"
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
} >"$out"
rm -f "$out.swap"
rm -f "$out.tmp"
cat "$out"
if [ -z "$rc" ]; then
	tail_log "$LOGS/console-bench.log"
	die "no benchmark results (console: build/logs/console-bench.log)"
fi
say "saved build/logs/bench.txt ($(($(now) - t0))s)"
[ "$rc" -eq 0 ] || die "cma_bench exited with status $rc (failed allocations?)"
[ "${swaprc:-1}" -eq 0 ] ||
	warn "swap_bench exited with status ${swaprc:-none}: its figures are missing or partial"
