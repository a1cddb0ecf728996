#!/bin/sh
# phold.sh - kernel throughput: PHOLD with 1024 LPs x 16 events (~20M events),
# three runs; prints the median events/s and the peak RSS.
# Target: a median of >= 5 M events/s (the shared 2-core build machine gave
# 7.4 M busy and 13.3 M quiet when the target was set); every run with the
# same seed must also take the same path (same hash).
#
# Environment: NCSIM_BUILDDIR (default .), PHOLD_ARGS (extra phold_bench options),
# PHOLD_RUNS (default 3).
set -e
. "$(dirname "$0")/lib/verdict.sh"
builddir=${NCSIM_BUILDDIR:-.}
bin=$builddir/bench/phold_bench
if [ ! -x "$bin" ]; then
	make -C "$builddir" bench/phold_bench >/dev/null
fi
runs=${PHOLD_RUNS:-3}
out=$(mktemp "${TMPDIR:-/tmp}/phold.XXXXXX")
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
	# shellcheck disable=SC2086
	"$bin" -n 1024 -m 16 -e 2e7 -r 0.9 $PHOLD_ARGS >>"$out"
	i=$((i + 1))
done
cat "$out"
# Median events/s, largest RSS, and a check that every run took the same path.
median=$(sed -n 's/.*ev_per_s=\([0-9]*\).*/\1/p' "$out" | sort -n | awk '{ v[NR] = $1 } END {
	if (NR) printf "%.2f", v[int((NR + 1) / 2)] / 1e6 }')
echo "phold median: $median M events/s over $runs runs"
sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$out" | sort -n | tail -1 | awk '{ printf "phold peak RSS: %.1f MiB\n", $1 / 1024 }'
bench_target "median throughput" "$median" ">=" 5 "M events/s"
bench_target "distinct paths of the same seed" "$(sed -n 's/.*hash=\([0-9a-f]*\).*/\1/p' "$out" | sort -u | wc -l)" "==" 1
bench_end phold
