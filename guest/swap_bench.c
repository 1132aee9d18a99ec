// SPDX-License-Identifier: GPL-2.0
/*
 * swap_bench: what GCMA's swap client buys and what it costs, in one boot.
 *
 * The run is made of rounds (5, or -r N) of these measurements, in this
 * order, so that the drift of a noisy host touches all of them alike:
 *
 * 1. Swap-in latency, client on.  A fresh child in a cgroup with
 *    memory.max = 32 MiB writes 64 MiB, so that about 32 MiB go to swap
 *    (and, the client on, to GCMA copies).  The limit is then lifted and
 *    the child reads one word of every page back, timed by itself.  Swap
 *    readahead is off (vm.page-cluster = 0, restored at the end), so each
 *    page swapped in is one major fault of the child; the read-back time
 *    is divided by the child's major faults meanwhile (/proc/PID/stat:
 *    the test kernel has no VM event counters, so no pswpin), and the
 *    client's "loaded" counter says how many came from GCMA copies.
 * 2. The same with the client off (switched before the child starts), so
 *    that the pages come back from the swap device.  Odd rounds measure
 *    on then off, even rounds off then on.  An "on" round counts only if
 *    at least half its pages came from GCMA, an "off" round only if none
 *    did.
 * 3. First allocation of N pages from a full area, for N = 4096, 16384,
 *    32000 and the whole area (32768 pages of gcma=128M), each N after a
 *    refill of its own.  A fresh child in the same cgroup writes 32 MiB
 *    plus the area's size plus 1/16 of it, so that its swapped-out pages
 *    fill the area with copies.  The client's "cached" counter then gives
 *    the fill level, the share of the area that swap took under pressure;
 *    the round counts only if it is at least 90%.  N pages are allocated
 *    through the CMA debugfs alloc file (only the write is timed; the
 *    copies in the range it takes are lost), then freed.  Only this first
 *    allocation after the refill is timed, never one on an area that an
 *    earlier allocation has emptied.
 * 4. The same N on an empty area, right after the child has exited (its
 *    swap entries freed, its copies dropped), so that only the cached
 *    pages differ: N pages are allocated, timed, and freed.  The round
 *    counts only if at most 10% of the area is cached.
 *    The copies the allocation of 3 took are "discarded" by the time the
 *    child has exited, whether the allocation dropped them itself or left
 *    them for the client to find; the others are "invalidated" then.  The
 *    growth of "discarded" from before the allocation to after the exit
 *    is reported as the share of its pages that held copies ("dropped").
 *
 * Each measurement keeps its own failures; ratios are those of the medians
 * of the same run.  Every round's figures are printed as soon as measured,
 * and no round is started that would end past a budget of 240 s (init
 * kills the program at 300 s), so that a slow host leaves fewer rounds,
 * not none.  A size larger than the area is left out, and said so.
 *
 * The swap device is /dev/vda (made a swap area here).  Needs root,
 * debugfs, cgroup v2 at /sys/fs/cgroup and a GCMA area named "gcma".
 *
 * usage: swap_bench [-r ROUNDS]
 *
 * Output: a line "SWAPROUND round=<n> what=<measurement> ..." per round and
 * measurement as they go, counted or not; then a table and the summary,
 * lines "SWAPBENCH key=value ..." with the rounds that counted, min,
 * median and max of every figure over them, the failures of each
 * measurement, ratio_off_on_median and, per size N,
 * ratio_full_empty_median_N (the keys of size N end in _N).
 * Exit status: 0, 1 when something could not be measured, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CGROUP		"/sys/fs/cgroup/swap_bench"
#define GCMA_STATS	"/sys/kernel/debug/gcma"
#define GCMA_AREA	"/sys/kernel/debug/cma/gcma"
#define SWITCH		"/sys/module/gcma/parameters/swap_enabled"
#define SWAP_DEV	"/dev/vda"
#define PAGE_CLUSTER	"/proc/sys/vm/page-cluster"
#define LIMIT		(32UL << 20)
#define SWAPIN_SIZE	(64UL << 20)
#define ROUNDS		5
#define MAX_ROUNDS	32
#define BUDGET_US	240e6
#define FULL_PCT	90.0
#define EMPTY_PCT	10.0
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static long page_size;

#include "bench_util.h"

/* Swap-in latency with the client on or off. */
struct swapin {
	const char *name;		/* "on" or "off" */
	int on;
	struct samples us;		/* per page swapped in */
	struct samples pages;		/* swapped in */
	struct samples gcma_pct;	/* of them loaded from GCMA copies */
	int fails;
};

