#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables, data file and plot of make bench, from its boots' results.

usage: bench_report.py LOGS JSON PLOTDIR KEY=VALUE...

LOGS holds results-bench-TAG.txt, one per boot (scripts/bench.sh): TAG
latency (both areas: the load and pinned scenarios), cost-AREA-R (AREA
none, cma or gcma, R the repeat: the background load alone, in phases,
guest/bench_run), and, when asked for, unpatched and cmaonly (plain 6.12
and the series, CMA only).  The
KEY=VALUE pairs are the run's settings, copied into the data file.

Prints the tables; writes JSON (every figure and the settings) and, in
PLOTDIR, bench-latency.dat, bench-latency.gp and, when gnuplot is
installed, bench-latency.svg.  Every figure comes from the result lines;
one that is missing is printed as "-".  Exits 1 when a result says data
came back wrong or a GCMA request failed, 0 otherwise.
"""

import glob
import json
import math
import os
import shutil
import subprocess
import sys

# The cost boots' settings, in the order of the tables: (AREA, lending,
# label); lending is "-" for a boot without a GCMA area.
COST_SETTINGS = [
	('none', '-', 'no area'),
	('cma', '-', 'CMA area'),
	('gcma', 'off', 'GCMA, lending off'),
	('gcma', 'on', 'GCMA, lending on'),
]
SWAPS = ('vda', 'zram')
# reuse-f2fs: the reuse load on f2fs (GCMA_BENCH_F2FS=1), swap on the disk.
WORKLOADS = ('stream', 'reuse', 'reuse-f2fs')
# The result lines a boot of the latency kind (latency, unpatched,
# cmaonly) must have.
LAT_KINDS = ('SETTING', 'BGLOAD', 'LAT', 'PIN', 'PIN_END', 'STATS')


def num(v):
	"""A result value as a number: int, float, or None for nan and -."""
	try:
		f = float(v)
	except ValueError:
		return v
	if math.isnan(f):
		return None
	return int(f) if f.is_integer() and 'e' not in v and '.' not in v else f


def parse(path):
	"""{KIND: [dict of KEY=VALUE]} of a results file's result lines."""
	out = {}
	if not os.path.exists(path):
		return out
	with open(path, errors='replace') as f:
		for line in f:
			line = line.strip().replace('\r', '')
			if not line or line.startswith('#'):
				continue
			kind, *rest = line.split()
			if not kind.isupper() or not all('=' in r for r in rest):
				continue
			d = {}
			for r in rest:
				k, v = r.split('=', 1)
				d[k] = num(v)
			out.setdefault(kind, []).append(d)
	return out


def fmt(v, spec='.0f'):
	if v is None or isinstance(v, str):
		return '-' if v is None else v
	return format(v, spec)


def ratio(a, b, spec='.3g'):
	if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or not b:
		return '-'
	return format(a / b, spec)


def lat_rows(res, scenario):
	"""{pages: {allocator: LAT dict}} of one scenario."""
	rows = {}
	for d in res.get('LAT', []):
		if d.get('scenario') == scenario:
			rows.setdefault(d['pages'], {})[d['allocator']] = d
	return rows


def print_latency(title, rows, show_fail):
	print(title)
	print('            %-44s | %-44s | %s' % ('cma', 'gcma', 'gcma/cma'))
	print('%8s  ' % 'nr_pages' + ' | '.join(
		['%6s %9s %9s %9s %9s' % ('ok', 'min', 'max', 'avg', 'p99')] * 2) +
		' | %6s %6s' % ('avg', 'max'))
	for pages in sorted(rows):
		cells = []
		for a in ('cma', 'gcma'):
			d = rows[pages].get(a)
			if not d:
				cells.append('%6s %9s %9s %9s %9s' % (('-',) * 5))
				continue
			ok = '%d/%d' % (d['ok'], d['ok'] + d['failed'])
			cells.append('%6s %9s %9s %9s %9s' % (
				ok, fmt(d['min_us']), fmt(d['max_us']),
				fmt(d['avg_us']), fmt(d['p99_us'])))
		c, g = rows[pages].get('cma', {}), rows[pages].get('gcma', {})
		print('%8d  ' % pages + ' | '.join(cells) + ' | %6s %6s' % (
			ratio(g.get('avg_us'), c.get('avg_us')),
			ratio(g.get('max_us'), c.get('max_us'))))
	if show_fail:
		for pages in sorted(rows):
			for a in ('cma', 'gcma'):
				d = rows[pages].get(a)
				if d and d['failed']:
					print('  %s, %d pages: %d failed (%d of them given up '
					      'after the timeout), each after %s us on average' % (
						a, pages, d['failed'], d['timed_out'],
						fmt(d['fail_avg_us'])))


