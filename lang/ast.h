/*
 * ast.h - the abstract syntax tree of a coNCePTuaL program (language 1.5 plus
 * the ncsim extensions of LANGUAGE.md section 14).
 *
 * The tree is a tagged union: `kind` says which member of `u` is live.  The
 * kinds, their printable names and the enumerations used inside nodes are
 * each generated from one X-macro list, so a kind can never lack a name.
 *
 * Every node has a span (lang/source.h).  A parent's span covers all of its
 * children; nodes that the front end invents (see "implicit" below) take the
 * span of the construct they stand for, or an empty span at its position.
 *
 * All nodes, lists and strings live in the arena of the fe_ctx that parsed
 * them (lang/frontend.h) and are freed with it.  Identifier names are
 * interned per fe_ctx: two identifiers with the same (lower-cased) name have
 * the same `name` pointer, so later passes may compare names by pointer.
 *
 * Desugarings already applied by the parser (LANGUAGE.md section 2.5); a node
 * produced by one has `implicit` set:
 *   - `A`/`AN` as a message count becomes the literal 1;
 *   - an omitted item size becomes a DATA_SIZE of 0 bytes (empty span);
 *   - `data_type SIZED` and `data_type ALIGNED` become DATA_SIZE 1 x type;
 *   - `TASKS {r1},{r2}` becomes TASK_SUCH_THAT with the anonymous variable
 *     AST_ANON_TASK_VAR ("_", which no user identifier can spell) and the
 *     condition `_ IS IN {r1},{r2}`;
 *   - a send without UNSUSPECTING gets a receive-side MSG_SPEC (`recv`) whose
 *     fields are copied from the sender, WHO RECEIVES IT clauses overriding
 *     them one by one; the `inherited` mask says which fields were copied.
 *     Copied fields are deep copies (ast_clone) of the sender's subtrees, so
 *     the AST stays a tree; the copies keep the spans of the originals
 *     (inside the statement, not inside the receive spec); a pass may skip inherited fields when it has
 *     already checked the originals (to avoid reporting an error twice);
 *   - a reduce always has a result spec, inheriting omitted clauses from the
 *     source spec in the same way;
 *   - `THE f1 AND THE f2 OF e AS "h"` becomes one LOG_COLUMN per function,
 *     each with its own copy of e and "h" (`split` is set on the copies);
 *   - unary +, - and NOT applied directly to an integer literal are folded
 *     into the literal (- also for decimal literals);
 *   - parentheses leave no node: the inner node's span grows to cover them;
 *   - empty statements are removed: `{}`, an empty OTHERWISE branch, and
 *     FOR EACH / FOR n REPETITIONS (without AND A SYNCHRONIZATION) / LET /
 *     IF-without-OTHERWISE whose body is empty.  FOR-time loops and loops
 *     with a synchronization are kept with an empty SEQ body.
 *
 * Layout of a typical statement (`task 0 sends a 4 byte message to task 1`):
 *
 *   SEND ── src: TASK_EXPR ── expr: INT 0
 *        ├─ msg: MSG_SPEC ── count: INT 1 (implicit)
 *        │                └─ size: DATA_SIZE ── value: INT 4, unit BYTES
 *        ├─ dst: TASK_EXPR ── expr: INT 1
 *        └─ recv: MSG_SPEC (implicit; every field inherited = copied from msg)
 */
#ifndef NCSIM_LANG_AST_H
#define NCSIM_LANG_AST_H

#include <stdint.h>

#include "lang/source.h"
#include "base/util.h"

/* ------------------------------------------------------------------ kinds */

