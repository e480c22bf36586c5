# The public Modelica API (include/stiction/modelica.h): programs, instances in threads,
# stepping with inputs, diagnostics.
check_PROGRAMS += tests/test_embed
tests_test_embed_SOURCES = tests/test_embed.c tests/testutil.h
tests_test_embed_CFLAGS = $(TEST_CFLAGS) -pthread
tests_test_embed_LDADD = $(TEST_LIBS) -lpthread

# The README's embedding example: only <stiction/stiction.h>, linked against the installed
# library (which exports only stiction_ symbols); built with the command, test_embed runs it.
noinst_PROGRAMS += tests/embed_example
tests_embed_example_SOURCES = tests/embed_example.c
tests_embed_example_CFLAGS = $(AM_CFLAGS) -pthread
tests_embed_example_LDADD = libstiction.la -lpthread -lm
