# BAM rollout bench: `make bench-bam` (also run by `make bench`).
noinst_PROGRAMS += bench/bam_bench
bench_bam_bench_SOURCES = bench/bam_bench.c
bench_bam_bench_LDADD = libstiction_core.la
bench-bam: bench/bam_bench$(EXEEXT)
	./bench/bam_bench$(EXEEXT) '$(abs_top_srcdir)/tests/reference' 1.0 \
	  '$(abs_top_srcdir)/bench/bam_python.py'
bench: bench-bam
.PHONY: bench-bam

# BAM fit: the same fit (loss, bounds, trials) in Python + NumPy + python3-cmaes and in
# stiction; prints both wall times and the ratio. `make bench-bam-fit` (not part of `bench`:
# the Python side takes minutes). BAM_FIT_MODEL, BAM_FIT_TRIALS, BAM_FIT_THREADS override.
BAM_FIT_MODEL = m3
BAM_FIT_TRIALS = 1000
BAM_FIT_THREADS = 2
bench-bam-fit: stiction$(EXEEXT)
	/usr/bin/python3 '$(abs_top_srcdir)/bench/bam_fit_python.py' '$(abs_top_srcdir)/../shared' \
	  '$(abs_top_builddir)/stiction$(EXEEXT)' $(BAM_FIT_MODEL) $(BAM_FIT_TRIALS) $(BAM_FIT_THREADS)
.PHONY: bench-bam-fit
