#!/bin/sh
# tests/calib/bayes_errors.sh - `ncsim calibrate --bayes` at the command level.
#
# One small calibration that works: osu-latency on a 2-node analytic machine,
# network latency and bandwidth free (log-uniform over 500 ns..5 us and
# 5..25 GB/s), three trials measured on a hidden system (1.5 us, 12 GB/s)
# with 2% noise; a design of 30 runs (+ 6 held out) and 2,000 samples from
# 2 chains of 12 walkers. Its folder holds every output; posterior.csv has
# 2 x 12 x ceil(2000 / 24) = 2,016 rows; the same seed gives the same bytes,
# with -j 1 and -j 2, and again from the design.csv it wrote (--design) with
# no new simulation; map.conf runs; the MAP is near the hidden values.
#
# Then the errors: each exits non-zero with its message (file:line where
# there is a line) and leaves no output folder: --levels, [bayes] keys,
# malformed priors, --design naming a missing file, a folder, a FIFO (no
# hang), a design of other parameters, a design without held-out runs; a
# prior range holding a system that cannot run; an existing --out.
. "$(dirname "$0")/lib.sh"

printf '[network]\nmodel = analytic\nnodes = 2\nlatency = 1.5 us\nbandwidth = 12 GB/s\n' > hidden.conf
printf '[network]\nmodel = analytic\nnodes = 2\n' > base.conf
measure lat hidden.conf 3 osu-latency 2 --maxbytes 65536 --reps 2 --skip 1

# spec FILE [PARAM LINE 10] [BAYES LINES...]: a spec; [bayes] keys start at line 12.
spec() {
	f=$1 p=${2:-network.bandwidth = 5GB/s:25GB/s log}
	shift 2
	{
		printf '[calibration]\nsystem = base.conf\nseed = 3\n[benchmark.lat]\nprogram = osu-latency\n'
		printf 'args = --maxbytes 65536 --reps 2 --skip 1\nmeasured = lat-1.txt, lat-2.txt, lat-3.txt\n'
		printf '[parameters]\nnetwork.latency = 500ns:5us log\n%s\n[bayes]\n' "$p"
		for line in "$@"; do printf '%s\n' "$line"; done
	} > "$f"
}
small="design = 30|samples = 2000|pilot = 1000|chains = 2|walkers = 12"
IFS='|'
# shellcheck disable=SC2086
spec spec.conf "" $small
unset IFS
cal() { "$ncsim" calibrate --no-progress "$@"; }

# ------------------------------------------------------------ a calibration that works
cal spec.conf --out A > A.txt 2> A.err || { echo "FAIL: the small calibration"; cat A.err; exit 1; }
for f in posterior.csv summary.csv correlation.csv predictive.csv sobol.csv design.csv map.conf calibration.json; do
	check "A/$f written" test -s "A/$f"
done
check "posterior.csv header" test "$(grep -v '^#' A/posterior.csv | head -1)" = \
	"sample,chain,walker,log_posterior,discrepancy,network.latency [ps],network.bandwidth [B/s]"
# 2 chains x 12 walkers = 24 sequences; 2000 / 24 = 83.3, so 84 kept per sequence: 2016.
check "posterior.csv: 2016 samples" test "$(grep -v '^#' A/posterior.csv | tail -n +2 | wc -l)" -eq 2016
check "posterior.csv: chains 0..1, walkers 0..11, 84 rows each" awk -F, '!/^#/ && NR > 2 {
		if ($2 < 0 || $2 > 1 || $3 < 0 || $3 > 11) bad++; n[$2 "/" $3]++ }
	END { for (k in n) { seq++; if (n[k] != 84) bad++ } exit !(bad == 0 && seq == 24) }' A/posterior.csv
