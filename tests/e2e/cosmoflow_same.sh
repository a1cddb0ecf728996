#!/bin/sh
# cosmoflow_same.sh - the Cosmoflow-like loop written against ncsim/rt.h
# (cosmoflow_native) and with the Union API (cosmoflow_union) must simulate
# the same run: 64 tasks, analytic network, same seed, identical end times,
# equal to the closed form 10 x (129 ms + ring allreduce of 28.15 MB).
# Each example runs twice: built standalone (make check builds them against
# libncsim) and as source through `ncsim run FILE.c` (the build cache); all
# four runs must give the same end time and the same traffic.
#
# Machine: latency L = 100 ns, links B = 10 GB/s, injection 20 GB/s, 64-byte
# headers, no MPI software costs. 28.15e6 bytes above the 64 KiB threshold
# use the ring: 2 x 63 steps; the chunks are 28,150,000 / 64 = 439,843.75
# bytes, i.e. 48 chunks of 439,844 and 16 of 439,843. A rendezvous step takes
# 4L + 3h + c/B (RTS, RDMA request, data, ACK; h = 64 B / B = 6.4 ns):
#   c = 439,844: 400 + 19.2 + 43,984.4 ns = 44,403.6 ns
#   c = 439,843: 44,403.5 ns
# so one allreduce lies between 126 x 44,403.5 and 126 x 44,403.6 ns, and the
# run between 10 x (129 ms + 5,594,841.0 ns) = 1,345,948,410,000 ps
#          and 10 x (129 ms + 5,594,853.6 ns) = 1,345,948,536,000 ps
# (the 1-byte chunk difference is 100 ps per step; where the run falls in
# that 126 ns window depends on which chunks lie on the critical path).
set -eu
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${NCSIM:=$NCSIM_BUILDDIR/ncsim}"
dir=$(mktemp -d "${TMPDIR:-/tmp}/cosmoflow.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
: "${XDG_CACHE_HOME:=$dir/cache}"
export XDG_CACHE_HOME

cat > "$dir/analytic.conf" <<'CONF'
[network]
model = analytic
nodes = 64
latency = 100 ns
bandwidth = 10 GB/s
injection_bandwidth = 20 GB/s
[mpi]
header_bytes = 64
post_header = 0
post_rdma = 0
pin_latency = 0
pin_per_page = 0
CONF

end_of() {
	sed -n 's/^ *"sim_end_ps": *\([0-9][0-9]*\),*$/\1/p' "$1/summary.json"
}

for v in native union; do
	"$NCSIM_BUILDDIR/examples/cosmoflow/cosmoflow_$v" -n 64 --system "$dir/analytic.conf" \
		--seed 11 --no-wall-time --out "$dir/$v" > "$dir/$v.stdout" 2> "$dir/$v.stderr" || {
		echo "cosmoflow_$v failed:"; cat "$dir/$v.stderr"; exit 1; }
	grep -q '"status": "ok"' "$dir/$v/summary.json" || { echo "cosmoflow_$v: status not ok"; exit 1; }
	src=$NCSIM_SRCDIR/examples/cosmoflow/cosmoflow_$v.c
	"$NCSIM" run "$src" -n 64 --system "$dir/analytic.conf" --network analytic --seed 11 --no-wall-time \
		--no-progress --out "$dir/run-$v" > "$dir/run-$v.stdout" 2> "$dir/run-$v.stderr" || {
		echo "ncsim run cosmoflow_$v.c failed:"; cat "$dir/run-$v.stderr"; exit 1; }
	grep -q '"status": "ok"' "$dir/run-$v/summary.json" || { echo "ncsim run cosmoflow_$v.c: status not ok"; exit 1; }
done

n=$(end_of "$dir/native")
u=$(end_of "$dir/union")
rn=$(end_of "$dir/run-native")
ru=$(end_of "$dir/run-union")
echo "native end: $n ps, union end: $u ps; ncsim run: native $rn ps, union $ru ps"
[ -n "$n" ] && [ "$n" = "$u" ] || { echo "FAIL: end times differ"; exit 1; }
[ "$rn" = "$n" ] && [ "$ru" = "$n" ] || { echo "FAIL: ncsim run FILE.c gives other end times"; exit 1; }

lo=$((10 * (129000000000 + 126 * 44403500)))
hi=$((10 * (129000000000 + 126 * 44403600)))
if [ "$n" -lt "$lo" ] || [ "$n" -gt "$hi" ]; then
	echo "FAIL: $n ps is outside the closed form [$lo, $hi] ps"
	exit 1
fi

# Both put the same traffic on the wire: 10 x 2 x 64 x 63 messages of 2 x 63 x 28.15 MB in all.
for v in native union run-native run-union; do
	tr -d ' \n' < "$dir/$v/summary.json" | grep -q '"mpi":{"msgs":80640,"bytes":35469000000}' ||
		{ echo "FAIL: cosmoflow $v network totals"; exit 1; }
done
echo "ok: $n ps in [$lo, $hi]"
