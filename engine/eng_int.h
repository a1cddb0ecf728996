/*
 * eng_int.h - shared types of the direct engine (internal to the files of engine/).
 *
 * Loading resolves the checked AST into closures: an expression becomes an
 * `ex` whose function evaluates it in the one context (integer, floating
 * point or truth) the C generator would have used at that place, a
 * statement becomes an `st`, a task description used at one place a `td`.
 * Every name resolves at load time to a slot of the task's frame, an array
 * of int64 values, the way compiler/codegen binds it to a C variable: each
 * place that binds a name gets a slot of its own, so a value bound by an
 * enclosing construct is never overwritten by an inner one.
 *
 *   eng_prog ──> rt_program (first member: entry finds eng_prog from it)
 *           └──> top-level st[] ──> st ──> ex ──> ex ...
 *   per task: ek { rt_task, e (sticky error), frame v[nslots], scratch lists }
 *
 * Run-time errors follow the generated C: built-ins record a message in the
 * task's sticky ncsim_err, and every place where the C wraps an expression
 * in rt_ok_i/rt_ok_f/rt_ok_b checks it (eng_int, eng_flt, eng_rel), so the
 * same message ends the run at the same statement.
 */
#ifndef NCSIM_ENGINE_INT_H
#define NCSIM_ENGINE_INT_H

#include <stdint.h>

#include "engine/engine.h"
#include "lang/ast.h"
#include "lang/frontend.h"
#include "ncsim/gen.h"
#include "base/util.h"

typedef struct ek ek;
typedef struct ex ex;
typedef struct st st;
typedef struct td td;
typedef struct eng_cx eng_cx;

/* ------------------------------------------------------------ run time */

/* One task's state while it runs the program. */
struct ek {
	rt_task *t;
	const eng_prog *p;
	ncsim_err e;           /* the sticky error of ncsim/stdlib.h */
	int64_t num_tasks;     /* rt_num_tasks at the start, as the C's local */
	int timed;             /* inside a timed loop (they may not nest) */
	struct ncsim_ivec ga, gb; /* the scratch task lists of collectives */
	struct ncsim_text ob;  /* the OUTPUTS line */
	struct rt_memo *memo;  /* the memo of implicit receives */
	struct ncsim_ivec *lists; /* one value list per range loop site */
	int64_t *v;            /* the frame: one slot per binding */
};

/* An expression closure: fn evaluates it in its context (int: i, float: f, truth: i as 0/1). */
typedef int64_t (*ex_ifn)(const ex *x, ek *k);
typedef double (*ex_ffn)(const ex *x, ek *k);

struct ex {
	union {
		ex_ifn i;
		ex_ffn f;
	} fn;
	const ex *a, *b, *c; /* operands */
	int64_t iv;          /* a literal, a slot, a counter, a mask */
	double fv;           /* a float literal */
	const void *op;      /* the operator row, the built-in's function, ... */
	const ex **args;     /* call arguments */
	int nargs;
	const char *s[3];    /* string arguments (FILE_DATA) */
	const struct rloop *loop; /* IS IN ranges: the loop over the ranges */
};

/* Evaluates x in its context (no error check). */
static inline int64_t ev_i(const ex *x, ek *k) { return x->fn.i(x, k); }
static inline double ev_f(const ex *x, ek *k) { return x->fn.f(x, k); }

/* Ends the run with the recorded error, as rt_ok_* of ncsim/gen.h does. */
_Noreturn void eng_fail(ek *k);
/* x in integer context, then the error check (rt_ok_i). */
static inline int64_t eng_int(const ex *x, ek *k)
{
	int64_t v = x->fn.i(x, k);
	if (__builtin_expect(k->e.failed, 0))
		eng_fail(k);
	return v;
}
/* x in floating-point context, checked (rt_ok_f). */
static inline double eng_flt(const ex *x, ek *k)
{
	double v = x->fn.f(x, k);
	if (__builtin_expect(k->e.failed, 0))
		eng_fail(k);
	return v;
}
/* A relational x, checked (rt_ok_b). */
static inline int eng_rel(const ex *x, ek *k) { return eng_int(x, k) != 0; }

