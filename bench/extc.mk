# `make bench-extc`: a 10^5-row CombiTimeTable through the MSL's C code (first run with the C
# compiler, cached run, the same model without external code; bench/extc_bench.c). Needs the
# genuine MSL: MSL_DIR (default ~/msl/4.0.0); skipped when absent.
MSL_DIR ?= $(HOME)/msl/4.0.0
EXTRA_PROGRAMS += bench/extc_bench
bench_extc_bench_SOURCES = bench/extc_bench.c bench/clock.c bench/clock.h
bench_extc_bench_LDADD = $(LIBS)
bench-extc: bench/extc_bench$(EXEEXT) stiction$(EXEEXT)
	./bench/extc_bench$(EXEEXT) '$(abs_top_builddir)/stiction$(EXEEXT)' '$(MSL_DIR)'
bench: bench-extc
.PHONY: bench-extc
