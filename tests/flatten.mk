# front-end tests, second half: loading, lookup, modifiers, connect, flattening.
check_PROGRAMS += tests/test_flatten
TESTS += tests/test_flatten
tests_test_flatten_SOURCES = tests/test_flatten.c tests/testutil.h
tests_test_flatten_CFLAGS = $(TEST_CFLAGS)
tests_test_flatten_LDADD = $(TEST_LIBS)
