# front-end tests, second half: loading, lookup, modifiers, connect, flattening.
check_PROGRAMS += tests/test_flatten
# the language features the genuine Modelica Standard Library needs (front end)
check_PROGRAMS += tests/test_frontlang
# the language features of the electrical libraries: connected parameters, record bindings,
# operator records
check_PROGRAMS += tests/test_langops
# the language features of the fluid and media libraries: parameters decided by Evaluate
# conditions, functional input arguments
check_PROGRAMS += tests/test_langfluid