/* The sizes of measurements 3 and 4, in pages; the whole area is added. */
static const long alloc_sizes[] = { 4096, 16384, 32000 };
#define MAX_SIZES	(ARRAY_SIZE(alloc_sizes) + 1)

/* First allocation of @pages with the area full of cached pages or empty. */
struct alloc {
	const char *name;		/* "full" or "empty" */
	int full;
	long pages;
	struct samples us;
	struct samples fill_pct;	/* cached before, every round tried */
	struct samples dropped_pct;	/* of @pages: copies it dropped */
	int fails;
};




/* A measurement that could not be made: say what and why, count it. */
static void failed(int *fails, int round, const char *what, const char *why,
		   int err)
{
	fprintf(stderr, "swap_bench: round %d, %s: %s%s%s\n", round, what, why,
		err ? ": " : "", err ? strerror(err) : "");
	(*fails)++;
}


/*
 * The child: join the cgroup, write @size bytes, tell the parent (one byte
 * on @ready), wait for a byte on @go, read one word of every page back
 * timed, send the elapsed microseconds, wait for @go again, exit.  It
 * exits as soon as @go is closed.  Every word is written nonzero: a zero
 * page would not go to swap at all.
 */
static void child(size_t size, int ready, int go)
{
	size_t i, words = size / sizeof(uint64_t);
	size_t step = page_size / sizeof(uint64_t);
	volatile uint64_t *mem;
	uint64_t sum = 0;
	double t0, t;
	char pid[32], c;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(CGROUP "/cgroup.procs", pid))
		_exit(2);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(2);
	for (i = 0; i < words; i++)
		mem[i] = (i + 1) * 0x9e3779b97f4a7c15ULL;
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(2);
	t0 = now_us();
	for (i = 0; i < words; i += step)
		sum += mem[i];
	t = now_us() - t0;
	if (write(ready, &t, sizeof(t)) != sizeof(t) || read(go, &c, 1) != 1)
		_exit(2);
	_exit(sum == 1);	/* keep the reads */
}

struct run {
	pid_t pid;
	int ready, go;
};

/* Closing @go ends the child wherever it waits for the parent. */
static int stop(struct run *run)
{
	int status = 0;

	close(run->go);
	waitpid(run->pid, &status, 0);
	close(run->ready);
	return status;
}

/*
 * Start a child writing @size bytes and wait until it has written them.
 * Says what went wrong, if anything.
 */
static int start(struct run *run, size_t size)
{
	int to_parent[2], to_child[2], status;
	char c;

	if (pipe(to_parent)) {
		perror("swap_bench: pipe");
		return -1;
	}
	if (pipe(to_child)) {
		perror("swap_bench: pipe");
		close(to_parent[0]);
		close(to_parent[1]);
		return -1;
	}
	run->pid = fork();
	if (!run->pid) {
		close(to_parent[0]);
		close(to_child[1]);
		child(size, to_parent[1], to_child[0]);
	}
	if (run->pid < 0)
		perror("swap_bench: fork");
	close(to_parent[1]);
	close(to_child[0]);
	run->ready = to_parent[0];
	run->go = to_child[1];
	if (run->pid < 0) {
		close(run->ready);
		close(run->go);
		return -1;
	}
	if (read(run->ready, &c, 1) == 1)
		return 0;
	/* Killed by the OOM killer when swap is short, most likely. */
	status = stop(run);
	fprintf(stderr, "swap_bench: the child writing %zu MiB died before it was done (%s %d)\n",
		size >> 20, WIFSIGNALED(status) ? "signal" : "exit status",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return -1;
}

/*
 * Start a child writing @size bytes in LIMIT, so that the rest goes to
 * swap, then lift the limit, so that nothing more is pushed out.  NULL,
 * or why it failed and, in @err, the errno if there is one.
 */
static const char *push_out(struct run *run, size_t size, int *err)
{
	*err = -set_limit(LIMIT);
	if (*err)
		return "cannot set " CGROUP "/memory.max";
	if (start(run, size)) {
		set_limit(0);
		return "no child pushed out to swap";
	}
	*err = -set_limit(0);
	if (*err) {
		stop(run);
		return "cannot lift " CGROUP "/memory.max";
	}
	return NULL;
}

/* The child's read-back time in microseconds, -1 if it sent none. */
static double reread(struct run *run)
{
	double t = -1;

	if (write(run->go, "g", 1) != 1 ||
	    read(run->ready, &t, sizeof(t)) != sizeof(t))
		return -1;
	return t;
}

/*
 * Pages @pid swapped in so far: its major faults (field 12 of
 * /proc/PID/stat), one per page with swap readahead off.  @gcma gets the
 * client's count of pages loaded from GCMA copies.
 */
static long swapped_in(pid_t pid, long *gcma)
{
	char path[64], buf[512], *p;
	long majflt = -1;
	FILE *f;

	*gcma = read_long(GCMA_STATS "/loaded");
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* The command name may hold spaces: count fields after its ')'. */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %ld",
		   &majflt) != 1)
		majflt = -1;
	fclose(f);
	return *gcma < 0 ? -1 : majflt;
}





