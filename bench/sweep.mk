# `make bench-sweep`: 1000 runs of the friction block by `stiction sweep -j 1, 2` against the
# in-process single run and against 1000 `stiction simulate` processes (bench/sweep_bench.c).
EXTRA_PROGRAMS += bench/sweep_bench
bench_sweep_bench_SOURCES = bench/sweep_bench.c bench/clock.c bench/clock.h
bench_sweep_bench_LDADD = libstiction_core.la
bench-sweep: bench/sweep_bench$(EXEEXT) stiction$(EXEEXT)
	./bench/sweep_bench$(EXEEXT) '$(abs_top_builddir)/stiction$(EXEEXT)' '$(abs_top_srcdir)' 1 2
bench: bench-sweep
.PHONY: bench-sweep