#define AST_KINDS(X)                                                          \
	/* program and header */                                              \
	X(PROGRAM, "program")                                                 \
	X(VERSION_DECL, "version_decl")                                       \
	X(PARAM_DECL, "param_decl")                                           \
	X(BACKEND_DECL, "backend_decl")                                       \
	/* compound and control statements */                                 \
	X(SEQ, "seq")                                                         \
	X(FOR_EACH, "for_each")                                               \
	X(FOR_REPS, "for_reps")                                               \
	X(FOR_TIME, "for_time")                                               \
	X(LET, "let")                                                         \
	X(IF, "if")                                                           \
	/* simple statements of coNCePTuaL 1.5 */                             \
	X(SEND, "send")                                                       \
	X(MULTICAST, "multicast")                                             \
	X(RECEIVE, "receive")                                                 \
	X(REDUCE, "reduce")                                                   \
	X(COMPUTE, "compute")                                                 \
	X(SLEEP, "sleep")                                                     \
	X(AWAIT, "await")                                                     \
	X(SYNC, "sync")                                                       \
	X(TOUCH_REGION, "touch_region")                                       \
	X(TOUCH_BUFFERS, "touch_buffers")                                     \
	X(LOG, "log")                                                         \
	X(COMPUTE_AGGREGATES, "compute_aggregates")                           \
	X(RESET_COUNTERS, "reset_counters")                                   \
	X(STORE_COUNTERS, "store_counters")                                   \
	X(RESTORE_COUNTERS, "restore_counters")                               \
	X(ASSERT, "assert")                                                   \
	X(OUTPUT, "output")                                                   \
	X(BACKEND_EXEC, "backend_exec")                                       \
	X(ASSIGN_PROC, "assign_proc")                                         \
	/* ncsim extension statements (LANGUAGE.md 14.2, 14.3) */             \
	X(IO_OPEN, "io_open")                                                 \
	X(IO_CLOSE, "io_close")                                               \
	X(IO_READ, "io_read")                                                 \
	X(IO_WRITE, "io_write")                                               \
	X(TRAFFIC_MESSAGES, "traffic_messages")                               \
	X(TRAFFIC_FLOWS, "traffic_flows")                                     \
	X(TRAFFIC_HOROVOD, "traffic_horovod")                                 \
	X(TRAFFIC_REPLAY, "traffic_replay")                                   \
	/* parts of statements */                                             \
	X(MSG_SPEC, "msg_spec")                                               \
	X(DATA_SIZE, "data_size")                                             \
	X(DURATION, "duration")                                               \
	X(LOG_COLUMN, "log_column")                                           \
	X(BINDING, "binding")                                                 \
	X(RANDOM_TASK, "random_task")                                         \
	X(DEST_DIST, "dest_dist")                                             \
	X(FLOW_CLASS, "flow_class")                                           \
	X(HOROVOD_PARAM, "horovod_param")                                     \
	X(HOROVOD_LAYER, "horovod_layer")                                     \
	/* task descriptions */                                               \
	X(TASK_EXPR, "task_expr")                                             \
	X(TASK_SUCH_THAT, "task_such_that")                                   \
	X(TASK_ALL, "task_all")                                               \
	X(TASK_ALL_OTHERS, "task_all_others")                                 \
	X(TASK_GROUP, "task_group")                                           \
	/* arithmetic expressions and their leaves */                         \
	X(INT, "int")                                                         \
	X(DECIMAL, "decimal")                                                 \
	X(IDENT, "ident")                                                     \
	X(STRING, "string")                                                   \
	X(VALUE_OF, "value_of")                                               \
	X(UNARY, "unary")                                                     \
	X(BINARY, "binary")                                                   \
	X(IFELSE, "ifelse")                                                   \
	X(CALL, "call")                                                       \
	X(REAL_CAST, "real_cast")                                             \
	X(MESH, "mesh")                                                       \
	X(DIMENSION, "dimension")                                             \
	X(MY_TASK, "my_task")                                                 \
	X(FILE_DATA, "file_data")                                             \
	/* relational expressions */                                          \
	X(COMPARE, "compare")                                                 \
	X(PARITY, "parity")                                                   \
	X(IN_RANGES, "in_ranges")                                             \
	X(IN_INTERVAL, "in_interval")                                         \
	X(LOGIC, "logic")                                                     \
	/* ranges */                                                          \
	X(RANGE_ENUM, "range_enum")                                           \
	X(RANGE_PROG, "range_prog")                                           \
	X(RANGE_COMP, "range_comp")                                           \
	X(GENERATOR, "generator")

typedef enum ast_kind {
#define AST_X_(id, name) AST_##id,
	AST_KINDS(AST_X_)
#undef AST_X_
	AST_KIND_COUNT
} ast_kind;

/* ------------------------------------------------------ enumerations */

