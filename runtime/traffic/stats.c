/*
 * traffic_stats.c - figures of traffic runs for summary.json and stdout (see traffic_stats.h).
 */
#include "runtime/traffic/stats.h"

#include <inttypes.h>
#include <math.h>

#include "runtime/net/dragonfly.h"
#include "runtime/traffic/traffic.h"

static const char *model_key(int m)
{
	static const char *const k[] = {"dcnw", "cdcnw", "flows", "horovod"};
	return k[m];
}

static const char *const hvd_kind[TRF_HVD_NKINDS] = {"gather", "gatherv", "broadcast", "allreduce"};

/* Terminal (NIC) bandwidth of the network in bytes/s, or 0 if the model has none. */
static double terminal_bw(net_model *net)
{
	return df_is_dragonfly(net) ? df_get_config(net)->bw[DF_TERMINAL] : 0;
}

void trf_stat_figures(const struct task_world *w, const trf_run *r, trf_stat_fig *f)
{
	*f = (trf_stat_fig){.exec = r->t_end > r->t_start ? r->t_end - r->t_start : 0};
	if (r->lat->count) {
		f->lat_mean = (double)r->lat_sum / (double)r->lat->count;
		f->lat_p50 = (double)lh_quantile(r->lat, 0.50);
		f->lat_p90 = (double)lh_quantile(r->lat, 0.90);
		f->lat_p99 = (double)lh_quantile(r->lat, 0.99);
		f->lat_min = r->lat_min;
		f->lat_max = r->lat_max;
	} else {
		f->lat_mean = f->lat_p50 = f->lat_p90 = f->lat_p99 = NAN;
	}
	f->thr_node = f->exec && r->nnodes ? (double)r->dbytes / ((double)f->exec * 1e-12) / r->nnodes : 0;
	double bw = terminal_bw(w->net);
	f->thr_frac = bw > 0 ? f->thr_node / bw : NAN;
	f->gbps_offered = (r->model == TRF_DCNW || r->model == TRF_CDCNW) && r->gen_span > 0
	                      ? (double)r->gen_bits / ((double)r->gen_span * 1e-12) / 1e9
	                      : NAN;
}

