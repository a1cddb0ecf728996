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
 */
#ifndef NCSIM_BACKEND_FILTER_H
#define NCSIM_BACKEND_FILTER_H

/* One item of a BACKEND EXECUTES list: literal text, or an already generated C expression. */
typedef struct bf_item {
	int is_expr;
	const char *text;
} bf_item;

/*
 * Translates the items into C statements (heap string). `task` is the C
 * expression naming the calling task. On refusal returns NULL, sets *err
 * (heap) and *bad_item to the index of the offending string item.
 */
char *bf_translate(const bf_item *items, int n, int allow_any, char **err, int *bad_item);
/* Checks THE BACKEND DECLARES text: only blanks and C comments pass without allow_any. */
int bf_check_declares(const char *text, int allow_any, char **err);

#endif
