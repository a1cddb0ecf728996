# calib/local.mk: calibration specs, evaluation of a parameter set by simulation, and
# the `ncsim calibrate` / `ncsim predict` drivers (doc/calibration.md).
libncsimcal_la_SOURCES += calib/param.c calib/spec.c calib/sysedit.c calib/eval.c calib/defaults.c
noinst_HEADERS += calib/spec.h calib/sysedit.h calib/eval.h

libncsimcal_la_SOURCES += calib/calibrate.c calib/report.c
noinst_HEADERS += calib/calibrate.h calib/report.h
# The commands sit in the binary itself: libncsimfe links before this library.
ncsim_SOURCES += compiler/cli/cmd_calibrate.c
check_PROGRAMS += tests/unit/test_calib_spec
TESTS += tests/unit/test_calib_spec
