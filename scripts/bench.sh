#!/bin/sh
# make bench: the evaluation of the 2014 GCMA RFC, redone on the kernel of
# patches/ (the check tree of make check, top of the series), GCMA against
# CMA side by side.  Boots (guest/bench_run does the work in each):
#
#   latency         a CMA and a GCMA area of the same size; a background
#                   load (guest/bg_load: anonymous memory that swaps, and
#                   reads of a file larger than memory) runs throughout.
#                   1. load: requests of 1 to 32000 pages, rounds
#                      alternating between the areas (guest/cma_bench);
#                   2. pinned: pages inside the CMA area held by vmsplice
#                      (guest/pin_pages), the same requests again.
#   cost-gcma-R, cost-none-R, cost-cma-R
#                   3. the background load alone, phase after phase: swap
#                      on the disk and on zram, the streaming load and the
#                      reuse load (pages and file pieces read again with
#                      skewed popularity), each warmed up and then measured;
#                      a GCMA boot runs each phase with lending off (the
#                      area as a plain reservation) and on, back to back.
#                      GCMA's boot is repeated (R = 1, 2, ...), the boots
#                      with no area and with a CMA area run between its
#                      repeats.  No device needs the area meanwhile
#                      (GCMA_BENCH_COST_REQUESTS=1: a request a second, as
#                      the RFC's boots made).  Their disks share a
#                      throttle: a board's flash, not the host's page
#                      cache.
#   unpatched, cmaonly
#                   (GCMA_BENCH_UNPATCHED=1) the latency boot, CMA only,
#                   the GCMA area's memory taken off the guest: on plain
#                   6.12 built with the same config, and on the series.
#   swap            (GCMA_BENCH_SWAP=1) the swap client's own figures:
#                   guest/swap_bench and guest/swap_throughput on,off.
#
# scripts/bench_report.py makes the tables (saved with the settings to
# build/logs/bench.txt), build/logs/bench.json (every figure and the
# settings) and the plot build/logs/bench-latency.svg (gnuplot).
#
# Environment (README.md, "make bench"): GCMA_BENCH_SCALE (default or
# full: the RFC's 256 MiB areas and 800 MiB of memory), GCMA_BENCH_ROUNDS,
# GCMA_BENCH_PIN_ROUNDS, GCMA_BENCH_TIMEOUT, GCMA_BENCH_PIN_STRIDE,
# GCMA_BENCH_LOAD_SECS, GCMA_BENCH_WARMUP_SECS, GCMA_BENCH_REPEATS,
# GCMA_BENCH_FULL, GCMA_BENCH_DISK_LIMIT, GCMA_BENCH_REUSE_SKEW,
# GCMA_BENCH_COST_REQUESTS, GCMA_BENCH_SWAPS, GCMA_BENCH_WORKLOADS,
# GCMA_BENCH_F2FS, GCMA_BENCH_PIN_LOADS,
# GCMA_BENCH_LATENCY, GCMA_BENCH_COST, GCMA_BENCH_UNPATCHED,
# GCMA_BENCH_SWAP, and those of scripts/qemu.sh.
set -u
here=$(dirname "$0")
# x86_64 only (GCMA_ARCH=arm64 is make check's stage g).
GCMA_ARCH=x86_64
. "$here/lib.sh"

