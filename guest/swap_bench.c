// SPDX-License-Identifier: GPL-2.0
/*
 * swap_bench: what GCMA's swap client buys and what it costs, in one boot.
 *
 * 1. Swap-in latency.  A child in a cgroup with memory.max = 32 MiB writes
 *    96 MiB, so that about 64 MiB go to swap.  The limit is then lifted
 *    and the child reads everything back, timed: every swapped-out page is
 *    a major fault.  Once with the swap client on (the pages come back
 *    from GCMA copies), once with it off (they come from the swap device).
 * 2. The share of the GCMA area used as swap cache under pressure: the
 *    "cached" pages once a 224 MiB child has been written in 32 MiB.
 * 3. The latency of allocating the whole GCMA area through the CMA
 *    debugfs alloc file while it is full of cached pages (that child's;
 *    they are dropped) against while it is empty, ROUNDS rounds each.
 *
 * The swap device is /dev/vda (made a swap area here).  Needs root,
 * debugfs, cgroup v2 at /sys/fs/cgroup and a GCMA area named "gcma".
 *
 * Output: a short report and machine-readable lines "SWAPBENCH key=value".
 * Exit status: 0, or 1 when something could not be measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
#define LIMIT		(32UL << 20)
#define SMALL		(96UL << 20)
#define LARGE		(224UL << 20)
#define ROUNDS		8

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long val = -1;

	if (f) {
		if (fscanf(f, "%ld", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void set_limit(unsigned long bytes)
{
	char val[32];

	if (bytes)
		snprintf(val, sizeof(val), "%lu", bytes);
	else
		snprintf(val, sizeof(val), "max");
	write_str(CGROUP "/memory.max", val);
}

/*
 * The child: join the cgroup, write @size bytes, tell the parent (one byte
 * on @ready), wait for a byte on @go, read everything back timed, send the
 * elapsed microseconds, wait for @go again, exit.  It exits as soon as @go
 * is closed.
 */
static void child(size_t size, int ready, int go)
{
	size_t i, words = size / sizeof(uint64_t);
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
		mem[i] = i * 0x9e3779b97f4a7c15ULL;
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(2);
	t0 = now_us();
	for (i = 0; i < words; i += 4096 / sizeof(uint64_t))
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

static int start(struct run *run, size_t size)
{
	int to_parent[2], to_child[2];
	char c;

	if (pipe(to_parent) || pipe(to_child))
		return -1;
	run->pid = fork();
	if (!run->pid) {
		close(to_parent[0]);
		close(to_child[1]);
		child(size, to_parent[1], to_child[0]);
	}
	close(to_parent[1]);
	close(to_child[0]);
	run->ready = to_parent[0];
	run->go = to_child[1];
	return read(run->ready, &c, 1) == 1 ? 0 : -1;
}

static double reread(struct run *run)
{
	double t = -1;

	if (write(run->go, "g", 1) != 1 ||
	    read(run->ready, &t, sizeof(t)) != sizeof(t))
		return -1;
	return t;
}

/* Closing @go ends the child wherever it waits for the parent. */
static void stop(struct run *run)
{
	int status;

	close(run->go);
	waitpid(run->pid, &status, 0);
	close(run->ready);
}

/* Microseconds per page read back after SMALL was pushed out in LIMIT. */
static double swapin_us(int gcma_on, long *loaded)
{
	long before = read_long(GCMA_STATS "/loaded");
	struct run run;
	double t;

	write_str(SWITCH, gcma_on ? "Y" : "N");
	set_limit(LIMIT);
	if (start(&run, SMALL))
		return -1;
	set_limit(0);
	t = reread(&run);
	stop(&run);
	write_str(SWITCH, "Y");
	*loaded = read_long(GCMA_STATS "/loaded") - before;
	return t < 0 ? -1 : t / (SMALL / 4096);
}

/* Average microseconds to allocate (and, untimed, free) the whole area. */
static double grab_us(long pages, int *fails)
{
	char count[32];
	double sum = 0, t0;
	int i;

	snprintf(count, sizeof(count), "%ld", pages);
	for (i = 0; i < ROUNDS; i++) {
		t0 = now_us();
		if (write_str(GCMA_AREA "/alloc", count)) {
			(*fails)++;
			continue;
		}
		sum += now_us() - t0;
		write_str(GCMA_AREA "/free", count);
	}
	return i > *fails ? sum / (i - *fails) : -1;
}

int main(void)
{
	long area_pages = read_long(GCMA_AREA "/count"), loaded_on, loaded_off;
	long cached, discarded;
	double on, off, full, empty;
	struct run run;
	int fails = 0;

	if (area_pages <= 0 || read_long(GCMA_STATS "/cached") < 0) {
		printf("swap_bench: no GCMA area or no swap client\n");
		return 1;
	}
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	mkdir(CGROUP, 0755);
	if (system("mkswap " SWAP_DEV " >/dev/null 2>&1") ||
	    swapon(SWAP_DEV, 0)) {
		printf("swap_bench: cannot swap on %s\n", SWAP_DEV);
		return 1;
	}

	/* 1. Swap-in latency, GCMA hit against device read. */
	on = swapin_us(1, &loaded_on);
	off = swapin_us(0, &loaded_off);

	/* 2 and 3: under pressure, the area fills; take it, then empty. */
	set_limit(LIMIT);
	if (start(&run, LARGE))
		return 1;
	cached = read_long(GCMA_STATS "/cached");
	discarded = read_long(GCMA_STATS "/discarded");
	full = grab_us(area_pages, &fails);
	discarded = read_long(GCMA_STATS "/discarded") - discarded;
	stop(&run);
	set_limit(0);
	empty = grab_us(area_pages, &fails);
	swapoff(SWAP_DEV);

	printf("swap-in of a page, after %lu MiB were pushed out of %lu MiB:\n",
	       (SMALL - LIMIT) >> 20, LIMIT >> 20);
	printf("  from GCMA copies   %8.1f us/page (%ld GCMA loads)\n", on,
	       loaded_on);
	printf("  from %s      %8.1f us/page (%ld GCMA loads)\n", SWAP_DEV, off,
	       loaded_off);
	printf("  device / GCMA      %8.1f\n", off / on);
	printf("GCMA area used as swap cache under pressure: %ld of %ld pages (%.0f%%)\n",
	       cached, area_pages, 100.0 * cached / area_pages);
	printf("allocating the whole area (%ld pages), %d rounds:\n",
	       area_pages, ROUNDS);
	printf("  full of cached pages (%ld cached, %ld dropped)  %10.1f us\n",
	       cached, discarded, full);
	printf("  empty                                   %10.1f us\n", empty);
	printf("  full / empty                            %10.1f\n", full / empty);
	printf("SWAPBENCH swapin_gcma_us=%.1f swapin_device_us=%.1f ratio=%.2f\n",
	       on, off, off / on);
	printf("SWAPBENCH cache_max_pages=%ld area_pages=%ld share=%.3f\n",
	       cached, area_pages, (double)cached / area_pages);
	printf("SWAPBENCH grab_full_us=%.1f grab_empty_us=%.1f ratio=%.2f fails=%d\n",
	       full, empty, full / empty, fails);
	rmdir(CGROUP);
	return fails || on < 0 || off < 0 ? 1 : 0;
}
