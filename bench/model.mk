# `make bench-models`: Modelica-text models through the whole pipeline vs hand-written CVODE.
EXTRA_PROGRAMS += bench/model_bench
bench_model_bench_SOURCES = bench/model_bench.c bench/handwritten.c bench/handwritten.h \
	bench/clock.c bench/clock.h
bench_model_bench_LDADD = libstiction_core.la
bench-models: bench/model_bench$(EXEEXT) bench/handwritten$(EXEEXT) stiction$(EXEEXT)
	./bench/model_bench$(EXEEXT) '$(abs_top_builddir)/stiction$(EXEEXT)' \
	  '$(abs_top_builddir)/bench/handwritten$(EXEEXT)' '$(abs_top_srcdir)' 1.0
bench: bench-models
.PHONY: bench-models
