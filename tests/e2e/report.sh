#!/bin/sh
# tests/e2e/report.sh - `ncsim report` on real runs (doc/report.md).
#
# Two runs of a 2-job workload on df-tiny (milc: MPI; checkpoint: burst-buffer
# writes), with random and contiguous placement, and a run without a message
# (every task computes). Checked:
#   1. one run: the page is one self-contained file (no script, no external
#      file it needs), every drawn figure is an inline <svg> with plotted
#      elements, and its data file and gnuplot script sit in report/; a
#      script redraws its figure when run by hand; the I/O figures over time
#      add up to io.csv's bytes and request spans (the runs log their I/O);
#      the devices' utilisation over time, per class and per device, adds
#      up to device_busy.csv's service intervals and to storage.csv's busy
#      time; a bounded device_busy.csv (--device-log-max) is said so;
#   2. several runs: the page beside -o, its figure folder, a slowdown table
#      and the runs labelled by their folder names;
#   3. a study folder (run-study.sh's OUT/runs/NAME layout): its runs side by
#      side, labelled by name, a job beside others against the job alone;
#      a run without messages: the MPI figures become notes, nothing fails;
#   4. errors and their exit statuses (doc/ncsim.1): not a run folder (2), a
#      malformed CSV or summary.json (1, with file:line), no gnuplot (2, names
#      gnuplot-nox), no folder given (2); a failed run is reported with a
#      warning (0); a failed report leaves the earlier page as it was and no
#      temporary file;
#   5. the same runs give the same page, byte for byte;
#   6. a netbench sweep: rows of `ncsim netbench --csv` appended to one file
#      (two routings, three loads), and the same sweep as a folder of --out
#      runs: a page beside the CSV with two figures, each an SVG with plotted
#      elements, one curve per routing and a point per load in the data; a
#      run folder mixed with a sweep is refused (2);
#   7. calibrations (a short search and a small --bayes run on examples/
#      calibration's data): the figures drawn, the loss figure against
#      history.csv, the posterior histograms' bins against their samples;
#      a calibration cannot share a page (2);
#   8. ncsim run --report: the page in the run's folder once it is complete,
#      the run's own files as without --report, no temporary file left; no
#      gnuplot: a warning, the run's status and files as they were; a
#      workload file with --report and --out, and without --out (2, before
#      anything runs).
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/check.sh"
. "$srcdir/tests/e2e/report_lib.sh"
cd "$work" || exit 1

if ! command -v gnuplot > /dev/null 2>&1; then
	echo "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)"
	exit 77
fi

printf '%s\n%s\n' '16 milc --iters 3 --msgsize 16K --compute 100 --config 256K' \
	'8 checkpoint --count 2 --period 1 --total 16M' > two.wkld
cat > compute.ncptl << 'EOF'
Require language version "1.5".
all tasks compute for 2 milliseconds then
task 0 sleeps for 1 millisecond.
EOF
sim() { # OUT ARGS...: one simulation into folder OUT
	s_out=$1
	shift
	if ! "$ncsim" run "$@" --system df-tiny --seed 3 --io-log --no-wall-time --no-progress --out "$s_out" > "$s_out.log" 2>&1; then
		cat "$s_out.log"
		echo "FAIL: ncsim run $* did not run"
		exit 1
	fi
}
sim rand two.wkld --placement random-node
sim cont two.wkld --placement contiguous
sim zero compute.ncptl -n 4

# report ARGS...: runs ncsim report; its status in $rc, its output in r.out and r.err.
report() {
	"$ncsim" report "$@" > r.out 2> r.err
	rc=$?
}

# The inline SVGs of page $1, one per line of svgs.txt (newlines removed).
svgs() { tr '\n' ' ' < "$1" | sed 's/<svg/\n<svg/g; s/<\/svg>/<\/svg>\n/g' | grep '^<svg' > svgs.txt; }

