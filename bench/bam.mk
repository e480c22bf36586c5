# BAM rollout bench: `make bench-bam` (also run by `make bench`).
noinst_PROGRAMS += bench/bam_bench
bench_bam_bench_SOURCES = bench/bam_bench.c
bench_bam_bench_LDADD = libstiction_core.la
bench-bam: bench/bam_bench$(EXEEXT)
	./bench/bam_bench$(EXEEXT) '$(abs_top_srcdir)/tests/reference' 1.0 \
	  '$(abs_top_srcdir)/bench/bam_python.py'
bench: bench-bam
.PHONY: bench-bam
