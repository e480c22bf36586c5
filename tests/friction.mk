# friction tests: friction-law library.
check_PROGRAMS += tests/test_friction
# friction laws inside CVODE against the benchmark reference numbers
check_PROGRAMS += tests/test_friction_ode
