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

