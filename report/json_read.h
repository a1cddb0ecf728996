/*
 * json_read.h - a small JSON reader for summary.json (prefix rep_json_).
 *
 * The report reads run folders written by any version of ncsim, so it parses
 * the documented files instead of linking the writer (runtime/stats/json.h).
 * summary.json is small (a few kilobytes per job), so the reader builds a
 * tree: one allocation per value, freed with the root. Numbers keep their
 * text, so that 64-bit integers (picoseconds, bytes) read back exactly.
 *
 *     rep_json *root = rep_json_parse(text, "run/summary.json", &err);
 *     const rep_json *jobs = rep_json_get(root, "jobs");
 *     uint64_t end; rep_json_u64(rep_json_get(root, "sim_end_ps"), &end);
 *     rep_json_free(root);
 *
 * Errors name the file, line and column: "run/summary.json:3:14: expected ','".
 */
#ifndef NCSIM_REPORT_JSON_READ_H
#define NCSIM_REPORT_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

/* Nesting deeper than this is refused (summary.json nests four levels). */
#define REP_JSON_MAX_DEPTH 64

enum rep_json_kind { REP_JSON_NULL, REP_JSON_BOOL, REP_JSON_NUMBER, REP_JSON_STRING, REP_JSON_ARRAY, REP_JSON_OBJECT };

typedef struct rep_json {
	enum rep_json_kind kind;
	char *text;              /* STRING: the decoded UTF-8 text; NUMBER: the number as written */
	int boolean;             /* BOOL */
	struct rep_json **items; /* ARRAY and OBJECT: the members in file order */
	char **keys;             /* OBJECT: the name of each member */
	size_t n;
} rep_json;

/* Parses the whole NUL-terminated text (file names it in errors). The tree, or NULL with *err (heap). */
rep_json *rep_json_parse(const char *text, const char *file, char **err);
/* Frees a tree (NULL is a no-op). */
void rep_json_free(rep_json *v);
/* The member key of object v (the first one of that name), or NULL if v is not an object or has none. */
const rep_json *rep_json_get(const rep_json *v, const char *key);
/* The string of v, or NULL if v is NULL or not a string. */
const char *rep_json_str(const rep_json *v);
/* Stores a number v that is a whole number in [0, 2^64) in *x: 0, or -1 (NULL, not a number, negative, fractional). */
int rep_json_u64(const rep_json *v, uint64_t *x);
/* Stores any number v in *x: 0, or -1 if v is NULL or not a number. */
int rep_json_double(const rep_json *v, double *x);

#endif
