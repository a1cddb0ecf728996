/*
 * backend_filter.h - what `BACKEND EXECUTES` and `THE BACKEND DECLARES` may contain (prefix bf_).
 *
 * A shared workload file must not run arbitrary C on the user's machine. So by
 * default ncsim accepts only calls of the skeleton API's call forms: the Union
 * API (UNION_MPI_*, UNION_Compute, UNION_IO_*) and plain MPI_* names, which it
 * rewrites to their Union equivalents, with arguments made of numbers, casts
 * to arithmetic types, arithmetic operators, API constants, `[MESSAGE BUFFER e]`
 * and the statement's own expression items. Anything else is refused unless
 * the user passes --allow-backend-code, which pastes the text verbatim.
 * Recognition uses PCRE2.
 *
 * Both engines share the recogniser: bf_parse gives the calls as (function,
 * argument tokens), which the compiled engine prints back as C
 * (bf_translate) and the direct engine evaluates and calls through libffi
 * (engine/backend.c).
 */
#ifndef NCSIM_BACKEND_FILTER_H
#define NCSIM_BACKEND_FILTER_H

#include <stddef.h>

/* One item of a BACKEND EXECUTES list: literal text, or an already generated C expression. */
typedef struct bf_item {
	int is_expr;
	const char *text;
} bf_item;

/* The kinds of token of a recognised call's argument. */
typedef enum bf_tok_kind {
	BF_SPACE,  /* blanks, kept so that bf_translate keeps the text's spacing */
	BF_NUMBER, /* a C number as written: 12, 010, 1.5e3, 10ul */
	BF_CAST,   /* a cast to an arithmetic type as written: "(unsigned long)" */
	BF_PUNCT,  /* one of + - * ( ), and / % in any_call mode */
	BF_BUFFER, /* [MESSAGE BUFFER e]: a null pointer (buffers hold no data in a simulation) */
	BF_NAME,   /* an identifier, rewritten: MPI_INT is UNION_Int, MPI_STATUS_IGNORE is NULL */
	BF_SIZEOF, /* sizeof(type) as written */
	BF_ITEM,   /* the statement's expression item `item` */
} bf_tok_kind;

typedef struct bf_tok {
	bf_tok_kind kind;
	char *text; /* as it is printed in C (heap); NULL for BF_ITEM */
	int item;   /* BF_ITEM: the index of the item */
} bf_tok;

/* One argument: its tokens, blanks included, without the separating commas. */
typedef struct bf_arg {
	bf_tok *toks;
	size_t n;
	int item; /* the string item the argument starts in (for messages) */
} bf_arg;

/* One call of the text: NAME(ARG, ...). `f()` has no argument; `f( )` has one
 * made of blanks only, which also means none (bf_translate keeps the blank). */
typedef struct bf_call {
	char *name; /* rewritten: MPI_Send is UNION_MPI_Send */
	bf_arg *args;
	size_t nargs;
	int item;   /* the string item the call starts in (for messages) */
} bf_call;

typedef struct bf_calls {
	bf_call *calls;
	size_t n;
} bf_calls;

/*
 * Recognises the items as a sequence of calls `NAME(ARGS);`. Without
 * any_call, NAME must be a call form of the skeleton API and the arguments
 * may only compute numbers (see backend_filter.c). With any_call, NAME and
 * the names in the arguments may be any identifier and `/` and `%` are
 * allowed: the caller then checks the names (the direct engine's
 * --allow-backend-code). Returns 0 with *out filled, or -1 with *err (heap)
 * and *bad_item (the offending string item, or -1).
 */
int bf_parse(const bf_item *items, int n, int any_call, bf_calls *out, char **err, int *bad_item);
/* Frees what bf_parse filled (not c itself). */
void bf_calls_free(bf_calls *c);

/*
 * Translates the items into C statements (heap string): bf_parse's calls
 * printed back, or with allow_any the text verbatim. On refusal returns
 * NULL, sets *err (heap) and *bad_item to the index of the offending string
 * item.
 */
char *bf_translate(const bf_item *items, int n, int allow_any, char **err, int *bad_item);
/* Checks THE BACKEND DECLARES text: only blanks and C comments pass without allow_any. */
int bf_check_declares(const char *text, int allow_any, char **err);
/* The i-th call form allowed without --allow-backend-code (Union names), or NULL past the last. */
const char *bf_allowed_call(size_t i);

#endif
