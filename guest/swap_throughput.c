// SPDX-License-Identifier: GPL-2.0
/*
 * swap_throughput: how fast a process swaps out and back in, in the
 * setting of GCMA the boot gives (compiled out, no area, the swap client
 * off or on), so that make bench can set them side by side.
 *
 * A round of a setting: a fresh child in a cgroup with memory.max =
 * 32 MiB writes 128 MiB, four times its limit, every word of it a value
 * of its own, so that about 96 MiB go out to swap.  The child times its
 * writing; the pages swapped out are the growth of the cgroup's swap
 * usage (memory.swap.current) meanwhile.  The limit is then lifted, so
 * that nothing more goes out, and the child reads one word of every page
 * back, timed; the pages swapped in are its major faults meanwhile
 * (/proc/PID/stat), one per page as swap readahead is off
 * (vm.page-cluster = 0, restored at the end).  Then, untimed, it checks
 * every word of every page: one wrong word fails the round.  The figures
 * are pages out per second of writing and pages in per second of reading
 * back.
 *
 * The settings, named on the command line; each is checked to be what
 * it says before anything is measured:
 *   out     GCMA compiled out: no /sys/module/gcma, no /sys/kernel/debug/gcma
 *   noarea  GCMA compiled in (its swap client on) without a GCMA area: the
 *           client must store nothing
 *   off     an area, the client switched off (gcma.swap_enabled = N): it
 *           must store and load nothing
 *   on      an area, the client on: a round counts only if at least half
 *           of the pages out were stored in GCMA and at least half of the
 *           pages in were loaded from it
 * Settings of one boot alternate: round r measures them in turn, starting
 * with the one after the setting round r - 1 started with (on, off, then
 * off, on).  No round is started that would end past a budget of 240 s
 * (init kills the program at 300 s), so that a slow host leaves fewer
 * rounds, not none.
 *
 * The swap device is /dev/vda (made a swap area here).  Needs root, cgroup
 * v2 at /sys/fs/cgroup and, for off and on, debugfs and a GCMA area named
 * "gcma".
 *
 * usage: swap_throughput [-r ROUNDS] SETTING...
 *
 * Output: a line "SWAPTPUT round=<n> setting=<s> ..." per round and
 * setting as they go, counted or not; a table; and per setting a line
 * "SWAPTPUT_SUMMARY setting=<s> rounds=<counted> fails=<n>
 * out_pps_{min,median,max}=.. in_pps_{min,median,max}=..
 * pages_out_median=.. pages_in_median=..".
 * Exit status: 0, 1 when a setting is not what it says or a round failed,
 * 2 on bad usage, 3 when data came back wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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

#define CGROUP		"/sys/fs/cgroup/swap_throughput"
#define GCMA_MODULE	"/sys/module/gcma"
#define GCMA_STATS	"/sys/kernel/debug/gcma"
#define GCMA_AREA	"/sys/kernel/debug/cma/gcma"
#define SWITCH		GCMA_MODULE "/parameters/swap_enabled"
#define SWAP_DEV	"/dev/vda"
#define PAGE_CLUSTER	"/proc/sys/vm/page-cluster"
#define LIMIT		(32UL << 20)
#define SIZE		(4 * LIMIT)
#define ROUNDS		5
#define MAX_ROUNDS	32
#define MAX_SETTINGS	4
#define BUDGET_US	240e6
#define PATTERN		0x9e3779b97f4a7c15ULL

static long page_size;

#include "bench_util.h"

struct setting {
	const char *name;		/* out, noarea, off or on */
	int gcma;			/* the client's counters exist */
	struct samples out_pps, in_pps;	/* pages per second */
	struct samples pages_out, pages_in;
	int fails;
	int corrupt;			/* rounds that read back wrong data */
};

/* What the child sends after each phase. */
struct report {
	double us;			/* the phase's time */
	long bad;			/* words that were not what it wrote */
	long first_bad;			/* the first of them, a word index */
};



static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}







