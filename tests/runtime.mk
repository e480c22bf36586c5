# runtime tests: the simulation handle (CVODE/IDA, events, statistics) through the public API.
check_PROGRAMS += tests/test_runtime
check_PROGRAMS += tests/test_runtime_events
check_PROGRAMS += tests/test_runtime_failures

# the runtime's SUNDIALS kernels against the library's (bit for bit)
check_PROGRAMS += tests/test_kernels
