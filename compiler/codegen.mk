# compiler/codegen.mk: AST -> C code generation, ncsim compile and ncsim run.
noinst_HEADERS += compiler/codegen.h compiler/codegen_c.h
libncsimfe_la_SOURCES += compiler/codegen_c.c compiler/codegen_c_expr.c compiler/codegen_c_tasks.c \
	compiler/codegen_c_comm.c compiler/codegen_c_loops.c compiler/codegen_c_misc.c compiler/codegen_file.c \
	compiler/cmd_compile.c compiler/cmd_run.c
