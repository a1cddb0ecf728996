# tests/e2e/report_lib.sh - sourced by report.sh and report_browser.sh (not a
# test of its own).
#
# small_bayes DIR: a small Bayesian calibration into DIR/bayes (under a
# second): two MPI costs of the built-in dragonfly from the osu_latency runs
# of examples/calibration (30 design runs, degree 3, 8000 samples), with a
# copy of that folder in DIR. Its messages go to DIR/bayes.log; 0 or 1.
small_bayes() {
	cp -r "$srcdir/examples/calibration" "$1" || return 1
	printf '%s\n' '[calibration]' '[benchmark.latency]' 'program = osu-latency' \
		'args = --reps 5 --skip 1 --reps-large 2 --skip-large 1 --minbytes 1' \
		'measured = measured/dragonfly/osu_latency.txt' '[parameters]' 'mpi.call_overhead = 50ns:1us log' \
		'mpi.memory_bandwidth = 2GB/s:20GB/s log' '[bayes]' 'design = 30' 'degree = 3' 'refine = no' \
		'samples = 8000' 'pilot = 5000' > "$1/small-bayes.conf"
	(cd "$1" && "$ncsim" calibrate small-bayes.conf --bayes -j 2 --no-progress --out bayes > bayes.log 2>&1) ||
		{ cat "$1/bayes.log"; return 1; }
}
