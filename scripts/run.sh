#!/bin/sh
# make run: boot the kernel of patches/ with harness=shell, the console on
# this terminal (QEMU monitor: Ctrl-A c; exit the shell to power off).
# GCMA_RUN_TREE=linux boots build/linux instead (objects in build/obj-linux).
set -u
here=$(dirname "$0")
# x86_64 only (GCMA_ARCH=arm64 is make check's stage g).
GCMA_ARCH=x86_64
. "$here/lib.sh"

validate_settings
lock_build_check

if [ "${GCMA_RUN_TREE:-}" = linux ]; then
	tree=$BUILD/linux obj=$BUILD/obj-linux out=$BUILD/run-linux
	[ -d "$tree/.git" ] || die "no build/linux (run 'make tree')"
else
	prepare_check_tree || die "the series does not apply (log: build/logs/apply.log)"
	tree=$CHECK_TREE obj=$CHECK_OBJ out=$CHECK
fi
mkdir -p "$out" "$LOGS"
say "building ${tree#"$ROOT"/} (log: build/logs/build-run.log)"
build_kernel "$tree" "$obj" "$LOGS/build-run.log" || die "kernel build failed"
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
sh "$here/initramfs.sh" "$tree" "$obj" "$out/initramfs.cpio" ||
	die "initramfs failed (log: build/logs/initramfs.log)"
exec sh "$here/qemu.sh" shell "$out/bzImage" "$out/initramfs.cpio"
