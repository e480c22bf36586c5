# friction tests: friction-law library.
check_PROGRAMS += tests/test_friction
TESTS += tests/test_friction
tests_test_friction_SOURCES = tests/test_friction.c tests/testutil.h
tests_test_friction_CFLAGS = $(TEST_CFLAGS)
tests_test_friction_LDADD = $(TEST_LIBS)
# friction laws inside CVODE against the benchmark reference numbers
check_PROGRAMS += tests/test_friction_ode
TESTS += tests/test_friction_ode
tests_test_friction_ode_SOURCES = tests/test_friction_ode.c
tests_test_friction_ode_CFLAGS = $(TEST_CFLAGS)
tests_test_friction_ode_LDADD = $(TEST_LIBS)
