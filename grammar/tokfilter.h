/*
 * tokfilter.h - the token filter between the flex scanner and the bison
 * parser, and the per-parse context they share.
 *
 *   source text -> ncl_lex (lexer.l) -> [queue] -> ncp_lex (tokfilter.c) -> ncp_parse
 *
 * The filter implements the token-stream rules that are not context-free in
 * the scanner (LANGUAGE.md 1.2 and 14.1):
 *   - the dash rule: a `-` immediately before a keyword token is deleted;
 *   - the star rule: `*` immediately before `,` or `)` becomes STAR;
 *   - ncsim's contextual keywords: an identifier spelled like an extension
 *     word becomes that keyword only in the positions described in
 *     tokfilter.c, so programs that use such words as variables still parse.
 * It keeps one emitted token of look-behind and up to three queued tokens of
 * look-ahead.
 */
#ifndef NCSIM_GRAMMAR_TOKFILTER_H
#define NCSIM_GRAMMAR_TOKFILTER_H

#include <stdint.h>

#include "lang/ast.h"
#include "lang/diag.h"
#include "lang/frontend.h"
#include "grammar/parser.h"

/* One scanned token waiting in the filter's queue. */
typedef struct tf_token {
	int type;          /* token kind (TOK_*) */
	NCP_STYPE val;     /* semantic value (node for literals and identifiers) */
	src_span loc;
	int cw;            /* contextual-word id (tokfilter.c) of an identifier, 0 if none */
} tf_token;

/* Everything one parse needs; created by lang/frontend.c. */
struct parse_ctx {
	fe_ctx *fe;
	arena *arena;          /* the fe_ctx's arena: AST, strings */
	diag_ctx *diag;
	uint32_t file;         /* file id of the text being parsed */
	const char *text;      /* the text (for quoting tokens in messages) */
	size_t len;
	void *scanner;         /* the flex scanner (yyscan_t) */
	uint32_t pos;          /* scanner: byte offset of the next token */
	int last_cw;           /* scanner: contextual-word id of the last identifier */
	char *sbuf;            /* scanner: string-literal decoding buffer */
	size_t scap;
	tf_token q[4];         /* filter: look-ahead queue */
	unsigned qn;
	int prev;              /* filter: kind of the last token handed to the parser */
	int mode;              /* filter: inside an extension statement */
	int depth;             /* filter: brace depth inside the extension statement */
	ast_node *program;     /* parser: the result */
	unsigned *rule_hits;   /* test hook: reductions per grammar rule, or NULL */
};

/* The raw scanner (lexer.l): the next unfiltered token of scanner. */
int ncl_lex(NCP_STYPE *lval, src_span *lloc, void *scanner);
/* The parser's yylex: the next filtered token of pc. */
int ncp_lex(NCP_STYPE *lval, src_span *lloc, parse_ctx *pc);
/* Number of grammar rules (rule 0 is bison's $accept; 1-309 are Appendix A). */
int ncp_rule_count(void);
/* Name of the left-hand side of grammar rule r. */
const char *ncp_rule_lhs(int r);
/* Contextual-word id of the lower-case word w[0..n), or 0 (used by the scanner). */
int tf_contextual_word(const char *w, size_t n);

#endif