/* One swap-in round: a fresh child pushed out, then read back timed. */
static void swapin_round(struct swapin *m, int round)
{
	long before, after, gcma_before, gcma;
	const char *why;
	char what[32];
	struct run run;
	double t;
	int err;

	snprintf(what, sizeof(what), "swap-in, client %s", m->name);
	err = write_str(SWITCH, m->on ? "Y" : "N");
	if (err) {
		failed(&m->fails, round, what, "cannot switch " SWITCH, -err);
		return;
	}
	why = push_out(&run, SWAPIN_SIZE, &err);
	if (why) {
		failed(&m->fails, round, what, why, err);
		goto out;
	}
	before = swapped_in(run.pid, &gcma_before);
	t = reread(&run);
	after = swapped_in(run.pid, &gcma);
	stop(&run);
	if (t < 0) {
		failed(&m->fails, round, what, "the child sent no time", 0);
		goto out;
	}
	if (before < 0 || after < 0) {
		failed(&m->fails, round, what,
		       "cannot read the child's major faults or " GCMA_STATS "/loaded",
		       0);
		goto out;
	}
	if (after <= before) {
		failed(&m->fails, round, what, "no page was swapped in", 0);
		goto out;
	}
	after -= before;
	gcma -= gcma_before;
	/*
	 * A round measures its side only if the pages came from where it
	 * says: most of them from GCMA copies with the client on, none with
	 * it off.  Otherwise the "on" figure could silently be the device's.
	 */
	if (m->on ? 2 * gcma < after : gcma != 0) {
		printf("SWAPROUND round=%d what=swapin_%s pages=%ld gcma_loads=%ld not counted\n",
		       round, m->name, after, gcma);
		failed(&m->fails, round, what, m->on ?
		       "fewer than half the pages came from GCMA" :
		       "pages came from GCMA with the client off", 0);
		goto out;
	}
	add_sample(&m->us, t / after);
	add_sample(&m->pages, after);
	add_sample(&m->gcma_pct, 100.0 * gcma / after);
	printf("SWAPROUND round=%d what=swapin_%s pages=%ld gcma_loads=%ld us=%.0f us_per_page=%.2f\n",
	       round, m->name, after, gcma, t, t / after);
out:
	write_str(SWITCH, "Y");
}

/*
 * One timed allocation of @pages from the area, then its release.  Only
 * the write to the alloc file is timed, as in cma_bench.
 */
static int alloc_area(long pages, double *us)
{
	char count[32];
	double t0;
	int fd, err;

	*us = -1;
	snprintf(count, sizeof(count), "%ld", pages);
	fd = open(GCMA_AREA "/alloc", O_WRONLY);
	if (fd < 0)
		return errno;
	t0 = now_us();
	err = write(fd, count, strlen(count)) < 0 ? errno : 0;
	*us = now_us() - t0;
	close(fd);
	if (err)
		return err;
	err = write_str(GCMA_AREA "/free", count);
	if (err) {
		/* The area stays taken: no later round could measure it. */
		fprintf(stderr, "swap_bench: cannot free the %ld pages of " GCMA_AREA ": %s\n",
			pages, strerror(-err));
		exit(1);
	}
	return 0;
}

