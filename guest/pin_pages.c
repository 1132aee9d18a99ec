// SPDX-License-Identifier: GPL-2.0
/*
 * pin_pages: leave a CMA area unable to satisfy large contiguous
 * requests the way real kernels do, by holding short-term references on
 * anonymous pages that lie inside it, and say exactly how many it holds.
 *
 * The area is first emptied through its debugfs knobs (all of it
 * allocated, then freed), so that it has room for the movable pages that
 * come next.  Then up to MAX_MIB of private anonymous memory is touched,
 * a MiB at a time; after each MiB, /proc/self/pagemap tells which of its
 * pages landed in the area.  The area is cut by PFN into buckets of
 * STRIDE pages, and the first page found in a bucket is pinned for it
 * at once; touching stops once every bucket has one.  A pinned page is
 * mlocked, so that reclaim neither unmaps nor swaps it, and vmspliced
 * into a pipe that is never read: the pipe's reference makes migration
 * of the page fail, so alloc_contig_range() fails with -EBUSY on any
 * range holding it.  Pinned pages are thus at most about 2 * STRIDE pages
 * apart.  A page that moved between the pagemap read and the pin (the
 * load goes on meanwhile) is pinned where it went, and its bucket is
 * looked for again.  All other touched pages are given back.
 *
 * Runs until SIGTERM or SIGINT; the references go away with the process.
 * Needs root (PFNs in pagemap, the CMA debugfs knobs).
 *
 * usage: pin_pages -c CMA_DIR -s STRIDE -m MAX_MIB
 *   CMA_DIR  the area's debugfs directory, e.g. /sys/kernel/debug/cma/reserved
 *   STRIDE   pages per bucket, one page pinned per bucket
 *   MAX_MIB  the most anonymous memory to touch looking for the area's pages
 *
 * Output, on stdout:
 *   PIN area=<name> base_pfn=<n> count=<n> stride=<n> buckets=<n>
 *       pinned=<n> in_area=<n> covered=<n> touched_mib=<n>
 *       emptied=<yes|no> seconds=<setup time>
 * (one line), then "PIN_READY" once the pages are held, and on SIGTERM or
 * SIGINT "PIN_END pinned=<n> in_area=<n> covered=<n>".  in_area counts
 * the pinned pages that pagemap shows inside the area, covered the
 * buckets that hold at least one of them.
 * Exit status: 0 after PIN_END, 1 on a setup error or when nothing could
 * be pinned (after the PIN line), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MIB		(1UL << 20)
#define MAX_STRIDE	(1L << 30)
#define MAX_MAX_MIB	(1L << 22)	/* 4 TiB: far beyond any guest */
#define PIPE_BYTES	(1 << 20)
#define DEF_PIPE_SLOTS	16		/* a pipe's default size, in pages */
#define PM_PRESENT	(1ULL << 63)
#define PM_PFN_MASK	((1ULL << 55) - 1)

struct pin {
	char *addr;
};

static long page_size;
static volatile sig_atomic_t stop;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "pin_pages: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: pin_pages -c CMA_DIR -s STRIDE -m MAX_MIB\n"
		"  CMA_DIR  the CMA area's debugfs dir, e.g. /sys/kernel/debug/cma/reserved\n"
		"  STRIDE   pages per bucket, one page pinned per bucket (1-%ld)\n"
		"  MAX_MIB  the most anonymous memory to touch (1-%ld)\n",
		MAX_STRIDE, MAX_MAX_MIB);
	exit(2);
}

/* A positive decimal integer no larger than @max, or -1. */
static long parse_pos(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > max)
		return -1;
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @dir/@file as a number in @base; 0, or -1 when missing or garbled. */
static int read_ulong(const char *dir, const char *file, int base,
		      unsigned long *val)
{
	char path[512], buf[64], *end;
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		errno = 0;
		*val = strtoul(buf, &end, base);
		if (!errno && end != buf && (*end == '\n' || !*end))
			ret = 0;
	}
	fclose(f);
	return ret;
}

