#!/bin/sh
# Boot the test kernel in QEMU: x86_64's pc, or with GCMA_ARCH=arm64
# (lib.sh) arm64's virt, or with GCMA_ARCH=arm 32-bit ARM's virt with
# 2 GiB and highmem=off (no memory above 4 GiB; HighMem is then the upper
# 1.25 GiB); on both, the device tree of scripts/dtb.sh declares the
# areas.
#
# usage: scripts/qemu.sh MODE KERNEL INITRAMFS [TAG]
#   MODE  test | params | bench | hibernate | resume | shell (passed to
#         guest/init as harness=MODE)
#   TAG   names the logs (default: MODE)
# The kernel console (ttyS0) goes to build/logs/console-TAG.log, the
# guest's results (ttyS1) to build/logs/results-TAG.txt.  In shell mode the
# console is on stdio instead.  The guest gets three virtio disks, made
# afresh at every boot: /dev/vda, blank, 512 MiB, to swap on; /dev/vdb,
# an empty ext4 file system (1 GiB) for the file-cache tests (mkfs.ext4,
# package e2fsprogs; GCMA_VM_EXT4_IMG keeps it instead); /dev/vdc, an
# empty f2fs file system (512 MiB, with compression) for the same tests
# (mkfs.f2fs, package f2fs-tools).  Exit status: 0 when the guest ended
# by itself, 1 on a timeout or a QEMU error.
#
# Environment: GCMA_VM_TIMEOUT (seconds, default 1200), GCMA_VM_SILENCE
# (seconds without output on either port before the guest is taken for
# hung and stopped, default 1200), GCMA_KVM=1 (use
# KVM instead of TCG), GCMA_VM_MEM (default 1G, 2G on arm), GCMA_VM_SMP
# (default 2), GCMA_VM_APPEND (extra kernel command line); GCMA_VM_AREAS
# (the areas reserved at boot, default "cma=128M gcma=128M" on x86_64,
# none on arm64 and arm, whose device trees have them; set and empty:
# none),
# GCMA_VM_EXT4_MIB (the size of /dev/vdb, default 1024), GCMA_VM_EXT4_IMG
# (/dev/vdb's image: made on the first boot, kept for the next ones, which
# find its files there; the caller removes it), GCMA_VM_SWAP_IMG (the
# same for /dev/vda: a hibernation image written there is resumed by the
# next boot), GCMA_VM_F2FS_MIB and GCMA_VM_F2FS_IMG (the same for
# /dev/vdc, default 512 MiB), GCMA_VM_DISK_LIMIT
# (QEMU's throttling.* options, e.g. "bps-total=20971520,iops-total=500":
# one budget the two disks share, as a board's swap and file system share
# one flash chip; default none).
set -u
here=$(dirname "$0")
. "$here/lib.sh"

[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: $0 test|params|bench|hibernate|resume|shell KERNEL INITRAMFS [TAG]"
mode=$1 kernel=$2 initrd=$3 tag=${4:-$1}
case $mode in test|params|bench|hibernate|resume|shell) ;; *) die "unknown mode $mode" ;; esac
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

