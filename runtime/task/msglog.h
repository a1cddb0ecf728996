/*
 * msglog.h - messages.csv, one row per MPI message (prefix tk_msglog_):
 * the raw data behind the latency distributions of summary.json, for
 * plots of one's own. `ncsim run --message-log` writes it.
 *
 * A row is written when the message's last byte reaches the receiver, so
 * rows are in arrival order. The file is bounded: after `max` rows the
 * others are only counted, and the run says how many it left out.
 */
#ifndef NCSIM_TK_MSGLOG_H
#define NCSIM_TK_MSGLOG_H

#include <stdint.h>
#include <stdio.h>

#include "ncsim/rt.h"
#include "runtime/kernel/par_lines.h"

#define TK_MSGLOG_MAX_DEFAULT 1000000u
#define TK_MSGLOG_HEADER "job,src,dst,tag,bytes,send_ps,arrive_ps"

typedef pln_log tk_msglog;

/* One message of job `job` (its index) from rank src to rank dst, posted at sent, arrived at arrived. */
void tk_msglog_row(tk_msglog *l, unsigned job, uint32_t src, uint32_t dst, rt_int tag, uint64_t bytes,
                   ncsim_time_t sent, ncsim_time_t arrived);

/* A run over ranks: pln_log_merge. */

#endif
