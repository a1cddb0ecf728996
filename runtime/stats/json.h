/*
 * json.h - a streaming JSON writer (prefix json_).
 *
 * Values go straight to a FILE; the writer keeps only a fixed stack of
 * open containers, so nothing is allocated per value. Misuse (a value
 * without a key inside an object, a key inside an array, unbalanced ends,
 * nesting deeper than JSON_MAX_DEPTH) does not crash: it sets a sticky error
 * that json_finish reports, and the output is then not to be trusted.
 *
 *     json_writer w;
 *     json_init(&w, fp, 1);
 *     json_object_begin(&w);
 *       json_key(&w, "events"); json_uint(&w, 123);
 *       json_key(&w, "hosts");  json_array_begin(&w); json_string(&w, "a"); json_array_end(&w);
 *     json_object_end(&w);
 *     if (json_finish(&w) < 0) ...
 *
 * Doubles are written with the fewest digits that read back to the same
 * value (at most 17); NaN and infinities, which JSON cannot express, are
 * written as null.
 */
#ifndef NCSIM_STATS_JSON_H
#define NCSIM_STATS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 64

typedef struct json_writer {
	FILE *f;
	int pretty;                          /* 1: two-space indentation, one member per line */
	int depth;
	int error;                           /* sticky: misuse or a write error */
	int after_key;                       /* a key was written, its value is due */
	int done;                            /* the top-level value is complete */
	unsigned char kind[JSON_MAX_DEPTH];  /* '{' or '[' per open container */
	unsigned char nonempty[JSON_MAX_DEPTH]; /* 1 once the container has a member */
} json_writer;

/* Starts a document on f; pretty != 0 indents. */
void json_init(json_writer *w, FILE *f, int pretty);
/* Opens an object as the next value. */
void json_object_begin(json_writer *w);
/* Opens an array as the next value. */
void json_array_begin(json_writer *w);
/* Closes the innermost object (an error if it is an array). */
void json_object_end(json_writer *w);
/* Closes the innermost array (an error if it is an object). */
void json_array_end(json_writer *w);
/* Writes a member name; only valid directly inside an object, before each value. */
void json_key(json_writer *w, const char *key);
/* Writes the string value s; NULL writes null. */
void json_string(json_writer *w, const char *s);
/* Writes the n bytes at s as a string value (s need not be NUL-terminated). */
void json_string_n(json_writer *w, const char *s, size_t n);
/* Writes a signed integer value. */
void json_int(json_writer *w, int64_t v);
/* Writes an unsigned integer value. */
void json_uint(json_writer *w, uint64_t v);
/* Writes a double in shortest round-trip form; NaN and infinities (not JSON) become null. */
void json_double(json_writer *w, double v);
/* Writes true (v != 0) or false. */
void json_bool(json_writer *w, int v);
/* Writes null. */
void json_null(json_writer *w);
/* A member: json_key(key) then the value (the three kinds a summary needs). */
void json_kv_string(json_writer *w, const char *key, const char *s);
void json_kv_uint(json_writer *w, const char *key, uint64_t v);
void json_kv_double(json_writer *w, const char *key, double v);
/* Ends the document (adds a final newline); 0 if it was complete and well formed, else -1. */
int json_finish(json_writer *w);

/* Shortest "%.Ng" (N <= 17) of v that strtod reads back exactly; buf >= 32 bytes. Returns buf. */
char *json_format_double(char *buf, double v);
/* Writes s (n bytes) as a JSON string literal with quotes and escapes. */
void json_write_escaped(FILE *f, const char *s, size_t n);

#endif