# Checks every SVG of svgs.txt: gnuplot's plot groups (gnuplot_plot_N, or
# gnuplot_plot_Na, _Nb in the panels of a multiplot) hold drawn shapes beyond
# their legend samples. A legend sample has at most 9 coordinate pairs (a box
# and its border), so a group with data has more: an empty plot fails.
plotted() {
	n=0
	while IFS= read -r s; do
		n=$((n + 1))
		groups=$(printf '%s\n' "$s" | grep -o 'gnuplot_plot_[0-9]*[a-z]*" >' | wc -l)
		coords=$(printf '%s\n' "$s" | awk '{ print substr($0, index($0, "gnuplot_plot_1")) }' |
			grep -oE '<(path|polygon|polyline)[^>]*>' |
			grep -oE '[0-9]+\.[0-9]+,[0-9]+\.[0-9]+' | wc -l)
		if [ "$groups" -eq 0 ] || [ "$coords" -le $((9 * groups)) ]; then
			echo "svg $n: $groups plot groups, $coords coordinates"
			return 1
		fi
	done < svgs.txt
	[ "$n" -gt 0 ]
}

# Every drawn figure of page $1 (figure folder $2) has ID.dat with data rows, ID.gp and ID.svg.
files_of() {
	ok=0
	for id in $(grep -o '<section id="fig-[a-z-]*">' "$1" | sed 's/.*fig-//; s/">//'); do
		grep -q "<section id=\"fig-$id\">" "$1" || continue
		if sed -n "/<section id=\"fig-$id\">/,/<\/section>/p" "$1" | grep -q '<figure>'; then
			[ -s "$2/$id.gp" ] && [ -s "$2/$id.svg" ] && grep -qv '^#' "$2/$id.dat" || {
				echo "figure $id: missing or empty files in $2"
				ok=1
			}
		elif [ -e "$2/$id.dat" ]; then
			echo "figure $id is a note, but $2/$id.dat exists"
			ok=1
		fi
	done
	return $ok
}

echo "== one run"
report rand
check "report of one run exits 0" test "$rc" = 0
check "the page is DIR/report.html" test -s rand/report.html
check "stdout names the page" grep -q 'wrote rand/report.html: 13 figures' r.out
check "no script, no external image, style sheet or frame" \
	sh -c "! grep -qiE '<script|<img|<link|<iframe|src=' rand/report.html"
check "the header shows the command line and the seed" \
	grep -q 'ncsim run two.wkld --placement random-node --system df-tiny --seed 3' rand/report.html
check "a table of contents and the per-job summary" \
	sh -c "grep -q '<nav><h2>Contents' rand/report.html && grep -q '<td>checkpoint</td><td class=\"n\">8</td>' rand/report.html"
svgs rand/report.html
check "13 inline SVGs, one per figure (5 of storage)" test "$(wc -l < svgs.txt)" = 13
check "every SVG has plotted elements" plotted
check "no XML prologue inside the page" sh -c "! grep -q '<?xml' rand/report.html"
check "ids are unique in the page" sh -c "test -z \"\$(grep -o \" id=['\\\"][^'\\\"]*\" rand/report.html | sort | uniq -d)\""
check "each figure's data, script and SVG are in report/" files_of rand/report.html rand/report
check "the time decomposition data has a row per job" sh -c "grep -c '^[0-9]' rand/report/time.dat | grep -qx 2"
# I/O over time: the bytes of the rate figure, each bin's rate times its width, add up to io.csv's bytes,
# and the requests in flight, times the width, to the sum of the requests' spans (a separate path).
unit_of() { # the multiplier of unit $1 (ps, ns, µs, ms, s; B/s to TB/s; none: 1)
	case $1 in "") echo 1 ;; ps) echo 1e-12 ;; ns) echo 1e-9 ;; ms) echo 1e-3 ;; s) echo 1 ;; B/s) echo 1 ;; kB/s) echo 1e3 ;;
	MB/s) echo 1e6 ;; GB/s) echo 1e9 ;; TB/s) echo 1e12 ;; *) echo 1e-6 ;; esac
}
binned() { # FILE: the sum over every block of y times the bin width, in seconds (rates: bytes)
	tu=$(unit_of "$(sed -n 's/^# Time: the middle of each bin, in \([^;]*\);.*/\1/p' "$1")")
	ru=$(unit_of "$(sed -n 's/.*rates in \([^.]*\)\.$/\1/p' "$1")")
	awk -v tu="$tu" -v ru="$ru" '/^[0-9]/ { if (n == 1) w = $1 - x0; if (n == 0) x0 = $1; n++; s += $2 }
		/^# block/ { n = 0 } END { printf "%.6g\n", s * w * tu * ru }' "$1"
}
io_sum() { # COLUMN: the sum over io.csv's requests of bytes, or of completion - issue (seconds)
	awk -F, -v what="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s += what == "bytes" ? $c["bytes"] : ($c["completion_us"] - $c["issue_us"]) * 1e-6 }
		END { printf "%.6g\n", s }' rand/io.csv
}
check "the storage figures: requests in flight, bytes per second, busy devices" \
	sh -c "test -s rand/report/io-inflight.svg && test -s rand/report/io-rate.svg && test -s rand/report/device-busy.svg"
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(b > 0 && (d < 0 ? -d : d) <= 1e-5 * b) }'; }
check "I/O rate: the bins add up to io.csv's bytes ($(io_sum bytes))" close "$(binned rand/report/io-rate.dat)" "$(io_sum bytes)"
check "I/O in flight: the bins add up to the requests' spans ($(io_sum span) s)" \
	close "$(binned rand/report/io-inflight.dat)" "$(io_sum span)"
