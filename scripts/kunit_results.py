#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the KUnit results of one boot with the kernel's own KTAP parser.

usage: kunit_results.py TREE CONSOLE REPORT SUITE...

TREE is the kernel tree under test: its tools/testing/kunit/kunit_parser.py
parses CONSOLE, the guest's console log, exactly as `kunit.py parse` would;
the parser's own report (the [PASSED]/[FAILED] lines) goes to REPORT.  Each
SUITE is a suite that must have run.

Prints one line per item, "PASS: ..." or "FAIL: ...", and below a failing
item the lines that explain it (the KUnit expectation, the test's log).
A case that skips, a suite that is missing or that ran fewer cases than its
plan, and any error the parser found are failures: the tests run in a
kernel built for them, so none of them has a reason to skip.
"""

import contextlib
import os
import sys


def explain(lines, limit=30):
	"""The diagnostic lines of a failing case, indented, at most limit."""
	lines = [l for l in lines if l.strip()]
	for line in lines[-limit:]:
		print(f'    {line}')


def main():
	if len(sys.argv) < 4:
		sys.exit(__doc__)
	tree, console, report = sys.argv[1:4]
	expected = sys.argv[4:]
	sys.path.insert(0, os.path.join(tree, 'tools/testing/kunit'))
	try:
		with open(console, errors='replace') as f:
			kernel_output = [l.replace('\r', '') for l in f]
	except OSError as e:
		print(f'FAIL: kunit: no console log ({e.strerror})')
		return
	# The parser's printer binds sys.stdout when it is imported: import it
	# with stdout sent to the report.
	with open(report, 'w') as out, contextlib.redirect_stdout(out):
		import kunit_parser
		main_test = kunit_parser.parse_run_tests(kernel_output)
	TestStatus = kunit_parser.TestStatus

	if main_test.status == TestStatus.FAILURE_TO_PARSE_TESTS:
		print('FAIL: kunit: no KTAP output on the console (did KUnit run?)')
	seen = {}
	for suite in main_test.subtests:
		seen[suite.name] = suite
		if suite.name not in expected:
			print(f'FAIL: kunit suite {suite.name or "?"}: not one of the '
			      f'expected suites ({" ".join(expected)})')
			continue
		# A case the plan promised but that never reported is a nameless
		# crashed subtest to the parser: said once, as the plan mismatch.
		cases = [c for c in suite.subtests if c.name]
		short = False
		if suite.expected_count is not None and \
		   len(cases) != suite.expected_count:
			print(f'FAIL: kunit suite {suite.name}: its plan says '
			      f'{suite.expected_count} cases, {len(cases)} reported')
			explain(suite.log)
			short = True
		if not suite.subtests:
			print(f'FAIL: kunit suite {suite.name}: no case ran '
			      f'({suite.status.name})')
			explain(suite.log)
		for case in cases:
			name = f'kunit {suite.name}.{case.name or "?"}'
			if case.status == TestStatus.SUCCESS:
				print(f'PASS: {name}')
			elif case.status == TestStatus.SKIPPED:
				print(f'FAIL: {name}: skipped (a skip is a failure here)')
				explain(case.log)
			else:
				print(f'FAIL: {name}: {case.status.name}')
				explain(case.log)
		if suite.counts.errors and suite.status == TestStatus.SUCCESS:
			print(f'FAIL: kunit suite {suite.name}: the KTAP parser '
			      f'found {suite.counts.errors} errors (see the report)')
		elif not short and cases and all(c.status == TestStatus.SUCCESS for c in cases) \
		     and suite.status != TestStatus.SUCCESS:
			print(f'FAIL: kunit suite {suite.name}: every case passed, '
			      f'but the suite reports {suite.status.name}')
			explain(suite.log)
	if main_test.expected_count is not None and \
	   main_test.expected_count != len(main_test.subtests):
		print(f'FAIL: kunit: the plan says {main_test.expected_count} '
		      f'suites, {len(main_test.subtests)} reported')
	for name in expected:
		if name not in seen:
			print(f'FAIL: kunit suite {name}: expected, but it did not run '
			      f'(left out of the config, or the kernel died first)')


if __name__ == '__main__':
	main()