/* Binary arithmetic operators, grouped by precedence level (3.2). */
#define AST_BINOPS(X)                                                         \
	X(ADD, "+") X(SUB, "-") X(BOR, "|") X(XOR, "xor")                     \
	X(MUL, "*") X(DIV, "/") X(MOD, "mod") X(SHR, ">>") X(SHL, "<<")       \
	X(BAND, "&") X(POW, "**")
/* Prefix operators. */
#define AST_UNOPS(X) X(NEG, "-") X(PLUS, "+") X(NOT, "not")
/* Comparisons of eq_expr (DIVIDES: `a DIVIDES b` is b MOD a = 0). */
#define AST_CMPOPS(X)                                                         \
	X(EQ, "=") X(NE, "<>") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=")  \
	X(DIVIDES, "divides")
/* Short-circuit connectives of relational expressions. */
#define AST_LOGICOPS(X) X(AND, "/\\") X(OR, "\\/")
/* func_name (Appendix A rules 255-277).  REAL, MESH_* and FILE_DATA have
 * their own node kinds. */
#define AST_FUNCS(X)                                                          \
	X(ABS, "abs") X(BITS, "bits") X(CBRT, "cbrt") X(CEILING, "ceiling")   \
	X(FACTOR10, "factor10") X(FLOOR, "floor")                             \
	X(KNOMIAL_CHILD, "knomial_child")                                     \
	X(KNOMIAL_CHILDREN, "knomial_children")                               \
	X(KNOMIAL_PARENT, "knomial_parent") X(LOG10, "log10")                 \
	X(MAX, "max") X(MIN, "min") X(PROCESSOR_OF, "processor_of")           \
	X(RANDOM_GAUSSIAN, "random_gaussian")                                 \
	X(RANDOM_PARETO, "random_pareto")                                     \
	X(RANDOM_POISSON, "random_poisson")                                   \
	X(RANDOM_UNIFORM, "random_uniform") X(ROOT, "root") X(ROUND, "round") \
	X(SQRT, "sqrt") X(TASK_OF, "task_of") X(TREE_CHILD, "tree_child")     \
	X(TREE_PARENT, "tree_parent")
/* The three mesh/torus functions. */
#define AST_MESHFUNCS(X)                                                      \
	X(NEIGHBOR, "mesh_neighbor") X(COORDINATE, "mesh_coordinate")         \
	X(DISTANCE, "mesh_distance")
/* data_multiplier and data_type words (3.4).  Only the first two columns of
 * a data_type (BYTES..PAGES except BITS/K/M/GBYTE) are valid types. */
#define AST_DATA_UNITS(X)                                                     \
	X(BITS, "bits") X(BYTES, "bytes") X(KILOBYTES, "kilobytes")           \
	X(MEGABYTES, "megabytes") X(GIGABYTES, "gigabytes")                   \
	X(HALFWORDS, "halfwords") X(WORDS, "words") X(INTEGERS, "integers")   \
	X(DOUBLEWORDS, "doublewords") X(QUADWORDS, "quadwords")               \
	X(PAGES, "pages")
/* time_unit words; NANOSECONDS and CYCLES are ncsim extensions (1 cycle = 1 ns). */
#define AST_TIME_UNITS(X)                                                     \
	X(NANOSECONDS, "nanoseconds") X(CYCLES, "cycles")                     \
	X(MICROSECONDS, "microseconds") X(MILLISECONDS, "milliseconds")       \
	X(SECONDS, "seconds") X(MINUTES, "minutes") X(HOURS, "hours")         \
	X(DAYS, "days")
/* Aggregate of a log column.  NONE: every value (`e`, `EACH e`); ONLY: `THE e`. */
#define AST_AGGS(X)                                                           \
	X(NONE, "none") X(ONLY, "only") X(MEAN, "mean")                       \
	X(HARMONIC_MEAN, "harmonic_mean") X(GEOMETRIC_MEAN, "geometric_mean") \
	X(MEDIAN, "median") X(MAD, "median_absolute_deviation")               \
	X(STDEV, "standard_deviation") X(VARIANCE, "variance") X(SUM, "sum")  \
	X(MINIMUM, "minimum") X(MAXIMUM, "maximum") X(FINAL, "final")         \
	X(PERCENTILE, "percentile") X(HISTOGRAM, "histogram")
/* Constraint of `A RANDOM TASK ...` in a LET binding. */
#define AST_RANDCONS(X)                                                       \
	X(ANY, "any") X(OTHER_THAN, "other_than") X(LESS_THAN, "less_than")   \
	X(GREATER_THAN, "greater_than") X(IN_INTERVAL, "in_interval")
