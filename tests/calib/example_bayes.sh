#!/bin/bash
# tests/calib/example_bayes.sh - part 4 of examples/calibration/README.md as
# written: the Bayesian calibration prints the posterior table the README
# shows (it is deterministic: the same figures to the last digit, so a change
# of the models that moves them must update the README and doc/calibration.md
# too), every hidden value lies inside its 90% interval, and the posterior
# carries through a program with ncsim run --posterior.
. "$(dirname "$0")/lib.sh"
cp -r "$src/examples/calibration" ex && cd ex || exit 2
"$ncsim" calibrate bayes.conf -j 2 --no-progress --out bayes >bayes.txt 2>bayes.err || { cat bayes.err; exit 1; }
# The README's ``` block after "starts with the posterior" is the summary's first ten lines.
awk '/starts with the posterior/ { want = 1 } want && /^```$/ { if (inside) exit; inside = 1; next } inside { print }' \
	README.md >readme.txt
head -10 bayes.txt >got.txt
check "the README shows the posterior table calibrate prints" diff -b readme.txt got.txt
check "doc/calibration.md shows the same table" grep -qF "$(sed -n 5p got.txt)" "$src/doc/calibration.md"
# The hidden values (README, "The answer"), in ps and B/s, inside the 5% .. 95% columns of summary.csv.
for kv in mpi.call_overhead=250000 mpi.post_header=500000 mpi.memory_bandwidth=6e9 mpi.pin_latency=3000000 \
	mpi.pin_per_page=80000; do
	check "${kv%%=*} inside its 90% interval" \
		awk -F, -v k="${kv%%=*}" -v v="${kv#*=}" '$1 == k { f = 1; exit !($8 <= v && v <= $10) } END { if (!f) exit 1 }' \
		bayes/summary.csv
done
for f in posterior.csv summary.csv correlation.csv predictive.csv sobol.csv design.csv map.conf calibration.json; do
	check "bayes/$f" test -s "bayes/$f"
done
# Propagation: a short program on the same machine, four draws.
"$ncsim" run --posterior bayes/posterior.csv --samples 4 -j 2 --no-progress --out post osu-latency -n 2 \
	-- --reps 5 --skip 1 --reps-large 2 --skip-large 1 >post.txt 2>post.err || { cat post.err; exit 1; }
check "the propagation reports the software-stack share" grep -q "software-stack share of MPI time" post.txt
[ "$failed" -eq 0 ]
