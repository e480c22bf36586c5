# cli tests: the command's own conventions (--help, --version, man page coverage).
check_PROGRAMS += tests/test_cli