/* Destination distributions of traffic statements (14.3). */
#define AST_DISTS(X) X(UNIFORM, "uniform") X(GAUSSIAN, "gaussian") X(POISSON, "poisson")
/* HOROVOD parameters (14.3). */
#define AST_HVPARAMS(X)                                                       \
	X(COMPUTE, "compute") X(NEGOTIATION_LOOP, "negotiation_loop")         \
	X(GATHERV, "gatherv") X(GATHERV_TOTAL, "gatherv_total")               \
	X(GATHERV_PROBABILITY, "gatherv_probability")                         \
	X(BROADCAST, "broadcast") X(ALLREDUCE, "allreduce")

#define AST_ENUM_X_(pfx, id, name) pfx##id,
#define AST_BINOP_X_(id, name) AST_OP_##id,
#define AST_UNOP_X_(id, name) AST_UOP_##id,
#define AST_CMPOP_X_(id, name) AST_CMP_##id,
#define AST_LOGICOP_X_(id, name) AST_LOGIC_##id,
#define AST_FUNC_X_(id, name) AST_FN_##id,
#define AST_MESHFN_X_(id, name) AST_MESH_##id,
#define AST_DUNIT_X_(id, name) AST_DU_##id,
#define AST_TUNIT_X_(id, name) AST_TU_##id,
#define AST_AGG_X_(id, name) AST_AGG_##id,
#define AST_RANDCON_X_(id, name) AST_RT_##id,
#define AST_DIST_X_(id, name) AST_DIST_##id,
#define AST_HVPARAM_X_(id, name) AST_HV_##id,
typedef enum ast_binop { AST_BINOPS(AST_BINOP_X_) AST_BINOP_COUNT } ast_binop;
typedef enum ast_unop { AST_UNOPS(AST_UNOP_X_) AST_UNOP_COUNT } ast_unop;
typedef enum ast_cmpop { AST_CMPOPS(AST_CMPOP_X_) AST_CMPOP_COUNT } ast_cmpop;
typedef enum ast_logicop { AST_LOGICOPS(AST_LOGICOP_X_) AST_LOGICOP_COUNT } ast_logicop;
typedef enum ast_func { AST_FUNCS(AST_FUNC_X_) AST_FUNC_COUNT } ast_func;
typedef enum ast_meshfn { AST_MESHFUNCS(AST_MESHFN_X_) AST_MESHFN_COUNT } ast_meshfn;
typedef enum ast_data_unit { AST_DATA_UNITS(AST_DUNIT_X_) AST_DATA_UNIT_COUNT } ast_data_unit;
typedef enum ast_time_unit { AST_TIME_UNITS(AST_TUNIT_X_) AST_TIME_UNIT_COUNT } ast_time_unit;
typedef enum ast_agg { AST_AGGS(AST_AGG_X_) AST_AGG_COUNT } ast_agg;
typedef enum ast_randcons { AST_RANDCONS(AST_RANDCON_X_) AST_RANDCONS_COUNT } ast_randcons;
typedef enum ast_dist { AST_DISTS(AST_DIST_X_) AST_DIST_COUNT } ast_dist;
typedef enum ast_hvparam { AST_HVPARAMS(AST_HVPARAM_X_) AST_HVPARAM_COUNT } ast_hvparam;

/* Alignment of a message buffer (7). NONE covers both omitted and UNALIGNED. */
typedef enum ast_align { AST_ALIGN_NONE, AST_ALIGN_ALIGNED, AST_ALIGN_MISALIGNED } ast_align;
/* Touching of message data (7). The two WITHOUT forms are NONE. */
typedef enum ast_touch { AST_TOUCH_NONE, AST_TOUCH_DATA, AST_TOUCH_VERIFY } ast_touch;
/* Which buffers a TOUCH_BUFFERS statement touches (8.9). */
typedef enum ast_bufsel { AST_BUF_ALL, AST_BUF_CURRENT, AST_BUF_NUMBERED } ast_bufsel;
/* Stride of a TOUCH_REGION statement (8.8). */
typedef enum ast_stride { AST_STRIDE_DEFAULT, AST_STRIDE_RANDOM, AST_STRIDE_EXPLICIT } ast_stride;
/* Access mode of IO_OPEN (14.2). DEFAULT: no FOR clause. */
typedef enum ast_iomode { AST_IO_DEFAULT, AST_IO_READING, AST_IO_WRITING, AST_IO_READWRITE } ast_iomode;

