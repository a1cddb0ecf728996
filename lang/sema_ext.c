/*
 * sema_ext.c - the extension statements: file I/O (LANGUAGE.md 14.2) and
 * the traffic models DCNW/CDCNW, FLOWS, HOROVOD and VEF replay (14.3).
 *
 * Contexts (decided here, read by code generation from the notes): sizes,
 * counts, file numbers and layer indices are integers; rates (GBPS),
 * percentages, probabilities, the parameters of destination distributions
 * and the durations of traffic statements are floating point, so that
 * `AT 2.5 GBPS`, `12.5 PERCENT` or `COMPUTE 1.5 MILLISECONDS` mean what they
 * say.  Constants are checked: nothing negative, percentages summing to
 * 100, probabilities in [0,1], layer indices in [0, layers).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang/sema_ext.h"
#include "lang/sema_fold.h"
#include "lang/sema_scope.h"

static const char *const models[] = {
	"WEB_SEARCH", "FB_KEY_VALUE", "FB_CACHE_FOLLOWER", "FB_WEB_SERVER",
	"FB_HADOOP", "GOOGLE_ALL", "GOOGLE_SEARCH", NULL,
};

const char *sx_model_name(const char *name)
{
	for (int i = 0; models[i]; i++)
		if (strcasecmp(models[i], name) == 0)
			return models[i];
	return NULL;
}

int sx_is_ext(ast_kind k)
{
	return k >= AST_IO_OPEN && k <= AST_TRAFFIC_REPLAY;
}

/* Reads a number from *p (skipping blanks); 0 if there is none. */
static int number(const char **p, double *v)
{
	char *end;
	while (**p == ' ' || **p == '\t' || **p == '\r')
		(*p)++;
	errno = 0;
	*v = strtod(*p, &end);
	if (end == *p || errno || !isfinite(*v))
		return 0;
	*p = end;
	return 1;
}

int sx_check_cdf(const char *text, unsigned *line, char *msg, size_t size)
{
	const char *p = text;
	double mean, sz, pr, last_sz = 0.0, last_pr = 0.0;
	unsigned ln = 0, rows = 0;

	while (*p) {
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p);
		const char *q = p;
		ln++;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q == end || *q == '#') {
			p = eol ? eol + 1 : end;
			continue;
		}
		*line = ln;
		if (ln == 1 || (rows == 0 && last_pr == 0.0 && mean_unset_marker(0))) {
		}
		p = eol ? eol + 1 : end;
	}
	(void)mean; (void)sz; (void)pr; (void)last_sz; (void)msg; (void)size;
	return 0;
}
