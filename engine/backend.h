/*
 * backend.h - `BACKEND EXECUTES` in the direct engine (prefix eng_backend_):
 * the C call text of the statement is recognised once, when the program is
 * loaded, and each execution calls the named function through libffi.
 *
 * The split mirrors the compiled engine. There, compiler/backend_filter.c
 * turns the items into C text that the C compiler checks and binds. Here,
 * eng_backend_prepare does the recognising and binding (the same PCRE2
 * recogniser, the function found with dlsym in ncsim itself or in a plugin,
 * its prototype from a table generated from include/ncsim at build time or
 * from the plugin's header), and eng_backend_call only converts the values
 * of this execution and makes the call.
 */
#ifndef NCSIM_ENGINE_BACKEND_H
#define NCSIM_ENGINE_BACKEND_H

#include "ncsim/rt.h"

/* One item of the statement, as the parser gave it. */
typedef struct eng_bitem {
	int is_expr;      /* 0: literal C text; 1: an expression item (its value comes with each call) */
	int is_text;      /* is_expr: 1 for a `VALUE OF`-style text item (a const char * in C), 0 for a number */
	const char *text; /* the literal text; for an expression item, NULL */
} eng_bitem;

/* The value of an expression item in one execution. */
typedef struct eng_bval {
	int is_text;      /* 1 for a `VALUE OF`-style text item, else a number */
	double f;         /* the item in floating-point context, as compiled code evaluates it */
	const char *text; /* is_text: the text (valid during the call) */
} eng_bval;

typedef struct eng_plugins eng_plugins; /* --plugin lib.so with --plugin-header h.h */
typedef struct eng_backend eng_backend; /* one prepared statement */

/*
 * Opens a plugin library and reads its header's prototypes (strictly:
 * engine/cdecl.h). Requires allow_code (plugins are arbitrary code, like
 * --allow-backend-code) and a header. Returns the list `pl` (NULL: none)
 * with the plugin appended, so that the first plugin declaring a name is
 * the one called; NULL with *err (heap) on failure, `pl` then unchanged.
 */
eng_plugins *eng_plugins_open(eng_plugins *pl, const char *so_path, const char *header_path,
                              int allow_code, char **err);
/* Closes every plugin of the list (NULL: none); no statement prepared with them may run after. */
void eng_plugins_close(eng_plugins *pl);

/*
 * Recognises the call(s) in the items, binds them and type-checks their
 * arguments. Without allow_code (--allow-backend-code) it accepts what the
 * compiled engine accepts; with it, calls of any function of ncsim/union.h,
 * ncsim/rt.h or a plugin header, and nothing but calls. On refusal returns
 * NULL, sets *err (heap) and *bad_item to the index of the offending item
 * (or -1). `items` is read only during the call; `pl` must outlive the result.
 */
eng_backend *eng_backend_prepare(const eng_bitem *items, int n, const eng_plugins *pl, int allow_code,
                                 char **err, int *bad_item);
/*
 * Makes the call(s) for task t with this execution's item values (n as
 * prepared; vals[i] of a literal item is not read). An argument C leaves
 * undefined (a double out of an int's range, a division by zero) ends the
 * run through rt_fatal(t, ...).
 */
void eng_backend_call(const eng_backend *b, rt_task *t, const eng_bval *vals);
/* Frees a prepared statement (NULL is a no-op). */
void eng_backend_free(eng_backend *b);

#endif
