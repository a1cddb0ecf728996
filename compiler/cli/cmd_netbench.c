/*
 * cmd_netbench.c - `ncsim netbench [options]`: the command line of the
 * synthetic-traffic driver of the network module (runtime/net/netbench.h).
 *
 * The options come from the table every command shares
 * (runtime/task/options.c), and the machine comes the way `ncsim run` gets
 * it: --system names a system file or a preset (or, here, a CODES
 * dragonfly-dally file), no --system means the built-in default system,
 * --seed seeds the kernel, --routing overrides the system's routing and
 * --until stops the simulation. --out DIR receives netbench.csv (the --csv
 * line) and links.csv.
 *
 * Under mpirun with several ranks the run is split by whole dragonfly groups
 * over the ranks (doc/parallel.md, nb_run): rank 0 prints the partition and,
 * after the run, the window statistics on stderr, and writes the report and
 * the files, which are those of the sequential run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "compiler/cli/commands.h"
#include "base/exitcode.h"
#include "runtime/kernel/par.h"
#include "runtime/net/dragonfly.h"
#include "runtime/net/netbench.h"
#include "runtime/stats/outfile.h"
#include "runtime/task/driver.h"
#include "runtime/task/options.h"
#include "base/sysconf.h"
#include "base/util.h"

/* The traffic the options ask for. */
static nb_params traffic(const opt_set *o)
{
	nb_params p = {
		.pattern = opt_given(o, OPT_PATTERN) ? (enum nb_pattern)opt_get(o, OPT_PATTERN)->choice : NB_UNIFORM,
		.load = opt_given(o, OPT_LOAD) ? opt_get(o, OPT_LOAD)->real : 0.3,
		.hot_frac = opt_given(o, OPT_HOTSPOT_FRAC) ? opt_get(o, OPT_HOTSPOT_FRAC)->real : 0.2,
		.size = opt_get(o, OPT_SIZE)->num,
		.poisson = opt_given(o, OPT_ARRIVAL) ? opt_get(o, OPT_ARRIVAL)->choice : 1,
		.codes = opt_given(o, OPT_CODES_MODE),
		.duration = opt_given(o, OPT_DURATION) ? opt_get(o, OPT_DURATION)->time : 100 * (ncsim_time_t)1000000,
		.warmup = opt_given(o, OPT_WARMUP) ? opt_get(o, OPT_WARMUP)->time : NB_WARMUP_DEFAULT,
		.until = opt_get(o, OPT_UNTIL)->time,
	};
	if (!p.until && opt_given(o, OPT_STOP_AT_END))
		p.until = p.duration;
	return p;
}

/* The dragonfly of the system d names (see the top of this file). NULL after a message. */
static net_model *machine(const opt_set *o, const drv_options *d, sim_ctx *ctx)
{
	nb_shape shape = {
		.groups = (uint32_t)opt_get(o, OPT_GROUPS)->num, .routers = (uint32_t)opt_get(o, OPT_ROUTERS)->num,
		.nodes = (uint32_t)opt_get(o, OPT_NODES)->num, .globals = (uint32_t)opt_get(o, OPT_GLOBALS)->num,
	};
	char *err = NULL;
	sysconf_t *sys = drv_load_system(d, &err); /* a CODES file comes as the native system it describes */
	int routing = opt_given(o, OPT_ROUTING) ? opt_get(o, OPT_ROUTING)->choice : -1;
	net_model *net = sys ? nb_network(ctx, sys, NULL, &shape, routing, &err) : NULL;
	sysconf_free(sys);
	if (!net)
		fprintf(stderr, "ncsim netbench: %s\n", err ? err : "cannot build the network");
	free(err);
	return net;
}

/* Writes path through an atomic outfile: the CSV report if r, else the links. 0, or -1 after a message. */
static int write_file(const char *path, net_model *net, const nb_params *p, const nb_result *r)
{
	char *err = NULL;
	outfile *f = outfile_open(path, 0, &err);
	if (f && r)
		nb_print(net, p, r, 1, outfile_stream(f));
	if (f && !r && net->ops->write_links(net, outfile_stream(f)) < 0) {
		outfile_abort(f);
		f = NULL;
	}
	if (f && outfile_commit(f, &err) == 0)
		return 0;
	fprintf(stderr, "ncsim netbench: %s\n", err ? err : "cannot write the output");
	free(err);
	return -1;
}

