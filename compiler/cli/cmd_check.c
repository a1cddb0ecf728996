/*
 * cmd_check.c - `ncsim check FILE [--ast]`: parse and check (lang/sema.h)
 * a program.  Diagnostics go to stderr; with --ast
 * the AST is printed on stdout in the form of doc/ast-format.md.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "lang/ast_print.h"
#include "lang/frontend.h"
#include "lang/sema.h"

static void check_usage(FILE *f)
{
	fputs("usage: ncsim check FILE [--ast] [--syntax-only]\n"
	      "  Parses and checks FILE and reports errors as file:line:col.\n"
	      "  --ast          print the syntax tree (doc/ast-format.md) on stdout\n"
	      "  --syntax-only  parse only: skip the semantic checks\n", f);
}

int cmd_check(int argc, char **argv)
{
	const char *path = NULL;
	int ast = 0, syntax_only = 0;
	/* argv[0] is "check". */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ast")) {
			ast = 1;
		} else if (!strcmp(argv[i], "--syntax-only")) {
			syntax_only = 1;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			check_usage(stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "ncsim check: unknown option '%s'\n", argv[i]);
			check_usage(stderr);
			return EXIT_USAGE;
		} else if (path) {
			fprintf(stderr, "ncsim check: only one FILE may be given\n");
			return EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		check_usage(stderr);
		return EXIT_USAGE;
	}
	fe_ctx *fe = fe_new(stderr);
	ast_node *prog;
	if (fe_parse_file(fe, path, &prog) < 0) {
		fprintf(stderr, "ncsim check: cannot read '%s': %s\n", path, strerror(errno));
		fe_free(fe);
		return EXIT_USAGE;
	}
	/* Semantic analysis only on a complete AST (a partial one would give
	 * spurious errors about what failed to parse). */
	if (fe_errors(fe) == 0 && !syntax_only) {
		sema_opts so = { .check_files = 1, .reserved_options = NULL };
		sema_check(fe, prog, &so, NULL);
	}
	int rc = fe_errors(fe) ? EXIT_INPUT : EXIT_OK;
	if (ast && rc == EXIT_OK)
		ast_print(stdout, fe_sources(fe), prog);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_USAGE;
	fe_free(fe);
	return rc;
}
