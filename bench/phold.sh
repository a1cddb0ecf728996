#!/bin/sh
# phold.sh - kernel throughput: PHOLD with 1024 LPs x 16 events (~20M events),
# three runs; prints the median events/s and the peak RSS.
#
# Environment: NCSIM_BUILDDIR (default .), PHOLD_ARGS (extra phold_bench options),
# PHOLD_RUNS (default 3).
set -e
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
sed -n 's/.*ev_per_s=\([0-9]*\).*/\1/p' "$out" | sort -n | awk '{ v[NR] = $1 } END {
	printf "phold median: %.2f M events/s over %d runs\n", v[int((NR + 1) / 2)] / 1e6, NR }'
sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p' "$out" | sort -n | tail -1 | awk '{ printf "phold peak RSS: %.1f MiB\n", $1 / 1024 }'
if [ "$(sed -n 's/.*hash=\([0-9a-f]*\).*/\1/p' "$out" | sort -u | wc -l)" -ne 1 ]; then
	echo "phold: runs with the same seed differ" >&2
	exit 1
fi
