# compiler/codegen/local.mk: AST -> C code generation, ncsim compile and ncsim run.
noinst_HEADERS += compiler/codegen/codegen.h compiler/codegen/codegen_c.h
# The helpers every generated file includes: installed beside ncsim/rt.h, so
# the build cache and standalone builds find it on the same include path.
ncsiminclude_HEADERS += include/ncsim/gen.h
libncsimfe_la_SOURCES += compiler/codegen/codegen_c.c compiler/codegen/codegen_c_out.c compiler/codegen/codegen_c_expr.c compiler/codegen/codegen_c_tasks.c \
	compiler/codegen/codegen_c_comm.c compiler/codegen/codegen_c_loops.c compiler/codegen/codegen_c_misc.c compiler/codegen/codegen_c_traffic.c compiler/codegen/codegen_file.c \
	compiler/cli/cmd_compile.c compiler/cli/cmd_run.c

# End-to-end tests (tests/e2e/run-e2e.sh: our own programs with hand-derived
# figures; run-options.sh: options and outputs of `ncsim run`, C skeletons;
# corpus-cc.sh: generated C of our programs and of the corpus compiles
# warning-free; corpus-run.sh: the coNCePTuaL corpus named by NCPTL_CORPUS,
# skipped without it).
TESTS += tests/e2e/run-e2e.sh tests/e2e/run-options.sh tests/e2e/corpus-cc.sh tests/e2e/corpus-run.sh
EXTRA_DIST += tests/e2e/progs tests/e2e/e2e-system.conf tests/e2e/corpus-args.txt

# rt_track: an abandoned task releases what its locals hold; generated C tracks them.
check_PROGRAMS += tests/unit/test_track
TESTS += tests/unit/test_track