# design.csv: 30 + 6 runs over the prior, 30 + 6 in the posterior region; the simulations counted.
check "design.csv: 72 runs" test "$(grep -v '^#' A/design.csv | tail -n +2 | wc -l)" -eq 72
check "calibration.json: 72 simulations" grep -q '"simulations": 72,' A/calibration.json
# The latency is pinned by the 16 small sizes (1.50 us each, 3 trials of 2% noise: 0.3% per size);
# the bandwidth only by the 4 largest, where it is a quarter of the time or less: looser.
check "the MAP latency within 2% of 1.5 us" within "$(value A/map.conf network.latency)" 1500000 0.02
check "the MAP bandwidth within 20% of 12 GB/s" within "$(value A/map.conf network.bandwidth)" 12e9 0.2
check "1.5 us inside the latency's 90% interval" \
	awk -F, '$1 == "network.latency" { ok = $8 <= 1500000 && 1500000 <= $10 } END { exit !ok }' A/summary.csv
# quiet COMMAND...: the command without its output.
quiet() { "$@" > quiet.txt 2>&1 || { cat quiet.txt; return 1; }; }
check "map.conf runs" quiet "$ncsim" run osu-latency -n 2 --system A/map.conf --out map-run --no-progress -- \
	--maxbytes 16 --reps 2 --skip 1
check "posterior.csv feeds ncsim run --posterior" quiet "$ncsim" run osu-latency -n 2 --system base.conf \
	--posterior A/posterior.csv --samples 4 --out post-run --no-progress -- --maxbytes 16 --reps 2 --skip 1

# Determinism: the same seed, the same bytes; -j 2 too (and --force replaces a folder).
cal spec.conf --out B > /dev/null 2>&1
check "the same seed: the same posterior.csv" cmp A/posterior.csv B/posterior.csv
mkdir C
cal spec.conf -j 2 --out C --force > /dev/null 2>&1
check "-j 2: the same posterior.csv" cmp A/posterior.csv C/posterior.csv
check "-j 2: the same design.csv" cmp A/design.csv C/design.csv
# The design it wrote gives the same posterior, and runs nothing new.
cal spec.conf --design A/design.csv --out D > D.txt 2>&1
check "--design A/design.csv: no new simulation" grep -q '"simulations": 0,' D/calibration.json
check "--design A/design.csv: design_reused" grep -q '"design_reused": true' D/calibration.json
check "--design A/design.csv: the same posterior.csv" cmp A/posterior.csv D/posterior.csv

# ------------------------------------------------------------ errors
# case_ NAME STATUS 'STDERR TEXT' COMMAND... (lib.sh): the status, the text, no folder `out` or staging folder.

case_ "--bayes with --levels" 1 "spec.conf: --bayes calibrates one network level: give --network instead of --levels" \
	cal spec.conf --bayes --levels analytic,dragonfly --out out
spec bad.conf "" "walkers = 7"
case_ "[bayes] walkers odd" 1 "bad.conf:12: walkers must be even" cal bad.conf --out out
spec bad.conf "" "samples = 2000" "sample = 10"
case_ "[bayes] unknown key" 1 "bad.conf:13: unknown key 'sample' in [bayes]" cal bad.conf --out out
spec bad.conf "" "discrepancy = 0.5:0.1"
case_ "[bayes] discrepancy" 1 "bad.conf:12: discrepancy must be LO:HI with 0 < LO < HI <= 10" cal bad.conf --out out
spec bad.conf "" "mode = mcmc"
case_ "[bayes] mode" 1 "bad.conf:12: mode must be auto, pce or direct" cal bad.conf --out out
spec bad.conf "network.bandwidth = 5GB/s:25GB/s log prior=normal(12GB/s)" "samples = 2000"
case_ "prior without its spread" 1 "bad.conf:10: network.bandwidth: prior 'normal(12GB/s)' needs two arguments: normal(MEAN,SD)" cal bad.conf --out out
spec bad.conf "network.bandwidth = 5GB/s:25GB/s log prior=lognormal(12GB/s,0)" "samples = 2000"
case_ "prior with a zero spread" 1 "bad.conf:10: network.bandwidth: prior 'lognormal(12GB/s,0)': the spread and the median must be positive" \
	cal bad.conf --out out
