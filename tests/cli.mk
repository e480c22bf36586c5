# cli tests: the command's own conventions (--help, --version, man page coverage).
check_PROGRAMS += tests/test_cli
TESTS += tests/test_cli
tests_test_cli_SOURCES = tests/test_cli.c tests/testutil.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
# stiction sweep: sets, metrics, thread-count independence (tests/test_sweep.c).
check_PROGRAMS += tests/test_sweep
TESTS += tests/test_sweep
tests_test_sweep_SOURCES = tests/test_sweep.c src/cli/sweep.c tests/testutil.h
tests_test_sweep_CFLAGS = $(TEST_CFLAGS)
tests_test_sweep_LDADD = $(TEST_LIBS)
