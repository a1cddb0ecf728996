/*
 * cmd_report.c - `ncsim report DIR... [-o PAGE]`: the figures and tables of
 * finished runs in one HTML page (report/report.h, doc/report.md).
 *
 * The options come from the table every command shares
 * (runtime/task/options.c). That table's commands take one FILE at most, so
 * the DIR operands are taken out of the command line first (opt_operand
 * finds them, skipping option values), and the rest is parsed as usual.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcode.h"
#include "base/util.h"
#include "compiler/cli/commands.h"
#include "report/report.h"
#include "runtime/task/options.h"

/* Moves the operands of words[0..*n) to dirs[], in order; *n and *ndirs count what is left and taken. */
static void take_dirs(char **words, int *n, const char **dirs, size_t *ndirs)
{
	int k;
	while ((k = opt_operand(OPT_CMD_REPORT, *n, words)) >= 0) {
		dirs[(*ndirs)++] = words[k];
		memmove(words + k, words + k + 1, (size_t)(*n - k - 1) * sizeof *words);
		(*n)--;
	}
}

static int exit_status(enum rep_status st)
{
	switch (st) {
	case REP_OK: return EXIT_OK;
	case REP_ERR_INPUT: return EXIT_INPUT;
	case REP_ERR_IO:
	case REP_ERR_NO_GNUPLOT: return EXIT_USAGE;
	case REP_ERR_GNUPLOT: break;
	}
	return EXIT_INTERNAL;
}

int cmd_report(int argc, char **argv)
{
	/* argv[0] is "report". */
	int n = argc - 1, rc;
	char **words = xcalloc((size_t)argc, sizeof *words);
	const char **dirs = xcalloc((size_t)argc, sizeof *dirs);
	size_t ndirs = 0;
	memcpy(words, argv + 1, (size_t)n * sizeof *words);
	take_dirs(words, &n, dirs, &ndirs);
	opt_set o;
	rc = opt_parse(&o, OPT_CMD_REPORT, "ncsim report", n, words);
	if (rc == 0 && ndirs == 0) {
		fputs("ncsim report: no run folder given\n", stderr);
		opt_help(OPT_CMD_REPORT, "ncsim report", stderr);
		rc = -1;
	}
	if (rc != 0) {
		opt_free(&o);
		free(words);
		free(dirs);
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	}
	rep_options ro = {dirs, ndirs, opt_given(&o, OPT_OUTPUT) ? opt_get(&o, OPT_OUTPUT)->text : NULL};
	rep_result res;
	char *err = NULL;
	enum rep_status st = rep_build(&ro, &res, &err);
	if (st != REP_OK) {
		fprintf(stderr, "ncsim report: %s\n", err);
	} else {
		for (size_t i = 0; i < res.nwarnings; i++)
			fprintf(stderr, "ncsim report: warning: %s\n", res.warnings[i]);
		printf("ncsim report: wrote %s: %zu figure%s", res.page, res.drawn, res.drawn == 1 ? "" : "s");
		if (res.skipped)
			printf(", and %zu note%s saying why a figure is not drawn", res.skipped, res.skipped == 1 ? "" : "s");
		printf("; their data and gnuplot scripts are in %s/\n", res.figdir);
	}
	free(err);
	rep_result_free(&res);
	opt_free(&o);
	free(words);
	free(dirs);
	rc = exit_status(st);
	if (fflush(stdout) != 0 && rc == EXIT_OK)
		rc = EXIT_USAGE;
	return rc;
}
