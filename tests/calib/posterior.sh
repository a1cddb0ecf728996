#!/bin/bash
# tests/calib/posterior.sh - `ncsim run --posterior` (doc/calibration.md,
# "Propagating a posterior"): osu-latency on a small analytic machine, with
# posteriors written by hand over mpi.call_overhead [ps] (every message pays
# it, so the end time grows with it) and network.bandwidth [B/s].
#
# - Rows that are all the same: the interval collapses (5% = median = 95%),
#   and the end time is that of a plain `ncsim run` on the system with those
#   values written in by hand.
# - Rows that differ only in call_overhead: the end time grows draw by draw,
#   and the median, 5% and 95% are GSL's quantiles (linear between order
#   statistics) of the draws' own summary.json, computed here with awk.
# - -j 1 and -j 2 write the same posterior-summary.json and draws.csv.
# - The shares of MPI time sum to 1 in every draw.
# - A workload file runs the same way, one table per job.
# - Errors leave no folder: a missing file, a bad unit, a ragged row,
#   --samples above the rows, a key the system does not know, SIGTERM.
. "$(dirname "$0")/lib.sh"
cat > sys.conf <<'CONF'
[network]
model = analytic
nodes = 4
latency = 1 us
bandwidth = 5 GB/s
[mpi]
call_overhead = 100 ns
CONF
R="--reps 3 --skip 1 --maxbytes 1K"
run() { "$ncsim" run osu-latency -n 2 --system sys.conf --no-progress --no-wall-time "$@" -- $R; }
H="sample,chain,log_posterior,discrepancy,mpi.call_overhead [ps],network.bandwidth [B/s]"

# stat FILE FIGURE WHAT: WHAT (median, p05, p95) of FIGURE of job 0 in posterior-summary.json.
stat() {
	awk -v f="\"$2\": {" -v w="\"$3\":" 'index($0, f) { on = 1; next } on && $1 == w { sub(/,$/, "", $2); print $2; exit }' "$1"
}
# values FILE FIGURE: the per-draw values of FIGURE of job 0, one a line.
values() {
	awk -v f="\"$2\": {" 'index($0, f) { on = 1 } on && /"values": \[/ { list = 1; next }
		list && /\]/ { exit } list { gsub(/[ ,]/, ""); print }' "$1"
}
# fig FILE FIGURE: FIGURE of job 0 in a run's summary.json.
fig() { awk -v f="\"$2\":" '$1 == f { sub(/,$/, "", $2); print $2; exit }' "$1"; }
# quantile P < VALUES: GSL's quantile at P of the values: sorted x[0..n), d = (n-1)P, x[i] + (d-i)(x[i+1]-x[i]).
quantile() {
	sort -g | awk -v p="$1" '{ x[n++] = $1 } END { d = (n - 1) * p; i = int(d); f = d - i
		printf "%.17g\n", i + 1 < n ? x[i] + f * (x[i + 1] - x[i]) : x[i] }'
}
# no_output DIR: neither DIR nor a temporary folder of it is left.
no_output() { ! test -e "$1" && ! ls -a | grep -q "^\.ncsim-tmp-$1\."; }

# --- every row the same: a collapsed interval, equal to the plain run.
{ echo "# six equal rows"; echo "$H"; for i in 0 1 2 3 4 5; do echo "$i,0,-10.5,0.01,250000,4e9"; done; } > same.csv
run --posterior same.csv --samples 4 -j 2 --out same > same.txt 2> same.err || { cat same.err; exit 1; }
sed 's/^call_overhead = .*/call_overhead = 250 ns/; s/^bandwidth = .*/bandwidth = 4 GB\/s/' sys.conf > edited.conf
"$ncsim" run osu-latency -n 2 --system edited.conf --no-progress --out plain -- $R > /dev/null 2>&1 || exit 1
plain=$(fig plain/summary.json end_ps)
cat same.txt
check "equal rows: median = the plain run's end time ($plain ps)" test "$(stat same/posterior-summary.json end_ps median)" = "$plain"
check "equal rows: 5% = 95% = median" test "$(stat same/posterior-summary.json end_ps p05)" = "$plain" -a \
	"$(stat same/posterior-summary.json end_ps p95)" = "$plain"
for f in network_share sync_share stack_share; do
	check "equal rows: the $f interval collapses too" \
		test "$(stat same/posterior-summary.json $f p05)" = "$(stat same/posterior-summary.json $f p95)"
done
check "equal rows: the draw's system has the values with their units" \
	grep -q "^call_overhead = 250000 ps" same/draws/000.conf
check "the table has the end time" grep -q "^  end time .* us .* us .* us$" same.txt
check "the table has the three shares" test "$(grep -c 'share of MPI time .*% .*% .*%$' same.txt)" -eq 3

