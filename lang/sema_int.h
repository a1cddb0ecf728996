/*
 * sema_int.h - state shared by the files of semantic analysis.
 *
 * Semantic analysis is one pass split by concept over several files, each
 * with its own prefix: sema.c (the walk over statements and the 2.4
 * checks), sema_expr.c (expressions and range lists, sema_expr and
 * sema_ranges), sema_scope.c (symbols and scopes, ss_), sema_fold.c
 * (constant folding, sf_), sema_header.c (version and parameter
 * declarations, sh_), sema_ext.c (I/O and traffic statements, sx_).  They
 * all work on one sema_ctx, defined here rather than in a public header
 * because nothing outside lang/sema*.c may depend on its layout.
 *
 * Scopes are a stack of symbols with frame marks:
 *
 *   stack: [ reps | len | i | t ]      marks: [ 0, 2, 3 ]
 *            params | FOR EACH i | ALL TASKS t (statement frame)
 *
 * Lookup scans from the top, so an inner binding shadows an outer one;
 * popping a frame truncates the stack and warns about the unused symbols
 * it held.
 */
#ifndef NCSIM_LANG_SEMA_INT_H
#define NCSIM_LANG_SEMA_INT_H

#include <stdint.h>

#include "lang/diag.h"
#include "lang/sema.h"
#include "base/util.h"

/* Where an expression sits: what the 2.4 checks need to know. */
typedef struct sema_where {
	sema_ectx ctx;          /* evaluation context of this subtree */
	const char *random_ctx; /* "a task description", ...: RANDOM_* and FILE_DATA forbidden; NULL: allowed */
	int in_if_cond;         /* MY TASK allowed */
	int in_let;             /* predeclared variables other than num_tasks forbidden */
	const ast_node *param;  /* inside the default of this PARAM_DECL */
	int quiet;              /* inside a copied (inherited) subtree: resolve, report nothing */
} sema_where;

typedef struct sema_ctx {
	fe_ctx *fe;
	diag_ctx *diag;
	arena *arena;
	const sema_opts *opts;
	sema_info *info;
	unsigned errors0;         /* diag errors before sema started */
	VEC(sema_sym *) stack;    /* visible symbols, innermost last */
	VEC(size_t) marks;        /* frame starts in `stack` */
	VEC(sema_sym *) syms;     /* every user symbol (-> info->syms) */
	VEC(const char *) undeclared; /* names already reported as undeclared */
	sema_sym predecl[SEMA_PV_COUNT];
	const char *predecl_names[SEMA_PV_COUNT]; /* interned */
	const char *anon;         /* interned AST_ANON_TASK_VAR */
	int dead;                 /* > 0: code that cannot run (IF with a constant condition) */
	int my_task_warned;
	const ast_node *param_reported; /* last PARAM_DECL whose default was reported */
} sema_ctx;

/* The note of n, created (zeroed) on first use. */
sema_note *sema_note_get(sema_ctx *s, ast_node *n);
/* The source text of n with runs of white space folded to one space (arena). */
const char *sema_text(sema_ctx *s, const ast_node *n);
/* Error at sp unless w->quiet. */
void sema_error(sema_ctx *s, const sema_where *w, src_span sp, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Warning at sp unless w->quiet. */
void sema_warning(sema_ctx *s, const sema_where *w, src_span sp, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A default place: integer context, nothing forbidden. */
sema_where sema_where_int(void);

/* How a task description is used (LANGUAGE.md 6.1). */
typedef enum sema_role {
	SEMA_SOURCE, /* acting tasks; ALL OTHER TASKS is invalid */
	SEMA_TARGET, /* receivers; ALL TASKS [v] is invalid */
	SEMA_GROUP,  /* LET g BE <task_expr>: like a source */
} sema_role;
/* Checks task description t used as `role` and binds its variable (if any)
 * in the innermost scope. */
void sema_task_desc(sema_ctx *s, ast_node *t, sema_role role, const sema_where *w);
/* Checks DATA_SIZE or DURATION d (value in context w->ctx); a constant
 * negative value is an error naming `what` ("message size"). */
void sema_amount(sema_ctx *s, ast_node *d, const char *what, const sema_where *w);

#endif
