/*
 * parser.y - the coNCePTuaL 1.5 grammar (LANGUAGE.md Appendix A) plus the
 * ncsim extensions (LANGUAGE.md 14), building the AST of lang/ast.h.
 *
 * Rules 1-309 are Appendix A, transcribed one alternative per rule and in
 * the same order, so that bison's default conflict resolution (shift; for
 * reduce/reduce the earlier rule) reproduces the reference PLY tables.  The
 * extension rules follow in their own section.  `bison --report=state`
 * numbers the transcribed rules exactly like Appendix A.
 *
 * Conflicts (bison 3.8).  Appendix A alone has 105 shift/reduce and 1
 * reduce/reduce conflicts, all resolved as PLY resolves them (LANGUAGE.md
 * 2.3).  In the report (bison --report=state) they sit in six states:
 *   - 3 S/R: `ifelse_expr: add_expr .` before `+`, `-` or IF.  An
 *     expression absorbs a following IF, `+` or `-` (shift): `a 3 -1 byte
 *     message` subtracts, and a statement ending in an expression cannot
 *     be directly followed by an IF statement without a period;
 *   - 1 S/R: the dangling OTHERWISE (rules 50/51): shift, OTHERWISE binds
 *     to the nearest IF;
 *   - 7 + 7 S/R: `item_count unique .` in a reduce spec (rules 153/154 and
 *     156/157) before a data_type: shift, so the type is read as the
 *     element type rather than as the start of an alignment;
 *   - 44 + 43 S/R: `item_count unique .` in message_spec (148/149) and
 *     message_spec_into (150) before a token that can start an expression or
 *     a data_type: shift into the item size or alignment rather than reduce
 *     `item_size -> e`, so `4 byte messages` is a parse error (2.3 item 4);
 *   - 1 R/R in the message_spec state: `message_alignment -> e` (179)
 *     against `item_size -> e` (217) before MESSAGES; the earlier rule wins,
 *     which is harmless because both mean "nothing written".
 * The extensions add 3 S/R, for 108 in all:
 *   - the decimal literal is one more token that can start an expression,
 *     in each of the two message_spec states above (2 S/R, same class);
 *   - `OPENS FILE expr .` before FOR: FOR READING/WRITING is shifted, so an
 *     OPENS statement directly followed by a FOR loop needs a period (the
 *     same rule as "an expression absorbs IF").
 * bison honours %expect-rr only in GLR parsers, and with %expect alone it
 * demands zero reduce/reduce conflicts; the counts are therefore pinned by
 * the build rule in grammar/local.mk, which runs bison and fails unless it
 * reports exactly the numbers on the two `expect-` lines below.  A new
 * conflict thus fails the build.
 *
 *   expect-sr: 108
 *   expect-rr: 1
 *
 * Memory: every semantic value lives in the parse's arena, so discarded
 * symbols need no %destructor (the arena is freed in one go with the AST).
 */
%require "3.6"
%define api.pure full
%define api.prefix {ncp_}
%define api.token.prefix {TOK_}
%define api.location.type {src_span}
%define parse.error custom
%define parse.lac full
%locations
%param {parse_ctx *pc}

%code requires {
#include "lang/ast.h"
#include "lang/source.h"
typedef struct parse_ctx parse_ctx;
/* An optional part of a message specification: `kind` says which form was
 * written (-1 or 0: omitted, see the rules), a and b are its nodes. */
typedef struct pt_part { ast_node *a, *b; int kind; } pt_part;
}

%code provides {
/* Parses the token stream of pc (grammar/tokfilter.h); 0 when no syntax error. */
int ncp_parse(parse_ctx *pc);
/* The location of a right-hand side: the union of its non-empty parts. */
src_span ncp_rhs_span(const src_span *rhs, int n);
/* Bison expands YYLLOC_DEFAULT once per reduction, in yyparse, where `yyn`
 * is the number of the rule being reduced plus one (yacc.c skeleton); the
 * coverage test of the golden corpus counts reductions through it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                         \
	do {                                                                \
		(Cur) = ncp_rhs_span(&YYRHSLOC(Rhs, 0), (N));               \
		if (pc->rule_hits)                                          \
			pc->rule_hits[yyn - 1]++;                           \
	} while (0)
}

%code {
#include <stdlib.h>
#include <string.h>

#include "grammar/tokfilter.h"
#include "grammar/parsehelp.h"

/* Deep right recursion (top-level statements, THEN chains) keeps one stack
 * entry per statement: allow long programs. */
#define YYMAXDEPTH 4000000
static void yyerror(src_span *loc, parse_ctx *pc, const char *msg);
}

%initial-action {
	@$ = span_make(pc->file, 0, UINT32_MAX);   /* empty span at byte 0 */
}

%union {
	ast_node *node;
	ast_list list;
	int ival;
	pt_part part;
}

/* ---------------------------------------------------------------- tokens
 * Order matters to the token filter: every keyword lies between ABS and
 * the last extension keyword, AT (see tf_is_keyword). */
%token END 0 "end of file"
%token <node> INTEGER "an integer" DECIMAL "a decimal number" IDENT_TOKEN "an identifier"
%token <node> STRING_TOKEN "a string"
%token BADCHAR "an invalid character"
%token COMMA "`,`" ELLIPSIS "`...`" PERIOD "`.`" LBRACE "`{`" RBRACE "`}`"
%token LBRACKET "`[`" RBRACKET "`]`" LPAREN "`(`" RPAREN "`)`"
%token LOGIC_AND "`/\\`" LOGIC_OR "`\\/`" OP_PLUS "`+`" OP_MINUS "`-`"
%token OP_MULT "`*`" OP_DIV "`/`" OP_POWER "`**`" OP_AND "`&`" OP_OR "`|`"
%token OP_LSHIFT "`<<`" OP_RSHIFT "`>>`" OP_EQ "`=`" OP_NEQ "`<>`" OP_LT "`<`"
%token OP_GT "`>`" OP_LEQ "`<=`" OP_GEQ "`>=`" STAR "`*` (torus)"
/* the 158 canonical keywords of coNCePTuaL 1.5 */
%token ABS "abs" ABSOLUTE "absolute" AGGREGATES "aggregates" ALIGNED "aligned"
%token ALL "all" AN "a" AND "and" ARE "is" ARITHMETIC "arithmetic" AS "as"
%token ASSERT "assert" ASSIGNED "assigned" ASYNCHRONOUSLY "asynchronously"
%token AWAITS "awaits" BACKEND "backend" BE "be" BITS "bits" BUFFERS "buffer"
%token BUT "but" BYTES "bytes" CBRT "cbrt" CEILING "ceiling" COMES "comes"
%token COMPLETIONS "completion" COMPUTES "computes" COUNTERS "counters"
%token CURRENT "current" DATA "data" DAYS "days" DECLARES "declares"
%token DEFAULT "default" DEVIATION "deviation" DIVIDES "divides"
%token DOUBLEWORDS "doublewords" EACH "each" EVEN "even" EXECUTES "executes"
%token FACTOR10 "factor10" FILE_DATA "file_data" FINAL "final" FLOOR "floor"
%token FOR "for" FROM "from" GEOMETRIC "geometric" GIGABYTE "gigabyte"
%token GREATER "greater" GROUP "group" HALFWORDS "halfwords"
%token HARMONIC "harmonic" HISTOGRAM "histogram" HOURS "hours" IF "if"
%token IN "in" INTEGERS "integers" INTO "into" THEM "it" THEIR "its"
%token KILOBYTE "kilobyte" KNOMIAL_CHILD "knomial_child"
%token KNOMIAL_CHILDREN "knomial_children" KNOMIAL_PARENT "knomial_parent"
%token LANGUAGE "language" LESS "less" LET "let" LOGS "logs" LOG10 "log10"
%token MAX "max" MAXIMUM "maximum" MEAN "mean" MEDIAN "median"
%token MEGABYTE "megabyte" MEMORY "memory" MESH_COORDINATE "mesh_coordinate"
%token MESH_DISTANCE "mesh_distance" MESH_NEIGHBOR "mesh_neighbor"
%token MESSAGES "message" MICROSECONDS "microseconds"
%token MILLISECONDS "milliseconds" MIN "min" MINIMUM "minimum"
%token MINUTES "minutes" MISALIGNED "misaligned" MOD "mod"
%token MULTICASTS "multicasts" MY "my" NONUNIQUE "nonunique" NOT "not"
%token ODD "odd" OF "of" OR "or" OTHER "other" OTHERWISE "otherwise"
%token OUTPUTS "outputs" PAGES "pages" PERCENTILE "percentile" PLUS "plus"
%token PROCESSORS "processor" PROCESSOR_OF "processor_of"
%token QUADWORDS "quadwords" RANDOM "random" RANDOM_GAUSSIAN "random_gaussian"
%token RANDOM_PARETO "random_pareto" RANDOM_POISSON "random_poisson"
%token RANDOM_UNIFORM "random_uniform" REAL "real" RECEIVES "receives"
%token REDUCES "reduces" REGION "region" REPETITIONS "repetitions"
%token REQUIRE "require" RESETS "resets" RESTORES "restores"
%token RESULTS "result" ROOT "root" ROUND "round" SECONDS "seconds"
%token SENDS "sends" SIZED "sized" SLEEPS "sleeps" SQRT "sqrt"
%token STANDARD "standard" STATIC_FILE_DATA "static_file_data"
%token STORES "stores" STRIDE "stride" SUCH "such" SUM "sum"
%token SYNCHRONIZATION "synchronization" SYNCHRONIZES "synchronizes"
%token SYNCHRONOUSLY "synchronously" TAG "tag" TASKS "task" TASK_OF "task_of"
%token THAN "than" THAT "that" THE "the" THEN "then" TIMES "times" TO "to"
%token TOUCHES "touches" TOUCHING "touching" TREE_CHILD "tree_child"
%token TREE_PARENT "tree_parent" UNALIGNED "unaligned" UNIQUE "unique"
%token UNSUSPECTING "unsuspecting" USING "using" VALUE "value"
%token VARIANCE "variance" VERIFICATION "verification" VERSION "version"
%token WARMUP "warmup" WHERE "where" WHILE "while" WHO "who" WITH "with"
%token WITHOUT "without" WORDS "words" XOR "xor"
/* ncsim extension keywords (LANGUAGE.md 14.1); contextual, see tokfilter.c */
%token OPENS "opens" CLOSES "closes" READS "reads" WRITES "writes" FILE "file"
%token OFFSET "offset" READING "reading" WRITING "writing"
%token GENERATES "generates" FLOWS "flows" CLASSES "classes" PERCENT "percent"
%token DESTINATIONS "destinations" UNIFORM "uniform" GAUSSIAN "gaussian"
%token POISSON "poisson" GBPS "gbps" OVER "over" TRAINS "trains"
%token HOROVOD "horovod" BATCHES "batches" LAYERS "layers"
%token NEGOTIATION "negotiation" LOOP "loop" GATHERV "gatherv" TOTAL "total"
%token PROBABILITY "probability" BROADCAST "broadcast" ALLREDUCE "allreduce"
%token REPLAYS "replays" TRAFFIC "traffic" CYCLES "cycles"
%token NANOSECONDS "nanoseconds" AT "at"

