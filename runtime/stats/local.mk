# runtime/stats/local.mk: file lists of this module (see Makefile.am).

# Output writers: atomic files, JSON, CSV; coNCePTuaL logs and their aggregates.
noinst_HEADERS += runtime/stats/outfile.h runtime/stats/json.h runtime/stats/csv.h \
	runtime/stats/aggregate.h runtime/stats/ncptl_log.h
libncsim_la_SOURCES += runtime/stats/outfile.c runtime/stats/json.c runtime/stats/csv.c \
	runtime/stats/aggregate.c runtime/stats/ncptl_log.c

noinst_HEADERS += tests/unit/file_test.h
check_PROGRAMS += tests/unit/test_sysconf tests/unit/test_outfile \
	tests/unit/test_aggregate tests/unit/test_ncptl_log
TESTS += tests/unit/test_sysconf tests/unit/test_outfile \
	tests/unit/test_aggregate tests/unit/test_ncptl_log

tests_unit_test_sysconf_SOURCES = tests/unit/test_sysconf.c
tests_unit_test_sysconf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sysconf_LDADD = $(UNIT_LINK)
tests_unit_test_sysconf_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_outfile_SOURCES = tests/unit/test_outfile.c
tests_unit_test_outfile_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_outfile_LDADD = $(UNIT_LINK)
tests_unit_test_outfile_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_aggregate_SOURCES = tests/unit/test_aggregate.c
tests_unit_test_aggregate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_aggregate_LDADD = $(UNIT_LINK)
tests_unit_test_aggregate_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_ncptl_log_SOURCES = tests/unit/test_ncptl_log.c
tests_unit_test_ncptl_log_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ncptl_log_LDADD = $(UNIT_LINK)
tests_unit_test_ncptl_log_LDFLAGS = $(UNIT_LINKFLAGS)