validate_settings
lock_build_check
t0=$(now)
scale=${GCMA_BENCH_SCALE:-default}
case $scale in
default) area_mib=128 lat_mem=1024 cost_mem=1024 ;;
# The RFC's board had 800 MiB and one 256 MiB area; the latency boot holds
# two areas, so it gets the second one's 256 MiB on top.
full)	area_mib=256 lat_mem=1056 cost_mem=800 ;;
*)	die "GCMA_BENCH_SCALE=$scale: default or full" ;;
esac
area=${area_mib}M
rounds=${GCMA_BENCH_ROUNDS:-32}
pin_rounds=${GCMA_BENCH_PIN_ROUNDS:-4}
timeout=${GCMA_BENCH_TIMEOUT:-5}
stride=${GCMA_BENCH_PIN_STRIDE:-1024}
load_secs=${GCMA_BENCH_LOAD_SECS:-15}
warmup=${GCMA_BENCH_WARMUP_SECS:-15}
repeats=${GCMA_BENCH_REPEATS:-3}
full=${GCMA_BENCH_FULL:-0}
# The cost boots' disks: one budget for both, a board's flash scaled to
# the emulated CPU (README.md, "What TCG does to the figures").
disk_limit=${GCMA_BENCH_DISK_LIMIT-bps-total=31457280,iops-total=2000}
stream_mib=$((cost_mem * 5 / 4))
# The reuse load: anonymous memory 1.5 times its cgroup's limit; a file
# larger than the page cache the guest has left beside that cgroup (its
# memory less the area, the cgroup and 64 MiB), by half the area.
limit_mib=96
reuse_anon_mib=$((limit_mib * 3 / 2))
reuse_mib=$((cost_mem - area_mib / 2 - limit_mib - 64))
reuse_skew=${GCMA_BENCH_REUSE_SKEW:-0.5}
# The cost boots' swap devices and loads (a shorter run: fewer of them);
# GCMA_BENCH_F2FS=1 adds the reuse load on f2fs (reuse-f2fs) with swap on
# the disk, the same file on /dev/vdc instead of ext4's /dev/vdb.
swaps=${GCMA_BENCH_SWAPS:-vda zram}
workloads=${GCMA_BENCH_WORKLOADS:-stream reuse}
[ "${GCMA_BENCH_F2FS:-0}" = 1 ] && workloads="$workloads reuse-f2fs"
cost_requests=${GCMA_BENCH_COST_REQUESTS:-0}
# The cost boots' reader on the guest's last CPU, the workers on the
# others (bg_load -p; GCMA_BENCH_PIN_LOADS=0: sharing them all): with the
# CPUs shared, lending's speed-up of the workers (swap-ins from memory
# instead of the disk) took the reader's CPU time, and its figure
# measured how the scheduler split the CPUs, not what its hits gave it.
pin_loads=${GCMA_BENCH_PIN_LOADS:-1}
pin_words="reader and workers sharing the CPUs"
[ "$pin_loads" = 1 ] && [ "${GCMA_VM_SMP:-2}" -ge 2 ] &&
	pin_words="the reader on a CPU of its own, the workers on the others"
# Under TCG only (README.md, "What TCG does to the figures"): with KVM the
# host's CPU has fast string moves, and copy_mc_to_kernel() uses them.
mce_recovery=mce=recovery
[ "${GCMA_KVM:-0}" = 1 ] && mce_recovery=
UNPATCHED_OBJ=$BUILD/obj-unpatched
out=$LOGS/bench.txt
rm -f "$out" "$LOGS"/results-bench-*.txt "$LOGS/bench.json" "$LOGS"/bench-latency.*

ensure_base
base_line=$(describe_base)
say "$base_line"
prepare_check_tree || die "the series does not apply (log: build/logs/apply.log)"
say "building the kernel (log: build/logs/build-bench.log)"
build_kernel "$CHECK_TREE" "$CHECK_OBJ" "$LOGS/build-bench.log" || die "kernel build failed"
cp "$CHECK_OBJ/arch/x86/boot/bzImage" "$CHECK/bzImage"
if [ "${GCMA_BENCH_UNPATCHED:-0}" = 1 ]; then
	# Plain 6.12 with the series' config: olddefconfig drops the
	# symbols the series adds and keeps the rest.
	say "building plain 6.12 with the same config (log: build/logs/build-bench-unpatched.log)"
	mkdir -p "$UNPATCHED_OBJ"
	cmp -s "$CHECK_OBJ/.config" "$UNPATCHED_OBJ/.config.series" || {
		cp "$CHECK_OBJ/.config" "$UNPATCHED_OBJ/.config"
		cp "$CHECK_OBJ/.config" "$UNPATCHED_OBJ/.config.series"
	}
	{ kmake "$BUILD/base" "$UNPATCHED_OBJ" olddefconfig &&
	  kmake "$BUILD/base" "$UNPATCHED_OBJ" bzImage; } \
		>"$LOGS/build-bench-unpatched.log" 2>&1 ||
		{ tail_log "$LOGS/build-bench-unpatched.log"; die "plain 6.12 failed to build"; }
	grep -q '^CONFIG_GCMA' "$UNPATCHED_OBJ/.config" &&
		die "the plain 6.12 config has GCMA symbols: not the unpatched kernel"
fi
sh "$here/initramfs.sh" "$CHECK_TREE" "$CHECK_OBJ" "$CHECK/initramfs.cpio" >/dev/null ||
	die "initramfs failed (log: build/logs/initramfs.log)"

