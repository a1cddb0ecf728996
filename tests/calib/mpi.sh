#!/bin/bash
# tests/calib/mpi.sh - a calibration over MPI ranks (doc/calibration.md, "Clusters:
# MPI ranks"): the same fit of network.latency to an OSU latency measurement of a
# hidden system, run as one process with -j 2 and by mpirun with 2 and 3 ranks,
# writes the same calibration.json (but its command line) and history.csv: the
# ranks split each batch's simulations and share their results, so the optimizer
# sees the same losses in the same order. Only rank 0 writes and prints. Then one
# rank alone is interrupted: every rank stops after the same batch, and rank 0
# writes the outputs marked interrupted. Last, a Bayesian calibration over 2 ranks
# writes the same posterior as one process.
# Skipped (status 77) when ncsim was built without MPI or mpirun is missing.
. "$(dirname "$0")/lib.sh"
build=${NCSIM_BUILDDIR:-$(dirname "$ncsim")}
if ! grep -q '^#define NCSIM_HAVE_MPI 1' "$build/config.h" 2>/dev/null; then
	echo "SKIP: $ncsim was built without MPI (configure --with-mpi needs Open MPI: apt-get install libopenmpi-dev)"
	exit 77
fi
if ! command -v mpirun >/dev/null 2>&1; then
	echo "SKIP: no mpirun on the PATH (apt-get install openmpi-bin)"
	exit 77
fi
if ! mpirun --version 2>/dev/null | grep -q 'Open MPI'; then
	echo "SKIP: this mpirun is not Open MPI's, the MPI ncsim was built with"
	exit 77
fi
# Open MPI refuses to start as root unless told twice; these reach only this test's processes.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under ASan, LeakSanitizer would report Open MPI's own allocations at exit (see the file).
export LSAN_OPTIONS="suppressions=$src/tests/calib/lsan-mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# A rank stuck in a collective must fail the test, not hang it.
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 600"

cat > hidden.conf <<'CONF'
[network]
model = analytic
nodes = 4
latency = 1.8 us
bandwidth = 7 GB/s
injection_bandwidth = 7 GB/s
CONF
printf '[network]\nmodel = analytic\nnodes = 4\n' > base.conf
R="--reps 2 --skip 1 --reps-large 2 --skip-large 1 --maxbytes 64K"
measure lat hidden.conf 2 osu-latency 2 $R
# fit LAUNCHER... -- OPTIONS...: the calibration, started by the launcher words (none: ncsim itself).
fit() {
	local launch=()
	while [ "$1" != "--" ]; do launch+=("$1"); shift; done
	shift
	$limit "${launch[@]}" "$ncsim" calibrate --system base.conf --no-progress --no-wall-time --budget 40 \
		--bench osu-latency --bench-args "$R" --measured lat-1.txt --measured lat-2.txt \
		--fit network.latency=100ns:10us:log "$@"
}
fit -- -j 2 --out one >one.txt 2>one.err || { cat one.err; exit 1; }
cat one.txt
for np in 2 3; do
	fit mpirun --oversubscribe -np $np -- -j 1 --out np$np >np$np.txt 2>np$np.err
	rc=$?
	check "-np $np: exit status 0 ($rc)" test "$rc" -eq 0
	check "-np $np: the same calibration.json as one process" \
		cmp -s <(grep -v '"command_line"' one/calibration.json) <(grep -v '"command_line"' np$np/calibration.json)
	check "-np $np: the same history.csv" cmp -s one/history.csv np$np/history.csv
	# Ranks that did not know their number would each print (or fight over --out).
	check "-np $np: one summary, from rank 0" test "$(grep -c ' over 40 evaluations$' np$np.txt)" -eq 1
	check "-np $np: one message on stderr" test "$(grep -c '^ncsim calibrate: done: np' np$np.err)" -eq 1
	check "-np $np: the same summary" cmp -s one.txt np$np.txt
done
check "history.csv lists 45 evaluations (2 checks, 40, final, 2 profile)" test "$(grep -c '^[0-9]' one/history.csv)" -eq 45

# SIGTERM to rank 1 alone, during a long search: the ranks agree to stop at the same batch.
fit mpirun --oversubscribe -np 2 bash -c 'echo $$ > pid.$OMPI_COMM_WORLD_RANK; exec "$@"' rank -- -j 1 \
	--budget 100000 --out stopped >stopped.txt 2>stopped.err &
launcher=$!
for _ in $(seq 1 300); do [ -s pid.1 ] && break; sleep 0.1; done
sleep 2 # past MPI_Init and the check runs: the search has started (it would last an hour)
kill -TERM "$(cat pid.1)"
wait $launcher
rc=$?
check "interrupted: mpirun ends with rank 1's status 130 ($rc)" test "$rc" -eq 130
check "interrupted: rank 0 wrote calibration.json, status interrupted" grep -q '"status": "interrupted"' stopped/calibration.json
check "interrupted: rank 0 said so" grep -q '^ncsim calibrate: interrupted: stopped' stopped.err

# --bayes over 2 ranks: the ranks share the design runs and sample the same posterior,
# so rank 0 writes what one process writes (wall time aside).
bayes() {
	local launch=()
	while [ "$1" != "--" ]; do launch+=("$1"); shift; done
	shift
	$limit "${launch[@]}" "$ncsim" calibrate --bayes --samples 4000 --system base.conf --no-progress --no-wall-time \
		--bench osu-latency --bench-args "$R" --measured lat-1.txt --measured lat-2.txt \
		--fit network.latency=100ns:10us:log --fit network.bandwidth=1GB/s:50GB/s:log "$@"
}
bayes -- -j 2 --out b1 >b1.txt 2>b1.err || { cat b1.err; exit 1; }
bayes mpirun --oversubscribe -np 2 -- -j 1 --out b2 >b2.txt 2>b2.err
rc=$?
check "--bayes -np 2: exit status 0 ($rc)" test "$rc" -eq 0
for f in posterior.csv design.csv summary.csv predictive.csv; do
	check "--bayes -np 2: the same $f as one process" cmp -s b1/$f b2/$f
done
check "--bayes -np 2: the same summary" cmp -s <(grep -v '^output:' b1.txt) <(grep -v '^output:' b2.txt)
[ "$failed" -eq 0 ]