/* Bits of ast_msg_spec.inherited: fields copied from the sender/source spec. */
enum {
	AST_INH_COUNT = 1 << 0, AST_INH_SIZE = 1 << 1, AST_INH_UNIQUE = 1 << 2,
	AST_INH_ALIGN = 1 << 3, AST_INH_TOUCH = 1 << 4, AST_INH_TAG = 1 << 5,
	AST_INH_BUFFER = 1 << 6, AST_INH_ASYNC = 1 << 7, AST_INH_TYPE = 1 << 8,
};

/* Name of the anonymous variable of `TASKS {ranges}` (interned like any name). */
#define AST_ANON_TASK_VAR "_"

/* ------------------------------------------------------------ nodes */

typedef struct ast_node ast_node;

/* An array of child nodes (arena storage). */
typedef struct ast_list {
	ast_node **items;
	uint32_t len, cap;
} ast_list;

/* A statement that only names its acting tasks: AWAIT, SYNC,
 * COMPUTE_AGGREGATES, RESET/STORE/RESTORE_COUNTERS. */
struct ast_tasks_only { ast_node *tasks; };

struct ast_node {
	ast_kind kind;
	uint8_t implicit;   /* invented by a desugaring, not written by the user */
	uint16_t parens;    /* pairs of parentheses written around it (saturates at 65535) */
	src_span span;
	void *sema;         /* free for later passes (NULL after parsing) */
	union {
		/* PROGRAM: header declarations, then one SEQ per top-level statement */
		struct { ast_list headers, stmts; } program;
		/* VERSION_DECL: REQUIRE LANGUAGE VERSION string */
		struct { ast_node *version; } version_decl;
		/* PARAM_DECL: var IS "description" AND COMES FROM "long" OR "short"
		 * WITH DEFAULT def */
		struct { ast_node *var, *description, *long_opt, *short_opt, *def; } param_decl;
		/* BACKEND_DECL: THE BACKEND DECLARES string */
		struct { ast_node *text; } backend_decl;

		/* SEQ: statements joined by THEN (a top-level statement or a block) */
		struct { ast_list items; } seq;
		/* FOR_EACH: FOR EACH var IN ranges body */
		struct { ast_node *var; ast_list ranges; ast_node *body; } for_each;
		/* FOR_REPS: FOR count REPETITIONS [PLUS warmup WARMUP REPETITIONS
		 * [AND A SYNCHRONIZATION]] body; warmup may be NULL */
		struct { ast_node *count, *warmup; int sync; ast_node *body; } for_reps;
		/* FOR_TIME: FOR duration [PLUS warmup WARMUP unit [AND A
		 * SYNCHRONIZATION]] body; durations are DURATION, warmup may be NULL */
		struct { ast_node *duration, *warmup; int sync; ast_node *body; } for_time;
		/* LET: LET binding {AND binding} WHILE body (BINDING nodes) */
		struct { ast_list bindings; ast_node *body; } let;
		/* IF: IF cond THEN then [OTHERWISE otherwise]; otherwise may be NULL */
		struct { ast_node *cond, *then, *otherwise; } if_;