# progress TAG: the newest "# progress" line of the boot, as it comes.
progress() {
	_last=
	while sleep 5; do
		_l=$(tr -d '\r' <"$LOGS/results-$1.txt" 2>/dev/null |
			sed -n 's/^# progress[: ]*//p' | tail -n 1)
		[ -n "$_l" ] && [ "$_l" != "$_last" ] &&
			say "[$1 $(($(now) - t0))s] $_l"
		_last=$_l
	done
}

# boot TAG MEM_MIB AREAS TIMEOUT KERNEL APPEND [DONE]: one benchmark boot
# that must print the lines of DONE, separated by ";" (default:
# guest/bench_run's success); the file the load reads is 1.25 times the
# guest's memory (or $file_base MiB, when set), on an ext4 disk that
# holds it.  The KUnit suites built into the kernel do not run
# (kunit.enable=0): they are make check's, and would run into the load.
# mce=recovery (TCG): copy_mc_to_kernel(), which GCMA's copies and
# migration use, copies eight bytes at a time (copy_mc_fragile()) instead
# of the inlined rep movsb that TCG runs a byte at a time on a CPU
# without ERMS (README.md, "What TCG does to the figures").
# A boot fails when the guest does not end by itself, when
# guest/bench_run does not end with status 0, or when the kernel reports
# a panic, BUG, oops, warning, OOM kill, lockup or stall (less the
# warnings a KUnit case provokes on purpose, scripts/console_reports.awk).
# An atomic allocation that fails under the load's pressure (virtio-blk
# has a fallback) is counted, not a failure.
fatal="$REPORT_RE|Out of memory"
failed_boots=
# Set around the cost boots only: the others get fresh, unthrottled disks.
boot_ext4_img= boot_ext4_mib= boot_disk_limit=
boot_f2fs_img= boot_f2fs_mib=
cost_boots=
boot() {
	_tag=bench-$1 _mem=$2
	_file=$((${file_base:-$_mem} * 5 / 4))
	say "boot $_tag: ${_mem} MiB, ${3:-no area}"
	progress "$_tag" &
	_pw=$!
	_tb=$(now)
	_why=
	if GCMA_VM_MEM=${_mem}M GCMA_VM_AREAS=$3 GCMA_VM_TIMEOUT=$4 \
	   GCMA_VM_EXT4_MIB=${boot_ext4_mib:-$((_file + 512))} \
	   GCMA_VM_EXT4_IMG=$boot_ext4_img GCMA_VM_DISK_LIMIT=$boot_disk_limit \
	   GCMA_VM_F2FS_IMG=$boot_f2fs_img GCMA_VM_F2FS_MIB=${boot_f2fs_mib:-512} \
	   GCMA_VM_APPEND="${GCMA_VM_APPEND:-} kunit.enable=0 $mce_recovery bench_file_mib=$_file $6" \
	   sh "$here/qemu.sh" bench "$5" "$CHECK/initramfs.cpio" "$_tag"; then
		_res=$(tr -d '\r' <"$LOGS/results-$_tag.txt")
		_missing=$(echo "${7:-### BENCH_DONE rc=0}" | tr ';' '\n' |
			while IFS= read -r _l; do
				printf '%s\n' "$_res" | grep -qxF "$_l" ||
					printf '"%s" ' "$_l"
			done)
		[ -z "$_missing" ] || _why="no line $_missing from the guest"
		awk -v stop="$OTHER_REPORT_RE" -f "$here/console_reports.awk" "$LOGS/console-$_tag.log" \
			>"$LOGS/console-$_tag.reports"
		grep -qE "$fatal" "$LOGS/console-$_tag.reports" &&
			_why="the kernel reported: $(grep -m1 -E "$fatal" "$LOGS/console-$_tag.reports")"
		_n=$(grep -c 'page allocation failure' "$LOGS/console-$_tag.reports")
		[ "$_n" = 0 ] || say "boot $_tag: $_n atomic allocation failures under the load (console)"
	else
		_why="the guest did not finish"
	fi
	kill "$_pw" 2>/dev/null
	wait "$_pw" 2>/dev/null
	# The load's file makes each ext4 image take 1.25 times the guest's
	# memory on the host's disk.
	rm -f "$CHECK/ext4-$_tag.img" "$CHECK/swap-$_tag.img" "$CHECK/f2fs-$_tag.img"
	if [ -n "$_why" ]; then
		warn "boot $_tag failed: $_why"
		failed_boots="$failed_boots $_tag"
	else
		say "boot $_tag took $(($(now) - _tb))s"
	fi
}

