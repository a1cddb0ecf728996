/*
 * sysconf.c - system description files (see sysconf.h and doc/system-file.md).
 *
 * The whole file is parsed up front into one flat list of entries in file
 * order; lookups scan it linearly, which is fine for a few hundred keys read
 * once at start-up. Each entry remembers whether a lookup touched it, so that
 * sysconf_unused can name misspelled keys.
 *
 *     sysconf_t
 *       name ----------> "systems/small.conf"
 *       entries[0..n) -> { section "network", key "model", value "dragonfly", line 3, used }
 *       sections[0..m) -> section names in order of first appearance
 *       section_line[0..m) -> the line of each section's first header
 *       where ---------> scratch buffer for sysconf_where (fixed size)
 *       asked ---------> every (section, key) a lookup asked for, present or not
 *
 * The `used` flags, the scratch buffer and the list of asked keys are reached
 * through pointers, so lookups on a `const sysconf_t *` may update them
 * without casting const away. The asked keys are what a misspelled key is
 * compared with to suggest the key meant.
 * Section and key names are stored in lower case; values keep their case.
 */
#include "base/sysconf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/units.h"
#include "base/util.h"

struct entry {
	char *section; /* lower case; "" outside any section */
	char *key;     /* lower case */
	char *value;   /* unquoted, escapes resolved */
	int line;
	int used;
};

/* A key some lookup asked for (lower case). */
struct asked {
	char *section, *key;
};

struct sysconf {
	char *name;
	struct entry *entries;
	size_t nentries;
	char **sections;
	int *section_line;
	size_t nsections;
	char *where; /* sysconf_where's buffer: strlen(name) + 24 bytes */
	VEC(struct asked) *asked;
};

static char *lower_dup(const char *s, size_t n)
{
	char *d = xstrndup(s, n);
	for (char *p = d; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p + 32);
	return d;
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Bound on keys plus sections: the duplicate checks scan the lists, so parsing is quadratic in their length. */
#define SYSCONF_MAX_ITEMS 4096

void sysconf_free(sysconf_t *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nentries; i++) {
		free(c->entries[i].section);
		free(c->entries[i].key);
		free(c->entries[i].value);
	}
	for (size_t i = 0; i < c->nsections; i++)
		free(c->sections[i]);
	for (size_t i = 0; c->asked && i < c->asked->len; i++) {
		free(c->asked->ptr[i].section);
		free(c->asked->ptr[i].key);
	}
	if (c->asked)
		VEC_FREE(c->asked);
	free(c->asked);
	free(c->entries);
	free(c->sections);
	free(c->section_line);
	free(c->where);
	free(c->name);
	free(c);
}

static struct entry *find(const sysconf_t *c, const char *section, const char *key)
{
	for (size_t i = 0; i < c->nentries; i++)
		if (strcasecmp(c->entries[i].section, section) == 0 && strcasecmp(c->entries[i].key, key) == 0)
			return &c->entries[i];
	return NULL;
}

static void add_section(sysconf_t *c, const char *name, int line)
{
	for (size_t i = 0; i < c->nsections; i++)
		if (strcmp(c->sections[i], name) == 0)
			return;
	c->sections = xreallocarray(c->sections, c->nsections + 1, sizeof *c->sections);
	c->section_line = xreallocarray(c->section_line, c->nsections + 1, sizeof *c->section_line);
	c->section_line[c->nsections] = line;
	c->sections[c->nsections++] = xstrdup(name);
}

/*
 * Parses a double-quoted value starting at *p (just after the quote) into a
 * fresh string; \" and \\ are the only escapes. Leaves *p after the closing quote.
 */
static char *quoted(const char **p, const char **bad)
{
	const char *s = *p;
	VEC(char) out = { 0 };

	for (;;) {
		if (*s == 0 || *s == '\n') {
			*bad = s;
			VEC_FREE(&out);
			return NULL;
		}
		if (*s == '"')
			break;
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		VEC_PUSH(&out, *s);
		s++;
	}
	VEC_PUSH(&out, 0);
	*p = s + 1;
	return out.ptr;
}

/*
 * line := blank* ( "#" comment | "[" name "]" | key blank* "=" blank* value )? blank* ("#" comment)?
 * Returns 0, or -1 with *err = "name:line:col: message".
 */