/* A continuation: what runs for one task x of a description (or one value of a range). */
typedef struct kont kont;
struct kont {
	void (*fn)(const kont *c, ek *k, int64_t x);
};
static inline void kont_run(const kont *c, ek *k, int64_t x) { c->fn(c, k, x); }

/* A statement closure. */
struct st {
	void (*run)(const st *s, ek *k);
	int line; /* rt_line before it runs (0: a sequence, which has none) */
};
/* Runs s (its rt_line first). */
static inline void st_run(const st *s, ek *k)
{
	if (s->line)
		rt_line(k->t, s->line);
	s->run(s, k);
}

/* ------------------------------------------------------------ load time */

enum eng_symkind { ENG_SYM_VAR, ENG_SYM_GROUP };

/* One binding of the load-time scope (a persistent list, like codegen's cg_sym). */
typedef struct eng_sym {
	const char *name;
	enum eng_symkind kind;
	int slot;                    /* ENG_SYM_VAR */
	const ast_node *group;       /* ENG_SYM_GROUP: the description */
	const struct eng_sym *genv;  /* ENG_SYM_GROUP: the scope of its definition */
	const struct eng_sym *next;
} eng_sym;
typedef const eng_sym *env_t;

/* The loader. */
struct eng_cx {
	fe_ctx *fe;
	const src_mgr *src;
	arena *a;          /* closures (the fe_ctx's arena: freed with the AST) */
	const eng_opts *o;
	int nslots;        /* frame size so far */
	int nlists;        /* range loop sites so far */
	int logcol;        /* next log column of the current top-level statement */
	unsigned memo_sites;
	int errors;
	int uses_log, uses_random, uses_traffic;
	VEC(eng_backend *) backends; /* prepared BACKEND EXECUTES statements (the eng_prog keeps them) */
};

/* The program. */
struct eng_prog {
	rt_program prog;   /* first: entry finds the eng_prog from the task's descriptor */
	fe_ctx *fe;
	rt_param *params;
	int *param_slots;  /* the frame slot of each parameter */
	unsigned nparams;
	const st **stmts;  /* top-level statements */
	uint32_t nstmts;
	int nslots, nlists;
	eng_backend **backends; /* prepared BACKEND EXECUTES statements, freed with the program */
	size_t nbackends;
	char *name;
};

