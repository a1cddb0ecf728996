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
#include "base/util.h"

static void compile_usage(FILE *f)
{
	fputs("usage: ncsim compile FILE.ncptl [-o OUT.c] [--allow-backend-code]\n"
	      "  Translates a coNCePTuaL program into one C file that builds with\n"
	      "  cc OUT.c $(pkg-config --cflags --libs ncsim).\n"
	      "  -o OUT.c               output file (default: FILE.c in the current directory; - for stdout)\n"
	      "  --allow-backend-code   paste BACKEND EXECUTES/DECLARES text verbatim\n",
	      f);
}

int cmd_compile(int argc, char **argv)
{
	const char *path = NULL, *out = NULL;
	cg_opts o = {0};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			compile_usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--allow-backend-code")) {
			o.allow_backend_code = 1;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			out = a + 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ncsim compile: unknown option '%s'\n", a);
			compile_usage(stderr);
			return EXIT_USAGE;
		} else if (path) {
			fprintf(stderr, "ncsim compile: only one FILE may be given\n");
			return EXIT_USAGE;
		} else {
			path = a;
		}
	}
	if (!path) {
		compile_usage(stderr);
		return EXIT_USAGE;
	}
	char *csrc, *defout = NULL;
	size_t len;
	int rc = cg_compile_file(path, &o, stderr, &csrc, &len);
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
