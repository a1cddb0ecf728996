# tests/calib/: end-to-end tests of ncsim calibrate and ncsim predict (doc/calibration.md).
# Each builds its measurements with ncsim from a hidden system, so the answer is known.
CALIB_TESTS = tests/calib/errors.sh tests/calib/predict.sh tests/calib/regimes.sh tests/calib/levels.sh \
	tests/calib/example.sh tests/calib/synthetic.sh tests/calib/bayes_coverage.sh \
	tests/calib/example_bayes.sh
TESTS += $(CALIB_TESTS)
EXTRA_DIST += $(CALIB_TESTS) tests/calib/lib.sh tests/calib/problem.sh tests/calib/noise.awk tests/calib/throughput.ncptl tests/calib/twonode.sh
