// SPDX-License-Identifier: GPL-2.0
/*
 * cma_bench: cma_alloc() latency of a plain CMA area and a GCMA area,
 * requested through the CMA debugfs knobs of both areas in the same boot.
 *
 * Each request writes the page count to <area>/alloc; the time is taken
 * in user space around that write(), with CLOCK_MONOTONIC, so it is the
 * whole cma_alloc() plus a debugfs write (a few microseconds).  A granted
 * request is released at once through <area>/free, untimed.  Rounds of
 * the two areas alternate, and which one goes first alternates too, so
 * both see the same background.
 *
 * Each request runs in a child process, so that a request can be given
 * up after -t seconds: the child is killed, which makes cma_alloc() stop
 * at its next migration pass (fatal signal pending) and return.  Such a
 * request counts as timed out, a failure.  Without -t, requests run to
 * their end.
 *
 * Two modes:
 *   rounds (default)  -r rounds of every size on both areas, then the
 *                     figures per size and area
 *   loop (-L SECS)    for SECS seconds, one request after another on the
 *                     one area given (-c or -g, the other ""), sizes in
 *                     turn, -p milliseconds apart: the foreground of the
 *                     boots that measure what the areas cost the system
 *
 * usage: cma_bench [-s SCENARIO] [-r ROUNDS] [-t SECS] [-c CMA_DIR]
 *                  [-g GCMA_DIR] [-G GCMA_STATS_DIR] [-L SECS [-p MS]]
 *                  [SIZE...]
 *   SCENARIO        a label for the output lines (default "load")
 *   CMA_DIR         default /sys/kernel/debug/cma/reserved ("" for none)
 *   GCMA_DIR        default /sys/kernel/debug/cma/gcma ("" for none)
 *   GCMA_STATS_DIR  the GCMA area's own counters, default
 *                   /sys/kernel/debug/gcma/gcma
 *   SIZE            pages; default 1 512 1024 2048 4096 8192 16384 32000
 *
 * Output, besides a table and "# progress" lines, one line per size and
 * area (latencies in microseconds, "nan" where no request counts):
 *   LAT scenario=<s> allocator=<cma|gcma> pages=<n> rounds=<n> ok=<n>
 *       failed=<n> timed_out=<n> min_us= avg_us= p99_us= max_us=
 *       fail_avg_us=
 * p99 is the nearest-rank 99th percentile of the granted requests
 * (with 32 rounds, the largest); fail_avg_us is how long a failed or
 * timed out request kept its caller waiting.  Per size, what the GCMA
 * requests cost GCMA (differences of its counters over the size's
 * rounds; only GCMA requests change them):
 *   GCMA_COST scenario=<s> pages=<n> granted=<n> revoked=<pages dropped>
 *       waits=<n> wait_timeouts=<n>
 * and at the end GCMA_WAIT_MAX_US value=<longest wait since boot>.
 * Loop mode prints instead
 *   LOOP allocator=<a> requests=<n> ok=<n> failed=<n> avg_us= max_us=
 * Exit status: 0; 1 when the CMA area is missing (rounds mode) or a GCMA
 * request failed (GCMA must not fail); 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZES	32
#define MAX_ROUNDS	10000

static const long default_sizes[] = {
	1, 512, 1024, 2048, 4096, 8192, 16384, 32000
};

struct stat_acc {
	double *ok_us;		/* granted requests' times */
	int n, failed, timed_out;
	double fail_sum;
	int last_errno;
};

struct area {
	const char *label;
	const char *dir;
	int present;
	long count;		/* pages in the area */
	struct stat_acc st[MAX_SIZES];
};

/* What a request's child reports through its pipe. */
struct outcome {
	int err;		/* 0 or the errno of the write */
	double us;
};

static const char *gcma_stats = "/sys/kernel/debug/gcma/gcma";

