# the Modelica library in models/: parses, flattens, and the MSL examples against the references.
check_PROGRAMS += tests/test_library
TESTS += tests/test_library
tests_test_library_SOURCES = tests/test_library.c tests/testutil.h
tests_test_library_CFLAGS = $(TEST_CFLAGS)
tests_test_library_LDADD = $(TEST_LIBS)

# every component of issue 5's list in small models with closed forms (tests/data/library/).
check_PROGRAMS += tests/test_library_parts
TESTS += tests/test_library_parts
tests_test_library_parts_SOURCES = tests/test_library_parts.c tests/testutil.h
tests_test_library_parts_CFLAGS = $(TEST_CFLAGS)
tests_test_library_parts_LDADD = $(TEST_LIBS)