static int parse_line(sysconf_t *c, const char *line, const char *eol, int lineno,
                      char **section, char **err)
{
	const char *p = line, *start;
	char *key, *value;

#define FAIL(at, ...) do { \
		char *m_ = xasprintf(__VA_ARGS__); \
		*err = xasprintf("%s:%d:%d: %s", c->name, lineno, (int)((at) - line) + 1, m_); \
		free(m_); \
		return -1; \
	} while (0)

	while (p < eol && blank(*p)) p++;
	if (p == eol || *p == '#')
		return 0;
	if (c->nentries + c->nsections >= SYSCONF_MAX_ITEMS)
		FAIL(p, "more than %d keys and sections (a system file has a few dozen)", SYSCONF_MAX_ITEMS);

	if (*p == '[') {
		p++;
		while (p < eol && blank(*p)) p++;
		start = p;
		while (p < eol && name_char(*p)) p++;
		if (p == start)
			FAIL(p, "expected a section name after '['");
		key = lower_dup(start, (size_t)(p - start));
		while (p < eol && blank(*p)) p++;
		if (p == eol || *p != ']') {
			free(key);
			FAIL(p, "expected ']' after the section name");
		}
		p++;
		while (p < eol && blank(*p)) p++;
		if (p < eol && *p != '#') {
			free(key);
			FAIL(p, "unexpected text after the section header");
		}
		free(*section);
		*section = key;
		add_section(c, key, lineno);
		return 0;
	}

	start = p;
	while (p < eol && name_char(*p)) p++;
	if (p == start)
		FAIL(p, "expected 'key = value' or '[section]'");
	key = lower_dup(start, (size_t)(p - start));
	while (p < eol && blank(*p)) p++;
	if (p == eol || *p != '=') {
		free(key);
		FAIL(p, "expected '=' after key");
	}
	p++;
	while (p < eol && blank(*p)) p++;
	if (p < eol && *p == '"') {
		const char *bad = NULL;
		p++;
		value = quoted(&p, &bad);
		if (!value) {
			free(key);
			FAIL(bad, "unterminated string");
		}
		while (p < eol && blank(*p)) p++;
		if (p < eol && *p != '#') {
			free(key);
			free(value);
			FAIL(p, "unexpected text after the closing quote");
		}
	} else {
		/* An unquoted value runs to a '#' or the end of the line, trailing blanks dropped. */
		const char *e = p;
		while (e < eol && *e != '#') e++;
		while (e > p && blank(e[-1])) e--;
		if (e == p) {
			free(key);
			FAIL(p, "missing value (write \"\" for an empty string)");
		}
		value = xstrndup(p, (size_t)(e - p));
	}

	{
		const struct entry *dup = find(c, *section, key);
		if (dup) {
			int first = dup->line;
			char *k = key;
			free(value);
			*err = xasprintf("%s:%d: duplicate key '%s' in [%s] (first set at line %d)", c->name, lineno,
			            k, *section, first);
			free(k);
			return -1;
		}
	}
	c->entries = xreallocarray(c->entries, c->nentries + 1, sizeof *c->entries);
	c->entries[c->nentries++] = (struct entry){
		.section = xstrdup(*section), .key = key, .value = value, .line = lineno,
	};
	return 0;
#undef FAIL
}

sysconf_t *sysconf_parse(const char *name, const char *text, char **err)
{
	sysconf_t *c = xcalloc(1, sizeof *c);
	char *section = xstrdup("");
	const char *line = text;
	int lineno = 1;

	c->name = xstrdup(name ? name : "<system>");
	c->where = xmalloc(strlen(c->name) + 24);
	c->asked = xcalloc(1, sizeof *c->asked);
	while (*line) {
		const char *eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (parse_line(c, line, eol, lineno, &section, err) < 0) {
			free(section);
			sysconf_free(c);
			return NULL;
		}
		line = *eol ? eol + 1 : eol;
		lineno++;
	}
	free(section);
	return c;
}

sysconf_t *sysconf_load(const char *path, char **err)
{
	char *text = xread_text(path, "system file", err);
	if (!text)
		return NULL;
	sysconf_t *c = sysconf_parse(path, text, err);
	free(text);
	return c;
}

