/*
 * builtins.h - the table of coNCePTuaL built-in functions (LANGUAGE.md §5),
 * prefix bi_. Semantic analysis checks names, arity and where a function may
 * appear against it; constant folding evaluates through it; code generation
 * takes the names of the ncsim/stdlib.h functions to call from it.
 *
 * Calling convention of the generated C (per entry):
 *
 *   plain        ncsim_<stem>_i(args..., &e)        (float context: _f)
 *   BI_NARY      ncsim_<stem>_i((int64_t[]){a, b, c}, 3, &e)
 *   BI_RNG       ncsim_<stem>_i(rt_rng(t), args..., &e)
 *   BI_FILE      ncsim_<stem>_i(<ncsim_filecache *>, "file", col, row, "colseps", "rowseps", &e)
 *   BI_MESH      neighbor:   ncsim_mesh_neighbor_i(w, h, d, torusmask, t, dx, dy, dz, &e)
 *                coordinate: ncsim_mesh_coordinate_i(w, h, d, t, c, &e)
 *                distance:   ncsim_mesh_distance_i(w, h, d, torusmask, t1, t2, &e)
 *                (dimension and offset lists padded to three: lengths with 1,
 *                offsets with 0; torusmask has NCSIM_TORUS_X/Y/Z for each `*`)
 *   BI_RUNTIME   rt_processor_of(t, x) / rt_task_of(t, x)   (no stdlib function)
 *
 * Missing optional arguments are filled from `defaults` before the call.
 */
#ifndef NCSIM_LANG_BUILTINS_H
#define NCSIM_LANG_BUILTINS_H

#include <stddef.h>
#include <stdint.h>

#include "ncsim/stdlib.h"

enum bi_flags {
	/*
	 * "Random" in the sense of LANGUAGE.md §2.4: not allowed in task
	 * descriptions, IF conditions, LET bindings or message specifications
	 * (RANDOM_* and FILE_DATA, but not STATIC_FILE_DATA).
	 */
	BI_RANDOM = 1u << 0,
	BI_RNG = 1u << 1,     /* first C argument: the task's struct ncsim_mt64 * */
	BI_FILE = 1u << 2,    /* string-literal file and separators; first C argument: the file cache */
	BI_MESH = 1u << 3,    /* dedicated syntax (dims), task, (offsets); flattened C arguments */
	BI_RUNTIME = 1u << 4, /* depends on the run-time task mapping: never folded */
	BI_NARY = 1u << 5,    /* any number >= 1 of arguments, passed as an array */
};

/* How a missing optional argument is filled. */
enum bi_default_kind {
	BI_DEF_NONE,      /* the argument is required */
	BI_DEF_CONST,     /* the integer `value` */
	BI_DEF_NUM_TASKS, /* the predeclared variable num_tasks */
	BI_DEF_ARG,       /* a copy of argument number `value` (RANDOM_PARETO(shape, scale)) */
	BI_DEF_STRING,    /* the string literal `str` (FILE_DATA separators) */
};

typedef struct bi_default {
	enum bi_default_kind kind;
	int64_t value;
	const char *str;
} bi_default;

#define BI_MAX_ARGS 5 /* for every function but MIN and MAX */

/*
 * The list: X(ID, min_args, max_args, flags, stem, defaults-by-position).
 * Arity counts arguments as written in the source; the MESH_* functions
 * take three (dimension list, task, offset list or coordinate or task).
 * max_args -1 means unbounded.
 */