static int write_count(const char *dir, const char *knob, unsigned long pages)
{
	char path[512], buf[32];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%lu\n", pages);
	if (write(fd, buf, len) != len)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/*
 * Allocate the whole area and free it again: whatever movable pages were
 * in it are migrated out, so the pages touched next can land there.
 * Not fatal when it fails; the PIN line says whether it worked.
 */
static int empty_area(const char *dir, unsigned long count)
{
	int ret;

	ret = write_count(dir, "alloc", count);
	if (ret) {
		fprintf(stderr, "pin_pages: emptying %s: alloc of %lu pages: %s\n",
			dir, count, strerror(-ret));
		return 0;
	}
	ret = write_count(dir, "free", count);
	if (ret) {
		fprintf(stderr, "pin_pages: emptying %s: free of %lu pages: %s\n",
			dir, count, strerror(-ret));
		return 0;
	}
	return 1;
}

/* The name the PIN line gives the area: @dir's last component. */
static void area_name(const char *dir, char *name, size_t size)
{
	size_t len = strlen(dir), start;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	start = len;
	while (start > 0 && dir[start - 1] != '/')
		start--;
	if (len - start >= size)
		len = start + size - 1;
	memcpy(name, dir + start, len - start);
	name[len - start] = '\0';
}

/* The pagemap entries of @n pages from @addr; 0, or -1 on a short read. */
static int read_pagemap(int fd, const char *addr, size_t n, uint64_t *ent)
{
	off_t off = (uintptr_t)addr / page_size * sizeof(*ent);
	size_t len = n * sizeof(*ent);

	return pread(fd, ent, len, off) == (ssize_t)len ? 0 : -1;
}

/*
 * How many of the @n pinned pages pagemap shows inside the area, and in
 * how many buckets (*@covered); -1 on error.
 */
static long count_in_area(int pm, const struct pin *pins, long n,
			  unsigned long base, unsigned long count, long stride,
			  long *covered)
{
	unsigned char *seen = calloc((count + stride - 1) / stride, 1);
	long i, in_area = 0;
	unsigned long pfn;
	uint64_t ent;

	if (!seen)
		die("out of memory");
	*covered = 0;
	for (i = 0; i < n; i++) {
		if (read_pagemap(pm, pins[i].addr, 1, &ent)) {
			free(seen);
			return -1;
		}
		pfn = ent & PM_PFN_MASK;
		if (!(ent & PM_PRESENT) || pfn < base || pfn - base >= count)
			continue;
		in_area++;
		if (!seen[(pfn - base) / stride]++)
			(*covered)++;
	}
	free(seen);
	return in_area;
}

/* Room for @fds more descriptors than the few already open. */
static void raise_nofile(rlim_t fds)
{
	struct rlimit rl;

	fds += 64;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= fds)
		return;
	if (rl.rlim_max < fds)
		rl.rlim_max = fds;
	rl.rlim_cur = fds;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "pin_pages: cannot raise RLIMIT_NOFILE to %lu: %s\n",
			(unsigned long)fds, strerror(errno));
}

/* A new pipe, as large as allowed; its write end, and its room in pages. */
static int new_pipe(long *slots)
{
	int fd[2], size;

	if (pipe(fd))
		die("cannot make a pipe: %s", strerror(errno));
	/* Fewer pipes, fewer descriptors; the default size will do too. */
	fcntl(fd[1], F_SETPIPE_SZ, PIPE_BYTES);
	size = fcntl(fd[1], F_GETPIPE_SZ);
	if (size < page_size)
		die("cannot get the size of a pipe: %s", strerror(errno));
	*slots = size / page_size;
	/* The read end stays open and unread: the pipe must keep its pages. */
	return fd[1];
}

/*
 * mlock the page at @addr, then vmsplice it into a pipe.  vmsplice
 * without SPLICE_F_GIFT takes a reference on the page and leaves it
 * mapped here; as long as the pipe holds the page, migration sees an
 * unexpected reference count and gives up on it.
 */