		/* SEND: src [ASYNC] SENDS msg TO [UNSUSPECTING] dst [WHO RECEIVES IT
		 * ...]; recv is the receiver's spec (NULL when unsuspecting) */
		struct { ast_node *src, *msg, *dst, *recv; int unsuspecting, who_receives; } send;
		/* MULTICAST: src [ASYNC] MULTICASTS msg TO dst */
		struct { ast_node *src, *msg, *dst; } multicast;
		/* RECEIVE: tasks [ASYNC] RECEIVES msg FROM from */
		struct { ast_node *tasks, *msg, *from; } receive;
		/* REDUCE: src REDUCES msg [TO dst [WHO RECEIVES THE RESULT ...] |
		 * TO spec]; dst NULL = all-reduce among src; result always set;
		 * result_explicit: the user wrote a target spec */
		struct { ast_node *src, *msg, *dst, *result; int result_explicit; } reduce;
		/* COMPUTE, SLEEP: tasks COMPUTES|SLEEPS FOR duration (DURATION) */
		struct { ast_node *tasks, *duration; } delay;
		/* AWAIT, SYNC, COMPUTE_AGGREGATES, RESET/STORE/RESTORE_COUNTERS */
		struct ast_tasks_only simple;
		/* TOUCH_REGION: tasks TOUCHES [words word_type OF] AN region MEMORY
		 * REGION [repeat TIMES] [WITH RANDOM STRIDE | WITH STRIDE stride];
		 * words, repeat and stride may be NULL; region is a DATA_SIZE */
		struct {
			ast_node *tasks, *words; ast_data_unit word_type;
			ast_node *region, *repeat; ast_stride stride_kind; ast_node *stride;
		} touch_region;
		/* TOUCH_BUFFERS: tasks TOUCHES ALL|THE CURRENT MESSAGE BUFFERS |
		 * MESSAGE BUFFER buffer (buffer NULL unless NUMBERED) */
		struct { ast_node *tasks; ast_bufsel which; ast_node *buffer; } touch_buffers;
		/* LOG: tasks LOGS column {AND column} (LOG_COLUMN nodes) */
		struct { ast_node *tasks; ast_list columns; } log;
		/* ASSERT: ASSERT THAT message WITH cond */
		struct { ast_node *message, *cond; } assert_;
		/* OUTPUT, BACKEND_EXEC: items are expressions, STRING or VALUE_OF */
		struct { ast_node *tasks; ast_list items; } output;
		/* ASSIGN_PROC: tasks ARE ASSIGNED TO PROCESSOR proc; proc NULL = random */
		struct { ast_node *tasks, *proc; } assign_proc;

		/* IO_OPEN: tasks OPENS FILE file [FOR mode] */
		struct { ast_node *tasks, *file; ast_iomode mode; } io_open;
		/* IO_CLOSE: tasks CLOSES FILE file */
		struct { ast_node *tasks, *file; } io_close;
		/* IO_READ, IO_WRITE: tasks [ASYNC] READS|WRITES size [FROM|TO FILE
		 * file] [AT OFFSET offset]; file NULL = file 0, offset NULL =
		 * sequential; size and offset are DATA_SIZE */
		struct { ast_node *tasks; int async; ast_node *size, *file, *offset; } io;
		/* TRAFFIC_MESSAGES: tasks GENERATES count MESSAGES OF model TRAFFIC
		 * [TO dest DESTINATIONS] [AT rate GBPS]; model is IDENT (a model
		 * name) or STRING (a CDF file); dest and rate may be NULL */
		struct { ast_node *tasks, *count, *model, *dest, *rate; } traffic_messages;
		/* TRAFFIC_FLOWS: tasks GENERATES count FLOWS OVER over [TO dest
		 * DESTINATIONS] WITH CLASSES {class, ...} (FLOW_CLASS nodes) */
		struct { ast_node *tasks, *count, *over, *dest; ast_list classes; } traffic_flows;
		/* TRAFFIC_HOROVOD: tasks TRAINS WITH HOROVOD FOR batches BATCHES OF
		 * layers LAYERS WITH params {AND LAYER ...} (HOROVOD_PARAM and
		 * HOROVOD_LAYER nodes) */
		struct { ast_node *tasks, *batches, *layers; ast_list params, overrides; } horovod;
		/* TRAFFIC_REPLAY: tasks REPLAYS TRAFFIC FROM path */
		struct { ast_node *tasks, *path; } replay;

