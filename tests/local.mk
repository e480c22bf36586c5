# Check test programs. Each module has its own fragment; tests/testutil.h has shared helpers.
check_PROGRAMS += tests/test_util
TESTS += tests/test_util
tests_test_util_SOURCES = tests/test_util.c tests/testutil.h
tests_test_util_CFLAGS = $(TEST_CFLAGS)
tests_test_util_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_flat
TESTS += tests/test_flat
tests_test_flat_SOURCES = tests/test_flat.c
tests_test_flat_CFLAGS = $(TEST_CFLAGS)
tests_test_flat_LDADD = $(TEST_LIBS)

include tests/runtime.mk
include tests/front.mk
include tests/flatten.mk
include tests/demos.mk
include tests/library.mk
include tests/compile.mk
include tests/io.mk
include tests/friction.mk
include tests/bam.mk
include tests/cli.mk
include tests/tamsi.mk
include tests/study.mk
include tests/stiction_lib.mk
include tests/robust.mk
