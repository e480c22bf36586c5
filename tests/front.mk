# front tests, first half: the Modelica parser (grammar corpus in tests/data/front/grammar,
# AST spot checks, robustness on broken input, `stiction parse`).
check_PROGRAMS += tests/test_parse
TESTS += tests/test_parse
tests_test_parse_SOURCES = tests/test_parse.c tests/testutil.h
tests_test_parse_CFLAGS = $(TEST_CFLAGS)
tests_test_parse_LDADD = $(TEST_LIBS)
