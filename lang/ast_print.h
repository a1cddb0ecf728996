/*
 * ast_print.h - the indented text form of an AST (doc/ast-format.md), used by
 * `ncsim check --ast` and the golden tests.
 */
#ifndef NCSIM_LANG_AST_PRINT_H
#define NCSIM_LANG_AST_PRINT_H

#include <stdio.h>

#include "lang/ast.h"
#include "lang/source.h"

/* Writes n and its subtree to out; spans are shown as line:col using src. */
void ast_print(FILE *out, const src_mgr *src, const ast_node *n);

#endif
