#!/bin/sh
# codes_1056.sh - CODES mode against CODES on the 1,056-node machine of the
# MFNetSim paper (tests/codes/synth-1056.conf: 33 groups x 8 routers x 4
# nodes, h = 4, CODES' dragonfly-dally with 4 KiB packets and chunks), CODES'
# synthetic uniform-random traffic of 4 KiB messages (`netbench --codes-mode`).
#
# The CODES figures below come from CODES' own driver on the same file
# (model-net-synthetic-dragonfly-all --sync=1 --traffic=1 --payload_sz=4096
# --load_per_svr=L --end=T+1, CODES and ROSS master of 2026-07, built as
# doc/dragonfly.md describes): mean hops (router-to-router links: CODES
# counts routers, one more), mean packet latency (CODES' average chunk
# latency, NIC to NIC) and the non-minimal share of the packets, at 10%
# offered load over 500 us; saturation throughput, the peak accepted load
# (delivered bytes over the run and the terminal bandwidth) at 100% offered
# over 300 us.
#
# Targets (issue 13): hops and latency within 5% of CODES, the non-minimal
# share within 5 points, saturation throughput within 5%.
set -e
. "$(dirname "$0")/lib/verdict.sh"
B=${NCSIM_BUILDDIR:-.}
S=${NCSIM_SRCDIR:-$(dirname "$0")/..}
NB="$B/bench/df_netbench"
GEN="$B/tests/codes/gen_conn"
[ -x "$NB" ] || { echo "codes_1056.sh: $NB not built (make bench/df_netbench)" >&2; exit 1; }
[ -x "$GEN" ] || { echo "codes_1056.sh: $GEN not built (make tests/codes/gen_conn)" >&2; exit 1; }

# synth-1056.conf names its connection files relative to its folder: a scratch
# folder holds a copy of it and the files gen_conn writes for 33 x 8, h = 4.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/codes_1056.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$S/tests/codes/synth-1056.conf" "$tmp/"
"$GEN" 33 8 4 "$tmp/dally-1056-intra" "$tmp/dally-1056-inter"

# routing load duration: the CSV line of one run
run() {
	"$NB" --system "$tmp/synth-1056.conf" --routing "$1" --codes-mode --load "$2" --size 4096 \
		--duration "$3" --until "$3" --csv | tail -n 1
}
field() { echo "$1" | cut -d, -f"$2"; }
# What ncsim gives within `pct` percent of what CODES gives.
within() { # what ncsim codes pct
	bench_target "$1 (CODES $3)" "$(awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; printf "%.2f", 100 * (d < 0 ? -d : d) / b }')" \
		"<=" "$4" "% off"
}

printf '%-8s %5s %9s %8s %9s %9s\n' routing load accepted hops latency nonmin
for r in minimal par; do
	case $r in
	minimal) c_hops=2.6956 c_lat=5.959 c_nonmin=0.00 c_sat=0.2755 ;;
	par) c_hops=3.4227 c_lat=7.310 c_nonmin=37.66 c_sat=0.2583 ;;
	esac
	low=$(run $r 0.1 500us)
	sat=$(run $r 1.0 300us)
	for l in "$low" "$sat"; do
		echo "$l" | awk -F, '{ printf "%-8s %5.2f %9.4f %8.3f %6.3f us %8.2f%%\n", $1, $3, $4, $11, $6, 100 * $12 }'
	done
	within "$r 10%: mean hops" "$(field "$low" 11)" $c_hops 5
	within "$r 10%: mean packet latency (us)" "$(field "$low" 6)" $c_lat 5
	nonmin=$(awk -v v="$(field "$low" 12)" 'BEGIN { printf "%.2f", 100 * v }')
	bench_target "$r 10%: non-minimal share $nonmin% (CODES $c_nonmin%)" \
		"$(awk -v a="$nonmin" -v b=$c_nonmin 'BEGIN { d = a - b; printf "%.2f", d < 0 ? -d : d }')" "<=" 5 points
	within "$r: saturation throughput" "$(field "$sat" 4)" $c_sat 5
	echo
done
bench_end codes_1056
