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

#endif
