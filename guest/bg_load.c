// SPDX-License-Identifier: GPL-2.0
/*
 * bg_load: the background workload of the benchmark that repeats the 2014
 * GCMA RFC evaluation, which ran a kernel build behind the measurement.  It
 * makes the two kinds of pressure that matter to GCMA and measures how much
 * work it got done meanwhile:
 *
 *  - anonymous memory that swaps: WORKERS children in a cgroup whose
 *    memory.max is below what they map.  Each fills its share, then visits
 *    pages at random, checks every word of the page and, one visit in two,
 *    rewrites the page with a new version, so that pages keep going out to
 *    swap dirty and coming back.
 *  - file reads larger than memory: one child, outside the cgroup, reads a
 *    file of FILE_MIB MiB from start to end, over and over, so that its
 *    clean page cache keeps being dropped and read again.
 *
 * That is the streaming load, the worst case for any cache: nothing is
 * read again before the whole file has gone by.  With -z the load reuses
 * what it touched instead, as most programs do: the workers visit their
 * pages and the reader reads 256 KiB pieces of its file with Zipf-like
 * popularity (the k-th most popular is chosen in proportion to 1 / k^SKEW),
 * the popular ones scattered over the memory and the file, so that a
 * cache that keeps what is read again pays off and one that keeps
 * everything does not.
 *
 * Every word is checked against what was written: swapped-out and dropped
 * pages may come back through GCMA, and data it loses must fail the run.
 * Word i of page p of worker w at version v is anon_word(w, p, v, i); the
 * 8-byte word at byte o of the file is file_word(o).  The file is written
 * once and kept: a later run reuses it when its size is right.
 *
 * usage: bg_load -d SECONDS -a ANON_MIB -w WORKERS -l LIMIT_MIB -f FILE
 *                -s FILE_MIB [-W SECONDS] [-z SKEW] [-O OFFSET]
 *                [-g GCMA_AREA_DIR] [-n] [-p]
 *   -d  seconds to measure; 0: until SIGTERM/SIGINT
 *   -W  seconds of load once all children are ready before the measurement
 *       starts (default 0), so that caches settle first
 *   -z  the reuse load: pages and file pieces chosen with Zipf-like
 *       popularity of exponent SKEW (0 < SKEW <= 4); without it, the
 *       streaming load
 *   -O  the streaming reader's first byte (default 0; taken modulo the
 *       file's size, rounded down to 256 KiB): where an earlier run's
 *       stream_offset says it stopped, so that runs in a row read on as
 *       one stream instead of finding the file's start still cached
 *   -a  anonymous MiB in all, split evenly over the workers (a multiple of -w)
 *   -w  anonymous workers, 1 to 16
 *   -l  memory.max of the workers' cgroup (CGROUP), MiB; below -a to swap
 *       (memory.high is set to 15/16 of it)
 *   -f  the file to read, written first if missing or of another size
 *   -s  its size, MiB (larger than the guest's memory)
 *   -g  a GCMA area's debugfs directory (files count and lent, in pages):
 *       the share of the area lent out is sampled once a second
 *   -n  no cgroup, for a try on a host: the workers stay in the caller's
 *       cgroup and -l may be left out
 *   -p  the reader on the last CPU, the workers on the others (at least
 *       two CPUs): each side of the load keeps its CPUs, so that a cache
 *       that speeds one up does not slow the other down by leaving it
 *       less CPU time (reclaim by kswapd and kworkers still runs anywhere)
 * Needs root, cgroup v2 at /sys/fs/cgroup and, for -g, debugfs.
 *
 * Output (stdout):
 *   # bg_load: ...           what setup did (the file written or reused)
 *   BGLOAD_READY             all children ready: the warm-up starts
 *   BGLOAD seconds=.. workers=.. anon_mib=.. limit_mib=.. file_mib=..
 *     skew=.. warmup=.. anon_pages=.. anon_pps=.. file_read_mib=..
 *     file_mibps=.. errors=.. children_died=.. lent_avg_pct=.. lent_max_pct=..
 *     stream_offset=.. anon_cpu_pct=.. file_cpu_pct=.. guest_busy_pct=..
 *                            one line at the end; lent_* are "-" without
 *                            -g or a readable sample
 * anon_cpu_pct and file_cpu_pct are the CPU time the workers (together)
 * and the reader used in the window, user and system, in percent of one
 * CPU; guest_busy_pct is how busy all the guest's CPUs were (idle and
 * iowait are not busy, steal is left out); "-" when /proc did not say, a
 * child died or nothing was measured.
 * anon_pages and file_read_mib count the work done after the warm-up; skew
 * is "-" for the streaming load;
 * errors counts wrong data since the start (pages for the workers, 8-byte
 * words for the reader).  Mismatches and dead children are told on stderr.
 * Exit status: 0; 1 when setup failed or a child died; 2 on bad usage;
 * 3 when data came back wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP		CGROUP_ROOT "/bg_load"
#define MAX_WORKERS	16
#define MAX_MIB		(1L << 20)	/* 1 TiB: anything larger is a typo */
#define MAX_FILE_MIB	(1L << 24)
#define MAX_SECONDS	(1L << 24)
#define MAX_OFFSET	((1L << 31) - 1)	/* bytes; wraps at the file's end */
#define WRITE_CHUNK	(1 << 20)
#define READ_CHUNK	(256 << 10)
#define FLUSH_EVERY	8		/* pages visited between counter updates */
#define MAX_REPORTS	5		/* mismatches printed per child */
#define FILE_SEED	0x6a09e667f3bcc908ULL
#define ANON_SEED	0xbb67ae8584caa73bULL
#define GOLDEN		0x9e3779b97f4a7c15ULL

