/*
 * sema_fold.h - constant folding of semantic analysis (prefix sf_).
 *
 * Folding works bottom-up on annotated nodes: sf_fold() computes the value
 * of one node in both contexts from its children's notes, with the very
 * functions of ncsim/stdlib.h (and lang/builtins.h) that the skeleton calls
 * at run time, so a folded value can never differ from a computed one.  An
 * operation whose operands are constant but which fails (7 MOD 0,
 * CBRT(-1), ...) records the run-time message in err_i/err_f; sf_report()
 * later turns the ones that certainly run into compile-time errors.
 */
#ifndef NCSIM_LANG_SEMA_FOLD_H
#define NCSIM_LANG_SEMA_FOLD_H

#include "lang/sema_int.h"

/* Folds expression node n (its children are already folded); n must have a note. */
void sf_fold(sema_ctx *s, ast_node *n);
/*
 * Reports the failed folds in n's subtree, in the context each node is
 * evaluated in: as errors where evaluation is certain (certain != 0) and as
 * warnings under a condition that is not constant.  The branch that a
 * constant condition or short-circuit skips is not reported.
 */
void sf_report(sema_ctx *s, ast_node *n, int certain, const sema_where *w);
/* 1 and *v if n is a relational expression or expression with a known value in its own context. */
int sf_value_i(const ast_node *n, int64_t *v);
/* 1 and *v if n has a known floating-point-context value. */
int sf_value_f(const ast_node *n, double *v);

#endif
