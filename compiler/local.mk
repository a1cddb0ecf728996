# compiler/: the `ncsim` CLI and its subcommands, code generation, build cache.
noinst_HEADERS += compiler/exitcode.h
