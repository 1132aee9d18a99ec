# GCMA for Linux 6.12: every target runs one script of scripts/.
# See README.md.

.PHONY: deps tree export export-check check check-arm check-selftest test-one bench run clean

deps:
	@sh scripts/deps.sh

tree: deps
	@sh scripts/tree.sh

export:
	@sh scripts/export.sh

export-check:
	@sh scripts/export-check.sh

check: deps
	@sh scripts/check.sh

# 32-bit ARM with highmem, apart: make check does not run it.
check-arm: deps
	@GCMA_CHECK_SCOPE=arm sh scripts/check.sh

# One kselftest or KUnit suite of build/linux in one boot: make test-one T=NAME
test-one: deps
	@GCMA_CHECK_SCOPE=one GCMA_CHECK_ONLY="$(T)" sh scripts/check.sh

# Breaks the series on purpose and shows that make check says so.
check-selftest: deps
	@sh scripts/check-selftest.sh

bench: deps
	@sh scripts/bench.sh

run: deps
	@sh scripts/run.sh

clean:
	@sh scripts/clean.sh