def deltas(stats, a, b):
	"""Differences of the STATS lines when=a and when=b."""
	s = {d['when']: d for d in stats}
	if a not in s or b not in s:
		return {}
	return {k: s[b][k] - s[a][k] for k in s[b]
		if k in s[a] and isinstance(s[b][k], int) and isinstance(s[a][k], int)}


def hit(d, hits, misses):
	if hits not in d or misses not in d or d[hits] + d[misses] == 0:
		return None
	return 100.0 * d[hits] / (d[hits] + d[misses])


def median(xs):
	xs = sorted(x for x in xs if isinstance(x, (int, float)))
	if not xs:
		return None
	n = len(xs)
	return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def spread(xs, spec):
	"""median [min-max] of xs, or "-"."""
	xs = [x for x in xs if isinstance(x, (int, float))]
	if not xs:
		return '-'
	if len(xs) == 1:
		return format(xs[0], spec)
	return '%s [%s-%s]' % (format(median(xs), spec), format(min(xs), spec),
			       format(max(xs), spec))


def ratio_range(xs):
	"""Ratios (one per repeat) as "median [min-max]", or "within noise"
	when their range holds 1.0."""
	xs = [x for x in xs if x is not None]
	if not xs:
		return '-'
	text = spread(xs, '.2f')
	if len(xs) > 1 and min(xs) <= 1.0 <= max(xs):
		return text + ' within noise'
	return text


def quot(a, b):
	"""a / b, or None unless both are numbers and b is not 0."""
	if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or not b:
		return None
	return a / b


def phase_deltas(r, phase):
	"""Counter differences over a cost boot's measured window of a phase."""
	st = {d['when']: d for d in r.get('STATS', []) if d.get('phase') == phase}
	if 'begin' not in st or 'end' not in st:
		return {}
	a, b = st['begin'], st['end']
	return {k: b[k] - a[k] for k in b
		if k in a and isinstance(b[k], int) and isinstance(a[k], int)}


def cost_runs(boots):
	"""{(area, lending, swap, workload): [run, ...]}, a run per boot
	(in repeat order), each {'repeat', 'load', 'deltas', 'loop'}."""
	runs = {}
	for tag in sorted(boots):
		if not tag.startswith('cost-'):
			continue
		_, area, rep = tag.split('-')
		r = boots[tag]
		for b in r.get('BGLOAD', []):
			ph = b.get('phase')
			loop = [d for d in r.get('LOOP', []) if d.get('phase') == ph]
			key = (area, b.get('lending'), b.get('swap'), b.get('workload'))
			runs.setdefault(key, []).append({
				'repeat': int(rep), 'load': b,
				'deltas': phase_deltas(r, ph),
				'loop': loop[0] if loop else None})
	return runs