spec bad.conf "network.bandwidth = 5GB/s:25GB/s log prior=normal(12GB/s,1us)" "samples = 2000"
case_ "prior in another unit" 1 "bad.conf:10: network.bandwidth: prior argument '1us': not in the range's unit" \
	cal bad.conf --out out
spec bad.conf "network.bandwidth = 5GB/s:25GB/s log prior=gamma(2,3)" "samples = 2000"
case_ "unknown prior" 1 "bad.conf:10: network.bandwidth: unknown prior 'gamma(2,3)'" cal bad.conf --out out

case_ "--design: a missing file" 1 "nothere.csv: cannot open design file: No such file or directory" \
	cal spec.conf --design nothere.csv --out out
mkdir folder
case_ "--design: a folder" 1 "folder: cannot read design file: is a directory" cal spec.conf --design folder --out out
if mkfifo fifo 2> /dev/null; then
	case_ "--design: a FIFO, no hang" 1 "fifo: cannot read design file: not a regular file" \
		timeout 20 "$ncsim" calibrate --no-progress spec.conf --design fifo --out out
fi
# A design of other parameters: the header names mpi.call_overhead where the spec has the bandwidth.
sed 's/^run,set,network.latency \[ps\],network.bandwidth \[B\/s\]/run,set,network.latency [ps],mpi.call_overhead [ps]/' \
	A/design.csv > other.csv
case_ "--design of other parameters" 1 \
	"other.csv:2: column 4 is 'mpi.call_overhead [ps]', the spec needs 'network.bandwidth [B/s]'" \
	cal spec.conf --design other.csv --out out
# A design of other measured points: 16 B measured as 32 B.
sed '2s/lat@16,/lat@32,/' A/design.csv > points.csv
case_ "--design of other measured points" 1 "points.csv:2: column 10 is 'lat@32', the spec needs 'lat@16'" \
	cal spec.conf --design points.csv --out out
sed '3s/,train,[0-9.e+]*,/,train,9e9,/' A/design.csv > range.csv
case_ "--design: a value outside the range" 1 "range.csv:3: network.latency = 9e+09 is outside the spec's range" \
	cal spec.conf --design range.csv --out out

# No held-out run: the surrogate's error is unknown (NaN), and with the surrogate
# kept (mode = pce, refine = no) it must not reach the likelihood as a zero-width
# noise model: refused, or held-out runs made for it.
grep -v ',test,\|,local-test,' A/design.csv > notest.csv
IFS='|'
# shellcheck disable=SC2086
spec pce.conf "" $small "mode = pce" "refine = no"
unset IFS
cal pce.conf --design notest.csv --out E > E.txt 2>&1
rc=$?
if [ "$rc" -ne 0 ]; then
	check "a design without held-out runs: refused with a message" grep -q 'held-out' E.txt
	check "a design without held-out runs: no folder" test ! -e E
else
	check "a design without held-out runs: held-out runs made" \
		awk '/"global": \{/ { g = 1 } g && /"held_out_runs"/ { ok = $2 + 0 > 0; g = 0 } END { exit !ok }' E/calibration.json
	check "a design without held-out runs: the error is a number" \
		awk '/"global": \{/ { g = 1 } g && /held_out_rms_relative_error_worst/ { ok = $2 !~ /null/; g = 0 } END { exit !ok }' \
		E/calibration.json
fi

# A prior range that parses but holds systems that cannot run: small_max above the
# protocol's medium_max. The design's runs fail, with the simulator's message.
spec fail.conf "mpi.small_max = 0:1MiB" "design = 30"
case_ "design runs that fail" 1 "a design run failed (the prior ranges hold a system that cannot run)" \
	cal fail.conf --out out
case_ "design runs that fail: the reason" 1 "medium_max must not be below small_max" cal fail.conf --out out

mkdir taken
echo keep > taken/mine.txt
case_ "an existing --out without --force" 2 "the output folder taken exists; --force replaces it" \
	cal spec.conf --out taken
check "the existing folder is untouched" test "$(cat taken/mine.txt)" = keep
exit $((failed > 0))
