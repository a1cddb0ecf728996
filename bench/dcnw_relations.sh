#!/bin/sh
# dcnw_relations.sh - the DCNW and FLOWS relations on the 1,056-node dragonfly
# (stdlib/systems/df-1056.conf), printed as a table and checked:
#
#   1. doubling the task count (128 -> 256, same total) reduces the execution time
#      (DCNW: each task sends half as many messages at the same rate). A FLOWS
#      process spans its duration T whatever the group size, so for FLOWS the
#      relation is: the execution time stays at T (within 0.5%) while the load
#      per node halves and the latency falls;
#   2. GAUSSIAN destinations raise the latency against UNIFORM and, once the network is
#      loaded, lower the throughput. At 1 and 0.5 Gbps per task the network carries
#      under 1% of its terminal bandwidth and delivers everything it is offered, so
#      both laws show the offered throughput; the throughput relation is checked at a
#      third, high load (DCNW: 4 Gbps per task; FLOWS: the flows over T/4), where the
#      few global links into the Gaussian hot spot saturate;
#   3. halving the load (DCNW: 1 -> 0.5 Gbps per task; FLOWS: the same flows over
#      twice the time) roughly doubles the execution time (x1.6 .. x2.4) and lowers
#      the latency.
#
# Each relation is a target: MET or MISSED, and the bench exits 1 if any is
# missed.
#
# DCNW: GOOGLE_ALL sizes, COUNT messages in total (default 2,000,000).
# FLOWS: FLOWS flows (default 200,000) of two classes, 80% of 1-10 KB and 20% of
# 100-1000 KB (destinations of the large class: the row's law), over T_US
# microseconds (default 1,460,000: about 1 Gbps per node with 128 tasks).
# Runs with the same seed see the same arrivals and sizes (the destination
# stream is separate), so rows differ only in what the relation varies.
#
# Environment: NCSIM_BUILDDIR, NCSIM_SRCDIR (set by `make bench`), COUNT, FLOWS, T_US, SEED.
set -eu
src=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${NCSIM_BUILDDIR:-.}
prog=$bld/bench/dcnw_relations
sys=$src/stdlib/systems/df-1056.conf
COUNT=${COUNT:-2000000}
FLOWS=${FLOWS:-200000}
T_US=${T_US:-1460000}
SEED=${SEED:-1}
[ -x "$prog" ] || { echo "dcnw_relations.sh: build $prog first (make bench)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$prog" --header
for tasks in 128 256; do
	for dest in uniform gaussian; do
		for gbps in 1 0.5 4; do
			"$prog" "$sys" "$tasks" dcnw GOOGLE_ALL "$COUNT" "$gbps" "$dest" "$SEED" | tee -a "$out"
		done
	done
done
T2=$(awk -v t="$T_US" 'BEGIN { printf "%.0f", 2 * t }')
T4=$(awk -v t="$T_US" 'BEGIN { printf "%.0f", t / 4 }')
for tasks in 128 256; do
	for dest in uniform gaussian; do
		for t in "$T_US" "$T2" "$T4"; do
			"$prog" "$sys" "$tasks" flows x "$FLOWS" "$t" "$dest" "$SEED" | tee -a "$out"
		done
	done
done
echo "(load column: Gbps per task for dcnw, the duration T in us for flows; latencies in us;"
echo " e2e = generation to last byte, net = the dragonfly's first byte on the wire to last byte)"

# Columns: 1 model, 2 tasks, 3 dest, 4 load, 6 exec_ms, 7 e2e_us, 10 MB/s per node.
awk -v T="$T_US" '
function key(m, n, d, l) { return m "/" n "/" d "/" l }
{ exec[key($1,$2,$3,$4)] = $6; lat[key($1,$2,$3,$4)] = $7; thr[key($1,$2,$3,$4)] = $10 }
function check(ok, what) { printf "%-6s  %s\n", ok ? "MET" : "MISSED", what; nrel++; if (!ok) bad++ }
END {
	# A missing row would compare empty figures: 2 models x 2 task counts x 2 laws x 3 loads.
	check(NR == 24, sprintf("all 24 rows measured (%d)", NR))
	n = split("dcnw flows", models, " ")
	for (i = 1; i <= n; i++) {
		m = models[i]
		hi = m == "dcnw" ? "1" : T; lo = m == "dcnw" ? "0.5" : sprintf("%.0f", 2 * T)
		hl = m == "dcnw" ? "4" : sprintf("%.0f", T / 4)
		split("uniform gaussian", ds, " ")
		for (j = 1; j <= 2; j++) for (k = 0; k < 2; k++) {
			l = k ? lo : hi; d = ds[j]
			if (m == "dcnw")
				check(exec[key(m,256,d,l)] < exec[key(m,128,d,l)],
				      sprintf("%-5s %-8s load %-7s: 256 tasks run shorter than 128 (%.3f < %.3f ms)", m, d, l,
				              exec[key(m,256,d,l)], exec[key(m,128,d,l)]))
			else {
				check(exec[key(m,256,d,l)] <= 1.005 * exec[key(m,128,d,l)] && exec[key(m,256,d,l)] <= 1.005 * l / 1000,
				      sprintf("%-5s %-8s T %-7s us: 256 tasks still take about T (%.3f, 128 tasks %.3f ms)", m, d, l,
				              exec[key(m,256,d,l)], exec[key(m,128,d,l)]))
				check(lat[key(m,256,d,l)] < lat[key(m,128,d,l)],
				      sprintf("%-5s %-8s T %-7s us: 256 tasks have the lower latency (%.3f < %.3f us)", m, d, l,
				              lat[key(m,256,d,l)], lat[key(m,128,d,l)]))
			}
		}
		for (t = 128; t <= 256; t *= 2) for (k = 0; k < 3; k++) {
			l = k == 2 ? hl : k ? lo : hi
			check(lat[key(m,t,"gaussian",l)] > lat[key(m,t,"uniform",l)],
			      sprintf("%-5s %d tasks load %-7s: gaussian latency above uniform (%.3f > %.3f us)", m, t, l,
			              lat[key(m,t,"gaussian",l)], lat[key(m,t,"uniform",l)]))
			if (k == 2)
				check(thr[key(m,t,"gaussian",l)] < thr[key(m,t,"uniform",l)],
				      sprintf("%-5s %d tasks load %-7s: gaussian throughput below uniform (%.4f < %.4f MB/s/node)",
				              m, t, l, thr[key(m,t,"gaussian",l)], thr[key(m,t,"uniform",l)]))
			else
				printf "INFO  %-5s %d tasks load %-7s: below saturation both laws deliver the offered load (%.4f vs %.4f MB/s/node)\n", m, t, l, thr[key(m,t,"gaussian",l)], thr[key(m,t,"uniform",l)]
		}
		for (t = 128; t <= 256; t *= 2) for (j = 1; j <= 2; j++) {
			d = ds[j]; r = exec[key(m,t,d,lo)] / exec[key(m,t,d,hi)]
			check(r >= 1.6 && r <= 2.4,
			      sprintf("%-5s %d tasks %-8s: half the load takes x%.3f the time", m, t, d, r))
			check(lat[key(m,t,d,lo)] < lat[key(m,t,d,hi)],
			      sprintf("%-5s %d tasks %-8s: half the load lowers the latency (%.3f < %.3f us)", m, t, d,
			              lat[key(m,t,d,lo)], lat[key(m,t,d,hi)]))
		}
	}
	if (bad) printf "dcnw_relations: MISSED (%d of %d relations)\n", bad, nrel
	else printf "dcnw_relations: MET (%d relations)\n", nrel
	exit bad ? 1 : 0
}' "$out"
