# The public Modelica API (include/stiction/modelica.h): programs, instances in threads,
# stepping with inputs, diagnostics.
check_PROGRAMS += tests/test_embed
TESTS += tests/test_embed
tests_test_embed_SOURCES = tests/test_embed.c tests/testutil.h
tests_test_embed_CFLAGS = $(TEST_CFLAGS) -pthread
tests_test_embed_LDADD = $(TEST_LIBS) -lpthread
