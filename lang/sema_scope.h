/*
 * sema_scope.h - symbols and scopes of semantic analysis (prefix ss_).
 *
 * Variables and task groups share one scope stack (lang/sema_int.h) but not
 * one namespace: a LET-bound task group is found only by ss_lookup_group,
 * an ordinary variable only by ss_lookup_var.
 */
#ifndef NCSIM_LANG_SEMA_SCOPE_H
#define NCSIM_LANG_SEMA_SCOPE_H

#include "lang/sema_int.h"

/* Prepares the predeclared symbols and an empty scope stack in s. */
void ss_init(sema_ctx *s);
/* Frees the scope stack of s (symbols live in the arena). */
void ss_fini(sema_ctx *s);
/* Opens a scope. */
void ss_push(sema_ctx *s);
/* Closes the innermost scope, warning about its unused variables. */
void ss_pop(sema_ctx *s);
/* Binds the variable or group named by IDENT `ident` in the innermost scope
 * (redefining a predeclared variable is an error); returns the new symbol. */
sema_sym *ss_define(sema_ctx *s, sema_sym_kind k, ast_node *ident, ast_node *binder, const sema_where *w);
/* The innermost visible user variable called `name` (interned), or NULL. */
sema_sym *ss_lookup_var(sema_ctx *s, const char *name);
/* The innermost visible task group called `name` (interned), or NULL. */
sema_sym *ss_lookup_group(sema_ctx *s, const char *name);
/* The predeclared variable called `name` (interned), or NULL. */
sema_sym *ss_predecl(sema_ctx *s, const char *name);
/* Resolves the variable use `ident`, counts the use and annotates it;
 * reports an undeclared name once per name.  Returns the symbol or NULL. */
sema_sym *ss_use(sema_ctx *s, ast_node *ident, const sema_where *w);

#endif
