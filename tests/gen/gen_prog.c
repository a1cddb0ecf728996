/*
 * gen_prog.c - writes a random valid .ncptl program for the differential
 * tester (tests/gen/difftest.sh); see gen.h for how programs are built.
 *
 *   gen_prog --seed S [--drop 3,7,12] [--stmts N] [--depth D] [--errors PCT] [--data FILE]
 *       the program of seed S on stdout, without the listed statement nodes
 *   gen_prog --seed S --nodes          how many statement nodes it has
 *   gen_prog --seed S --coverage N     over seeds S .. S+N-1: how often each
 *       feature was written; exit 1 if one never was
 *   gen_prog --write-data FILE         the table FILE_DATA reads (--data FILE)
 *   Ranges (IS IN, comprehensions) appear inside the values of other
 *   ranges, and comprehensions anywhere, not only as FOR EACH ranges
 *   (--nested-ranges, the default); --flat-ranges writes the programs of
 *   before, when the compiled engine's code generator crashed on some.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tests/gen/gen.h"

static const char *const feature_names[GF_COUNT] = {
#define GEN_NAME_(id, name) name,
	GEN_FEATURES(GEN_NAME_)
#undef GEN_NAME_
};

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t next(gen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int64_t gen_int(gen *g, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(next(g) % (uint64_t)(hi - lo + 1));
}

int gen_chance(gen *g, int pct)
{
	return gen_int(g, 0, 99) < pct;
}

void gen_printf(gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (g->len + (size_t)n + 1 > g->cap) {
		g->cap = (g->len + (size_t)n + 1) * 2;
		g->out = xrealloc(g->out, g->cap);
	}
	va_start(ap, fmt);
	vsnprintf(g->out + g->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	g->len += (size_t)n;
}

void gen_repeat(gen *g, size_t from, size_t to)
{
	char *copy = xstrndup(g->out + from, to - from);

	gen_printf(g, "%s", copy);
	free(copy);
}

char *gen_take(gen *g, size_t from)
{
	char *text = xstrndup(g->out + from, g->len - from);

	g->len = from;
	return text;
}

void gen_cover(gen *g, enum gen_feature f)
{
	g->cov[f]++;
}

void gen_fresh(gen *g, const char *prefix, char name[16])
{
	snprintf(name, 16, "%s%d", prefix, ++g->names);
}

/* The data file: numbers in the forms strtoll and strtod read (hex, octal, fractions). */
static int write_data(const char *path)
{
	static const char text[] = "1 2 3\n-4 0x1f 017\n2.5 -7 1e3\n8 9 10\n";
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
		fprintf(stderr, "gen_prog: cannot write %s\n", path);
		return 2;
	}
	return 0;
}

/* "3,7,12" -> drop[3] = drop[7] = drop[12] = 1. */
static unsigned char *parse_drop(const char *list, int *n)
{
	unsigned char *drop = NULL;
	char *end;

	*n = 0;
	while (*list) {
		long id = strtol(list, &end, 10);

		if (end == list || id < 0 || id > 1000000)
			return NULL;
		if (id >= *n) {
			drop = xrealloc(drop, (size_t)id + 1);
			memset(drop + *n, 0, (size_t)(id + 1 - *n));
			*n = (int)id + 1;
		}
		drop[id] = 1;
		list = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return NULL;
	}
	return drop ? drop : xcalloc(1, 1);
}

static int usage(void)
{
	fprintf(stderr, "usage: gen_prog --seed S [--drop LIST] [--stmts N] [--depth D] [--errors PCT]\n"
	                "                [--data FILE] [--nested-ranges | --flat-ranges] [--nodes | --coverage N]\n"
	                "       gen_prog --write-data FILE\n");
	return 2;
}

static int coverage(const gen *tmpl, uint64_t seed, long count)
{
	unsigned long cov[GF_COUNT] = { 0 };
	int missing = 0;

	for (long i = 0; i < count; i++) {
		gen g = *tmpl;

		gen_program(&g, seed + (uint64_t)i);
		for (int f = 0; f < GF_COUNT; f++)
			cov[f] += g.cov[f];
		free(g.out);
	}
	for (int f = 0; f < GF_COUNT; f++) {
		printf("%9lu  %s\n", cov[f], feature_names[f]);
		missing += cov[f] == 0;
	}
	if (missing)
		printf("%d feature(s) never generated\n", missing);
	return missing ? 1 : 0;
}

int main(int argc, char **argv)
{
	gen g = { .max_stmts = 12, .max_depth = 4, .error_pct = 3, .nested_ranges = 1 };
	uint64_t seed = 1;
	long cov_count = 0;
	int nodes = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--nodes")) {
			nodes = 1;
			continue;
		}
		if (!strcmp(a, "--nested-ranges") || !strcmp(a, "--flat-ranges")) {
			g.nested_ranges = !strcmp(a, "--nested-ranges");
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--seed")) {
			seed = strtoull(v, NULL, 10);
		} else if (!strcmp(a, "--drop")) {
			free((void *)g.drop);
			if (!(g.drop = parse_drop(v, &g.ndrop)))
				return usage();
		} else if (!strcmp(a, "--stmts"))
			g.max_stmts = atoi(v) > 0 ? atoi(v) : 1;
		else if (!strcmp(a, "--depth"))
			g.max_depth = atoi(v);
		else if (!strcmp(a, "--errors"))
			g.error_pct = atoi(v);
		else if (!strcmp(a, "--data"))
			g.data_file = v;
		else if (!strcmp(a, "--coverage"))
			cov_count = atol(v);
		else if (!strcmp(a, "--write-data"))
			return write_data(v);
		else if (strcmp(a, "--drop"))
			return usage();
	}
	if (cov_count > 0)
		return coverage(&g, seed, cov_count);
	gen_program(&g, seed);
	if (nodes)
		printf("%d\n", g.next_id);
	else
		fwrite(g.out, 1, g.len, stdout);
	free(g.out);
	free((void *)g.drop);
	return 0;
}
