/*
 * sema.h - semantic analysis of a parsed coNCePTuaL program (prefix sema_).
 *
 * sema_check() runs after a successful parse (lang/frontend.h) and before
 * code generation.  It
 *   - resolves every identifier to a symbol (scoping of LANGUAGE.md 3.5,
 *     including the RECEIVE direction rule and task groups);
 *   - enforces the static checks of LANGUAGE.md 2.4 with the reference
 *     front end's messages, ncsim's choices of 13 and the extension rules
 *     of 14 (I/O and traffic statements);
 *   - decides the evaluation context (integer or floating point, 3.1) of
 *     every expression and folds constant expressions with the functions of
 *     ncsim/stdlib.h, the ones the skeleton calls at run time;
 *   - summarises program-wide facts in a sema_info.
 * Errors and warnings go through fe_diag(fe); the return value is the
 * number of errors sema_check reported.  Code generation must not run when
 * it is non-zero.
 *
 * Annotations.  The tree is never rewritten: codegen may still need every
 * node as written (e.g. to echo the source).  Instead, sema hangs a
 * sema_note off `node->sema` (arena memory of the fe_ctx) on
 *   - every arithmetic and relational expression node: its context and,
 *     when known at compile time, its value;
 *   - every IDENT that is a variable use or definition: its symbol;
 *   - TASK_ALL / TASK_SUCH_THAT / TASK_GROUP nodes that bind a variable:
 *     the symbol (TASK_GROUP: also `group`, the LET-bound group);
 *   - RECEIVE statements: the direction flag SEMA_N_RECV_T2S;
 *   - RANGE_PROG nodes whose items are all constant: SEMA_N_CONST_I when
 *     the progression is valid (see ncsim_range_init).
 * Use sema_note_of() to read them; nodes without a note have NULL.
 *
 *   ast_node (IDENT "reps") --sema--> sema_note { ctx INT, sym } --> sema_sym
 *                                                                  { PARAM, "reps",
 *                                                                    def, binder, id 0 }
 *
 * Folding is done in both contexts at once: ival is the value the node
 * has in integer context, fval the value in floating-point context (they
 * differ for 7/2, REAL(...), decimal literals).  `ctx` says which one the
 * program actually uses at that place; the other is a by-product.  Only
 * literals are constants: parameters and num_tasks are run-time values.
 */
#ifndef NCSIM_LANG_SEMA_H
#define NCSIM_LANG_SEMA_H

#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"
#include "lang/frontend.h"

/* Evaluation context of an expression (LANGUAGE.md 3.1). */
typedef enum sema_ectx { SEMA_CTX_INT = 0, SEMA_CTX_FLOAT = 1 } sema_ectx;

/*
 * The predeclared variables (LANGUAGE.md 4 and 14.2).  The last three are
 * ncsim's I/O counters: a program may bind those names (1.5 programs that
 * use them as ordinary variables keep working), which hides the counter.
 */
#define SEMA_PREDECLS(X)                                                      \
	X(NUM_TASKS, "num_tasks") X(ELAPSED_USECS, "elapsed_usecs")           \
	X(BYTES_SENT, "bytes_sent") X(BYTES_RECEIVED, "bytes_received")       \
	X(TOTAL_BYTES, "total_bytes") X(MSGS_SENT, "msgs_sent")               \
	X(MSGS_RECEIVED, "msgs_received") X(TOTAL_MSGS, "total_msgs")         \
	X(BIT_ERRORS, "bit_errors") X(BYTES_READ, "bytes_read")               \
	X(BYTES_WRITTEN, "bytes_written") X(IO_USECS, "io_usecs")
#define SEMA_PREDECL_X_(id, name) SEMA_PV_##id,
typedef enum sema_predecl { SEMA_PREDECLS(SEMA_PREDECL_X_) SEMA_PV_COUNT } sema_predecl;
#undef SEMA_PREDECL_X_
/* The first predeclared variable that a program may rebind (see above). */
#define SEMA_PV_FIRST_SOFT SEMA_PV_BYTES_READ

/* What a symbol is. */
typedef enum sema_sym_kind {
	SEMA_SYM_PREDECL,  /* a predeclared variable; `predecl` says which */
	SEMA_SYM_PARAM,    /* x IS "..." AND COMES FROM ...; binder: PARAM_DECL */
	SEMA_SYM_LET,      /* LET x BE expr | A RANDOM TASK; binder: BINDING */
	SEMA_SYM_GROUP,    /* LET g BE task_expr (separate namespace); binder: BINDING */
	SEMA_SYM_FOR_EACH, /* FOR EACH x IN ...; binder: FOR_EACH */
	SEMA_SYM_COMP,     /* {... FOR EACH x IN ...}; binder: GENERATOR */
	SEMA_SYM_TASK,     /* the acting task: ALL TASKS x, TASKS x SUCH THAT,
	                      TASK GROUP g (then `group` is set); binder: the task node */
} sema_sym_kind;

