# front-end tests, second half: loading, lookup, modifiers, connect, flattening.
check_PROGRAMS += tests/test_flatten
TESTS += tests/test_flatten
tests_test_flatten_SOURCES = tests/test_flatten.c tests/testutil.h tests/flatutil.h
tests_test_flatten_CFLAGS = $(TEST_CFLAGS)
tests_test_flatten_LDADD = $(TEST_LIBS)
# the language features the genuine Modelica Standard Library needs (front end)
check_PROGRAMS += tests/test_frontlang
TESTS += tests/test_frontlang
tests_test_frontlang_SOURCES = tests/test_frontlang.c tests/testutil.h tests/flatutil.h
tests_test_frontlang_CFLAGS = $(TEST_CFLAGS)
tests_test_frontlang_LDADD = $(TEST_LIBS)
