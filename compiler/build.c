/*
 * build.c - the skeleton build cache: cc -O2 -fPIC -shared, then dlopen (see build.h).
 */
#include "config.h"
#include "compiler/build.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

/* A 64-bit mix over 8-byte words (wyhash-style multiply-fold), seeded twice for 128 bits. */
static uint64_t mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static uint64_t hash64(const unsigned char *p, size_t n, uint64_t seed)
{
	const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
	uint64_t h = seed ^ mix(seed ^ k0, (uint64_t)n ^ k1);
	for (; n >= 8; p += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = mix(h ^ w ^ k0, k1 + 0x9e3779b97f4a7c15ull);
	}
	uint64_t tail = 0;
	memcpy(&tail, p, n);
	h = mix(h ^ tail ^ k1, k0 ^ ((uint64_t)n << 56));
	return mix(h, k1) ^ h;
}

void build_hash(const char *data, size_t n, char out[33])
{
	uint64_t a = hash64((const unsigned char *)data, n, 0x243f6a8885a308d3ull);
	uint64_t b = hash64((const unsigned char *)data, n, 0x13198a2e03707344ull);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

static int file_exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

const char *build_include_dir(void)
{
	const char *env = getenv("NCSIM_INCLUDE");
	if (env && *env)
		return env;
	if (file_exists(NCSIM_SRCDIR "/include/ncsim/rt.h"))
		return NCSIM_SRCDIR "/include";
	return NCSIM_INCLUDEDIR;
}

/* mkdir -p for the cache directory. */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = (mkdir(p, 0755) != 0 && errno != EEXIST) ? -1 : 0;
	free(p);
	return rc;
}

static char *default_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	if (x && *x)
		return xasprintf("%s/ncsim", x);
	const char *h = getenv("HOME");
	return xasprintf("%s/.cache/ncsim", h && *h ? h : "/tmp");
}

static int write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	size_t w = fwrite(data, 1, n, f);
	int rc = fclose(f);
	return (w == n && rc == 0) ? 0 : -1;
}

static char *read_small_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xstrdup("");
	VEC(char) b = {0};
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0 && b.len < 65536) {
		VEC_GROW(&b, b.len + n + 1);
		memcpy(b.ptr + b.len, buf, n);
		b.len += n;
	}
	fclose(f);
	VEC_PUSH(&b, 0);
	return b.ptr;
}

/* Splits a command string on blanks (compiler commands such as "ccache gcc"). */
static int split_words(char *s, char **argv, int max)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		argv[n++] = tok;
	return n;
}

/* The compiler command: o->cc, else $NCSIM_CC, else the configured one. */
static const char *cc_command(const build_opts *o)
{
	const char *cc = o->cc ? o->cc : getenv("NCSIM_CC");
	return cc && *cc ? cc : NCSIM_CC;
}

/*
 * Runs cc on src -> out; compiler diagnostics are captured into *log. Returns
 * 0 on success. Warnings are on (-Wall): generated C compiles without any
 * (the few about a program's meaning, such as u = u, are turned off in the
 * file: doc/codegen.md), so what remains comes from code a user wrote (a C
 * skeleton, BACKEND code).
 */