timeout=${GCMA_VM_TIMEOUT:-1200}
accel="-accel tcg"
# Under TCG the guest's clock follows the host's while its vCPUs may not
# run (a debug kernel once stalled 26 s in ACPI's boot-time parsing):
# the soft-lockup watchdog waits 120 s instead of 20 before it reports,
# and the RCU stall detector 120 s instead of 21 (a debug boot's RCU
# kthread was once starved 26 s, right after the TSC's recalibration).
# A real lockup or stall never ends, and is still reported.
watchdog="watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
[ "${GCMA_KVM:-0}" = 1 ] && accel="-accel kvm -cpu host" && watchdog=
[ "${GCMA_KVM:-0}" = 1 ] && [ "$GCMA_ARCH" != x86_64 ] && die "GCMA_KVM=1 is for x86_64 guests only"
console=$LOGS/console-$tag.log
results=$LOGS/results-$tag.txt
disk=${GCMA_VM_SWAP_IMG:-$CHECK/swap-$tag.img}
ext4=${GCMA_VM_EXT4_IMG:-$CHECK/ext4-$tag.img}
f2fs=${GCMA_VM_F2FS_IMG:-$CHECK/f2fs-$tag.img}
mkdir -p "$LOGS" "$CHECK"
rm -f "$console" "$results"
[ -n "${GCMA_VM_SWAP_IMG:-}" ] || rm -f "$disk"
[ -n "${GCMA_VM_EXT4_IMG:-}" ] || rm -f "$ext4"
[ -n "${GCMA_VM_F2FS_IMG:-}" ] || rm -f "$f2fs"
# Sparse, and new at every boot unless GCMA_VM_SWAP_IMG keeps it: no
# state carries over between runs.
[ -f "$disk" ] || truncate -s 512M "$disk" || die "cannot create $disk"
# mkfs_tool NAME: the path of mkfs.NAME, which lives in /sbin or
# /usr/sbin, which a user's PATH may lack; empty if there is none.
mkfs_tool() {
	for _m in "$(command -v "mkfs.$1" 2>/dev/null)" "/sbin/mkfs.$1" "/usr/sbin/mkfs.$1"; do
		[ -n "$_m" ] && [ -x "$_m" ] && { echo "$_m"; return; }
	done
}
mkfs_ext4=$(mkfs_tool ext4)
[ -n "$mkfs_ext4" ] || die "mkfs.ext4 not found (package e2fsprogs; run 'make deps')"
mkfs_f2fs=$(mkfs_tool f2fs)
[ -n "$mkfs_f2fs" ] || die "mkfs.f2fs not found (package f2fs-tools; run 'make deps')"
# Inode tables and journal are initialised here (as zero ranges: the
# image stays mostly sparse), so that no ext4lazyinit thread writes to the
# disk in the guest while the tests measure.
if [ -f "$ext4" ]; then
	:	# GCMA_VM_EXT4_IMG's, from an earlier boot
elif ! truncate -s "${GCMA_VM_EXT4_MIB:-1024}M" "$ext4" ||
   ! "$mkfs_ext4" -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$ext4"; then
	rm -f "$ext4"
	die "cannot make an ext4 file system in $ext4 with $mkfs_ext4"
fi
# extra_attr and compression: file_test writes compressed files too.
if [ -f "$f2fs" ]; then
	:	# GCMA_VM_F2FS_IMG's, from an earlier boot
elif ! truncate -s "${GCMA_VM_F2FS_MIB:-512}M" "$f2fs" ||
   ! "$mkfs_f2fs" -q -f -O extra_attr,compression "$f2fs" >/dev/null; then
	rm -f "$f2fs"
	die "cannot make an f2fs file system in $f2fs with $mkfs_f2fs"
fi
# ",throttling.group=disks,throttling.bps-total=..." from "bps-total=...".
throttle=
if [ -n "${GCMA_VM_DISK_LIMIT:-}" ]; then
	throttle=",throttling.group=disks"
	for o in $(echo "$GCMA_VM_DISK_LIMIT" | tr ',' ' '); do
		throttle="$throttle,throttling.$o"
	done
fi
if [ "$GCMA_ARCH" != x86_64 ]; then
	# virt: virtio-mmio disks (the last one given is /dev/vda), the
	# results on a virtio console (/dev/hvc0), virt's one UART the
	# console.  The device tree declares the areas (scripts/dtb.sh); it
	# describes the memory and CPUs too, so it is made for this boot's.
	dtb=$CHECK/virt-$tag.dtb
	sh "$here/dtb.sh" "$dtb" || die "no device tree for the $GCMA_ARCH guest"
	if [ "$GCMA_ARCH" = arm64 ]; then
		qemu_system="qemu-system-aarch64 -M virt -cpu cortex-a57 -dtb $dtb"
		append="cma_test_areas=cma@50000000"
	else
		qemu_system="qemu-system-arm -M virt,highmem=off -cpu cortex-a15 -dtb $dtb"
		append="cma_test_areas=cma@98000000"
	fi
	areas=${GCMA_VM_AREAS-}
	machine="-drive file=$f2fs,if=none,format=raw,cache=unsafe,id=f2fs$throttle"
	machine="$machine -device virtio-blk-device,drive=f2fs"
	machine="$machine -drive file=$ext4,if=none,format=raw,cache=unsafe,id=ext4$throttle"
	machine="$machine -device virtio-blk-device,drive=ext4"
	machine="$machine -drive file=$disk,if=none,format=raw,cache=unsafe,id=swap$throttle"
	machine="$machine -device virtio-blk-device,drive=swap"
	machine="$machine -device virtio-serial-device -device virtconsole,chardev=results"
	console_ports="-serial file:$console -chardev file,id=results,path=$results"
	append="console=ttyAMA0 results_port=/dev/hvc0 $append"
