# BAM tests: conformance with BAM's reference simulator, and identification (bam fit).
check_PROGRAMS += tests/test_bam tests/test_bam_fit
TESTS += tests/test_bam tests/test_bam_fit
tests_test_bam_SOURCES = tests/test_bam.c tests/testutil.h
tests_test_bam_CFLAGS = $(TEST_CFLAGS)
tests_test_bam_LDADD = $(TEST_LIBS)
tests_test_bam_fit_SOURCES = tests/test_bam_fit.c tests/testutil.h
tests_test_bam_fit_CFLAGS = $(TEST_CFLAGS)
tests_test_bam_fit_LDADD = $(TEST_LIBS)
