# built-in demo models (src/demos) and `stiction demo`, against the benchmark reference numbers.
check_PROGRAMS += tests/test_demos
TESTS += tests/test_demos
tests_test_demos_SOURCES = tests/test_demos.c
tests_test_demos_CFLAGS = $(TEST_CFLAGS)
tests_test_demos_LDADD = $(TEST_LIBS)
