#!/bin/sh
# df_loadcurve.sh - load-latency curve of the 1,056-node dragonfly
# (stdlib/systems/df-1056.conf) under uniform random traffic, from 5% to 100%
# offered load, for minimal and PAR routing. Prints one table row per point
# and the saturation point: the highest offered load that is still accepted
# (accepted >= 95% of offered). Each point injects for DURATION (default
# 100 us), counts messages delivered after the first 20%, then drains.
#
# Target, for each routing: the peak accepted throughput lies between 75% and
# 100% of the bound that minimal routes put on it. Uniform random traffic
# sends 32 of every 1,055 messages from a group to each other group (the
# destination is any other node), and one 4.7 GiB/s global link joins each
# pair of the 33 groups. With L the offered fraction of the 16 GiB/s
# terminal bandwidth, that link carries 32 nodes x L x 16 x 32/1055 GiB/s
# <= 4.7, so L <= 4.7 x 1055 / (16 x 1024) = 0.3026 (the local links allow
# 0.33). PAR's detours are few at this load (under 6%), so the same bound is
# used for it. The peak comes from the highest loads of LOADS.
set -e
. "$(dirname "$0")/lib/verdict.sh"
B=${NCSIM_BUILDDIR:-.}
S=${NCSIM_SRCDIR:-$(dirname "$0")/..}
NB="$B/bench/df_netbench"
DURATION=${DURATION:-100us}
LOADS=${LOADS:-"0.05 0.10 0.15 0.20 0.25 0.30 0.35 0.40 0.50 0.60 0.80 1.00"}
[ -x "$NB" ] || { echo "df_loadcurve.sh: $NB not built (make bench/df_netbench)" >&2; exit 1; }
for r in minimal par; do
	printf '%-8s %8s %9s %9s %9s %9s %6s %7s\n' routing offered accepted lat_mean lat_p50 lat_p99 hops nonmin
	sat=none; over=0; peak=0
	for l in $LOADS; do
		line=$("$NB" --system "$S/stdlib/systems/df-1056.conf" --routing "$r" --load "$l" \
			--duration "$DURATION" --seed 1 --csv | tail -n 1)
		echo "$line" | awk -F, '{ printf "%-8s %8.2f %9.4f %9.3f %9.3f %9.3f %6.3f %6.1f%%\n",
			$1, $3, $4, $6, $7, $9, $11, 100 * $12 }'
		ok=$(echo "$line" | awk -F, '{ print ($4 >= 0.95 * $3) ? 1 : 0 }')
		peak=$(echo "$line" | awk -F, -v p="$peak" '{ print ($4 > p) ? $4 : p }')
		if [ "$ok" = 1 ] && [ "$over" = 0 ]; then sat=$l; else over=1; fi
	done
	echo "$r: saturation point ~ $sat offered (last load, going up, with accepted >= 95% of offered)"
	bench_target "$r: peak accepted throughput" "$peak" ">=" 0.227 "of terminal bandwidth"
	bench_target "$r: peak accepted throughput" "$peak" "<=" 0.3026 "of terminal bandwidth"
	echo
done
bench_end df_loadcurve
