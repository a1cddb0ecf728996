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

# MPI ranks for `mpirun -np K ncsim calibrate` (calib/par.c): Open MPI when configure
# found it (--with-mpi), otherwise the same functions for a single rank.
libncsimcal_la_SOURCES += calib/par.c
noinst_HEADERS += calib/par.h
if WITH_MPI
libncsimcal_la_CFLAGS += $(MPI_CFLAGS)
libncsimcal_la_LIBADD += $(MPI_LIBS)
ncsim_LDADD += $(MPI_LIBS)
UNIT_LINK += $(MPI_LIBS)
endif
# The same calibration with 1, 2 and 3 ranks gives the same outputs (skipped without MPI).
TESTS += tests/calib/mpi.sh
EXTRA_DIST += tests/calib/mpi.sh tests/calib/lsan-mpi.supp