static void run_json(const struct task_world *w, json_writer *j, const trf_run *r)
{
	trf_stat_fig f;
	trf_stat_figures(w, r, &f);
	json_object_begin(j);
	json_kv_string(j, "model", model_key(r->model));
	json_kv_string(j, "label", r->label);
	json_kv_string(j, "job", w->jobs.ptr[r->job]->name);
	json_kv_uint(j, "members", (uint64_t)r->n);
	json_kv_uint(j, "nodes", r->nnodes);
	json_kv_uint(j, "messages", r->msgs);
	json_kv_uint(j, "bytes", r->bytes);
	json_kv_uint(j, "delivered_messages", r->dmsgs);
	json_kv_uint(j, "delivered_bytes", r->dbytes);
	json_kv_uint(j, "execution_ps", f.exec);
	json_key(j, "latency_ps");
	if (r->lat->count) {
		json_object_begin(j);
		json_kv_double(j, "mean", f.lat_mean);
		json_kv_uint(j, "min", f.lat_min);
		json_kv_double(j, "p50", f.lat_p50);
		json_kv_double(j, "p90", f.lat_p90);
		json_kv_double(j, "p99", f.lat_p99);
		json_kv_uint(j, "max", f.lat_max);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_kv_double(j, "throughput_bytes_per_s_per_node", f.thr_node);
	json_kv_double(j, "throughput_fraction_of_terminal", f.thr_frac);
	if (r->model == TRF_DCNW || r->model == TRF_CDCNW) {
		json_kv_double(j, "gbps_requested", r->gbps);
		json_kv_double(j, "gbps_offered", f.gbps_offered);
	} else if (r->model == TRF_FLOWS) {
		json_key(j, "classes");
		json_array_begin(j);
		for (int c = 0; c < r->nclasses; c++) {
			json_object_begin(j);
			json_kv_uint(j, "flows", r->cls[c].flows);
			json_kv_double(j, "share", r->flows_sent ? (double)r->cls[c].flows / (double)r->flows_sent : 0);
			json_object_end(j);
		}
		json_array_end(j);
	} else {
		json_kv_uint(j, "batches", (uint64_t)r->batches);
		json_kv_uint(j, "layers", (uint64_t)r->layers);
		uint64_t rounds = 0;
		trf_hvd_op sum[TRF_HVD_NKINDS] = {{0}};
		for (rt_int l = 0; l < r->layers; l++) {
			rounds += r->hvd[l].rounds;
			for (int k = 0; k < TRF_HVD_NKINDS; k++) {
				sum[k].ops += r->hvd[l].op[k].ops;
				sum[k].msgs += r->hvd[l].op[k].msgs;
				sum[k].bytes += r->hvd[l].op[k].bytes;
			}
		}
		json_kv_uint(j, "rounds", rounds);
		for (int k = 0; k < TRF_HVD_NKINDS; k++) {
			json_key(j, hvd_kind[k]);
			json_object_begin(j);
			json_kv_uint(j, "ops", sum[k].ops);
			json_kv_uint(j, "msgs", sum[k].msgs);
			json_kv_uint(j, "bytes", sum[k].bytes);
			json_object_end(j);
		}
	}
	json_object_end(j);
}

static const int net_classes[] = {NET_CLASS_DCNW, NET_CLASS_FLOWS, NET_CLASS_HOROVOD};

static void network_json(const struct task_world *w, json_writer *j)
{
	const df_stats *ds = df_is_dragonfly(w->net) ? df_get_stats(w->net) : NULL;
	json_key(j, "network");
	json_object_begin(j);
	for (size_t i = 0; i < sizeof net_classes / sizeof *net_classes; i++) {
		int c = net_classes[i];
		if (!w->net->totals.msgs_injected[c])
			continue;
		json_key(j, net_class_name((enum net_class)c));
		json_object_begin(j);
		json_kv_uint(j, "msgs", w->net->totals.msgs_delivered[c]);
		json_kv_uint(j, "bytes", w->net->totals.bytes_delivered[c]);
		json_key(j, "latency_ps");
		if (ds && ds->cls[c].msgs) {
			const df_class_stats *cs = &ds->cls[c];
			json_object_begin(j);
			json_kv_double(j, "mean", cs->lat_sum / (double)cs->msgs);
			json_kv_uint(j, "p50", lh_quantile(&cs->lat, 0.50));
			json_kv_uint(j, "p99", lh_quantile(&cs->lat, 0.99));
			json_kv_uint(j, "max", cs->lat_max);
			json_object_end(j);
		} else {
			json_null(j);
		}
		json_object_end(j);
	}
	json_object_end(j);
}

void trf_stat_json(const struct task_world *w, json_writer *j)
{
	trf_world *tw = trf_world_find((struct task_world *)w); /* a lookup: nothing is changed */
	if (!tw || tw->runs.len == 0)
		return;
	json_key(j, "traffic");
	json_object_begin(j);
	json_key(j, "runs");
	json_array_begin(j);
	for (size_t i = 0; i < tw->runs.len; i++)
		run_json(w, j, tw->runs.ptr[i]);
	json_array_end(j);
	network_json(w, j);
	json_object_end(j);
}

void trf_stat_print(const struct task_world *w, FILE *out)
{
	trf_world *tw = trf_world_find((struct task_world *)w); /* a lookup: nothing is changed */
	if (!tw)
		return;
	const df_stats *ds = df_is_dragonfly(w->net) ? df_get_stats(w->net) : NULL;
	for (size_t i = 0; i < tw->runs.len; i++) {
		const trf_run *r = tw->runs.ptr[i];
		trf_stat_fig f;
		trf_stat_figures(w, r, &f);
		fprintf(out, "traffic %zu: %s %s, %d members, %" PRIu64 " messages, %" PRIu64 " bytes\n", i,
		        model_key(r->model), r->label, r->n, r->msgs, r->bytes);
		fprintf(out, "  execution time %.3f us", (double)f.exec / 1e6);
		if (r->lat->count)
			fprintf(out, ", latency mean %.3f us, p50 %.3f us, p99 %.3f us, max %.3f us", f.lat_mean / 1e6,
			        f.lat_p50 / 1e6, f.lat_p99 / 1e6, (double)f.lat_max / 1e6);
		fprintf(out, "\n  throughput %.4g bytes/s per node", f.thr_node);
		if (!isnan(f.thr_frac))
			fprintf(out, " (%.4f of terminal bandwidth)", f.thr_frac);
		if (!isnan(f.gbps_offered))
			fprintf(out, ", offered %.4f Gbps per member (requested %.4g)", f.gbps_offered, r->gbps);
		fputc('\n', out);
	}
	for (size_t i = 0; ds && i < sizeof net_classes / sizeof *net_classes; i++) {
		const df_class_stats *cs = &ds->cls[net_classes[i]];
		if (cs->msgs)
			fprintf(out, "traffic network latency (%s): mean %.3f us, p50 %.3f us, p99 %.3f us, max %.3f us\n",
			        net_class_name((enum net_class)net_classes[i]), cs->lat_sum / (double)cs->msgs / 1e6,
			        (double)lh_quantile(&cs->lat, 0.50) / 1e6, (double)lh_quantile(&cs->lat, 0.99) / 1e6,
			        (double)cs->lat_max / 1e6);
	}
}
