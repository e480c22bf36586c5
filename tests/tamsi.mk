# TAMSI tests: limiter cases, solver scenarios of Drake's own tests (doc/tamsi.md, Tests), CLI and box demo.
check_PROGRAMS += tests/test_tamsi_limiter tests/test_tamsi_solver
TESTS += tests/test_tamsi_limiter tests/test_tamsi_solver
tests_test_tamsi_limiter_SOURCES = tests/test_tamsi_limiter.c
tests_test_tamsi_limiter_CFLAGS = $(TEST_CFLAGS)
tests_test_tamsi_limiter_LDADD = $(TEST_LIBS)
tests_test_tamsi_solver_SOURCES = tests/test_tamsi_solver.c
tests_test_tamsi_solver_CFLAGS = $(TEST_CFLAGS)
tests_test_tamsi_solver_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/test_tamsi_box tests/test_tamsi_cli
TESTS += tests/test_tamsi_box tests/test_tamsi_cli
tests_test_tamsi_box_SOURCES = tests/test_tamsi_box.c
tests_test_tamsi_box_CFLAGS = $(TEST_CFLAGS)
tests_test_tamsi_box_LDADD = $(TEST_LIBS)
tests_test_tamsi_cli_SOURCES = tests/test_tamsi_cli.c tests/testutil.h
tests_test_tamsi_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_tamsi_cli_LDADD = $(TEST_LIBS)
