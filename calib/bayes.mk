# calib/bayes.mk: Bayesian calibration: priors, designs, the polynomial-chaos
# surrogate, Sobol indices and the driver of `ncsim calibrate --bayes`.
libncsimcal_la_SOURCES += calib/bayes_cfg.c calib/prior.c calib/design.c calib/pce.c
noinst_HEADERS += calib/bayes_cfg.h calib/design.h calib/pce.h

# The Legendre basis, exact recovery of a polynomial, the Sobol indices of the
# Ishigami function against their closed form, Latin hypercubes, priors.
check_PROGRAMS += tests/unit/test_calib_pce
TESTS += tests/unit/test_calib_pce

# The driver of `ncsim calibrate --bayes`: design runs, surrogate, sampling, report.
libncsimcal_la_SOURCES += calib/surrogate.c calib/bayes.c calib/bayes_stats.c calib/bayes_io.c calib/bayes_report.c calib/bayes_design.c
noinst_HEADERS += calib/surrogate.h calib/bayes.h calib/bayes_stats.h calib/bayes_io.h
