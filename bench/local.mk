# `make bench`: speed ratios against hand-written baselines (never a timed unit test).
bench:
	@echo "no benchmarks yet"
.PHONY: bench
include bench/bam.mk
