/*
 * linklabel.c - bytes per link split by job and traffic class (see linklabel.h).
 */
#include "runtime/net/linklabel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void nl_init(nl_labels *l, size_t nslots)
{
	memset(l, 0, sizeof *l);
	l->nslots = nslots;
}

void nl_fini(nl_labels *l)
{
	for (uint32_t i = 0; i < NL_MAX; i++)
		free(l->bytes[i]);
	memset(l, 0, sizeof *l);
}

uint8_t nl_label_new(nl_labels *l, unsigned job, unsigned tclass)
{
	job &= 0xff;
	if (tclass >= NET_NCLASSES)
		tclass = NET_CLASS_MPI;
	if (l->of[job][tclass])
		return (uint8_t)(l->of[job][tclass] - 1);
	uint32_t lab = l->n;
	if (lab == NL_MAX - 1 && l->bytes[lab]) {
		l->of[job][tclass] = (uint8_t)(lab + 1); /* the shared "other" label, already there */
		return (uint8_t)lab;
	}
	l->bytes[lab] = xcalloc(l->nslots ? l->nslots : 1, sizeof **l->bytes);
	l->job[lab] = (uint8_t)job;
	l->cls[lab] = (uint8_t)tclass;
	l->of[job][tclass] = (uint8_t)(lab + 1);
	if (lab < NL_MAX - 1)
		l->n++;
	return (uint8_t)lab;
}

void nl_write_header(FILE *out) { fputs("router,port,kind,peer,job,class,bytes\n", out); }

/*
 * The rows of a link come in (job, class) order, whatever the order in which
 * the pairs first injected: a partitioned run creates every label up front
 * (df_par_labels), and its file must be the sequential run's.
 */
void nl_write_link(const nl_labels *l, FILE *out, size_t slot, const char *prefix)
{
	uint8_t ord[NL_MAX];
	uint32_t n = 0;
	for (uint32_t i = 0; i < NL_MAX - 1 && l->bytes[i]; i++) {
		uint32_t k = n++;
		for (; k > 0 && (l->job[ord[k - 1]] > l->job[i] ||
		                 (l->job[ord[k - 1]] == l->job[i] && l->cls[ord[k - 1]] > l->cls[i])); k--)
			ord[k] = ord[k - 1];
		ord[k] = (uint8_t)i;
	}
	for (uint32_t k = 0; k < n; k++) {
		uint64_t b = l->bytes[ord[k]][slot];
		if (b)
			fprintf(out, "%s,%u,%s,%" PRIu64 "\n", prefix, l->job[ord[k]], net_class_name(l->cls[ord[k]]), b);
	}
	if (l->bytes[NL_MAX - 1] && l->bytes[NL_MAX - 1][slot])
		fprintf(out, "%s,-1,other,%" PRIu64 "\n", prefix, l->bytes[NL_MAX - 1][slot]);
}