# --- rows that differ in call_overhead only: the end time grows with it.
{ echo "$H"; for i in 0 1 2 3 4 5 6 7; do echo "$i,$((i % 2)),-$i,0.01,$((100000 + 100000 * i)),5e9"; done; } > spread.csv
run --posterior spread.csv --samples 4 -j 2 --out spread > spread.txt 2> spread.err || { cat spread.err; exit 1; }
S=spread/posterior-summary.json
for d in 000 001 002 003; do fig spread/draws/$d/summary.json end_ps; done > ends.txt
check "draws 0..3 are rows 0, 2, 4, 6 (floor(i x 8 / 4)) in draws.csv" \
	test "$(cut -d, -f1,2,6 spread/draws.csv | tr '\n' ' ')" = "draw,sample,mpi.call_overhead [ps] 0,0,100000 1,2,300000 2,4,500000 3,6,700000 "
check "the end time grows with call_overhead ($(tr '\n' ' ' < ends.txt))" sort -g -u -c ends.txt
check "4 distinct end times" test "$(sort -u ends.txt | wc -l)" -eq 4
check "the per-draw values are the draws' summary.json" cmp -s ends.txt <(values $S end_ps)
for q in median:0.5 p05:0.05 p95:0.95; do
	got=$(stat $S end_ps "${q%%:*}") want=$(quantile "${q#*:}" < ends.txt)
	check "end time ${q%%:*}: $got = $want (GSL quantile of the draws)" within "$got" "$want" 1e-12
done
check "the interval is not empty" le "$(stat $S end_ps p05)" "$(awk -v x="$(stat $S end_ps p95)" 'BEGIN { print x - 1 }')"
check "the parameter's values are summarized too" test "$(stat $S value median)" = 400000
paste <(values $S network_share) <(values $S sync_share) <(values $S stack_share) > shares.txt
check "the shares of MPI time sum to 1 in every draw" \
	awk '{ s = $1 + $2 + $3; if (s < 1 - 1e-12 || s > 1 + 1e-12) bad = 1 } END { exit bad || NR != 4 }' shares.txt

# --- -j does not show.
run --posterior spread.csv --samples 4 -j 1 --out spread1 > /dev/null 2>&1 || exit 1
check "-j 1 and -j 2 write the same posterior-summary.json" cmp -s $S spread1/posterior-summary.json
check "-j 1 and -j 2 write the same draws.csv" cmp -s spread/draws.csv spread1/draws.csv

# --- a workload file: one table per job.
cp "$src/examples/pingpong.ncptl" .
printf '2 osu-latency %s\n2 pingpong.ncptl --reps 3 --maxbytes 64\n' "$R" > two.wkld
"$ncsim" run two.wkld --system sys.conf --posterior spread.csv --samples 2 --no-progress --out wkld > wkld.txt 2>&1
check "a workload file: a table per job" grep -q "^job 1: pingpong, 2 tasks, 2 posterior draws" wkld.txt

# --- errors: a message, a status, no folder.
# fails STATUS MESSAGE ARGS...: run with ARGS exits with STATUS, says MESSAGE, leaves no folder err.
fails() {
	local status=$1 msg=$2
	shift 2
	run "$@" --out err > err.txt 2>&1
	local rc=$?
	check "$msg: status $rc" test "$rc" -eq "$status"
	check "$msg: the message" grep -qF -- "$msg" err.txt
	check "$msg: no folder" no_output err
}
fails 2 "missing.csv: cannot open posterior file" --posterior missing.csv
{ echo "s,mpi.call_overhead [ms]"; echo "0,1"; } > unit.csv
fails 1 "unit.csv:1: column 'mpi.call_overhead [ms]': unknown unit [ms]" --posterior unit.csv --samples 1
{ echo "$H"; echo "0,0,-1,0.01,100000,5e9"; echo "1,0,-1,0.01,100000"; } > ragged.csv
fails 1 "ragged.csv:3: 5 fields, the header has 6" --posterior ragged.csv --samples 1
fails 2 "--samples 9: spread.csv has 8 rows" --posterior spread.csv --samples 9
{ echo "s,mpi.no_such_key [ps]"; echo "0,5"; } > key.csv
fails 1 "unknown key 'no_such_key' in [mpi]" --posterior key.csv --samples 1
fails 2 "--samples and -j go with --posterior" --samples 2

# --- SIGTERM while draws run: the children are killed, nothing is written.
{ echo "mpi.call_overhead [ps]"; for i in 1 2 3 4; do echo "${i}00000"; done; } > slow.csv
"$ncsim" run osu-bw -n 2 --posterior slow.csv --samples 4 -j 2 --no-progress --out slow > /dev/null 2> slow.err &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM: status 130 ($rc)" test "$rc" -eq 130
check "SIGTERM: no folder" no_output slow
check "SIGTERM: no draw left running" test -z "$(pgrep -f -- '--out ./.ncsim-tmp-slow')"
[ "$failed" -eq 0 ]
