# compile tests: the equation compiler on hand-built flat models (callbacks called directly),
# and whole simulations of compiled models through the runtime.
check_PROGRAMS += tests/test_compile
TESTS += tests/test_compile
tests_test_compile_SOURCES = tests/test_compile.c tests/test_compile_builder.h
tests_test_compile_CFLAGS = $(TEST_CFLAGS)
tests_test_compile_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_compile_sim
TESTS += tests/test_compile_sim
tests_test_compile_sim_SOURCES = tests/test_compile_sim.c tests/test_compile_builder.h
tests_test_compile_sim_CFLAGS = $(TEST_CFLAGS)
tests_test_compile_sim_LDADD = $(TEST_LIBS)

check_PROGRAMS += tests/test_compile_cli
TESTS += tests/test_compile_cli
tests_test_compile_cli_SOURCES = tests/test_compile_cli.c
tests_test_compile_cli_CFLAGS = $(TEST_CFLAGS)
tests_test_compile_cli_LDADD = $(TEST_LIBS)

# user functions called from equations (OP_CALL): closed forms and an MSL example
check_PROGRAMS += tests/test_compile_functions
TESTS += tests/test_compile_functions
tests_test_compile_functions_SOURCES = tests/test_compile_functions.c
tests_test_compile_functions_CFLAGS = $(TEST_CFLAGS)
tests_test_compile_functions_LDADD = $(TEST_LIBS)

# language features (terminal(), algorithm sections, tuple equations, delay): closed forms
check_PROGRAMS += tests/test_lang
TESTS += tests/test_lang
tests_test_lang_SOURCES = tests/test_lang.c tests/simtable.h
tests_test_lang_CFLAGS = $(TEST_CFLAGS)
tests_test_lang_LDADD = $(TEST_LIBS)

# alias elimination (src/compile/alias.c): counts, signs, start attributes, results
check_PROGRAMS += tests/test_alias
TESTS += tests/test_alias
tests_test_alias_SOURCES = tests/test_alias.c tests/test_compile_builder.h
tests_test_alias_CFLAGS = $(TEST_CFLAGS)
tests_test_alias_LDADD = $(TEST_LIBS)

# Stiction.Examples.BurridgeKnopoff through the command (arrays of stick-slip elements)
check_PROGRAMS += tests/test_burridge
TESTS += tests/test_burridge
tests_test_burridge_SOURCES = tests/test_burridge.c
tests_test_burridge_CFLAGS = $(TEST_CFLAGS)
tests_test_burridge_LDADD = $(TEST_LIBS)

# the df/dy pattern of compiled models against difference quotients
check_PROGRAMS += tests/test_pattern
TESTS += tests/test_pattern
tests_test_pattern_SOURCES = tests/test_pattern.c
tests_test_pattern_CFLAGS = $(TEST_CFLAGS)
tests_test_pattern_LDADD = $(TEST_LIBS)

# programs specialized between events and tapes against the programs as compiled
check_PROGRAMS += tests/test_specialize
TESTS += tests/test_specialize
tests_test_specialize_SOURCES = tests/test_specialize.c
tests_test_specialize_CFLAGS = $(TEST_CFLAGS)
tests_test_specialize_LDADD = $(TEST_LIBS)

# run-time failures: NaN/Inf and Newton failures located at the equation, rows kept, no file
# when no row was computed
check_PROGRAMS += tests/test_runerrors
TESTS += tests/test_runerrors
tests_test_runerrors_SOURCES = tests/test_runerrors.c
tests_test_runerrors_CFLAGS = $(TEST_CFLAGS)
tests_test_runerrors_LDADD = $(TEST_LIBS)

# the function compiler (fcompile.c, fvm.c) against the tree walker (front/feval.c)
check_PROGRAMS += tests/test_fcompile
TESTS += tests/test_fcompile
tests_test_fcompile_SOURCES = tests/test_fcompile.c
tests_test_fcompile_CFLAGS = $(TEST_CFLAGS)
tests_test_fcompile_LDADD = $(TEST_LIBS)

# external functions stiction provides (src/compile/external.c): table, binding, errors
check_PROGRAMS += tests/test_external
TESTS += tests/test_external
tests_test_external_SOURCES = tests/test_external.c
tests_test_external_CFLAGS = $(TEST_CFLAGS)
tests_test_external_LDADD = $(TEST_LIBS)

# functions, expressions and equations the genuine MSL needs (issue 15): closed forms
check_PROGRAMS += tests/test_lang_func
TESTS += tests/test_lang_func
tests_test_lang_func_SOURCES = tests/test_lang_func.c tests/simtable.h
tests_test_lang_func_CFLAGS = $(TEST_CFLAGS)
tests_test_lang_func_LDADD = $(TEST_LIBS)
