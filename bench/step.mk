# `make bench-step`: stepping through include/stiction/modelica.h against a run to the end.
EXTRA_PROGRAMS += bench/step_bench
bench_step_bench_SOURCES = bench/step_bench.c bench/clock.c bench/clock.h
bench_step_bench_LDADD = libstiction_core.la
bench-step: bench/step_bench$(EXEEXT)
	./bench/step_bench$(EXEEXT) '$(abs_top_srcdir)' 1.0
bench: bench-step
.PHONY: bench-step