int sysconf_has_section(const sysconf_t *c, const char *section)
{
	if (!*section) {
		for (size_t i = 0; i < c->nentries; i++)
			if (!*c->entries[i].section)
				return 1;
		return 0;
	}
	for (size_t i = 0; i < c->nsections; i++)
		if (strcasecmp(c->sections[i], section) == 0)
			return 1;
	return 0;
}

const char *sysconf_section_name(const sysconf_t *c, size_t i)
{
	return i < c->nsections ? c->sections[i] : NULL;
}

const char *sysconf_key_name(const sysconf_t *c, const char *section, size_t i)
{
	for (size_t k = 0; k < c->nentries; k++)
		if (!strcmp(c->entries[k].section, section) && i-- == 0)
			return c->entries[k].key;
	return NULL;
}

/* Remembers that a lookup asked for [section] key: the names a misspelled key is compared with. */
static void note_asked(const sysconf_t *c, const char *section, const char *key)
{
	for (size_t i = 0; i < c->asked->len; i++)
		if (!strcasecmp(c->asked->ptr[i].key, key) && !strcasecmp(c->asked->ptr[i].section, section))
			return;
	struct asked a = {lower_dup(section, strlen(section)), lower_dup(key, strlen(key))};
	VEC_PUSH(c->asked, a);
}

const char *sysconf_get(const sysconf_t *c, const char *section, const char *key)
{
	struct entry *e = find(c, section, key);

	note_asked(c, section, key);
	if (!e)
		return NULL;
	e->used = 1;
	return e->value;
}

/* Reports a malformed value as "file:line: [section] key = 'value': why (expected ...)". */
static int bad(const sysconf_t *c, const char *section, const char *key, const char *why,
               const char *expected, char **err)
{
	const struct entry *e = find(c, section, key);
	*err = xasprintf("%s:%d: %s%s%s%s = '%s': %s (expected %s)", c->name, e->line, *section ? "[" : "",
	            section, *section ? "] " : "", key, e->value, why, expected);
	return -1;
}

int sysconf_int(const sysconf_t *c, const char *section, const char *key, int64_t *out, char **err)
{
	const char *v = sysconf_get(c, section, key), *why;
	int64_t x;

	if (!v)
		return 0;
	if (units_int(v, &x, &why) < 0)
		return bad(c, section, key, why, "an integer", err);
	*out = x;
	return 1;
}

int sysconf_double(const sysconf_t *c, const char *section, const char *key, double *out, char **err)
{
	const char *v = sysconf_get(c, section, key), *why;
	double x;

	if (!v)
		return 0;
	if (units_double(v, &x, &why) < 0)
		return bad(c, section, key, why, "a number", err);
	*out = x;
	return 1;
}

int sysconf_size_unit(const sysconf_t *c, const char *section, const char *key, double defunit,
                      uint64_t *bytes, char **err)
{
	const char *v = sysconf_get(c, section, key), *why;
	uint64_t x;

	if (!v)
		return 0;
	if (units_size(v, defunit, &x, &why) < 0)
		return bad(c, section, key, why, "a size such as 4096, 16 KiB or 1.5 MB", err);
	*bytes = x;
	return 1;
}

int sysconf_size(const sysconf_t *c, const char *section, const char *key, uint64_t *bytes, char **err)
{
	return sysconf_size_unit(c, section, key, UNITS_BYTES, bytes, err);
}

int sysconf_bandwidth_unit(const sysconf_t *c, const char *section, const char *key, double defunit,
                           double *bytes_per_s, char **err)
{
	const char *v = sysconf_get(c, section, key), *why;
	double x;

	if (!v)
		return 0;
	if (units_bandwidth(v, defunit, &x, &why) < 0)
		return bad(c, section, key, why, "a bandwidth such as 5.25 GiB/s or 100 Gbps", err);
	*bytes_per_s = x;
	return 1;
}

int sysconf_bandwidth(const sysconf_t *c, const char *section, const char *key, double *bytes_per_s, char **err)
{
	return sysconf_bandwidth_unit(c, section, key, UNITS_BYTES_PER_S, bytes_per_s, err);
}

int sysconf_time_unit(const sysconf_t *c, const char *section, const char *key, double defunit,
                      ncsim_time_t *ps, char **err)
{
	const char *v = sysconf_get(c, section, key), *why;
	ncsim_time_t x;

	if (!v)
		return 0;
	if (units_time(v, defunit, &x, &why) < 0)
		return bad(c, section, key, why, "a time such as 100 ns or 1.5e-3 s", err);
	*ps = x;
	return 1;
}

