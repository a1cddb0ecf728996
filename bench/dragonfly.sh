#!/bin/sh
# dragonfly.sh - speed of the packet-level dragonfly: the 1,056-node machine
# (stdlib/systems/df-1056.conf), uniform random traffic at 30% offered load,
# 1 ms of simulated time, single-threaded. Prints wall time, events, events/s
# and peak RSS. Targets: <= 2.5 s wall, <= 110 MiB.
set -e
B=${NCSIM_BUILDDIR:-.}
S=${NCSIM_SRCDIR:-$(dirname "$0")/..}
NB="$B/bench/df_netbench"
[ -x "$NB" ] || { echo "dragonfly.sh: $NB not built (make bench/df_netbench)" >&2; exit 1; }
out=$("$NB" --system "$S/stdlib/systems/df-1056.conf" --pattern uniform --load 0.3 \
	--duration 1ms --stop-at-end --seed 1 --csv | tail -n 1)
echo "$out" | awk -F, '{
	printf "dragonfly 1056 nodes, uniform random, 30%% offered load, 1 ms simulated\n";
	printf "  wall time   %.3f s   (target <= 2.5 s)\n", $14;
	printf "  events      %d\n", $13;
	printf "  events/s    %.0f\n", $15;
	printf "  peak RSS    %.1f MiB (target <= 110 MiB)\n", $16;
	printf "  accepted    %.4f of terminal bandwidth, mean latency %.3f us\n", $4, $6 }'
