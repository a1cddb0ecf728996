/*
 * msglog.c - messages.csv, one row per MPI message (see msglog.h).
 */
#include "runtime/task/msglog.h"

#include <inttypes.h>

#include "runtime/kernel/par.h"

/* A row: job, src, dst, tag, bytes, send_ps, arrive_ps. */
#define ROW_FMT "%u,%" PRIu32 ",%" PRIu32 ",%lld,%" PRIu64 ",%" PRIu64 ",%" PRIu64

void tk_msglog_row(tk_msglog *l, unsigned job, uint32_t src, uint32_t dst, rt_int tag, uint64_t bytes,
                   ncsim_time_t sent, ncsim_time_t arrived)
{
	if (l->rows >= l->max) {
		l->dropped++;
		return;
	}
	l->rows++;
	if (!l->keyed) {
		fprintf(l->out, ROW_FMT "\n", job, src, dst, (long long)tag, bytes, sent, arrived);
		return;
	}
	/* A rank's first max rows in its event order hold every row of the run's first max. */
	char row[160];
	int n = snprintf(row, sizeof row, ROW_FMT, job, src, dst, (long long)tag, bytes, sent, arrived);
	pln_add(&l->kept, l->keyed, row, (size_t)n);
}

void tk_msglog_merge(tk_msglog *l)
{
	uint64_t total = par_sum_u64(l->rows + l->dropped);
	pln_merge(&l->kept, l->out, l->max);
	l->rows = total < l->max ? total : l->max;
	l->dropped = total - l->rows;
}
