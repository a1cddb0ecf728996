# lang/: source files and spans, diagnostics, the AST and its printer, and the
# front-end driver (text -> AST).  Semantic analysis adds its files below.
libncsimfe_la_SOURCES += lang/source.c lang/diag.c lang/ast.c lang/ast_print.c lang/frontend.c
noinst_HEADERS += lang/source.h lang/diag.h lang/ast.h lang/ast_print.h lang/frontend.h
# The operator table that constant folding and code generation share.
libncsimfe_la_SOURCES += lang/ops.c
noinst_HEADERS += lang/ops.h
# `ncsim check` lives with the front end it drives (compiler/local.mk is the
# lead's); it links into libncsimfe like every subcommand.
libncsimfe_la_SOURCES += compiler/cli/cmd_check.c
