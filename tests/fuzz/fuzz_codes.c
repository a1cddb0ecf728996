/*
 * fuzz_codes.c - libFuzzer target: CODES dragonfly-dally configurations
 * (runtime/net/dragonfly_codes_conf.c: df_is_codes_conf, df_config_from_codes)
 * and, for those that parse, CODES' binary connection files
 * (runtime/net/dragonfly_topo.c: df_topo_build).
 *
 * Input: the configuration text, then optionally a NUL byte, two bytes (little
 * endian) giving the length of the intra-group file, that file and the
 * inter-group file. The three files go to a fresh folder under /tmp, removed
 * after each input; the configuration's own file names are replaced by these
 * two, so no input reads files of the host. Seeds: tests/fuzz/seeds-codes/
 * (regress-*: inputs that once crashed the reader).
 */
#include "tests/fuzz/fuzz_common.h"

#include <stdio.h>
#include <unistd.h>

#include "runtime/net/dragonfly.h"
#include "runtime/net/dragonfly_topo.h"
#include "base/util.h"

/* One input's folder and files: made and removed per input, so a killed fork-mode job leaves nothing behind. */
static char dir[64], conf[96], intra[96], inter[96];

static void cleanup(void)
{
	unlink(conf);
	unlink(intra);
	unlink(inter);
	rmdir(dir);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	mem_limit_set(FZ_MEMORY_LIMIT);
	snprintf(dir, sizeof dir, "/tmp/fuzz-codes.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(conf, sizeof conf, "%s/df.conf", dir);
	snprintf(intra, sizeof intra, "%s/intra", dir);
	snprintf(inter, sizeof inter, "%s/inter", dir);
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size, rest = nul ? size - tlen - 1 : 0, ilen = 0;
	const uint8_t *bin = nul ? nul + 1 : NULL;
	if (rest >= 2) {
		ilen = (size_t)bin[0] | (size_t)bin[1] << 8;
		bin += 2;
		rest -= 2;
		ilen = ilen < rest ? ilen : rest;
	}
	put(conf, data, tlen);
	put(intra, bin ? bin : data, bin ? ilen : 0);
	put(inter, bin ? bin + ilen : data, bin && rest > ilen ? rest - ilen : 0);

	(void)df_is_codes_conf(conf);
	/* Garbage, as in the stack variable of a caller: the reader must set every field it frees. */
	df_config c;
	memset(&c, 0xbe, sizeof c);
	char *err = NULL;
	if (df_config_from_codes(&c, conf, &err) == 0) {
		if (err)
			abort();
		df_config_clear(&c);
		c.intra_file = xstrdup(intra);
		c.inter_file = xstrdup(inter);
		df_topo t;
		if (df_topo_build(&t, &c, &err) == 0)
			df_topo_free(&t);
		df_config_clear(&c);
	}
	free(err);
	cleanup();
	return 0;
}