def disk_traffic(rs):
	"""What the virtual disks moved over a setting's measured windows:
	read, written and both in MiB/s, and swap-outs per anonymous page
	the workers checked, each as median [min-max]; None without the
	figures.  On a throttled disk shared by swap and files, these tell a
	reader slowed by GCMA from one slowed by the workers doing more."""
	rd, wr, both, per_page = [], [], [], []
	for x in rs:
		# Over the window the counters were read over, which ends
		# after the load has wound down, not the load's own seconds.
		d = x['deltas']
		secs = d.get('uptime_ms', 0) / 1000.0
		if 'disk_read_kib' not in d or secs <= 0:
			continue
		rd.append(d['disk_read_kib'] / 1024.0 / secs)
		wr.append(d['disk_written_kib'] / 1024.0 / secs)
		both.append(rd[-1] + wr[-1])
		per_page.append(quot(d.get('pswpout'), x['load'].get('anon_pages')))
	if not rd:
		return None
	return (spread(rd, '.1f'), spread(wr, '.1f'), spread(both, '.1f'),
		spread(per_page, '.2f'))


def cost_report(boots, settings, bad):
	"""Prints section 3 from the cost boots; returns its data."""
	runs = cost_runs(boots)
	out = []
	print('[ 3. Cost to the rest of the system: the background load alone; '
	      'median [min-max] over the boots ]')
	swaps = settings.get('swaps', ' '.join(SWAPS)).split()
	workloads = settings.get('workloads', 'stream reuse').split()
	for sw in SWAPS:
		for w in WORKLOADS:
			# Tables of the loads and devices the run asked for.
			if sw not in swaps or w not in workloads or \
			   (w == 'reuse-f2fs' and sw != 'vda'):
				continue
			print()
			print('swap on %s, %s load' % (
				'the disk' if sw == 'vda' else 'zram',
				'reuse (on f2fs)' if w == 'reuse-f2fs' else w))
			print('%-19s %3s %22s %22s %29s %29s %10s %10s %8s' % (
				'setting', 'n', 'anon pages/s', 'file MiB/s',
				'anon vs off', 'file vs off', 'swap hit%',
				'file hit%', 'lent%'))
			off = runs.get(('gcma', 'off', sw, w), [])
			off_by_rep = {x['repeat']: x['load'] for x in off}
			for area, lending, label in COST_SETTINGS:
				rs = runs.get((area, lending, sw, w), [])
				if not rs:
					print('%-19s %3s  no result' % (label, 0))
					continue
				anon = [x['load'].get('anon_pps') for x in rs]
				fil = [x['load'].get('file_mibps') for x in rs]
				if area == 'gcma':
					# Lending on and off ran in the same boot:
					# the ratio is taken repeat by repeat.
					pair = [(x['load'], off_by_rep.get(x['repeat']))
						for x in rs]
					ra = [quot(a.get('anon_pps'), o.get('anon_pps'))
					      for a, o in pair if o]
					rf = [quot(a.get('file_mibps'), o.get('file_mibps'))
					      for a, o in pair if o]
				else:
					# Other boots: every one against every lending-off
					# run, so the range holds both boots' spread.
					ra = [quot(a, o.get('anon_pps')) for a in anon
					      for o in off_by_rep.values()]
					rf = [quot(f, o.get('file_mibps')) for f in fil
					      for o in off_by_rep.values()]
				sh = [hit(x['deltas'], 'swap_loaded', 'pswpin') for x in rs]
				fh = [hit(x['deltas'], 'file_restored', 'file_read_misses')
				      for x in rs]
				lent = [x['load'].get('lent_avg_pct') for x in rs]
				on = lending == 'on'
				print('%-19s %3d %22s %22s %29s %29s %10s %10s %8s' % (
					label, len(rs), spread(anon, '.0f'),
					spread(fil, '.1f'),
					ratio_range(ra) if lending != 'off' else '1',
					ratio_range(rf) if lending != 'off' else '1',
					spread(sh, '.1f') if on else '-',
					spread(fh, '.1f') if on else '-',
					spread(lent, '.0f') if on else '-'))
				cpu = [[x['load'].get(k) for x in rs] for k in (
					'anon_cpu_pct', 'file_cpu_pct', 'guest_busy_pct')]
				if any(isinstance(v, (int, float)) for c in cpu for v in c):
					print('%-23s CPU time, %% of one CPU: workers %s, '
					      'reader %s; the guest\'s CPUs %s %% busy' % (
						'', spread(cpu[0], '.0f'),
						spread(cpu[1], '.0f'), spread(cpu[2], '.0f')))
				disk = disk_traffic(rs)
				if disk:
					print('%-23s disks: %s MiB/s read, %s written, %s '
					      'in all; %s pages swapped out per anon page'
					      % (('',) + disk))
				d_on = [x['deltas'] for x in rs]
				if area == 'gcma' and on:
					stored = sum(d.get('swap_stored', 0) for d in d_on)
					failed = sum(d.get('swap_store_failed', 0) for d in d_on)
					print('%-23s swap: %d stored, %d failed (%s), %d '
					      'evicted, %d skipped for zswap, %d for a '
					      'synchronous device; file: %d stored, %d '
					      'restored, %d evicted, %d not admitted'
					      % ('', stored, failed,
						 '%.1f %%' % (100.0 * failed / (stored + failed))
						 if stored + failed else '-',
						 sum(d.get('swap_evicted', 0) for d in d_on),
						 sum(d.get('swap_zswap_skipped', 0) for d in d_on),
						 sum(d.get('swap_synchronous_skipped', 0) for d in d_on),
						 sum(d.get('file_stored', 0) for d in d_on),
						 sum(d.get('file_restored', 0) for d in d_on),
						 sum(d.get('file_evicted', 0) for d in d_on),
						 sum(d.get('file_not_admitted', 0) for d in d_on)))
				if area == 'gcma' and on:
					for x in rs:
						d = x['deltas']
						if not any(d.get(k) for k in (
							'swap_stored', 'swap_zswap_skipped',
							'swap_synchronous_skipped',
							'file_stored', 'file_not_admitted')):
							bad.append('swap on %s, %s load, repeat %d: '
								   'lending on, yet neither GCMA '
								   'client saw a page' % (sw, w, x['repeat']))
				if area == 'gcma' and lending == 'off':
					for d in d_on:
						if d.get('swap_stored') or d.get('file_stored'):
							bad.append('swap on %s, %s load: GCMA stored '
								   'copies with lending off' % (sw, w))
							break
				for x in rs:
					lp = x['loop']
					if area == 'gcma' and lp and lp.get('failed'):
						bad.append('swap on %s, %s load, lending %s, '
							   'repeat %d: %d of %d GCMA requests failed'
							   % (sw, w, lending, x['repeat'],
							      lp['failed'], lp['requests']))
				out.append({'swap': sw, 'workload': w, 'area': area,
					    'lending': lending, 'runs': rs,
					    'anon_vs_off': ra, 'file_vs_off': rf,
					    'swap_hit_pct': sh, 'file_hit_pct': fh})
	loops = [x['loop'] for rs in runs.values() for x in rs if x['loop']]
	if loops:
		print()
		for area in ('cma', 'gcma'):
			ls = [lp for (a, _, _, _), rs in runs.items() if a == area
			      for lp in (x['loop'] for x in rs) if lp]
			if ls:
				print('requests from the %s area meanwhile: %d, %d granted, '
				      'avg %s us (median of the phases\'), max %s us' % (
					area.upper(), sum(lp['requests'] for lp in ls),
					sum(lp['ok'] for lp in ls),
					fmt(median([lp['avg_us'] for lp in ls])),
					fmt(max([lp['max_us'] for lp in ls
						 if isinstance(lp.get('max_us'), (int, float))],
						default=None))))
	print('(anon pages/s: pages the anonymous workers checked and rewrote '
	      'per second; file MiB/s: read and checked; vs off: against GCMA '
	      'with lending off, the area as a plain reservation (same boot for '
	      'lending on, repeat by repeat; each boot against each for the '
	      'others), "within noise" when the range holds 1; hit%: loads '
	      'from GCMA of all swap-ins, restores of all page-cache misses '
	      'GCMA was asked for; lent%: area pages holding copies, average '
	      'of 1 s samples)')
	print('(Under TCG the guest\'s CPU, and so every copy GCMA makes, is '
	      'emulated, ten or more times slower than a board\'s, while the '
	      'host serves the virtual disks at its own speed: the disks are '
	      'throttled to %s to keep a read\'s cost near a board\'s '
	      'relative to the CPU; README.md, "What TCG does to the figures")'
	      % (settings.get('disk_limit') or 'nothing'))
	return out