static void pin_one(char *addr)
{
	static long slots, used;
	static int wfd = -1;
	struct iovec iov = { addr, page_size };
	ssize_t ret;

	if (mlock(addr, page_size))
		die("mlock of the page at %p: %s", addr, strerror(errno));
	/* A full pipe would block vmsplice: move on to a new one. */
	if (used == slots) {
		wfd = new_pipe(&slots);
		used = 0;
	}
	ret = vmsplice(wfd, &iov, 1, 0);
	if (ret != page_size)
		die("vmsplice of the page at %p returned %zd: %s", addr, ret,
		    ret < 0 ? strerror(errno) : "short");
	used++;
}

/*
 * Touch @mem a MiB at a time and pin, recording it in @pins (room for
 * @max_pins), the first page seen in each bucket of the area.  Pages are
 * met in rising address order, so @pins comes out sorted by address.
 * Returns the MiB touched.
 */
static long find_pages(int pm, char *mem, long max_mib, unsigned long base,
		       unsigned long count, long stride, unsigned long nbuckets,
		       struct pin *pins, long max_pins, long *npins)
{
	size_t per_mib = MIB / page_size, i;
	unsigned long filled = 0, pfn, b;
	unsigned char *seen;
	uint64_t *ent, now;
	int present = 0, pfns = 0;
	long mib;

	seen = calloc(nbuckets, 1);
	ent = malloc(per_mib * sizeof(*ent));
	if (!seen || !ent)
		die("out of memory for %lu buckets", nbuckets);
	*npins = 0;
	for (mib = 0; mib < max_mib && filled < nbuckets && *npins < max_pins;
	     mib++) {
		volatile char *p = mem + mib * MIB;

		for (i = 0; i < per_mib; i++)
			p[i * page_size] = 1;
		if (read_pagemap(pm, (char *)p, per_mib, ent))
			die("cannot read /proc/self/pagemap: %s", strerror(errno));
		for (i = 0; i < per_mib && *npins < max_pins; i++) {
			char *addr = (char *)p + i * page_size;

			pfn = ent[i] & PM_PFN_MASK;
			if (!(ent[i] & PM_PRESENT))
				continue;
			present = 1;
			if (pfn)
				pfns = 1;
			if (pfn < base || pfn - base >= count)
				continue;
			if (seen[(pfn - base) / stride])
				continue;
			pin_one(addr);
			pins[(*npins)++].addr = addr;
			/* Where the page is now that it cannot move. */
			if (read_pagemap(pm, addr, 1, &now))
				die("cannot read /proc/self/pagemap: %s",
				    strerror(errno));
			pfn = now & PM_PFN_MASK;
			if (!(now & PM_PRESENT) || pfn < base || pfn - base >= count)
				continue;
			b = (pfn - base) / stride;
			if (!seen[b]++)
				filled++;
		}
	}
	/* Without CAP_SYS_ADMIN every PFN reads as 0: nothing can match. */
	if (present && !pfns)
		die("/proc/self/pagemap shows no PFNs (not root?)");
	free(ent);
	free(seen);
	return mib;
}

/*
 * Give back every touched page but the pinned ones, one madvise() per gap
 * between pinned pages (@pins is sorted by address), so the memory
 * touched while looking does not stay in use.
 */
