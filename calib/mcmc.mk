# calib/mcmc.mk: the posterior sampler and its convergence diagnostics.
libncsimcal_la_SOURCES += calib/mcmc.c calib/diag.c
noinst_HEADERS += calib/mcmc.h
check_PROGRAMS += tests/unit/test_calib_mcmc
TESTS += tests/unit/test_calib_mcmc
