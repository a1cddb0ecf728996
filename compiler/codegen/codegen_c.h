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
 * Every C variable the generator declares has a name unique in the file
 * (the first use of a stem is the stem itself, later ones get a counter
 * suffix), so C scoping never hides a binding that a snapshot refers to, and
 * plain `{ }` blocks are never needed for scoping.
 *
 * Nesting is kept low in three ways. Conditions opened one after the other
 * with no code between them (cg_if) become one `if (a && b)`. A block whose
 * body turns out to be one simple statement loses its braces when it closes
 * (cg_open/cg_close). Names bound to a C variable that already holds the
 * value (a loop counter, rt_rank(t)) are aliases, not copies.
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

/* An open block of the output (cg_open): where its " {" is, for dropping the braces. */
typedef struct cg_block {
	cg_buf *buf;  /* the buffer it was opened in */
	size_t brace; /* offset of " {" at the end of its opening line */
	size_t body;  /* offset of its first body line */
	int conds;    /* cg_if conditions merged into it that are still open (0: cg_open) */
	int merged;   /* cg_if conditions merged into it */
} cg_block;

/* A condition of cg_if: pending until a line is emitted under it. */
typedef struct cg_cond {
	const char *text;
	int flushed;
} cg_cond;

/* The set of C names used in the file (open addressing, arena strings). */
typedef struct cg_names {
	const char **slot;
	size_t cap, len;
} cg_names;

/* The generator. */
typedef struct cg {
	fe_ctx *fe;
	const src_mgr *src;
	const cg_opts *o;
	arena *a;            /* strings and symbols of this generation */
	cg_buf *out;         /* where cg_line writes (swapped to capture code as a string) */
	int indent;
	cg_names names;      /* every C name given out (cg_uniq) */
	VEC(cg_block) blocks;
	VEC(cg_cond) conds;
	int in_src;          /* lines are numbered as .ncptl lines (a statement's #line is in force) */
	unsigned src_at;     /* in_src: the .ncptl number of the next line */
	unsigned src_lines;  /* lines of the .ncptl file */
	int reset_line;      /* a statement just ended: the next code line returns to the file's own numbering */
	int errors;
	int logcol;          /* next log column of the current top-level statement */
	const char *srcname; /* source file name (a C string literal), for #line */
	/* features of the descriptor and the includes (the entry's locals are found in its code) */
	int uses_log, uses_random, uses_union, uses_traffic;
	unsigned memo_sites; /* statements with a memoized implicit-receive scan (the sites of cg_memo) */
} cg;

/*
 * Body of a construct that binds names: emits code in scope env. x is the C
 * expression of the task or value in question: a variable, rt_rank(t) or a
 * literal.
 */
typedef void (*cg_body_fn)(cg *g, const cg_sym *env, const char *x, void *ud);

/* ---- codegen_c_out.c: lines, blocks, names, #line */

