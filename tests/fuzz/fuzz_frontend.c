/*
 * fuzz_frontend.c - libFuzzer target: the whole front end (scanner, token
 * filter, parser, error recovery, AST printer) on arbitrary bytes.
 *
 * Build and run (from a configured build tree; tests/local.mk has the rule):
 *
 *   make fuzz                       (FUZZ_CC=clang-NN to choose the compiler)
 *   fuzz/fuzz_frontend -max_total_time=300 -max_len=4096 $S/tests/fuzz/seeds
 *
 * The seeds are copies of the golden programs of tests/golden/.  Any crash
 * or leak report is a bug; turn the input into a golden error test.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/ast_print.h"
#include "lang/frontend.h"
#include "lang/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Diagnostics and the AST go to a null sink: their code runs, nothing
	 * is shown. */
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	fe_ctx *fe = fe_new(sink);
	ast_node *prog = fe_parse_string(fe, "fuzz.ncptl", (const char *)data, size);
	if (fe_errors(fe) == 0 && sink)
		ast_print(sink, fe_sources(fe), prog);
	if (fe_errors(fe) == 0) {
		/* Semantic analysis too; file checks stay off so inputs cannot name host files. */
		sema_opts so = {0};
		sema_info si;
		sema_check(fe, prog, &so, &si);
	}
	fe_free(fe);
	return 0;
}
