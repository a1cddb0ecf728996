#!/bin/sh
# df_loadcurve.sh - load-latency curve of the 1,056-node dragonfly
# (stdlib/systems/df-1056.conf) under uniform random traffic, from 5% to 100%
# offered load, for minimal and PAR routing. Prints one table row per point
# and the saturation point: the highest offered load that is still accepted
# (accepted >= 95% of offered). Each point injects for DURATION (default
# 100 us), counts messages delivered after the first 20%, then drains.
set -e
B=${NCSIM_BUILDDIR:-.}
S=${NCSIM_SRCDIR:-$(dirname "$0")/..}
NB="$B/bench/df_netbench"
DURATION=${DURATION:-100us}
LOADS=${LOADS:-"0.05 0.10 0.15 0.20 0.25 0.30 0.35 0.40 0.50 0.60 0.80 1.00"}
[ -x "$NB" ] || { echo "df_loadcurve.sh: $NB not built (make bench/df_netbench)" >&2; exit 1; }
for r in minimal par; do
	printf '%-8s %8s %9s %9s %9s %9s %6s %7s\n' routing offered accepted lat_mean lat_p50 lat_p99 hops nonmin
	sat=none; over=0
	for l in $LOADS; do
		line=$("$NB" --system "$S/stdlib/systems/df-1056.conf" --routing "$r" --load "$l" \
			--duration "$DURATION" --seed 1 --csv | tail -n 1)
		echo "$line" | awk -F, '{ printf "%-8s %8.2f %9.4f %9.3f %9.3f %9.3f %6.3f %6.1f%%\n",
			$1, $3, $4, $6, $7, $9, $11, 100 * $12 }'
		ok=$(echo "$line" | awk -F, '{ print ($4 >= 0.95 * $3) ? 1 : 0 }')
		if [ "$ok" = 1 ] && [ "$over" = 0 ]; then sat=$l; else over=1; fi
	done
	echo "$r: saturation point ~ $sat offered (last load, going up, with accepted >= 95% of offered)"
	echo
done