/* The child's three phases, each started by a byte on @go. */
static void child(int ready, int go)
{
	size_t i, words = SIZE / sizeof(uint64_t);
	size_t step = page_size / sizeof(uint64_t);
	volatile uint64_t *mem;
	struct report rep;
	char pid[32], c;
	double t0;

	snprintf(pid, sizeof(pid), "%d", getpid());
	if (write_str(CGROUP "/cgroup.procs", pid))
		_exit(2);
	mem = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		_exit(2);

	/* Write: every word its own value, none zero. */
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		_exit(2);
	t0 = now_us();
	for (i = 0; i < words; i++)
		mem[i] = (i + 1) * PATTERN;
	rep = (struct report){ .us = now_us() - t0, .first_bad = -1 };
	if (write(ready, &rep, sizeof(rep)) != sizeof(rep) ||
	    read(go, &c, 1) != 1)
		_exit(2);

	/* Read back one word of every page, timed. */
	rep = (struct report){ .first_bad = -1 };
	t0 = now_us();
	for (i = 0; i < words; i += step)
		if (mem[i] != (i + 1) * PATTERN && !rep.bad++)
			rep.first_bad = i;
	rep.us = now_us() - t0;
	if (write(ready, &rep, sizeof(rep)) != sizeof(rep) ||
	    read(go, &c, 1) != 1)
		_exit(2);

	/* Check every word, untimed. */
	rep = (struct report){ .first_bad = -1 };
	for (i = 0; i < words; i++)
		if (mem[i] != (i + 1) * PATTERN && !rep.bad++)
			rep.first_bad = i;
	if (write(ready, &rep, sizeof(rep)) != sizeof(rep))
		_exit(2);
	_exit(0);
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

/* Start a child and wait until it is ready to write; 0 or -1, said. */
static int start(struct run *run)
{
	int to_parent[2], to_child[2], status;
	char c;

	if (pipe(to_parent)) {
		perror("swap_throughput: pipe");
		return -1;
	}
	if (pipe(to_child)) {
		perror("swap_throughput: pipe");
		close(to_parent[0]);
		close(to_parent[1]);
		return -1;
	}
	run->pid = fork();
	if (!run->pid) {
		close(to_parent[0]);
		close(to_child[1]);
		child(to_parent[1], to_child[0]);
	}
	if (run->pid < 0)
		perror("swap_throughput: fork");
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
	status = stop(run);
	fprintf(stderr, "swap_throughput: the child could not join " CGROUP " or map %lu MiB (%s %d)\n",
		SIZE >> 20, WIFSIGNALED(status) ? "signal" : "exit status",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return -1;
}

/* Start the child's next phase and take its report; 0 or -1. */
static int phase(struct run *run, struct report *rep)
{
	if (write(run->go, "g", 1) != 1 ||
	    read(run->ready, rep, sizeof(*rep)) != sizeof(*rep))
		return -1;
	return 0;
}

/* Major faults of @pid so far (field 12 of /proc/PID/stat), -1 if unknown. */
static long majflt(pid_t pid)
{
	char path[64], buf[512], *p;
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	/* The command name may hold spaces: count fields after its ')'. */
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %ld",
			 &val) != 1)
		return -1;
	return val;
}

/* Pages of the cgroup in swap, -1 if unknown. */
static long swap_pages(void)
{
	long bytes = read_long(CGROUP "/memory.swap.current");

	return bytes < 0 ? -1 : bytes / page_size;
}

/* A round that could not be measured or did not count: say why. */
static void failed(struct setting *s, int round, const char *why, int err)
{
	fprintf(stderr, "swap_throughput: round %d, setting %s: %s%s%s\n",
		round, s->name, why, err ? ": " : "", err ? strerror(err) : "");
	s->fails++;
}

/* A counter of the swap client, 0 when @s has none, -1 if unreadable. */
static long gcma_stat(const struct setting *s, const char *name)
{
	char path[64];

	if (!s->gcma)
		return 0;
	snprintf(path, sizeof(path), GCMA_STATS "/%s", name);
	return read_long(path);
}

/*
 * Why a measured round does not count, NULL if it does: the data came
 * back wrong, nothing moved, or the pages did not go where the setting
 * says (most of them to GCMA with the client on, none otherwise).
 */
static const char *judge(const struct setting *s, const struct report *rd,
			 const struct report *chk, long out, long in,
			 long stored, long loaded)
{
	if (rd->bad || chk->bad)
		return "the data read back is not what was written";
	if (out <= 0 || in <= 0)
		return "nothing was swapped out or in";
	if (!strcmp(s->name, "on") && (2 * stored < out || 2 * loaded < in))
		return "fewer than half the pages went to GCMA or came from it: not counted";
	if (strcmp(s->name, "on") && (stored || loaded))
		return "GCMA stored or loaded pages: not counted";
	return NULL;
}

