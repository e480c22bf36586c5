# cli tests: the command's own conventions (--help, --version, man page coverage).
check_PROGRAMS += tests/test_cli
# stiction sweep: sets, metrics, thread-count independence (tests/test_sweep.c).
check_PROGRAMS += tests/test_sweep
tests_test_sweep_SOURCES = tests/test_sweep.c src/cli/sweep.c