# Under TCG every boot gets three times what it took on a 2-core host.
lat_append="bench_boot=latency bench_rounds=$rounds bench_pin_rounds=$pin_rounds"
lat_append="$lat_append bench_timeout=$timeout bench_pin_stride=$stride"
[ "${GCMA_BENCH_LATENCY:-1}" = 1 ] &&
	boot latency "$lat_mem" "cma=$area gcma=$area" 3600 "$CHECK/bzImage" "$lat_append"
if [ "${GCMA_BENCH_COST:-1}" = 1 ]; then
	# phases REPEAT AREA: the cost boot's phases, bench_run's
	# SWAP.WORKLOAD.LENDING list.  A GCMA boot runs every phase with
	# lending off and on, the two back to back, in the order that
	# alternates from pair to pair and from repeat to repeat, so that
	# neither always runs first.
	phases() {
		_i=$1 _list=
		for _sw in $swaps; do
			for _w in $workloads; do
				# f2fs's reuse load: with swap on the disk only.
				[ "$_w" = reuse-f2fs ] && [ "$_sw" != vda ] && continue
				if [ "$2" != gcma ]; then
					_list="$_list,$_sw.$_w.-"
				elif [ $((_i % 2)) = 1 ]; then
					_list="$_list,$_sw.$_w.off,$_sw.$_w.on"
				else
					_list="$_list,$_sw.$_w.on,$_sw.$_w.off"
				fi
				_i=$((_i + 1))
			done
		done
		echo "${_list#,}"
	}
	# cost AREA REPEAT: one cost boot.
	cost() {
		case $1 in
		none)	_areas= ;;
		cma)	_areas="cma=$area" ;;
		gcma)	_areas="gcma=$area" ;;
		esac
		_ph=$(phases "$2" "$1")
		_n=$(echo "$_ph" | tr , '\n' | wc -l)
		cost_boots="$cost_boots cost-$1-$2"
		boot "cost-$1-$2" "$cost_mem" "$_areas" \
			$(((warmup + load_secs + 120) * _n * 3 + 1800)) "$CHECK/bzImage" \
			"bench_boot=cost bench_area=$1 bench_requests=$cost_requests bench_pin_loads=$pin_loads bench_phases=$_ph bench_warmup=$warmup bench_load_secs=$load_secs bench_limit_mib=$limit_mib bench_reuse_anon_mib=$reuse_anon_mib bench_reuse_file_mib=$reuse_mib bench_reuse_skew=$reuse_skew"
	}
	# The two files of the loads are written once, by the first boot,
	# on an image the others find them on.
	boot_ext4_img=$CHECK/ext4-bench-cost.img
	boot_ext4_mib=$((stream_mib + reuse_mib + 512))
	boot_disk_limit=$disk_limit
	rm -f "$boot_ext4_img"
	case " $workloads " in
	*" reuse-f2fs "*)
		boot_f2fs_img=$CHECK/f2fs-bench-cost.img
		boot_f2fs_mib=$((reuse_mib + 512))
		rm -f "$boot_f2fs_img" ;;
	esac
	# GCMA repeated, its lending off and on in the same boot; the
	# boots without a GCMA area between its repeats, once each
	# (GCMA_BENCH_FULL=1: as many times as GCMA, in turn).
	r=1
	while [ $r -le "$repeats" ]; do
		if [ "$full" = 1 ]; then
			case $((r % 3)) in
			1) order="gcma none cma" ;;
			2) order="none cma gcma" ;;
			0) order="cma gcma none" ;;
			esac
		else
			order=gcma
			[ $r = 1 ] && order="gcma none"
			[ $r = 2 ] && order="gcma cma"
			[ "$repeats" = 1 ] && order="gcma none cma"
		fi
		for a in $order; do
			cost "$a" "$r"
		done
		r=$((r + 1))
	done
	rm -f "$boot_ext4_img" ${boot_f2fs_img:+"$boot_f2fs_img"}
	boot_ext4_img= boot_ext4_mib= boot_disk_limit=
	boot_f2fs_img= boot_f2fs_mib=