/* The client's "cached" and "discarded" counters; false if unreadable. */
static bool read_cache(long *cached, long *discarded)
{
	*cached = read_long(GCMA_STATS "/cached");
	*discarded = read_long(GCMA_STATS "/discarded");
	return *cached >= 0 && *discarded >= 0;
}

/*
 * Judge and record one allocation round: counted only if the area was as
 * full (or as empty) as the round is meant to find it.  The fill level is
 * kept whatever the outcome: it is the share of the area that swap took.
 * @cached is the client's count before the allocation, @dropped the
 * copies the allocation took from it, @err and @us what alloc_area() said.
 */
static void alloc_record(struct alloc *m, int round, long area_pages,
			 long cached, long dropped, int err, double us)
{
	double fill = 100.0 * cached / area_pages;
	char what[48];

	snprintf(what, sizeof(what), "allocation of %ld pages, area %s",
		 m->pages, m->name);
	add_sample(&m->fill_pct, fill);
	printf("SWAPROUND round=%d what=alloc_%s pages=%ld cached=%ld fill_pct=%.1f dropped=%ld us=%.1f\n",
	       round, m->name, m->pages, cached, fill, dropped,
	       err ? NAN : us);
	if (err) {
		failed(&m->fails, round, what, "cannot allocate", err);
		return;
	}
	if (m->full ? fill < FULL_PCT : fill > EMPTY_PCT) {
		failed(&m->fails, round, what, m->full ?
		       "the area was not full: not counted" :
		       "the area was not empty: not counted", 0);
		return;
	}
	add_sample(&m->us, us);
	add_sample(&m->dropped_pct, 100.0 * dropped / m->pages);
}

/*
 * Fill the area with the copies of a fresh child's swapped-out pages and
 * time the first allocation of @full->pages; let the child exit, which
 * drops its copies, and time the same allocation on the empty area.
 *
 * The copies the allocation took are counted as "discarded" by the time
 * the child has exited, whether the allocation dropped them at once or
 * left them for the client to find when the child's swap entries are
 * freed; the copies it did not take are counted as "invalidated" then.
 */
static void alloc_rounds(struct alloc *full, struct alloc *empty, int round,
			 long area_pages)
{
	size_t area = area_pages * page_size, size = LIMIT + area + area / 16;
	long cached, discarded, cached_empty, discarded_empty;
	char full_what[48], empty_what[48];
	const char *why;
	struct run run;
	double us;
	int err;

	snprintf(full_what, sizeof(full_what),
		 "allocation of %ld pages, area full", full->pages);
	snprintf(empty_what, sizeof(empty_what),
		 "allocation of %ld pages, area empty", empty->pages);
	why = push_out(&run, size, &err);
	if (!why && !read_cache(&cached, &discarded)) {
		stop(&run);
		why = "cannot read " GCMA_STATS "/cached or discarded";
	}
	if (why) {
		failed(&full->fails, round, full_what, why, err);
		failed(&empty->fails, round, empty_what,
		       "not run, as the area could not be filled first", 0);
		return;
	}
	err = alloc_area(full->pages, &us);
	stop(&run);
	if (!read_cache(&cached_empty, &discarded_empty)) {
		why = "cannot read " GCMA_STATS "/cached or discarded";
		failed(&full->fails, round, full_what, why, 0);
		failed(&empty->fails, round, empty_what, why, 0);
		return;
	}
	alloc_record(full, round, area_pages, cached,
		     discarded_empty - discarded, err, us);

	err = alloc_area(empty->pages, &us);
	discarded = read_long(GCMA_STATS "/discarded");
	alloc_record(empty, round, area_pages, cached_empty,
		     discarded - discarded_empty, err, us);
}

