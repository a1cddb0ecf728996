/*
 * fuzz_vef.c - libFuzzer target: the VEF trace reader (runtime/traffic/vef.c)
 * on arbitrary text. Seeds: tests/fuzz/seeds-vef/ (the traces of tests/vef/).
 * `make fuzz` builds it; tests/fuzz/README.md says how to run it.
 */
#include "tests/fuzz/fuzz_common.h"

#include "runtime/traffic/vef.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size);
	if (!text)
		return 0;
	char *err = NULL;
	vef_trace *v = vef_parse("fuzz.vef", text, &err);
	/* Exactly one of the two must come back: a trace or a message. */
	if (!v == !err)
		abort();
	vef_free(v);
	free(err);
	free(text);
	return 0;
}
