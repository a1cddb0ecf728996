/*
 * sysedit.c - a system file with some keys set to new values (see sysedit.h).
 *
 * The edit works on the text, line by line, so that the file a calibration
 * writes keeps the base file's comments and order: a key that is set is
 * rewritten in place; a key the base lacks goes right after its section's
 * header; a section the base lacks is appended.
 */
#include "calib/sysedit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The name at p (a section or key name as sysconf reads it), lower-cased into buf. */
static const char *name_at(const char *p, const char *eol, char *buf, size_t n)
{
	size_t k = 0;
	while (p < eol && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.') && k + 1 < n)
		buf[k++] = (char)tolower((unsigned char)*p++);
	buf[k] = '\0';
	return p;
}

/* What line [p, eol) is: 1 a section header (name in sec), 2 a key (name in key), 0 anything else. */
static int classify(const char *p, const char *eol, char *sec, char *key, size_t n)
{
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	if (p < eol && *p == '[') {
		p++;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		name_at(p, eol, sec, n);
		return 1;
	}
	if (p == eol || *p == '#')
		return 0;
	name_at(p, eol, key, n);
	return key[0] ? 2 : 0;
}

static void put_setting(FILE *out, const cal_setting *s) { fprintf(out, "%s = %s\n", s->key, s->value); }

/* The settings of section sec not written yet, after its header. */
static void put_missing(FILE *out, const char *sec, const cal_setting *set, size_t n, char *done)
{
	for (size_t i = 0; i < n; i++)
		if (!done[i] && !strcmp(set[i].section, sec) && sec[0]) {
			put_setting(out, &set[i]);
			done[i] = 1;
		}
}

/* Index of the setting for [sec] key, or -1. */
static long find(const cal_setting *set, size_t n, const char *sec, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(set[i].section, sec) && !strcmp(set[i].key, key))
			return (long)i;
	return -1;
}

/*
 * One pass over the lines of base. Without out, it marks in done the
 * settings whose key base has (they are rewritten in place). With out, it
 * writes base with those keys rewritten and every setting still not done
 * after its section's header.
 */
static void walk(const char *base, const cal_setting *set, size_t n, FILE *out, char *done)
{
	char sec[128] = "", name[128], key[128];
	for (const char *p = base; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		int kind = classify(p, eol, name, key, sizeof key);
		long i = kind == 2 ? find(set, n, sec, key) : -1;
		if (!out && i >= 0)
			done[i] = 1;
		else if (out && i >= 0)
			put_setting(out, &set[i]);
		else if (out)
			fprintf(out, "%.*s\n", (int)(eol - p), p);
		if (kind == 1)
			snprintf(sec, sizeof sec, "%s", name);
		if (kind == 1 && out)
			put_missing(out, sec, set, n, done);
		p = *eol ? eol + 1 : eol;
	}
}

char *cal_sys_edit(const char *base, const cal_setting *set, size_t n)
{
	char *buf = NULL, *done = xcalloc(n + 1, 1);
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out) {
		free(done);
		return NULL;
	}
	walk(base, set, n, NULL, done); /* the keys base has are done in place; the others go after a header */
	walk(base, set, n, out, done);
	/* Sections the base lacks, in the order of the settings. */
	for (size_t i = 0; i < n; i++)
		if (!done[i]) {
			fprintf(out, "[%s]\n", set[i].section);
			put_missing(out, set[i].section, set, n, done);
		}
	fclose(out);
	free(done);
	return buf;
}