static void measure(struct setting *s, int round)
{
	long swap0, swap1, flt0, flt1, stored0, loaded0, stored, loaded;
	struct report wr, rd, chk;
	const char *why = NULL;
	long out, in;
	struct run run;
	int err;

	if (s->gcma) {
		err = -write_str(SWITCH, strcmp(s->name, "off") ? "Y" : "N");
		if (err) {
			failed(s, round, "cannot switch " SWITCH, err);
			return;
		}
	}
	err = -set_limit(LIMIT);
	if (err) {
		failed(s, round, "cannot set " CGROUP "/memory.max", err);
		return;
	}
	if (start(&run)) {
		set_limit(0);
		failed(s, round, "no child", 0);
		return;
	}
	swap0 = swap_pages();
	stored0 = gcma_stat(s, "stored");
	loaded0 = gcma_stat(s, "loaded");
	if (phase(&run, &wr)) {
		why = "the child died writing (out of swap?)";
		goto out;
	}
	swap1 = swap_pages();
	stored = gcma_stat(s, "stored");
	err = -set_limit(0);
	if (err) {
		why = "cannot lift " CGROUP "/memory.max";
		goto out;
	}
	flt0 = majflt(run.pid);
	if (phase(&run, &rd)) {
		why = "the child died reading back";
		goto out;
	}
	flt1 = majflt(run.pid);
	loaded = gcma_stat(s, "loaded");
	if (phase(&run, &chk)) {
		why = "the child died checking what it read";
		goto out;
	}
	if (swap0 < 0 || swap1 < 0 || flt0 < 0 || flt1 < 0 || stored0 < 0 ||
	    loaded0 < 0 || stored < 0 || loaded < 0) {
		why = "cannot read " CGROUP "/memory.swap.current, the child's major faults or " GCMA_STATS;
		goto out;
	}
	out = swap1 - swap0;
	in = flt1 - flt0;
	stored -= stored0;
	loaded -= loaded0;
	why = judge(s, &rd, &chk, out, in, stored, loaded);
	printf("SWAPTPUT round=%d setting=%s pages_out=%ld out_s=%.3f out_pps=%.0f pages_in=%ld in_s=%.3f in_pps=%.0f",
	       round, s->name, out, wr.us / 1e6, out / wr.us * 1e6, in,
	       rd.us / 1e6, in / rd.us * 1e6);
	if (s->gcma)
		printf(" stored=%ld loaded=%ld", stored, loaded);
	printf("%s\n", why ? " not counted" : "");
	if (rd.bad || chk.bad) {
		s->corrupt++;
		fprintf(stderr, "swap_throughput: round %d, setting %s: %ld words read back wrong, the first at byte %ld of %lu MiB\n",
			round, s->name, rd.bad + chk.bad,
			(long)sizeof(uint64_t) * (rd.bad ? rd.first_bad : chk.first_bad),
			SIZE >> 20);
	}
	if (!why) {
		add_sample(&s->out_pps, out / wr.us * 1e6);
		add_sample(&s->in_pps, in / rd.us * 1e6);
		add_sample(&s->pages_out, out);
		add_sample(&s->pages_in, in);
	}
out:
	stop(&run);
	set_limit(0);
	if (why)
		failed(s, round, why, err);
}

/* Is the boot what @s says?  Says why not. */
static int check_setting(struct setting *s)
{
	const char *why = NULL;

	if (!strcmp(s->name, "out")) {
		if (exists(GCMA_MODULE) || exists(GCMA_STATS))
			why = "GCMA is compiled in (" GCMA_MODULE " or " GCMA_STATS " exists)";
	} else if (!strcmp(s->name, "noarea")) {
		if (exists(GCMA_AREA))
			why = "there is a GCMA area (" GCMA_AREA ")";
		else if (access(SWITCH, W_OK) || read_long(GCMA_STATS "/stored") < 0)
			why = "no GCMA swap client (" SWITCH ", " GCMA_STATS ")";
		s->gcma = 1;
	} else if (!strcmp(s->name, "off") || !strcmp(s->name, "on")) {
		if (read_long(GCMA_AREA "/count") <= 0)
			why = "no GCMA area (" GCMA_AREA ")";
		else if (access(SWITCH, W_OK) || read_long(GCMA_STATS "/stored") < 0)
			why = "no GCMA swap client (" SWITCH ", " GCMA_STATS ")";
		s->gcma = 1;
	} else {
		fprintf(stderr, "swap_throughput: unknown setting %s (out, noarea, off or on)\n",
			s->name);
		exit(2);
	}
	if (why)
		fprintf(stderr, "swap_throughput: setting %s: %s\n", s->name,
			why);
	return why ? -1 : 0;
}

