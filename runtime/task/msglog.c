/*
 * msglog.c - messages.csv, one row per MPI message (see msglog.h).
 */
#include "runtime/task/msglog.h"

#include <inttypes.h>

/* A row: job, src, dst, tag, bytes, send_ps, arrive_ps. */
#define ROW_FMT "%u,%" PRIu32 ",%" PRIu32 ",%lld,%" PRIu64 ",%" PRIu64 ",%" PRIu64

void tk_msglog_row(tk_msglog *l, unsigned job, uint32_t src, uint32_t dst, rt_int tag, uint64_t bytes,
                   ncsim_time_t sent, ncsim_time_t arrived)
{
	pln_log_row(l, ROW_FMT, job, src, dst, (long long)tag, bytes, sent, arrived);
}