/* ---- load.c */
/* Reports an error at sp and counts it. */
void eng_error(eng_cx *c, src_span sp, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1-based line of sp's first byte. */
int eng_lineno(eng_cx *c, src_span sp);
/* A zeroed object of n bytes for the program's lifetime. */
void *eng_new(eng_cx *c, size_t n);
/* A new frame slot. */
int eng_slot(eng_cx *c);
/* Binds name to a new slot in front of env; *slot gets it. */
env_t eng_bind(eng_cx *c, env_t env, const char *name, int *slot);
/* Binds name to an existing slot. */
env_t eng_bind_slot(eng_cx *c, env_t env, const char *name, int slot);
/* Binds a task group. */
env_t eng_bind_group(eng_cx *c, env_t env, const char *name, const ast_node *desc, env_t genv);
/* The innermost binding of name of that kind, or NULL. */
const eng_sym *eng_lookup(env_t env, const char *name, enum eng_symkind kind);
/* Remembers a prepared backend statement (freed with the program). */
void eng_keep_backend(eng_cx *c, eng_backend *b);

/* ---- expr.c: expressions (codegen_c_expr.c) */
/* n in integer (flt 0) or floating-point (flt 1) context. */
const ex *eng_num(eng_cx *c, env_t env, const ast_node *n, int flt);
/* A relational n (truth as 0/1 through fn.i); flt: its operands in floating point. */
const ex *eng_relx(eng_cx *c, env_t env, const ast_node *n, int flt);
/* A literal in integer context. */
const ex *eng_lit_i(eng_cx *c, int64_t v);
/* 1 and *v if sema folded n in integer context (cg_known_int). */
int eng_known_int(const ast_node *n, int64_t *v);
/* Bytes of a DATA_SIZE node, integer context (cg_size). */
const ex *eng_size(eng_cx *c, env_t env, const ast_node *n);
/* Bytes per unit of a size or touched word (INTEGERS 4, PAGES 4096; BITS is handled apart). */
uint64_t eng_unit_bytes(ast_data_unit u);
/* 1 and *v if the size is known at load time (cg_size_known). */
int eng_size_known(const ast_node *n, int64_t *v);
/* Picoseconds of a DURATION, floating point (cg_duration). */
const ex *eng_duration(eng_cx *c, env_t env, const ast_node *n);
/* The same rounded with ncsim_ps, as an integer-context ex (cg_duration_ps). */
const ex *eng_duration_ps(eng_cx *c, env_t env, const ast_node *n);
/* 1 if n calls a RANDOM_* function (cg_uses_random_fn). */
int eng_uses_random_fn(const ast_node *n);

/* ---- ranges.c: loops over range lists (cg_ranges_foreach) */
typedef struct rloop rloop;
/* A loop over the values of ranges; the value goes to *slot (a new slot) and body runs (compiled by the caller afterwards: see eng_ranges_set_body). */
rloop *eng_ranges(eng_cx *c, env_t env, const ast_list *ranges, int *slot);
/* Sets the body run for each value. */
void eng_ranges_set_body(rloop *r, const kont *body);
/* Runs the loop. */
void eng_ranges_run(const rloop *r, ek *k);
/* A continuation that runs loop r (the value is ignored). */
const kont *eng_kont_loop(eng_cx *c, const rloop *r);

/* ---- tasks.c: task descriptions (codegen_c_tasks.c) */
/*
 * A body compiled in the scope where the description's variable is bound:
 * mk(c, env, x_slot, ud) returns the continuation run for each task x (x also
 * passed as the argument); x_slot is -1 when x is a constant (TASK 3).
 */
typedef const kont *(*eng_body_fn)(eng_cx *c, env_t env, int x_slot, void *ud);
/* Walks d ascending (cg_tasks_foreach); src_slot: the source task's slot for ALL OTHER TASKS (-1: none). */
const td *eng_tasks_foreach(eng_cx *c, env_t env, const ast_node *d, int src_slot, eng_body_fn mk, void *ud);
/* Tests whether the task in who_slot belongs to d (cg_tasks_if_member); who_slot -2: this task (rt_rank). */
const td *eng_tasks_member(eng_cx *c, env_t env, const ast_node *d, int who_slot, int src_slot, eng_body_fn mk,
                           void *ud);
/* Runs a compiled description. */
void eng_td_run(const td *d, ek *k);
/* The name a description binds, or NULL (cg_tasks_var). */
const char *eng_tasks_var(const ast_node *d);
/* Appends the tasks of d, ascending, to k->ga (which 0) or k->gb (1). */
const td *eng_tasks_push(eng_cx *c, env_t env, const ast_node *d, int which, int src_slot);
/* The same with the list emptied first (cg_tasks_collect). */
const td *eng_tasks_collect(eng_cx *c, env_t env, const ast_node *d, int which, int src_slot);
/* A continuation that runs statement s (the value is ignored). */
const kont *eng_kont_stmt(eng_cx *c, const st *s);
/* Slot value for "this task": who_slot -2. */
#define ENG_ME (-2)

/* ---- stmt.c: statements and control (codegen_c.c, codegen_c_loops.c) */
/* Compiles a statement or a sequence in scope env. */
const st *eng_stmt(eng_cx *c, env_t env, const ast_node *n);

/* ---- stmt_comm.c (codegen_c_comm.c) */
const st *eng_send(eng_cx *c, env_t env, const ast_node *n);
const st *eng_receive(eng_cx *c, env_t env, const ast_node *n);
const st *eng_multicast(eng_cx *c, env_t env, const ast_node *n);
const st *eng_reduce(eng_cx *c, env_t env, const ast_node *n);
const st *eng_sync(eng_cx *c, env_t env, const ast_node *n);

/* ---- stmt_misc.c (codegen_c_misc.c): NULL if n is not one of its statements */
const st *eng_simple(eng_cx *c, env_t env, const ast_node *n);

/* ---- stmt_traffic.c (codegen_c_traffic.c) */
const st *eng_traffic(eng_cx *c, env_t env, const ast_node *n);

/* Frees *(void **)pp (an rt_track release function for one heap block). */
void eng_release_ptr(void *pp);

/* A statement that does nothing (after an error, or a statement without code). */
const st *eng_nop(eng_cx *c, const ast_node *n);

#endif