%type <list> top_level_stmt_list header_decl_list simple_stmt_list
%type <node> header_decl param_decl version_decl backend_decl top_level_stmt
%type <node> simple_stmt send_stmt mcast_stmt receive_stmt delay_stmt wait_stmt
%type <node> sync_stmt touch_stmt touch_buffer_stmt log_stmt log_flush_stmt
%type <node> reset_stmt store_stmt restore_stmt assert_stmt output_stmt
%type <node> backend_stmt processor_stmt reduce_stmt
%type <node> rel_expr rel_disj_expr rel_conj_expr rel_primary_expr eq_expr
%type <list> aggregate_expr
%type <node> expr ifelse_expr add_expr mult_expr unary_expr power_expr primary_expr
%type <ival> unary_operator
%type <node> message_spec message_spec_into recv_message_spec
%type <node> reduce_message_spec reduce_target_message_spec
%type <ival> opt_an opt_async opt_unsusp unique touching_type
%type <part> tag buffer_number recv_buffer_number message_alignment stride
%type <node> buffer_offset task_expr restricted_ident range where_expr
%type <node> list_comp_expr item_count item_size byte_count aggregate_func
%type <node> dimension let_binding string_or_log_comment
%type <node> touch_repeat_count ident string
%type <list> range_list expr_list aggregate_func_list dimension_list
%type <list> log_expr_list log_expr_list_elt let_binding_list string_or_expr_list
%type <ival> time_unit data_multiplier data_type func_name
/* extensions */
%type <node> io_stmt traffic_stmt io_size io_from io_to io_offset size_model
%type <node> opt_dest dest_dist opt_rate flow_class horovod_param
%type <ival> io_mode
%type <list> flow_class_list horovod_params horovod_layers

%start program

%%

/* ====================================================== Appendix A */

/*   1 */ program: %empty { pc->program = ph_program(pc, @$, NULL, NULL); }
/*   2 */ | header_decl_list { pc->program = ph_program(pc, @$, &$1, NULL); }
/*   3 */ | top_level_stmt_list { pc->program = ph_program(pc, @$, NULL, &$1); }
/*   4 */ | header_decl_list top_level_stmt_list { pc->program = ph_program(pc, @$, &$1, &$2); }
;
/* top_level_stmt_list and header_decl_list are built backwards (right recursion). */
/*   5 */ top_level_stmt_list: top_level_stmt { $$ = ph_list1(pc, $1); }
/*   6 */ | top_level_stmt PERIOD { $$ = ph_list1(pc, $1); }
/*   7 */ | top_level_stmt top_level_stmt_list { $$ = $2; ast_list_push(pc->arena, &$$, $1); }
/*   8 */ | top_level_stmt PERIOD top_level_stmt_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/*   9 */ header_decl_list: header_decl { $$ = ph_list1(pc, $1); }
/*  10 */ | header_decl PERIOD { $$ = ph_list1(pc, $1); }
/*  11 */ | header_decl header_decl_list { $$ = $2; ast_list_push(pc->arena, &$$, $1); }
/*  12 */ | header_decl PERIOD header_decl_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/*  13 */ header_decl: param_decl
/*  14 */ | version_decl
/*  15 */ | backend_decl
;
/*  16 */ param_decl: ident ARE string AND COMES FROM string OR string WITH DEFAULT expr {
		$$ = NEW(PARAM_DECL, @$);
		$$->u.param_decl.var = $1; $$->u.param_decl.description = $3;
		$$->u.param_decl.long_opt = $7; $$->u.param_decl.short_opt = $9;
		$$->u.param_decl.def = $12;
	}
;
/*  17 */ version_decl: REQUIRE LANGUAGE VERSION string { $$ = NEW(VERSION_DECL, @$); $$->u.version_decl.version = $4; }
;
/*  18 */ backend_decl: THE BACKEND DECLARES string { $$ = NEW(BACKEND_DECL, @$); $$->u.backend_decl.text = $4; }
;
/*  19 */ top_level_stmt: simple_stmt_list { $$ = ph_seq(pc, @$, &$1); }
;
/* built backwards */
/*  20 */ simple_stmt_list: simple_stmt { $$ = ph_list1(pc, $1); }
/*  21 */ | simple_stmt THEN simple_stmt_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/*  22 */ simple_stmt: send_stmt
/*  23 */ | mcast_stmt
/*  24 */ | receive_stmt
/*  25 */ | delay_stmt
/*  26 */ | wait_stmt
/*  27 */ | sync_stmt
/*  28 */ | touch_stmt
/*  29 */ | touch_buffer_stmt
/*  30 */ | log_stmt
/*  31 */ | log_flush_stmt
/*  32 */ | reset_stmt
/*  33 */ | store_stmt
/*  34 */ | restore_stmt
/*  35 */ | assert_stmt
/*  36 */ | output_stmt
/*  37 */ | backend_stmt
/*  38 */ | processor_stmt
/*  39 */ | reduce_stmt
/*  40 */ | FOR EACH ident IN range_list simple_stmt {
		$$ = NEW(FOR_EACH, @$);
		$$->u.for_each.var = $3; $$->u.for_each.ranges = ph_rev($5); $$->u.for_each.body = $6;
		$$ = ph_drop_if_empty_body(pc, $$, $6);
	}
/*  41 */ | FOR expr REPETITIONS simple_stmt { $$ = ph_for_reps(pc, @$, $2, NULL, 0, $4); }
/*  42 */ | FOR expr REPETITIONS PLUS expr WARMUP REPETITIONS simple_stmt { $$ = ph_for_reps(pc, @$, $2, $5, 0, $8); }
/*  43 */ | FOR expr REPETITIONS PLUS expr WARMUP REPETITIONS AND AN SYNCHRONIZATION simple_stmt { $$ = ph_for_reps(pc, @$, $2, $5, 1, $11); }
/*  44 */ | FOR expr time_unit simple_stmt { $$ = ph_for_time(pc, @$, ph_duration(pc, span_union(@2, @3), $2, $3), NULL, 0, $4); }
/*  45 */ | FOR expr time_unit PLUS expr WARMUP time_unit simple_stmt {
		$$ = ph_for_time(pc, @$, ph_duration(pc, span_union(@2, @3), $2, $3),
		                 ph_duration(pc, span_union(@5, @7), $5, $7), 0, $8);
	}
/*  46 */ | FOR expr time_unit PLUS expr WARMUP time_unit AND AN SYNCHRONIZATION simple_stmt {
		$$ = ph_for_time(pc, @$, ph_duration(pc, span_union(@2, @3), $2, $3),
		                 ph_duration(pc, span_union(@5, @7), $5, $7), 1, $11);
	}
/*  47 */ | LET let_binding_list WHILE simple_stmt {
		$$ = NEW(LET, @$); $$->u.let.bindings = ph_rev($2); $$->u.let.body = $4;
		$$ = ph_drop_if_empty_body(pc, $$, $4);
	}
/*  48 */ | LBRACE simple_stmt_list RBRACE { $$ = ph_seq(pc, @$, &$2); }
/*  49 */ | LBRACE RBRACE { $$ = NEW(SEQ, @$); }
/*  50 */ | IF rel_expr THEN simple_stmt { $$ = ph_if(pc, @$, $2, $4, NULL); }
/*  51 */ | IF rel_expr THEN simple_stmt OTHERWISE simple_stmt { $$ = ph_if(pc, @$, $2, $4, $6); }
;
/*  52 */ send_stmt: task_expr opt_async SENDS message_spec TO opt_unsusp task_expr {
		$$ = ph_send(pc, @$, $1, $2, $4, $6, $7, NULL, @$);
	}
