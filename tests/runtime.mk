# runtime tests: the simulation handle (CVODE/IDA, events, statistics) through the public API.
check_PROGRAMS += tests/test_runtime
TESTS += tests/test_runtime
tests_test_runtime_SOURCES = tests/test_runtime.c tests/testutil.h
tests_test_runtime_CFLAGS = $(TEST_CFLAGS)
tests_test_runtime_LDADD = $(TEST_LIBS)

# the runtime's SUNDIALS kernels against the library's (bit for bit)
check_PROGRAMS += tests/test_kernels
TESTS += tests/test_kernels
tests_test_kernels_SOURCES = tests/test_kernels.c tests/testutil.h
tests_test_kernels_CFLAGS = $(TEST_CFLAGS)
tests_test_kernels_LDADD = $(TEST_LIBS)