static int run_cc(const build_opts *o, const char *src, const char *out, const char *logpath, char **log)
{
	char *ccbuf = xstrdup(cc_command(o)), *flagbuf = xstrdup(o->cflags ? o->cflags : "");
	char *incflag = xasprintf("-I%s", build_include_dir());
	char *argv[96];
	int n = split_words(ccbuf, argv, 8);
	const char *fixed[] = {"-std=gnu99", "-O2", "-fPIC", "-shared", "-Wall"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		argv[n++] = (char *)fixed[i];
	argv[n++] = incflag;
	n += split_words(flagbuf, argv + n, 64);
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n++] = (char *)src;
	argv[n] = NULL;
	if (o->verbose) {
		for (int i = 0; i < n; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 2, 1);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0;
	if (rc == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		rc = (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : -1;
		*log = read_small_file(logpath);
	} else {
		*log = xasprintf("cannot run the C compiler '%s': %s\n", argv[0], strerror(rc));
		rc = -1;
	}
	unlink(logpath);
	free(ccbuf);
	free(flagbuf);
	free(incflag);
	return rc;
}

static int load_entry(const char *so, build_result *out, char **err)
{
	void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		*err = xasprintf("cannot load %s: %s", so, dlerror());
		return -1;
	}
	const rt_program *(*entry)(void);
	*(void **)&entry = dlsym(h, "ncsim_skeleton");
	const rt_program *p = entry ? entry() : NULL;
	if (!p) {
		*err = entry ? xasprintf("%s: the skeleton's ABI does not match this ncsim (rebuild it)", so)
		             : xasprintf("%s: no ncsim_skeleton() entry point", so);
		dlclose(h);
		return -1;
	}
	out->handle = h;
	out->program = p;
	return 0;
}

int build_load(const char *csrc, const char *name, const build_opts *o, build_result *out, char **err)
{
	static const build_opts defaults = {0};
	if (!o)
		o = &defaults;
	memset(out, 0, sizeof *out);
	char *dir = o->cache_dir ? xstrdup(o->cache_dir) : default_cache_dir();
	if (make_dirs(dir) != 0) {
		*err = xasprintf("cannot create the build cache %s: %s (XDG_CACHE_HOME chooses its place)", dir,
		                 strerror(errno));
		free(dir);
		return BUILD_CACHE_ERROR;
	}
	/*
	 * The runtime ABI too: a header change between two builds of one version
	 * must not reuse an entry. And the compiler: another NCSIM_CC (clang, a
	 * wrapper adding -O0) builds its own entry.
	 */
	char *key = xasprintf("%s\n--\nABI %u\n--\n%s\n--\n%s\n--\n%s\n--\n%s", PACKAGE_VERSION, (unsigned)NCSIM_RT_ABI,
	                      cc_command(o), o->cflags ? o->cflags : "", build_include_dir(), csrc);
	char hex[33];
	build_hash(key, strlen(key), hex);
	free(key);
	out->so_path = xasprintf("%s/%s.so", dir, hex);
	int rc = 0;
	if (file_exists(out->so_path)) {
		out->cached = 1;
	} else {
		/* Private temporaries, then an atomic rename: concurrent builders never see half a file. */
		char *csrc_path = xasprintf("%s/%s.%ld.c", dir, hex, (long)getpid());
		char *tmp_so = xasprintf("%s/%s.%ld.so.tmp", dir, hex, (long)getpid());
		char *logp = xasprintf("%s/%s.%ld.log", dir, hex, (long)getpid());
		char *log = NULL;
		if (write_file(csrc_path, csrc, strlen(csrc)) != 0) {
			*err = xasprintf("cannot write into the build cache: %s: %s", csrc_path, strerror(errno));
			rc = BUILD_CACHE_ERROR;
		} else if (run_cc(o, csrc_path, tmp_so, logp, &log) != 0) {
			*err = xasprintf("building %s failed:\n%s", name, log ? log : "");
			rc = BUILD_FAILED;
		} else if (log && *log && fputs(log, stderr) == EOF) {
			*err = xasprintf("cannot show the C compiler's warnings: %s", strerror(errno));
			rc = BUILD_FAILED;
		} else if (rename(tmp_so, out->so_path) != 0) {
			*err = xasprintf("cannot store %s in the build cache: %s", out->so_path, strerror(errno));
			rc = BUILD_CACHE_ERROR;
		}
		unlink(tmp_so);
		unlink(csrc_path);
		free(log);
		free(csrc_path);
		free(tmp_so);
		free(logp);
	}
	free(dir);
	if (rc == 0 && load_entry(out->so_path, out, err) != 0)
		rc = BUILD_FAILED;
	if (rc != 0) {
		free(out->so_path);
		out->so_path = NULL;
	}
	return rc;
}

void build_unload(build_result *r)
{
	if (r->handle)
		dlclose(r->handle);
	free(r->so_path);
	memset(r, 0, sizeof *r);
}