/*  53 */ | task_expr opt_async SENDS message_spec TO opt_unsusp task_expr WHO RECEIVES THEM recv_message_spec {
		if ($6)
			diag_error(pc->diag, @6, "`unsuspecting` cannot be combined with `who receives it`");
		if (ph_recv_spec_is_empty($11))
			diag_error(pc->diag, span_union(@8, @10), "`who receives it` must be followed by a receive specification");
		$$ = ph_send(pc, @$, $1, $2, $4, 0, $7, $11, span_union(@8, @11));
	}
;
/*  54 */ mcast_stmt: task_expr opt_async MULTICASTS message_spec TO task_expr {
		$$ = NEW(MULTICAST, @$);
		$4->u.msg.async = $2 == 1;
		$$->u.multicast.src = $1; $$->u.multicast.msg = $4; $$->u.multicast.dst = $6;
	}
;
/*  55 */ receive_stmt: task_expr opt_async RECEIVES message_spec_into FROM task_expr {
		$$ = NEW(RECEIVE, @$);
		$4->u.msg.async = $2 == 1;
		$$->u.receive.tasks = $1; $$->u.receive.msg = $4; $$->u.receive.from = $6;
	}
;
/*  56 */ delay_stmt: task_expr COMPUTES FOR expr time_unit { $$ = ph_delay(pc, @$, AST_COMPUTE, $1, ph_duration(pc, span_union(@4, @5), $4, $5)); }
/*  57 */ | task_expr SLEEPS FOR expr time_unit { $$ = ph_delay(pc, @$, AST_SLEEP, $1, ph_duration(pc, span_union(@4, @5), $4, $5)); }
;
/*  58 */ wait_stmt: task_expr AWAITS COMPLETIONS { $$ = ph_simple(pc, @$, AST_AWAIT, $1); }
;
/*  59 */ sync_stmt: task_expr SYNCHRONIZES { $$ = ph_simple(pc, @$, AST_SYNC, $1); }
;
/*  60 */ touch_stmt: task_expr TOUCHES expr data_type OF AN item_size MEMORY REGION touch_repeat_count stride {
		$$ = ph_touch(pc, @$, $1, $3, $4, $7, $10, $11);
	}
/*  61 */ | task_expr TOUCHES AN item_size MEMORY REGION touch_repeat_count stride {
		$$ = ph_touch(pc, @$, $1, NULL, AST_DU_BYTES, $4, $7, $8);
	}
;
/*  62 */ touch_buffer_stmt: task_expr TOUCHES ALL MESSAGES BUFFERS { $$ = ph_touch_buffers(pc, @$, $1, AST_BUF_ALL, NULL); }
/*  63 */ | task_expr TOUCHES THE CURRENT MESSAGES BUFFERS { $$ = ph_touch_buffers(pc, @$, $1, AST_BUF_CURRENT, NULL); }
/*  64 */ | task_expr TOUCHES MESSAGES BUFFERS expr { $$ = ph_touch_buffers(pc, @$, $1, AST_BUF_NUMBERED, $5); }
;
/*  65 */ log_stmt: task_expr LOGS log_expr_list { $$ = NEW(LOG, @$); $$->u.log.tasks = $1; $$->u.log.columns = $3; }
;
/*  66 */ log_flush_stmt: task_expr COMPUTES AGGREGATES { $$ = ph_simple(pc, @$, AST_COMPUTE_AGGREGATES, $1); }
;
/*  67 */ reset_stmt: task_expr RESETS THEIR COUNTERS { $$ = ph_simple(pc, @$, AST_RESET_COUNTERS, $1); }
;
/*  68 */ store_stmt: task_expr STORES THEIR COUNTERS { $$ = ph_simple(pc, @$, AST_STORE_COUNTERS, $1); }
;
/*  69 */ restore_stmt: task_expr RESTORES THEIR COUNTERS { $$ = ph_simple(pc, @$, AST_RESTORE_COUNTERS, $1); }
;
/*  70 */ assert_stmt: ASSERT THAT string WITH rel_expr { $$ = NEW(ASSERT, @$); $$->u.assert_.message = $3; $$->u.assert_.cond = $5; }
;
/*  71 */ output_stmt: task_expr OUTPUTS string_or_expr_list { $$ = NEW(OUTPUT, @$); $$->u.output.tasks = $1; $$->u.output.items = ph_rev($3); }
;
/*  72 */ backend_stmt: task_expr BACKEND EXECUTES string_or_expr_list { $$ = NEW(BACKEND_EXEC, @$); $$->u.output.tasks = $1; $$->u.output.items = ph_rev($4); }
;
/*  73 */ processor_stmt: task_expr ARE ASSIGNED TO PROCESSORS expr { $$ = NEW(ASSIGN_PROC, @$); $$->u.assign_proc.tasks = $1; $$->u.assign_proc.proc = $6; }
/*  74 */ | task_expr ARE ASSIGNED TO AN RANDOM PROCESSORS { $$ = NEW(ASSIGN_PROC, @$); $$->u.assign_proc.tasks = $1; }
;
/*  75 */ reduce_stmt: task_expr REDUCES reduce_message_spec { $$ = ph_reduce(pc, @$, $1, $3, NULL, NULL, 0); }
/*  76 */ | task_expr REDUCES reduce_message_spec TO reduce_message_spec { $$ = ph_reduce(pc, @$, $1, $3, NULL, $5, 1); }
/*  77 */ | task_expr REDUCES reduce_message_spec TO task_expr { $$ = ph_reduce(pc, @$, $1, $3, $5, NULL, 0); }
/*  78 */ | task_expr REDUCES reduce_message_spec TO task_expr WHO RECEIVES THE RESULTS reduce_target_message_spec {
		$$ = ph_reduce(pc, @$, $1, $3, $5, $10, 1);
	}
;
/*  79 */ rel_expr: rel_disj_expr
;
/*  80 */ rel_disj_expr: rel_conj_expr
/*  81 */ | rel_disj_expr LOGIC_OR rel_conj_expr { $$ = ph_logic(pc, @$, AST_LOGIC_OR, $1, $3); }
;
/*  82 */ rel_conj_expr: rel_primary_expr
/*  83 */ | rel_conj_expr LOGIC_AND rel_primary_expr { $$ = ph_logic(pc, @$, AST_LOGIC_AND, $1, $3); }
;
/*  84 */ rel_primary_expr: eq_expr
/*  85 */ | LPAREN rel_expr RPAREN { $$ = ph_paren($2, @$); }
;
/*  86 */ eq_expr: expr OP_EQ expr { $$ = ph_compare(pc, @$, AST_CMP_EQ, $1, $3); }
/*  87 */ | expr OP_LT expr { $$ = ph_compare(pc, @$, AST_CMP_LT, $1, $3); }
/*  88 */ | expr OP_GT expr { $$ = ph_compare(pc, @$, AST_CMP_GT, $1, $3); }
/*  89 */ | expr OP_LEQ expr { $$ = ph_compare(pc, @$, AST_CMP_LE, $1, $3); }
/*  90 */ | expr OP_GEQ expr { $$ = ph_compare(pc, @$, AST_CMP_GE, $1, $3); }
/*  91 */ | expr OP_NEQ expr { $$ = ph_compare(pc, @$, AST_CMP_NE, $1, $3); }
/*  92 */ | expr DIVIDES expr { $$ = ph_compare(pc, @$, AST_CMP_DIVIDES, $1, $3); }
/*  93 */ | expr ARE EVEN { $$ = NEW(PARITY, @$); $$->u.parity.operand = $1; }
/*  94 */ | expr ARE ODD { $$ = NEW(PARITY, @$); $$->u.parity.odd = 1; $$->u.parity.operand = $1; }
/*  95 */ | expr ARE IN LBRACKET expr COMMA expr RBRACKET { $$ = ph_interval(pc, @$, 0, $1, $5, $7); }
/*  96 */ | expr ARE NOT IN LBRACKET expr COMMA expr RBRACKET { $$ = ph_interval(pc, @$, 1, $1, $6, $8); }
/*  97 */ | expr ARE IN range_list { $$ = ph_in_ranges(pc, @$, 0, $1, ph_rev($4)); }
/*  98 */ | expr ARE NOT IN range_list { $$ = ph_in_ranges(pc, @$, 1, $1, ph_rev($5)); }
;
/* aggregate_expr: the log columns it stands for, without headings */
/*  99 */ aggregate_expr: expr { $$ = ph_list1(pc, ph_column(pc, @$, AST_AGG_NONE, NULL, $1)); }
/* 100 */ | EACH expr { $$ = ph_list1(pc, ph_column(pc, @$, AST_AGG_NONE, NULL, $2)); }
/* 101 */ | THE expr { $$ = ph_list1(pc, ph_column(pc, @$, AST_AGG_ONLY, NULL, $2)); }
/* 102 */ | THE aggregate_func_list expr { $$ = ph_agg_columns(pc, @$, ph_rev($2), $3); }
/* 103 */ | THE aggregate_func_list OF expr { $$ = ph_agg_columns(pc, @$, ph_rev($2), $4); }
/* 104 */ | THE aggregate_func_list OF THE expr { $$ = ph_agg_columns(pc, @$, ph_rev($2), $5); }
/* 105 */ | AN HISTOGRAM OF expr { $$ = ph_list1(pc, ph_column(pc, @$, AST_AGG_HISTOGRAM, NULL, $4)); }
/* 106 */ | AN HISTOGRAM OF THE expr { $$ = ph_list1(pc, ph_column(pc, @$, AST_AGG_HISTOGRAM, NULL, $5)); }
;
/* 107 */ expr: ifelse_expr
;
/* 108 */ ifelse_expr: add_expr
/* 109 */ | add_expr IF rel_expr OTHERWISE ifelse_expr {
		$$ = NEW(IFELSE, @$); $$->u.ifelse.then = $1; $$->u.ifelse.cond = $3; $$->u.ifelse.otherwise = $5;
	}
