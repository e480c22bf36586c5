# `make bench`: speed ratios against hand-written baselines (never a timed unit test).
# The programs are EXTRA_PROGRAMS: built by `make bench` only, not by `make all` or `check`.
EXTRA_PROGRAMS = bench/demo_bench bench/handwritten
bench_handwritten_SOURCES = bench/handwritten_main.c bench/handwritten.c bench/handwritten.h
bench_handwritten_LDADD = $(LIBS)
# linked like the stiction command (configure.ac), so that process times compare like with like
bench_handwritten_LDFLAGS = $(STATIC_PROGRAM_LDFLAGS)
bench_demo_bench_SOURCES = bench/demo_bench.c bench/handwritten.c bench/handwritten.h \
	bench/clock.c bench/clock.h
bench_demo_bench_LDADD = libstiction_core.la
CLEANFILES += $(EXTRA_PROGRAMS)
bench-demos: bench/demo_bench$(EXEEXT) bench/handwritten$(EXEEXT) stiction$(EXEEXT)
	./bench/demo_bench$(EXEEXT) '$(abs_top_builddir)/stiction$(EXEEXT)' \
	  '$(abs_top_builddir)/bench/handwritten$(EXEEXT)' 1.0
bench: bench-demos
.PHONY: bench bench-demos
include bench/bam.mk
include bench/study.mk
include bench/model.mk
include bench/chain.mk
include bench/step.mk
include bench/fmu.mk
include bench/sweep.mk
include bench/clocks.mk
include bench/extc.mk
include bench/scale.mk
