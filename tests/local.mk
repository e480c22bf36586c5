# Check test programs. Each module has its own fragment; tests/testutil.h has shared helpers.
# Every check program is a test, compiled with Check's flags and linked with the internal
# library (programs with their own _CFLAGS/_LDADD, the command and the benches, keep theirs).
TESTS += $(check_PROGRAMS)
LDADD = $(TEST_LIBS)
AM_CFLAGS += $(CHECK_CFLAGS)
# A test's source is tests/test_NAME.c (automake's default); the headers the tests share:
EXTRA_DIST += tests/testutil.h tests/runtime_util.h tests/test_compile_builder.h tests/simtable.h \
	tests/flatutil.h
check_PROGRAMS += tests/test_util

check_PROGRAMS += tests/test_flat

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
include tests/embed.mk
include tests/fmi.mk