else
	qemu_system=qemu-system-x86_64
	machine="-drive file=$disk,if=virtio,format=raw,cache=unsafe$throttle"
	machine="$machine -drive file=$ext4,if=virtio,format=raw,cache=unsafe$throttle"
	machine="$machine -drive file=$f2fs,if=virtio,format=raw,cache=unsafe$throttle"
	console_ports="-serial file:$console -serial file:$results"
	# tsc=reliable: under TCG the jiffies watchdog misjudges the TSC and
	# the clock would fall back to 4 ms jiffies, useless for the benchmark.
	# pci=noacpi: the BIOS's PCI routing table, not the DSDT's _PRT,
	# whose AML loop a debug kernel under TCG runs for ACPICA's whole
	# 30 s loop timeout at each virtio disk, a minute of every boot.
	append="console=ttyS0 tsc=reliable pci=noacpi"
	areas=${GCMA_VM_AREAS-cma=128M gcma=128M}
fi
append="$append panic=-1 $watchdog $areas harness=$mode ksft_timeout_mult=$(ksft_timeout_mult) ${GCMA_VM_APPEND:-}"

if [ "$mode" = shell ]; then
	# Interactive: console and QEMU monitor (Ctrl-A c) on this terminal.
	exec $qemu_system $accel -m "${GCMA_VM_MEM:-$VM_MEM}" -smp "${GCMA_VM_SMP:-2}" \
		-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" $machine \
		$(echo "$console_ports" | sed 's/-serial file:[^ ]*/-serial mon:stdio/') \
		-append "$append"
fi

say "booting ($tag, timeout ${timeout}s, console: ${console#"$ROOT"/})"
# In the background, so that a signal to this script (Ctrl-C, a killed
# make) can end QEMU at once: the trap stops it and waits for it.
# --foreground keeps timeout in our process group.  The trap is set first,
# so that no signal can fall between the start and the trap.
qemu=
trap '[ -n "$qemu" ] && { kill -TERM $qemu 2>/dev/null; wait $qemu; }; warn "interrupted: QEMU stopped"; exit 130' INT TERM HUP
timeout --foreground -k 10 "$timeout" $qemu_system $accel \
	-m "${GCMA_VM_MEM:-$VM_MEM}" -smp "${GCMA_VM_SMP:-2}" \
	-nographic -monitor none -no-reboot \
	-kernel "$kernel" -initrd "$initrd" $machine $console_ports \
	-append "$append" </dev/null >"$LOGS/qemu-$tag.log" 2>&1 &
qemu=$!
# A guest that hangs with its timers stopped prints nothing and trips no
# detector of its own: stop it once neither port has grown for
# GCMA_VM_SILENCE seconds (default 1200, longer than any test's silence).
silence=${GCMA_VM_SILENCE:-1200}
rm -f "$LOGS/qemu-$tag.silent"
(
	last= quiet=0
	while sleep 10; do
		size=$(cat "$console" "$results" 2>/dev/null | wc -c)
		if [ "$size" = "$last" ]; then
			quiet=$((quiet + 10))
		else
			quiet=0 last=$size
		fi
		if [ $quiet -ge "$silence" ]; then
			echo "silent for ${silence}s" >"$LOGS/qemu-$tag.silent"
			kill -TERM $qemu 2>/dev/null
			exit 0
		fi
	done
) 9>&- &	# not holding the lock of build/check (lib.sh) after QEMU ends
watcher=$!
wait $qemu
rc=$?
kill $watcher 2>/dev/null
wait $watcher 2>/dev/null
trap - INT TERM HUP
if [ -f "$LOGS/qemu-$tag.silent" ]; then
	warn "the guest printed nothing for ${silence}s (GCMA_VM_SILENCE): a hang; killed"
	tail_log "$console"
	exit 1
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	warn "the guest did not finish within ${timeout}s (GCMA_VM_TIMEOUT); killed"
	tail_log "$console"
	exit 1
elif [ $rc -ne 0 ]; then
	warn "${qemu_system%% *} exited with status $rc: $(tail -n 3 "$LOGS/qemu-$tag.log" | tr '\n' ' ')"
	exit 1
fi
exit 0