/* " key_min=.. key_median=.. key_max=..", the key made from @fmt. */
__attribute__((format(printf, 2, 3)))
static void print_stats(const struct samples *s, const char *fmt, ...)
{
	double min, med, max;
	char key[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	summarize(s, &min, &med, &max);
	printf(" %s_min=%.2f %s_median=%.2f %s_max=%.2f", key, min, key, med,
	       key, max);
}

/* A row of the table: rounds that counted, failures, min, median, max. */
static void print_row(const char *label, const struct samples *s, int fails,
		      int rounds)
{
	double min, med, max;

	summarize(s, &min, &med, &max);
	printf("  %-22s %2d/%-2d %5d %10.1f %10.1f %10.1f", label, s->n,
	       rounds, fails, min, med, max);
}

static void report(struct swapin *si, struct alloc (*al)[2], int nsizes,
		   int rounds, long area_pages)
{
	double on = median(&si[0].us), off = median(&si[1].us);
	int i, j;

	printf("\nswap-in of a page (us), %lu MiB written in %lu MiB per round:\n",
	       SWAPIN_SIZE >> 20, LIMIT >> 20);
	printf("  %-22s %5s %5s %10s %10s %10s %7s %6s\n", "", "ok", "fails",
	       "min", "median", "max", "pages", "GCMA");
	for (i = 0; i < 2; i++) {
		print_row(i ? "client off" : "client on", &si[i].us,
			  si[i].fails, rounds);
		printf(" %7.0f %5.1f%%\n", median(&si[i].pages),
		       median(&si[i].gcma_pct));
	}
	printf("  %-22s %45.2f\n", "off / on (medians)", off / on);

	for (j = 0; j < nsizes; j++) {
		struct alloc *a = al[j];

		printf("first allocation of %ld pages after a refill (us)%s:\n",
		       a[0].pages,
		       a[0].pages == area_pages ? ", the whole area" : "");
		printf("  %-22s %5s %5s %10s %10s %10s  %14s %8s\n", "", "ok",
		       "fails", "min", "median", "max", "cached min-max",
		       "dropped");
		for (i = 0; i < 2; i++) {
			double min, med, max;

			summarize(&a[i].fill_pct, &min, &med, &max);
			print_row(i ? "empty" : "full of cached pages",
				  &a[i].us, a[i].fails, rounds);
			printf("  %6.1f-%5.1f%% %7.1f%%\n", min, max,
			       median(&a[i].dropped_pct));
		}
		printf("  %-22s %45.2f\n", "full / empty (medians)",
		       median(&a[0].us) / median(&a[1].us));
	}
	printf("(dropped: the copies in the pages the allocation took, in %% of them, median)\n\n");

	printf("SWAPBENCH rounds=%d area_pages=%ld limit_mib=%lu swapin_mib=%lu alloc_sizes=",
	       rounds, area_pages, LIMIT >> 20, SWAPIN_SIZE >> 20);
	for (j = 0; j < nsizes; j++)
		printf("%s%ld", j ? "," : "", al[j][0].pages);
	printf("\n");
	for (i = 0; i < 2; i++) {
		printf("SWAPBENCH swapin_%s_rounds=%d", si[i].name, si[i].us.n);
		print_stats(&si[i].us, "swapin_%s_us_per_page", si[i].name);
		print_stats(&si[i].pages, "swapin_%s_pages", si[i].name);
		print_stats(&si[i].gcma_pct, "swapin_%s_gcma_pct", si[i].name);
		printf(" failures_swapin_%s=%d\n", si[i].name, si[i].fails);
	}
	printf("SWAPBENCH ratio_off_on_median=%.2f\n", off / on);
	for (j = 0; j < nsizes; j++) {
		struct alloc *a = al[j];

		for (i = 0; i < 2; i++) {
			printf("SWAPBENCH alloc_%s_%ld_rounds=%d", a[i].name,
			       a[i].pages, a[i].us.n);
			print_stats(&a[i].us, "alloc_%s_%ld_us", a[i].name,
				    a[i].pages);
			print_stats(&a[i].fill_pct, "%s_%ld_fill_pct",
				    a[i].name, a[i].pages);
			print_stats(&a[i].dropped_pct, "%s_%ld_dropped_pct",
				    a[i].name, a[i].pages);
			printf(" failures_%s_%ld=%d\n", a[i].name, a[i].pages,
			       a[i].fails);
		}
		printf("SWAPBENCH ratio_full_empty_median_%ld=%.2f\n",
		       a[0].pages, median(&a[0].us) / median(&a[1].us));
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: swap_bench [-r ROUNDS (1-%d)]\n", MAX_ROUNDS);
	exit(2);
}

/* The sizes of measurements 3 and 4 that fit in the area, and the area. */
static int alloc_setup(struct alloc (*al)[2], long area_pages)
{
	int i, n = 0;

	for (i = 0; i <= (int)ARRAY_SIZE(alloc_sizes); i++) {
		long pages = i < (int)ARRAY_SIZE(alloc_sizes) ?
			     alloc_sizes[i] : area_pages;

		if (pages > area_pages) {
			printf("# %ld pages left out: the area has %ld\n",
			       pages, area_pages);
			continue;
		}
		if (n && al[n - 1][0].pages == pages)
			continue;
		al[n][0] = (struct alloc){ .name = "full", .full = 1,
					   .pages = pages };
		al[n][1] = (struct alloc){ .name = "empty", .pages = pages };
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct swapin si[2] = { { .name = "on", .on = 1 }, { .name = "off" } };
	struct alloc al[MAX_SIZES][2];
	double t0 = now_us(), t, longest = 0;
	int rounds = ROUNDS, opt, r, i, j, nsizes, bad = 0;
	long area_pages, page_cluster;
	char val[32];

	/* stdout may be a file: keep each line of a killed run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			usage();
		rounds = atoi(optarg);
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || optind != argc)
		usage();

	page_size = sysconf(_SC_PAGESIZE);
	area_pages = read_long(GCMA_AREA "/count");
	if (area_pages <= 0 || read_long(GCMA_STATS "/cached") < 0 ||
	    access(SWITCH, W_OK)) {
		fprintf(stderr, "swap_bench: no GCMA area (" GCMA_AREA
			"), no swap client (" GCMA_STATS ") or no " SWITCH "\n");
		return 1;
	}
	nsizes = alloc_setup(al, area_pages);
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	if (mkdir(CGROUP, 0755) && errno != EEXIST) {
		fprintf(stderr, "swap_bench: cannot create " CGROUP ": %s\n",
			strerror(errno));
		return 1;
	}
	/* One major fault per page swapped in; put back at the end. */
	page_cluster = read_long(PAGE_CLUSTER);
	if (page_cluster < 0 || write_str(PAGE_CLUSTER, "0")) {
		fprintf(stderr, "swap_bench: cannot turn swap readahead off (" PAGE_CLUSTER ")\n");
		return 1;
	}
	if (system("mkswap " SWAP_DEV " >/dev/null 2>&1") ||
	    swapon(SWAP_DEV, 0)) {
		fprintf(stderr, "swap_bench: cannot swap on " SWAP_DEV "\n");
		return 1;
	}
	printf("# %d rounds of: swap-in client on, off; first allocation after a refill, full then empty, of",
	       rounds);
	for (j = 0; j < nsizes; j++)
		printf("%s %ld", j ? "," : "", al[j][0].pages);
	printf(" pages (the area has %ld)\n", area_pages);

	for (r = 1; r <= rounds; r++) {
		t = now_us();
		if (r > 1 && t - t0 + longest > BUDGET_US) {
			printf("# stopped after %d of %d rounds: one more would end past the %.0f s budget\n",
			       r - 1, rounds, BUDGET_US / 1e6);
			break;
		}
		/* on, off in odd rounds, off, on in even ones */
		swapin_round(&si[!(r & 1)], r);
		swapin_round(&si[r & 1], r);
		for (j = 0; j < nsizes; j++)
			alloc_rounds(&al[j][0], &al[j][1], r, area_pages);
		t = now_us() - t;
		if (t > longest)
			longest = t;
		printf("# round %d took %.1f s\n", r, t / 1e6);
	}
	swapoff(SWAP_DEV);
	snprintf(val, sizeof(val), "%ld", page_cluster);
	write_str(PAGE_CLUSTER, val);
	rmdir(CGROUP);

	report(si, al, nsizes, r - 1, area_pages);
	for (i = 0; i < 2; i++)
		bad |= si[i].fails || !si[i].us.n;
	for (j = 0; j < nsizes; j++)
		for (i = 0; i < 2; i++)
			bad |= al[j][i].fails || !al[j][i].us.n;
	return bad;
}
