# engine/: the direct engine, which runs a checked program by walking its
# syntax tree inside the same coroutine runtime (doc/engines.md).
noinst_HEADERS += engine/engine.h engine/eng_int.h engine/backend.h
libncsimfe_la_SOURCES += engine/load.c engine/expr.c engine/ranges.c engine/tasks.c engine/stmt.c \
	engine/stmt_comm.c engine/stmt_misc.c engine/stmt_traffic.c

# backend (libffi) sources: BACKEND EXECUTES and --plugin through libffi
# (engine/backend.h); engine/ffi.mk lists them and builds their prototype table.
ENGINE_BACKEND_SOURCES = $(ENGINE_FFI_SOURCES)
include $(srcdir)/engine/ffi.mk
libncsimfe_la_SOURCES += $(ENGINE_BACKEND_SOURCES)

# Both engines on every e2e program, bundled workload and example (and the
# corpus with NCPTL_CORPUS): byte-identical outputs.
TESTS += tests/e2e/engines_same.sh
EXTRA_DIST += tests/e2e/engines_same.sh

# The evaluator's corner cases under both engines, against hand-computed values.
check_PROGRAMS += tests/unit/test_engine
TESTS += tests/unit/test_engine