# Device utilisation over time: a block's busy share (%) in a bin, times the bin's width and the
# devices of its class (storage.csv's rows of that class; 1 for a block per device), summed over
# the bins and blocks, is the devices' busy time: the sum of device_busy.csv's end_ps - start_ps,
# and storage.csv's busy_us (each computed here by awk, a separate path).
util_sum() { # FILE: the busy time (s) that figure FILE draws
	tu=$(unit_of "$(sed -n 's/^# Time: the middle of each bin, in \([^;]*\);.*/\1/p' "$1")")
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["device"] }' rand/storage.csv |
		sort | uniq -c > classes.txt
	awk -v tu="$tu" 'FILENAME == "classes.txt" { nd[$2] = $1; next }
		/^# block/ { k = $4; if (NF > 4) k = "one"; n = 0; m = k == "one" ? 1 : nd[k] }
		/^[0-9]/ { if (n == 1) w = $1 - x0; if (n == 0) x0 = $1; n++; s += $2 / 100 * m }
		END { printf "%.6g\n", s * w * tu }' classes.txt "$1"
}
busy_sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["end_ps"] - $c["start_ps"] }
	END { printf "%.6g\n", s * 1e-12 }' rand/device_busy.csv)
storage_sum=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["busy_us"] }
	END { printf "%.6g\n", s * 1e-6 }' rand/storage.csv)
check "device_busy.csv's intervals add up to storage.csv's busy time ($busy_sum s)" close "$busy_sum" "$storage_sum"
check "utilisation per class: the bins add up to device_busy.csv's busy time ($busy_sum s)" \
	close "$(util_sum rand/report/device-util.dat)" "$busy_sum"
check "utilisation per device: a curve for each of the 5 burst buffers" \
	test "$(grep -c '^# block' rand/report/device-util-each.dat)" = 5
check "utilisation per device: the bins add up to device_busy.csv's busy time" \
	close "$(util_sum rand/report/device-util-each.dat)" "$busy_sum"
check "a device's busy share never exceeds 100% in a bin" \
	awk '/^[0-9]/ && $2 > 100.0000001 { bad = 1 } END { exit bad }' rand/report/device-util-each.dat
sim capped two.wkld --placement random-node --device-log-max 20
report capped
check "a bounded device_busy.csv: the caption says how much it holds" \
	sh -c "test $rc = 0 && grep -q 'device_busy.csv holds 20 of the $(($(wc -l < rand/device_busy.csv) - 1)) device operations' capped/report.html"
# The traffic by job and class: each kind's bar adds up to links.csv's bytes on that kind (a separate file).
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s[$c["kind"]] += $c["bytes"] }
	END { for (k in s) if (s[k] > 0) printf "%s %.6g\n", k, s[k] }' rand/links.csv | sort > want.txt
awk '/^# Values in/ { u = $4 == "MB." ? 1e6 : $4 == "GB." ? 1e9 : $4 == "kB." ? 1e3 : 1 }
	/^[0-9]/ { s = 0; for (i = 5; i <= NF; i++) s += $i; printf "%s %.6g\n", $3, s * u }' rand/report/link-traffic.dat |
	tr -d '"' | sort > got.txt
check "link traffic: each kind's bar is links.csv's bytes on that kind" sh -c "test -s want.txt && cmp -s want.txt got.txt"
cp rand/report.html first.html
(cd rand/report && gnuplot -e "outfile='again.svg'" link-bytes.gp) > /dev/null 2>&1
check "a figure's script redraws it by hand" test -s rand/report/again.svg
report rand
check "the same run gives the same page" cmp -s rand/report.html first.html

