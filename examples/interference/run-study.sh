#!/bin/sh
# run-study.sh - the workload-interference study (see README.md next to this file).
#
# Runs every application alone (on the nodes it has in the hybrids) and in two
# hybrid workloads on theta-1056,
# under {contiguous, random-node} placement x {minimal, par} routing, two
# simulations at a time, then writes one table per application (markdown and
# CSV): mean and median communication and I/O time per rank, alone and in
# each hybrid, and the slowdown hybrid / alone.
#
#   examples/interference/run-study.sh [OUT]         (default OUT: interference-out)
#
# Environment: NCSIM (the ncsim binary; default: `ncsim` on PATH, else
# ./ncsim), SEED (default 1), PARALLEL (simulations at a time, default 2).
# The same SEED gives byte-identical run outputs and tables.
set -eu

out=${1:-interference-out}
seed=${SEED:-1}
par=${PARALLEL:-2}
if [ -z "${NCSIM:-}" ]; then
	if command -v ncsim >/dev/null 2>&1; then NCSIM=ncsim; else NCSIM=./ncsim; fi
fi
"$NCSIM" run --help >/dev/null 2>&1 || { echo "run-study.sh: '$NCSIM run' does not work; set NCSIM" >&2; exit 2; }

# Job parameters (README.md, "Parameters"): real message and I/O sizes, about
# a simulated second (checkpoint: one 50 GB checkpoint) per job. The
# variables MILC, NEKBONE, CKPT and COSMO replace a job line (for trials).
# These are the short settings of ncsim's earlier study, spelled out with the
# options the skeletons keep for them (their defaults are now the published ones).
MILC=${MILC:-'300 milc --iters 60 --halves 1 --compute 10E6 --config 2M --p0 0'}
NEKBONE=${NEKBONE:-'300 nekbone --legacy-iters 400 --rx 0'}
CKPT=${CKPT:-'300 checkpoint --count 1 --period 100 --sync 1'}
COSMO=${COSMO:-'300 cosmoflow --reps 4 --grad 28150000'}

mkdir -p "$out/wkld" "$out/runs" "$out/tables"
echo "$MILC" > "$out/wkld/milc.wkld"
echo "$NEKBONE" > "$out/wkld/nekbone.wkld"
echo "$CKPT" > "$out/wkld/checkpoint.wkld"
echo "$COSMO" > "$out/wkld/cosmoflow.wkld"
printf '%s\n%s\n%s\n' "$MILC" "$CKPT" "$COSMO" > "$out/wkld/hybrid1.wkld"
printf '%s\n%s\n%s\n' "$NEKBONE" "$CKPT" "$COSMO" > "$out/wkld/hybrid2.wkld"

# Each application runs alone on exactly the nodes it gets in the hybrid
# workloads: a run stopped at 1 ps gives every job's nodes (tasks.csv), which
# become an allocation file (--alloc) for the run alone. Every job keeps its
# place in both hybrids (same job index, same seed), which is checked.
mkdir -p "$out/alloc"
for pl in contiguous random-node; do
	for h in hybrid1 hybrid2; do
		"$NCSIM" run "$out/wkld/$h.wkld" --system theta-1056 --placement "$pl" --seed "$seed" \
			--no-wall-time --no-progress --until 1ps --out "$out/alloc/$h-$pl" > "$out/alloc/$h-$pl.log" 2>&1 ||
			{ echo "run-study.sh: placement of $h ($pl) failed, see $out/alloc/$h-$pl.log" >&2; exit 1; }
		for app in milc nekbone checkpoint cosmoflow; do
			awk -F, -v job="$app" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$col["job"] == job { node[$col["rank"]] = $col["node"]; n++ }
			END { if (n) { for (r = 0; r < n; r++) printf "%s%s", r ? " " : "", node[r]; printf "\n" } }
			' "$out/alloc/$h-$pl/tasks.csv" > "$out/alloc/$app-$pl.$h"
		done
	done
	for app in milc nekbone checkpoint cosmoflow; do
		a="$out/alloc/$app-$pl.hybrid1" b="$out/alloc/$app-$pl.hybrid2"
		if [ -s "$a" ] && [ -s "$b" ] && ! cmp -s "$a" "$b"; then
			echo "run-study.sh: $app gets different nodes in hybrid1 and hybrid2 ($pl)" >&2
			exit 1
		fi
		if [ -s "$a" ]; then mv "$a" "$out/alloc/$app-$pl.alloc"; else mv "$b" "$out/alloc/$app-$pl.alloc"; fi
		rm -f "$a" "$b"
	done
done