typedef struct sema_sym sema_sym;
struct sema_sym {
	sema_sym_kind kind;
	const char *name;     /* interned lower-case name (== IDENT.u.ident.name) */
	ast_node *def;        /* the defining IDENT (NULL for predeclared variables) */
	ast_node *binder;     /* the construct that binds it (see sema_sym_kind) */
	sema_predecl predecl; /* SEMA_SYM_PREDECL only */
	sema_sym *group;      /* SEMA_SYM_TASK from TASK GROUP g: the group symbol */
	unsigned id;          /* user symbols: 0.. in order of definition (unique C names) */
	unsigned uses;        /* references seen (unused variables get a warning) */
	unsigned quiet;       /* defined inside a copied (inherited) subtree */
};

/* sema_note.flags */
enum {
	SEMA_N_CONST_I = 1u << 0, /* ival holds the integer-context value */
	SEMA_N_CONST_F = 1u << 1, /* fval holds the floating-point-context value */
	SEMA_N_REL = 1u << 2,     /* a relational expression: values are 0 or 1 */
	SEMA_N_DEF = 1u << 3,     /* IDENT: this occurrence defines sym */
	SEMA_N_RECV_T2S = 1u << 4,/* RECEIVE: variables flow from the receivers to
	                             the senders (receivers are enumerated first);
	                             otherwise senders first, as for SENDS */
	SEMA_N_EXPR = 1u << 5,    /* an arithmetic or relational expression node */
};

/* The annotation of one node (see the header comment). */
typedef struct sema_note {
	unsigned flags;
	sema_ectx ctx;        /* expression nodes: the context it is evaluated in */
	int64_t ival;         /* SEMA_N_CONST_I: value in integer context */
	double fval;          /* SEMA_N_CONST_F: value in floating-point context */
	sema_sym *sym;        /* IDENT, binding task nodes: the symbol */
	sema_sym *group;      /* TASK_GROUP: the LET-bound group */
	const char *err_i;    /* constant operands but evaluation fails (integer context) */
	const char *err_f;    /* the same in floating-point context */
} sema_note;

/* One command-line parameter, in declaration order. */
typedef struct sema_param {
	const char *name;        /* interned variable name */
	const char *description; /* the description string */
	const char *long_opt;    /* "--reps" */
	const char *short_opt;   /* "-r" */
	int64_t defval;          /* the folded default value */
	ast_node *decl;          /* PARAM_DECL */
	sema_sym *sym;
} sema_param;

/* Program-wide facts for code generation and the runtime. */
typedef struct sema_info {
	int uses_log;         /* LOGS, COMPUTES AGGREGATES or THE VALUE OF: one log per task */
	int uses_random;      /* needs the --seed option: RANDOM_*, A RANDOM TASK/PROCESSOR,
	                         WITH RANDOM STRIDE, traffic statements */
	int uses_sync_random; /* A RANDOM TASK / A RANDOM PROCESSOR (synchronised generator) */
	int uses_file_data;   /* FILE_DATA or STATIC_FILE_DATA */
	int uses_my_task;     /* MY TASK */
	int uses_procmap;     /* PROCESSOR_OF, TASK_OF or ARE ASSIGNED TO PROCESSOR */
	int uses_io;          /* OPENS/CLOSES/READS/WRITES (14.2) */
	int uses_traffic;     /* GENERATES/TRAINS/REPLAYS (14.3) */
	int uses_backend;     /* BACKEND EXECUTES or THE BACKEND DECLARES */
	const char *version;  /* REQUIRE LANGUAGE VERSION string, or NULL */
	sema_param *params;   /* the parameters (arena memory) */
	size_t nparams;
	sema_sym **syms;      /* every user symbol, indexed by sym->id (arena memory) */
	size_t nsyms;
} sema_info;

/* Options of sema_check (NULL: all defaults). */
typedef struct sema_opts {
	/* Look for the files that traffic statements name (CDF size models,
	 * VEF traces): a missing file is a warning, a malformed CDF an error.
	 * Relative paths are tried against the source file's folder, then the
	 * current directory. */
	int check_files;
	/* Extra long option names (without "--") that the program may not use
	 * for its parameters, NULL-terminated; NULL for none.  --comment,
	 * --logfile, --no-trap, --help and --usage are always reserved, and
	 * --seed when the program uses randomness. */
	const char *const *reserved_options;
} sema_opts;

/* Checks and annotates prog (parsed without errors by fe); fills *out (may be
 * NULL) and returns the number of errors reported (0: ready for codegen). */
unsigned sema_check(fe_ctx *fe, ast_node *prog, const sema_opts *o, sema_info *out);
/* The annotation of n, or NULL if sema attached none. */
static inline const sema_note *sema_note_of(const ast_node *n) { return n ? (const sema_note *)n->sema : NULL; }
/* 1 and *v = the value of expression n in the context it is evaluated in, truncated
 * to an integer in floating-point context, if sema folded it; else 0. */
int sema_const_int(const ast_node *n, int64_t *v);
/* Name of a predeclared variable ("num_tasks"). */
const char *sema_predecl_name(sema_predecl p);

#endif
