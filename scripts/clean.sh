#!/bin/sh
# make clean: remove what check, bench and run build (build/check,
# build/obj-linux, build/run-linux, build/logs).  Keeps build/base,
# build/linux (your work) and the ccache.
set -u
here=$(dirname "$0")
. "$here/lib.sh"
rm -rf "$CHECK" "$BUILD/obj-linux" "$BUILD/obj-linux.kconfig" "$BUILD/run-linux" "$LOGS"
say "removed build/check, build/obj-linux, build/run-linux, build/logs"
