/*
 * memlimit.c - the memory a run may plan to use (see memlimit.h).
 */
#include "base/memlimit.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/util.h"

static uint64_t limit_set;

void mem_limit_set(uint64_t bytes) { limit_set = bytes; }

/* Physical memory, or 4 GiB when the host does not say. */
static uint64_t physical(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return (uint64_t)4 << 30;
	return (uint64_t)pages * (uint64_t)size;
}

/* The host's physical memory, or the address-space limit (ulimit -v) when that is lower. */
static uint64_t host(void)
{
	uint64_t m = physical();
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (uint64_t)rl.rlim_cur < m)
		m = (uint64_t)rl.rlim_cur;
	return m;
}

uint64_t mem_limit(void) { return limit_set ? limit_set : host(); }

/* bytes in kB, MB, GB or TB, with three significant digits. */
static void human(uint64_t bytes, char *buf, size_t n)
{
	static const char *const unit[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1000 && u < 6) {
		v /= 1000;
		u++;
	}
	snprintf(buf, n, "%.3g %s", v, unit[u]);
}

int mem_limit_check(uint64_t need, const char *where, const char *what, char **err)
{
	uint64_t lim = mem_limit();
	if (need <= lim)
		return 0;
	char a[32], b[32];
	human(need, a, sizeof a);
	human(lim, b, sizeof b);
	*err = xasprintf("%s%s%s would need about %s, more than the memory limit of %s (%s; --max-memory SIZE changes it)",
	                 where ? where : "", where ? ": " : "", what, a, b,
	                 limit_set ? "set by --max-memory" : "the host's memory");
	return -1;
}
