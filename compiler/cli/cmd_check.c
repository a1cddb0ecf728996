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
#include "base/util.h"
#include "lang/ast_print.h"
#include "lang/frontend.h"
#include "lang/sema.h"
#include "runtime/task/options.h"

int cmd_check(int argc, char **argv)
{
	opt_set o;
	/* argv[0] is "check"; the options and --help come from runtime/task/options.c. */
	int rc = opt_parse(&o, OPT_CMD_CHECK, "ncsim check", argc - 1, argv + 1);
	if (rc != 0)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	const char *path = o.operand;
	int ast = opt_given(&o, OPT_AST), syntax_only = opt_given(&o, OPT_SYNTAX_ONLY);
	fe_ctx *fe = fe_new(stderr);
	ast_node *prog;
	if (fe_parse_file(fe, path, &prog) < 0) {
		fprintf(stderr, "ncsim check: cannot read '%s': %s\n", path, xread_strerror(errno));
		fe_free(fe);
		return EXIT_USAGE;
	}
	/* Semantic analysis only on a complete AST (a partial one would give
	 * spurious errors about what failed to parse). */
	if (fe_errors(fe) == 0 && !syntax_only) {
		sema_opts so = { .check_files = 1, .reserved_options = NULL };
		sema_check(fe, prog, &so, NULL);
	}
	rc = fe_errors(fe) ? EXIT_INPUT : EXIT_OK;
	if (ast && rc == EXIT_OK)
		ast_print(stdout, fe_sources(fe), prog);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_USAGE;
	fe_free(fe);
	return rc;
}