static void release_others(char *mem, size_t len, const struct pin *pins,
			   long n)
{
	char *start = mem, *end = mem + len;
	long i;

	for (i = 0; i <= n; i++) {
		char *next = i < n ? pins[i].addr : end;

		if (next > start && madvise(start, next - start, MADV_DONTNEED))
			fprintf(stderr, "pin_pages: madvise(MADV_DONTNEED) of %zu bytes: %s\n",
				(size_t)(next - start), strerror(errno));
		if (i < n)
			start = next + page_size;
	}
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	unsigned long base, count, nbuckets;
	long stride = -1, max_mib = -1, touched, npins, in_area, covered;
	const char *dir = NULL;
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct sigaction sa;
	sigset_t block, old;
	struct pin *pins;
	char name[256];
	int opt, pm, emptied;
	double t0;
	char *mem;

	while ((opt = getopt(argc, argv, "c:s:m:h")) != -1) {
		switch (opt) {
		case 'c':
			dir = optarg;
			break;
		case 's':
			stride = parse_pos(optarg, MAX_STRIDE);
			if (stride < 0) {
				fprintf(stderr, "pin_pages: bad STRIDE '%s'\n", optarg);
				usage();
			}
			break;
		case 'm':
			max_mib = parse_pos(optarg, MAX_MAX_MIB);
			if (max_mib < 0) {
				fprintf(stderr, "pin_pages: bad MAX_MIB '%s'\n", optarg);
				usage();
			}
			break;
		default:
			usage();
		}
	}
	if (!dir || !*dir || stride < 0 || max_mib < 0 || optind != argc)
		usage();

	t0 = now_s();
	page_size = sysconf(_SC_PAGESIZE);
	/* Root may lock without limit anyway; this keeps other cases working. */
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		fprintf(stderr, "pin_pages: cannot lift RLIMIT_MEMLOCK: %s\n",
			strerror(errno));
	area_name(dir, name, sizeof(name));

	if (read_ulong(dir, "base_pfn", 0, &base))
		die("cannot read %s/base_pfn", dir);
	if (read_ulong(dir, "count", 10, &count) || !count)
		die("cannot read %s/count", dir);
	nbuckets = (count + stride - 1) / stride;
	/* Room for a few pages that move before they are pinned. */
	pins = calloc(nbuckets + 64, sizeof(*pins));
	if (!pins)
		die("out of memory for %lu buckets", nbuckets);
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0)
		die("cannot open /proc/self/pagemap: %s", strerror(errno));

	emptied = empty_area(dir, count);

	mem = mmap(NULL, max_mib * MIB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("cannot map %ld MiB: %s", max_mib, strerror(errno));
	/*
	 * Base pages only: a huge page would tie 511 unpinned pages to each
	 * pinned one, and khugepaged must not collapse (move) them later.
	 * Fails harmlessly where THP is not built in.
	 */
	madvise(mem, max_mib * MIB, MADV_NOHUGEPAGE);

	/* Two descriptors per pipe, sized for default pipes at worst. */
	raise_nofile(2 * ((nbuckets + 64 + DEF_PIPE_SLOTS - 1) / DEF_PIPE_SLOTS));
	touched = find_pages(pm, mem, max_mib, base, count, stride, nbuckets,
			     pins, nbuckets + 64, &npins);
	release_others(mem, touched * MIB, pins, npins);
	in_area = count_in_area(pm, pins, npins, base, count, stride, &covered);
	if (in_area < 0)
		die("cannot read /proc/self/pagemap: %s", strerror(errno));

	printf("PIN area=%s base_pfn=%lu count=%lu stride=%ld buckets=%lu pinned=%ld in_area=%ld covered=%ld touched_mib=%ld emptied=%s seconds=%.1f\n",
	       name, base, count, stride, nbuckets, npins, in_area, covered,
	       touched, emptied ? "yes" : "no", now_s() - t0);
	fflush(stdout);
	if (!in_area)
		die("no page of %ld MiB touched stayed in %s: nothing pinned there",
		    touched, dir);

	/*
	 * Block the signals before announcing readiness and wait for them
	 * with sigsuspend(), so one sent right after PIN_READY is not lost
	 * between testing the flag and sleeping.  No SA_RESTART: the wait
	 * must end.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigdelset(&old, SIGTERM);
	sigdelset(&old, SIGINT);

	printf("PIN_READY\n");
	fflush(stdout);
	while (!stop)
		sigsuspend(&old);

	in_area = count_in_area(pm, pins, npins, base, count, stride, &covered);
	printf("PIN_END pinned=%ld in_area=%ld covered=%ld\n", npins, in_area,
	       covered);
	fflush(stdout);
	if (in_area < 0)
		die("cannot read /proc/self/pagemap: %s", strerror(errno));
	return 0;
}