# Every (workload, placement, routing), the longest runs first so that the
# parallel slots finish together.
list="$out/runs.txt"
: > "$list"
for w in hybrid2 nekbone hybrid1 milc cosmoflow checkpoint; do
	for pl in random-node contiguous; do
		for ro in par minimal; do
			echo "$w $pl $ro" >> "$list"
		done
	done
done

start=$(date +%s)
export NCSIM seed out
# One simulation; its wall time goes to runs/NAME.time, its messages to runs/NAME.log.
xargs -P "$par" -L 1 sh -c '
	name="$1-$2-$3"
	case $1 in
	hybrid*) where="--placement $2" ;;
	*) where="--alloc $out/alloc/$1-$2.alloc" ;;
	esac
	t0=$(date +%s)
	if "$NCSIM" run "$out/wkld/$1.wkld" --system theta-1056 $where --routing "$3" \
		--seed "$seed" --no-wall-time --no-progress --out "$out/runs/$name" > "$out/runs/$name.log" 2>&1; then
		echo "$(( $(date +%s) - t0 ))" > "$out/runs/$name.time"
		echo "done $name ($(cat "$out/runs/$name.time") s)"
	else
		echo "FAILED $name (see $out/runs/$name.log)"
		exit 255
	fi
' sh < "$list"
total=$(( $(date +%s) - start ))

# ---------------------------------------------------------------- tables

# Per-rank statistics of one job of one run: "mean_comm median_comm mean_io median_io" in ms.
stats() { # run-dir job
	awk -F, -v job="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["job"] == job { print $col["mpi_ps"], $col["io_ps"] }
	' "$1/tasks.csv" > "$out/tables/.vals"
	n=$(wc -l < "$out/tables/.vals")
	[ "$n" -gt 0 ] || { echo "run-study.sh: no ranks of $2 in $1/tasks.csv" >&2; exit 1; }
	mc=$(awk '{ s += $1 } END { printf "%.3f", s / NR / 1e9 }' "$out/tables/.vals")
	mi=$(awk '{ s += $2 } END { printf "%.3f", s / NR / 1e9 }' "$out/tables/.vals")
	dc=$(cut -d' ' -f1 "$out/tables/.vals" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e9 }')
	di=$(cut -d' ' -f2 "$out/tables/.vals" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e9 }')
	echo "$mc $dc $mi $di"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }

for app in milc nekbone checkpoint cosmoflow; do
	case $app in
	milc) hybrids=hybrid1 ;;
	nekbone) hybrids=hybrid2 ;;
	*) hybrids="hybrid1 hybrid2" ;;
	esac
	md="$out/tables/$app.md"
	csv="$out/tables/$app.csv"
	{
		echo "### $app (times per rank in ms; slowdown = hybrid / alone)"
		echo
		echo "| placement | routing | run | comm mean | comm median | I/O mean | I/O median | comm slowdown (mean) | comm slowdown (median) | I/O slowdown (mean) | I/O slowdown (median) |"
		echo "|---|---|---|---|---|---|---|---|---|---|---|"
	} > "$md"
	echo "placement,routing,run,comm_mean_ms,comm_median_ms,io_mean_ms,io_median_ms,comm_slowdown_mean,comm_slowdown_median,io_slowdown_mean,io_slowdown_median" > "$csv"
	for pl in contiguous random-node; do
		for ro in minimal par; do
			set -- $(stats "$out/runs/$app-$pl-$ro" "$app")
			[ $# -eq 4 ] || exit 1
			bmc=$1 bdc=$2 bmi=$3 bdi=$4
			echo "| $pl | $ro | alone | $bmc | $bdc | $bmi | $bdi | | | | |" >> "$md"
			echo "$pl,$ro,alone,$bmc,$bdc,$bmi,$bdi,,,," >> "$csv"
			for h in $hybrids; do
				set -- $(stats "$out/runs/$h-$pl-$ro" "$app")
				[ $# -eq 4 ] || exit 1
				sc=$(ratio "$1" "$bmc") sdc=$(ratio "$2" "$bdc") si=$(ratio "$3" "$bmi") sdi=$(ratio "$4" "$bdi")
				echo "| $pl | $ro | $h | $1 | $2 | $3 | $4 | $sc | $sdc | $si | $sdi |" >> "$md"
				echo "$pl,$ro,$h,$1,$2,$3,$4,$sc,$sdc,$si,$sdi" >> "$csv"
			done
		done
	done
	echo >> "$md"
done
rm -f "$out/tables/.vals"
cat "$out/tables/milc.md" "$out/tables/nekbone.md" "$out/tables/checkpoint.md" "$out/tables/cosmoflow.md" \
	> "$out/tables/all.md"
echo "study: $(wc -l < "$list") simulations in $total s wall ($par at a time); tables in $out/tables/"
cat "$out/tables/all.md"
