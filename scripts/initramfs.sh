#!/bin/sh
# Build the guest's initramfs: busybox, guest/init, the gcma kselftests of
# the kernel tree under test (if it has them) with the kernel's kselftest
# runner, and the benchmarks; for $GCMA_ARCH (lib.sh), cross-compiled
# for arm64 and arm.
#
# usage: scripts/initramfs.sh TREE OBJ OUT.cpio
#   TREE  kernel source tree (tools/testing/selftests/gcma is taken from it)
#   OBJ   its kernel object dir (for the exported UAPI headers)
#   OUT   the cpio archive to write
# Prints "kselftests: N" (the number of test programs shipped).
set -u
here=$(dirname "$0")
. "$here/lib.sh"

[ $# -eq 3 ] || die "usage: $0 TREE OBJ OUT.cpio"
tree=$1 obj=$2 out=$3
# Debian's busybox-static of the guest's architecture (make deps unpacks
# the arm64 and armhf ones).
busybox=/bin/busybox
[ "$GCMA_ARCH" = arm64 ] && busybox=$BUILD/deps/arm64/bin/busybox
[ "$GCMA_ARCH" = arm ] && busybox=$BUILD/deps/armhf/bin/busybox
busybox=${BUSYBOX:-$busybox}
work=$out.d
stage=$work/root
log=$LOGS/initramfs.log

# is_dynamic FILE: an ELF program needing a dynamic loader (the guest has none).
is_dynamic() { readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }

mkdir -p "$LOGS"
: >"$log"
rm -rf "$work"
mkdir -p "$stage/selftests" "$stage/bench"

[ -x "$busybox" ] || die "$busybox missing (busybox-static for $GCMA_ARCH; run 'make deps')"
is_dynamic "$busybox" &&
	die "$busybox is dynamically linked; install busybox-static"

# The benchmarks, and the script of a make bench boot.
cp "$ROOT/guest/bench_run" "$stage/bench/run" && chmod 0755 "$stage/bench/run" ||
	die "cannot stage guest/bench_run"
for b in cma_bench bg_load pin_pages swap_bench swap_throughput; do
	"${CROSS}gcc" -O2 -Wall -Wextra -static -o "$stage/bench/$b" "$ROOT/guest/$b.c" -lm \
		>>"$log" 2>&1 || { tail_log "$log"; die "cannot compile guest/$b.c"; }
done

# The kselftests, through the kernel's own install: run_kselftest.sh, its
# runner and kselftest-list.txt go to /selftests, the tests to
# /selftests/gcma.  Built statically (USERLDFLAGS, which lib.mk adds to
# the link) against the UAPI headers of the kernel under test.
ksft=$tree/tools/testing/selftests
ntests=0
if [ -f "$ksft/gcma/Makefile" ]; then
	kmake "$tree" "$obj" headers >>"$log" 2>&1 ||
		{ tail_log "$log"; die "make headers failed"; }
	if ! make -C "$ksft" TARGETS=gcma O="$obj" USERLDFLAGS=-static \
		ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		KSFT_INSTALL_PATH="$stage/selftests" install >>"$log" 2>&1; then
		tail_log "$log"
		die "building and installing the gcma kselftests failed"
	fi
	ksft_list=$stage/selftests/kselftest-list.txt
	[ -s "$ksft_list" ] || die "the kselftest install wrote no kselftest-list.txt"
	for t in $(sed 's/^[^:]*://' "$ksft_list"); do
		[ -x "$stage/selftests/gcma/$t" ] ||
			die "kselftest $t is listed but not installed"
		if is_dynamic "$stage/selftests/gcma/$t"; then
			die "kselftest $t is dynamically linked (the guest has no libc); use LDFLAGS += \$(USERLDFLAGS) or lib.mk's rules"
		fi
		ntests=$((ntests + 1))
	done
fi
echo "kselftests: $ntests"

# file_test_erofs.sh's image, beside it: the files the tree's
# erofs_tree.py writes, packed by mkfs.erofs (package erofs-utils).
if [ -f "$ksft/gcma/erofs_tree.py" ] && [ -f "$stage/selftests/gcma/file_test_erofs.sh" ]; then
	mkfs_erofs=$(command -v mkfs.erofs || echo /usr/bin/mkfs.erofs)
	[ -x "$mkfs_erofs" ] || die "mkfs.erofs not found (package erofs-utils; run 'make deps')"
	"$PYTHON" "$ksft/gcma/erofs_tree.py" "$work/erofs" >>"$log" 2>&1 &&
	"$mkfs_erofs" --quiet -zlz4hc -T0 --all-root \
		"$stage/selftests/gcma/erofs.img" "$work/erofs" >>"$log" 2>&1 ||
		{ tail_log "$log"; die "cannot make file_test_erofs.sh's erofs image (log: $log)"; }
	rm -rf "$work/erofs"
fi

# gen_init_cpio from the tree: no root needed for /dev/console, fixed mtimes.
gcc -O2 -o "$work/gen_init_cpio" "$tree/usr/gen_init_cpio.c" >>"$log" 2>&1 ||
	{ tail_log "$log"; die "cannot compile usr/gen_init_cpio.c"; }
list=$work/list
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /etc /root /mnt; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /init $ROOT/guest/init 0755 0 0"
	echo "file /usr/bin/timeout $ROOT/guest/timeout 0755 0 0"
	(cd "$stage" && find . -mindepth 1 | sort) | while read -r f; do
		p=${f#.}
		if [ -d "$stage/$f" ]; then
			echo "dir $p 0755 0 0"
		elif [ -L "$stage/$f" ]; then
			echo "slink $p $(readlink "$stage/$f") 0777 0 0"
		else
			mode=0644
			[ -x "$stage/$f" ] && mode=0755
			echo "file $p $stage/$f $mode 0 0"
		fi
	done
} >"$list"
"$work/gen_init_cpio" -t 0 "$list" >"$out.tmp" 2>>"$log" ||
	{ tail_log "$log"; die "gen_init_cpio failed"; }
mv "$out.tmp" "$out"
