/*
 * parsehelp.h - AST construction for the grammar actions of parser.y.
 *
 * The actions stay one line each; the desugarings of LANGUAGE.md 2.5 (see
 * lang/ast.h) are implemented here, next to each other, rather than spread
 * over the grammar.  Lists built by right-recursive rules arrive backwards
 * and are reversed by their consumer (ph_rev).
 */
#ifndef NCSIM_GRAMMAR_PARSEHELP_H
#define NCSIM_GRAMMAR_PARSEHELP_H

#include "grammar/tokfilter.h"

/* A fresh node of kind AST_k spanning loc (inside a grammar action). */
#define NEW(k, loc) ast_new(pc->arena, AST_##k, (loc))

/* A one-element list. */
ast_list ph_list1(parse_ctx *pc, ast_node *n);
/* An empty list. */
ast_list ph_empty_list(void);
/* l reversed (for lists collected by right recursion). */
ast_list ph_rev(ast_list l);
/* An optional message-spec part. */
pt_part ph_part(ast_node *a, ast_node *b, int kind);

/* PROGRAM from backwards header and statement lists (either may be NULL);
 * empty top-level statements are dropped. */
ast_node *ph_program(parse_ctx *pc, src_span loc, ast_list *headers, ast_list *stmts);
/* Reports every header or top-level statement of prog that nests deeper
 * than FE_MAX_STMT_DEPTH / FE_MAX_EXPR_DEPTH (lang/frontend.h). */
void ph_check_nesting(parse_ctx *pc, ast_node *prog);
/* n written in parentheses spanning loc: counts the pair as a nesting level. */
ast_node *ph_paren(ast_node *n, src_span loc);
/* SEQ from a backwards statement list, without empty statements. */
ast_node *ph_seq(parse_ctx *pc, src_span loc, ast_list *items);
/* n, or an empty SEQ at n's span when body is an empty statement. */
ast_node *ph_drop_if_empty_body(parse_ctx *pc, ast_node *n, ast_node *body);
/* FOR_REPS; removed (empty SEQ) when the body is empty and sync is 0. */
ast_node *ph_for_reps(parse_ctx *pc, src_span loc, ast_node *count, ast_node *warmup, int sync, ast_node *body);
/* FOR_TIME (always kept). */
ast_node *ph_for_time(parse_ctx *pc, src_span loc, ast_node *dur, ast_node *warmup, int sync, ast_node *body);
/* IF; an empty OTHERWISE is dropped, an IF with nothing left is removed. */
ast_node *ph_if(parse_ctx *pc, src_span loc, ast_node *cond, ast_node *then, ast_node *otherwise);
/* DURATION value unit. */
ast_node *ph_duration(parse_ctx *pc, src_span loc, ast_node *value, int unit);
/* DATA_SIZE value unit. */
ast_node *ph_size(parse_ctx *pc, src_span loc, ast_node *value, int unit);
/* DATA_SIZE of one `unit` (data_type SIZED / ALIGNED). */
ast_node *ph_unit_size(parse_ctx *pc, src_span loc, int unit);
/* Implicit DATA_SIZE of 0 bytes, placed just after loc. */
ast_node *ph_zero_size(parse_ctx *pc, src_span loc);
/* INT literal. */
ast_node *ph_int(parse_ctx *pc, src_span loc, int64_t v);

/* MSG_SPEC; omitted optional parts set their AST_INH_* bit in `inherited`. */
ast_node *ph_spec(parse_ctx *pc, src_span loc, ast_node *count, int unique, ast_node *size,
                  const pt_part *align, int touch, const pt_part *tag, const pt_part *buf);
/* Records opt_async (-1: omitted, to be inherited) in spec *n. */
void ph_mark_async(ast_node **n, int opt_async);
/* True when a WHO RECEIVES IT specification is completely empty. */
int ph_recv_spec_is_empty(const ast_node *n);
/* SEND, with the implicit or overridden receive spec (LANGUAGE.md 2.5). */
ast_node *ph_send(parse_ctx *pc, src_span loc, ast_node *src, int async, ast_node *msg,
                  int unsusp, ast_node *dst, ast_node *recv, src_span recv_loc);
