/*
 * gen.h - the random program generator of the differential tester (prefix
 * gen_): one seed gives one valid, terminating .ncptl program, written as
 * text while it is generated.
 *
 * Every statement the generator writes is a node with a preorder number.
 * `--drop` lists numbers whose text is cut out again after the node was
 * generated, so a dropped node still draws the same random numbers and every
 * other node keeps its number and its text. Only nodes whose removal keeps the
 * program valid are numbered: a node never refers to a variable that a
 * sibling binds, every send carries its own (implicit) receive, and the parts
 * a node cannot lose (the AWAITS COMPLETION of its asynchronous sends, the
 * RESTORES of its STORES) belong to the node itself.
 *
 *   gen ── rng (splitmix64)
 *       ├─ out: the program text so far
 *       ├─ scope: uniform variables (parameters, LET, FOR EACH), task groups
 *       └─ cov[]: how often each feature was written (--coverage)
 */
#ifndef NCSIM_TESTS_GEN_H
#define NCSIM_TESTS_GEN_H

#include <stddef.h>
#include <stdint.h>

/* Features counted for --coverage; each name is what the table prints. */
#define GEN_FEATURES(X)                                                     \
	X(OP_ADD, "op +") X(OP_SUB, "op -") X(OP_MUL, "op *") X(OP_DIV, "op /")   \
	X(OP_MOD, "op MOD") X(OP_POW, "op **") X(OP_SHL, "op <<")                 \
	X(OP_SHR, "op >>") X(OP_AND, "op &") X(OP_OR, "op |") X(OP_XOR, "op XOR") \
	X(OP_NEG, "unary -") X(OP_PLUS, "unary +") X(OP_NOT, "unary NOT")         \
	X(OP_IFELSE, "x IF r OTHERWISE y") X(OP_REAL, "REAL()")                   \
	X(LIT_DECIMAL, "decimal literal") X(LIT_SUFFIX, "literal K/M/E/ordinal") \
	X(CMP_EQ, "rel =") X(CMP_NE, "rel <>") X(CMP_LT, "rel <") X(CMP_GT, "rel >") \
	X(CMP_LE, "rel <=") X(CMP_GE, "rel >=") X(CMP_DIVIDES, "rel DIVIDES")     \
	X(REL_EVEN, "rel IS EVEN") X(REL_ODD, "rel IS ODD") X(REL_IN, "rel IS IN") \
	X(REL_NOTIN, "rel IS NOT IN") X(REL_INTERVAL, "rel IS IN [a,b]")          \
	X(REL_AND, "rel /\\") X(REL_OR, "rel \\/") X(REL_MYTASK, "MY TASK")       \
	X(FN_ABS, "ABS") X(FN_BITS, "BITS") X(FN_CBRT, "CBRT")                    \
	X(FN_CEILING, "CEILING") X(FN_FACTOR10, "FACTOR10") X(FN_FLOOR, "FLOOR")  \
	X(FN_LOG10, "LOG10") X(FN_MAX, "MAX") X(FN_MIN, "MIN") X(FN_ROOT, "ROOT") \
	X(FN_ROUND, "ROUND") X(FN_SQRT, "SQRT") X(FN_TREE_PARENT, "TREE_PARENT") \
	X(FN_TREE_CHILD, "TREE_CHILD") X(FN_KNOMIAL_PARENT, "KNOMIAL_PARENT")     \
	X(FN_KNOMIAL_CHILDREN, "KNOMIAL_CHILDREN")                                \
	X(FN_KNOMIAL_CHILD, "KNOMIAL_CHILD") X(FN_MESH_NEIGHBOR, "MESH_NEIGHBOR")  \
	X(FN_MESH_COORDINATE, "MESH_COORDINATE")                                  \
	X(FN_MESH_DISTANCE, "MESH_DISTANCE") X(FN_PROCESSOR_OF, "PROCESSOR_OF")   \
	X(FN_TASK_OF, "TASK_OF") X(FN_RANDOM_UNIFORM, "RANDOM_UNIFORM")           \
	X(FN_RANDOM_GAUSSIAN, "RANDOM_GAUSSIAN")                                  \
	X(FN_RANDOM_POISSON, "RANDOM_POISSON") X(FN_RANDOM_PARETO, "RANDOM_PARETO") \
	X(FN_FILE_DATA, "FILE_DATA") X(FN_STATIC_FILE_DATA, "STATIC_FILE_DATA")   \
	X(RANGE_LIST, "range {a,b,c}") X(RANGE_PROG1, "range {a,...,z}")          \
	X(RANGE_PROG2, "range {a,b,...,z}") X(RANGE_GEOM, "range {a,ar,ar2,...,z}") \
	X(RANGE_COMP, "range {e FOR EACH ..}")                                    \
	X(VAR_PARAM, "parameter") X(VAR_NUMTASKS, "num_tasks")                    \
	X(VAR_COUNTER, "counter variable") X(VAR_LOOP, "loop/LET variable")       \
	X(VAR_TASK, "task variable")                                              \
	X(TE_ALL, "ALL TASKS") X(TE_ALLVAR, "ALL TASKS v") X(TE_ONE, "TASK e")    \
	X(TE_SUCHTHAT, "TASKS v SUCH THAT") X(TE_RANGE, "TASKS {range}")         \
	X(TE_GROUP, "TASK GROUP g") X(TE_OTHERS, "ALL OTHER TASKS")              \
	X(ST_SEND_SYNC, "sync send") X(ST_SEND_ASYNC, "async send + await")      \
	X(ST_WHO_RECEIVES, "send WHO RECEIVES IT") X(ST_RECEIVE, "RECEIVES + UNSUSPECTING") \
	X(ST_MULTICAST, "MULTICASTS") X(ST_REDUCE_ALL, "REDUCES (all-reduce)")   \
	X(ST_REDUCE_TO, "REDUCES ... TO tasks") X(ST_SYNC, "SYNCHRONIZES")       \
	X(ST_COMPUTE, "COMPUTES FOR") X(ST_SLEEP, "SLEEPS FOR")                   \
	X(ST_TOUCH, "TOUCHES memory region") X(ST_TOUCH_BUF, "TOUCHES buffers")  \
	X(ST_LOG, "LOGS") X(ST_AGGREGATES, "COMPUTES AGGREGATES")                 \
	X(ST_RESET, "RESETS COUNTERS") X(ST_STORE, "STORES/RESTORES COUNTERS")    \
	X(ST_ASSERT, "ASSERT") X(ST_OUTPUT, "OUTPUTS") X(ST_ASSIGN, "ASSIGNED TO PROCESSOR") \
	X(ST_AWAIT, "AWAITS COMPLETION") X(ST_IO, "READS/WRITES")                 \
	X(ST_IO_OPEN, "OPENS/CLOSES FILE")                                        \
	X(ST_DCNW, "GENERATES MESSAGES (DCNW)") X(ST_FLOWS, "GENERATES FLOWS")    \
	X(ST_HOROVOD, "TRAINS WITH HOROVOD")                                      \
	X(ST_BACKEND, "BACKEND EXECUTES UNION_Compute")                           \
	X(ST_BACKEND_COLL, "BACKEND EXECUTES collective")                         \
	X(ST_BLOCK, "{ ... }") X(ST_FOR_REPS, "FOR n REPETITIONS")                \
	X(ST_FOR_WARMUP, "FOR .. PLUS WARMUP") X(ST_FOR_EACH, "FOR EACH")         \
	X(ST_FOR_TIME, "FOR time (timed loop)") X(ST_LET, "LET")                  \
	X(ST_LET_GROUP, "LET group") X(ST_LET_RANDOM, "LET A RANDOM TASK")        \
	X(ST_IF, "IF") X(ST_IF_ELSE, "IF .. OTHERWISE") X(ST_ERROR, "deliberate error") \
	X(MS_UNIQUE, "UNIQUE message") X(MS_ALIGN, "ALIGNED/MISALIGNED")          \
	X(MS_TOUCHING, "WITH DATA TOUCHING") X(MS_VERIFY, "WITH VERIFICATION")    \
	X(MS_TAG, "USING TAG") X(MS_BUFFER, "FROM BUFFER")                        \
	X(AG_EACH, "log each") X(AG_ONLY, "log THE") X(AG_MEAN, "log MEAN")       \
	X(AG_HMEAN, "log HARMONIC MEAN") X(AG_GMEAN, "log GEOMETRIC MEAN")        \
	X(AG_MEDIAN, "log MEDIAN") X(AG_MAD, "log MEDIAN ABSOLUTE DEVIATION")      \
	X(AG_STDDEV, "log STANDARD DEVIATION") X(AG_VARIANCE, "log VARIANCE")     \
	X(AG_SUM, "log SUM") X(AG_MIN, "log MINIMUM") X(AG_MAX, "log MAXIMUM")    \
	X(AG_FINAL, "log FINAL") X(AG_PERCENTILE, "log PERCENTILE")               \
	X(AG_HISTOGRAM, "log HISTOGRAM") X(OUT_VALUE_OF, "THE VALUE OF")