/*
 * What a child tells the parent, in memory they share.  A cache line each,
 * so that a worker's stores do not slow down the others'.
 */
struct slot {
	uint64_t done;		/* pages visited (worker), bytes read (reader) */
	uint64_t errors;	/* pages (worker) or words (reader) found wrong */
	uint64_t offset;	/* the streaming reader's next byte */
	uint32_t ready;		/* set up: its work counts from now on */
} __attribute__((aligned(64)));

static int seconds = -1, anon_mib = -1, workers = -1, limit_mib = -1;
static int file_mib = -1, no_cgroup, warmup, pin_cpus;
static long long start_offset;		/* the streaming reader's first byte */
static double skew;			/* 0: the streaming load */
static const char *file, *gcma_dir;

static long page_size;
static struct slot *slots;		/* workers, then the reader */
static pid_t pids[MAX_WORKERS + 1];	/* 0 once reaped */
static int nchildren;
static volatile sig_atomic_t stop;

/* splitmix64's finalizer: a bijection, so distinct inputs never collide. */
static inline uint64_t mix64(uint64_t z)
{
	z += GOLDEN;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t file_word(uint64_t off)
{
	return mix64(off ^ FILE_SEED);
}

/* Word 0 of a page; page < 2^28 and worker < 16 keep the fields apart. */
static inline uint64_t page_base(int worker, uint64_t page, unsigned int v)
{
	return mix64(ANON_SEED ^ (uint64_t)worker << 56 ^ page << 8 ^ v);
}

/*
 * Word i of a page steps on from word 0 by a constant, one addition per
 * word in the loops (cheap under emulation).  Two words running are never
 * both zero, so a page that comes back zeroed is always caught.
 */
static inline uint64_t anon_word(int worker, uint64_t page, unsigned int v,
				 uint64_t i)
{
	return page_base(worker, page, v) + i * GOLDEN;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	/* A signal cuts it short; the callers look at stop. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;
	ssize_t len = strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != len)
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/*
 * A number in a file of @dir, -1 if unreadable.  No stdio: the parent reads
 * debugfs once a second for the whole run and should not grow.
 */
static long read_long(const char *dir, const char *name)
{
	char path[512], buf[32], *end;
	ssize_t n;
	long val;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	val = strtol(buf, &end, 10);
	if (errno || end == buf || val < 0)
		return -1;
	return val;
}

static void usage(void)
{
	fprintf(stderr, "usage: bg_load -d SECONDS -a ANON_MIB -w WORKERS -l LIMIT_MIB -f FILE -s FILE_MIB [-W SECONDS] [-z SKEW] [-O OFFSET] [-g GCMA_AREA_DIR] [-n] [-p]\n");
	exit(2);
}

static void bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bg_load: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	usage();
}

static int parse_num(const char *arg, char opt, long min, long max)
{
	char *end;
	long val;

	errno = 0;
	val = strtol(arg, &end, 10);
	if (errno || end == arg || *end || val < min || val > max)
		bad_usage("-%c %s: not a whole number from %ld to %ld", opt,
			  arg, min, max);
	return val;
}

/* ---- the reuse load's popularity ---- */

/*
 * Items 0..n-1 ranked by popularity: rank k (from 0) is drawn with weight
 * 1 / (k + 1)^skew, by a binary search of the cumulative weights, and
 * lives at item k * step mod n, step prime to n, so that the popular items
 * are spread over the whole range instead of sitting at its start.
 */
struct zipf {
	double *cdf;
	size_t n, step;
};

static size_t gcd(size_t a, size_t b)
{
	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int zipf_init(struct zipf *z, size_t n)
{
	double sum = 0;
	size_t k;

	z->n = n;
	z->cdf = malloc(n * sizeof(*z->cdf));
	if (!z->cdf)
		return -1;
	for (k = 0; k < n; k++) {
		sum += pow(k + 1, -skew);
		z->cdf[k] = sum;
	}
	for (k = 0; k < n; k++)
		z->cdf[k] /= sum;
	/* Near n times the golden ratio: neighbours in rank land far apart. */
	z->step = (size_t)(n * 0.6180339887) | 1;
	while (gcd(z->step, n) != 1)
		z->step += 2;
	return 0;
}

/* The next item, from the xorshift64 state *x. */
static size_t zipf_next(const struct zipf *z, uint64_t *x)
{
	double u;
	size_t lo = 0, hi = z->n - 1;

	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	u = (*x >> 11) * 0x1p-53;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* n < 2^28 (see page_base()): the product fits in 64 bits. */
	return (size_t)((uint64_t)lo * z->step % z->n);
}

/* ---- the children ---- */

/* The first few mismatches of a child, for a look at what came back. */
static void report_mismatch(const char *who, unsigned int *reported,
			    const char *where, uint64_t got, uint64_t want)
{
	if (*reported >= MAX_REPORTS)
		return;
	++*reported;
	fprintf(stderr, "bg_load: %s: %s is 0x%016llx, expected 0x%016llx%s\n",
		who, where, (unsigned long long)got, (unsigned long long)want,
		*reported == MAX_REPORTS ? " (further mismatches only counted)" : "");
}

static void publish(struct slot *slot, uint64_t done, uint64_t errors)
{
	__atomic_store_n(&slot->done, done, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->errors, errors, __ATOMIC_RELAXED);
}

static void fill_page(uint64_t *page, size_t words, uint64_t val)
{
	size_t i;

	for (i = 0; i < words; i++, val += GOLDEN)
		page[i] = val;
}

/* No branch per word: the common case is a page that is right. */
static int page_ok(const uint64_t *page, size_t words, uint64_t val)
{
	uint64_t diff = 0;
	size_t i;

	for (i = 0; i < words; i++, val += GOLDEN)
		diff |= page[i] ^ val;
	return !diff;
}

static void anon_worker(int w)
{
	size_t words = page_size / sizeof(uint64_t), npages, p, i;
	uint64_t x, visited = 0, errors = 0, *page;
	struct slot *slot = &slots[w];
	unsigned int reported = 0;
	char who[32], where[64];
	struct zipf popular;
	uint8_t *version;
	int rewrite;
	char *mem;

	snprintf(who, sizeof(who), "anon worker %d", w);
	if (!no_cgroup) {
		char pid[32];
		int err;

		/* Before the first page, so that all of them are charged. */
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		err = write_str(CGROUP "/cgroup.procs", pid);
		if (err) {
			fprintf(stderr, "bg_load: %s: cannot join " CGROUP ": %s\n",
				who, strerror(-err));
			_exit(1);
		}
	}
	npages = ((size_t)anon_mib / workers << 20) / page_size;
	mem = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	version = calloc(npages, 1);
	if (mem == MAP_FAILED || !version ||
	    (skew > 0 && zipf_init(&popular, npages))) {
		fprintf(stderr, "bg_load: %s: cannot map %zu pages\n", who,
			npages);
		_exit(1);
	}
	/*
	 * Small pages only: a huge page would go out to swap and come back
	 * 512 pages at a time, unlike the scattered small pages of a kernel
	 * build.  Without THP this fails, which is fine.
	 */
	madvise(mem, npages * page_size, MADV_NOHUGEPAGE);

	for (p = 0; p < npages && !stop; p++)
		fill_page((uint64_t *)(mem + p * page_size), words,
			  page_base(w, p, 0));
	if (stop)
		_exit(0);
	publish(slot, 0, 0);
	__atomic_store_n(&slot->ready, 1, __ATOMIC_RELEASE);

	/* xorshift64 must not start at 0; each worker its own sequence. */
	x = mix64(ANON_SEED + w) | 1;
	while (!stop) {
		if (skew > 0) {
			p = zipf_next(&popular, &x);
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Multiply-shift, not a division: npages < 2^32. */
			p = (x >> 32) * npages >> 32;
		}
		page = (uint64_t *)(mem + p * page_size);
		rewrite = x & 1;
		if (!page_ok(page, words, page_base(w, p, version[p]))) {
			for (i = 0; i < words; i++) {
				uint64_t want = anon_word(w, p, version[p], i);

				if (page[i] == want)
					continue;
				snprintf(where, sizeof(where),
					 "page %zu word %zu (version %u)", p, i,
					 version[p]);
				report_mismatch(who, &reported, where, page[i],
						want);
			}
			errors++;
			/* Rewrite it, so that one loss is counted once. */
			rewrite = 1;
		}
		if (rewrite) {
			version[p]++;
			fill_page(page, words, page_base(w, p, version[p]));
		}
		if (!(++visited % FLUSH_EVERY))
			publish(slot, visited, errors);
	}
	publish(slot, visited, errors);
	_exit(0);
}

static void file_reader(void)
{
	uint64_t size = (uint64_t)file_mib << 20, bytes = 0;
	uint64_t off = (uint64_t)start_offset / READ_CHUNK * READ_CHUNK % size;
	size_t words = READ_CHUNK / sizeof(uint64_t), got, j;
	struct slot *slot = &slots[workers];
	uint64_t errors = 0, *buf, diff, x = mix64(FILE_SEED) | 1;
	unsigned int reported = 0;
	struct zipf popular;
	char where[64];
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY);
	buf = malloc(READ_CHUNK);
	if (fd < 0 || !buf) {
		fprintf(stderr, "bg_load: file reader: cannot open %s: %s\n",
			file, strerror(errno));
		_exit(1);
	}
	if (skew > 0 && zipf_init(&popular, size / READ_CHUNK)) {
		fprintf(stderr, "bg_load: file reader: out of memory\n");
		_exit(1);
	}
	__atomic_store_n(&slot->offset, off, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->ready, 1, __ATOMIC_RELEASE);

	while (!stop) {
		if (skew > 0)
			off = zipf_next(&popular, &x) * READ_CHUNK;
		for (got = 0; got < READ_CHUNK && !stop; got += n) {
			n = pread(fd, (char *)buf + got, READ_CHUNK - got,
				  off + got);
			if (n > 0)
				continue;
			if (n < 0 && errno == EINTR) {
				n = 0;
				continue;
			}
			fprintf(stderr, "bg_load: file reader: %s at byte %llu: %s\n",
				file, (unsigned long long)(off + got),
				n ? strerror(errno) : "the file is shorter than it was");
			_exit(1);
		}
		if (got < READ_CHUNK)
			break;		/* stopped midway: not counted */
		diff = 0;
		for (j = 0; j < words; j++)
			diff |= buf[j] ^ file_word(off + j * sizeof(uint64_t));
		for (j = 0; diff && j < words; j++) {
			uint64_t o = off + j * sizeof(uint64_t);

			if (buf[j] == file_word(o))
				continue;
			errors++;
			snprintf(where, sizeof(where), "byte %llu",
				 (unsigned long long)o);
			report_mismatch("file reader", &reported, where, buf[j],
					file_word(o));
		}
		bytes += READ_CHUNK;
		off += READ_CHUNK;
		if (off == size)
			off = 0;
		__atomic_store_n(&slot->offset, off, __ATOMIC_RELAXED);
		publish(slot, bytes, errors);
	}
	publish(slot, bytes, errors);
	_exit(0);
}

/* ---- the parent ---- */

static void child_name(int i, char *buf, size_t len)
{
	if (i < workers)
		snprintf(buf, len, "anon worker %d", i);
	else
		snprintf(buf, len, "file reader");
}

/*
 * Reap the children that ended (all of them, waiting, if @block) and say
 * how each that died did; returns how many died.  Exit status 0 is a
 * death too unless the children were told to stop (@told): they exit only
 * then.
 */
static int reap(int block, int told)
{
	int i, status, died = 0;
	char name[32];
	pid_t r;

	for (i = 0; i < nchildren; i++) {
		if (!pids[i])
			continue;
		do
			r = waitpid(pids[i], &status, block ? 0 : WNOHANG);
		while (r < 0 && errno == EINTR);
		if (!r)
			continue;
		child_name(i, name, sizeof(name));
		if (r < 0) {
			fprintf(stderr, "bg_load: %s (pid %d) is lost: %s\n",
				name, (int)pids[i], strerror(errno));
			died++;
		} else if (WIFSIGNALED(status)) {
			fprintf(stderr, "bg_load: %s (pid %d) was killed by signal %d (%s)%s\n",
				name, (int)pids[i], WTERMSIG(status),
				strsignal(WTERMSIG(status)),
				WTERMSIG(status) == SIGKILL ? ": the OOM killer?" : "");
			died++;
		} else if (WEXITSTATUS(status) || !told) {
			fprintf(stderr, "bg_load: %s (pid %d) exited with status %d before it was told to stop\n",
				name, (int)pids[i], WEXITSTATUS(status));
			died++;
		}
		pids[i] = 0;
	}
	return died;
}

static int stop_children(void)
{
	int i;

	for (i = 0; i < nchildren; i++)
		if (pids[i])
			kill(pids[i], SIGTERM);
	return reap(1, 1);
}

/* Wrong data found by all children so far, read when they are gone. */
static uint64_t total_errors(void)
{
	uint64_t errors = 0;
	int i;

	for (i = 0; i < nchildren; i++)
		errors += __atomic_load_n(&slots[i].errors, __ATOMIC_RELAXED);
	return errors;
}

/* With -p: child @i to its CPUs (the reader is child @workers). */
static void pin_child(int i)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	long cpu;

	if (!pin_cpus)
		return;
	CPU_ZERO(&set);
	if (i == workers)
		CPU_SET(cpus - 1, &set);
	for (cpu = 0; i < workers && cpu < cpus - 1; cpu++)
		CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "bg_load: cannot bind child %d to its CPUs: %s\n",
			i, strerror(errno));
		_exit(1);
	}
}

