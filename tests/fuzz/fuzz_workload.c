/*
 * fuzz_workload.c - libFuzzer target: the workload-file reader
 * (runtime/task/workload.c: wl_parse, then the capacity check) on arbitrary
 * text. Skeleton names are resolved as in a real run, which only looks at
 * whether files exist. Seeds: tests/fuzz/seeds-workload/.
 */
#include "tests/fuzz/fuzz_common.h"

#include "runtime/task/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size);
	if (!text)
		return 0;
	wl_file w;
	char *err = NULL;
	/* A folder that does not exist: relative skeleton paths resolve to nothing there. */
	if (wl_parse("/nonexistent-ncsim-fuzz/fuzz.wkld", text, &w, &err) == 0) {
		if (err || w.jobs.len == 0)
			abort();
		(void)wl_total_tasks(&w);
		if (wl_check_capacity(&w, 64, 72, &err) < 0 && !err)
			abort();
		wl_free(&w);
	} else if (!err) {
		abort();
	}
	free(err);
	free(text);
	return 0;
}