enum gen_feature {
#define GEN_ENUM_(id, name) GF_##id,
	GEN_FEATURES(GEN_ENUM_)
#undef GEN_ENUM_
	GF_COUNT
};

/* What an expression may use besides literals and uniform variables. */
enum gen_allow {
	GA_FLOAT = 1u << 0,    /* floating-point context (OUTPUTS, LOGS) */
	GA_RANDOM = 1u << 1,   /* RANDOM_* and FILE_DATA */
	GA_COUNTERS = 1u << 2, /* bytes_sent, elapsed_usecs, ... */
	GA_MYTASK = 1u << 3,   /* MY TASK (IF conditions with task-local bodies) */
	GA_NOPARAM = 1u << 4,  /* no program parameter, no counter (parameter defaults) */
};

/* The context of one expression: what it may use and which task variables are bound. */
typedef struct gen_env {
	unsigned allow;     /* enum gen_allow */
	const char *tvar[2]; /* task variables of the statement (NULL: none) */
} gen_env;

#define GEN_MAX_VARS 32
#define GEN_NPARAMS 3

typedef struct gen {
	uint64_t rng;
	char *out;
	size_t len, cap;
	int next_id;             /* preorder number of the next statement node */
	const unsigned char *drop; /* drop[id] != 0: cut node id out (NULL: none) */
	int ndrop;
	const char *vars[GEN_MAX_VARS]; /* uniform integer variables in scope */
	int nvars;
	const char *groups[GEN_MAX_VARS]; /* task groups in scope (targets allowed) */
	int ngroups;
	int names;               /* counter for fresh names */
	int depth;               /* statement nesting */
	int iters;               /* product of the enclosing loops' maximum trip counts */
	int in_timed;            /* inside a timed loop (they may not nest) */
	int local_only;          /* inside IF MY TASK: no communication, no collectives */
	int uses_log;            /* some LOGS was written */
	int file_open;           /* inside an OPENS FILE block */
	int in_store;            /* between STORES and RESTORES (no remapping: the RESTORES names the same tasks) */
	const char *data_file;   /* path for FILE_DATA (NULL: no file functions) */
	int error_pct;           /* percent of programs with one deliberate error */
	int max_stmts, max_depth;
	int nested_ranges;       /* ranges inside ranges, comprehensions anywhere (default; 0: --flat-ranges) */
	int comp_here;           /* the range being written is a FOR EACH range */
	int in_range;            /* writing the values of a range */
	unsigned long cov[GF_COUNT];
} gen;