;
/* 110 */ add_expr: mult_expr
/* 111 */ | add_expr OP_PLUS mult_expr { $$ = ph_binary(pc, @$, AST_OP_ADD, $1, $3); }
/* 112 */ | add_expr OP_MINUS mult_expr { $$ = ph_binary(pc, @$, AST_OP_SUB, $1, $3); }
/* 113 */ | add_expr OP_OR mult_expr { $$ = ph_binary(pc, @$, AST_OP_BOR, $1, $3); }
/* 114 */ | add_expr XOR mult_expr { $$ = ph_binary(pc, @$, AST_OP_XOR, $1, $3); }
;
/* 115 */ mult_expr: unary_expr
/* 116 */ | mult_expr OP_MULT unary_expr { $$ = ph_binary(pc, @$, AST_OP_MUL, $1, $3); }
/* 117 */ | mult_expr OP_DIV unary_expr { $$ = ph_binary(pc, @$, AST_OP_DIV, $1, $3); }
/* 118 */ | mult_expr MOD unary_expr { $$ = ph_binary(pc, @$, AST_OP_MOD, $1, $3); }
/* 119 */ | mult_expr OP_RSHIFT unary_expr { $$ = ph_binary(pc, @$, AST_OP_SHR, $1, $3); }
/* 120 */ | mult_expr OP_LSHIFT unary_expr { $$ = ph_binary(pc, @$, AST_OP_SHL, $1, $3); }
/* 121 */ | mult_expr OP_AND unary_expr { $$ = ph_binary(pc, @$, AST_OP_BAND, $1, $3); }
;
/* 122 */ unary_expr: power_expr
/* 123 */ | unary_operator unary_expr { $$ = ph_unary(pc, @$, (ast_unop)$1, $2); }
;
/* 124 */ unary_operator: OP_PLUS { $$ = AST_UOP_PLUS; }
/* 125 */ | OP_MINUS { $$ = AST_UOP_NEG; }
/* 126 */ | NOT { $$ = AST_UOP_NOT; }
;
/* 127 */ power_expr: primary_expr
/* 128 */ | primary_expr OP_POWER unary_expr { $$ = ph_binary(pc, @$, AST_OP_POW, $1, $3); }
;
/* 129 */ primary_expr: LPAREN expr RPAREN { $$ = ph_paren($2, @$); }
/* 130 */ | func_name LPAREN expr_list RPAREN { $$ = NEW(CALL, @$); $$->u.call.fn = (ast_func)$1; $$->u.call.args = $3; }
/* 131 */ | REAL LPAREN expr RPAREN { $$ = NEW(REAL_CAST, @$); $$->u.real_cast.operand = $3; }
/* 132 */ | ident
/* 133 */ | INTEGER
/* 134 */ | MESH_NEIGHBOR LPAREN LPAREN dimension_list RPAREN COMMA expr COMMA LPAREN expr_list RPAREN RPAREN {
		$$ = ph_mesh(pc, @$, AST_MESH_NEIGHBOR, ph_rev($4), $7, &$10, NULL);
	}
/* 135 */ | MESH_COORDINATE LPAREN LPAREN dimension_list RPAREN COMMA expr COMMA expr RPAREN {
		$$ = ph_mesh(pc, @$, AST_MESH_COORDINATE, ph_rev($4), $7, NULL, $9);
	}
/* 136 */ | MESH_DISTANCE LPAREN LPAREN dimension_list RPAREN COMMA expr COMMA expr RPAREN {
		$$ = ph_mesh(pc, @$, AST_MESH_DISTANCE, ph_rev($4), $7, NULL, $9);
	}
/* 137 */ | MY TASKS { $$ = NEW(MY_TASK, @$); }
/* 138 */ | FILE_DATA LPAREN string RPAREN { $$ = ph_file_data(pc, @$, 0, $3, NULL, NULL, NULL, NULL); }
/* 139 */ | FILE_DATA LPAREN string COMMA expr RPAREN { $$ = ph_file_data(pc, @$, 0, $3, $5, NULL, NULL, NULL); }
/* 140 */ | FILE_DATA LPAREN string COMMA expr COMMA expr RPAREN { $$ = ph_file_data(pc, @$, 0, $3, $5, $7, NULL, NULL); }
/* 141 */ | FILE_DATA LPAREN string COMMA expr COMMA expr COMMA string RPAREN { $$ = ph_file_data(pc, @$, 0, $3, $5, $7, $9, NULL); }
/* 142 */ | FILE_DATA LPAREN string COMMA expr COMMA expr COMMA string COMMA string RPAREN { $$ = ph_file_data(pc, @$, 0, $3, $5, $7, $9, $11); }
/* 143 */ | STATIC_FILE_DATA LPAREN string RPAREN { $$ = ph_file_data(pc, @$, 1, $3, NULL, NULL, NULL, NULL); }
/* 144 */ | STATIC_FILE_DATA LPAREN string COMMA expr RPAREN { $$ = ph_file_data(pc, @$, 1, $3, $5, NULL, NULL, NULL); }
/* 145 */ | STATIC_FILE_DATA LPAREN string COMMA expr COMMA expr RPAREN { $$ = ph_file_data(pc, @$, 1, $3, $5, $7, NULL, NULL); }
/* 146 */ | STATIC_FILE_DATA LPAREN string COMMA expr COMMA expr COMMA string RPAREN { $$ = ph_file_data(pc, @$, 1, $3, $5, $7, $9, NULL); }
/* 147 */ | STATIC_FILE_DATA LPAREN string COMMA expr COMMA expr COMMA string COMMA string RPAREN { $$ = ph_file_data(pc, @$, 1, $3, $5, $7, $9, $11); }
;
/* 148 */ message_spec: item_count unique item_size message_alignment MESSAGES touching_type tag buffer_number {
		$$ = ph_spec(pc, @$, $1, $2, $3, &$4, $6, &$7, &$8);
		$$->u.msg.inherited = 0;
	}
/* 149 */ | item_count unique message_alignment MESSAGES touching_type tag buffer_number {
		$$ = ph_spec(pc, @$, $1, $2, ph_zero_size(pc, @2), &$3, $5, &$6, &$7);
		$$->u.msg.inherited = 0;
	}
;
/* 150 */ message_spec_into: item_count unique item_size message_alignment MESSAGES touching_type tag recv_buffer_number {
		$$ = ph_spec(pc, @$, $1, $2, $3, &$4, $6, &$7, &$8);
		$$->u.msg.inherited = 0;
	}
;
/* recv_message_spec: fields marked inherited are filled from the sender by mk_send */
/* 151 */ recv_message_spec: opt_async touching_type tag recv_buffer_number {
		pt_part noalign = { NULL, NULL, -1 };
		$$ = ph_spec(pc, @$, NULL, -1, NULL, &noalign, $2, &$3, &$4);
		ph_mark_async(&$$, $1);
		$$->u.msg.inherited |= AST_INH_COUNT | AST_INH_SIZE;
	}
/* 152 */ | opt_async AS opt_an unique message_alignment MESSAGES touching_type tag recv_buffer_number {
		$$ = ph_spec(pc, @$, NULL, $4, NULL, &$5, $7, &$8, &$9);
		ph_mark_async(&$$, $1);
		$$->u.msg.inherited |= AST_INH_COUNT | AST_INH_SIZE;
	}
;
/* reduce_message_spec: `inherited` marks the omitted optional clauses; the
 * consumer (mk_reduce) clears it for a source spec */
/* 153 */ reduce_message_spec: item_count unique message_alignment data_type touching_type tag buffer_number {
		$$ = ph_spec(pc, @$, $1, $2, NULL, &$3, $5, &$6, &$7);
		$$->u.msg.elem_type = (ast_data_unit)$4;
	}
/* 154 */ | item_count unique data_type touching_type tag buffer_number {
		pt_part noalign = { NULL, NULL, -1 };
		$$ = ph_spec(pc, @$, $1, $2, NULL, &noalign, $4, &$5, &$6);
		$$->u.msg.elem_type = (ast_data_unit)$3;
	}
;
/* 155 */ reduce_target_message_spec: touching_type tag recv_buffer_number {
		pt_part noalign = { NULL, NULL, -1 };
		$$ = ph_spec(pc, @$, NULL, -1, NULL, &noalign, $1, &$2, &$3);
		$$->u.msg.inherited |= AST_INH_COUNT | AST_INH_TYPE;
	}
/* 156 */ | AS item_count unique message_alignment data_type touching_type tag recv_buffer_number {
		$$ = ph_spec(pc, @$, $2, $3, NULL, &$4, $6, &$7, &$8);
		$$->u.msg.elem_type = (ast_data_unit)$5;
	}
