# leine-belt-smooth and `stiction study` (issue 6): benchmark periods and the CLI table.
check_PROGRAMS += tests/test_study
TESTS += tests/test_study
tests_test_study_SOURCES = tests/test_study.c tests/testutil.h
tests_test_study_CFLAGS = $(TEST_CFLAGS)
tests_test_study_LDADD = $(TEST_LIBS)
