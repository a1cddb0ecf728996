/*
 * fuzz_sysconf.c - libFuzzer target: native system files (base/sysconf.c)
 * and the checks `ncsim run` applies when it loads one: drv_machine_nodes
 * (runtime/task/driver.c) reads the storage configuration, builds the network
 * the file describes (ideal, analytic, dragonfly or hybrid) and the storage
 * subsystem on it, as `ncsim run FILE.wkld` does before placing jobs.
 *
 * Every typed lookup also runs on key `v` of section [fuzz], so the value
 * parsers (sizes, bandwidths, times, booleans) see arbitrary text.
 * Seeds: tests/fuzz/seeds-sysconf/ (stdlib/systems and the test systems).
 */
#include "tests/fuzz/fuzz_common.h"

#include "base/sysconf.h"
#include "runtime/task/driver.h"

/* A malformed value must come with a message (and only then). */
static void check(int rc, char **err)
{
	if ((rc < 0) != (*err != NULL))
		abort();
	free(*err);
	*err = NULL;
}

/* Each typed lookup of [fuzz] v. */
static void lookups(const sysconf_t *c)
{
	char *err = NULL;
	int64_t i;
	double d;
	uint64_t u;
	ncsim_time_t t;
	int b;
	const char *s;
	check(sysconf_int(c, "fuzz", "v", &i, &err), &err);
	check(sysconf_double(c, "fuzz", "v", &d, &err), &err);
	check(sysconf_size(c, "fuzz", "v", &u, &err), &err);
	check(sysconf_bandwidth(c, "fuzz", "v", &d, &err), &err);
	check(sysconf_time(c, "fuzz", "v", &t, &err), &err);
	check(sysconf_bool(c, "fuzz", "v", &b, &err), &err);
	check(sysconf_string(c, "fuzz", "v", &s, &err), &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mem_limit_set(FZ_MEMORY_LIMIT);
	char *text = fz_text(data, size);
	if (!text)
		return 0;
	char *err = NULL;
	sysconf_t *c = sysconf_parse("fuzz.conf", text, &err);
	if (!c == !err)
		abort();
	free(err);
	err = NULL;
	if (c) {
		lookups(c);
		for (size_t k = 0; sysconf_section_name(c, k); k++)
			(void)sysconf_has_section(c, sysconf_section_name(c, k));
		(void)sysconf_where(c, "network", "model");
		(void)sysconf_unused(c, NULL);
		sysconf_free(c);

		drv_options o = {.system_text = text, .seed = 1};
		uint32_t nnodes = 0;
		uint8_t *mask = NULL;
		if (drv_machine_nodes(&o, 4, &nnodes, &mask, &err) < 0 && !err)
			abort();
		free(mask);
		free(err);
	}
	free(text);
	return 0;
}