/* 157 */ | AS item_count unique data_type touching_type tag recv_buffer_number {
		pt_part noalign = { NULL, NULL, -1 };
		$$ = ph_spec(pc, @$, $2, $3, NULL, &noalign, $5, &$6, &$7);
		$$->u.msg.elem_type = (ast_data_unit)$4;
	}
;
/* 158 */ opt_an: %empty { $$ = 0; }
/* 159 */ | AN { $$ = 1; }
;
/* opt_async: -1 omitted, 0 synchronously, 1 asynchronously */
/* 160 */ opt_async: %empty { $$ = -1; }
/* 161 */ | ASYNCHRONOUSLY { $$ = 1; }
/* 162 */ | SYNCHRONOUSLY { $$ = 0; }
;
/* 163 */ opt_unsusp: %empty { $$ = 0; }
/* 164 */ | UNSUSPECTING { $$ = 1; }
;
/* unique: -1 omitted, 0 nonunique, 1 unique */
/* 165 */ unique: %empty { $$ = -1; }
/* 166 */ | UNIQUE { $$ = 1; }
/* 167 */ | NONUNIQUE { $$ = 0; }
;
/* tag: kind 0 omitted, 1 given (a: expression or STRING) */
/* 168 */ tag: %empty { $$ = ph_part(NULL, NULL, 0); }
/* 169 */ | USING TAG expr { $$ = ph_part($3, NULL, 1); }
/* 170 */ | USING TAG string { $$ = ph_part($3, NULL, 1); }
;
/* 171 */ buffer_offset: %empty { $$ = NULL; }
/* 172 */ | expr data_multiplier INTO { $$ = ph_size(pc, span_union(@1, @2), $1, $2); }
;
/* buffer_number: kind 0 omitted, 1 the default buffer, 2 buffer a; b: offset */
/* 173 */ buffer_number: %empty { $$ = ph_part(NULL, NULL, 0); }
/* 174 */ | FROM buffer_offset THE DEFAULT BUFFERS { $$ = ph_part(NULL, $2, 1); }
/* 175 */ | FROM buffer_offset BUFFERS expr { $$ = ph_part($4, $2, 2); }
;
/* 176 */ recv_buffer_number: %empty { $$ = ph_part(NULL, NULL, 0); }
/* 177 */ | INTO buffer_offset THE DEFAULT BUFFERS { $$ = ph_part(NULL, $2, 1); }
/* 178 */ | INTO buffer_offset BUFFERS expr { $$ = ph_part($4, $2, 2); }
;
/* message_alignment: kind -1 omitted, else ast_align; a: DATA_SIZE */
/* 179 */ message_alignment: %empty { $$ = ph_part(NULL, NULL, -1); }
/* 180 */ | UNALIGNED { $$ = ph_part(NULL, NULL, AST_ALIGN_NONE); }
/* 181 */ | byte_count ALIGNED { $$ = ph_part($1, NULL, AST_ALIGN_ALIGNED); }
/* 182 */ | data_type ALIGNED { $$ = ph_part(ph_unit_size(pc, @1, $1), NULL, AST_ALIGN_ALIGNED); }
/* 183 */ | data_type MISALIGNED { $$ = ph_part(ph_unit_size(pc, @1, $1), NULL, AST_ALIGN_MISALIGNED); }
/* 184 */ | byte_count MISALIGNED { $$ = ph_part($1, NULL, AST_ALIGN_MISALIGNED); }
;
/* touching_type: -1 omitted, else ast_touch */
/* 185 */ touching_type: %empty { $$ = -1; }
/* 186 */ | WITH DATA TOUCHING { $$ = AST_TOUCH_DATA; }
/* 187 */ | WITHOUT DATA TOUCHING { $$ = AST_TOUCH_NONE; }
/* 188 */ | WITH VERIFICATION { $$ = AST_TOUCH_VERIFY; }
/* 189 */ | WITHOUT VERIFICATION { $$ = AST_TOUCH_NONE; }
;
/* 190 */ task_expr: TASKS restricted_ident { $$ = $2; $$->span = @$; }
/* 191 */ | TASKS expr { $$ = NEW(TASK_EXPR, @$); $$->u.task_expr.expr = $2; }
/* 192 */ | ALL TASKS { $$ = NEW(TASK_ALL, @$); }
/* 193 */ | ALL TASKS ident { $$ = NEW(TASK_ALL, @$); $$->u.task_all.var = $3; }
/* 194 */ | ALL OTHER TASKS { $$ = NEW(TASK_ALL_OTHERS, @$); }
/* 195 */ | TASKS GROUP ident { $$ = NEW(TASK_GROUP, @$); $$->u.task_group.name = $3; }
/* 196 */ | TASKS range_list { $$ = ph_anon_tasks(pc, @$, @1, @2, ph_rev($2)); }
;
/* 197 */ restricted_ident: ident SUCH THAT rel_expr { $$ = NEW(TASK_SUCH_THAT, @$); $$->u.such_that.var = $1; $$->u.such_that.cond = $4; }
;
/* built backwards */
/* 198 */ range_list: range { $$ = ph_list1(pc, $1); }
/* 199 */ | range COMMA range_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/* 200 */ range: LBRACE expr_list RBRACE { $$ = NEW(RANGE_ENUM, @$); $$->u.range_enum.items = $2; }
/* 201 */ | LBRACE expr_list COMMA ELLIPSIS COMMA expr RBRACE { $$ = NEW(RANGE_PROG, @$); $$->u.range_prog.items = $2; $$->u.range_prog.last = $6; }
/* 202 */ | LBRACE expr list_comp_expr RBRACE {
		$$ = $3; $$->span = @$; $$->u.range_comp.expr = $2;
		ast_list_reverse(&$$->u.range_comp.gens);
	}