/* REDUCE; result NULL: inherited copy of msg. */
ast_node *ph_reduce(parse_ctx *pc, src_span loc, ast_node *src, ast_node *msg, ast_node *dst,
                    ast_node *result, int result_explicit);
/* COMPUTE or SLEEP. */
ast_node *ph_delay(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks, ast_node *dur);
/* A statement with only a task description. */
ast_node *ph_simple(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks);
/* TOUCH_REGION. */
ast_node *ph_touch(parse_ctx *pc, src_span loc, ast_node *tasks, ast_node *words, int word_type,
                   ast_node *region, ast_node *repeat, pt_part stride);
/* TOUCH_BUFFERS. */
ast_node *ph_touch_buffers(parse_ctx *pc, src_span loc, ast_node *tasks, ast_bufsel which, ast_node *buf);
/* IO_READ / IO_WRITE. */
ast_node *ph_io(parse_ctx *pc, src_span loc, ast_kind k, ast_node *tasks, int async,
                ast_node *size, ast_node *file, ast_node *offset);

/* LOGIC: l op r with op /\ or \/. */
ast_node *ph_logic(parse_ctx *pc, src_span loc, ast_logicop op, ast_node *l, ast_node *r);
/* COMPARE: l op r with a relational op. */
ast_node *ph_compare(parse_ctx *pc, src_span loc, ast_cmpop op, ast_node *l, ast_node *r);
/* BINARY: l op r with an arithmetic or bitwise op. */
ast_node *ph_binary(parse_ctx *pc, src_span loc, ast_binop op, ast_node *l, ast_node *r);
/* UNARY, folded into a literal operand (LANGUAGE.md 3.2). */
ast_node *ph_unary(parse_ctx *pc, src_span loc, ast_unop op, ast_node *e);
/* IN_INTERVAL (deprecated form; warns). */
ast_node *ph_interval(parse_ctx *pc, src_span loc, int negated, ast_node *e, ast_node *lo, ast_node *hi);
/* IN_RANGES. */
ast_node *ph_in_ranges(parse_ctx *pc, src_span loc, int negated, ast_node *e, ast_list ranges);
/* MESH call. */
ast_node *ph_mesh(parse_ctx *pc, src_span loc, ast_meshfn fn, ast_list dims, ast_node *task,
                  const ast_list *offsets, ast_node *other);
/* FILE_DATA / STATIC_FILE_DATA with 1-5 arguments (trailing NULLs absent). */
ast_node *ph_file_data(parse_ctx *pc, src_span loc, int is_static, ast_node *a1, ast_node *a2,
                       ast_node *a3, ast_node *a4, ast_node *a5);
/* TASKS {ranges} -> TASKS _ SUCH THAT _ IS IN {ranges}. */
ast_node *ph_anon_tasks(parse_ctx *pc, src_span loc, src_span kw, src_span rl, ast_list ranges);
/* RANGE_COMP under construction: prepends gen to inner (or starts one). */
ast_node *ph_comp(parse_ctx *pc, src_span loc, ast_node *inner, ast_node *gen, ast_node *where);
/* GENERATOR. */
ast_node *ph_gen(parse_ctx *pc, src_span loc, ast_node *var, ast_list ranges);
/* BINDING. */
ast_node *ph_binding(parse_ctx *pc, src_span loc, ast_node *var, ast_node *value);
/* RANDOM_TASK. */
ast_node *ph_random_task(parse_ctx *pc, src_span loc, ast_randcons c, ast_node *a, ast_node *b, ast_node *but_not);
/* LOG_COLUMN template. */
ast_node *ph_column(parse_ctx *pc, src_span loc, ast_agg agg, ast_node *pct, ast_node *expr);
/* One column per aggregate function of funcs, each with a copy of expr. */
ast_list ph_agg_columns(parse_ctx *pc, src_span loc, ast_list funcs, ast_node *expr);
/* Gives every column of cols the heading (copied) and the span loc. */
ast_list ph_columns_heading(parse_ctx *pc, src_span loc, ast_list cols, ast_node *heading);
/* DEST_DIST. */
ast_node *ph_dest(parse_ctx *pc, src_span loc, ast_dist d, ast_node *mean, ast_node *dev);
/* HOROVOD_PARAM. */
ast_node *ph_hv(parse_ctx *pc, src_span loc, ast_hvparam p, ast_node *value);

#endif