/* Appends s[0..n) to b, keeping it NUL-terminated. */
void cg_buf_add(cg_buf *b, const char *s, size_t n);
/* The line that stands for `#line N "prog.c"` until cg_resolve_lines knows N. */
extern const char cg_reset_mark[];
/* out = text with every cg_reset_mark line replaced by #line naming the next line of the file cname (a C string literal). */
void cg_resolve_lines(cg *g, const cg_buf *text, const char *cname, cg_buf *out);
/* Ends a statement's .ncptl numbering at once (the end of the entry function). */
void cg_end_src(cg *g);
/* printf into a string owned by g's arena. */
const char *cg_fmt(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Turns off (generated = 1: push) or restores (0: pop) the warnings that only a program's meaning causes. */
void cg_warnings(cg *g, int generated);
/* Appends one indented line to the current buffer. */
void cg_line(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A C identifier not used before in the file: stem itself, else "<stem>_<n>". */
const char *cg_uniq(cg *g, const char *stem);
/* Opens a block: emits "<header> {" and indents (cg_fmt formatting). */
void cg_open(cg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Closes the innermost block: "}", or no braces at all if its body is one simple statement. */
void cg_close(cg *g);
/*
 * Opens "if (cond)" lazily: conditions opened with no line between them share
 * one `if (a && b)`. So a cg_if must guard everything up to the cg_endif of
 * the conditions opened before it (no line may follow its cg_endif inside
 * theirs); a condition that guards less is a cg_open("if (...)").
 */
void cg_if(cg *g, const char *cond);
/* Closes the innermost cg_if. */
void cg_endif(cg *g);
/* The state a capture sets aside. */
typedef struct cg_capture {
	cg_buf *out;
	int indent, reset_line, in_src;
	size_t nconds; /* conditions on the stack at the start */
	size_t hidden; /* conds[hidden..nconds) were pending: hidden until the end */
} cg_capture;
/* Starts capturing output into a string (statement expressions); pending state is set aside in *c. */
void cg_capture_begin(cg *g, cg_capture *c);
/* Ends the capture: the captured text, indented one level deeper than the line it goes in. */
const char *cg_capture_end(cg *g, const cg_capture *c);
/* Offset in the output where the next line goes (for cg_unused). */
size_t cg_mark(cg *g);
/* At the end of the scope of `name`, declared before offset `at`: emits "(void)name;" if no code since reads it. */
void cg_unused(cg *g, size_t at, const char *name);
/* 1 if C code uses the identifier `name` outside comments and literals. */
int cg_code_uses(const char *code, const char *name);
/* The C string literal for s[0..n) (quotes and escapes included). */
const char *cg_cstr(cg *g, const char *s, size_t n);
/* 1 and *v if x is a non-negative decimal literal (a constant task or count). */
int cg_literal(const char *x, int64_t *v);
/* 1 if the C expression x is a literal or a variable: reading it again costs nothing and changes nothing. */
int cg_plain(const char *x);

/* ---- codegen_c.c: diagnostics, names, statements, the file */

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
/* The same; *fallible = 1 if evaluating it may end the simulation. */
const char *cg_int_ex(cg *g, const cg_sym *env, const ast_node *n, int *fallible);
/* 1 and *v if sema folded n in integer context. */
int cg_known_int(const ast_node *n, int64_t *v);
/* The C literal of v (type rt_int). */
const char *cg_int_lit(cg *g, int64_t v);
/* C expression of type double for n in floating-point context; runtime errors are checked. */
const char *cg_flt(cg *g, const cg_sym *env, const ast_node *n);
/* C expression of type int (truth) for a relational expression; flt: operands in float context. */
const char *cg_rel(cg *g, const cg_sym *env, const ast_node *n, int flt);
/* Bytes of a DATA_SIZE node as an rt_int C expression (BITS round up, INTEGERS = 4, PAGES = 4096). */
const char *cg_size(cg *g, const cg_sym *env, const ast_node *n);
/* 1 and *v if the size of a DATA_SIZE node is known at compile time (the value cg_size computes). */
int cg_size_known(const ast_node *n, int64_t *v);
/* Picoseconds of a DURATION node as a C expression of type double (negative: 0 later). */
const char *cg_duration(cg *g, const cg_sym *env, const ast_node *n);
/* The same rounded to ncsim_time_t (ncsim_ps), folded when the duration is constant. */
const char *cg_duration_ps(cg *g, const cg_sym *env, const ast_node *n);
/* Emits a loop running body for each value of a range list; the value is a C variable named from stem. */
void cg_ranges_foreach(cg *g, const cg_sym *env, const ast_list *ranges, const char *stem, cg_body_fn body,
                       void *ud);
/*
 * For a statement's call whose arguments vals (C texts) are evaluated in the
 * order given (gcc's: a call's arguments last to first): if two or more
 * contain a call (may fail or draw random numbers), emits a constant of
 * `type` for each of those, in that order, and replaces their texts by the
 * constants' names. Else nothing (their order cannot show).
 */
void cg_order(cg *g, const char *type, const char **vals[], int n);
/* 1 if n (any subtree) calls a RANDOM_* function. */
int cg_uses_random_fn(const ast_node *n);

/* ---- codegen_c_tasks.c: task descriptions (LANGUAGE.md section 6) */

/*
 * Runs body for each task x of description d in ascending order, d's
 * variable bound to x; a loop counter is named after d's variable, else
 * after stem. `src` is the C expression of the source task (for ALL OTHER
 * TASKS; NULL elsewhere).
 */
void cg_tasks_foreach(cg *g, const cg_sym *env, const ast_node *d, const char *stem, const char *src,
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