static int start_children(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int i;

	/*
	 * No SA_RESTART: a signal must cut the parent's sleep short.  The
	 * children keep the SIGTERM handler; SIGINT (a ^C to the whole
	 * process group) is for the parent alone, which then stops them.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	fflush(stdout);
	for (i = 0; i <= workers; i++) {
		pid_t pid = fork();

		if (!pid) {
			signal(SIGINT, SIG_IGN);
			pin_child(i);
			if (i < workers)
				anon_worker(i);
			file_reader();
		}
		if (pid < 0) {
			perror("bg_load: fork");
			stop_children();
			return -1;
		}
		pids[nchildren++] = pid;
	}
	return 0;
}

/* 0 once every child is set up, -1 (said) if one died or we were stopped. */
static int wait_ready(void)
{
	int i, all;

	for (;;) {
		for (i = 0, all = 1; i < nchildren; i++)
			if (!__atomic_load_n(&slots[i].ready, __ATOMIC_ACQUIRE))
				all = 0;
		if (reap(0, 0))
			return -1;
		if (all)
			return 0;
		if (stop) {
			fprintf(stderr, "bg_load: stopped before the children were ready\n");
			return -1;
		}
		sleep_until(now_s() + 0.1);
	}
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* The file to read, written unless it is there at its size; 0 or -1, said. */
static int prepare_file(void)
{
	uint64_t size = (uint64_t)file_mib << 20, off, *buf;
	size_t words = WRITE_CHUNK / sizeof(uint64_t), j;
	const char *what;
	struct stat st;
	double t0;
	int fd;

	/* Only the size is checked: the reader checks every word anyway. */
	if (!stat(file, &st)) {
		if ((uint64_t)st.st_size == size) {
			printf("# bg_load: reusing %s (%d MiB)\n", file,
			       file_mib);
			return 0;
		}
	} else if (errno != ENOENT) {
		fprintf(stderr, "bg_load: %s: %s\n", file, strerror(errno));
		return -1;
	}

	t0 = now_s();
	buf = malloc(WRITE_CHUNK);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!buf || fd < 0) {
		fprintf(stderr, "bg_load: cannot create %s: %s\n", file,
			strerror(errno));
		free(buf);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	what = "write";
	for (off = 0; off < size; off += WRITE_CHUNK) {
		for (j = 0; j < words; j++)
			buf[j] = file_word(off + j * sizeof(uint64_t));
		if (write_all(fd, buf, WRITE_CHUNK))
			goto fail;
	}
	what = "fsync";
	if (fsync(fd))
		goto fail;
	what = "close";
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	free(buf);
	printf("# bg_load: wrote %s (%d MiB) in %.1f s\n", file, file_mib,
	       now_s() - t0);
	return 0;

fail:
	/* A partial file would only fill the disk: the next run rewrites. */
	fprintf(stderr, "bg_load: %s %s: %s\n", what, file,
		errno ? strerror(errno) : "short write");
	if (fd >= 0)
		close(fd);
	unlink(file);
	free(buf);
	return -1;
}

static int setup_cgroup(void)
{
	char val[32];
	int err;

	if (mkdir(CGROUP, 0755) && errno != EEXIST) {
		fprintf(stderr, "bg_load: cannot create " CGROUP ": %s\n",
			strerror(errno));
		return -1;
	}
	err = write_str(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	if (err) {
		fprintf(stderr, "bg_load: cannot enable the memory controller (" CGROUP_ROOT "/cgroup.subtree_control): %s\n",
			strerror(-err));
		return -1;
	}
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit_mib << 20);
	err = write_str(CGROUP "/memory.max", val);
	if (err) {
		fprintf(stderr, "bg_load: cannot set " CGROUP "/memory.max to %s: %s\n",
			val, strerror(-err));
		return -1;
	}
	/*
	 * Workers that charge faster than reclaim can swap (both filling
	 * their memory at once, onto zram) hit memory.max with nothing yet
	 * reclaimable and are OOM-killed.  memory.high, a little below,
	 * makes them wait for reclaim instead.
	 */
	snprintf(val, sizeof(val), "%llu",
		 ((unsigned long long)limit_mib << 20) / 16 * 15);
	err = write_str(CGROUP "/memory.high", val);
	if (err) {
		fprintf(stderr, "bg_load: cannot set " CGROUP "/memory.high to %s: %s\n",
			val, strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * CPU seconds a child has used so far, user and system (reclaim and
 * copies in its own context count), from /proc/PID/stat; -1 if unreadable.
 */
static double cpu_s(pid_t pid)
{
	unsigned long long utime, stime;
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* The name may hold spaces and parentheses: fields follow the last. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &utime, &stime) != 2)
		return -1;
	return (double)(utime + stime) / sysconf(_SC_CLK_TCK);
}

/*
 * The whole guest's busy and total CPU time so far (all CPUs, seconds),
 * from /proc/stat's first line: busy is all but idle, iowait and steal
 * (time a hypervisor gave to others, which is in neither); -1 if
 * unreadable.
 */
static int guest_cpu_s(double *busy, double *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n, i;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 5)
		return -1;
	for (i = 0, *total = 0; i < 7; i++)
		*total += v[i];
	*busy = *total - v[3] - v[4];
	*busy /= sysconf(_SC_CLK_TCK);
	*total /= sysconf(_SC_CLK_TCK);
	return 0;
}

/* The share of the GCMA area lent out, percent; -1 if unreadable. */
static double lent_pct(void)
{
	long count = read_long(gcma_dir, "count");
	long lent = read_long(gcma_dir, "lent");

	if (count <= 0 || lent < 0)
		return -1;
	return 100.0 * lent / count;
}

static double parse_skew(const char *arg)
{
	char *end;
	double val;

	errno = 0;
	val = strtod(arg, &end);
	if (errno || end == arg || *end || !(val > 0 && val <= 4))
		bad_usage("-z %s: not a number above 0 and at most 4", arg);
	return val;
}

static void parse_args(int argc, char **argv)
{
	struct stat st;
	int opt;

	while ((opt = getopt(argc, argv, "d:a:w:l:f:s:g:npW:z:O:")) != -1) {
		switch (opt) {
		case 'd':
			seconds = parse_num(optarg, opt, 0, MAX_SECONDS);
			break;
		case 'a':
			anon_mib = parse_num(optarg, opt, 1, MAX_MIB);
			break;
		case 'w':
			workers = parse_num(optarg, opt, 1, MAX_WORKERS);
			break;
		case 'l':
			limit_mib = parse_num(optarg, opt, 1, MAX_MIB);
			break;
		case 'f':
			file = optarg;
			break;
		case 's':
			file_mib = parse_num(optarg, opt, 1, MAX_FILE_MIB);
			break;
		case 'g':
			gcma_dir = optarg;
			break;
		case 'n':
			no_cgroup = 1;
			break;
		case 'p':
			pin_cpus = 1;
			break;
		case 'W':
			warmup = parse_num(optarg, opt, 0, MAX_SECONDS);
			break;
		case 'z':
			skew = parse_skew(optarg);
			break;
		case 'O':
			start_offset = parse_num(optarg, opt, 0, MAX_OFFSET);
			break;
		default:
			usage();
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument %s", argv[optind]);
	if (seconds < 0)
		bad_usage("-d is missing");
	if (anon_mib < 0)
		bad_usage("-a is missing");
	if (workers < 0)
		bad_usage("-w is missing");
	if (limit_mib < 0 && !no_cgroup)
		bad_usage("-l is missing (it may be left out only with -n)");
	if (!file || !*file)
		bad_usage("-f is missing");
	if (file_mib < 0)
		bad_usage("-s is missing");
	if (!stat(file, &st) && !S_ISREG(st.st_mode))
		bad_usage("-f %s: not a regular file", file);
	if (pin_cpus && sysconf(_SC_NPROCESSORS_ONLN) < 2)
		bad_usage("-p needs two CPUs at least");
	if (anon_mib % workers)
		bad_usage("-a %d is not a multiple of -w %d", anon_mib, workers);
	if (gcma_dir && (strlen(gcma_dir) > 256 ||
			 read_long(gcma_dir, "count") <= 0 ||
			 read_long(gcma_dir, "lent") < 0))
		bad_usage("-g %s: no GCMA area there (files count and lent)",
			  gcma_dir);
	if (!no_cgroup && limit_mib >= anon_mib)
		fprintf(stderr, "bg_load: warning: -l %d is not below -a %d: the workers may not swap\n",
			limit_mib, anon_mib);
}

int main(int argc, char **argv)
{
	uint64_t start[MAX_WORKERS + 1], end[MAX_WORKERS + 1];
	uint64_t pages = 0, bytes = 0, errors;
	double t0, t1, next, secs, pct, lent_sum = 0, lent_max = 0;
	double cpu0[MAX_WORKERS + 1], cpu1[MAX_WORKERS + 1];
	double busy0 = -1, total0 = -1, busy1 = -1, total1 = -1;
	char avg[16] = "-", max[16] = "-", skew_str[16] = "-";
	char anon_cpu[16] = "-", file_cpu[16] = "-", guest_busy[16] = "-";
	double anon_cpu_s = 0;
	int cpu_known = 1;
	int i, tick, died = 0, lent_n = 0;

	parse_args(argc, argv);
	/* stdout may be a file or a serial port: keep each line of a kill. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	page_size = sysconf(_SC_PAGESIZE);

	if (prepare_file())
		return 1;
	if (!no_cgroup && setup_cgroup())
		return 1;
	slots = mmap(NULL, sizeof(*slots) * (MAX_WORKERS + 1),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED) {
		perror("bg_load: mmap");
		return 1;
	}
	if (no_cgroup)
		printf("# bg_load: %d workers x %d MiB (no cgroup), reading %s\n",
		       workers, anon_mib / workers, file);
	else
		printf("# bg_load: %d workers x %d MiB in " CGROUP " (memory.max %d MiB), reading %s\n",
		       workers, anon_mib / workers, limit_mib, file);
	if (start_children())
		return 1;
	if (wait_ready()) {
		stop_children();
		if (!no_cgroup)
			rmdir(CGROUP);
		/* The reader checks data from the start: a loss still fails. */
		return total_errors() ? 3 : 1;
	}

	printf("BGLOAD_READY\n");
	fflush(stdout);
	t0 = now_s() + warmup;
	while (!stop && now_s() < t0) {
		sleep_until(now_s() + 1 < t0 ? now_s() + 1 : t0);
		died += reap(0, 0);
	}
	for (i = 0; i < nchildren; i++) {
		start[i] = __atomic_load_n(&slots[i].done, __ATOMIC_RELAXED);
		cpu0[i] = pids[i] ? cpu_s(pids[i]) : -1;
	}
	guest_cpu_s(&busy0, &total0);

	for (tick = 1; !stop; tick++) {
		next = t0 + tick;
		if (seconds && next > t0 + seconds)
			next = t0 + seconds;
		while (!stop && now_s() < next)
			sleep_until(next);
		if (stop)
			break;
		if (gcma_dir) {
			pct = lent_pct();
			if (pct >= 0) {
				lent_sum += pct;
				if (!lent_n++ || pct > lent_max)
					lent_max = pct;
			}
		}
		died += reap(0, stop);
		if (seconds && next >= t0 + seconds)
			break;
	}

	/*
	 * The work counted is that of the window just measured, taken before
	 * the children are stopped: what they do while they wind down is not
	 * in it.  Errors are all of them, read once the children are gone.
	 */
	t1 = now_s();
	if (t1 < t0)
		t0 = t1;	/* stopped in the warm-up: nothing measured */
	for (i = 0; i < nchildren; i++) {
		end[i] = __atomic_load_n(&slots[i].done, __ATOMIC_RELAXED);
		cpu1[i] = pids[i] ? cpu_s(pids[i]) : -1;
		if (cpu0[i] < 0 || cpu1[i] < 0)
			cpu_known = 0;
	}
	guest_cpu_s(&busy1, &total1);
	died += stop_children();
	if (!no_cgroup)
		rmdir(CGROUP);
	for (i = 0; i < nchildren; i++) {
		if (i < workers)
			pages += end[i] - start[i];
		else
			bytes += end[i] - start[i];
	}
	errors = total_errors();

	secs = t1 - t0;
	if (lent_n) {
		snprintf(avg, sizeof(avg), "%.1f", lent_sum / lent_n);
		snprintf(max, sizeof(max), "%.1f", lent_max);
	}
	if (skew > 0)
		snprintf(skew_str, sizeof(skew_str), "%g", skew);
	/*
	 * What each side of the load had of the CPUs: a load that waits on
	 * the disk uses little, one that hits caches competes for them.
	 */
	if (cpu_known && secs > 0) {
		for (i = 0; i < workers; i++)
			anon_cpu_s += cpu1[i] - cpu0[i];
		snprintf(anon_cpu, sizeof(anon_cpu), "%.1f",
			 100 * anon_cpu_s / secs);
		snprintf(file_cpu, sizeof(file_cpu), "%.1f",
			 100 * (cpu1[workers] - cpu0[workers]) / secs);
	}
	if (secs > 0 && busy0 >= 0 && busy1 >= 0 && total1 > total0)
		snprintf(guest_busy, sizeof(guest_busy), "%.1f",
			 100 * (busy1 - busy0) / (total1 - total0));
	printf("BGLOAD seconds=%.1f workers=%d anon_mib=%d limit_mib=%d file_mib=%d skew=%s warmup=%d anon_pages=%llu anon_pps=%.1f file_read_mib=%.1f file_mibps=%.2f errors=%llu children_died=%d lent_avg_pct=%s lent_max_pct=%s stream_offset=%llu anon_cpu_pct=%s file_cpu_pct=%s guest_busy_pct=%s\n",
	       secs, workers, anon_mib, limit_mib < 0 ? 0 : limit_mib,
	       file_mib, skew_str, warmup, (unsigned long long)pages,
	       secs > 0 ? pages / secs : 0, bytes / 1048576.0,
	       secs > 0 ? bytes / 1048576.0 / secs : 0,
	       (unsigned long long)errors, died, avg, max,
	       (unsigned long long)__atomic_load_n(&slots[workers].offset,
						   __ATOMIC_RELAXED),
	       anon_cpu, file_cpu, guest_busy);
	if (errors)
		return 3;
	return died ? 1 : 0;
}
