# calib/optim.mk: the optimizers (random, grid, TPE, NLopt) behind one interface.
libncsimcal_la_SOURCES += calib/optim.c calib/tpe.c calib/optim_nlopt.c
noinst_HEADERS += calib/optim.h
check_PROGRAMS += tests/unit/test_calib_optim
TESTS += tests/unit/test_calib_optim
