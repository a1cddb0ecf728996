# tests/calib/twonode.sh - sourced after tests/calib/lib.sh (or with $src, $ncsim
# set and the current folder a scratch one): the two-node experiment of the
# Bayesian calibration, written into the current folder. hidden.conf is the
# answer; base.conf the machine without the fitted keys; truth.csv the
# simulated throughput of the 18 sizes ("size,MB/s"); `noisy SEED` prints
# 100 trials per size with 3% multiplicative Gaussian noise (as
# measurements: "size,trial,MB/s"); spec.conf fits seven parameters from
# measured.csv, keeping $samples posterior samples.
cat > hidden.conf <<'CONF'
[network]
model = analytic
nodes = 2
latency = 1.5 us
bandwidth = 12 GB/s
injection_bandwidth = 100 GB/s
[mpi]
call_overhead = 300 ns
post_header = 400 ns
memory_bandwidth = 8 GB/s
pin_latency = 4 us
pin_per_page = 60 ns
CONF
printf '[network]\nmodel = analytic\nnodes = 2\ninjection_bandwidth = 100 GB/s\n' > base.conf
prog=$src/tests/calib/throughput.ncptl
"$ncsim" run "$prog" -n 2 --system hidden.conf --out truth --no-progress -- --window 64 >/dev/null 2>&1 ||
	{ echo "the hidden system does not run" >&2; exit 1; }
# The simulated figures: "size,throughput" rows.
grep -v '^#' truth/logs/throughput-0.log | tail -n +3 > truth.csv

# noisy SEED: 100 trials per size, each the figure times (1 + 0.03 z).
noisy() {
	awk -F, -v seed="$1" 'BEGIN { srand(seed) } {
		for (t = 0; t < 100; t++) {
			u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12
			z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
			printf "%s,%d,%.4f\n", $1, t, $2 * (1 + 0.03 * z)
		}
	}' truth.csv
}

cat > spec.conf <<CONF
[calibration]
system = base.conf
[benchmark.tp]
program = $prog
sim_format = ncptl
args = --window 64
measured = measured.csv
[parameters]
network.latency = 500ns:5us log
network.bandwidth = 5GB/s:25GB/s log
mpi.call_overhead = 50ns:2us log
mpi.post_header = 100ns:1us log
mpi.memory_bandwidth = 2GB/s:20GB/s log
mpi.pin_latency = 1us:10us log
mpi.pin_per_page = 10ns:200ns log
[bayes]
samples = $samples
CONF
