# models/Stiction: the regularized and LuGre friction elements flatten, simulate and obey the laws.
check_PROGRAMS += tests/test_stiction_lib
