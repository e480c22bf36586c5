# front-end tests, second half: loading, lookup, modifiers, connect, flattening.
check_PROGRAMS += tests/test_flatten
