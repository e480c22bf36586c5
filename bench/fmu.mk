# `make bench-fmu`: an FMU's Co-Simulation steps (dlopen, fmi2DoStep every 1 ms) against a
# run of the same model in stiction, next to bench-step.
EXTRA_PROGRAMS += bench/fmu_bench
bench_fmu_bench_SOURCES = bench/fmu_bench.c bench/clock.c bench/clock.h
bench_fmu_bench_LDADD = libstiction_core.la -ldl
bench-fmu: bench/fmu_bench$(EXEEXT) stiction$(EXEEXT) stiction_fmi2.so
	./bench/fmu_bench$(EXEEXT) '$(abs_top_srcdir)' '$(abs_top_builddir)/stiction$(EXEEXT)' 1.0
bench: bench-fmu
.PHONY: bench-fmu