;
/* 203 */ where_expr: WHERE rel_expr { $$ = $2; }
;
/* list_comp_expr: a RANGE_COMP without its expression, generators backwards */
/* 204 */ list_comp_expr: FOR EACH ident IN range_list { $$ = ph_comp(pc, @$, NULL, ph_gen(pc, @$, $3, ph_rev($5)), NULL); }
/* 205 */ | FOR EACH ident IN range_list where_expr { $$ = ph_comp(pc, @$, NULL, ph_gen(pc, span_union(@1, @5), $3, ph_rev($5)), $6); }
/* 206 */ | FOR EACH ident IN range_list list_comp_expr { $$ = ph_comp(pc, @$, $6, ph_gen(pc, span_union(@1, @5), $3, ph_rev($5)), NULL); }
;
/* 207 */ expr_list: expr { $$ = ph_list1(pc, $1); }
/* 208 */ | expr_list COMMA expr { $$ = $1; ast_list_push(pc->arena, &$$, $3); }
;
/* 209 */ time_unit: MICROSECONDS { $$ = AST_TU_MICROSECONDS; }
/* 210 */ | MILLISECONDS { $$ = AST_TU_MILLISECONDS; }
/* 211 */ | SECONDS { $$ = AST_TU_SECONDS; }
/* 212 */ | MINUTES { $$ = AST_TU_MINUTES; }
/* 213 */ | HOURS { $$ = AST_TU_HOURS; }
/* 214 */ | DAYS { $$ = AST_TU_DAYS; }
;
/* 215 */ item_count: AN { $$ = ph_int(pc, @$, 1); $$->implicit = 1; }
/* 216 */ | expr
;
/* 217 */ item_size: %empty { $$ = ph_zero_size(pc, @$); }
/* 218 */ | expr data_multiplier { $$ = ph_size(pc, @$, $1, $2); }
/* 219 */ | data_type SIZED { $$ = ph_unit_size(pc, @$, $1); }
;
/* 220 */ data_multiplier: BITS { $$ = AST_DU_BITS; }
/* 221 */ | BYTES { $$ = AST_DU_BYTES; }
/* 222 */ | KILOBYTE { $$ = AST_DU_KILOBYTES; }
/* 223 */ | MEGABYTE { $$ = AST_DU_MEGABYTES; }
/* 224 */ | GIGABYTE { $$ = AST_DU_GIGABYTES; }
/* 225 */ | HALFWORDS { $$ = AST_DU_HALFWORDS; }
/* 226 */ | WORDS { $$ = AST_DU_WORDS; }
/* 227 */ | INTEGERS { $$ = AST_DU_INTEGERS; }
/* 228 */ | DOUBLEWORDS { $$ = AST_DU_DOUBLEWORDS; }
/* 229 */ | QUADWORDS { $$ = AST_DU_QUADWORDS; }
/* 230 */ | PAGES { $$ = AST_DU_PAGES; }
;
/* 231 */ data_type: BYTES { $$ = AST_DU_BYTES; }
/* 232 */ | HALFWORDS { $$ = AST_DU_HALFWORDS; }
/* 233 */ | WORDS { $$ = AST_DU_WORDS; }
/* 234 */ | INTEGERS { $$ = AST_DU_INTEGERS; }
/* 235 */ | DOUBLEWORDS { $$ = AST_DU_DOUBLEWORDS; }
/* 236 */ | QUADWORDS { $$ = AST_DU_QUADWORDS; }
/* 237 */ | PAGES { $$ = AST_DU_PAGES; }
;
/* 238 */ byte_count: expr data_multiplier { $$ = ph_size(pc, @$, $1, $2); }
;
/* built backwards; items are LOG_COLUMN templates (agg, percentile) */
/* 239 */ aggregate_func_list: aggregate_func { $$ = ph_list1(pc, $1); }
/* 240 */ | aggregate_func AND aggregate_func_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
/* 241 */ | aggregate_func AND THE aggregate_func_list { $$ = $4; ast_list_push(pc->arena, &$$, $1); }
;
/* 242 */ aggregate_func: MEAN { $$ = ph_column(pc, @$, AST_AGG_MEAN, NULL, NULL); }
/* 243 */ | ARITHMETIC MEAN { $$ = ph_column(pc, @$, AST_AGG_MEAN, NULL, NULL); }
/* 244 */ | HARMONIC MEAN { $$ = ph_column(pc, @$, AST_AGG_HARMONIC_MEAN, NULL, NULL); }
/* 245 */ | GEOMETRIC MEAN { $$ = ph_column(pc, @$, AST_AGG_GEOMETRIC_MEAN, NULL, NULL); }
/* 246 */ | MEDIAN { $$ = ph_column(pc, @$, AST_AGG_MEDIAN, NULL, NULL); }
/* 247 */ | STANDARD DEVIATION { $$ = ph_column(pc, @$, AST_AGG_STDEV, NULL, NULL); }
/* 248 */ | MEDIAN ABSOLUTE DEVIATION { $$ = ph_column(pc, @$, AST_AGG_MAD, NULL, NULL); }
/* 249 */ | VARIANCE { $$ = ph_column(pc, @$, AST_AGG_VARIANCE, NULL, NULL); }
/* 250 */ | SUM { $$ = ph_column(pc, @$, AST_AGG_SUM, NULL, NULL); }
/* 251 */ | MINIMUM { $$ = ph_column(pc, @$, AST_AGG_MINIMUM, NULL, NULL); }
/* 252 */ | MAXIMUM { $$ = ph_column(pc, @$, AST_AGG_MAXIMUM, NULL, NULL); }
/* 253 */ | FINAL { $$ = ph_column(pc, @$, AST_AGG_FINAL, NULL, NULL); }
/* 254 */ | expr PERCENTILE { $$ = ph_column(pc, @$, AST_AGG_PERCENTILE, $1, NULL); }
;
/* 255 */ func_name: ABS { $$ = AST_FN_ABS; }
/* 256 */ | BITS { $$ = AST_FN_BITS; }
/* 257 */ | CBRT { $$ = AST_FN_CBRT; }
/* 258 */ | CEILING { $$ = AST_FN_CEILING; }
/* 259 */ | FACTOR10 { $$ = AST_FN_FACTOR10; }
/* 260 */ | FLOOR { $$ = AST_FN_FLOOR; }
/* 261 */ | KNOMIAL_CHILD { $$ = AST_FN_KNOMIAL_CHILD; }
/* 262 */ | KNOMIAL_CHILDREN { $$ = AST_FN_KNOMIAL_CHILDREN; }
/* 263 */ | KNOMIAL_PARENT { $$ = AST_FN_KNOMIAL_PARENT; }
/* 264 */ | LOG10 { $$ = AST_FN_LOG10; }
/* 265 */ | MAX { $$ = AST_FN_MAX; }
/* 266 */ | MIN { $$ = AST_FN_MIN; }
/* 267 */ | PROCESSOR_OF { $$ = AST_FN_PROCESSOR_OF; }
/* 268 */ | RANDOM_GAUSSIAN { $$ = AST_FN_RANDOM_GAUSSIAN; }
/* 269 */ | RANDOM_PARETO { $$ = AST_FN_RANDOM_PARETO; }
/* 270 */ | RANDOM_POISSON { $$ = AST_FN_RANDOM_POISSON; }
/* 271 */ | RANDOM_UNIFORM { $$ = AST_FN_RANDOM_UNIFORM; }
/* 272 */ | ROOT { $$ = AST_FN_ROOT; }
/* 273 */ | ROUND { $$ = AST_FN_ROUND; }
/* 274 */ | SQRT { $$ = AST_FN_SQRT; }
/* 275 */ | TASK_OF { $$ = AST_FN_TASK_OF; }
/* 276 */ | TREE_CHILD { $$ = AST_FN_TREE_CHILD; }
/* 277 */ | TREE_PARENT { $$ = AST_FN_TREE_PARENT; }
;
/* 278 */ dimension: expr { $$ = NEW(DIMENSION, @$); $$->u.dimension.extent = $1; }
/* 279 */ | expr STAR { $$ = NEW(DIMENSION, @$); $$->u.dimension.extent = $1; $$->u.dimension.torus = 1; }
;
/* built backwards */
/* 280 */ dimension_list: dimension { $$ = ph_list1(pc, $1); }
/* 281 */ | dimension COMMA dimension_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/* 282 */ log_expr_list: log_expr_list_elt
/* 283 */ | log_expr_list AND log_expr_list_elt { $$ = $1; for (uint32_t i = 0; i < $3.len; i++) ast_list_push(pc->arena, &$$, $3.items[i]); }
;
/* 284 */ log_expr_list_elt: aggregate_expr AS string_or_log_comment { $$ = ph_columns_heading(pc, @$, $1, $3); }
;
/* 285 */ let_binding: ident BE expr { $$ = ph_binding(pc, @$, $1, $3); }
/* 286 */ | ident BE AN RANDOM TASKS { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @5), AST_RT_ANY, NULL, NULL, NULL)); }
/* 287 */ | ident BE AN RANDOM TASKS OTHER THAN expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @8), AST_RT_OTHER_THAN, $8, NULL, NULL)); }
/* 288 */ | ident BE AN RANDOM TASKS LESS THAN expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @8), AST_RT_LESS_THAN, $8, NULL, NULL)); }
/* 289 */ | ident BE AN RANDOM TASKS GREATER THAN expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @8), AST_RT_GREATER_THAN, $8, NULL, NULL)); }
/* 290 */ | ident BE AN RANDOM TASKS IN LBRACKET expr COMMA expr RBRACKET { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @11), AST_RT_IN_INTERVAL, $8, $10, NULL)); }
/* 291 */ | ident BE AN RANDOM TASKS LESS THAN expr BUT NOT expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @11), AST_RT_LESS_THAN, $8, NULL, $11)); }
/* 292 */ | ident BE AN RANDOM TASKS GREATER THAN expr BUT NOT expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @11), AST_RT_GREATER_THAN, $8, NULL, $11)); }
/* 293 */ | ident BE AN RANDOM TASKS IN LBRACKET expr COMMA expr RBRACKET BUT NOT expr { $$ = ph_binding(pc, @$, $1, ph_random_task(pc, span_union(@3, @14), AST_RT_IN_INTERVAL, $8, $10, $14)); }
/* 294 */ | ident BE task_expr { $$ = ph_binding(pc, @$, $1, $3); }
;
/* built backwards */
/* 295 */ let_binding_list: let_binding { $$ = ph_list1(pc, $1); }
/* 296 */ | let_binding AND let_binding_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/* 297 */ string_or_log_comment: string
/* 298 */ | THE VALUE OF string { $$ = NEW(VALUE_OF, @$); $$->u.value_of.str = $4; }
;
/* built backwards */
/* 299 */ string_or_expr_list: string_or_log_comment { $$ = ph_list1(pc, $1); }
/* 300 */ | expr { $$ = ph_list1(pc, $1); }
/* 301 */ | string_or_log_comment AND string_or_expr_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
/* 302 */ | expr AND string_or_expr_list { $$ = $3; ast_list_push(pc->arena, &$$, $1); }
;
/* stride: kind ast_stride, a: DATA_SIZE */
/* 303 */ stride: %empty { $$ = ph_part(NULL, NULL, AST_STRIDE_DEFAULT); }
/* 304 */ | WITH RANDOM STRIDE { $$ = ph_part(NULL, NULL, AST_STRIDE_RANDOM); }
/* 305 */ | WITH STRIDE expr data_type { $$ = ph_part(ph_size(pc, span_union(@3, @4), $3, $4), NULL, AST_STRIDE_EXPLICIT); }
;
/* 306 */ touch_repeat_count: %empty { $$ = NULL; }
/* 307 */ | expr TIMES { $$ = $1; }
;
/* 308 */ ident: IDENT_TOKEN
;
/* 309 */ string: STRING_TOKEN
;

/* ====================================================== ncsim extensions */

simple_stmt: io_stmt | traffic_stmt ;
/* Error recovery: a statement that fails to parse is skipped up to the
 * next token that can follow a statement (THEN, `.`, `}`, OTHERWISE, or the
 * start of the next top-level statement); the parser then goes on and can
 * report further errors.  The statement leaves no node. */
simple_stmt: error { $$ = NEW(SEQ, @$); }
;
primary_expr: DECIMAL ;
time_unit: NANOSECONDS { $$ = AST_TU_NANOSECONDS; }
| CYCLES { $$ = AST_TU_CYCLES; }
;
/* 14.2 file I/O */
io_stmt: task_expr OPENS FILE expr io_mode {
		$$ = NEW(IO_OPEN, @$); $$->u.io_open.tasks = $1; $$->u.io_open.file = $4; $$->u.io_open.mode = (ast_iomode)$5;
	}
