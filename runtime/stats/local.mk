# runtime/stats/local.mk: file lists of this module (see Makefile.am).

# Output writers: atomic files, JSON, CSV; coNCePTuaL logs and their aggregates.
noinst_HEADERS += runtime/stats/outfile.h runtime/stats/json.h runtime/stats/csv.h \
	runtime/stats/aggregate.h runtime/stats/ncptl_log.h
libncsim_la_SOURCES += runtime/stats/outfile.c runtime/stats/json.c runtime/stats/csv.c \
	runtime/stats/aggregate.c runtime/stats/ncptl_log.c

check_PROGRAMS += tests/unit/test_sysconf tests/unit/test_outfile \
	tests/unit/test_aggregate tests/unit/test_ncptl_log
TESTS += tests/unit/test_sysconf tests/unit/test_outfile \
	tests/unit/test_aggregate tests/unit/test_ncptl_log

