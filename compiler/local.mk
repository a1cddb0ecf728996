# compiler/: the `ncsim` CLI and its subcommands, code generation, build cache.
noinst_HEADERS += compiler/build.h compiler/cli/commands.h
libncsimfe_la_SOURCES += compiler/build.c
noinst_HEADERS += compiler/backend_filter.h
libncsimfe_la_SOURCES += compiler/backend_filter.c

check_PROGRAMS += tests/unit/test_backend_filter
TESTS += tests/unit/test_backend_filter