echo "== several runs"
mkdir out
report rand cont -o out/cmp.html
check "report of two runs exits 0" test "$rc" = 0
check "the page is -o, its figures in the folder named after it" sh -c "test -s out/cmp.html && test -d out/cmp"
check "the runs are labelled by their folder names" sh -c "grep -q \"'rand'\" out/cmp/time.gp && grep -q \"'cont'\" out/cmp/time.gp"
check "a slowdown table against the first run" grep -q '<td>checkpoint</td><td>cont</td>' out/cmp.html
svgs out/cmp.html
check "15 inline SVGs (link bytes: one figure per kind)" test "$(wc -l < svgs.txt)" = 15
check "every SVG has plotted elements" plotted
check "each figure's files are in out/cmp/" files_of out/cmp.html out/cmp
(cd out && "$ncsim" report ../rand ../cont ../zero > ../r.out 2>&1)
check "several runs without -o: ./report.html" sh -c "test -s out/report.html && test -d out/report"

echo "== a study folder"
# run-study.sh's layout: OUT/runs/NAME run folders with NAME.log beside them,
# other folders (tables/) that hold no run. milc runs alone and beside the checkpoint.
mkdir -p study/runs study/tables
echo '16 milc --iters 3 --msgsize 16K --compute 100 --config 256K' > milc.wkld
sim study/runs/milc-contiguous milc.wkld --placement contiguous
sim study/runs/two-contiguous two.wkld --placement contiguous
sim study/runs/two-random-node two.wkld --placement random-node
report study
check "a study folder: exit 0" test "$rc" = 0
check "its page is OUT/report.html, its 3 runs side by side" \
	sh -c "grep -q 'wrote study/report.html' r.out && grep -q '<h1>ncsim report: 3 runs side by side' study/report.html"
check "the runs are labelled by their names" \
	sh -c "grep -q \"'milc-contiguous' 0, 'two-contiguous' 1, 'two-random-node' 2\" study/report/time.gp"
check "milc beside the checkpoint against milc alone (same placement first)" \
	grep -q '<tr><td>milc</td><td>two-contiguous</td><td>milc-contiguous</td>' study/report.html
check "the checkpoint (never alone) against its first run" \
	grep -q '<tr><td>checkpoint</td><td>two-random-node</td><td>two-contiguous</td>' study/report.html
svgs study/report.html
check "every SVG has plotted elements" plotted

echo "== a run without messages"
report zero
check "exits 0" test "$rc" = 0
check "the MPI latency figure is a note" grep -q 'No job sent an MPI message' zero/report.html
check "the link figures are notes" grep -q 'No link carried a byte' zero/report.html
svgs zero/report.html
check "the one drawn figure (time) has plotted elements" sh -c "test \$(wc -l < svgs.txt) = 1"
check "its SVG is not empty" plotted
check "no file is left for figures not drawn" sh -c "! test -e zero/report/latency-mpi.dat"

echo "== errors"
mkdir notarun
report notarun
check "not a run folder: exit 2" test "$rc" = 2
check "not a run folder: says so" grep -q 'notarun: not a run folder: it has no summary.json' r.err
report nowhere
check "a missing folder: exit 2" test "$rc" = 2
report
check "no folder given: exit 2" test "$rc" = 2
report rand --bogus
check "an unknown option: exit 2" test "$rc" = 2
report --help
check "--help: exit 0, with -o" sh -c "test $rc = 0 && grep -q -- '--output FILE' r.out"

cp -r rand bad
cp bad/report.html bad.before
awk -F, 'NR == 3 { print $1 "," $2 ",x" $3; next } { print }' rand/tasks.csv > bad/tasks.csv
report bad
check "a malformed tasks.csv: exit 1" test "$rc" = 1
check "a malformed tasks.csv: file:line" grep -q 'bad/tasks.csv:3: ' r.err
check "a failed report keeps the earlier page" cmp -s bad/report.html bad.before
check "and leaves no temporary file" sh -c "! ls -a bad bad/report | grep -q 'tmp'"
cp rand/tasks.csv bad/tasks.csv
sed '2s/.*/{ "ncsim_version": 1,, /' rand/summary.json > bad/summary.json
report bad
check "a malformed summary.json: exit 1 with file:line:col" sh -c "test $rc = 1 && grep -q 'bad/summary.json:2:' r.err"