static void report(struct setting *set, int nset, int rounds)
{
	double min[2], med[2], max[2];
	int i;

	printf("\nswap throughput (pages/s), %lu MiB written in a %lu MiB cgroup per round:\n",
	       SIZE >> 20, LIMIT >> 20);
	printf("  %-8s %5s %5s %9s %9s %9s %9s %9s %9s %8s %8s\n", "setting",
	       "ok", "fails", "out min", "median", "max", "in min", "median",
	       "max", "pg out", "pg in");
	for (i = 0; i < nset; i++) {
		summarize(&set[i].out_pps, &min[0], &med[0], &max[0]);
		summarize(&set[i].in_pps, &min[1], &med[1], &max[1]);
		printf("  %-8s %2d/%-2d %5d %9.0f %9.0f %9.0f %9.0f %9.0f %9.0f %8.0f %8.0f\n",
		       set[i].name, set[i].out_pps.n, rounds, set[i].fails,
		       min[0], med[0], max[0], min[1], med[1], max[1],
		       median(&set[i].pages_out), median(&set[i].pages_in));
	}
	printf("\n");
	for (i = 0; i < nset; i++) {
		summarize(&set[i].out_pps, &min[0], &med[0], &max[0]);
		summarize(&set[i].in_pps, &min[1], &med[1], &max[1]);
		printf("SWAPTPUT_SUMMARY setting=%s rounds=%d tried=%d fails=%d out_pps_min=%.0f out_pps_median=%.0f out_pps_max=%.0f in_pps_min=%.0f in_pps_median=%.0f in_pps_max=%.0f pages_out_median=%.0f pages_in_median=%.0f limit_mib=%lu size_mib=%lu\n",
		       set[i].name, set[i].out_pps.n, rounds, set[i].fails,
		       min[0], med[0], max[0], min[1], med[1], max[1],
		       median(&set[i].pages_out), median(&set[i].pages_in),
		       LIMIT >> 20, SIZE >> 20);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: swap_throughput [-r ROUNDS (1-%d)] out|noarea|off|on...\n",
		MAX_ROUNDS);
	exit(2);
}

int main(int argc, char **argv)
{
	struct setting set[MAX_SETTINGS] = { 0 };
	double t0 = now_us(), t, longest = 0;
	int rounds = ROUNDS, nset, opt, r, i, bad = 0;
	long page_cluster;
	char val[32];

	/* stdout may be a file: keep each line of a killed run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			usage();
		rounds = atoi(optarg);
	}
	nset = argc - optind;
	if (rounds < 1 || rounds > MAX_ROUNDS || nset < 1 ||
	    nset > MAX_SETTINGS)
		usage();
	for (i = 0; i < nset; i++) {
		set[i].name = argv[optind + i];
		if (check_setting(&set[i]))
			bad = 1;
	}
	if (bad)
		return 1;

	page_size = sysconf(_SC_PAGESIZE);
	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	if (mkdir(CGROUP, 0755) && errno != EEXIST) {
		fprintf(stderr, "swap_throughput: cannot create " CGROUP ": %s\n",
			strerror(errno));
		return 1;
	}
	/* One major fault per page swapped in; put back at the end. */
	page_cluster = read_long(PAGE_CLUSTER);
	if (page_cluster < 0 || write_str(PAGE_CLUSTER, "0")) {
		fprintf(stderr, "swap_throughput: cannot turn swap readahead off (" PAGE_CLUSTER ")\n");
		return 1;
	}
	swapoff(SWAP_DEV);	/* left on by a killed benchmark, maybe */
	if (system("mkswap " SWAP_DEV " >/dev/null 2>&1") ||
	    swapon(SWAP_DEV, 0)) {
		fprintf(stderr, "swap_throughput: cannot swap on " SWAP_DEV "\n");
		return 1;
	}
	printf("# %d rounds of:", rounds);
	for (i = 0; i < nset; i++)
		printf(" %s", set[i].name);
	printf("; %lu MiB written in a %lu MiB cgroup\n", SIZE >> 20,
	       LIMIT >> 20);

	for (r = 1; r <= rounds; r++) {
		t = now_us();
		if (r > 1 && t - t0 + longest > BUDGET_US) {
			printf("# stopped after %d of %d rounds: one more would end past the %.0f s budget\n",
			       r - 1, rounds, BUDGET_US / 1e6);
			break;
		}
		for (i = 0; i < nset; i++)
			measure(&set[(r - 1 + i) % nset], r);
		t = now_us() - t;
		if (t > longest)
			longest = t;
		printf("# round %d took %.1f s\n", r, t / 1e6);
	}
	if (exists(SWITCH))
		write_str(SWITCH, "Y");
	swapoff(SWAP_DEV);
	snprintf(val, sizeof(val), "%ld", page_cluster);
	write_str(PAGE_CLUSTER, val);
	rmdir(CGROUP);

	report(set, nset, r - 1);
	for (i = 0; i < nset; i++) {
		if (set[i].corrupt)
			return 3;
		bad |= set[i].fails || !set[i].out_pps.n;
	}
	return bad;
}
