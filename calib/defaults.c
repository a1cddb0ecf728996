/*
 * defaults.c - the parameters a calibration fits when the spec names none
 * (doc/calibration.md, "Default parameters"): per network level, the link
 * and NIC bandwidths and latencies and the MPI per-message costs and
 * protocol thresholds, each over a range that physical bounds set (from a
 * slow Ethernet to the fastest links in service, from a bare function call
 * to a page-pinning system call).
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "calib/spec.h"

typedef struct def_param {
	const char *name;   /* SECTION.KEY */
	const char *range;  /* as a spec writes it */
	unsigned levels;    /* bits of the levels it applies to */
} def_param;

enum { L_IDEAL = 1, L_ANALYTIC = 2, L_DRAGONFLY = 4, L_HYBRID = 8, L_LINKS = L_DRAGONFLY | L_HYBRID,
       L_MPI = L_ANALYTIC | L_DRAGONFLY | L_HYBRID };

static const def_param defaults[] = {
	/* The hybrid network derives its analytic half from the dragonfly's links: it has their keys only. */
	{"network.latency", "10ns:20us log", L_ANALYTIC},
	{"network.bandwidth", "100MB/s:100GB/s log", L_ANALYTIC},
	{"network.injection_bandwidth", "100MB/s:100GB/s log", L_ANALYTIC},
	{"network.terminal_bandwidth", "1GB/s:100GB/s log", L_LINKS},
	{"network.local_bandwidth", "1GB/s:100GB/s log", L_LINKS},
	{"network.global_bandwidth", "1GB/s:100GB/s log", L_LINKS},
	{"network.terminal_latency", "1ns:5us log", L_LINKS},
	{"network.local_latency", "1ns:5us log", L_LINKS},
	{"network.global_latency", "1ns:5us log", L_LINKS},
	{"network.router_delay", "1ns:1us log", L_LINKS},
	{"mpi.call_overhead", "1ns:5us log", L_MPI},
	{"mpi.post_header", "10ns:5us log", L_MPI},
	{"mpi.post_rdma", "10ns:10us log", L_MPI},
	{"mpi.small_max", "256B:16KiB log", L_MPI}, /* below medium_max's range: every pair is valid */
	{"mpi.medium_max", "16KiB:1MiB log", L_MPI},
};

/* The bit of a level name (packet is dragonfly). */
static unsigned level_bit(const char *level)
{
	static const char *const names[] = {"ideal", "analytic", "dragonfly", "hybrid"};
	if (!strcmp(level, "packet"))
		return L_DRAGONFLY;
	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(level, names[i]))
			return 1u << i;
	return 0;
}

void cal_spec_default_params(cal_spec *s, const char *level, int tag)
{
	unsigned bit = level_bit(level);
	for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) {
		if (!(defaults[i].levels & bit))
			continue;
		cal_param p = {0};
		char *e = NULL;
		if (cal_param_parse(defaults[i].name, defaults[i].range, NULL, 0, &p, &e) < 0) {
			free(e); /* the table is fixed: a test parses every row */
			continue;
		}
		const char *dot = strchr(defaults[i].name, '.');
		p.section = xstrndup(defaults[i].name, (size_t)(dot - defaults[i].name));
		p.key = xstrdup(dot + 1);
		p.level = tag ? xstrdup(level) : NULL;
		s->params = xreallocarray(s->params, s->nparams + 1, sizeof *s->params);
		s->params[s->nparams++] = p;
	}
}
