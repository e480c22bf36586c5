# libFuzzer harnesses (doc/fuzzing.md), built by `./configure --enable-fuzzers` (clang) with
# ASan and UBSan; `make fuzz-smoke` runs each briefly, `fuzz/run-fuzzers --seconds N` longer.
FUZZERS = fuzz/fuzz_parse fuzz/fuzz_flatten fuzz/fuzz_tamsi fuzz/fuzz_bam fuzz/fuzz_csv \
	fuzz/fuzz_mat fuzz/fuzz_flat_io
EXTRA_DIST += fuzz/run-fuzzers fuzz/modelica.dict fuzz/json.dict fuzz/seeds
FUZZ_SMOKE_SECONDS = 20

if ENABLE_FUZZERS
noinst_PROGRAMS += $(FUZZERS)
FUZZ_LDADD = libstiction_core.la
fuzz_fuzz_parse_SOURCES = fuzz/fuzz_parse.c fuzz/fuzz_util.h
fuzz_fuzz_parse_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_parse_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_flatten_SOURCES = fuzz/fuzz_flatten.c fuzz/fuzz_util.h
fuzz_fuzz_flatten_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_flatten_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_tamsi_SOURCES = fuzz/fuzz_tamsi.c
fuzz_fuzz_tamsi_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_tamsi_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_bam_SOURCES = fuzz/fuzz_bam.c fuzz/fuzz_util.h
fuzz_fuzz_bam_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_bam_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_csv_SOURCES = fuzz/fuzz_table.c
fuzz_fuzz_csv_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_csv_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_mat_SOURCES = fuzz/fuzz_table.c
fuzz_fuzz_mat_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_MAT
fuzz_fuzz_mat_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_mat_LDFLAGS = $(FUZZ_LDFLAGS)
fuzz_fuzz_flat_io_SOURCES = fuzz/fuzz_flat_io.c
fuzz_fuzz_flat_io_LDADD = $(FUZZ_LDADD)
fuzz_fuzz_flat_io_LDFLAGS = $(FUZZ_LDFLAGS)

fuzz-smoke: $(FUZZERS)
	$(SHELL) $(srcdir)/fuzz/run-fuzzers --seconds $(FUZZ_SMOKE_SECONDS)
fuzz-corpus:
	$(SHELL) $(srcdir)/fuzz/run-fuzzers --seeds-only
else
fuzz-smoke fuzz-corpus:
	@echo "$@: configure with --enable-fuzzers (clang) to build the fuzzers" >&2; exit 1
endif
clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz/corpus fuzz/artifacts fuzz/logs
.PHONY: fuzz-smoke fuzz-corpus clean-fuzz
