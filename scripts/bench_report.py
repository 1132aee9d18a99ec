#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables, data file and plot of make bench, from its boots' results.

usage: bench_report.py LOGS JSON PLOTDIR KEY=VALUE...

LOGS holds results-bench-TAG.txt, one per boot (scripts/bench.sh): TAG
latency (both areas: the load and pinned scenarios), cost-none, cost-cma,
cost-gcma, cost-gcma_swaponly, cost-none_zram, cost-gcma_zram (the
background load alone, with or without an area), and, when asked for,
unpatched and cmaonly (plain 6.12 and the series, CMA only).  The
KEY=VALUE pairs are the run's settings, copied into the data file.

Prints the tables; writes JSON (every figure and the settings) and, in
PLOTDIR, bench-latency.dat, bench-latency.gp and, when gnuplot is
installed, bench-latency.svg.  Every figure comes from the result lines;
one that is missing is printed as "-".  Exits 1 when a result says data
came back wrong or a GCMA request failed, 0 otherwise.
"""

import json
import math
import os
import shutil
import subprocess
import sys

# (setting, label, its baseline): the zram row is set against a boot
# that swaps on zram too, so that its ratio is GCMA's, not zram's.
COST_SETTINGS = [
	('none', 'no area (baseline)', 'none'),
	('cma', 'CMA area', 'none'),
	('gcma', 'GCMA area', 'none'),
	('gcma_swaponly', 'GCMA, file client off', 'none'),
	('none_zram', 'no area, zram swap', 'none_zram'),
	('gcma_zram', 'GCMA area, zram swap', 'none_zram'),
]
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


def main():
	if len(sys.argv) < 4:
		sys.exit('usage: bench_report.py LOGS JSON PLOTDIR KEY=VALUE...')
	logs, json_path, plotdir = sys.argv[1:4]
	settings = dict(a.split('=', 1) for a in sys.argv[4:] if '=' in a)
	boots = {}
	for tag in ['latency', 'unpatched', 'cmaonly'] + ['cost-' + c[0] for c in COST_SETTINGS]:
		r = parse(os.path.join(logs, 'results-bench-%s.txt' % tag))
		if r:
			boots[tag] = r
	bad = []
	expected = ['latency']
	if settings.get('cost', '1') == '1':
		expected += ['cost-' + c[0] for c in COST_SETTINGS]
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
			whens = {d.get('when') for d in r.get('STATS', [])}
			if not {'ready', 'end'} <= whens:
				bad.append('%s: counters not read at the start and the end' % tag)
			if tag not in ('cost-none', 'cost-none_zram') and not r.get('LOOP'):
				bad.append('%s: no figures from the requests meanwhile' % tag)

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

	print('[ 3. Cost to the rest of the system: the background load alone, '
	      'per boot ]')
	print('%-22s %10s %7s %9s %7s %9s %9s %12s' % (
		'setting', 'anon pg/s', 'vs base', 'file MB/s', 'vs base',
		'swap hit%', 'file hit%', 'area lent%'))
	data['cost'] = []
	for s, label, against in COST_SETTINGS:
		base = (boots.get('cost-' + against, {}).get('BGLOAD') or [{}])[0]
		r = boots.get('cost-' + s, {})
		b = (r.get('BGLOAD') or [None])[0]
		if not b:
			print('%-22s no result' % label)
			continue
		d = deltas(r.get('STATS', []), 'ready', 'end')
		swap_hit = file_hit = None
		if s.startswith('gcma'):
			swap_hit = hit(d, 'swap_loaded', 'pswpin')
			file_hit = hit(d, 'file_restored', 'file_read_misses')
		lent = '-'
		if b.get('lent_avg_pct') is not None and isinstance(b.get('lent_avg_pct'), (int, float)):
			lent = '%.0f (max %.0f)' % (b['lent_avg_pct'], b['lent_max_pct'])
		print('%-22s %10s %7s %9s %7s %9s %9s %12s' % (
			label, fmt(b['anon_pps']), ratio(b['anon_pps'], base.get('anon_pps')),
			fmt(b['file_mibps'], '.1f'), ratio(b['file_mibps'], base.get('file_mibps')),
			fmt(swap_hit, '.1f'), fmt(file_hit, '.1f'), lent))
		fg = (r.get('LOOP') or [None])[0]
		if s == 'gcma_swaponly' and d.get('file_stored'):
			bad.append('%s: the file client stored %d pages while off'
				   % (label, d['file_stored']))
		data['cost'].append({'setting': s, 'baseline': against,
				     'load': b, 'counter_deltas': d,
				     'swap_hit_pct': swap_hit, 'file_hit_pct': file_hit,
				     'foreground': fg})
	for s, label, _ in COST_SETTINGS:
		fg = (boots.get('cost-' + s, {}).get('LOOP') or [None])[0]
		if fg:
			print('  %s: meanwhile %d requests from the area, %d granted, avg %s us, max %s us'
			      % (label, fg['requests'], fg['ok'], fmt(fg['avg_us']),
				 fmt(fg['max_us'])))
			if s.startswith('gcma') and fg['failed']:
				bad.append('%s: %d GCMA requests failed' % (label, fg['failed']))
	print('(anon pg/s: pages the anonymous workers checked and rewrote per '
	      'second; file MB/s: MiB/s read and checked; vs base: against the '
	      'no-area boot with the same swap device; hit%: loads from GCMA '
	      'of all swap-ins, restores of all page-cache misses GCMA was asked '
	      'for; lent%: area pages holding copies, avg and max of 1 s samples)')

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
