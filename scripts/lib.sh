# Shared helpers of the harness scripts; sourced, not run.
# The sourcing script sets $here to its own directory first:
#	here=$(dirname "$0"); . "$here/lib.sh"

ROOT=$(cd "$here/.." && pwd -P)
BUILD=$ROOT/build
LOGS=$BUILD/logs
PATCHES=$ROOT/patches
CHECK=$BUILD/check		# check tree, object dir and artifacts
CHECK_TREE=$CHECK/linux
CHECK_OBJ=$CHECK/obj
NPROC=$(nproc 2>/dev/null || echo 2)
# Debian's python3, which has the modules make deps installs (ply and git
# for checkpatch's SPDX check), whatever python3 comes first in PATH.
PYTHON=/usr/bin/python3

# Identity for `git am` when git has none (the author comes from the patch).
HARNESS_NAME="GCMA harness"
HARNESS_EMAIL="gcma@localhost"

# ccache: fixed paths under build/ plus a base dir make hits survive a new
# clone of this repository at another path.
: "${CCACHE_DIR:=${HOME:-/root}/.cache/ccache}"
CCACHE_BASEDIR=$ROOT
CCACHE_NOHASHDIR=1
export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR
# What make check keeps between runs, beside ccache and outside build/
# (make clean and a new clone keep it; emptying both is a cold run):
# merged configs (kconfig) and the keys of builds that passed
# (build_key).
: "${GCMA_CACHE_DIR:=$(dirname "$CCACHE_DIR")/gcma-check}"

# Console patterns, one list for check.sh and bench.sh.
# FATAL_RE: the kernel's reports of a hang or a crash, which end a boot.
FATAL_RE='INFO: task .* blocked for more than|soft lockup|hard LOCKUP|detected stalls? on CPU|self-detected stall|Kernel panic|Oops|kernel BUG at|(^|[^A-Z_])BUG:|general protection'
# REPORT_RE: those, WARN()'s "WARNING: CPU: N PID:" and lockdep's
# "WARNING: possible ..." (not the CPU-bug lines "RETBleed: WARNING:
# Spectre ..." of some hosts), KASAN, UBSAN, RCU stalls, lockdep's
# registration complaints, and GCMA's reports of a bad release or of a
# client that keeps a page.  check.sh adds any stack dump and page
# allocation failures; bench.sh, whose load exhausts memory on purpose,
# adds the OOM killer instead.
# OTHER_REPORT_RE: what ends console_reports.awk's leaving out of an
# expected warning.
OTHER_REPORT_RE="$FATAL_RE|KASAN:|UBSAN:|rcu: INFO:|page allocation failure|gcma: .*does not give its pages back"
REPORT_RE="$FATAL_RE|WARNING: (CPU: [0-9]+ PID:|[a-z])|INFO: trying to register|UBSAN:|KASAN:|rcu: INFO:|gcma: free of pfn|gcma: .*does not give its pages back"

# The architecture built and booted: x86_64 (QEMU pc, the default),
# arm64 (QEMU virt, cross-compiled, its areas in the device tree) or arm
# (32-bit QEMU virt with 2 GiB, cross-compiled, its areas in HighMem).  Per
# architecture: the kernel's ARCH, the compiler prefix, the image, the
# config/ fragment, the symbols that must be =y in the merged .config,
# those the fragments ask for that the architecture cannot have (then
# not checked), and the guest's memory unless GCMA_VM_MEM says.
GCMA_ARCH=${GCMA_ARCH:-x86_64}
VM_MEM=1G ARCH_LACKS=
case $GCMA_ARCH in
x86_64)
	KARCH=x86 CROSS= KIMAGE=bzImage
	REQUIRED_SYMS="CMA DEBUG_FS VIRTIO_PCI BLK_DEV_INITRD SERIAL_8250_CONSOLE KUNIT" ;;
