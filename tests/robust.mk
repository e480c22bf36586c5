# robustness: bad input fails cleanly (mutants found by tests/fuzz_models.py, issue 21 crashes and hangs)
check_PROGRAMS += tests/test_robust
TESTS += tests/test_robust
tests_test_robust_SOURCES = tests/test_robust.c
tests_test_robust_CFLAGS = $(TEST_CFLAGS)
tests_test_robust_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fuzz_models.py