		/* MSG_SPEC: one side of a message (7).  count: expression; size:
		 * DATA_SIZE (NULL in reduce specs, which use elem_type); align:
		 * DATA_SIZE or NULL; tag: expression, STRING or NULL (tag 0);
		 * buffer: expression or NULL (default buffer); offset: DATA_SIZE or
		 * NULL.  `inherited` is a mask of AST_INH_* */
		struct {
			ast_node *count, *size, *align, *tag, *buffer, *offset;
			ast_align align_kind; ast_touch touch; ast_data_unit elem_type;
			int unique, async; unsigned inherited;
		} msg;
		/* DATA_SIZE: value unit (bytes = value x unit); unit_implicit when
		 * the user wrote no unit (I/O sizes); `sized`: from data_type SIZED */
		struct { ast_node *value; ast_data_unit unit; int unit_implicit, sized; } size;
		/* DURATION: value unit */
		struct { ast_node *value; ast_time_unit unit; } duration;
		/* LOG_COLUMN: agg expr AS heading; percentile set for PERCENTILE;
		 * heading is STRING or VALUE_OF */
		struct { ast_agg agg; ast_node *percentile, *expr, *heading; int split; } log_column;
		/* BINDING: var BE value; value is an expression, a task description
		 * (a LET group) or RANDOM_TASK */
		struct { ast_node *var, *value; } binding;
		/* RANDOM_TASK: A RANDOM TASK [OTHER THAN a | LESS THAN a | GREATER
		 * THAN a | IN [a, b]] [BUT NOT but_not]; unused fields are NULL */
		struct { ast_randcons cons; ast_node *a, *b, *but_not; } random_task;
		/* DEST_DIST: UNIFORM | GAUSSIAN [WITH MEAN m AND DEVIATION d] |
		 * POISSON [WITH MEAN m]; mean/deviation NULL = model default */
		struct { ast_dist dist; ast_node *mean, *deviation; } dest_dist;
		/* FLOW_CLASS: min TO max unit FOR percent PERCENT [TO dest
		 * DESTINATIONS]; min and max are DATA_SIZE with the same unit */
		struct { ast_node *min, *max, *percent, *dest; } flow_class;
		/* HOROVOD_PARAM: value is DURATION (COMPUTE, NEGOTIATION_LOOP),
		 * DATA_SIZE (GATHERV*, BROADCAST, ALLREDUCE) or an expression
		 * (GATHERV_PROBABILITY) */
		struct { ast_hvparam param; ast_node *value; } hv_param;
		/* HOROVOD_LAYER: AND LAYER layer WITH params */
		struct { ast_node *layer; ast_list params; } hv_layer;

		/* TASK_EXPR: TASK expr */
		struct { ast_node *expr; } task_expr;
		/* TASK_SUCH_THAT: TASKS var SUCH THAT cond (anonymous: from TASKS {..}) */
		struct { ast_node *var, *cond; int anonymous; } such_that;
		/* TASK_ALL: ALL TASKS [var]; var may be NULL */
		struct { ast_node *var; } task_all;
		/* TASK_GROUP: TASK GROUP name */
		struct { ast_node *name; } task_group;
		/* TASK_ALL_OTHERS has no fields */

		/* INT: literal (after unary folding) */
		struct { int64_t value; } int_;
		/* DECIMAL: ncsim decimal literal (14.1) */
		struct { double value; } decimal;
		/* IDENT: lower-cased interned name */
		struct { const char *name; } ident;
		/* STRING: escapes decoded; text is NUL-terminated, len excludes it */
		struct { const char *text; uint32_t len; } string;
		/* VALUE_OF: THE VALUE OF str */
		struct { ast_node *str; } value_of;
		/* UNARY */
		struct { ast_unop op; ast_node *operand; } unary;
		/* BINARY */
		struct { ast_binop op; ast_node *lhs, *rhs; } binary;
		/* IFELSE: then IF cond OTHERWISE otherwise */
		struct { ast_node *then, *cond, *otherwise; } ifelse;
		/* CALL: fn(args) */
		struct { ast_func fn; ast_list args; } call;
		/* REAL_CAST: REAL(operand) */
		struct { ast_node *operand; } real_cast;
		/* MESH: fn((dims), task, offsets...) for NEIGHBOR, fn((dims), task,
		 * other) for COORDINATE/DISTANCE; dims are DIMENSION nodes */
		struct { ast_meshfn fn; ast_list dims; ast_node *task; ast_list offsets; ast_node *other; } mesh;
		/* DIMENSION: extent [*] (torus: the dimension wraps around) */
		struct { ast_node *extent; int torus; } dimension;
		/* MY_TASK has no fields */
		/* FILE_DATA: [STATIC_]FILE_DATA(args): STRING, then up to two
		 * expressions and two STRINGs, as written */
		struct { int is_static; ast_list args; } file_data;