static int write_count(const char *dir, const char *knob, long pages)
{
	char path[512], buf[32];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%ld\n", pages);
	if (write(fd, buf, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

static long read_long(const char *dir, const char *file)
{
	char path[512];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The child of a request: one timed write to <dir>/alloc. */
static void __attribute__((noreturn)) request_child(const char *dir,
						    long pages, int out)
{
	struct outcome o = { 0 };
	char path[512], buf[32];
	double t0;
	int fd, len;

	snprintf(path, sizeof(path), "%s/alloc", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		o.err = errno;
	} else {
		len = snprintf(buf, sizeof(buf), "%ld\n", pages);
		t0 = now_us();
		if (write(fd, buf, len) != len)
			o.err = errno ? errno : EIO;
		o.us = now_us() - t0;
		close(fd);
	}
	if (write(out, &o, sizeof(o)) != sizeof(o))
		_exit(1);
	_exit(0);
}

/*
 * One request of @pages in @dir, given up after @timeout_s seconds (0:
 * never).  Returns 0 when granted (and released again), -ETIMEDOUT when
 * given up, another -errno when refused; *us is how long it took.
 */
static int request(const char *dir, long pages, int timeout_s, double *us)
{
	struct pollfd pfd;
	struct outcome o;
	long used_before = read_long(dir, "used");
	double t0 = now_us();
	int p[2], ret, status;
	pid_t pid;

	*us = 0;
	if (pipe(p))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(p[0]);
		close(p[1]);
		return ret;
	}
	if (!pid) {
		close(p[0]);
		request_child(dir, pages, p[1]);
	}
	close(p[1]);
	pfd.fd = p[0];
	pfd.events = POLLIN;
	do {
		ret = poll(&pfd, 1, timeout_s > 0 ? timeout_s * 1000 : -1);
	} while (ret < 0 && errno == EINTR);
	if (ret == 0) {
		kill(pid, SIGKILL);
		ret = -ETIMEDOUT;
	} else if (read(p[0], &o, sizeof(o)) != sizeof(o)) {
		ret = -EIO;	/* the child died before it could tell */
	} else {
		ret = o.err ? -o.err : 0;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	/* The child's own time when it told one, else the parent's. */
	*us = ret == -EIO || ret == -ETIMEDOUT ? now_us() - t0 : o.us;
	if (!ret) {
		ret = write_count(dir, "free", pages);
		if (ret)
			fprintf(stderr, "cma_bench: %s: free %ld pages: %s\n",
				dir, pages, strerror(-ret));
		return 0;
	}
	/* Granted as it was given up, or to a child that died: give back. */
	if (used_before >= 0 && read_long(dir, "used") >= used_before + pages)
		write_count(dir, "free", pages);
	return ret;
}

static void record(struct stat_acc *s, int ret, double us)
{
	if (!ret) {
		s->ok_us[s->n++] = us;
		return;
	}
	s->failed++;
	s->fail_sum += us;
	s->last_errno = -ret;
	if (ret == -ETIMEDOUT)
		s->timed_out++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* min, avg, nearest-rank p99 and max of the granted requests. */
static void figures(struct stat_acc *s, double f[4])
{
	double sum = 0;
	int i;

	if (!s->n) {
		f[0] = f[1] = f[2] = f[3] = NAN;
		return;
	}
	qsort(s->ok_us, s->n, sizeof(double), cmp_double);
	for (i = 0; i < s->n; i++)
		sum += s->ok_us[i];
	f[0] = s->ok_us[0];
	f[1] = sum / s->n;
	f[2] = s->ok_us[(int)ceil(0.99 * s->n) - 1];
	f[3] = s->ok_us[s->n - 1];
}

static void usage(void)
{
	fprintf(stderr, "usage: cma_bench [-s SCENARIO] [-r ROUNDS] [-t SECS] [-c CMA_DIR] [-g GCMA_DIR]\n"
		"                 [-G GCMA_STATS_DIR] [-L SECS [-p MS]] [SIZE...]\n");
	exit(2);
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "cma_bench: %s: not a number from %ld to %ld\n",
			s, min, max);
		usage();
	}
	return v;
}

static const char * const cost_names[] = {
	"revoked", "waits", "wait_timeouts"
};

static void read_costs(long v[3])
{
	int i;

	for (i = 0; i < 3; i++)
		v[i] = read_long(gcma_stats, cost_names[i]);
}

/* Loop mode: requests on @a for @secs seconds, @pause_ms apart. */
static int loop(struct area *a, const long *sizes, int nsizes, int secs,
		int pause_ms, int timeout_s)
{
	double end = now_us() + secs * 1e6, sum = 0, max = 0, us;
	long requests = 0, ok = 0;
	int i = 0, ret;

	while (now_us() < end) {
		ret = request(a->dir, sizes[i], timeout_s, &us);
		requests++;
		if (!ret) {
			ok++;
			sum += us;
			if (us > max)
				max = us;
		}
		i = (i + 1) % nsizes;
		usleep(pause_ms * 1000);
	}
	printf("LOOP allocator=%s requests=%ld ok=%ld failed=%ld avg_us=%.1f max_us=%.1f\n",
	       a->label, requests, ok, requests - ok, ok ? sum / ok : NAN, max);
	return 0;
}

int main(int argc, char **argv)
{
	struct area areas[2] = {
		{ .label = "cma", .dir = "/sys/kernel/debug/cma/reserved" },
		{ .label = "gcma", .dir = "/sys/kernel/debug/cma/gcma" },
	};
	const char *scenario = "load";
	long sizes[MAX_SIZES], costs[MAX_SIZES][2][3];
	int nsizes = 0, rounds = 32, timeout_s = 0, loop_s = 0, pause_ms = 1000;
	int opt, i, r, k, gcma_failed = 0, ret;
	double us;

	while ((opt = getopt(argc, argv, "s:r:t:c:g:G:L:p:h")) != -1) {
		switch (opt) {
		case 's':
			scenario = optarg;
			break;
		case 'r':
			rounds = parse_num(optarg, 1, MAX_ROUNDS);
			break;
		case 't':
			timeout_s = parse_num(optarg, 0, 3600);
			break;
		case 'c':
			areas[0].dir = optarg;
			break;
		case 'g':
			areas[1].dir = optarg;
			break;
		case 'G':
			gcma_stats = optarg;
			break;
		case 'L':
			loop_s = parse_num(optarg, 1, 86400);
			break;
		case 'p':
			pause_ms = parse_num(optarg, 0, 60000);
			break;
		default:
			usage();
		}
	}
	for (i = optind; i < argc; i++) {
		if (nsizes == MAX_SIZES)
			usage();
		sizes[nsizes++] = parse_num(argv[i], 1, 1L << 30);
	}
	if (!nsizes)
		for (i = 0; i < (int)(sizeof(default_sizes) / sizeof(*default_sizes)); i++)
			sizes[nsizes++] = default_sizes[i];
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (k = 0; k < 2; k++) {
		struct area *a = &areas[k];

		a->present = *a->dir && access(a->dir, F_OK) == 0;
		a->count = a->present ? read_long(a->dir, "count") : -1;
		printf("# %s area %s: %s", a->label, *a->dir ? a->dir : "(none)",
		       a->present ? "present" : "not present");
		if (a->present)
			printf(", %ld pages", a->count);
		printf("\n");
		for (i = 0; i < nsizes; i++) {
			a->st[i].ok_us = calloc(rounds, sizeof(double));
			if (!a->st[i].ok_us) {
				perror("cma_bench: calloc");
				return 1;
			}
		}
	}
	if (loop_s) {
		if (areas[0].present == areas[1].present) {
			fprintf(stderr, "cma_bench: -L takes exactly one present area (the other \"\")\n");
			return 2;
		}
		return loop(&areas[areas[0].present ? 0 : 1], sizes, nsizes,
			    loop_s, pause_ms, timeout_s);
	}
	if (!areas[0].present) {
		printf("# no CMA area (boot with cma=SIZE and CONFIG_CMA_DEBUGFS=y)\n");
		return 1;
	}
	if (!areas[1].present)
		printf("# no GCMA area: measuring CMA only\n");
	printf("# scenario %s: %d rounds per size, rounds of the areas alternate%s\n",
	       scenario, rounds, timeout_s ? "" : ", no request is given up");
	if (timeout_s)
		printf("# a request not answered within %d s is given up (timed out)\n",
		       timeout_s);

	for (i = 0; i < nsizes; i++) {
		printf("# progress %s: %ld pages, %d rounds\n", scenario,
		       sizes[i], rounds);
		read_costs(costs[i][0]);
		for (r = 0; r < rounds; r++) {
			for (k = 0; k < 2; k++) {
				struct area *a = &areas[(r + k) % 2];

				if (!a->present)
					continue;
				ret = request(a->dir, sizes[i], timeout_s, &us);
				record(&a->st[i], ret, us);
			}
		}
		read_costs(costs[i][1]);
	}

	printf("\n%-8s | %-37s | %-37s\n", "", "CMA", "GCMA");
	printf("%8s | %8s %8s %8s %9s | %8s %8s %8s %9s\n", "pages",
	       "ok", "min", "avg", "max", "ok", "min", "avg", "max");
	for (i = 0; i < nsizes; i++) {
		printf("%8ld", sizes[i]);
		for (k = 0; k < 2; k++) {
			struct stat_acc *s = &areas[k].st[i];
			double f[4];
			char ok[16];

			figures(s, f);
			snprintf(ok, sizeof(ok), "%d/%d", s->n, s->n + s->failed);
			if (areas[k].present)
				printf(" | %8s %8.0f %8.0f %9.0f", ok, f[0], f[1], f[3]);
			else
				printf(" | %8s %8s %8s %9s", "-", "-", "-", "-");
		}
		printf("\n");
	}
	printf("(microseconds around the debugfs write; failed requests are not in the times)\n\n");

	for (i = 0; i < nsizes; i++) {
		for (k = 0; k < 2; k++) {
			struct stat_acc *s = &areas[k].st[i];
			double f[4];

			if (!areas[k].present)
				continue;
			figures(s, f);
			printf("LAT scenario=%s allocator=%s pages=%ld rounds=%d ok=%d failed=%d timed_out=%d min_us=%.1f avg_us=%.1f p99_us=%.1f max_us=%.1f fail_avg_us=%.1f\n",
			       scenario, areas[k].label, sizes[i], rounds, s->n,
			       s->failed, s->timed_out, f[0], f[1], f[2], f[3],
			       s->failed ? s->fail_sum / s->failed : NAN);
			if (s->failed) {
				printf("# %s %s: %d of %d requests of %ld pages failed (%d timed out; last: %s)\n",
				       scenario, areas[k].label, s->failed,
				       rounds, sizes[i], s->timed_out,
				       strerror(s->last_errno));
				if (k == 1)
					gcma_failed += s->failed;
			}
		}
		if (areas[1].present && costs[i][0][0] >= 0)
			printf("GCMA_COST scenario=%s pages=%ld granted=%d revoked=%ld waits=%ld wait_timeouts=%ld\n",
			       scenario, sizes[i], areas[1].st[i].n,
			       costs[i][1][0] - costs[i][0][0],
			       costs[i][1][1] - costs[i][0][1],
			       costs[i][1][2] - costs[i][0][2]);
	}
	if (areas[1].present)
		printf("GCMA_WAIT_MAX_US value=%ld\n",
		       read_long(gcma_stats, "wait_max_us"));
	return gcma_failed ? 1 : 0;
}
