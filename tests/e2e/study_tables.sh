#!/bin/sh
# study_tables.sh - the tables of the full-scale interference study
# (examples/interference/run-study.sh --tables) on a hand-made runs folder,
# checked against values computed by hand, and the input checks of --full.
#
# The folder holds the 24 runs of --full (PLACEMENT-ROUTING-WORKLOAD) with
# made-up outputs: every rank of every job ends at 2 ms after 1 ms of
# computation and no I/O, every run took 2 s of wall, except the runs
# below, whose numbers the checks derive in their comments. A fake MFNetSim
# folder gives the artifact's wall times (100 s a run, except one).
set -u
: "${NCSIM_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
study=$NCSIM_SRCDIR/examples/interference/run-study.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/studytables.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
# want FILE LINE: FILE has exactly this line.
want() {
	grep -qxF "$2" "$1" || fail "$(basename "$1"): no line '$2'"
}

settings='cont-min cont-par rand_node0-min rand_node0-par'
tasks_header=job,rank,task,node,end_ps,compute_ps,sleep_ps,io_ps,mpi_ps,mpi_network_ps,mpi_sync_ps,mpi_stack_ps,bytes_sent,msgs_sent,bytes_received,msgs_received,io_bytes_read,io_bytes_written,io_active_ps

# A task row: job rank end compute io active (ps).
row() { echo "$1,$2,$2,$2,$3,$4,0,$5,0,0,0,0,0,0,0,0,0,0,$6"; }

# summary.json of a run: wall seconds, then the job names.
summary() {
	wall=$1
	shift
	echo '{'
	echo '  "command_line": ["ncsim", "run", "a b.conf"],'
	echo "  \"wall_seconds\": $wall,"
	echo '  "jobs": ['
	n=0
	for j in "$@"; do
		[ $n -gt 0 ] && echo '    ,'
		cat <<EOF
    {
      "name": "$j",
      "latency_ps": {
        "mpi": { "count": 4, "min": 1000000, "q1": 2000000, "median": 3000000, "q3": 4000000, "max": 5000000, "mean": 3000000 },
        "io": { "count": 0, "min": 0, "q1": 0, "median": 0, "q3": 0, "max": 0, "mean": 0 }
      }
    }
EOF
		n=$((n + 1))
	done
	echo '  ],'
	echo '  "storage": { "reads": 0 }'
	echo '}'
}

runs=$tmp/out/runs
for s in $settings; do
	for w in milc nekbone checkpoint cosmo wkld2 wkld3; do
		d=$runs/$s-$w
		mkdir -p "$d"
		case $w in
		cosmo) jobs=cosmoflow ;;
		wkld2) jobs='milc checkpoint cosmoflow' ;;
		wkld3) jobs='nekbone checkpoint cosmoflow' ;;
		*) jobs=$w ;;
		esac
		# shellcheck disable=SC2086
		summary 2.0 $jobs > "$d/summary.json"
		{
			echo "$tasks_header"
			for j in $jobs; do
				row "$j" 0 2000000000 1000000000 0 0
				row "$j" 1 2000000000 1000000000 0 0
			done
		} > "$d/tasks.csv"
		case $w in wkld*)
			printf 'router,port,kind,peer,bytes,busy_ps,saturation_ps\n0,0,injection,0,5,0,0\n0,4,local,1,1000,0,0\n0,8,global,9,0,0,0\n' > "$d/links.csv"
			printf 'router,port,kind,peer,job,class,bytes\n0,4,local,1,0,mpi,1000\n' > "$d/links_by_class.csv"
			;;
		esac
	done
done