/* ---- gen_prog.c: output, randomness, nodes */

/* A uniform integer in [lo, hi]. */
int64_t gen_int(gen *g, int64_t lo, int64_t hi);
/* 1 with probability pct percent. */
int gen_chance(gen *g, int pct);
/* Appends printf-style text to the program. */
void gen_printf(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends the text of program bytes [from, to) (copied before the buffer moves). */
void gen_repeat(gen *g, size_t from, size_t to);
/* Cuts the text from byte `from` to the end out of the program and returns it (heap). */
char *gen_take(gen *g, size_t from);
/* Counts one use of feature f. */
void gen_cover(gen *g, enum gen_feature f);
/* Writes a fresh identifier with the given prefix into name[16]. */
void gen_fresh(gen *g, const char *prefix, char name[16]);

/* ---- gen_expr.c: arithmetic and relational expressions */

/* Any integer- or float-valued expression (depth bounds its size). */
void gen_expr(gen *g, const gen_env *e, int depth);
/* An expression whose value, in integer context, lies in [lo, hi] (hi > lo). */
void gen_bounded(gen *g, const gen_env *e, int64_t lo, int64_t hi);
/* gen_bounded between two pieces of text (a keyword before, a unit after). */
void gen_bounded_in(gen *g, const gen_env *e, const char *before, int64_t lo, int64_t hi, const char *after);
/* A relational expression. */
void gen_rel(gen *g, const gen_env *e, int depth);
/* A relational expression that is always true (for ASSERT). */
void gen_tautology(gen *g, const gen_env *e);
/* A range list (no random functions); returns an upper bound of its number of values. */
int gen_range(gen *g, const gen_env *e);

/* ---- gen_stmt.c: statements */

/* The whole program: header, parameters and top-level statements. */
void gen_program(gen *g, uint64_t seed);

#endif
