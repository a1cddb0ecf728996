# calib/bayes_tests.mk: tests of `ncsim calibrate --bayes` that can fail.

# The surrogate on figures whose answer is known: exact polynomials (held-out
# error 0, the true degree), exp(linear) on the log scale, signs, the box, too few runs.
check_PROGRAMS += tests/unit/test_calib_surrogate
TESTS += tests/unit/test_calib_surrogate

# design.csv read back (every set, the coordinates of its values, every error
# at its line) and the [bayes] section (defaults, every key, every error).
check_PROGRAMS += tests/unit/test_calib_bayes_io
TESTS += tests/unit/test_calib_bayes_io

# The command: a small calibration (outputs, row count, determinism with -j and
# --design, map.conf) and its errors (exit status, message, no folder left).
TESTS += tests/calib/bayes_errors.sh
EXTRA_DIST += tests/calib/bayes_errors.sh