int sysconf_time(const sysconf_t *c, const char *section, const char *key, ncsim_time_t *ps, char **err)
{
	return sysconf_time_unit(c, section, key, UNITS_PS, ps, err);
}

int sysconf_string(const sysconf_t *c, const char *section, const char *key, const char **out, char **err)
{
	const char *v = sysconf_get(c, section, key);

	(void)err;
	if (!v)
		return 0;
	*out = v;
	return 1;
}

int sysconf_bool(const sysconf_t *c, const char *section, const char *key, int *out, char **err)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	const char *v = sysconf_get(c, section, key);

	if (!v)
		return 0;
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = 1;
			return 1;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = 0;
			return 1;
		}
	}
	return bad(c, section, key, "not a boolean", "yes/no, true/false, on/off or 1/0", err);
}

/* Edit distance between a and b (insertions, deletions, substitutions), capped at 99 for long names. */
static size_t distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 63 || m > 63)
		return 99;
	size_t row[64];
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[m];
}

/*
 * "; did you mean 'latency'?" for the asked key of the same section nearest
 * to e's key (at most a third of its letters apart), or "; did you mean
 * [node] key?" when that very key is read in another section; "" if none.
 */
static char *suggestion(const sysconf_t *c, const struct entry *e)
{
	const struct asked *best = NULL;
	size_t bestd = strlen(e->key) / 3 + 1;
	for (size_t i = 0; i < c->asked->len; i++) {
		const struct asked *a = &c->asked->ptr[i];
		if (strcmp(a->section, e->section))
			continue;
		size_t d = distance(e->key, a->key);
		if (d < bestd) {
			bestd = d;
			best = a;
		}
	}
	if (best)
		return xasprintf("; did you mean '%s'?", best->key);
	for (size_t i = 0; i < c->asked->len; i++) {
		const struct asked *a = &c->asked->ptr[i];
		if (!strcmp(a->key, e->key))
			return *a->section ? xasprintf("; did you mean [%s] %s?", a->section, a->key)
			                   : xasprintf("; did you mean %s, outside any section?", a->key);
	}
	return xstrdup("");
}

/* "file:line: unknown key 'k' in [s]; did you mean ...?" for an entry no lookup asked for (heap). */
static char *unknown_key(const sysconf_t *c, const struct entry *e)
{
	char *hint = suggestion(c, e);
	char *m = *e->section ? xasprintf("%s:%d: unknown key '%s' in [%s]%s", c->name, e->line, e->key, e->section, hint)
	                      : xasprintf("%s:%d: unknown key '%s' outside any section%s", c->name, e->line, e->key, hint);
	free(hint);
	return m;
}

int sysconf_unused(const sysconf_t *c, FILE *err)
{
	int n = 0;

	for (size_t i = 0; i < c->nentries; i++) {
		const struct entry *e = &c->entries[i];
		if (e->used)
			continue;
		n++;
		if (!err)
			continue;
		char *m = unknown_key(c, e);
		fprintf(err, "%s\n", m);
		free(m);
	}
	return n;
}

int sysconf_check_unused(const sysconf_t *c, char **err)
{
	int n = sysconf_unused(c, NULL);
	if (n == 0)
		return 0;
	size_t i = 0;
	while (c->entries[i].used)
		i++;
	char *m = unknown_key(c, &c->entries[i]);
	*err = n > 1 ? xasprintf("%s (and %d more unknown key%s)", m, n - 1, n > 2 ? "s" : "") : xstrdup(m);
	free(m);
	return -1;
}

const char *sysconf_where(const sysconf_t *c, const char *section, const char *key)
{
	const struct entry *e = find(c, section, key);

	if (!e)
		return c->name;
	/* Sized at parse time for the name plus any line number, so it never grows. */
	snprintf(c->where, strlen(c->name) + 24, "%s:%d", c->name, e->line);
	return c->where;
}

const char *sysconf_section_where(const sysconf_t *c, const char *section)
{
	for (size_t i = 0; i < c->nsections; i++)
		if (strcasecmp(c->sections[i], section) == 0) {
			snprintf(c->where, strlen(c->name) + 24, "%s:%d", c->name, c->section_line[i]);
			return c->where;
		}
	return c->name;
}
