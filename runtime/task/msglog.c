/*
 * msglog.c - messages.csv, one row per MPI message (see msglog.h).
 */
#include "runtime/task/msglog.h"

#include <inttypes.h>
#include <stdlib.h>

#include "runtime/kernel/par.h"
#include "runtime/kernel/sim.h"

static void print_row(FILE *out, unsigned job, uint32_t src, uint32_t dst, rt_int tag, uint64_t bytes,
                      ncsim_time_t sent, ncsim_time_t arrived)
{
	fprintf(out, "%u,%" PRIu32 ",%" PRIu32 ",%lld,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", job, src, dst,
	        (long long)tag, bytes, sent, arrived);
}

void tk_msglog_row(tk_msglog *l, unsigned job, uint32_t src, uint32_t dst, rt_int tag, uint64_t bytes,
                   ncsim_time_t sent, ncsim_time_t arrived)
{
	if (l->rows >= l->max) {
		l->dropped++;
		return;
	}
	if (l->keyed) {
		/* A rank's first max rows in its event order hold every row of the run's first max. */
		const sim_event *ev = sim_firing(l->keyed);
		tk_msgrec r = {.time = ev ? ev->time : 0, .seq = ev ? ev->seq : 0, .esrc = ev ? ev->src : 0,
		               .ord = l->rows, .job = job, .src = src, .dst = dst, .tag = tag, .bytes = bytes,
		               .sent = sent, .arrived = arrived};
		VEC_PUSH(&l->recs, r);
	} else {
		print_row(l->out, job, src, dst, tag, bytes, sent, arrived);
	}
	l->rows++;
}

static int key_order(const void *pa, const void *pb)
{
	const tk_msgrec *a = pa, *b = pb;
	int c = sim_key_cmp(a->time, a->esrc, a->seq, b->time, b->esrc, b->seq);
	return c ? c : (a->ord > b->ord) - (a->ord < b->ord);
}

void tk_msglog_merge(tk_msglog *l)
{
	uint64_t total = par_sum_u64(l->rows + l->dropped);
	void *all;
	size_t n;
	par_gather(l->recs.ptr, l->recs.len * sizeof *l->recs.ptr, &all, &n);
	VEC_FREE(&l->recs);
	size_t k = all ? n / sizeof(tk_msgrec) : 0;
	tk_msgrec *v = all;
	if (k)
		qsort(v, k, sizeof *v, key_order);
	if (k > l->max)
		k = (size_t)l->max;
	for (size_t i = 0; l->out && i < k; i++)
		print_row(l->out, v[i].job, v[i].src, v[i].dst, v[i].tag, v[i].bytes, v[i].sent, v[i].arrived);
	free(all);
	l->rows = total < l->max ? total : l->max;
	l->dropped = total - l->rows;
}
