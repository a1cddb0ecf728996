# engine/ffi.mk: BACKEND EXECUTES and --plugin in the direct engine, through
# libffi (engine/backend.h): the C declaration parser, C arithmetic on typed
# values, argument expressions, plugins, and the prototype table of
# include/ncsim's headers, generated at build time by engine/gen_protos.
ENGINE_FFI_SOURCES = engine/backend.c engine/cdecl.c engine/ffi_value.c engine/ffi_expr.c engine/plugin.c
noinst_HEADERS += engine/cdecl.h engine/ffi_value.h engine/ffi_expr.h engine/ffi_protos.h engine/plugin.h

# The table: every prototype, macro constant and typedef of these headers that
# engine/cdecl.c can read (the generated file lists what it skipped and why).
ENGINE_PROTO_INPUTS = $(srcdir)/include/ncsim/rt.h $(srcdir)/include/ncsim/union.h
noinst_PROGRAMS += engine/gen_protos
engine_gen_protos_SOURCES = engine/gen_protos.c engine/cdecl.c engine/ffi_value.c
engine_gen_protos_LDADD = libncsim.la -lm
nodist_libncsimfe_la_SOURCES += engine/protos.c
BUILT_SOURCES += engine/protos.c
CLEANFILES += engine/protos.c
engine/protos.c: engine/gen_protos$(EXEEXT) $(ENGINE_PROTO_INPUTS)
	$(AM_V_GEN)$(MKDIR_P) engine && ./engine/gen_protos$(EXEEXT) $@ $(ENGINE_PROTO_INPUTS)

check_PROGRAMS += tests/unit/test_cdecl tests/unit/test_backend_ffi
TESTS += tests/unit/test_cdecl tests/unit/test_backend_ffi
# The probe library test_backend_ffi calls through --plugin: the same source
# built as a module with NCSIM_FFI_PROBE (functions that record their arguments).
check_LTLIBRARIES += tests/unit/ffi_probe.la
tests_unit_ffi_probe_la_SOURCES = tests/unit/test_backend_ffi.c
tests_unit_ffi_probe_la_CPPFLAGS = $(AM_CPPFLAGS) -DNCSIM_FFI_PROBE
tests_unit_ffi_probe_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/tests/unit
tests_unit_ffi_probe_la_LIBADD =

# examples/plugin: a user's plugin, built for tests/e2e/backend_ffi.sh.
check_LTLIBRARIES += examples/plugin/compute_model.la
examples_plugin_compute_model_la_SOURCES = examples/plugin/compute_model.c examples/plugin/compute_model.h
examples_plugin_compute_model_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/examples/plugin
examples_plugin_compute_model_la_LIBADD =
TESTS += tests/e2e/backend_ffi.sh
EXTRA_DIST += tests/e2e/backend_ffi.sh
