# built-in demo models (src/demos) and `stiction demo`, against the benchmark reference numbers.
check_PROGRAMS += tests/test_demos
TESTS += tests/test_demos
tests_test_demos_SOURCES = tests/test_demos.c
tests_test_demos_CFLAGS = $(TEST_CFLAGS)
tests_test_demos_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_demos_sim
TESTS += tests/test_demos_sim
tests_test_demos_sim_SOURCES = tests/test_demos_sim.c
tests_test_demos_sim_CFLAGS = $(TEST_CFLAGS)
tests_test_demos_sim_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_demos_cli
TESTS += tests/test_demos_cli
tests_test_demos_cli_SOURCES = tests/test_demos_cli.c tests/testutil.h
tests_test_demos_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_demos_cli_LDADD = $(TEST_LIBS)
