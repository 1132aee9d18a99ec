/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the swap benchmarks share: sysfs and cgroup files, the clock, and
 * the min/median/max of per-round samples.  Include after defining CGROUP
 * (the benchmark's cgroup directory) and MAX_ROUNDS.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct samples {
	double v[MAX_ROUNDS];
	int n;
};

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

static int set_limit(unsigned long bytes)
{
	char val[32];

	if (bytes)
		snprintf(val, sizeof(val), "%lu", bytes);
	else
		snprintf(val, sizeof(val), "max");
	return write_str(CGROUP "/memory.max", val);
}

static void add_sample(struct samples *s, double v)
{
	if (s->n < MAX_ROUNDS)
		s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Min, median and max of @s, NAN (printed "nan") when it is empty. */
static void summarize(const struct samples *s, double *min, double *median,
		      double *max)
{
	double v[MAX_ROUNDS];
	int n = s->n;

	if (!n) {
		*min = *median = *max = NAN;
		return;
	}
	memcpy(v, s->v, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	*min = v[0];
	*max = v[n - 1];
	*median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double median(const struct samples *s)
{
	double min, med, max;

	summarize(s, &min, &med, &max);
	return med;
}

#endif /* BENCH_UTIL_H */
