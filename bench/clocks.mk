# `make bench-clocks`: a 1 kHz sampled PI (bench/clocks/ClutchPI.mo, 10^5 clock ticks in 100 s)
# against the same drive under a continuous PI: the difference of their wall times over the
# ticks is the cost per tick (doc/benchmarks.md).
# bench/clocks_handwritten.c is the floor: the same drive and PI in C on CVODE, run twice with the
# same strategy as stiction's: restarted at each tick (stiction --tick-restart), and going on from
# CVODE's history over a small jump of y' (stiction's default); each prints its ratio of CPU times.
EXTRA_PROGRAMS += bench/clocks_handwritten
bench_clocks_handwritten_SOURCES = bench/clocks_handwritten.c
bench_clocks_handwritten_LDADD = $(LIBS)
bench_clocks_handwritten_LDFLAGS = $(STATIC_PROGRAM_LDFLAGS)
bench-clocks: stiction$(EXEEXT) bench/clocks_handwritten$(EXEEXT)
	./bench/clocks_handwritten$(EXEEXT) 1e-6 restart \
	  './stiction$(EXEEXT) simulate $(srcdir)/bench/clocks/ClutchPI.mo --tick-restart -o /tmp/bench_clocks_hw.csv >/dev/null 2>&1'
	./bench/clocks_handwritten$(EXEEXT) 1e-6 goon \
	  './stiction$(EXEEXT) simulate $(srcdir)/bench/clocks/ClutchPI.mo -o /tmp/bench_clocks_hw.csv >/dev/null 2>&1'
	rm -f /tmp/bench_clocks_hw.csv
	@for m in ClutchPI ClutchPIContinuous; do \
	  ./stiction$(EXEEXT) simulate $(srcdir)/bench/clocks/$$m.mo -o /tmp/bench_clocks_$$$$.csv --stats 2>&1 \
	    | grep -E "^$$m:|wall time (integration|events)|^steps"; \
	done; rm -f /tmp/bench_clocks_*.csv
.PHONY: bench-clocks
