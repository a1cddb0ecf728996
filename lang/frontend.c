/*
 * frontend.c - one compilation: sources, arena, interned names, diagnostics,
 * and the driver that runs the scanner, token filter and parser.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/frontend.h"
#include "grammar/tokfilter.h"
/* lexer.h names the bison types the flex way. */
#define YYSTYPE NCP_STYPE
#define YYLTYPE src_span
#include "grammar/lexer.h"

struct fe_ctx {
	arena *arena;
	src_mgr src;
	diag_ctx diag;
	/* Intern table: open addressing, power-of-two size, names in the arena. */
	const char **names;
	uint32_t *hashes;
	size_t nnames, cap;
	unsigned *rule_hits;
};

fe_ctx *fe_new(FILE *diag_out)
{
	fe_ctx *fe = xcalloc(1, sizeof *fe);
	fe->arena = arena_new();
	src_init(&fe->src);
	diag_init(&fe->diag, &fe->src, diag_out);
	return fe;
}

void fe_free(fe_ctx *fe)
{
	if (!fe)
		return;
	arena_free(fe->arena);
	src_fini(&fe->src);
	free(fe->names);
	free(fe->hashes);
	free(fe);
}

void fe_set_rule_hits(fe_ctx *fe, unsigned *hits) { fe->rule_hits = hits; }
unsigned fe_errors(const fe_ctx *fe) { return fe->diag.errors; }
unsigned fe_warnings(const fe_ctx *fe) { return fe->diag.warnings; }
diag_ctx *fe_diag(fe_ctx *fe) { return &fe->diag; }
arena *fe_arena(fe_ctx *fe) { return fe->arena; }
const src_mgr *fe_sources(const fe_ctx *fe) { return &fe->src; }

/* FNV-1a: names are short, so a simple hash is enough. */
static uint32_t hash_name(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void intern_grow(fe_ctx *fe)
{
	size_t nc = fe->cap ? 2 * fe->cap : 256;
	const char **names = xcalloc(nc, sizeof *names);
	uint32_t *hashes = xcalloc(nc, sizeof *hashes);
	for (size_t i = 0; i < fe->cap; i++) {
		if (!fe->names[i])
			continue;
		size_t j = fe->hashes[i] & (nc - 1);
		while (names[j])
			j = (j + 1) & (nc - 1);
		names[j] = fe->names[i];
		hashes[j] = fe->hashes[i];
	}
	free(fe->names);
	free(fe->hashes);
	fe->names = names;
	fe->hashes = hashes;
	fe->cap = nc;
}

const char *fe_intern(fe_ctx *fe, const char *name, size_t n)
{
	if (2 * (fe->nnames + 1) > fe->cap)
		intern_grow(fe);
	uint32_t h = hash_name(name, n);
	size_t j = h & (fe->cap - 1);
	while (fe->names[j]) {
		if (fe->hashes[j] == h && !strncmp(fe->names[j], name, n) && fe->names[j][n] == '\0')
			return fe->names[j];
		j = (j + 1) & (fe->cap - 1);
	}
	fe->names[j] = arena_strndup(fe->arena, name, n);
	fe->hashes[j] = h;
	fe->nnames++;
	return fe->names[j];
}

/* Scans and parses file `id` of fe's sources. */
static ast_node *parse_source(fe_ctx *fe, uint32_t id)
{
	const src_file *f = src_get(&fe->src, id);
	parse_ctx pc;
	memset(&pc, 0, sizeof pc);
	pc.fe = fe;
	pc.arena = fe->arena;
	pc.diag = &fe->diag;
	pc.file = id;
	pc.text = f->text;
	pc.len = f->len;
	pc.rule_hits = fe->rule_hits;
	yyscan_t scanner;
	ncl_lex_init_extra(&pc, &scanner);
	pc.scanner = scanner;
	YY_BUFFER_STATE buf = ncl__scan_bytes(f->text, (int)f->len, scanner);
	ncp_parse(&pc);
	ncl__delete_buffer(buf, scanner);
	ncl_lex_destroy(scanner);
	free(pc.sbuf);
	if (!pc.program) {
		/* The parser gave up before reducing `program` (unrecoverable error). */
		pc.program = ast_new(fe->arena, AST_PROGRAM, span_make(id, 0, (uint32_t)f->len - 1));
	}
	return pc.program;
}

int fe_parse_file(fe_ctx *fe, const char *path, ast_node **out)
{
	uint32_t id;
	if (src_load(&fe->src, path, &id) < 0)
		return -1;
	*out = parse_source(fe, id);
	return 0;
}

ast_node *fe_parse_string(fe_ctx *fe, const char *name, const char *text, size_t len)
{
	uint32_t id = src_add(&fe->src, name, text, len);
	return parse_source(fe, id);
}
