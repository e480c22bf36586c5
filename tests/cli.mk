# cli tests: the command's own conventions (--help, --version, man page coverage).
check_PROGRAMS += tests/test_cli
TESTS += tests/test_cli
tests_test_cli_SOURCES = tests/test_cli.c tests/testutil.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
