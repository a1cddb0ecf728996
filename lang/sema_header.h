/*
 * sema_header.h - semantic checks of the header declarations (prefix sh_):
 * the language version, the command-line parameters and their options.
 */
#ifndef NCSIM_LANG_SEMA_HEADER_H
#define NCSIM_LANG_SEMA_HEADER_H

#include "lang/sema_int.h"

/* Checks the version and parameter declarations of prog, folds the defaults,
 * binds the parameters in the outermost scope and lists them in s->info. */
void sh_params(sema_ctx *s, ast_node *prog);
/* After the statements: reports parameters whose long option is one the
 * runtime predefines (--seed only when the program uses randomness). */
void sh_options(sema_ctx *s, ast_node *prog);

#endif
