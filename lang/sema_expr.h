/*
 * sema_expr.h - semantic analysis of expressions and range lists (see
 * sema_expr.c); the statement walk of sema.c, sema_header.c and sema_ext.c
 * call these on every expression they meet.
 */
#ifndef NCSIM_LANG_SEMA_EXPR_H
#define NCSIM_LANG_SEMA_EXPR_H

#include "lang/sema_int.h"

/* Resolves, checks and folds the expression (or relational expression) n in
 * place w; reports fold failures of the parts that certainly run. NULL n is a no-op. */
void sema_expr(sema_ctx *s, ast_node *n, const sema_where *w);
/* The same for the range list l of a FOR EACH (integer context), opening
 * a scope for each set comprehension. */
void sema_ranges(sema_ctx *s, ast_list *l, const sema_where *w);

#endif