		/* COMPARE: lhs op rhs */
		struct { ast_cmpop op; ast_node *lhs, *rhs; } compare;
		/* PARITY: operand IS EVEN|ODD */
		struct { int odd; ast_node *operand; } parity;
		/* IN_RANGES: operand IS [NOT] IN ranges */
		struct { int negated; ast_node *operand; ast_list ranges; } in_ranges;
		/* IN_INTERVAL: operand IS [NOT] IN [lo, hi] (deprecated form) */
		struct { int negated; ast_node *operand, *lo, *hi; } in_interval;
		/* LOGIC: lhs /\ rhs, lhs \/ rhs */
		struct { ast_logicop op; ast_node *lhs, *rhs; } logic;

		/* RANGE_ENUM: {items} */
		struct { ast_list items; } range_enum;
		/* RANGE_PROG: {items, ..., last} */
		struct { ast_list items; ast_node *last; } range_prog;
		/* RANGE_COMP: {expr FOR EACH ... [WHERE where]}; gens are GENERATOR
		 * nodes, outermost first; where may be NULL */
		struct { ast_node *expr; ast_list gens; ast_node *where; } range_comp;
		/* GENERATOR: FOR EACH var IN ranges */
		struct { ast_node *var; ast_list ranges; } generator;
	} u;
};

/* ------------------------------------------------------------ functions */

/* Printable name of a node kind ("send", "int", ...). */
const char *ast_kind_name(ast_kind k);
/* Source spelling of a binary operator ("+", "mod", ...). */
const char *ast_binop_name(ast_binop op);
/* Source spelling of a prefix operator. */
const char *ast_unop_name(ast_unop op);
/* Source spelling of a comparison. */
const char *ast_cmpop_name(ast_cmpop op);
/* Source spelling of a relational connective. */
const char *ast_logicop_name(ast_logicop op);
/* Lower-case name of a built-in function. */
const char *ast_func_name(ast_func fn);
/* Lower-case name of a mesh function. */
const char *ast_meshfn_name(ast_meshfn fn);
/* Plural lower-case name of a data unit. */
const char *ast_data_unit_name(ast_data_unit u);
/* Plural lower-case name of a time unit. */
const char *ast_time_unit_name(ast_time_unit u);
/* Name of an aggregate. */
const char *ast_agg_name(ast_agg a);
/* Name of a random-task constraint. */
const char *ast_randcons_name(ast_randcons c);
/* Name of a destination distribution. */
const char *ast_dist_name(ast_dist d);
/* Name of a HOROVOD parameter. */
const char *ast_hvparam_name(ast_hvparam p);

/* Bytes per unit, or 0 for the target-dependent INTEGERS and PAGES and for
 * BITS (which round up: bytes = ceil(n/8)). */
uint64_t ast_data_unit_bytes(ast_data_unit u);
/* Picoseconds per time unit (1 cycle = 1 ns). */
uint64_t ast_time_unit_ps(ast_time_unit u);
/* True for the units that are valid data_types (BYTES..PAGES without BITS
 * and KILO/MEGA/GIGABYTES). */
int ast_data_unit_is_type(ast_data_unit u);

/* A zeroed node of kind k with span sp, allocated in a. */
ast_node *ast_new(arena *a, ast_kind k, src_span sp);
/* Appends n to l, growing it in arena a. */
void ast_list_push(arena *a, ast_list *l, ast_node *n);
/* Reverses l in place (right-recursive grammar rules collect backwards). */
void ast_list_reverse(ast_list *l);

/* True for the kinds that are statements (SEQ .. TRAFFIC_REPLAY). */
int ast_is_stmt(ast_kind k);
/* True for the kinds that are task descriptions. */
int ast_is_task_desc(ast_kind k);
/* True for relational-expression kinds (COMPARE .. LOGIC). */
int ast_is_rel(ast_kind k);
/* The acting task description of a statement, or NULL (control statements,
 * ASSERT). For RECEIVE it is the receiving tasks. */
ast_node *ast_stmt_tasks(const ast_node *n);

/* Calls fn on every non-NULL child of n in source order (list members
 * included, inherited MSG_SPEC fields included).  Does not recurse. */
void ast_foreach_child(ast_node *n, void (*fn)(ast_node *child, void *ud), void *ud);
/* A deep copy of n (NULL gives NULL) in arena a; `sema` is not copied.
 * Iterative: safe on a tree of any depth. */
ast_node *ast_clone(arena *a, const ast_node *n);

#endif