# milc: ranks (end, compute, io, active) in ms, alone then in wkld2 (cont-min).
#   alone: (10, 2, 1, 3), (12, 2, 3, 3), (8, 1, 2, 5)
#     comm = end - compute = 8, 10, 7: max 10, mean 25/3 = 8.333
#     io 1, 3, 2: mean 2, median 2, max 3; active 3, 3, 5: mean 3.667, median 3, max 5
#   wkld2: (20, 2, 4, 4), (14, 2, 2, 2), (9, 1, 0, 6)
#     comm 18, 12, 8: max 18, mean 38/3 = 12.667
#     io 4, 2, 0: mean 2, median 2, max 4; active 4, 2, 6: mean 4, median 4, max 6
#   slowdowns: comm max 18/10 = 1.800, comm mean 38/25 = 1.520, io mean 1.000,
#     active mean 4 / (11/3) = 12/11 = 1.091
{
	echo "$tasks_header"
	row milc 0 10000000000 2000000000 1000000000 3000000000
	row milc 1 12000000000 2000000000 3000000000 3000000000
	row milc 2 8000000000 1000000000 2000000000 5000000000
} > "$runs/cont-min-milc/tasks.csv"
{
	echo "$tasks_header"
	row checkpoint 0 2000000000 1000000000 0 0
	row milc 0 20000000000 2000000000 4000000000 4000000000
	row milc 1 14000000000 2000000000 2000000000 2000000000
	row cosmoflow 0 2000000000 1000000000 0 0
	row milc 2 9000000000 1000000000 0 6000000000
} > "$runs/cont-min-wkld2/tasks.csv"
# checkpoint in rand_node0-par-wkld3, 4 ranks: io 1, 4, 2, 10 ms -> sorted
# 1, 2, 4, 10: mean 4.25, median (2 + 4) / 2 = 3, max 10; comm = end -
# compute = io here. Alone it has no I/O: the I/O slowdowns read "-"; comm
# max 10 / 1 = 10.000.
{
	echo "$tasks_header"
	for r in 0:1 1:4 2:2 3:10; do
		t=${r#*:}000000000
		row checkpoint "${r%%:*}" "$((t + 100000000))" 100000000 "$t" "$t"
	done
	row nekbone 0 2000000000 1000000000 0 0
	row cosmoflow 0 2000000000 1000000000 0 0
} > "$runs/rand_node0-par-wkld3/tasks.csv"

# nekbone alone (cont-par): 2000 ranks, all but the last with 1 ms of
# communication and no I/O, the last with 4 ms of I/O: comm = end - compute
# = 5 ms for it; comm mean (1999 + 5) / 2000 = 1.002, I/O mean 4 / 2000 =
# 0.002, median 0. Against it, wkld3 (1 ms, no I/O): comm max 1 / 5 = 0.200,
# comm mean 1 / 1.002 = 0.998, I/O 0 / 0.002 = 0. (So many equal values
# also check that the sort copes with them.)
{
	echo "$tasks_header"
	r=0
	while [ $r -lt 1999 ]; do
		row nekbone $r 2000000000 1000000000 0 0
		r=$((r + 1))
	done
	row nekbone 1999 6000000000 1000000000 4000000000 4000000000
} > "$runs/cont-par-nekbone/tasks.csv"
# cont-min-wkld2: latencies (cosmoflow's I/O) and links.
summary 30.5 milc checkpoint cosmoflow |
	sed '/"name": "cosmoflow"/,/"io"/s/"io": {.*/"io": { "count": 1500, "min": 200936598313, "q1": 425201762304, "median": 442381631488, "q3": 459561500672, "max": 480929236749, "mean": 430620095059.9113 }/' \
	> "$runs/cont-min-wkld2/summary.json"
cat > "$runs/cont-min-wkld2/links.csv" <<'EOF'
router,port,kind,peer,bytes,busy_ps,saturation_ps
0,0,injection,0,999,0,0
0,4,local,1,3000000,0,0
0,5,local,2,1000000,0,0
1,4,local,0,0,0,0
0,8,global,9,5000000,0,2000000000
1,8,global,10,2000000,0,0
1,9,global,11,7000000,0,500000000
2,8,global,12,1000000,0,1000000000
3,8,global,13,0,0,4000000000
1,0,terminal,4,77,0,0
EOF
cat > "$runs/cont-min-wkld2/links_by_class.csv" <<'EOF'
router,port,kind,peer,job,class,bytes
0,0,injection,0,0,mpi,999
0,4,local,1,0,mpi,2000000
0,4,local,1,1,io,1000000
0,5,local,2,1,io,1000000
0,8,global,9,2,mpi,5000000
1,8,global,10,0,mpi,2000000
1,9,global,11,0,mpi,3000000
1,9,global,11,1,io,4000000
2,8,global,12,2,mpi,1000000
EOF
# Pairs beyond the labels ncsim keeps apart are job -1, class other.
echo "0,8,global,9,-1,other,500" >> "$runs/cont-par-wkld2/links_by_class.csv"
# One hybrid run without the split: its link traffic has the totals only.
rm "$runs/rand_node0-min-wkld3/links_by_class.csv"
echo 40 > "$tmp/out/study.time"

# The artifact: 100 s a run, cont-min-milc 1890.1618 s (its file holds two
# runs: the first counts). Other lines are noise that must not matter.
mfn=$tmp/mfn
mkdir -p "$mfn/experiments/ind" "$mfn/experiments/wkld"
for s in $settings; do
	for w in milc nekbone checkpoint cosmo wkld2 wkld3; do
		case $w in wkld*) sub=wkld ;; *) sub=ind ;; esac
		printf 'model stats 12345 seconds\n\t: Running Time = 100.0000 seconds\nTotal 7\n' > "$mfn/experiments/$sub/$s-$w.out"
	done
