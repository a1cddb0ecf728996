# runtime/storage/local.mk: file lists of this module (see Makefile.am)
noinst_HEADERS += runtime/storage/ssd.h runtime/storage/hdd.h runtime/storage/lsm.h runtime/storage/device.h \
	runtime/storage/busylog.h runtime/storage/storage.h runtime/storage/storage_int.h
libncsim_la_SOURCES += runtime/storage/ssd.c runtime/storage/hdd.c runtime/storage/lsm.c runtime/storage/device.c \
	runtime/storage/busylog.c runtime/storage/config.c runtime/storage/storage.c runtime/storage/sto_par.c

# The device presets are compiled in: stdlib/systems/storage-presets.conf
# becomes a C string literal that device.c includes.
EXTRA_DIST += stdlib/systems/storage-presets.conf
BUILT_SOURCES += runtime/storage/presets.inc
CLEANFILES += runtime/storage/presets.inc
# (also named here so that building one target, not `all`, makes it first)
$(libncsim_la_OBJECTS): runtime/storage/presets.inc
runtime/storage/presets.inc: $(srcdir)/stdlib/systems/storage-presets.conf
	$(AM_V_GEN)$(MKDIR_P) runtime/storage && \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
	    $(srcdir)/stdlib/systems/storage-presets.conf > $@.tmp && mv $@.tmp $@

# The storage tests need only the runtime library, not the front end.
STO_UNIT_LINK = tests/unit/libunit.la libncsim.la $(CUNIT_LIBS) -lm
check_PROGRAMS += tests/unit/test_ssd tests/unit/test_hdd tests/unit/test_storage_mgr tests/unit/test_storage_lsm
TESTS += tests/unit/test_ssd tests/unit/test_hdd tests/unit/test_storage_mgr tests/unit/test_storage_lsm
tests_unit_test_ssd_LDADD = $(STO_UNIT_LINK)
tests_unit_test_hdd_LDADD = $(STO_UNIT_LINK)
tests_unit_test_storage_mgr_LDADD = $(STO_UNIT_LINK)
tests_unit_test_storage_lsm_LDADD = $(STO_UNIT_LINK)

# Device-level validation against published measurements (bench/storage.sh).
noinst_PROGRAMS += bench/storage_bench
bench_storage_bench_SOURCES = bench/storage_bench.c
bench_storage_bench_LDADD = libncsim.la -lm
bench_storage_bench_LDFLAGS = $(AM_LDFLAGS) -no-install