| task_expr CLOSES FILE expr { $$ = NEW(IO_CLOSE, @$); $$->u.io_close.tasks = $1; $$->u.io_close.file = $4; }
| task_expr opt_async READS io_size io_from io_offset { $$ = ph_io(pc, @$, AST_IO_READ, $1, $2, $4, $5, $6); }
| task_expr opt_async WRITES io_size io_to io_offset { $$ = ph_io(pc, @$, AST_IO_WRITE, $1, $2, $4, $5, $6); }
;
io_mode: %empty { $$ = AST_IO_DEFAULT; }
| FOR READING { $$ = AST_IO_READING; }
| FOR WRITING { $$ = AST_IO_WRITING; }
| FOR READING AND WRITING { $$ = AST_IO_READWRITE; }
;
io_size: expr { $$ = ph_size(pc, @$, $1, AST_DU_BYTES); $$->u.size.unit_implicit = 1; }
| expr data_multiplier { $$ = ph_size(pc, @$, $1, $2); }
;
io_from: %empty { $$ = NULL; }
| FROM FILE expr { $$ = $3; }
;
io_to: %empty { $$ = NULL; }
| TO FILE expr { $$ = $3; }
;
io_offset: %empty { $$ = NULL; }
| AT OFFSET byte_count { $$ = $3; }
;
/* 14.3 traffic models */
traffic_stmt: task_expr GENERATES expr MESSAGES OF size_model TRAFFIC opt_dest opt_rate {
		$$ = NEW(TRAFFIC_MESSAGES, @$);
		$$->u.traffic_messages.tasks = $1; $$->u.traffic_messages.count = $3;
		$$->u.traffic_messages.model = $6; $$->u.traffic_messages.dest = $8;
		$$->u.traffic_messages.rate = $9;
	}
| task_expr GENERATES expr FLOWS OVER expr time_unit opt_dest WITH CLASSES LBRACE flow_class_list RBRACE {
		$$ = NEW(TRAFFIC_FLOWS, @$);
		$$->u.traffic_flows.tasks = $1; $$->u.traffic_flows.count = $3;
		$$->u.traffic_flows.over = ph_duration(pc, span_union(@6, @7), $6, $7);
		$$->u.traffic_flows.dest = $8; $$->u.traffic_flows.classes = $12;
	}
| task_expr TRAINS WITH HOROVOD FOR expr BATCHES OF expr LAYERS WITH horovod_params horovod_layers {
		$$ = NEW(TRAFFIC_HOROVOD, @$);
		$$->u.horovod.tasks = $1; $$->u.horovod.batches = $6; $$->u.horovod.layers = $9;
		$$->u.horovod.params = $12; $$->u.horovod.overrides = $13;
	}
| task_expr REPLAYS TRAFFIC FROM string { $$ = NEW(TRAFFIC_REPLAY, @$); $$->u.replay.tasks = $1; $$->u.replay.path = $5; }
;
size_model: ident | string ;
opt_dest: %empty { $$ = NULL; }
| TO dest_dist DESTINATIONS { $$ = $2; $$->span = @$; }
;
dest_dist: UNIFORM { $$ = ph_dest(pc, @$, AST_DIST_UNIFORM, NULL, NULL); }
| GAUSSIAN { $$ = ph_dest(pc, @$, AST_DIST_GAUSSIAN, NULL, NULL); }
| GAUSSIAN WITH MEAN expr AND DEVIATION expr { $$ = ph_dest(pc, @$, AST_DIST_GAUSSIAN, $4, $7); }
| POISSON { $$ = ph_dest(pc, @$, AST_DIST_POISSON, NULL, NULL); }
| POISSON WITH MEAN expr { $$ = ph_dest(pc, @$, AST_DIST_POISSON, $4, NULL); }
;
opt_rate: %empty { $$ = NULL; }
| AT expr GBPS { $$ = $2; }
;
flow_class_list: flow_class { $$ = ph_list1(pc, $1); }
| flow_class_list COMMA flow_class { $$ = $1; ast_list_push(pc->arena, &$$, $3); }
;
flow_class: expr TO expr data_multiplier FOR expr PERCENT opt_dest {
		$$ = NEW(FLOW_CLASS, @$);
		$$->u.flow_class.min = ph_size(pc, @1, $1, $4);
		$$->u.flow_class.min->u.size.unit_implicit = 1;
		$$->u.flow_class.max = ph_size(pc, span_union(@3, @4), $3, $4);
		$$->u.flow_class.percent = $6; $$->u.flow_class.dest = $8;
	}
;
horovod_params: horovod_param { $$ = ph_list1(pc, $1); }
| horovod_params COMMA horovod_param { $$ = $1; ast_list_push(pc->arena, &$$, $3); }
;
horovod_layers: %empty { $$ = ph_empty_list(); }
| horovod_layers AND LAYERS expr WITH horovod_params {
		ast_node *l = NEW(HOROVOD_LAYER, span_union(@2, @6));
		l->u.hv_layer.layer = $4; l->u.hv_layer.params = $6;
		$$ = $1; ast_list_push(pc->arena, &$$, l);
	}
;
horovod_param: COMPUTES expr time_unit { $$ = ph_hv(pc, @$, AST_HV_COMPUTE, ph_duration(pc, span_union(@2, @3), $2, $3)); }
| NEGOTIATION LOOP expr time_unit { $$ = ph_hv(pc, @$, AST_HV_NEGOTIATION_LOOP, ph_duration(pc, span_union(@3, @4), $3, $4)); }
| GATHERV expr BYTES { $$ = ph_hv(pc, @$, AST_HV_GATHERV, ph_size(pc, span_union(@2, @3), $2, AST_DU_BYTES)); }
| GATHERV TOTAL expr BYTES { $$ = ph_hv(pc, @$, AST_HV_GATHERV_TOTAL, ph_size(pc, span_union(@3, @4), $3, AST_DU_BYTES)); }
| GATHERV PROBABILITY expr { $$ = ph_hv(pc, @$, AST_HV_GATHERV_PROBABILITY, $3); }
| BROADCAST expr BYTES { $$ = ph_hv(pc, @$, AST_HV_BROADCAST, ph_size(pc, span_union(@2, @3), $2, AST_DU_BYTES)); }
| ALLREDUCE expr data_multiplier { $$ = ph_hv(pc, @$, AST_HV_ALLREDUCE, ph_size(pc, span_union(@2, @3), $2, $3)); }
;

%%

int ncp_rule_count(void)
{
	return YYNRULES;
}

const char *ncp_rule_lhs(int r)
{
	return r >= 0 && r < YYNRULES ? yysymbol_name((yysymbol_kind_t)yyr1[r + 1]) : "?";
}

static void yyerror(src_span *loc, parse_ctx *pc, const char *msg)
{
	diag_error(pc->diag, *loc, "%s", msg);
}

