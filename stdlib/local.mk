# stdlib/: coNCePTuaL built-in functions and expression semantics (ncsim/stdlib.h),
# shared by the runtime (libncsim) and the compiler's constant folding, plus the
# compiler's table of built-ins (lang/builtins.c, in libncsimfe).
ncsiminclude_HEADERS += include/ncsim/stdlib.h
libncsim_la_SOURCES += stdlib/arith.c stdlib/numeric.c stdlib/tree.c stdlib/knomial.c \
	stdlib/mesh.c stdlib/random.c stdlib/filedata.c stdlib/range.c stdlib/taghash.c
noinst_HEADERS += lang/builtins.h
libncsimfe_la_SOURCES += lang/builtins.c

STDLIB_TESTS = tests/unit/test_stdlib_arith tests/unit/test_stdlib_numeric \
	tests/unit/test_stdlib_topo tests/unit/test_stdlib_random tests/unit/test_stdlib_filedata \
	tests/unit/test_stdlib_range tests/unit/test_stdlib_builtins
check_PROGRAMS += $(STDLIB_TESTS)
TESTS += $(STDLIB_TESTS)
noinst_HEADERS += tests/unit/stdlib_test.h

tests_unit_test_stdlib_arith_SOURCES = tests/unit/test_stdlib_arith.c
tests_unit_test_stdlib_arith_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_arith_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_arith_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_numeric_SOURCES = tests/unit/test_stdlib_numeric.c
tests_unit_test_stdlib_numeric_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_numeric_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_numeric_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_topo_SOURCES = tests/unit/test_stdlib_topo.c
tests_unit_test_stdlib_topo_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_topo_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_topo_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_random_SOURCES = tests/unit/test_stdlib_random.c
tests_unit_test_stdlib_random_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_random_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_random_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_filedata_SOURCES = tests/unit/test_stdlib_filedata.c
tests_unit_test_stdlib_filedata_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_filedata_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_filedata_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_range_SOURCES = tests/unit/test_stdlib_range.c
tests_unit_test_stdlib_range_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_range_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_range_LDFLAGS = $(UNIT_LINKFLAGS)

tests_unit_test_stdlib_builtins_SOURCES = tests/unit/test_stdlib_builtins.c
tests_unit_test_stdlib_builtins_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_stdlib_builtins_LDADD = $(UNIT_LINK)
tests_unit_test_stdlib_builtins_LDFLAGS = $(UNIT_LINKFLAGS)
