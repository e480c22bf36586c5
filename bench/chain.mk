# `make bench-chain`: Burridge-Knopoff chain scaling with N (cost per event vs linear).
EXTRA_PROGRAMS += bench/chain_bench
bench_chain_bench_SOURCES = bench/chain_bench.c bench/clock.c bench/clock.h
bench_chain_bench_LDADD = libstiction_core.la
bench-chain: bench/chain_bench$(EXEEXT)
	./bench/chain_bench$(EXEEXT) 40 10 20 40
bench: bench-chain
.PHONY: bench-chain
