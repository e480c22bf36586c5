# models/Stiction: the regularized and LuGre friction elements flatten, simulate and obey the laws.
check_PROGRAMS += tests/test_stiction_lib
TESTS += tests/test_stiction_lib
tests_test_stiction_lib_SOURCES = tests/test_stiction_lib.c tests/testutil.h
tests_test_stiction_lib_CFLAGS = $(TEST_CFLAGS)
tests_test_stiction_lib_LDADD = $(TEST_LIBS)
