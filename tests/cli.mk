# cli tests: the command's own conventions (--help, --version, man page coverage).
check_PROGRAMS += tests/test_cli
TESTS += tests/test_cli
tests_test_cli_SOURCES = tests/test_cli.c tests/testutil.h
tests_test_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_cli_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_heap
TESTS += tests/test_heap
tests_test_heap_SOURCES = tests/test_heap.c src/cli/heap.c src/cli/commands.h
tests_test_heap_CFLAGS = $(TEST_CFLAGS)
tests_test_heap_LDADD = $(TEST_LIBS)
