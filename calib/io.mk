# calib/io.mk: measurement readers (OSU text, coNCePTuaL logs, CSV) and the losses.
libncsimcal_la_SOURCES += calib/measure.c calib/loss.c
noinst_HEADERS += calib/measure.h calib/loss.h

# The readers (each format, trials, malformed files) and every loss, by hand-computed values.
check_PROGRAMS += tests/unit/test_calib_measure tests/unit/test_calib_loss
TESTS += tests/unit/test_calib_measure tests/unit/test_calib_loss
