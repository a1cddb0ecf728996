/*
 * frontend.h - text to AST: the entry point of the ncsim front end.
 *
 * One fe_ctx is one compilation: it owns the arena that holds the AST, the
 * source files with their line maps, the identifier intern table and the
 * diagnostics counters.  Typical use:
 *
 *   fe_ctx *fe = fe_new(stderr);
 *   ast_node *prog;
 *   if (fe_parse_file(fe, path, &prog) < 0) -> I/O error (errno)
 *   if (fe_errors(fe) == 0) -> prog is a complete AST; run sema/codegen
 *   fe_free(fe);     (frees the AST too)
 *
 * After syntax errors the returned AST is partial (statements that failed
 * to parse are missing) and must not be compiled.
 */
#ifndef NCSIM_LANG_FRONTEND_H
#define NCSIM_LANG_FRONTEND_H

#include <stddef.h>
#include <stdio.h>

#include "lang/ast.h"
#include "lang/diag.h"
#include "lang/source.h"
#include "base/util.h"

typedef struct fe_ctx fe_ctx;

/*
 * The deepest nesting the front end accepts (doc/language.md 3.2), counted on
 * the AST right after parsing: statement levels (blocks, loops, LET, IF)
 * and, separately, expression levels below the innermost statement (every
 * operator, call, range or message part, and every pair of parentheses).
 * Deeper programs are an error, so no later pass (semantic analysis, the
 * AST printer, code generation) recurses deeper than this.
 */
#define FE_MAX_STMT_DEPTH 1000
#define FE_MAX_EXPR_DEPTH 1000

/* A new compilation reporting to diag_out (NULL: count diagnostics silently). */
fe_ctx *fe_new(FILE *diag_out);
/* Frees fe, its AST, sources and strings (NULL is a no-op). */
void fe_free(fe_ctx *fe);
/* Parses file `path`; returns 0 and sets *out (never NULL), or -1 with errno on I/O error. */
int fe_parse_file(fe_ctx *fe, const char *path, ast_node **out);
/* Parses text[0..len) named `name` in messages; returns the (maybe partial) program. */
ast_node *fe_parse_string(fe_ctx *fe, const char *name, const char *text, size_t len);
/* Errors reported so far (lexer, parser and any later pass using fe_diag). */
unsigned fe_errors(const fe_ctx *fe);
/* Warnings reported so far. */
unsigned fe_warnings(const fe_ctx *fe);
/* The diagnostics context, for later passes to report through. */
diag_ctx *fe_diag(fe_ctx *fe);
/* The arena holding the AST; later passes may allocate in it too. */
arena *fe_arena(fe_ctx *fe);
/* The source files (for spans -> line/column). */
const src_mgr *fe_sources(const fe_ctx *fe);
/* Test hook: count the reductions of each grammar rule into hits[] (which
 * must have ncp_rule_count() entries, grammar/tokfilter.h); NULL stops. */
void fe_set_rule_hits(fe_ctx *fe, unsigned *hits);
/* The interned copy of name[0..n) (lower-case it first): equal names, equal pointers. */
const char *fe_intern(fe_ctx *fe, const char *name, size_t n);

#endif