done
printf 'junk\n\t: Running Time = 1890.1618 seconds\n\t: Running Time = 9999.0 seconds\n' > "$mfn/experiments/ind/cont-min-milc.out"

if ! sh "$study" --tables "$tmp/out" "$mfn" > "$tmp/tables.log" 2>&1; then
	fail "--tables: $(cat "$tmp/tables.log")"
fi
t=$tmp/out/tables
want "$t/milc.csv" "cont-min,alone,milc,10.000,8.333,2.000,2.000,3.000,3.667,3.000,5.000,,,,"
want "$t/milc.csv" "cont-min,wkld2,milc,18.000,12.667,2.000,2.000,4.000,4.000,4.000,6.000,1.800,1.520,1.000,1.091"
# Every other setting: 1 ms of communication per rank, alone and together.
want "$t/milc.csv" "rand_node0-par,wkld2,milc,1.000,1.000,0.000,0.000,0.000,0.000,0.000,0.000,1.000,1.000,-,-"
[ "$(wc -l < "$t/milc.csv")" -eq 9 ] || fail "milc.csv: $(wc -l < "$t/milc.csv") lines, want 9 (header, 4 settings x alone + wkld2)"
[ "$(wc -l < "$t/checkpoint.csv")" -eq 13 ] || fail "checkpoint.csv: want 13 lines (4 settings x alone + 2 hybrids)"
want "$t/checkpoint.csv" "rand_node0-par,wkld3,checkpoint,10.000,4.250,4.250,3.000,10.000,4.250,3.000,10.000,10.000,4.250,-,-"
grep -q '^| cont-min | wkld2 | milc | 18.000 | 12.667 |' "$t/milc.md" || fail "milc.md: no wkld2 row of cont-min"
grep -q '^### cosmo' "$t/cosmo.md" && grep -q ',wkld3,cosmoflow,' "$t/cosmo.csv" || fail "cosmo: table or cosmoflow job missing"

want "$t/nekbone.csv" "cont-par,alone,nekbone,5.000,1.002,0.002,0.000,4.000,0.002,0.000,4.000,,,,"
want "$t/nekbone.csv" "cont-par,wkld3,nekbone,1.000,1.000,0.000,0.000,0.000,0.000,0.000,0.000,0.200,0.998,0.000,0.000"

# Latencies in ms: 200936598313 ps = 200.936598 ms, the mean 430.620095 ms.
want "$t/latency.csv" "cont-min,wkld2,cosmoflow,io,1500,200.936598,425.201762,442.381631,459.561501,480.929237,430.620095"
want "$t/latency.csv" "cont-par,milc,milc,mpi,4,0.001000,0.002000,0.003000,0.004000,0.005000,0.003000"
# 24 runs: 16 of one job, 8 of three, two classes each: 2 (16 + 24) + header.
[ "$(wc -l < "$t/latency.csv")" -eq 81 ] || fail "latency.csv: $(wc -l < "$t/latency.csv") lines, want 81"

