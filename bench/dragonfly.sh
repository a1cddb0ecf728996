#!/bin/sh
# dragonfly.sh - speed of the packet-level dragonfly: the 1,056-node machine
# (stdlib/systems/df-1056.conf), uniform random traffic at 30% offered load,
# 1 ms of simulated time, single-threaded. Prints wall time, events, events/s
# and peak RSS. Targets: <= 2.5 s wall, <= 110 MiB.
set -e
. "$(dirname "$0")/lib/verdict.sh"
B=${NCSIM_BUILDDIR:-.}
S=${NCSIM_SRCDIR:-$(dirname "$0")/..}
NB="$B/bench/df_netbench"
[ -x "$NB" ] || { echo "dragonfly.sh: $NB not built (make bench/df_netbench)" >&2; exit 1; }
out=$("$NB" --system "$S/stdlib/systems/df-1056.conf" --pattern uniform --load 0.3 \
	--duration 1ms --stop-at-end --seed 1 --csv | tail -n 1)
echo "$out" | awk -F, '{
	printf "dragonfly 1056 nodes, uniform random, 30%% offered load, 1 ms simulated\n";
	printf "  events      %d\n", $13;
	printf "  events/s    %.0f\n", $15;
	printf "  accepted    %.4f of terminal bandwidth, mean latency %.3f us\n", $4, $6 }'
bench_target "wall time" "$(echo "$out" | awk -F, '{ printf "%.3f", $14 }')" "<=" 2.5 s
bench_target "peak RSS" "$(echo "$out" | awk -F, '{ printf "%.1f", $16 }')" "<=" 110 MiB
bench_end dragonfly
