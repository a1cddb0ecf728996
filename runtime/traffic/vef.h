/*
 * vef.h - reader of extended VEF traces (prefix vef_): the traffic models of
 * LANGUAGE.md §14.3 written as a trace file. doc/traffic.md gives the format;
 * in short (blank lines and lines starting with `#` are ignored):
 *
 *   VEF3 tasks msgs colls comms [clock_ps]       header; clock_ps defaults to 1000 (1 ns)
 *   EXT DCNW                                     then: MODEL dest LOAD gbps        (msgs messages)
 *   EXT CDCNW                                    then: path dest LOAD gbps         (path: word or "quoted")
 *   EXT FLOWS                                    then: CLASSES c TIME cycles dest  (msgs flows)
 *                                                and c lines: id MAX kb MIN kb PERC p [dest]
 *   EXT HOROVOD                                  then: BATCHES b LAYERS l
 *                                                DEFAULT key value ...  (all seven keys)
 *                                                LAYER k key value ...  (any number)
 *   dest = UNIFORM | GAUSS [mean dev] | POISSON [mean]
 *   keys: COMPUTE_MS NEGOTIATION_LOOP_MS GATV_BYTES GATV_TOTAL_BYTES GATV_PROB BCAST_BYTES ARED_KBYTES
 *
 * KB are 1024 bytes. The reader is strict: an unknown word, a missing or
 * extra field, a value out of range or a record after the model's records is
 * an error "file:line: expected FORM, found `TEXT`" (or a sentence saying
 * which rule the value breaks).
 */
#ifndef NCSIM_VEF_H
#define NCSIM_VEF_H

#include <stdint.h>

#include "ncsim/traffic.h"

enum vef_model { VEF_DCNW, VEF_CDCNW, VEF_FLOWS, VEF_HOROVOD };

typedef struct vef_trace {
	char *path;
	int tasks;
	uint64_t msgs, colls, comms;
	ncsim_time_t clock_ps;
	int model;                 /* enum vef_model */
	rt_dcnw_params dcnw;       /* DCNW, CDCNW (strings owned by the trace) */
	rt_flows_params flows;     /* FLOWS (classes owned by the trace) */
	rt_horovod_params hvd;     /* HOROVOD (overrides owned by the trace) */
} vef_trace;

/* Parses the text of a trace (`path` names it in messages). NULL with *err (heap, "path:line: ..."). */
vef_trace *vef_parse(const char *path, const char *text, char **err);
/* Reads and parses a trace file. NULL with *err. */
vef_trace *vef_load(const char *path, char **err);
/* Frees v (NULL is a no-op). */
void vef_free(vef_trace *v);

#endif
