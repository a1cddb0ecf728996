/*
 * par_lines.h - lines of text that a run over MPI ranks prints in the
 * sequential run's order (prefix pln_; doc/parallel.md).
 *
 * A handler that would print a line (OUTPUTS, a messages.csv row, a task's
 * failure) keeps it
 * with the key of the event it runs in (time, source, sequence) and its
 * place among that event's lines. After the run rank 0 gathers every
 * rank's lines and prints them in key order, which is the order in which a
 * sequential run fires the events, hence prints the lines.
 */
#ifndef NCSIM_PAR_LINES_H
#define NCSIM_PAR_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/util.h"
#include "runtime/kernel/sim.h"

typedef struct pln_lines {
	VEC(unsigned char) buf; /* records: key, length, then the text padded to 8 bytes */
	uint64_t n;             /* lines kept */
} pln_lines;

/* Keeps the len bytes of text (no newline) with the key of the event firing in ctx. */
void pln_add(pln_lines *l, const sim_ctx *ctx, const char *text, size_t len);
/* The same with a key of the caller's (an event that fired earlier). */
void pln_add_key(pln_lines *l, ncsim_time_t time, sim_eid src, uint64_t seq, const char *text, size_t len);
/*
 * Every rank calls it after the run: rank 0 writes on out (NULL: nowhere)
 * the first max lines of all ranks in key order, each with a newline. Frees
 * l's lines.
 */
void pln_merge(pln_lines *l, FILE *out, uint64_t max);
/* pln_merge that hands rank 0 each line (no newline), with the rank that kept it, instead of writing it. */
void pln_merge_each(pln_lines *l, uint64_t max, void (*emit)(void *arg, uint32_t rank, const char *text, size_t len),
                    void *arg);

/*
 * A bounded CSV log whose rows follow the run's events (messages.csv,
 * device_busy.csv): after `max` rows the others are only counted. In a
 * sequential run a row goes to `out` at once; in a run over ranks (`keyed`
 * set, on every rank) it is kept with its event's key until pln_log_merge.
 */
typedef struct pln_log {
	FILE *out;
	uint64_t max, rows, dropped;
	const sim_ctx *keyed;
	pln_lines kept;
} pln_log;

/* Whether rows are recorded at all. */
static inline int pln_log_on(const pln_log *l) { return l->out || l->keyed; }
/* One row (printf format, no newline). */
void pln_log_row(pln_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * After a run over ranks, on every rank: rank 0 writes on its out the first
 * `max` rows of all ranks in the sequential order; rows and dropped become
 * the run's totals on every rank. Frees the kept rows.
 */
void pln_log_merge(pln_log *l);

#endif