cp -r rand failed
sed 's/"status": "ok"/"status": "failed"/' rand/summary.json > failed/summary.json
report failed
check "a failed run is still reported: exit 0" test "$rc" = 0
check "with a warning on stderr" grep -q 'warning: run failed has status "failed"' r.err
check "and at the top of the page" grep -q '<p class="warning"><b>Warning:</b> run failed has status' failed/report.html

rm -f zero/report.html
PATH=/nonexistent "$ncsim" report zero > r.out 2> r.err
rc=$?
check "no gnuplot: exit 2" test "$rc" = 2
check "no gnuplot: names the package" grep -q 'gnuplot-nox' r.err
check "no gnuplot: no page" test ! -e zero/report.html

echo "== a netbench sweep"
for load in 0.1 0.3 0.5; do
	for routing in minimal ugal; do
		"$ncsim" netbench --system df-tiny --duration 20us --load $load --routing $routing --csv >> sweep.csv 2> nb.err ||
			cat nb.err
		"$ncsim" netbench --system df-tiny --duration 20us --load $load --routing $routing \
			--out "nbruns/$routing-$load" > /dev/null 2> nb.err || cat nb.err
	done
done
report sweep.csv
check "a sweep file: exit 0" test "$rc" = 0
check "the page sits beside the CSV" grep -q 'wrote sweep-report.html: 2 figures' r.out
check "the header lists the input and its 6 rows" grep -q '<td><code>sweep.csv</code></td><td class="n">1</td><td class="n">6</td><td>minimal, ugal</td>' sweep-report.html
svgs sweep-report.html
check "2 inline SVGs" test "$(wc -l < svgs.txt)" = 2
# Lines through points: a marker per point and legend entry (4 curves of 3 latency points, 2 of 3 accepted).
markers() { sed -n "${1}p" svgs.txt | grep -o '<use [^>]*translate(' | wc -l; }
check "the latency figure marks its 12 points (and 4 legend samples)" test "$(markers 1)" -ge 16
check "the throughput figure marks its 6 points (and 2 legend samples)" test "$(markers 2)" -ge 8
check "each figure's files are in sweep-report/" files_of sweep-report.html sweep-report
check "latency: a block per routing, a point per load" \
	sh -c "grep -q '# block 1: ugal' sweep-report/nb-latency.dat && test \$(grep -c '^0\\.[135] ' sweep-report/nb-latency.dat) = 6"
# The throughput data are netbench's own columns: offered and accepted of each row, sorted by load.
awk -F, '$1 == "minimal" { print $3 + 0, $4 + 0 }' sweep.csv | sort -n > want.txt
awk '/^# block 1/ { exit } /^[0-9]/ { print $1 + 0, $2 + 0 }' sweep-report/nb-throughput.dat > got.txt
check "throughput: accepted against offered as netbench printed them" cmp -s want.txt got.txt
report nbruns -o nbpage.html
check "a folder of --out runs: exit 0" test "$rc" = 0
check "the same points as the appended file" \
	sh -c "grep -v '^#' sweep-report/nb-throughput.dat > a.txt; grep -v '^#' nbpage/nb-throughput.dat > b.txt; cmp -s a.txt b.txt"
report rand sweep.csv
check "a run with a sweep: exit 2" test "$rc" = 2
check "says why" grep -q 'rand is run folders and sweep.csv is netbench results' r.err

echo "== a calibration"
# A short search (12 evaluations, about 2 s) and a small Bayesian calibration (two
# MPI costs from osu_latency, 30 design runs, 8000 samples: under a second) on
# examples/calibration's measurements.
small_bayes cal || fail "ncsim calibrate --bayes did not run"
(cd cal && "$ncsim" calibrate calibrate.conf --budget 12 -j 2 --no-progress --no-wall-time --out search > search.log 2>&1) ||
	{ cat cal/search.log; fail "ncsim calibrate did not run"; }
report cal/search
check "a search calibration: exit 0, the loss and 3 benchmarks (one predicted)" \
	sh -c "test $rc = 0 && grep -q 'wrote cal/search/report.html: 4 figures' r.out && grep -q 'bibw (predicted, not fitted)' cal/search/report.html"
