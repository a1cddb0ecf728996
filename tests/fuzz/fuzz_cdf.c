/*
 * fuzz_cdf.c - libFuzzer target: the CDF table reader and the sampler of
 * runtime/traffic/cdf.c on arbitrary text. Seeds: tests/fuzz/seeds-cdf/
 * (small tables of stdlib/traffic/ and the tests).
 */
#include "tests/fuzz/fuzz_common.h"

#include "runtime/traffic/cdf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size);
	if (!text)
		return 0;
	char *err = NULL;
	tcdf *c = trf_cdf_parse("fuzz.cdf", text, &err);
	if (!c == !err)
		abort();
	if (c) {
		/* Every draw must return one of the table's sizes. */
		for (int k = 1; k <= 16; k++) {
			uint64_t s = trf_cdf_draw(c, k / 16.0);
			if (s < c->size[0] || s > c->size[c->n - 1])
				abort();
		}
	}
	trf_cdf_free(c);
	free(err);
	free(text);
	return 0;
}