fi
if [ "${GCMA_BENCH_UNPATCHED:-0}" = 1 ]; then
	# Both without the GCMA area, whose memory the latency boot does not
	# count as the system's, so that all three have the same MemTotal;
	# the series' kernel once more with the CMA area alone, so that the
	# two kernels run the very same thing.
	# The load reads the latency boot's file size.
	file_base=$lat_mem
	boot unpatched $((lat_mem - area_mib)) "cma=$area" 3600 \
		"$UNPATCHED_OBJ/arch/x86/boot/bzImage" "$lat_append"
	boot cmaonly $((lat_mem - area_mib)) "cma=$area" 3600 \
		"$CHECK/bzImage" "$lat_append"
	file_base=
fi
if [ "${GCMA_BENCH_SWAP:-0}" = 1 ]; then
	boot swap 1024 "cma=128M gcma=128M" 1800 "$CHECK/bzImage" \
		"bench_swapbench=1 bench_tput=on,off" \
		"### END swapbench rc=0;### END swaptput rc=0;### HARNESS DONE"
fi

accel=TCG
[ "${GCMA_KVM:-0}" = 1 ] && accel=KVM
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "# $(git -C "$CHECK_TREE" log -1 --format='%h %s') ($(series_patches | wc -l) patches)"
	echo "# $base_line"
	echo "# host: $(nproc) CPUs ($cpu), $(uname -r); QEMU $accel," \
		"${GCMA_VM_SMP:-2} guest CPUs; $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "# scale $scale: areas of $area, guest memory ${lat_mem} MiB (latency)" \
		"and ${cost_mem} MiB (cost); $rounds rounds under load, $pin_rounds" \
		"with pins (one per $stride pages, requests given up after ${timeout} s)"
	echo "# cost boots:$cost_boots; phases of ${warmup} s warm-up and" \
		"${load_secs} s measured, each load primed ${warmup} s first;" \
		"files of $stream_mib MiB (stream) and $reuse_mib MiB (reuse, skew $reuse_skew);" \
		"disks throttled to ${disk_limit:-nothing}; $pin_words"
	echo
	$PYTHON -B "$here/bench_report.py" "$LOGS" "$LOGS/bench.json" "$LOGS" \
		base="$base_line" host_cpus="$(nproc)" host_cpu="$cpu" accel=$accel \
		guest_cpus="${GCMA_VM_SMP:-2}" scale=$scale area=$area \
		latency_mem_mib=$lat_mem cost_mem_mib=$cost_mem rounds=$rounds \
		pin_rounds=$pin_rounds timeout_s=$timeout pin_stride=$stride \
		load_secs=$load_secs warmup_s=$warmup repeats=$repeats full=$full \
		disk_limit="$disk_limit" stream_mib=$stream_mib reuse_mib=$reuse_mib \
		reuse_skew=$reuse_skew cost_requests=$cost_requests pin_loads=$pin_loads \
		cost_boots="$cost_boots" cost="${GCMA_BENCH_COST:-1}" latency="${GCMA_BENCH_LATENCY:-1}" \
		swaps="$swaps" workloads="$workloads" \
		unpatched="${GCMA_BENCH_UNPATCHED:-0}" \
		series="$(git -C "$CHECK_TREE" log -1 --format=%h)"
	echo "report_rc=$?"
	if [ "${GCMA_BENCH_SWAP:-0}" = 1 ]; then
		echo
		echo "[ The swap client's own figures (GCMA_BENCH_SWAP=1) ]"
		tr -d '\r' <"$LOGS/results-bench-swap.txt" 2>/dev/null |
			grep -v -e '^### [BH]' -e '^SWAP' -e '^# progress'
	fi
} >"$out.tmp" 2>&1
report_rc=$(sed -n 's/^report_rc=//p' "$out.tmp")
grep -v '^report_rc=' "$out.tmp" >"$out"
rm -f "$out.tmp"
cat "$out"
say "saved build/logs/bench.txt, bench.json and bench-latency.svg ($(($(now) - t0))s)"
for tag in $failed_boots; do
	tail_log "$LOGS/console-$tag.log" 20
	warn "error: the guest $tag failed (console: build/logs/console-$tag.log)"
done
[ -z "$failed_boots" ] || die "boots that failed:$failed_boots"
[ "$report_rc" = 0 ] || die "the results say data came back wrong or GCMA failed a request (above)"