# Traffic of cont-min-wkld2 (MB = bytes / 1e6, each series ascending):
#   local, all: (1,4) 0, (0,5) 1, (0,4) 3; global, milc mpi: zeros at (0,8),
#   (2,8), (3,8) by router, then (1,8) 2, (1,9) 3; local, checkpoint io: (1,4)
#   0, then (0,4) and (0,5) 1 each. No local cosmoflow series (none on local
#   links); injection and terminal ports are left out. 3 + 5 all-traffic
#   rows, local milc/mpi and checkpoint/io 3 each, global milc/mpi,
#   checkpoint/io and cosmoflow/mpi 5 each: 29.
l=$t/link-traffic.csv
want "$l" "cont-min,wkld2,local,all,all,1,1,4,0.000000"
want "$l" "cont-min,wkld2,local,all,all,3,0,4,3.000000"
want "$l" "cont-min,wkld2,global,milc,mpi,3,3,8,0.000000"
want "$l" "cont-min,wkld2,global,milc,mpi,5,1,9,3.000000"
want "$l" "cont-min,wkld2,local,checkpoint,io,2,0,4,1.000000"
want "$l" "cont-min,wkld2,local,checkpoint,io,3,0,5,1.000000"
want "$l" "cont-min,wkld2,global,checkpoint,io,5,1,9,4.000000"
want "$l" "cont-min,wkld2,global,cosmoflow,mpi,5,0,8,5.000000"
[ "$(grep -c '^cont-min,wkld2,' "$l")" -eq 29 ] || fail "link-traffic.csv: $(grep -c '^cont-min,wkld2,' "$l") rows of cont-min-wkld2, want 29"
grep -q '^cont-min,wkld2,local,cosmoflow,' "$l" && fail "link-traffic.csv: a local cosmoflow series with no traffic"
want "$l" "cont-par,wkld2,global,other,other,1,0,8,0.000500"
# Without links_by_class.csv: the two all-traffic rows only.
[ "$(grep -c '^rand_node0-min,wkld3,' "$l")" -eq 2 ] || fail "link-traffic.csv: rand_node0-min-wkld3 should have 2 rows"
grep -q 'rand_node0-min-wkld3/links_by_class.csv' "$tmp/tables.log" || fail "no note of the missing links_by_class.csv"

# Saturation CDF, global ports of cont-min-wkld2: 0 (1,8), 0.5 (1,9), 1
# (2,8), 2 (0,8), 4 ms (3,8), 20 % of the 5 ports each.
c=$t/global-saturation-cdf.csv
want "$c" "cont-min,wkld2,1,1,8,0.000000,20.000"
want "$c" "cont-min,wkld2,2,1,9,0.500000,40.000"
want "$c" "cont-min,wkld2,5,3,8,4.000000,100.000"

# Wall: cont-min-milc 1890.1618 / 2 = 945.08; cont-min-wkld2 100 / 30.5 =
# 3.28; totals: ncsim 23 x 2 + 30.5 = 76.5 s, artifact 23 x 100 +
# 1890.1618 = 4190.1618 s, ratio 54.77; the study's elapsed 40 s.
want "$t/wall.csv" "cont-min,milc,2.000,1890.1618,945.1"
want "$t/wall.csv" "cont-min,wkld2,30.500,100.0000,3.3"
want "$t/wall.csv" "all,total,76.500,4190.1618,54.8"
want "$t/wall.csv" "all,elapsed,40.000,,"
grep -q '| all | total | 76.500 | 4190.1618 | 54.8 |' "$t/all.md" || fail "all.md: no wall total"

# Without an artifact file for a run: its columns and the artifact total
# are empty (the other runs keep theirs).
rm "$mfn/experiments/wkld/rand_node0-par-wkld3.out"
sh "$study" --tables "$tmp/out" "$mfn" > "$tmp/tables2.log" 2>&1 || fail "--tables without one .out: $(cat "$tmp/tables2.log")"
want "$t/wall.csv" "rand_node0-par,wkld3,2.000,,"
want "$t/wall.csv" "all,total,76.500,,"
want "$t/wall.csv" "cont-min,milc,2.000,1890.1618,945.1"

