/*
 * cmd_compile.c - `ncsim compile prog.ncptl [-o prog.c] [--allow-backend-code]`:
 * writes the C skeleton of a program. The output appears only if the whole
 * compilation succeeds (written to a temporary file, then renamed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/codegen/codegen.h"
#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "runtime/stats/outfile.h"
#include "runtime/task/options.h"
#include "base/util.h"

int cmd_compile(int argc, char **argv)
{
	opt_set o;
	/* argv[0] is "compile"; the options and --help come from runtime/task/options.c. */
	int rc = opt_parse(&o, OPT_CMD_COMPILE, "ncsim compile", argc - 1, argv + 1);
	if (rc != 0)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	const char *path = o.operand, *out = opt_get(&o, OPT_OUTPUT)->text;
	/* #line directives name the file the C goes to, so a C compiler's message points into it. */
	cg_opts co = {.allow_backend_code = opt_given(&o, OPT_ALLOW_BACKEND_CODE),
	              .c_name = out && strcmp(out, "-") ? out : NULL};
	char *csrc, *defout = NULL;
	size_t len;
	rc = cg_compile_file(path, &co, stderr, &csrc, &len);
	if (rc != EXIT_OK)
		return rc;
	if (!out) {
		char *name = cg_program_name(path);
		defout = xasprintf("%s.c", name);
		free(name);
		out = defout;
	}
	char *err = NULL;
	if (!strcmp(out, "-")) {
		if (fwrite(csrc, 1, len, stdout) != len || fflush(stdout) != 0) {
			fprintf(stderr, "ncsim compile: cannot write the output: %s\n", strerror(errno));
			rc = EXIT_USAGE;
		}
	} else if (outfile_write_all(out, csrc, len, 0, &err) < 0) {
		fprintf(stderr, "ncsim compile: %s\n", err);
		free(err);
		rc = EXIT_USAGE;
	}
	free(csrc);
	free(defout);
	return rc;
}
