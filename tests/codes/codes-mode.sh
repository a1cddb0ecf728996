#!/bin/sh
# codes-mode.sh - CODES configurations everywhere, and CODES mode's figures on
# a small CODES dragonfly-dally configuration (doc/dragonfly.md).
#
# 1. `ncsim netbench --codes-mode` on dfdally-72.conf (72 nodes), CODES'
#    uniform-random traffic of 4 KiB messages for 200 us, minimal and PAR at
#    10% and 100% offered load: the figures below are ncsim's own (a change
#    in them is a change of the model, to be explained). CODES' synthetic
#    driver (model-net-synthetic-dragonfly-all --traffic=1 --payload_sz=4096
#    --end=200001, CODES master of 2026-07) gives on the same file, as
#    hops (router-to-router: CODES' count minus one), mean packet latency,
#    non-minimal share and accepted load:
#      minimal 10%:  2.363  5.231 us   0.00%  0.0970
#      PAR 10%:      2.997  6.353 us  33.06%  0.0963
#      PAR 100%:     2.497 17.862 us   9.31%  0.2830
#      minimal 100%: 2.350 15.758 us   0.00%  0.2897
# 2. `ncsim run` takes a CODES file for --system: a program, a workload file
#    whose burst-buffer nodes come from the codes-store LPs, the
#    [path-to-experiment] placeholders from --codes-root or from the file's
#    folder, --describe lists what ncsim ignores, and a malformed file is an
#    error with file:line.
# Both configurations run from a scratch folder, next to the connection files
# tests/codes/gen_conn writes for them.
set -u
: "${NCSIM_BUILDDIR:=.}"
: "${NCSIM_SRCDIR:=$(dirname "$0")/../..}"
NCSIM=$NCSIM_BUILDDIR/ncsim
tmp=$(mktemp -d "${TMPDIR:-/tmp}/codes-mode.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
D=$tmp/codes
mkdir "$D" && cp "$NCSIM_SRCDIR/tests/codes/dfdally-72.conf" "$NCSIM_SRCDIR/tests/codes/dally-1056.conf" "$D" &&
	"$NCSIM_BUILDDIR/tests/codes/gen_conn" 9 4 2 "$D/dfdally-72-intra" "$D/dfdally-72-inter" &&
	"$NCSIM_BUILDDIR/tests/codes/gen_conn" 33 8 4 "$D/dally-1056-intra" "$D/dally-1056-inter" ||
	{ echo "FAIL: cannot generate the connection files"; exit 1; }
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# routing,pattern,offered,accepted,msgs,lat_mean_us,lat_p50_us,lat_p90_us,lat_p99_us,lat_max_us,hops,nonmin,events
bench() { # routing load expected-csv
	got=$("$NCSIM" netbench --system "$D/dfdally-72.conf" --routing "$1" --codes-mode --load "$2" --size 4096 \
		--duration 200us --until 200us --csv | tail -n 1 | cut -d, -f1-13)
	[ "$got" = "$3" ] || fail "netbench $1 at load $2: got $got, want $3"
}
bench minimal 0.1 "minimal,codes,0.1000,0.0969,5855,5.219,5.833,6.750,8.061,10.583,2.360,0.0000,35908"
bench par 0.1 "par,codes,0.1000,0.0965,5828,6.312,5.964,9.830,10.879,12.870,2.983,0.3234,40494"
bench par 1.0 "par,codes,1.0000,0.2827,17076,17.798,18.088,29.622,39.322,57.509,2.491,0.0931,298397"
bench minimal 1.0 "minimal,codes,1.0000,0.2936,17734,15.762,14.287,29.098,40.370,57.113,2.341,0.0000,286630"

# A program on the MFNetSim-style file: placeholders from the file's folder, then from --codes-root.
pp=$NCSIM_SRCDIR/examples/pingpong.ncptl
for root in "" "--codes-root=$D"; do
	if ! "$NCSIM" run "$pp" -n 2 --system "$D/dally-1056.conf" $root --no-progress --no-wall-time \
		--out "$tmp/pp" --force > "$tmp/pp.stdout" 2> "$tmp/pp.stderr"; then
		fail "ncsim run pingpong.ncptl --system dally-1056.conf $root:"
		cat "$tmp/pp.stderr"
	fi
done
grep -q '"status": "ok"' "$tmp/pp/summary.json" || fail "pingpong on dally-1056.conf: status not ok"

# --describe: the native system it runs as (with MFNetSim's client MPI layer: every message eager, its
# payload alone, 3.51 us + 0.55 ns per byte before the NIC; MPICH's collectives), and every setting
# ncsim ignores with its line.
"$NCSIM" run "$pp" -n 2 --system "$D/dally-1056.conf" --describe --no-progress --out "$tmp/d" > "$tmp/d.stdout" \
	2> "$tmp/d.stderr" || fail "ncsim run --describe failed: $(cat "$tmp/d.stderr")"
for want in "credit_return = accept" "routing_rules = codes" "bb_nodes = 31, 30, 63, 62," "bb_route = block" \
	"alloc_ids = compute-nodes" "protocol = eager" "header_bytes = 0" "send_delay = 3.51 us" \
	"send_delay_per_byte = 0.55 ns" "selector = mpich" \
	"dally-1056.conf:49: minimal-bias = 1: CODES' dragonfly-dally does not read it either" \
	"dally-1056.conf:53: section codes-store: burst-buffer servers: req_threads"; do
	grep -qF "$want" "$tmp/d.stdout" || fail "--describe does not say: $want"
done

# A workload: MFNetSim sends client k (the k-th compute node) to server k / 15, so a checkpoint job on
# the first 20 compute nodes writes to server 0 (node 31) and server 1 (node 30) of group 0; the
# allocation file's ids are compute nodes: ids 28 to 31 are nodes 28, 29, 32 and 33.
echo "20 checkpoint --count 2 --period 1 --total 16M" > "$tmp/ck.wkld"
if "$NCSIM" run "$tmp/ck.wkld" --system "$D/dally-1056.conf" --no-progress --no-wall-time --out "$tmp/ck" \
	> "$tmp/ck.stdout" 2> "$tmp/ck.stderr"; then
	bb=$(awk -F, 'NR > 1 && $9 > 0 { printf "%s ", $1 }' "$tmp/ck/storage.csv")
	[ "$bb" = "31 30 " ] || fail "checkpoint wrote to burst-buffer nodes '$bb', want '31 30 ' (server order)"
	# 15 clients write to server 0 and 5 to server 1 (the nearest-server rule would split them 10 and 10).
	split=$(awk -F, 'NR > 1 && $9 > 0 { printf "%s ", $9 }' "$tmp/ck/storage.csv")
	set -- $split
	[ $# -eq 2 ] && [ "$1" -eq $(($2 * 3)) ] || fail "bytes written per server '$split', want 3:1"
	[ "$(awk -F, 'NR > 1' "$tmp/ck/storage.csv" | wc -l)" -eq 66 ] || fail "storage.csv: want 66 burst-buffer nodes"
else
	fail "ncsim run ck.wkld --system dally-1056.conf:"
	cat "$tmp/ck.stderr"
fi
printf '4 checkpoint --count 1 --period 1 --total 4M\n' > "$tmp/ck4.conf" # a CODES-style list: any extension
echo "28 29 30 31" > "$tmp/ck4.alloc"
if "$NCSIM" run "$tmp/ck4.conf" --system "$D/dally-1056.conf" --alloc "$tmp/ck4.alloc" --no-progress \
	--no-wall-time --out "$tmp/ck4" > /dev/null 2> "$tmp/ck4.stderr"; then
	nodes=$(awk -F, 'NR > 1 { printf "%s ", $4 }' "$tmp/ck4/tasks.csv")
	[ "$nodes" = "28 29 32 33 " ] || fail "allocation ids 28-31 ran on nodes '$nodes', want '28 29 32 33 '"
else
	fail "ncsim run ck4.conf --alloc: $(cat "$tmp/ck4.stderr")"
fi
echo "28 29 30 990" > "$tmp/bad.alloc"
"$NCSIM" run "$tmp/ck4.conf" --system "$D/dally-1056.conf" --alloc "$tmp/bad.alloc" --no-progress \
	--out "$tmp/ck5" > /dev/null 2> "$tmp/e0"
grep -qF "bad.alloc:1: id 990 does not exist (the ids of this system are its compute nodes, 0 to 989)" "$tmp/e0" ||
	fail "allocation id past the compute nodes: $(cat "$tmp/e0")"

# A placeholder that --codes-root does not resolve, and a malformed file: file:line errors, exit status 1.
"$NCSIM" run "$pp" -n 2 --system "$D/dally-1056.conf" --codes-root "$tmp/none" --no-progress > /dev/null \
	2> "$tmp/e1"
rc=$?
[ $rc -eq 1 ] || fail "unresolved placeholder: exit status $rc, want 1"
grep -qF "dally-1056.conf:46: intra-group-connections: no file $tmp/none/dally-1056-intra" "$tmp/e1" ||
	fail "unresolved placeholder: $(cat "$tmp/e1")"
sed 's/num_groups="9"/num_groups="nine"/' "$D/dfdally-72.conf" > "$tmp/bad.conf"
"$NCSIM" netbench --system "$tmp/bad.conf" > /dev/null 2> "$tmp/e2"
rc=$?
[ $rc -eq 1 ] || fail "malformed file: exit status $rc, want 1"
grep -qF "bad.conf:26: num_groups: 'nine' is not a non-negative number" "$tmp/e2" ||
	fail "malformed file: $(cat "$tmp/e2")"

[ $fails -eq 0 ] && echo "codes-mode: all checks passed"
exit $((fails > 0))
