/*
 * codegen_c.h - shared state of the C code generator (internal to compiler/codegen_c*.c).
 *
 * The generator walks the AST once and appends C text to a buffer. Names of
 * the program are resolved through a persistent (immutable, shared-tail)
 * list of bindings, so a snapshot of the scope is just a pointer: a LET-bound
 * task group keeps the scope of its definition that way.
 *
 *   env ──> [x -> v_x_7] ──> [g -> group(desc, env0)] ──> [reps -> v_reps_1] ──> NULL
 *
 * Every C variable the generator declares has a unique name (a counter
 * suffix), so C scoping never hides a binding that a snapshot refers to.
 */
#ifndef NCSIM_CODEGEN_C_H
#define NCSIM_CODEGEN_C_H

#include <stdarg.h>
#include <stdio.h>

#include "compiler/codegen/codegen.h"
#include "lang/ast.h"
#include "lang/frontend.h"
#include "base/util.h"

typedef VEC(char) cg_buf;

enum cg_symkind { CG_SYM_VAR, CG_SYM_GROUP };

/* One binding of a name (interned, lower-case) to a C variable or a task group. */
typedef struct cg_sym {
	const char *name;
	enum cg_symkind kind;
	const char *cname;          /* CG_SYM_VAR: the C variable (rt_int) */
	const ast_node *group;      /* CG_SYM_GROUP: the task description */
	const struct cg_sym *genv;  /* CG_SYM_GROUP: the scope of its definition */
	const struct cg_sym *next;
} cg_sym;

/* The generator. */
typedef struct cg {
	fe_ctx *fe;
	const src_mgr *src;
	const cg_opts *o;
	arena *a;            /* strings and symbols of this generation */
	cg_buf *out;         /* where cg_line writes (swapped to capture code as a string) */
	int indent;
	unsigned uniq;       /* counter for unique C names */
	int errors;
	int logcol;          /* next log column of the current top-level statement */
	const char *srcname; /* source file name, for #line */
	/* features the entry function must set up */
	int uses_groups, uses_timed, uses_filecache, uses_output, uses_log, uses_random, uses_union, uses_traffic;
	unsigned memo_sites; /* statements with a memoized implicit-receive scan (cg_memo tables) */
} cg;

/* Body of a construct that binds names: emits code in scope env. */
typedef void (*cg_body_fn)(cg *g, const cg_sym *env, void *ud);

/* ---- codegen_c.c: text and names */

