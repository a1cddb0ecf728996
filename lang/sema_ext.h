/*
 * sema_ext.h - semantic checks of the ncsim extension statements (prefix
 * sx_): file I/O (LANGUAGE.md 14.2) and traffic models (14.3).
 */
#ifndef NCSIM_LANG_SEMA_EXT_H
#define NCSIM_LANG_SEMA_EXT_H

#include "lang/sema_int.h"

/* True for the statement kinds sx_stmt handles (IO_* and TRAFFIC_*). */
int sx_is_ext(ast_kind k);
/* Checks one extension statement n (sx_is_ext(n->kind)). */
void sx_stmt(sema_ctx *s, ast_node *n);
/* The canonical name of DCNW size model `name` (case-insensitive), or NULL if unknown. */
const char *sx_model_name(const char *name);
/*
 * Checks a size-distribution file (data/traffic/README.md): line 1 the mean
 * size, then `size cumulative_probability` lines with sizes and
 * probabilities that never decrease and a last probability of 1.  Returns
 * 0, or -1 with the offending line in *line and a message in msg.
 */
int sx_check_cdf(const char *text, unsigned *line, char *msg, size_t size);

#endif
