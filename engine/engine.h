/*
 * engine.h - the direct engine (prefix eng_): runs a checked coNCePTuaL
 * program by walking its syntax tree, without generating or compiling C.
 *
 * The program is parsed and checked as for `ncsim compile`, then resolved
 * once (names to frame slots, built-ins to function pointers, folded
 * constants to literals) into a tree of closures. The rt_program it gives
 * has an entry function that evaluates that tree inside each task's
 * coroutine and makes the same calls of ncsim/rt.h, in the same order and
 * with the same values, as the C that compiler/codegen writes for the same
 * program: the runtime cannot tell the two engines apart.
 *
 *   eng_prog *p;
 *   if (eng_load_file(path, &opts, stderr, &p) == EXIT_OK) {
 *       ... drv_add_job(.prog = eng_program(p)) ... run ...
 *       eng_free(p);
 *   }
 */
#ifndef NCSIM_ENGINE_H
#define NCSIM_ENGINE_H

#include <stdio.h>

#include "engine/backend.h"
#include "ncsim/rt.h"

typedef struct eng_opts {
	const char *name;           /* program name (descriptor, messages); NULL: from the file name */
	int allow_backend_code;     /* --allow-backend-code: BACKEND EXECUTES may call any prepared function */
	const eng_plugins *plugins; /* --plugin libraries (NULL: none) */
} eng_opts;

typedef struct eng_prog eng_prog; /* a loaded program: its AST, the resolved tree, the descriptor */

/*
 * Parses, checks and resolves the .ncptl file `path`; diagnostics go to
 * diag. Returns the statuses of cg_compile_file (base/exitcode.h): EXIT_OK
 * with *out, EXIT_INPUT for errors in the program (reported with their
 * positions), EXIT_USAGE if the file cannot be read.
 */
int eng_load_file(const char *path, const eng_opts *o, FILE *diag, eng_prog **out);
/* The same for program text in memory; `name` is the file name messages and relative paths refer to. */
int eng_load_text(const char *name, const char *text, const eng_opts *o, FILE *diag, eng_prog **out);
/* The program's descriptor: valid until eng_free; its entry runs one task. */
const rt_program *eng_program(const eng_prog *p);
/* Frees a loaded program (NULL is a no-op); no task of it may still run. */
void eng_free(eng_prog *p);

/* Which engine `ncsim run` uses for .ncptl programs. */
enum eng_kind { ENG_COMPILED, ENG_DIRECT };
/* The engine named s ("direct" or "compiled"), or -1: the parser of --engine. */
int eng_kind_parse(const char *s);

#endif
