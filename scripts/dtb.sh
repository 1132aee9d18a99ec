#!/bin/sh
# Write the device tree of the arm64 or 32-bit ARM test guest ($GCMA_ARCH,
# lib.sh): QEMU virt's own tree for the guest's memory and CPUs, plus the
# reserved-memory nodes of the areas.
#
# usage: scripts/dtb.sh OUT.dtb
# Environment: GCMA_VM_MEM, GCMA_VM_SMP (as scripts/qemu.sh takes them; the
# tree describes them, so both must match the boot).
#
# The areas (RAM starts at 1 GiB; QEMU loads the kernel, the initramfs
# and the tree in its first 256 MiB).  arm64, 1 GiB:
#   cma@50000000   128 MiB plain CMA area, for the tests' comparisons
#   gcma@58000000  128 MiB GCMA area (linux,gcma), the one the KUnit
#                  suites and most kselftests take whole
#   gcma@68000000  64 MiB GCMA area, the default DMA area (DMA atomic
#                  pools hold pages of it); dma_users_test's
# and four nodes the kernel must refuse, with a message: linux,gcma with
# no-map (at a fixed base, and placed by the kernel at boot), linux,gcma
# without reusable, and linux,gcma on a base that is not
# pageblock-aligned.  32-bit ARM, 2 GiB, whose HighMem starts at
# 0x70000000: the same three areas at 0x98000000, 0xa0000000 and
# 0xa8000000, all in HighMem.
set -u
here=$(dirname "$0")
. "$here/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUT.dtb"
out=$1
work=$out.d
mkdir -p "$work"
command -v dtc >/dev/null || die "dtc missing (package device-tree-compiler; run 'make deps')"

case $GCMA_ARCH in
arm64)	qemu="qemu-system-aarch64 -M virt,dumpdtb=$work/virt.dtb -cpu cortex-a57"
	cma=50000000 gcma=58000000 gcma_default=68000000 ;;
arm)	qemu="qemu-system-arm -M virt,highmem=off,dumpdtb=$work/virt.dtb -cpu cortex-a15"
	cma=98000000 gcma=a0000000 gcma_default=a8000000 ;;
*)	die "no device tree for GCMA_ARCH=$GCMA_ARCH" ;;
esac
$qemu -m "${GCMA_VM_MEM:-$VM_MEM}" -smp "${GCMA_VM_SMP:-2}" -nographic \
	>"$work/dumpdtb.log" 2>&1 ||
	{ tail_log "$work/dumpdtb.log"; die "${qemu%% *} could not dump virt's device tree"; }
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/virt.dtb" ||
	die "dtc cannot read QEMU's device tree"

# A second root node in the same source merges into the first.
{
	cat "$work/virt.dts"
	cat <<EOF

/ {
	reserved-memory {
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;

		cma@$cma {
			compatible = "shared-dma-pool";
			reusable;
			reg = <0x0 0x$cma 0x0 0x8000000>;
		};

		gcma@$gcma {
			compatible = "shared-dma-pool";
			reusable;
			linux,gcma;
			reg = <0x0 0x$gcma 0x0 0x8000000>;
		};

		gcma@$gcma_default {
			compatible = "shared-dma-pool";
			reusable;
			linux,gcma;
			linux,cma-default;
			reg = <0x0 0x$gcma_default 0x0 0x4000000>;
		};
	};
};
EOF
	# The faulty nodes: arm64's boot checks them (check.sh).
	[ "$GCMA_ARCH" = arm64 ] && cat <<'EOF'

/ {
	reserved-memory {
		refused-no-map@6c000000 {
			compatible = "shared-dma-pool";
			reusable;
			linux,gcma;
			no-map;
			reg = <0x0 0x6c000000 0x0 0x400000>;
		};

		refused-not-reusable@6c400000 {
			compatible = "shared-dma-pool";
			linux,gcma;
			reg = <0x0 0x6c400000 0x0 0x400000>;
		};

		refused-misaligned@6c810000 {
			compatible = "shared-dma-pool";
			reusable;
			linux,gcma;
			reg = <0x0 0x6c810000 0x0 0x400000>;
		};

		refused-placed-no-map {
			compatible = "shared-dma-pool";
			reusable;
			linux,gcma;
			no-map;
			size = <0x0 0x400000>;
		};
	};
};
EOF
} >"$work/gcma.dts"
dtc -q -I dts -O dtb -o "$out" "$work/gcma.dts" >"$work/dtc.log" 2>&1 ||
	{ tail_log "$work/dtc.log"; die "dtc cannot compile $work/gcma.dts"; }
