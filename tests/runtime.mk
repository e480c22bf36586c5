# runtime tests: the simulation handle (CVODE/IDA, events, statistics) through the public API.
check_PROGRAMS += tests/test_runtime
TESTS += tests/test_runtime
tests_test_runtime_SOURCES = tests/test_runtime.c tests/testutil.h
tests_test_runtime_CFLAGS = $(TEST_CFLAGS)
tests_test_runtime_LDADD = $(TEST_LIBS)
