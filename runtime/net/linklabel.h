/*
 * linklabel.h - bytes per link split by job and traffic class (prefix nl_).
 *
 * A network model gives every message a one-byte label for its (job, class)
 * pair and counts the bytes each label puts on each link in a row of its
 * own. Rows are allocated the first time a pair injects, so a run with one
 * job and one class pays for one row. Labels are dense and assigned in
 * injection order; pairs beyond NL_MAX - 1 share the last label (written
 * as job -1, class "other"), which keeps the packet a fixed size.
 */
#ifndef NCSIM_LINKLABEL_H
#define NCSIM_LINKLABEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/net/net.h"

#define NL_MAX 255 /* labels a uint8_t holds */

typedef struct nl_labels {
	size_t nslots;                     /* links of the model: the length of every row */
	uint32_t n;                        /* labels in use */
	uint8_t of[256][NET_NCLASSES];     /* label + 1 of (job, class); 0: none yet */
	uint8_t job[NL_MAX], cls[NL_MAX];
	uint64_t *bytes[NL_MAX];           /* per label: bytes per link slot */
} nl_labels;

void nl_init(nl_labels *l, size_t nslots);
void nl_fini(nl_labels *l);

/* Creates the label of a (job, tclass) pair seen for the first time (nl_label's slow path). */
uint8_t nl_label_new(nl_labels *l, unsigned job, unsigned tclass);

/* The label of (job, tclass), created with a zeroed row on first use; inline: one per message. */
static inline uint8_t nl_label(nl_labels *l, unsigned job, unsigned tclass)
{
	uint8_t v = l->of[job & 0xff][tclass < NET_NCLASSES ? tclass : NET_CLASS_MPI];
	return v ? (uint8_t)(v - 1) : nl_label_new(l, job, tclass);
}

/* Counts bytes of label lab crossing link slot. */
static inline void nl_add(nl_labels *l, uint8_t lab, size_t slot, uint64_t bytes) { l->bytes[lab][slot] += bytes; }

/* Header of links_by_class.csv. */
void nl_write_header(FILE *out);

/*
 * The rows of one link: "<prefix>,job,class,bytes" for every label with
 * bytes on slot; prefix is the link's "router,port,kind,peer".
 */
void nl_write_link(const nl_labels *l, FILE *out, size_t slot, const char *prefix);

#endif
