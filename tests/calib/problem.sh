# tests/calib/problem.sh - sourced after tests/calib/lib.sh: the synthetic
# calibration problem of tests/calib/synthetic.sh and bench/calibrate_optimizers.sh,
# written into the current folder: hidden.conf (the answer), base.conf,
# measurements of three OSU benchmarks (5 trials, 2% noise) and spec.conf
# (8 parameters, 7 of them constrained by the data). $truth lists the
# constrained keys with their hidden values in base units.
cat > hidden.conf <<'CONF'
[network]
model = analytic
nodes = 16
latency = 1.2 us
bandwidth = 40 GB/s
injection_bandwidth = 9 GB/s
[mpi]
call_overhead = 200 ns
post_header = 500 ns
pin_latency = 4 us
pin_per_page = 60 ns
[node]
memory_bandwidth = 12 GB/s
CONF
printf '[network]\nmodel = analytic\nnodes = 16\n' > base.conf
# The simulator is deterministic: two measured repetitions per size give OSU's averages.
R="--reps 2 --skip 1 --reps-large 2 --skip-large 1"
measure lat hidden.conf 5 osu-latency 2 $R --minbytes 1
measure bw hidden.conf 5 osu-bw 2 $R
measure a2a hidden.conf 5 osu-alltoall 16 $R
cat > spec.conf <<CONF
[calibration]
system = base.conf
budget = 600
[benchmark.latency]
program = osu-latency
args = $R --minbytes 1
measured = lat-1.txt, lat-2.txt, lat-3.txt, lat-4.txt, lat-5.txt
[benchmark.bandwidth]
program = osu-bw
args = $R
measured = bw-1.txt, bw-2.txt, bw-3.txt, bw-4.txt, bw-5.txt
[benchmark.alltoall]
program = osu-alltoall
tasks = 16
args = $R
measured = a2a-1.txt, a2a-2.txt, a2a-3.txt, a2a-4.txt, a2a-5.txt
[parameters]
network.latency = 300ns:5us log
network.injection_bandwidth = 2GB/s:50GB/s log
network.bandwidth = 20GB/s:200GB/s log
mpi.call_overhead = 20ns:1us log
mpi.post_header = 100ns:3us log
mpi.pin_latency = 1us:15us log
mpi.pin_per_page = 10ns:300ns log
node.memory_bandwidth = 3GB/s:50GB/s log
CONF
truth="network.latency 1200000 network.injection_bandwidth 9e9 mpi.call_overhead 200000 mpi.post_header 500000
mpi.pin_latency 4000000 mpi.pin_per_page 60000 node.memory_bandwidth 12e9"