def main():
	if len(sys.argv) < 4:
		sys.exit('usage: bench_report.py LOGS JSON PLOTDIR KEY=VALUE...')
	logs, json_path, plotdir = sys.argv[1:4]
	settings = dict(a.split('=', 1) for a in sys.argv[4:] if '=' in a)
	boots = {}
	# The cost boots bench.sh made, in order; by their files without it.
	cost_tags = settings.get('cost_boots', '').split()
	if not cost_tags:
		cost_tags = sorted(os.path.basename(f)[len('results-bench-'):-4]
				   for f in glob.glob(os.path.join(
					   logs, 'results-bench-cost-*.txt')))
	for tag in ['latency', 'unpatched', 'cmaonly'] + cost_tags:
		r = parse(os.path.join(logs, 'results-bench-%s.txt' % tag))
		if r:
			boots[tag] = r
	bad = []
	expected = ['latency'] if settings.get('latency', '1') == '1' else []
	if settings.get('cost', '1') == '1':
		expected += cost_tags
	if settings.get('unpatched') == '1':
		expected += ['unpatched', 'cmaonly']
	bad += ['no results from the boot %s' % t for t in expected if t not in boots]
	data = {'settings': settings, 'boots': {}}
	for tag, r in boots.items():
		data['boots'][tag] = {k.lower(): v for k, v in r.items()}
		for d in r.get('BGLOAD', []):
			if d.get('errors'):
				bad.append('%s: the background load read %d wrong words or pages'
					   % (tag, d['errors']))
			if d.get('children_died'):
				bad.append('%s: %d processes of the background load died'
					   % (tag, d['children_died']))
		if not r.get('BGLOAD'):
			bad.append('%s: no figures from the background load' % tag)
		for d in r.get('BGLOAD_RC', []):
			if d.get('value') == 3:
				bad.append('%s: the background load read data it had not written' % tag)
			elif d.get('value'):
				bad.append('%s: the background load exited with status %s'
					   % (tag, d['value']))
		for d in r.get('STEP', []):
			if d.get('rc'):
				bad.append('%s: %s exited with status %s' % (tag, d['name'], d['rc']))
		if tag in ('latency', 'unpatched', 'cmaonly'):
			for k in LAT_KINDS:
				if not r.get(k):
					bad.append('%s: no %s line' % (tag, k))
			allocators = ('cma', 'gcma') if tag == 'latency' else ('cma',)
			for sc in ('load', 'pinned'):
				rows = lat_rows(r, sc)
				for a in allocators:
					if not rows or any(a not in per for per in rows.values()):
						bad.append('%s: %s figures of %s missing' % (tag, sc, a))
			for d in r.get('PIN', []):
				end = (r.get('PIN_END') or [{}])[0]
				if not d['in_area']:
					bad.append('%s: no pinned page in the CMA area' % tag)
				elif end.get('in_area', 0) < d['in_area']:
					bad.append('%s: pinned pages left the CMA area' % tag)
		elif tag.startswith('cost-'):
			area = tag.split('-')[1]
			phases = {d.get('phase') for d in r.get('BGLOAD', [])}
			swaps = settings.get('swaps', ' '.join(SWAPS)).split()
			loads = settings.get('workloads', 'stream reuse').split()
			# reuse-f2fs: with swap on the disk only.
			pairs = [(s, w) for s in swaps for w in loads
				 if w != 'reuse-f2fs' or s == 'vda']
			want = len(pairs) * (2 if area == 'gcma' else 1)
			if len(phases) != want:
				bad.append('%s: figures of %d phases, not %d'
					   % (tag, len(phases), want))
			for b in r.get('BGLOAD', []):
				ph = b.get('phase')
				whens = {d.get('when') for d in r.get('STATS', [])
					 if d.get('phase') == ph}
				if not {'begin', 'end'} <= whens:
					bad.append('%s phase %s: counters not read at the '
						   'start and the end' % (tag, ph))
				if settings.get('cost_requests') == '1' and area != 'none' \
				   and not [d for d in r.get('LOOP', [])
							   if d.get('phase') == ph]:
					bad.append('%s phase %s: no figures from the requests '
						   'meanwhile' % (tag, ph))

	lat = boots.get('latency', {})
	for s in lat.get('SETTING', [])[:1]:
		print('latency boot: %s, MemTotal %s MiB, %s CPUs, swap on %s, areas %s'
		      % (s.get('kernel'), fmt(s.get('memtotal_kib', 0) / 1024),
			 s.get('cpus'), s.get('swap'), s.get('cmdline_areas')))
	st = {d['when']: d for d in lat.get('STATS', [])}
	if 'load' in st:
		d = st['load']
		cma_mib = d.get('cma_count', 0) * 4 / 1024
		print('at the first request: CMA area %s of its %s MiB free (the rest '
		      'holds movable pages); GCMA area %s of %s pages lent to its '
		      'clients' % (fmt(d.get('CmaFree_kib', 0) / 1024), fmt(cma_mib),
				   fmt(d.get('gcma_lent')), fmt(d.get('gcma_count'))))
	for d in lat.get('BGLOAD', [])[:1]:
		print('background load in that boot: %s anonymous pages/s (%s MiB in '
		      'a %s MiB cgroup, %s workers), %s MiB/s read of a %s MiB file, '
		      '%s errors' % (fmt(d['anon_pps']), d['anon_mib'], d['limit_mib'],
				     d['workers'], fmt(d['file_mibps'], '.1f'),
				     d['file_mib'], d['errors']))
	print()
	load = lat_rows(lat, 'load')
	print_latency('[ 1. Latency under load (us, from user space around the '
		      'debugfs write of cma_alloc()) ]', load, True)
	print()
	pinned = lat_rows(lat, 'pinned')
	for d in lat.get('PIN', []):
		end = (lat.get('PIN_END') or [{}])[0]
		print('pinned: %s pages held in pipes by vmsplice, %s of them in the '
		      'CMA area "%s", in %s of its %s stretches of %s pages; at the '
		      'end %s in the area' % (d['pinned'], d['in_area'], d['area'],
					      d['covered'], d['buckets'], d['stride'],
					      fmt(end.get('in_area'))))

	print_latency('[ 2. The guarantee: the same requests with pinned pages '
		      'in the CMA area ]', pinned, True)
	print()

	print('[ GCMA\'s own cost per size (load scenario, then pinned) ]')
	print('%-8s %8s %8s %14s %8s %14s' % ('scenario', 'nr_pages', 'granted',
					      'discards/alloc', 'waits', 'wait timeouts'))
	for d in lat.get('GCMA_COST', []):
		print('%-8s %8d %8d %14s %8d %14d' % (
			d['scenario'], d['pages'], d['granted'],
			ratio(d['revoked'], d['granted'], '.1f'), d['waits'],
			d['wait_timeouts']))
		if d['wait_timeouts']:
			bad.append('GCMA gave up waiting for a page in use (%d times, %d pages)'
				   % (d['wait_timeouts'], d['pages']))
	for d in lat.get('GCMA_WAIT_MAX_US', [])[-1:]:
		print('longest wait for a page in use since boot: %s us' % fmt(d['value']))
	print()

	if settings.get('cost', '1') == '1':
		data['cost'] = cost_report(boots, settings, bad)
		print()

	unp = boots.get('unpatched')
	if unp:
		only = boots.get('cmaonly', {})
		print()
		print('[ CMA on plain 6.12 (same config) against CMA on the series: '
		      'requests granted, avg us ]')
		print('%-8s %8s %14s %14s %14s %8s' % (
			'scenario', 'nr_pages', 'plain', 'series', 'series+GCMA',
			'ratio'))
		for sc in ('load', 'pinned'):
			a, b, c = lat_rows(unp, sc), lat_rows(only, sc), lat_rows(lat, sc)
			for pages in sorted(set(a) | set(b) | set(c)):
				pa, pb, pc = (x.get(pages, {}).get('cma', {}) for x in (a, b, c))
				cell = lambda d: ('%d/%d %s' % (d['ok'], d['ok'] + d['failed'],
							       fmt(d['avg_us']))) if d else '-'
				print('%-8s %8d %14s %14s %14s %8s' % (
					sc, pages, cell(pa), cell(pb), cell(pc),
					ratio(pb.get('avg_us'), pa.get('avg_us'))))
		print('(plain and series: a boot each with the CMA area alone; '
		      'series+GCMA: the latency boot above, a GCMA area beside it '
		      'and its clients busy; ratio: series avg / plain avg)')

	for sc, rows in (('load', load), ('pinned', pinned)):
		for pages, per in rows.items():
			g = per.get('gcma')
			if g and g['failed']:
				bad.append('%s: %d of %d GCMA requests of %d pages failed'
					   % (sc, g['failed'], g['rounds'], pages))
	data['problems'] = bad
	with open(json_path, 'w') as f:
		json.dump(data, f, indent=1, sort_keys=True)
		f.write('\n')
	if load:
		plot(plotdir, load, pinned)
	print()
	for b in bad:
		print('error: ' + b)
	return 1 if bad else 0