arm64)
	KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=Image
	REQUIRED_SYMS="CMA DEBUG_FS VIRTIO_MMIO BLK_DEV_INITRD SERIAL_AMBA_PL011_CONSOLE KUNIT OF_RESERVED_MEM VIRTIO_CONSOLE" ;;
arm)
	KARCH=arm CROSS=arm-linux-gnueabihf- KIMAGE=zImage VM_MEM=2G
	REQUIRED_SYMS="CMA DEBUG_FS VIRTIO_MMIO BLK_DEV_INITRD SERIAL_AMBA_PL011_CONSOLE KUNIT HIGHMEM ARM_LPAE AEABI VFP VIRTIO_CONSOLE"
	# 32-bit ARM has neither memory hotplug nor memory-failure handling.
	ARCH_LACKS="MEMORY_FAILURE MEMORY_HOTPLUG MEMORY_HOTREMOVE" ;;
*)
	echo "GCMA_ARCH=$GCMA_ARCH: x86_64, arm64 or arm" >&2
	exit 1 ;;
esac

# kernel_image OBJ: the bootable image a build in OBJ makes.
kernel_image() { echo "$1/arch/$KARCH/boot/$KIMAGE"; }

prog=$(basename "$0" .sh)

say() { printf '%s: %s\n' "$prog" "$*"; }
warn() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { warn "error: $*"; exit 1; }

# tail_log FILE [N]: show the end of a log after a failure.
tail_log() {
	[ -f "$1" ] || return 0
	echo "---- last ${2:-40} lines of ${1#"$ROOT"/} ----" >&2
	tail -n "${2:-40}" "$1" >&2
	echo "----" >&2
}

