# the Modelica library in models/: parses, flattens, and the MSL examples against the references.
check_PROGRAMS += tests/test_library
TESTS += tests/test_library
tests_test_library_SOURCES = tests/test_library.c tests/testutil.h
tests_test_library_CFLAGS = $(TEST_CFLAGS)
tests_test_library_LDADD = $(TEST_LIBS)