/* printf into a string owned by g's arena. */
const char *cg_fmt(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends one indented line to the current buffer. */
void cg_line(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fresh C identifier "<stem>_<n>". */
const char *cg_uniq(cg *g, const char *stem);
/* The C string literal for s[0..n) (quotes and escapes included). */
const char *cg_cstr(cg *g, const char *s, size_t n);
/* Reports an error at sp and counts it. */
void cg_error(cg *g, src_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1-based source line of the first byte of sp. */
unsigned cg_lineno(cg *g, src_span sp);
/* Binds name to the C variable cname in front of env (arena). */
const cg_sym *cg_bind(cg *g, const cg_sym *env, const char *name, const char *cname);
/* Binds a task group in front of env. */
const cg_sym *cg_bind_group(cg *g, const cg_sym *env, const char *name, const ast_node *desc, const cg_sym *genv);
/* The innermost binding of name of the given kind in env, or NULL (groups and variables are separate namespaces). */
const cg_sym *cg_lookup(const cg_sym *env, const char *name, enum cg_symkind kind);
/* Emits a statement list / one statement in scope env. */
void cg_stmt(cg *g, const cg_sym *env, const ast_node *n);

/* ---- codegen_c_expr.c: expressions (LANGUAGE.md section 3) */

/* C expression of type rt_int for n in integer context; runtime errors are checked. */
const char *cg_int(cg *g, const cg_sym *env, const ast_node *n);
/* C expression of type double for n in floating-point context; runtime errors are checked. */
const char *cg_flt(cg *g, const cg_sym *env, const ast_node *n);
/* C expression of type int (truth) for a relational expression; flt: operands in float context. */
const char *cg_rel(cg *g, const cg_sym *env, const ast_node *n, int flt);
/* Bytes of a DATA_SIZE node as an rt_int C expression (BITS round up, INTEGERS = 4, PAGES = 4096). */
const char *cg_size(cg *g, const cg_sym *env, const ast_node *n);
/* Picoseconds of a DURATION node as a C expression of type double (negative: 0 later). */
const char *cg_duration(cg *g, const cg_sym *env, const ast_node *n);
/* Emits a loop running body for each value of a range list, bound to `var` (an IDENT). */
void cg_ranges_foreach(cg *g, const cg_sym *env, const ast_list *ranges, const char *cvar, cg_body_fn body,
                       void *ud);
/* Folds a constant integer expression (parameter defaults); 0 ok, -1 after reporting an error. */
int cg_fold_int(cg *g, const ast_node *n, const cg_sym *params, const int64_t *pvals, int64_t *out);
/* 1 if n (any subtree) calls a RANDOM_* function. */
int cg_uses_random_fn(const ast_node *n);

/* ---- codegen_c_tasks.c: task descriptions (LANGUAGE.md section 6) */

/*
 * Runs body for each task x of description d in ascending order, x declared
 * as the C variable `x` and d's variable bound to it. `src` is the C
 * expression of the source task (for ALL OTHER TASKS; NULL elsewhere).
 */
void cg_tasks_foreach(cg *g, const cg_sym *env, const ast_node *d, const char *x, const char *src,
                      cg_body_fn body, void *ud);
/* Runs body if the task `who` (a C expression, in range) belongs to d, with d's variable bound to it. */
void cg_tasks_if_member(cg *g, const cg_sym *env, const ast_node *d, const char *who, const char *src,
                        cg_body_fn body, void *ud);
/* 1 if the description binds a variable (ALL TASKS v, SUCH THAT, TASK GROUP). */
int cg_tasks_binds(const ast_node *d);
/* The name a description binds, or NULL. */
const char *cg_tasks_var(const ast_node *d);
/* Emits `vec.len = 0` and pushes every task of d (ascending) into the ncsim_ivec `vec`. */
void cg_tasks_collect(cg *g, const cg_sym *env, const ast_node *d, const char *vec, const char *src);

/* ---- codegen_c_comm.c: communication statements (LANGUAGE.md sections 7, 8.1-8.6) */

void cg_send(cg *g, const cg_sym *env, const ast_node *n);
void cg_receive(cg *g, const cg_sym *env, const ast_node *n);
void cg_multicast(cg *g, const cg_sym *env, const ast_node *n);
void cg_reduce(cg *g, const cg_sym *env, const ast_node *n);
void cg_sync(cg *g, const cg_sym *env, const ast_node *n);

/* ---- codegen_c_misc.c: the other simple statements */

/* Emits one simple statement other than communication; 0, or -1 if n is not one. */
int cg_simple(cg *g, const cg_sym *env, const ast_node *n);

/* ---- codegen_c_traffic.c: traffic-model statements (LANGUAGE.md section 14.3) */

/* Emits a DCNW/CDCNW, FLOWS, HOROVOD or VEF replay statement as a call of <ncsim/traffic.h>. */
void cg_traffic(cg *g, const cg_sym *env, const ast_node *n);

/* ---- codegen_c_loops.c: FOR loops, LET, IF */

void cg_for_each(cg *g, const cg_sym *env, const ast_node *n);
void cg_for_reps(cg *g, const cg_sym *env, const ast_node *n);
void cg_for_time(cg *g, const cg_sym *env, const ast_node *n);
void cg_let(cg *g, const cg_sym *env, const ast_node *n);

#endif