# series_patches: the patch files of patches/series, in order, relative
# to patches/ (NN-name/NNNN-subject.patch: the stack's series, each in
# its directory), without cover letters, blank lines and comments.
series_patches() {
	[ -f "$PATCHES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCHES/series" |
		grep -v '\(^\|/\)0000-cover-letter\.patch$' || true
}

# stack_tops: for each series of the stack, in order, "N NAME": N is the
# number of patches up to and including the series' last one.
stack_tops() {
	series_patches | awk -F/ '
		NF > 1 && $1 != name { if (name != "") print n, name; name = $1 }
		{ n++ }
		END { if (name != "") print n, name }'
}

# ensure_base: build/base, the unpacked Linux with tag 'base'.
ensure_base() {
	sh "$ROOT/scripts/base.sh" "$BUILD/base" ||
		die "scripts/base.sh could not create build/base"
}

# clone_base DIR: DIR becomes a clone of build/base (no remote kept).
clone_base() {
	ensure_base
	rm -rf "$1"
	mkdir -p "$(dirname "$1")"
	git clone -q "$BUILD/base" "$1" || die "git clone of build/base into $1 failed"
	git -C "$1" remote remove origin
}

# am_series TREE LOG: apply every patch of patches/series to the current
# branch of TREE.  Returns non-zero (and names the patch) on failure.
am_series() {
	_tree=$1 _log=$2
	: >"$_log"
	for _p in $(series_patches); do
		if [ ! -f "$PATCHES/$_p" ]; then
			echo "patches/series names $_p, which does not exist" | tee -a "$_log" >&2
			return 1
		fi
		if ! am_one "$_tree" "$PATCHES/$_p" >>"$_log" 2>&1; then
			git -C "$_tree" am --abort >/dev/null 2>&1
			echo "git am failed on $_p" | tee -a "$_log" >&2
			tail_log "$_log" 30
			return 1
		fi
	done
}

am_one() {
	if git -C "$1" config user.email >/dev/null 2>&1; then
		git -C "$1" am "$2"
	else
		GIT_COMMITTER_NAME=$HARNESS_NAME GIT_COMMITTER_EMAIL=$HARNESS_EMAIL \
			git -C "$1" am "$2"
	fi
}

# commit_series TREE LOG: make a commit of every patch of patches/series
# on top of TREE's tag base, without touching TREE's working tree or
# index (git apply --cached into a private index), and print the last
# one.  The committer and the dates are fixed, so an unchanged series
# gives the same commits on every run and every machine.  Returns
# non-zero (and names the patch) on failure.
commit_series() {
	_cs_tree=$1 _cs_log=$2
	_cs_work=$(mktemp -d) || return 1
	_cs_rc=0
	: >"$_cs_log"
	_cs_parent=$(git -C "$_cs_tree" rev-parse base) &&
		GIT_INDEX_FILE=$_cs_work/index git -C "$_cs_tree" read-tree base || _cs_rc=1
	for _p in $([ $_cs_rc -eq 0 ] && series_patches); do
		if [ ! -f "$PATCHES/$_p" ]; then
			echo "patches/series names $_p, which does not exist" | tee -a "$_cs_log" >&2
			_cs_rc=1
			break
		fi
		echo "applying $_p" >>"$_cs_log"
		if ! git mailinfo "$_cs_work/msg" "$_cs_work/patch" <"$PATCHES/$_p" \
			>"$_cs_work/info" 2>>"$_cs_log" ||
		   ! GIT_INDEX_FILE=$_cs_work/index git -C "$_cs_tree" apply --cached \
			"$_cs_work/patch" >>"$_cs_log" 2>&1 ||
		   ! _cs_t=$(GIT_INDEX_FILE=$_cs_work/index git -C "$_cs_tree" write-tree) ||
		   ! _cs_parent=$(
			_field() { sed -n "s/^$1: //p" "$_cs_work/info" | head -n 1; }
			export GIT_AUTHOR_NAME="$(_field Author)" GIT_AUTHOR_EMAIL="$(_field Email)"
			export GIT_AUTHOR_DATE="$(_field Date)" GIT_COMMITTER_DATE="$(_field Date)"
			export GIT_COMMITTER_NAME="$HARNESS_NAME" GIT_COMMITTER_EMAIL="$HARNESS_EMAIL"
			{ _field Subject; echo; cat "$_cs_work/msg"; } |
				git -C "$_cs_tree" commit-tree "$_cs_t" -p "$_cs_parent"); then
			echo "the series does not apply: $_p" | tee -a "$_cs_log" >&2
			tail_log "$_cs_log" 30
			_cs_rc=1
			break
		fi
	done
	rm -rf "$_cs_work"
	[ $_cs_rc -eq 0 ] && echo "$_cs_parent"
	return $_cs_rc
}

# prepare_check_tree: build/check/linux = base + patches/series on branch
# 'check'.  The series is committed apart (commit_series) and the tree is
# moved to it with git checkout, which rewrites only the files that
# differ: an unchanged series touches no file, and the object dirs'
# incremental builds stay valid.
prepare_check_tree() {
	mkdir -p "$LOGS"
	ensure_base
	if git -C "$CHECK_TREE" rev-parse -q --verify base >/dev/null 2>&1 &&
	   [ "$(git -C "$CHECK_TREE" rev-parse base)" = "$(git -C "$BUILD/base" rev-parse base)" ]; then
		git -C "$CHECK_TREE" am --abort >/dev/null 2>&1
	else
		say "cloning build/base into build/check/linux"
		clone_base "$CHECK_TREE"
	fi
	_pc_top=$(commit_series "$CHECK_TREE" "$LOGS/apply.log") || return 1
	git -C "$CHECK_TREE" checkout -q -f -B check "$_pc_top" &&
		git -C "$CHECK_TREE" clean -fdqx ||
		die "cannot check out the series in $CHECK_TREE"
}

# The series' own config fragments, merged when the tree under test has
# them: what its kselftests and its KUnit suites need.  No copy of them
# lives in config/, so they cannot drift apart.
INTREE_FRAGMENTS="tools/testing/selftests/gcma/config mm/tests/gcma.kunitconfig"

# lib_functions NAME...: the text of these functions of this file, for
# the cache keys (a change elsewhere in it keeps the caches).
lib_functions() {
	for _lf in "$@"; do
		sed -n "/^$_lf() {/,/^}/p" "$ROOT/scripts/lib.sh"
	done
}

# kconfig TREE OBJ LOG: write OBJ/.config = tinyconfig + config/base.config
# + config/$GCMA_ARCH.config + the in-tree fragments TREE has + the
# fragments of config/ named in
# $KCONFIG_EXTRA (e.g. "debug.config"), and verify that every setting of
# every fragment survived.  OBJ/.config is only replaced when it changes,
# so an unchanged config costs no rebuild.  A config once merged and
# verified is kept under a key of all it depends on (the fragments, TREE's
# Kconfig files, tiny configs and kconfig scripts, the toolchain, this
# file's checks): merging again takes 20 s, at each of make check's
# per-commit builds.  The newest 64 are kept, in $GCMA_CACHE_DIR/kconfig.  Kconfig probes the
# compiler, so it runs with kmake()'s.
kconfig() {
	_tree=$1 _obj=$2 _log=$3 _kdir=$2.kconfig
	_frags="$ROOT/config/base.config $ROOT/config/$GCMA_ARCH.config"
	for _f in $INTREE_FRAGMENTS; do
		[ -f "$_tree/$_f" ] && _frags="$_frags $_tree/$_f"
	done
	for _f in ${KCONFIG_EXTRA:-}; do _frags="$_frags $ROOT/config/$_f"; done
	_cache=$GCMA_CACHE_DIR/kconfig
	mkdir -p "$_kdir" "$_cache" "$_obj"
	echo "kconfig: tinyconfig +$(echo " $_frags" | sed "s| $ROOT/| |g; s| $_tree/| |g")" >>"$_log"
	# No key without the tree's file list: a stale config is worse than
	# 20 s.
	_key=
	if _files=$(git -C "$_tree" ls-files -co --exclude-standard -- \
	    '*Kconfig*' 'arch/*/configs/*.config' 'kernel/configs/*.config' \
	    'scripts/kconfig/*' 'scripts/*.sh' 'scripts/Kconfig.include'); then
		_key=$({
			echo "$KARCH $REQUIRED_SYMS $ARCH_LACKS $INTREE_FRAGMENTS"
			"${CROSS}gcc" --version | head -n 1
			"${CROSS}ld" --version | head -n 1
			pahole --version 2>/dev/null
			lib_functions kconfig
			cat $_frags
			echo "$_files" | (cd "$_tree" && tr '\n' '\0' | xargs -0 cat)
		} | sha1sum | cut -d' ' -f1)
	fi
	if [ -n "$_key" ] && [ -f "$_cache/$_key" ]; then
		echo "kconfig: merged and verified before (key $_key)" >>"$_log"
		touch "$_cache/$_key"
		cmp -s "$_cache/$_key" "$_obj/.config" ||
			cp "$_cache/$_key" "$_obj/.config"
		return
	fi
	{
		kmake "$_tree" "$_kdir" -s tinyconfig &&
		"$_tree/scripts/kconfig/merge_config.sh" -m -O "$_kdir" \
			"$_kdir/.config" $_frags &&
		kmake "$_tree" "$_kdir" -s olddefconfig
	} >>"$_log" 2>&1 || { warn "kernel configuration failed"; tail_log "$_log"; return 1; }

	# Every CONFIG_X=value of the fragments must survive.  A symbol of
	# config/ that this tree does not define is let pass (GCMA symbols
	# only exist once the series adds them); the in-tree fragments come
	# with the tree, so a symbol of theirs that it does not define is a
	# typo.  The required symbols must always be =y.  As in
	# merge_config.sh, a later fragment overrides an earlier one: only a
	# symbol's last setting must survive, and a "# CONFIG_X is not set"
	# that overrides an earlier CONFIG_X=value (a fragment
	# turning GCMA off) must leave CONFIG_X unset.
	git -C "$_tree" grep -h -E '^[[:space:]]*(menu)?config [A-Z0-9_]+' -- '*Kconfig*' |
		awk '{print $2}' | sort -u >"$_kdir/defined-symbols"
	_bad= _on=
	for _s in $REQUIRED_SYMS; do
		grep -qx "CONFIG_$_s=y" "$_kdir/.config" || _bad="$_bad CONFIG_$_s"
	done
	awk '
	/^CONFIG_[A-Z0-9_]*=[^[:space:]]*$/ {
		s = $0
		sub(/=.*/, "", s)
		last[s] = FILENAME " " $0
	}
	/^# CONFIG_[A-Z0-9_]* is not set$/ && ($2 in last) {
		last[$2] = FILENAME " " $2 "=n"
	}
	END { for (s in last) print last[s] }' $_frags >"$_kdir/fragment-settings" &&
		sort -o "$_kdir/fragment-settings" "$_kdir/fragment-settings" ||
		{ warn "cannot read the config fragments:$_frags"; return 1; }
	while read -r _f _set; do
		_s=${_set%%=*}
		if [ "$_set" = "$_s=n" ]; then
			grep -q "^$_s=" "$_kdir/.config" && _on="$_on $_s"
			continue
		fi
		grep -qxF "$_set" "$_kdir/.config" && continue
		case " $ARCH_LACKS " in *" ${_s#CONFIG_} "*) continue ;; esac
		case $_f in "$ROOT"/config/*)
			grep -qx "${_s#CONFIG_}" "$_kdir/defined-symbols" || continue ;;
		esac
		_bad="$_bad $_set"
	done <"$_kdir/fragment-settings"
	[ -z "$_bad" ] ||
		warn "merged .config lacks (dependencies missing?${KCONFIG_EXTRA:+ turned off by $KCONFIG_EXTRA, which must then say so?}):$_bad"
	[ -z "$_on" ] ||
		warn "merged .config sets what a fragment turns off (selected by another symbol?):$_on"
	[ -z "$_bad$_on" ] || return 1
	if [ -n "$_key" ]; then
		cp "$_kdir/.config" "$_cache/$_key"
		ls -t "$_cache" | tail -n +65 | (cd "$_cache" && xargs rm -f)
	fi
	cmp -s "$_kdir/.config" "$_obj/.config" || cp "$_kdir/.config" "$_obj/.config"
}

# kmake TREE OBJ [ARGS...]: make in TREE with objects in OBJ, through
# ccache, for $GCMA_ARCH.
kmake() {
	_km_tree=$1 _km_obj=$2
	shift 2
	make -C "$_km_tree" O="$_km_obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_USER=gcma KBUILD_BUILD_HOST=harness \
		-j"$NPROC" "$@"
}

# build_key TREE REV TARGET: a key of all that building TARGET of REV
# depends on: every file of REV but those the build never reads
# (Documentation/, tools/testing/ but for the in-tree config fragments,
# MAINTAINERS), the config fragments, the toolchains, the flags make
# takes from the environment and the functions of this file that make
# the config and run make; empty (nothing cached) when REV cannot be
# read.  A commit that changes only documentation or
# selftests has its parent's key.
build_key() {
	_bk_files=$(git -C "$1" ls-tree -r "$2") || return 0
	{
		echo "$KARCH $REQUIRED_SYMS $ARCH_LACKS $INTREE_FRAGMENTS ${KCONFIG_EXTRA:-} $3"
		# What make reads from the environment changes the build too.
		echo "${KCFLAGS:-} ${KCPPFLAGS:-} ${KAFLAGS:-} ${LLVM:-}"
		"${CROSS}gcc" --version | head -n 1
		"${CROSS}ld" --version | head -n 1
		gcc --version | head -n 1
		pahole --version 2>/dev/null
		lib_functions kconfig kmake
		cat "$ROOT/config/base.config" "$ROOT/config/$GCMA_ARCH.config"
		for _f in ${KCONFIG_EXTRA:-}; do cat "$ROOT/config/$_f"; done
		echo "$_bk_files"
	} | awk -F '\t' -v keep=" $INTREE_FRAGMENTS " '
		NF < 2 || index(keep, " " $2 " ") || $2 ~ /(^|\/)Kconfig[^\/]*$/ ||
		$2 !~ /^(Documentation\/|tools\/testing\/|MAINTAINERS$)/' |
		sha1sum | cut -d' ' -f1
}

# built_before KEY: a build of that key passed (on this machine, since
# $GCMA_CACHE_DIR was emptied).
built_before() { [ -n "$1" ] && [ -f "$GCMA_CACHE_DIR/builds/$1" ]; }

# build_kernel TREE OBJ LOG [TARGETS]: configure and build TARGETS (a
# word, or several in one argument), by default the image; log in LOG.
# When TREE is clean and OBJ holds the build of the same key
# (OBJ/.gcma-build-key), or TARGETS are not the image and their key
# built before, make is not even run; a passing build records its key
# (built_before).
build_kernel() {
	: >"$3"
	_bk_key= _bk_target=${4:-$KIMAGE}
	[ -z "$(git -C "$1" status --porcelain 2>/dev/null || echo unknown)" ] &&
		_bk_key=$(build_key "$1" HEAD "$_bk_target")
	if [ -n "$_bk_key" ] && [ "$(cat "$2/.gcma-build-key" 2>/dev/null)" = "$_bk_key" ]; then
		echo "build: ${2#"$ROOT"/} holds this build already (key $_bk_key)" >>"$3"
		return 0
	fi
	# Only an image is used after its build (booted, or its objects
	# checked with W=1); other targets are built to see that they build.
	if [ -n "$_bk_key" ] && [ "$_bk_target" != "$KIMAGE" ] && built_before "$_bk_key"; then
		echo "build: built before (key $_bk_key)" >>"$3"
		return 0
	fi
	rm -f "$2/.gcma-build-key"
	kconfig "$1" "$2" "$3" || return 1
	# shellcheck disable=SC2086 # TARGET may name several, e.g. directories
	if ! kmake "$1" "$2" $_bk_target >>"$3" 2>&1; then
		warn "kernel build failed (log: ${3#"$ROOT"/})"
		grep -E 'error:|Error [0-9]' "$3" | head -20 >&2
		tail_log "$3" 30
		return 1
	fi
	[ -n "$_bk_key" ] || return 0
	echo "$_bk_key" >"$2/.gcma-build-key"
	mkdir -p "$GCMA_CACHE_DIR/builds"
	touch "$GCMA_CACHE_DIR/builds/$_bk_key"
	ls -t "$GCMA_CACHE_DIR/builds" | tail -n +1001 |
		(cd "$GCMA_CACHE_DIR/builds" && xargs rm -f)
}

# lock_build_check: hold build/check for this process and its children
# until it exits; refuse when another make check, bench or run holds it
# (they check out, build and boot in the same tree).
lock_build_check() {
	mkdir -p "$BUILD"
	exec 9>"$BUILD/check.lock"
	flock -w 30 9 ||
		die "another make check, bench, run or test-one is using build/check; wait for it to end"
}

# ksft_timeout_mult: how many times its settings' timeout a kselftest
# gets in the guest: 4 under TCG, which is slow, 1 under KVM.  qemu.sh
# passes it to guest/init; check.sh sizes the VM timeout with it.
ksft_timeout_mult() { if [ "${GCMA_KVM:-0}" = 1 ]; then echo 1; else echo 4; fi; }

# Seconds since the epoch, for timings.
now() { date +%s; }

# validate_settings: refuse a malformed setting before anything is built,
# with the setting's name and what it takes.
validate_settings() {
	_bad=
	_want() {	# NAME VALUE REGEX WHAT
		printf '%s\n' "$2" | grep -qxE "$3" && return 0
		warn "error: $1=$2: $4"
		_bad=1
	}
	_want GCMA_VM_MEM "${GCMA_VM_MEM:-$VM_MEM}" '[1-9][0-9]*[MG]' \
		"guest memory, a size with M or G, e.g. 1G or 1536M"
	_mem=${GCMA_VM_MEM:-$VM_MEM}
	case $_mem in
	*M) _mb=${_mem%M} ;;
	*G) _mb=$((${_mem%G} * 1024)) ;;
	esac
	if [ -z "$_bad" ] && { [ "$_mb" -lt 512 ] || [ "$_mb" -gt 16384 ]; }; then
		warn "error: GCMA_VM_MEM=$_mem: from 512M (the areas take 256M) to 16G"
		_bad=1
	fi
	_want GCMA_VM_SMP "${GCMA_VM_SMP:-2}" '[1-4]' \
		"guest CPUs, 1 to 4 (CONFIG_NR_CPUS=4)"
	_want GCMA_VM_TIMEOUT "${GCMA_VM_TIMEOUT:-1200}" '[1-9][0-9]*' \
		"seconds, a whole number above 0"
	_want GCMA_VM_SILENCE "${GCMA_VM_SILENCE:-1200}" '[1-9][0-9]*' \
		"seconds, a whole number above 0"
	_want GCMA_KVM "${GCMA_KVM:-0}" '[01]' "0 (TCG) or 1 (KVM)"
	_want GCMA_CHECK_ARM64 "${GCMA_CHECK_ARM64:-1}" '[01]' \
		"0 (leave make check's arm64 boot out, a failure) or 1 (run it)"
	_want GCMA_BENCH_ROUNDS "${GCMA_BENCH_ROUNDS:-32}" '[1-9][0-9]{0,3}' \
		"rounds per size, 1 to 9999"
	_want GCMA_BENCH_SCALE "${GCMA_BENCH_SCALE:-default}" 'default|full' \
		"default (128 MiB areas, 1 GiB guests) or full (the RFC's 256 MiB areas, 800 MiB)"
	_want GCMA_BENCH_PIN_ROUNDS "${GCMA_BENCH_PIN_ROUNDS:-4}" '[1-9][0-9]{0,3}' \
		"rounds per size with pinned pages, 1 to 9999"
	_want GCMA_BENCH_TIMEOUT "${GCMA_BENCH_TIMEOUT:-5}" '[1-9][0-9]{0,2}' \
		"seconds before a request with pinned pages is given up, 1 to 999"
	_want GCMA_BENCH_PIN_STRIDE "${GCMA_BENCH_PIN_STRIDE:-1024}" '[1-9][0-9]{0,4}' \
		"pages of the CMA area per pinned page, 1 to 99999"
	_want GCMA_BENCH_LOAD_SECS "${GCMA_BENCH_LOAD_SECS:-15}" '[1-9][0-9]{0,3}' \
		"seconds each cost phase measures, 1 to 9999"
	_want GCMA_BENCH_WARMUP_SECS "${GCMA_BENCH_WARMUP_SECS:-15}" '[0-9]{1,4}' \
		"seconds of load before a cost phase measures, 0 to 9999"
	_want GCMA_BENCH_REPEATS "${GCMA_BENCH_REPEATS:-3}" '[1-9]' \
		"boots of GCMA in the cost figures, 1 to 9"
	# A number above 0 and at most 4: the regex only for one in range.
	_skew=${GCMA_BENCH_REUSE_SKEW:-0.5}
	_in_range=$(awk -v s="$_skew" 'BEGIN { if (s + 0 > 0 && s + 0 <= 4) print 1 }')
	_want GCMA_BENCH_REUSE_SKEW "$_skew" "${_in_range:+[0-9]+(\.[0-9]+)?}" \
		"the reuse load's popularity exponent, above 0 and at most 4, e.g. 0.5"
	_want GCMA_BENCH_DISK_LIMIT "${GCMA_BENCH_DISK_LIMIT-bps-total=1}" \
		'((bps|iops)-(total|read|write)(-max)?=[0-9]+)(,(bps|iops)-(total|read|write)(-max)?=[0-9]+)*|' \
		"QEMU throttling options (bps-total, iops-read, bps-write-max...), e.g. bps-total=31457280,iops-total=2000, or empty (no limit)"
	_want GCMA_BENCH_SWAPS "${GCMA_BENCH_SWAPS:-vda zram}" \
		'(vda|zram)( (vda|zram))?' "vda, zram or both, e.g. \"vda zram\""
	_want GCMA_BENCH_WORKLOADS "${GCMA_BENCH_WORKLOADS:-stream reuse}" \
		'(stream|reuse)( (stream|reuse))?' \
		"stream, reuse or both, e.g. \"stream reuse\""
	_want GCMA_VM_F2FS_MIB "${GCMA_VM_F2FS_MIB:-512}" '[1-9][0-9]*' \
		"MiB, a whole number above 0"
	for _s in GCMA_BENCH_COST GCMA_BENCH_UNPATCHED GCMA_BENCH_SWAP \
		  GCMA_BENCH_LATENCY GCMA_BENCH_FULL GCMA_BENCH_COST_REQUESTS \
		  GCMA_BENCH_F2FS; do
		eval "_v=\${$_s:-}"
		[ -z "$_v" ] || _want "$_s" "$_v" '[01]' "0 (skip) or 1 (run)"
	done
	_want GCMA_BENCH_PIN_LOADS "${GCMA_BENCH_PIN_LOADS:-1}" '[01]' \
		"0 (the load's processes share the CPUs) or 1 (the reader on a CPU of its own)"
	_want GCMA_RUN_TREE "${GCMA_RUN_TREE:-patches}" 'patches|linux' \
		"linux (boot build/linux) or unset (boot patches/)"
	if [ "${GCMA_KVM:-0}" = 1 ] && [ ! -w /dev/kvm ]; then
		warn "error: GCMA_KVM=1, but /dev/kvm is missing or not writable"
		_bad=1
	fi
	[ -z "$_bad" ] || die "fix the settings above (README.md, Settings)"
}

# base_version TREE: the kernel version of TREE, e.g. 6.12.118.
base_version() { make -s -C "$1" kernelversion 2>/dev/null; }

# cover_version: the 6.12.y that the cover letter of the bottom series
# (or of a series that is not a stack) names in its "Base:" paragraph;
# other cover letters, and a 6.12.y named elsewhere, do not count.
cover_version() {
	_cv_first=$(stack_tops | awk 'NR == 1 { print $2 }')
	awk '/^Base:/ { b = 1 } b && /^$/ { exit } b' \
		"$PATCHES/${_cv_first:+$_cv_first/}0000-cover-letter.patch" 2>/dev/null |
		grep -oE 'Linux 6\.12\.[0-9]+' |
		head -1 | sed 's/^Linux //'
}

# describe_base: one line naming the base under test, and how it relates
# to the cover letter's (a newer 6.12.y is allowed and said).
describe_base() {
	_v=$(base_version "$BUILD/base") _c=$(cover_version)
	printf 'base: Linux %s (Debian linux-source-6.12 %s, commit %s)' "$_v" \
		"$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null)" \
		"$(git -C "$BUILD/base" rev-parse --short base)"
	if [ -z "$_c" ]; then
		echo "; the cover letter names no base version"
	elif [ "$_v" = "$_c" ]; then
		echo "; the cover letter's base"
	else
		echo "; the cover letter says $_c: results are for $_v"
	fi
}
