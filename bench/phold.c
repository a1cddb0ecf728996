/*
 * phold.c - benchmark driver for the kernel: runs PHOLD and prints one line of
 * figures (events, events/s, peak RSS, order hash). bench/phold.sh runs it.
 *
 *   phold_bench [-n LPS] [-m EVENTS_PER_LP] [-e TARGET_EVENTS] [-r REMOTE]
 *               [-l LOOKAHEAD_PS] [-M MEAN_PS] [-s SEED] [-p]
 *
 * The run stops at the simulated time where TARGET_EVENTS are expected
 * (the population is LPS*EVENTS_PER_LP, each event lives lookahead+mean ps on
 * average), so the count printed is close to, not exactly, the target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "runtime/kernel/phold.h"
#include "runtime/kernel/sim.h"

static void usage(const char *argv0)
{
	fprintf(stderr,
	        "usage: %s [-n LPS] [-m EVENTS_PER_LP] [-e TARGET_EVENTS] [-r REMOTE] "
	        "[-l LOOKAHEAD_PS] [-M MEAN_PS] [-s SEED] [-p]\n",
	        argv0);
}

int main(int argc, char **argv)
{
	phold_params p = { .nlp = 1024, .events_per_lp = 16, .remote = 0.9, .lookahead = 1000, .mean = 9000.0 };
	double target = 20e6;
	unsigned long long seed = 1;
	int progress = 0, c;
	while ((c = getopt(argc, argv, "n:m:e:r:l:M:s:p")) != -1) {
		switch (c) {
		case 'n': p.nlp = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'm': p.events_per_lp = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'e': target = strtod(optarg, NULL); break;
		case 'r': p.remote = strtod(optarg, NULL); break;
		case 'l': p.lookahead = strtoull(optarg, NULL, 0); break;
		case 'M': p.mean = strtod(optarg, NULL); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'p': progress = 1; break;
		default: usage(argv[0]); return 2;
		}
	}
	if (optind != argc || p.nlp == 0 || p.events_per_lp == 0 || !(target > 0)) {
		usage(argv[0]);
		return 2;
	}
	sim_ctx *ctx = sim_new(seed);
	phold *m = phold_new(ctx, &p);
	if (m == NULL) {
		fprintf(stderr, "%s: invalid PHOLD parameters\n", argv[0]);
		sim_free(ctx);
		return 2;
	}
	double life = (double)p.lookahead + p.mean;
	ncsim_time_t until = (ncsim_time_t)(target * life / ((double)p.nlp * p.events_per_lp));
	sim_set_progress(ctx, progress ? SIM_PROGRESS_ON : SIM_PROGRESS_AUTO, until);
	int rc = sim_run(ctx, until);
	const sim_stats *st = sim_get_stats(ctx);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("lps=%u ev_per_lp=%u remote=%.2f events=%llu end_ps=%llu wall_s=%.3f ev_per_s=%.0f "
	       "peak_pending=%llu pool=%llu rss_kb=%ld hash=%016llx\n",
	       p.nlp, p.events_per_lp, p.remote, (unsigned long long)st->events,
	       (unsigned long long)st->end_time, st->wall_seconds,
	       st->wall_seconds > 0 ? (double)st->events / st->wall_seconds : 0.0,
	       (unsigned long long)st->peak_pending, (unsigned long long)sim_pool_capacity(ctx),
	       ru.ru_maxrss, (unsigned long long)phold_hash(m));
	sim_free(ctx);
	phold_free(m);
	return rc ? 1 : 0;
}