#define BI_C(v) { BI_DEF_CONST, (v), NULL }
#define BI_NT { BI_DEF_NUM_TASKS, 0, NULL }
#define BI_A(i) { BI_DEF_ARG, (i), NULL }
#define BI_S(s) { BI_DEF_STRING, 0, (s) }
#define BI_NODEF { { BI_DEF_NONE, 0, NULL } }
#define BI_LIST(X)                                                                        \
	X(ABS, 1, 1, 0, abs, BI_NODEF)                                                           \
	X(BITS, 1, 1, 0, bits, BI_NODEF)                                                         \
	X(CBRT, 1, 1, 0, cbrt, BI_NODEF)                                                         \
	X(CEILING, 1, 1, 0, ceiling, BI_NODEF)                                                   \
	X(FACTOR10, 1, 1, 0, factor10, BI_NODEF)                                                 \
	X(FLOOR, 1, 1, 0, floor, BI_NODEF)                                                       \
	X(LOG10, 1, 1, 0, log10, BI_NODEF)                                                       \
	X(MAX, 1, -1, BI_NARY, max, BI_NODEF)                                                    \
	X(MIN, 1, -1, BI_NARY, min, BI_NODEF)                                                    \
	X(ROOT, 2, 2, 0, root, BI_NODEF)                                                         \
	X(ROUND, 1, 1, 0, round, BI_NODEF)                                                       \
	X(SQRT, 1, 1, 0, sqrt, BI_NODEF)                                                         \
	X(TREE_PARENT, 1, 2, 0, tree_parent, { [1] = BI_C(2) })                               \
	X(TREE_CHILD, 2, 3, 0, tree_child, { [2] = BI_C(2) })                                 \
	X(KNOMIAL_PARENT, 1, 3, 0, knomial_parent, { [1] = BI_C(2), [2] = BI_NT })            \
	X(KNOMIAL_CHILDREN, 1, 3, 0, knomial_children, { [1] = BI_C(2), [2] = BI_NT })        \
	X(KNOMIAL_CHILD, 2, 4, 0, knomial_child, { [2] = BI_C(2), [3] = BI_NT })              \
	X(MESH_NEIGHBOR, 3, 3, BI_MESH, mesh_neighbor, BI_NODEF)                                 \
	X(MESH_COORDINATE, 3, 3, BI_MESH, mesh_coordinate, BI_NODEF)                             \
	X(MESH_DISTANCE, 3, 3, BI_MESH, mesh_distance, BI_NODEF)                                 \
	X(PROCESSOR_OF, 1, 1, BI_RUNTIME, processor_of, BI_NODEF)                                \
	X(TASK_OF, 1, 1, BI_RUNTIME, task_of, BI_NODEF)                                          \
	X(RANDOM_UNIFORM, 2, 2, BI_RANDOM | BI_RNG, random_uniform, BI_NODEF)                    \
	X(RANDOM_GAUSSIAN, 2, 2, BI_RANDOM | BI_RNG, random_gaussian, BI_NODEF)                  \
	X(RANDOM_POISSON, 1, 1, BI_RANDOM | BI_RNG, random_poisson, BI_NODEF)                    \
	X(RANDOM_PARETO, 2, 3, BI_RANDOM | BI_RNG, random_pareto, { [2] = BI_A(1) })          \
	X(FILE_DATA, 1, 5, BI_RANDOM | BI_FILE, file_data,                                    \
	  { [1] = BI_C(1), [2] = BI_C(1), [3] = BI_S(" \t"), [4] = BI_S("\n") })              \
	X(STATIC_FILE_DATA, 1, 5, BI_FILE, file_data,                                         \
	  { [1] = BI_C(1), [2] = BI_C(1), [3] = BI_S(" \t"), [4] = BI_S("\n") })

enum bi_id {
#define BI_ENUM_(id, mn, mx, fl, stem, ...) BI_##id,
	BI_LIST(BI_ENUM_)
#undef BI_ENUM_
	BI_COUNT
};

typedef struct bi_info {
	enum bi_id id;
	const char *name;     /* canonical upper-case name, e.g. "TREE_PARENT" */
	int min_args, max_args;
	unsigned flags;       /* enum bi_flags */
	const char *c_int;    /* "ncsim_tree_parent_i" (NULL for BI_RUNTIME) */
	const char *c_float;  /* "ncsim_tree_parent_f" (NULL for BI_RUNTIME) */
	bi_default defaults[BI_MAX_ARGS]; /* by argument position; BI_DEF_NONE for required ones */
} bi_info;

/* The entry for id (id < BI_COUNT). */
const bi_info *bi_get(enum bi_id id);
/* The entry named `name` (case-insensitive), or NULL if it is not a built-in. */
const bi_info *bi_lookup(const char *name);
/* 1 if n source arguments are acceptable for b. */
int bi_arity_ok(const bi_info *b, int n);
/* Writes "ROOT expects 2 argument(s) but was given 1" (the C backend's wording) into buf. */
void bi_arity_message(const bi_info *b, int n, char *buf, size_t size);
/* 1 if a call with n source arguments can be folded at compile time (num_tasks_known: its value is). */
int bi_foldable(const bi_info *b, int n, int num_tasks_known);
/*
 * Folds a call: fills missing arguments from b->defaults (num_tasks for
 * BI_DEF_NUM_TASKS), then evaluates. `a` holds the n source arguments, or
 * for BI_MESH the flattened C layout (8, 5 or 6 values). Fails (message in
 * e, returns 0) if b is not foldable (see bi_foldable) or n is not valid.
 */
int64_t bi_call_i(const bi_info *b, const int64_t *a, int n, int64_t num_tasks, ncsim_err *e);
/* The same in floating-point context. */
double bi_call_f(const bi_info *b, const double *a, int n, int64_t num_tasks, ncsim_err *e);

#endif
