# BAM tests: conformance with BAM's reference simulator, and identification (bam fit).
check_PROGRAMS += tests/test_bam tests/test_bam_fit
