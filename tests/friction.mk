# friction tests: friction-law library and BAM conformance.
check_PROGRAMS += tests/test_friction tests/test_bam
# friction laws inside CVODE against the benchmark reference numbers
check_PROGRAMS += tests/test_friction_ode
