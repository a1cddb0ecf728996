# calib/propagate.mk: `ncsim run --posterior`: a run per posterior draw, figures with intervals.
libncsimcal_la_SOURCES += calib/propagate.c calib/child.c
noinst_HEADERS += calib/propagate.h calib/child.h
# The command sits in the binary itself, as cmd_calibrate.c does.
ncsim_SOURCES += compiler/cli/cmd_run_posterior.c

# The reader of posterior.csv, the choice of draws, summary.json and the statistics, by hand-computed values.
check_PROGRAMS += tests/unit/test_calib_propagate
TESTS += tests/unit/test_calib_propagate
# Runs per draw: collapsed and spread intervals against plain runs, -j, the shares, the errors.
TESTS += tests/calib/posterior.sh
EXTRA_DIST += tests/calib/posterior.sh
