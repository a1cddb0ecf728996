# base/local.mk: the base module beneath everything else: allocation, arenas,
# vectors and whole-file reads (util), units of time, size and bandwidth, the
# system-file reader (sysconf), the exit codes, the physical defaults and a
# log-linear histogram for quantiles (hist). It
# includes nothing of ncsim's other modules (tests/arch-deps.sh checks it).
noinst_HEADERS += base/util.h base/units.h base/sysconf.h base/exitcode.h base/defaults.h base/memlimit.h base/hist.h
libncsim_la_SOURCES += base/util.c base/units.c base/sysconf.c base/memlimit.c base/hist.c
noinst_HEADERS += base/checked.h

# Checked arithmetic and the reader limits.
check_PROGRAMS += tests/unit/test_base
TESTS += tests/unit/test_base