/* --links FILE and the files of the --out folder (its temporary folder, od->staging). 0, or -1 after a message. */
static int write_outputs(const opt_set *o, drv_outdir *od, net_model *net, const nb_params *p, const nb_result *r)
{
	const char *links = opt_get(o, OPT_LINKS)->text;
	if (links && write_file(links, net, p, NULL) < 0)
		return -1;
	if (!od->staging)
		return 0;
	char *err = NULL, *csv = xasprintf("%s/netbench.csv", od->staging), *lk = xasprintf("%s/links.csv", od->staging);
	int rc = write_file(csv, net, p, r) == 0 && write_file(lk, net, p, NULL) == 0 ? 0 : -1;
	if (rc == 0 && drv_outdir_commit(od, &err) < 0) {
		fprintf(stderr, "ncsim netbench: %s\n", err);
		free(err);
		rc = -1;
	}
	free(csv);
	free(lk);
	return rc;
}

/* Rank 0's account of the windows of a run over several ranks, on stderr. */
static void window_stats(const par_stats *s, ncsim_time_t end)
{
	if (par_rank() == 0)
		par_stats_print(s, end, stderr);
}

/* Runs the traffic on the machine and reports it. An exit status. */
static int bench(const opt_set *o, const drv_options *d, const nb_params *p, drv_outdir *od)
{
	sim_ctx *ctx = sim_new(d->seed);
	int speak = par_rank() == 0; /* over several ranks, rank 0 reports */
	sim_set_progress(ctx, speak ? (enum sim_progress)d->progress : SIM_PROGRESS_OFF, p->until ? p->until : p->duration);
	net_model *net = machine(o, d, ctx);
	if (!net) {
		sim_free(ctx);
		return EXIT_INPUT;
	}
	if (speak && opt_given(o, OPT_DESCRIBE))
		df_describe(net, stdout);
	struct timespec t0, t1;
	nb_result r;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = nb_run(ctx, net, p, &r, stderr);
	if (rc == 2) { /* the machine cannot be split over the ranks */
		net_destroy(net);
		sim_free(ctx);
		return EXIT_USAGE;
	}
	int status = rc ? EXIT_INPUT : EXIT_OK;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	r.wall_s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r.rss_mib = (double)ru.ru_maxrss / 1024.0;
	window_stats(&r.par, r.end_time);
	if (speak)
		nb_print(net, p, &r, opt_given(o, OPT_CSV), stdout);
	if (speak && status == EXIT_OK && write_outputs(o, od, net, p, &r) < 0)
		status = EXIT_USAGE;
	/* Every rank leaves with rank 0's status (its writes may fail). */
	if (par_size() > 1)
		status = (int)par_max_u64((uint64_t)status);
	net_destroy(net);
	sim_free(ctx);
	return status;
}

/* The command once MPI is up (or known absent). An exit status. */
static int netbench(int argc, char **argv)
{
	opt_set o;
	char *err = NULL;
	drv_options d = {0};
	/* argv[0] is "netbench". */
	int rc = opt_parse(&o, OPT_CMD_NETBENCH, "ncsim netbench", argc - 1, argv + 1);
	if (rc != 0)
		return rc > 0 ? EXIT_OK : EXIT_USAGE;
	nb_params p = traffic(&o);
	if (nb_check(&p, &err) < 0 || opt_run_settings(&o, &d, &err) < 0) {
		fprintf(stderr, "ncsim netbench: %s\n", err);
		free(err);
		opt_free(&o);
		return EXIT_USAGE;
	}
	/* The --out folder is prepared first: an existing or unwritable one fails before the run. */
	drv_outdir od = {0};
	if (opt_given(&o, OPT_OUT) && par_rank() == 0 && opt_out_dir(&o, "netbench", &od, &err) < 0) {
		fprintf(stderr, "ncsim netbench: %s\n", err);
		free(err);
		opt_free(&o);
		return EXIT_USAGE;
	}
	rc = bench(&o, &d, &p, &od);
	drv_outdir_free(&od); /* removes the folder of a run that failed */
	opt_free(&o);
	return rc;
}

int cmd_netbench(int argc, char **argv)
{
	char *err = NULL;
	if (par_init(&argc, &argv, &err) < 0) {
		fprintf(stderr, "ncsim netbench: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	int rc = netbench(argc, argv);
	par_finalize();
	return rc;
}