svgs cal/search/report.html
check "4 inline SVGs" test "$(wc -l < svgs.txt)" = 4
check "every SVG has plotted elements" plotted
# The best loss so far against history.csv's losses (profiles left out), a separate path.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["phase"] != "profile" {
	if (n++ == 0 || $c["loss"] < best) best = $c["loss"]; printf "%d %.6g\n", $c["evaluation"], best }' \
	cal/search/history.csv > want.txt
awk '/^[0-9]/ { printf "%d %.6g\n", $1, $3 }' cal/search/report/calib-loss.dat > got.txt
check "the loss figure's best so far is history.csv's running minimum" sh -c "test -s want.txt && cmp -s want.txt got.txt"
report cal/bayes
check "a Bayesian calibration: exit 0, the fit, 3 posteriors and the Sobol map" \
	sh -c "test $rc = 0 && grep -q 'wrote cal/bayes/report.html: 5 figures' r.out"
svgs cal/bayes/report.html
check "every SVG has plotted elements" plotted
shares() { # the sum of the shares of a posterior histogram's bins
	awk '/^[0-9]/ { s += $4 } END { printf "%.6f\n", s }' "$1"
}
for f in cal/bayes/report/posterior-*.dat; do
	check "$f: the bins hold every sample once (shares add up to 1)" test "$(shares "$f")" = 1.000000
done
check "the fit has a row per point of predictive.csv" \
	test "$(grep -c '^[0-9]' cal/bayes/report/calib-fit-latency.dat)" = "$(grep -c '^latency,' cal/bayes/predictive.csv)"
report cal/search cal/bayes
check "two calibrations on one page: exit 2" sh -c "test $rc = 2 && grep -q 'a page shows one calibration' r.err"
report cal/search rand
check "a calibration with a run: exit 2" sh -c "test $rc = 2 && grep -q 'cal/search is a calibration and rand is run folders' r.err"

echo "== ncsim run --report"
"$ncsim" run compute.ncptl -n 4 --system df-tiny --seed 3 --no-wall-time --no-progress --out rep1 --report \
	> r.out 2> r.err
rc=$?
check "a run with --report: exit 0" test "$rc" = 0
check "the page and its figures are in the run's folder" sh -c "test -s rep1/report.html && test -s rep1/report/time.svg"
check "stderr says so" grep -q 'ncsim run: report: wrote rep1/report.html: 1 figure' r.err
check "the run's files are those of a run without --report" \
	sh -c "cmp -s rep1/tasks.csv zero/tasks.csv && cmp -s rep1/links.csv zero/links.csv"
check "the page shows the run's command line" grep -q 'compute.ncptl -n 4 .*--out rep1 --report' rep1/report.html
check "no temporary folder or file is left" sh -c "! ls -a . rep1 rep1/report | grep -q 'tmp'"
PATH=/nonexistent "$ncsim" run compute.ncptl -n 4 --system df-tiny --seed 3 --no-wall-time --no-progress \
	--out rep2 --report > r.out 2> r.err
rc=$?
check "no gnuplot: the run still exits 0" test "$rc" = 0
check "no gnuplot: a warning naming the package" grep -q 'ncsim run: warning: --report: .*gnuplot-nox' r.err
check "no gnuplot: the run's folder as without --report, no page" \
	sh -c "cmp -s rep2/tasks.csv zero/tasks.csv && test -s rep2/summary.json && ! test -e rep2/report.html"
"$ncsim" run two.wkld --system df-tiny --seed 3 --no-wall-time --no-progress --out rep3 --report > r.out 2> r.err
rc=$?
check "a workload file with --report --out: exit 0 and a page of its 2 jobs" \
	sh -c "test $rc = 0 && grep -q '<td>milc</td>' rep3/report.html && grep -q '<td>checkpoint</td>' rep3/report.html"
mkdir nodefault
(cd nodefault && "$ncsim" run ../two.wkld --system df-tiny --no-progress --report > ../r.out 2> ../r.err)
rc=$?
check "a workload file with --report and no --out: exit 2" test "$rc" = 2
check "says it needs --out" grep -q -- '--report with a workload file needs --out DIR' r.err
check "and writes nothing" sh -c "test -z \"\$(ls -A nodefault)\""

finish report