/* The readable name of a token kind: its alias without quotes. */
static void sym_name(yysymbol_kind_t k, char *buf, size_t n)
{
	const char *s = yysymbol_name(k);
	size_t len = strlen(s);
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	if (len && s[0] != '`' && k != YYSYMBOL_YYEOF && k != YYSYMBOL_INTEGER &&
	    k != YYSYMBOL_DECIMAL && k != YYSYMBOL_IDENT_TOKEN && k != YYSYMBOL_STRING_TOKEN &&
	    k != YYSYMBOL_BADCHAR)
		snprintf(buf, n, "`%.*s`", (int)len, s);   /* a keyword */
	else
		snprintf(buf, n, "%.*s", (int)len, s);
	/* aliases of punctuation carry their own backquotes; bison escapes
	 * backslashes in names, undo that */
	char *w = buf;
	for (const char *r = buf; *r; r++) {
		if (r[0] == '\\' && r[1] == '\\')
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

/* Groups of expected tokens that read better as one phrase. */
static const struct tok_group {
	const char *phrase;
	yysymbol_kind_t trigger[2];   /* collapse only if both are expected */
	yysymbol_kind_t members[40];
} tok_groups[] = {
	{ "an expression", { YYSYMBOL_INTEGER, YYSYMBOL_IDENT_TOKEN },
	  { YYSYMBOL_INTEGER, YYSYMBOL_DECIMAL, YYSYMBOL_IDENT_TOKEN, YYSYMBOL_LPAREN,
	    YYSYMBOL_OP_PLUS, YYSYMBOL_OP_MINUS, YYSYMBOL_NOT, YYSYMBOL_REAL, YYSYMBOL_MY,
	    YYSYMBOL_FILE_DATA, YYSYMBOL_STATIC_FILE_DATA, YYSYMBOL_MESH_NEIGHBOR,
	    YYSYMBOL_MESH_COORDINATE, YYSYMBOL_MESH_DISTANCE, YYSYMBOL_ABS, YYSYMBOL_BITS,
	    YYSYMBOL_CBRT, YYSYMBOL_CEILING, YYSYMBOL_FACTOR10, YYSYMBOL_FLOOR,
	    YYSYMBOL_KNOMIAL_CHILD, YYSYMBOL_KNOMIAL_CHILDREN, YYSYMBOL_KNOMIAL_PARENT,
	    YYSYMBOL_LOG10, YYSYMBOL_MAX, YYSYMBOL_MIN, YYSYMBOL_PROCESSOR_OF,
	    YYSYMBOL_RANDOM_GAUSSIAN, YYSYMBOL_RANDOM_PARETO, YYSYMBOL_RANDOM_POISSON,
	    YYSYMBOL_RANDOM_UNIFORM, YYSYMBOL_ROOT, YYSYMBOL_ROUND, YYSYMBOL_SQRT,
	    YYSYMBOL_TASK_OF, YYSYMBOL_TREE_CHILD, YYSYMBOL_TREE_PARENT, YYSYMBOL_YYEMPTY } },
	{ "an operator", { YYSYMBOL_OP_MULT, YYSYMBOL_OP_DIV },
	  { YYSYMBOL_OP_PLUS, YYSYMBOL_OP_MINUS, YYSYMBOL_OP_MULT, YYSYMBOL_OP_DIV,
	    YYSYMBOL_OP_POWER, YYSYMBOL_OP_AND, YYSYMBOL_OP_OR, YYSYMBOL_OP_LSHIFT,
	    YYSYMBOL_OP_RSHIFT, YYSYMBOL_MOD, YYSYMBOL_XOR, YYSYMBOL_IF, YYSYMBOL_YYEMPTY } },
	{ "a comparison", { YYSYMBOL_OP_EQ, YYSYMBOL_OP_LT },
	  { YYSYMBOL_OP_EQ, YYSYMBOL_OP_NEQ, YYSYMBOL_OP_LT, YYSYMBOL_OP_GT, YYSYMBOL_OP_LEQ,
	    YYSYMBOL_OP_GEQ, YYSYMBOL_DIVIDES, YYSYMBOL_ARE, YYSYMBOL_YYEMPTY } },
	{ "the end of the statement", { YYSYMBOL_PERIOD, YYSYMBOL_THEN },
	  { YYSYMBOL_YYEOF, YYSYMBOL_PERIOD, YYSYMBOL_THEN, YYSYMBOL_LBRACE, YYSYMBOL_RBRACE,
	    YYSYMBOL_OTHERWISE, YYSYMBOL_ALL, YYSYMBOL_ASSERT, YYSYMBOL_FOR, YYSYMBOL_IF,
	    YYSYMBOL_LET, YYSYMBOL_TASKS, YYSYMBOL_YYEMPTY } },
	{ "a time unit", { YYSYMBOL_MICROSECONDS, YYSYMBOL_SECONDS },
	  { YYSYMBOL_MICROSECONDS, YYSYMBOL_MILLISECONDS, YYSYMBOL_SECONDS, YYSYMBOL_MINUTES,
	    YYSYMBOL_HOURS, YYSYMBOL_DAYS, YYSYMBOL_NANOSECONDS, YYSYMBOL_CYCLES, YYSYMBOL_YYEMPTY } },
	{ "a size unit", { YYSYMBOL_KILOBYTE, YYSYMBOL_BYTES },
	  { YYSYMBOL_BITS, YYSYMBOL_BYTES, YYSYMBOL_KILOBYTE, YYSYMBOL_MEGABYTE, YYSYMBOL_GIGABYTE,
	    YYSYMBOL_HALFWORDS, YYSYMBOL_WORDS, YYSYMBOL_INTEGERS, YYSYMBOL_DOUBLEWORDS,
	    YYSYMBOL_QUADWORDS, YYSYMBOL_PAGES, YYSYMBOL_YYEMPTY } },
	{ "a data type", { YYSYMBOL_BYTES, YYSYMBOL_WORDS },
	  { YYSYMBOL_BYTES, YYSYMBOL_HALFWORDS, YYSYMBOL_WORDS, YYSYMBOL_INTEGERS,
	    YYSYMBOL_DOUBLEWORDS, YYSYMBOL_QUADWORDS, YYSYMBOL_PAGES, YYSYMBOL_YYEMPTY } },
};

static int has_tok(const yysymbol_kind_t *v, int n, yysymbol_kind_t k)
{
	for (int i = 0; i < n; i++)
		if (v[i] == k)
			return 1;
	return 0;
}

/* "`x`" quoting of the source text of loc (at most 24 bytes, one line). */
static void quote_source(const parse_ctx *pc, src_span loc, yysymbol_kind_t k, char *buf, size_t n)
{
	if (k == YYSYMBOL_YYEOF || loc.first >= pc->len) {
		snprintf(buf, n, "end of file");
		return;
	}
	size_t len = span_empty(loc) ? 0 : (size_t)loc.last - loc.first + 1;
	const char *s = pc->text + loc.first;
	size_t cut = 0;
	while (cut < len && cut < 24 && s[cut] != '\n' && s[cut] != '\r')
		cut++;
	char tmp[32];
	for (size_t i = 0; i < cut; i++) {
		unsigned char c = (unsigned char)s[i];
		tmp[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	tmp[cut] = '\0';
	snprintf(buf, n, "`%s%s`", tmp, cut < len ? "..." : "");
}

/* True when the last non-blank byte before `off` is c. */
static int byte_before(const parse_ctx *pc, uint32_t off, char c)
{
	while (off > 0 && (pc->text[off - 1] == ' ' || pc->text[off - 1] == '\t'))
		off--;
	return off > 0 && pc->text[off - 1] == c;
}

/*
 * "unexpected X, expected A, B or C[; hint]".  With LAC the expected set is
 * exact.  Related tokens are merged into phrases (an expression, a time
 * unit...), and a few classic mistakes get a hint.
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, parse_ctx *pc)
{
	yysymbol_kind_t exp[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
	if (n < 0)
		n = 0;
	yysymbol_kind_t tok = yypcontext_token(ctx);
	src_span loc = *yypcontext_location(ctx);
	char what[64];
	quote_source(pc, loc, tok, what, sizeof what);
	if (tok == YYSYMBOL_BADCHAR) {
		unsigned char c = (unsigned char)pc->text[loc.first];
		if (c > 0x20 && c < 0x7f)
			diag_error(pc->diag, loc, "invalid character %s", what);
		else if (c >= 0x80)
			diag_error(pc->diag, loc, "invalid character: byte 0x%02x is not ASCII (only strings and comments may hold other bytes)", c);
		else
			diag_error(pc->diag, loc, "invalid character: control byte 0x%02x", c);
		return 0;
	}
	const char *hint = NULL;
	int is_kw = tok >= YYSYMBOL_ABS && tok <= YYSYMBOL_AT;
	if (has_tok(exp, n, YYSYMBOL_THEN) && (tok == YYSYMBOL_TASKS || tok == YYSYMBOL_ALL ||
	    tok == YYSYMBOL_FOR || tok == YYSYMBOL_LET || tok == YYSYMBOL_IF ||
	    tok == YYSYMBOL_LBRACE || tok == YYSYMBOL_ASSERT))
		hint = "did you forget `then`?";
	else if (tok == YYSYMBOL_OP_EQ && byte_before(pc, loc.first, '='))
		hint = "`==` does not exist; compare with a single `=`";
	else if ((tok == YYSYMBOL_OP_LT || tok == YYSYMBOL_OP_GT || tok == YYSYMBOL_OP_LEQ ||
	          tok == YYSYMBOL_OP_GEQ || tok == YYSYMBOL_OP_EQ || tok == YYSYMBOL_OP_NEQ) &&
	         has_tok(exp, n, YYSYMBOL_LOGIC_AND))
		hint = "comparisons do not chain; join them with `/\\`";
	else if (tok == YYSYMBOL_MESSAGES && has_tok(exp, n, YYSYMBOL_SIZED))
		hint = "after a count, `N byte messages` reads N as the count; write `N 1-byte messages` or `a N byte message`";
	else if (tok == YYSYMBOL_STAR)
		hint = "`*` before `,` or `)` marks a torus dimension, valid only in the dimension list of a mesh function";
	else if (is_kw && byte_before(pc, loc.first, '-'))
		hint = "a `-` directly before a keyword is dropped (the dash rule); put the keyword's expression in parentheses";
	else if (is_kw && has_tok(exp, n, YYSYMBOL_IDENT_TOKEN) && !has_tok(exp, n, YYSYMBOL_INTEGER))
		hint = "this word is a keyword and cannot be used as a name";

	int used[YYNTOKENS] = { 0 };
	const char *items[16];
	char names[16][48];
	int ni = 0;
	for (size_t g = 0; g < sizeof tok_groups / sizeof tok_groups[0]; g++) {
		const struct tok_group *tg = &tok_groups[g];
		if (!has_tok(exp, n, tg->trigger[0]) || !has_tok(exp, n, tg->trigger[1]))
			continue;
		int fresh = 0;
		for (int i = 0; tg->members[i] != YYSYMBOL_YYEMPTY; i++)
			if (has_tok(exp, n, tg->members[i]) && !used[tg->members[i]]) {
				used[tg->members[i]] = 1;
				fresh = 1;
			}
		if (fresh && ni < 16)
			items[ni++] = tg->phrase;
	}
	int more = 0;
	for (int i = 0; i < n; i++) {
		if (used[exp[i]] || exp[i] == YYSYMBOL_STAR)
			continue;
		if (ni >= 8) {
			more = 1;
			break;
		}
		sym_name(exp[i], names[ni], sizeof names[ni]);
		items[ni] = names[ni];
		ni++;
	}
	char list[512];
	size_t len = 0;
	list[0] = '\0';
	for (int i = 0; i < ni && len < sizeof list; i++) {
		const char *sep = i == 0 ? "" : (i == ni - 1 && !more) ? " or " : ", ";
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", sep, items[i]);
	}
	if (more && len < sizeof list)
		snprintf(list + len, sizeof list - len, ", ...");
	if (ni == 0)
		diag_error(pc->diag, loc, "unexpected %s%s%s", what, hint ? "; " : "", hint ? hint : "");
	else
		diag_error(pc->diag, loc, "unexpected %s, expected %s%s%s", what, list,
		           hint ? "; " : "", hint ? hint : "");
	return 0;
}
