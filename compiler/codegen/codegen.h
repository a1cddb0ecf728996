/*
 * codegen.h - AST -> one C file (prefix cg_).
 *
 * The generated file includes <ncsim/gen.h> (the helpers of generated code,
 * which includes <ncsim/rt.h> and <ncsim/stdlib.h>), defines the program's
 * entry function (run once per simulated task), the program descriptor, and
 * through NCSIM_SKELETON `const rt_program *ncsim_skeleton(void)` for the
 * build cache and a `main` calling rt_main, so the same file also builds
 * standalone:
 *
 *     cc prog.c $(pkg-config --cflags --libs ncsim)
 *
 * doc/codegen.md describes how each statement maps to C.
 */
#ifndef NCSIM_CODEGEN_H
#define NCSIM_CODEGEN_H

#include <stdio.h>

#include "lang/ast.h"
#include "lang/frontend.h"

typedef struct cg_opts {
	const char *name;        /* program name (descriptor, messages); NULL: from the source file name */
	const char *c_name;      /* the C file's name, for #line back into it; NULL: "<program>.c" (ncsim compile's default) */
	int allow_backend_code;  /* paste BACKEND EXECUTES / DECLARES text verbatim instead of filtering it */
} cg_opts;

/*
 * Writes the C translation of `prog` (a complete AST of fe without errors) to
 * out. Errors (refused backend code, unsupported statements, bad parameter
 * defaults) are reported through fe's diagnostics with their spans; returns
 * the number of errors, and out must then be discarded.
 */
int cg_emit(fe_ctx *fe, const ast_node *prog, const cg_opts *o, FILE *out);

/*
 * Front end + code generation of the file `path` into a heap string *csrc
 * (diagnostics on diag). Returns 0, 1 (errors in the program: *csrc is NULL)
 * or 2 (the file cannot be read) -- the statuses of base/exitcode.h.
 */
int cg_compile_file(const char *path, const cg_opts *o, FILE *diag, char **csrc, size_t *len);

/*
 * The same for program text held in memory; `name` is the file name that
 * diagnostics, #line directives and relative traffic files refer to.
 */
int cg_compile_text(const char *name, const char *text, const cg_opts *o, FILE *diag, char **csrc, size_t *len);

/*
 * The program `ncsim run trace.vef` runs (heap): every task replays the
 * trace, named by its base name, so that compiled as cg_compile_text(trace,
 * ...) it resolves to the trace itself.
 */
char *cg_vef_program(const char *trace);

/*
 * A hand-written C skeleton (`ncsim run skeleton.c`, include/ncsim/rt.h
 * NCSIM_SKELETON) as input for the build cache: the file's text behind a
 * #line directive naming it, in a heap string *csrc. The skeleton must be one
 * self-contained file (it may include ncsim's and system headers). Returns
 * the statuses of cg_compile_file.
 */
int cg_skeleton_file(const char *path, FILE *diag, char **csrc, size_t *len);

/* The program name derived from a source path: its base name without the extension (heap). */
char *cg_program_name(const char *path);

#endif
