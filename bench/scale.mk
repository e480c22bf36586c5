# `make bench-scale`: translation time and memory of generated chains at growing N (issue 18).
EXTRA_PROGRAMS += bench/scale_bench
bench_scale_bench_SOURCES = bench/scale_bench.c bench/clock.c bench/clock.h
bench_scale_bench_LDADD = libstiction_core.la
bench-scale: bench/scale_bench$(EXEEXT)
	./bench/scale_bench$(EXEEXT) '$(abs_top_srcdir)' $(SCALE_ARRAY_MAX) $(SCALE_COMPONENT_MAX) $(SCALE_RUN_MAX) $(SCALE_WIDE_MAX)
SCALE_ARRAY_MAX = 100000
SCALE_COMPONENT_MAX = 10000
SCALE_RUN_MAX = 10000
SCALE_WIDE_MAX = 100000
bench: bench-scale
.PHONY: bench-scale
