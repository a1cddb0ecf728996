/*
 * codegen_file.c - one .ncptl file to C text: front end, semantic analysis,
 * then code generation into memory (shared by `ncsim compile` and `ncsim run`),
 * the implicit program that replays a VEF trace (`ncsim run trace.vef`), and
 * the text of a hand-written C skeleton (`ncsim run skeleton.c`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen.h"
#include "base/exitcode.h"
#include "lang/sema.h"
#include "base/util.h"

/* Sema, then code generation of the parsed prog; the statuses of cg_compile_file. */
static int finish(fe_ctx *fe, ast_node *prog, const cg_opts *o, FILE *diag, char **csrc, size_t *len)
{
	/* Code generation never runs on a program with syntax or semantic errors. */
	if (fe_errors(fe) == 0) {
		sema_opts so = {.check_files = 1};
		sema_info si;
		sema_check(fe, prog, &so, &si);
	}
	if (fe_errors(fe)) {
		fe_free(fe);
		return EXIT_INPUT;
	}
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	if (!mem) {
		fprintf(diag, "ncsim: %s\n", strerror(errno));
		fe_free(fe);
		return EXIT_INTERNAL;
	}
	int errors = cg_emit(fe, prog, o, mem);
	fclose(mem);
	fe_free(fe);
	if (errors) {
		free(buf);
		return EXIT_INPUT;
	}
	*csrc = buf;
	*len = n;
	return EXIT_OK;
}

int cg_compile_file(const char *path, const cg_opts *o, FILE *diag, char **csrc, size_t *len)
{
	*csrc = NULL;
	*len = 0;
	fe_ctx *fe = fe_new(diag);
	ast_node *prog;
	if (fe_parse_file(fe, path, &prog) < 0) {
		fprintf(diag, "ncsim: cannot read '%s': %s\n", path, xread_strerror(errno));
		fe_free(fe);
		return EXIT_USAGE;
	}
	return finish(fe, prog, o, diag, csrc, len);
}

int cg_compile_text(const char *name, const char *text, const cg_opts *o, FILE *diag, char **csrc, size_t *len)
{
	*csrc = NULL;
	*len = 0;
	fe_ctx *fe = fe_new(diag);
	ast_node *prog = fe_parse_string(fe, name, text, strlen(text));
	if (!prog && fe_errors(fe) == 0) {
		fe_free(fe);
		return EXIT_INTERNAL;
	}
	return finish(fe, prog, o, diag, csrc, len);
}

/* s with '"' and '\\' escaped, for a string literal of either language (heap). */
static char *quoted(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *q = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			q[k++] = '\\';
		q[k++] = s[i];
	}
	q[k] = 0;
	return q;
}

char *cg_vef_program(const char *trace)
{
	const char *slash = strrchr(trace, '/');
	char *q = quoted(slash ? slash + 1 : trace);
	char *text = xasprintf("All tasks replay traffic from \"%s\".\n", q);
	free(q);
	return text;
}

int cg_skeleton_file(const char *path, FILE *diag, char **csrc, size_t *len)
{
	*csrc = NULL;
	*len = 0;
	size_t n;
	char *text = xread_file(path, &n, NULL); /* the readers' limits: regular files of at most 1 GiB */
	if (!text) {
		fprintf(diag, "ncsim: cannot read '%s': %s\n", path, xread_strerror(errno));
		return EXIT_USAGE;
	}
	if (strlen(text) != n) {
		fprintf(diag, "ncsim: %s is not a C source file (it holds a NUL byte)\n", path);
		free(text);
		return EXIT_INPUT;
	}
	/* The compiler sees a copy in the build cache: the #line directive makes its messages name the file. */
	char *q = quoted(path);
	*csrc = xasprintf("#line 1 \"%s\"\n%s", q, text);
	*len = strlen(*csrc);
	free(q);
	free(text);
	return EXIT_OK;
}