def plot(plotdir, load, pinned):
	"""bench-latency.{dat,gp,svg}: avg and max against size, log-log."""
	dat = os.path.join(plotdir, 'bench-latency.dat')
	with open(dat, 'w') as f:
		f.write('# pages cma_avg cma_max gcma_avg gcma_max '
			'pinned_cma_avg pinned_gcma_avg (us; - where none)\n')
		for pages in sorted(load):
			row = [pages]
			for a in ('cma', 'gcma'):
				d = load[pages].get(a, {})
				row += [fmt(d.get('avg_us'), '.1f'), fmt(d.get('max_us'), '.1f')]
			for a in ('cma', 'gcma'):
				d = pinned.get(pages, {}).get(a, {})
				row.append(fmt(d.get('avg_us'), '.1f'))
			f.write(' '.join(str(x) for x in row) + '\n')
	gp = os.path.join(plotdir, 'bench-latency.gp')
	with open(gp, 'w') as f:
		f.write('''set terminal svg size 900,560 dynamic noenhanced
set output "bench-latency.svg"
set title "cma_alloc() latency under load: CMA against GCMA"
set xlabel "pages requested"
set ylabel "microseconds"
set logscale xy
set key top left
set grid
set datafile missing "-"
plot "bench-latency.dat" using 1:2 with linespoints title "CMA avg", \\
     "" using 1:3 with linespoints title "CMA max", \\
     "" using 1:4 with linespoints title "GCMA avg", \\
     "" using 1:5 with linespoints title "GCMA max", \\
     "" using 1:6 with points title "CMA avg, pinned pages (none granted where missing)", \\
     "" using 1:7 with points title "GCMA avg, pinned pages"
''')
	if shutil.which('gnuplot'):
		r = subprocess.run(['gnuplot', 'bench-latency.gp'], cwd=plotdir,
				   capture_output=True, text=True)
		if r.returncode:
			print('bench_report: gnuplot failed: ' + r.stderr.strip(),
			      file=sys.stderr)
	else:
		print('bench_report: no gnuplot, no plot (bench-latency.gp is there)',
		      file=sys.stderr)


if __name__ == '__main__':
	sys.exit(main())
