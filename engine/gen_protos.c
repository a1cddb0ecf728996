/*
 * gen_protos.c - writes engine/protos.c, the prototype table of the direct
 * engine's BACKEND EXECUTES calls, from include/ncsim's headers at build
 * time (engine/ffi.mk runs it).
 *
 * Usage: gen_protos OUT HEADER...
 *
 * The headers are read in order with engine/cdecl.c in lenient mode, so a
 * later header sees the typedefs of an earlier one (union.h uses rt.h's
 * rt_req). The table holds every prototype, macro constant and typedef the
 * parser understood; what it skipped (function pointers, variadic or
 * inline functions) is listed in a comment, so the table says why a
 * function is missing. A hand-kept table could drift from the headers; this
 * one cannot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "engine/cdecl.h"

static void write_protos(FILE *f, const eng_cdecl *d)
{
	fprintf(f, "const eng_cproto eng_protos[] = {\n");
	size_t n = 0;
	for (const eng_cproto *p; (p = eng_cdecl_proto_at(d, n)); n++) {
		fprintf(f, "\t{\"%s\", %s, %u, {", p->name, eng_ctype_names[p->ret], p->nparams);
		for (unsigned k = 0; k < p->nparams; k++)
			fprintf(f, "%s%s", k ? ", " : "", eng_ctype_names[p->params[k]]);
		if (!p->nparams)
			fprintf(f, "%s", eng_ctype_names[ENG_C_VOID]);   /* C11 has no empty initializer */
		fprintf(f, "}},\n");
	}
	fprintf(f, "};\nconst size_t eng_nprotos = %zu;\n\n", n);
}

static void write_consts(FILE *f, const eng_cdecl *d)
{
	fprintf(f, "const eng_cconst eng_proto_consts[] = {\n");
	size_t n = 0;
	/* %a keeps a floating constant exact. */
	for (const eng_cconst *c; (c = eng_cdecl_const_at(d, n)); n++)
		fprintf(f, "\t{\"%s\", {%s, UINT64_C(%llu), %a}},\n", c->name, eng_ctype_names[c->val.type],
		        (unsigned long long)c->val.u, c->val.d);
	fprintf(f, "\t{NULL, {ENG_C_VOID, 0, 0.0}},\n};\nconst size_t eng_nproto_consts = %zu;\n\n", n);
}

/* The typedefs from `first` on: those the headers declared, after the parser's own. */
static void write_typedefs(FILE *f, const eng_cdecl *d, size_t first)
{
	fprintf(f, "const eng_ctypedef eng_proto_typedefs[] = {\n");
	size_t n = first;
	for (const eng_ctypedef *t; (t = eng_cdecl_typedef_at(d, n)); n++)
		fprintf(f, "\t{\"%s\", %s},\n", t->name, eng_ctype_names[t->type]);
	fprintf(f, "\t{NULL, ENG_C_VOID},\n};\nconst size_t eng_nproto_typedefs = %zu;\n", n - first);
}

static void write_notes(FILE *f, const eng_cdecl *d)
{
	fprintf(f, "/*\n * Declarations the direct engine cannot call, skipped:\n");
	const char *note;
	for (size_t i = 0; (note = eng_cdecl_note_at(d, i)); i++)
		fprintf(f, " *   %s\n", note);
	fprintf(f, " */\n\n");
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gen_protos OUT HEADER...\n");
		return EXIT_USAGE;
	}
	eng_cdecl *d = eng_cdecl_new();
	size_t first = 0;
	while (eng_cdecl_typedef_at(d, first))
		first++;
	for (int i = 2; i < argc; i++) {
		char *err = NULL;
		/* Notes name the header as code includes it (ncsim/rt.h), not by the build's path. */
		const char *shown = strstr(argv[i], "ncsim/") ? strstr(argv[i], "ncsim/") : argv[i];
		char *text = xread_text(argv[i], "C header", &err);
		if (!text || eng_cdecl_parse(d, shown, text, 1, &err) != 0) {
			free(text);
			fprintf(stderr, "gen_protos: %s\n", err);
			free(err);
			eng_cdecl_free(d);
			return EXIT_INPUT;
		}
		free(text);
	}
	char *tmp = xasprintf("%s.tmp", argv[1]);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		free(tmp);
		eng_cdecl_free(d);
		return EXIT_USAGE;
	}
	fprintf(f, "/* engine/protos.c - written by engine/gen_protos from");
	for (int i = 2; i < argc; i++)
		fprintf(f, " %s", strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
	fprintf(f, " at build time: do not edit. */\n#include \"engine/ffi_protos.h\"\n\n");
	write_notes(f, d);
	write_protos(f, d);
	write_consts(f, d);
	write_typedefs(f, d, first);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	int rc = bad ? EXIT_USAGE : EXIT_OK;
	if (rc == EXIT_OK && rename(tmp, argv[1]) != 0)
		rc = EXIT_USAGE;
	if (rc != EXIT_OK) {
		perror(argv[1]);
		remove(tmp);
	}
	free(tmp);
	eng_cdecl_free(d);
	return rc;
}