# The figures of cont-min-wkld2 drawn from these tables (plot-study.sh,
# gnuplot): three SVG files; the latency plot has a box for cosmoflow's I/O
# in the hybrid (the only latency rows of that run with messages), and an
# unknown workload is refused with status 2.
plot=$NCSIM_SRCDIR/examples/interference/plot-study.sh
if sh "$plot" "$tmp/out" cont-min wkld2 > "$tmp/plot.log" 2>&1; then
	for f in cont-min-wkld2-latency cont-min-wkld2-links wkld2-saturation; do
		grep -q '<svg' "$tmp/out/figures/$f.svg" 2>/dev/null || fail "figures/$f.svg: missing or not an SVG"
	done
	grep -q 'cosmo-io/wkld2' "$tmp/out/figures/cont-min-wkld2-latency.svg" ||
		fail "the latency figure has no cosmo-io/wkld2 box"
else
	fail "plot-study.sh: $(cat "$tmp/plot.log")"
fi
sh "$plot" "$tmp/out" cont-min wkld9 > /dev/null 2>&1
[ $? -eq 2 ] || fail "plot-study.sh accepted the workload wkld9"

# A failing stage leaves the tables as they were and no temporary file: a
# tasks.csv without the io_active_ps column.
cp "$t/milc.csv" "$tmp/milc.before"
sed -i 's/,io_active_ps$/,other/' "$runs/cont-par-milc/tasks.csv"
if sh "$study" --tables "$tmp/out" > "$tmp/bad.log" 2>&1; then
	fail "--tables succeeded on a tasks.csv without io_active_ps"
fi
grep -q 'no column io_active_ps' "$tmp/bad.log" || fail "no message about the missing column: $(cat "$tmp/bad.log")"
cmp -s "$t/milc.csv" "$tmp/milc.before" || fail "milc.csv changed by a failed --tables"
[ -z "$(find "$t" -name '*.tmp.*')" ] || fail "temporary files left in $t"

# Bad inputs: a clear message and exit status 2, before any simulation.
# check_err ARGS...: the expected message (a fixed string) comes first.
check_err() {
	msg=$1
	shift
	sh "$study" "$@" > "$tmp/err.out" 2>&1
	st=$?
	[ $st -eq 2 ] || fail "run-study.sh $*: exit $st, want 2"
	grep -qF "$msg" "$tmp/err.out" || fail "run-study.sh $*: no '$msg' in: $(cat "$tmp/err.out")"
}
check_err "$tmp/nope: no such directory" --full "$tmp/nope" "$tmp/o1"
check_err "experiments/conf: no such directory" --full "$mfn" "$tmp/o1"
mkdir -p "$mfn/experiments/conf/network" "$mfn/experiments/conf/workload" "$mfn/experiments/conf/alloc"
for f in network/dally-1056-min.conf network/dally-1056-par.conf network/dally-1056-intra network/dally-1056-inter \
	workload/milc.conf workload/nekbone.conf workload/checkpoint.conf workload/cosmo.conf workload/wkld2.conf \
	workload/wkld3.conf; do
	echo x > "$mfn/experiments/conf/$f"
done
for p in cont rand_node0; do
	for a in 300p1 300p2 300p3 mixwkld; do echo 0 > "$mfn/experiments/conf/alloc/$p-1d-1056-$a.conf"; done
done
rm "$mfn/experiments/conf/alloc/rand_node0-1d-1056-300p3.conf"
check_err "alloc/rand_node0-1d-1056-300p3.conf: missing" --full "$mfn" "$tmp/o1"
[ -e "$tmp/o1" ] && fail "--full with a missing input created $tmp/o1"
check_err "usage: run-study.sh --full" --full
check_err "$tmp/none/runs: no such directory" --tables "$tmp/none"
rm "$runs/cont-par-wkld2/links.csv"
check_err "cont-par-wkld2/links.csv: missing" --tables "$tmp/out"

if [ "$fails" -gt 0 ]; then
	echo "study_tables: $fails failure(s)"
	exit 1
fi
echo "study_tables: all checks passed"
