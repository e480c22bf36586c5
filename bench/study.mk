# Friction-law study bench (issue 6): `make bench-study` (also run by `make bench`).
# Built on demand only (EXTRA_PROGRAMS), like bench/demo_bench.
EXTRA_PROGRAMS += bench/study_bench
bench_study_bench_SOURCES = bench/study_bench.c
bench_study_bench_LDADD = libstiction_core.la
bench-study: bench/study_bench$(EXEEXT)
	./bench/study_bench$(EXEEXT) 1.0
bench: bench-study
.PHONY: bench-study
