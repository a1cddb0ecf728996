#!/bin/bash
# tests/calib/errors.sh - bad calibration specs and command lines (issue 14):
# each gets its message with file:line where there is a line, exit status 1
# (2 for a usage error), runs no simulation and leaves no output folder.
. "$(dirname "$0")/lib.sh"
total=0
# case_ NAME STATUS 'STDERR TEXT' CMD... (lib.sh): the status, the text, no folder `out`.
printf '# OSU MPI Latency Test\n# Size          Latency (us)\n1 1.50\n2 1.52\n' > lat.txt
printf '# OSU MPI Latency Test\n# Size          Latency (us)\n1 1.50\n2 fast\n' > bad.txt
ok='[benchmark.lat]\nprogram = osu-latency\nmeasured = lat.txt\n'
spec() { printf "$1" > spec.conf; }

spec '[calibration]\nbudgett = 3\n'"$ok"'[parameters]\nnetwork.latency = 1us:2us\n'
case_ unknown-key 1 "spec.conf:2: unknown key 'budgett' in [calibration]" "$ncsim" calibrate spec.conf --out out
spec "$ok"'[parameters]\nnetwork.latency = 2us:1us\n'
case_ empty-range 1 'spec.conf:5: network.latency: empty range' "$ncsim" calibrate spec.conf --out out
spec "$ok"'[parameters]\nnetwork.latency = 1us:2GB/s\n'
case_ mixed-units 1 "spec.conf:5: network.latency: the range's ends are a time and a bandwidth" "$ncsim" calibrate spec.conf --out out
spec '[benchmark.lat]\nprogram = osu-latency\nmeasured = missing.txt\n'
case_ missing-measurements 1 'spec.conf:3: ' "$ncsim" calibrate spec.conf --out out
case_ missing-measurements-name 1 'missing.txt' "$ncsim" calibrate spec.conf --out out
spec '[benchmark.lat]\nprogram = osu-latency\nmeasured = bad.txt\n'
case_ malformed-measurements 1 "bad.txt:4: field 2 ('Latency (us)'): 'fast' is not a number" "$ncsim" calibrate spec.conf --out out
spec '[benchmark.lat]\nprogram = osu-latency\nmeasured = lat.txt\ncolumn = Bandwidth\n'
case_ unknown-column 1 "unknown column 'Bandwidth'; the columns are 'Size', 'Latency (us)'" "$ncsim" calibrate spec.conf --out out
spec '[benchmark.lat]\nprogram = no-such-benchmark\nmeasured = lat.txt\n'
case_ unknown-program 1 'spec.conf:2: ' "$ncsim" calibrate spec.conf --out out
spec "$ok"'[parameters]\nnetwork.latency = 1us:2us regime=small\n'
case_ unknown-regime 1 "spec.conf:5: unknown regime 'small'" "$ncsim" calibrate spec.conf --out out
spec '[calibration]\noptimizer = annealing\n'"$ok"
case_ unknown-optimizer 1 "spec.conf:2: unknown optimizer 'annealing'" "$ncsim" calibrate spec.conf --out out
spec '[calibration]\nloss = worst\n'"$ok"
case_ unknown-loss 1 'spec.conf:2: ' "$ncsim" calibrate spec.conf --out out
spec '[benchmark.lat]\nprogram = osu-latency\nmeasured = lat.txt\nuse = predict\n'
case_ nothing-to-fit 1 'nothing to fit' "$ncsim" calibrate spec.conf --out out
case_ spec-missing 2 'spec.nope: cannot open calibration spec' "$ncsim" calibrate spec.nope --out out
# The command-line form: the same reader, so the same messages, and usage errors.
case_ cli-range 1 'network.latency: empty range' \
	"$ncsim" calibrate --bench osu-latency --measured lat.txt --fit network.latency=2us:1us --out out
case_ cli-fit-syntax 2 'expected SECTION.KEY=LO:HI[:log]' \
	"$ncsim" calibrate --bench osu-latency --measured lat.txt --fit network.latency --out out
case_ cli-measured-first 2 'comes before any --bench' "$ncsim" calibrate --measured lat.txt --bench osu-latency --out out
case_ cli-optimizer 1 "unknown optimizer 'annealing'" \
	"$ncsim" calibrate --bench osu-latency --measured lat.txt --optimizer annealing --out out
# A measured point the benchmark never produces: found by the check run, before the search.
printf '# OSU MPI Latency Test\n# Size          Latency (us)\n3 1.50\n' > odd.txt
case_ point-not-simulated 1 'the simulated output has no point at x = 3' \
	"$ncsim" calibrate --bench osu-latency --bench-args '--maxbytes 16 --reps 2 --skip 1' --measured odd.txt \
	--fit network.terminal_latency=10ns:2us:log --out out
# A key the network level does not read: the check run's message names it.
case_ key-not-read 1 "unknown key 'latency' in [network]" \
	"$ncsim" calibrate --bench osu-latency --bench-args '--maxbytes 2 --reps 2 --skip 1' --measured lat.txt \
	--fit network.latency=100ns:2us:log --out out
mkdir -p taken
case_ existing-out 2 'taken' "$ncsim" calibrate --bench osu-latency --measured lat.txt --out taken
case_ predict-no-bench 1 'no benchmark' "$ncsim" predict --system df-tiny
# A CODES configuration cannot be edited as a system file: translate it first.
case_ codes-base 1 'is a CODES configuration: calibration edits native system files' \
	"$ncsim" calibrate --system "$src/tests/codes/dfdally-72.conf" --bench osu-latency --measured lat.txt --out out
echo "$((total - failed)) of $total calibration error cases passed"
[ "$failed" -eq 0 ]
