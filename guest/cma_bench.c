// SPDX-License-Identifier: GPL-2.0
/*
 * cma_bench: cma_alloc() latency of a plain CMA area and a GCMA area,
 * measured through the CMA debugfs knobs of both areas in the same boot.
 *
 * For each size and round, the page count is written to <area>/alloc
 * (timed with CLOCK_MONOTONIC), then to <area>/free (untimed).  Rounds of
 * the two areas alternate, and which one goes first alternates too, so
 * both see the same conditions.
 *
 * usage: cma_bench [-r ROUNDS] [-c CMA_DIR] [-g GCMA_DIR] [SIZE...]
 *
 * Output: a table (microseconds) and one machine-readable line per size
 * and area:
 *   BENCH area=<cma|gcma> pages=<n> rounds=<n> fails=<n> min_us=.. avg_us=.. max_us=..
 * Exit status: 0, or 1 when an area is missing or an allocation failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZES 32

static const long default_sizes[] = {
	1, 512, 1024, 2048, 4096, 8192, 16384, 32000
};

struct stat_acc {
	double min, max, sum;
	int n, fails;
	int last_errno;
};

struct area {
	const char *label;
	const char *dir;
	int present;
	long count;		/* pages in the area */
	struct stat_acc st[MAX_SIZES];
};

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

/* One timed allocation of @pages in @a, then its release. */
static void round_one(struct area *a, int si, long pages)
{
	struct stat_acc *s = &a->st[si];
	char path[512];
	double t0, dt;
	int fd, len, ret = 0;
	char buf[32];

	snprintf(path, sizeof(path), "%s/alloc", a->dir);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		s->fails++;
		s->last_errno = errno;
		return;
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", pages);
	t0 = now_us();
	if (write(fd, buf, len) != len)
		ret = errno ? errno : EIO;
	dt = now_us() - t0;
	close(fd);

	if (ret) {
		s->fails++;
		s->last_errno = ret;
		return;
	}
	if (!s->n || dt < s->min)
		s->min = dt;
	if (dt > s->max)
		s->max = dt;
	s->sum += dt;
	s->n++;

	ret = write_count(a->dir, "free", pages);
	if (ret)
		fprintf(stderr, "cma_bench: %s: free %ld pages: %s\n",
			a->label, pages, strerror(-ret));
}

static void usage(void)
{
	fprintf(stderr, "usage: cma_bench [-r ROUNDS] [-c CMA_DIR] [-g GCMA_DIR] [SIZE...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct area areas[2] = {
		{ .label = "cma", .dir = "/sys/kernel/debug/cma/reserved" },
		{ .label = "gcma", .dir = "/sys/kernel/debug/cma/gcma" },
	};
	long sizes[MAX_SIZES];
	int nsizes = 0, rounds = 32, opt, i, r, k, fails = 0;

	while ((opt = getopt(argc, argv, "r:c:g:h")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'c':
			areas[0].dir = optarg;
			break;
		case 'g':
			areas[1].dir = optarg;
			break;
		default:
			usage();
		}
	}
	for (i = optind; i < argc && nsizes < MAX_SIZES; i++)
		sizes[nsizes++] = atol(argv[i]);
	if (!nsizes)
		for (i = 0; i < (int)(sizeof(default_sizes) / sizeof(*default_sizes)); i++)
			sizes[nsizes++] = default_sizes[i];
	if (rounds < 1)
		usage();

	for (k = 0; k < 2; k++) {
		struct area *a = &areas[k];

		a->present = access(a->dir, F_OK) == 0;
		a->count = a->present ? read_long(a->dir, "count") : -1;
		printf("# %s area %s: %s", a->label, a->dir,
		       a->present ? "present" : "not present");
		if (a->present)
			printf(", %ld pages", a->count);
		printf("\n");
	}
	if (!areas[0].present) {
		printf("# no CMA area (boot with cma=128M and CONFIG_CMA_DEBUGFS=y)\n");
		return 1;
	}
	if (!areas[1].present)
		printf("# no GCMA area: measuring CMA only\n");
	printf("# %d rounds per size, rounds of the areas alternate\n", rounds);
	fflush(stdout);

	for (i = 0; i < nsizes; i++) {
		for (r = 0; r < rounds; r++) {
			for (k = 0; k < 2; k++) {
				struct area *a = &areas[(r + k) % 2];

				if (a->present)
					round_one(a, i, sizes[i]);
			}
		}
	}

	printf("\n%8s | %10s %10s %10s | %10s %10s %10s | %9s\n", "pages",
	       "CMA min", "avg", "max", "GCMA min", "avg", "max", "CMA/GCMA");
	for (i = 0; i < nsizes; i++) {
		struct stat_acc *c = &areas[0].st[i], *g = &areas[1].st[i];
		double cavg = c->n ? c->sum / c->n : 0, gavg = g->n ? g->sum / g->n : 0;

		printf("%8ld |", sizes[i]);
		if (c->n)
			printf(" %10.1f %10.1f %10.1f |", c->min, cavg, c->max);
		else
			printf(" %10s %10s %10s |", "-", "-", "-");
		if (g->n)
			printf(" %10.1f %10.1f %10.1f |", g->min, gavg, g->max);
		else
			printf(" %10s %10s %10s |", "-", "-", "-");
		if (c->n && g->n && gavg > 0)
			printf(" %9.1f\n", cavg / gavg);
		else
			printf(" %9s\n", "-");
	}
	printf("(microseconds; failed allocations are not in the timings)\n\n");

	for (i = 0; i < nsizes; i++) {
		for (k = 0; k < 2; k++) {
			struct stat_acc *s = &areas[k].st[i];

			if (!areas[k].present)
				continue;
			printf("BENCH area=%s pages=%ld rounds=%d fails=%d min_us=%.1f avg_us=%.1f max_us=%.1f\n",
			       areas[k].label, sizes[i], rounds, s->fails,
			       s->n ? s->min : 0, s->n ? s->sum / s->n : 0,
			       s->n ? s->max : 0);
			if (s->fails) {
				printf("# %s: %d of %d allocations of %ld pages failed (last: %s)\n",
				       areas[k].label, s->fails, rounds, sizes[i],
				       strerror(s->last_errno));
				fails += s->fails;
			}
		}
	}
	printf("BENCH_FAILS %d\n", fails);
	return fails ? 1 : 0;
}
