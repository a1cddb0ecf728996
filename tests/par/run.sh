#!/bin/bash
# tests/par/run.sh - `ncsim run` under mpirun (doc/parallel.md): programs split
# over 1 to 4 ranks give the sequential run's outputs byte for byte: exit
# status, stdout (the OUTPUTS lines), tasks.csv, links.csv, links_by_class.csv,
# summary.json and the logs, less what differs between any two runs (dates,
# the run's identifier, wall and CPU time, the command line and output folder).
# The programs: the e2e ones that exercise point-to-point protocols (small,
# medium and large messages, self and intra-node sends), every collective,
# asynchronous sends, multicasts, reductions, groups, logs and OUTPUTS,
# and a timed loop (whose allreduce of a value goes through the collectives'
# board), on df-small (9 groups of 8 nodes: 2 to 4 ranks get 2 to 5 groups
# each) with 32 tasks (nodes 0-31, groups 0-3: the partition gives every rank
# at least one of those) and 36 tasks 2 per node (intra-node traffic too),
# minimal and adaptive routing, both engines.
# Storage: reads (paper-io) and checkpoint writes with storage-side I/O
# servers (io.csv and device_busy.csv too, --io-log) (an SSD that drains and a disk per server, two servers on group 8,
# clients on every rank), compute-side burst buffers and local ones; and a
# small interference run: milc, checkpoint and cosmoflow (reads overlapped
# with compute) in one workload, random-node placement, PAR routing.
# Traffic models: DCNW, CDCNW (a CDF file), FLOWS, HOROVOD and the three in
# one program (groups of members spread over the ranks), a VEF trace, and a
# DCNW job sharing the machine with an MPI job.
# Then the failures: a run-time error on a task of rank 1 ends every rank with
# the sequential run's status and message, and no output folder; what cannot
# run over ranks yet (the analytic network) is refused the same way.
. "$(dirname "$0")/lib.sh"
cd "$work" || exit 2
progs=$src/tests/e2e/progs
sys=$src/stdlib/systems/df-small.conf

for p in pingpong bandwidth async multicast reduce groups aggregates outputs allothers hotspot8 selfsend receive timed; do
	same "$p" "$progs/$p.ncptl" -n 32
done
same reduce-2pn "$progs/reduce.ncptl" -n 36 --tasks-per-node 2
same pingpong-par "$progs/pingpong.ncptl" -n 32 --routing par --seed 11
# A remapping (ASSIGNED TO PROCESSOR): tasks.csv names each task by the virtual id its own rank gave it.
printf '%s\n' 'All tasks are assigned to a random processor then' \
	'all tasks t asynchronously send a 1 kilobyte message to task (t + 1) mod num_tasks then' \
	'all tasks await completion then' 'task 0 is assigned to processor 31 then' \
	'all tasks t asynchronously send a 4 kilobyte message to task (t + 5) mod num_tasks then' \
	'all tasks await completion.' >remap.ncptl
same remap "$work/remap.ncptl" -n 32
check "remap: tasks.csv shows remapped tasks" sh -c "awk -F, 'NR > 1 && \$2 != \$3' remap-seq/tasks.csv | grep -q ."
# messages.csv: every rank's rows in the order of their events; bounded to the run's first 100.
same msglog "$progs/reduce.ncptl" -n 32 --message-log
same msglog-max "$progs/allothers.ncptl" -n 32 --message-log --message-log-max 100
# The direct engine gives the same outputs (the compiled one ran above).
same pingpong-direct "$progs/pingpong.ncptl" -n 32 --engine direct
ss=$src/stdlib/systems/df-small-storage-side.conf
system=$ss same io-read-ss "$progs/paper-io.ncptl" -n 32 --io-log
system=$src/stdlib/systems/df-small-local.conf same io-read-local "$progs/paper-io.ncptl" -n 32
system=$ss same io-ckpt-ss "$src/stdlib/workloads/checkpoint.ncptl" -n 32 -- --total 8M --period 1 --count 2 --sync 1
same io-ckpt-cs "$src/stdlib/workloads/checkpoint.ncptl" -n 32 --io-log --device-log-max 20 -- --total 16M --period 1 \
	--count 2
printf '%s\n' '12 milc --iters 1 --halves 1 --compute 10E6 --config 64K --p0 0' \
	'12 checkpoint --count 1 --period 1 --sync 1 --total 4M' \
	'12 cosmoflow --reps 1 --grad 1000000 --compute 1 --io 1 --batch 256K' >hybrid.wkld
system=$ss same hybrid "$work/hybrid.wkld" --placement random-node --routing par
# (DCNW of FB_HADOOP messages rather than the e2e program's WEB_SEARCH, whose sparse
# arrivals over 286 ms take 590,000 windows: minutes under ASan on 2 cores.)
printf '%s\n' 'All tasks generate 2000 messages of FB_HADOOP traffic at 20 gbps then' 'all tasks output "done".' >dcnw.ncptl
same dcnw "$work/dcnw.ncptl" -n 32
for p in traffic-cdcnw traffic-flows traffic-horovod traffic-mixed; do
	same "$p" "$progs/$p.ncptl" -n 32
done
RANKS="2 3" same trf-vef "$progs/traffic-vef.vef" -n 32
printf '%s\n' "16 $work/dcnw.ncptl" "16 $progs/allothers.ncptl" >trf-mpi.wkld
same trf-mpi "$work/trf-mpi.wkld" --placement random-node --routing par
check "traffic: the DCNW job's messages were delivered" grep -q '"delivered_messages": 2000' trf-mpi-seq/summary.json
# Messages shorter than an MPI header on a machine with CODES' 1.4 ns credit delay: the lookahead allows for the
# credit of an empty packet (with a header's, a credit over a cut global link landed inside a window).
printf '%s\n' 'All tasks generate 20000 messages of FB_KEY_VALUE traffic at 20 gbps.' >tiny.ncptl
system=$src/stdlib/systems/df-1056.conf RANKS="2 3" same trf-tiny "$work/tiny.ncptl" -n 1056 --routing par
check "trf-tiny -np 2: the lookahead of an empty packet's credit" grep -q '^  lookahead: 1.419 ns' trf-tiny-np2.err
check "msglog-max: 100 rows and the header" test "$(wc -l <msglog-max-seq/messages.csv)" -eq 101
check "io-ckpt-ss: requests went to the storage servers" grep -q '"requests_completed": 64' io-ckpt-ss-seq/summary.json
check "io-read-ss: io.csv has a row per request" test "$(wc -l <io-read-ss-seq/io.csv)" -gt 32
check "io-ckpt-cs -np 3: device_busy.csv is bounded, and rank 0 says so" sh -c \
	"test \$(wc -l <io-ckpt-cs-np3/device_busy.csv) -eq 21 && grep -q 'device_busy.csv holds the first 20 of' io-ckpt-cs-np3.err"
check "-np 2: rank 0 printed the partition" grep -q '^partition: 9 groups over 2 ranks' pingpong-np2.err
check "-np 2: groups 0 and 2 on rank 0, 1 and 3 on rank 1" grep -q '^  rank 1: .*groups 1 3' pingpong-np2.err
check "-np 1: no partition (the sequential kernel)" sh -c "! grep -q '^partition' pingpong-np1.err"
# --ranks 2 starts the same command under mpirun -np 2.
$limit "$ncsim" run "$progs/pingpong.ncptl" --system "$sys" --no-wall-time --no-progress -n 32 --ranks 2 --out ranks2 \
	>ranks2.out 2>ranks2.err </dev/null
echo $? >ranks2.rc
flat ranks2 >ranks2.flat
check "--ranks 2: the outputs of mpirun -np 2" cmp -s pingpong-np2.flat ranks2.flat
check "--ranks 2: split over 2 ranks" grep -q '^partition: 9 groups over 2 ranks' ranks2.err

# A run-time error of a task on rank 1 (task 31 is on node 31, group 3, which the
# partition deals to rank 1): the sequential status and message, no folder.
printf 'All tasks synchronize then\nfor each i in {0, ..., 6}\n  task 31 sleeps for 7 / (i - 3) microseconds.\n' >fail.ncptl
"$ncsim" run fail.ncptl --system "$sys" -n 32 --no-progress --out fail-seq >fail-seq.out 2>fail-seq.err
seq_rc=$?
ranks 2 "$ncsim" run fail.ncptl --system "$sys" -n 32 --no-progress --out fail-np2 >fail-np2.out 2>fail-np2.err
check "failure -np 2: the sequential run's status ($seq_rc)" test $? -eq "$seq_rc"
check "failure: the status is not 0" test "$seq_rc" -ne 0
check "failure -np 2: the task's message with its source position" \
	sh -c "grep 'fail.ncptl:3:' fail-seq.err >a; grep 'fail.ncptl:3:' fail-np2.err >b; test -s a && cmp -s a b"
check "failure -np 2: no output folder" test ! -e fail-np2
# The wall-clock watchdog on rank 1 (task 31 never yields): the message, status 1, no folder, not even
# rank 0's temporary one, and no rank left waiting.
printf '%s\n' 'All tasks synchronize then' 'task 31 backend executes "for (volatile int i = 0; ; i++) ;" then' \
	'all tasks synchronize.' >loop.ncptl
ranks 2 "$ncsim" run loop.ncptl --system "$sys" -n 32 --no-progress --allow-backend-code --watchdog 1s \
	--out loop-np2 >loop.out 2>loop.err
check "watchdog -np 2: status 1" test $? -eq 1
check "watchdog -np 2: the task's message" grep -q '^loop.ncptl:2: the task ran for more than 1 s of wall time' loop.err
check "watchdog -np 2: no output folder" sh -c '! ls -d loop-np2 .ncsim-tmp-loop-np2* 2>/dev/null'

# A deadlock across ranks (task 0 and task 31 wait for each other, task 5 for
# task 20, the others in a barrier): the sequential run's report, task by task.
printf '%s\n' 'task 0 receives a 10 byte message from task 31 then' \
	'task 31 receives a 10 byte message from task 0 then' \
	'task 5 receives a 2 kilobyte message from task 20 then' 'all tasks synchronize.' >dl.ncptl
"$ncsim" run dl.ncptl --system "$sys" -n 32 --no-progress --out dl-seq >dl-seq.out 2>dl-seq.err
seq_rc=$?
grep -e '^ncsim: deadlock' -e '^  task' -e '^  wait-for' -e '^  \.\.\.' dl-seq.err >dl-seq.report
for k in 2 3; do
	ranks "$k" "$ncsim" run dl.ncptl --system "$sys" -n 32 --no-progress --out "dl-np$k" >"dl-np$k.out" 2>"dl-np$k.err"
	check "deadlock -np $k: the sequential run's status ($seq_rc)" test $? -eq "$seq_rc"
	grep -e '^ncsim: deadlock' -e '^  task' -e '^  wait-for' -e '^  \.\.\.' "dl-np$k.err" >"dl-np$k.report"
	check "deadlock -np $k: the sequential run's report" cmp -s dl-seq.report "dl-np$k.report"
	check "deadlock -np $k: no output folder" test ! -e "dl-np$k"
done
check "deadlock: the report names the cycle" grep -q 'wait-for chain: task 0 -> task 31 -> task 0' dl-seq.report

# Not yet over ranks: refused with a message, status 2 or a failed run, and no folder.
ranks 2 "$ncsim" run "$progs/traffic.ncptl" --system "$sys" -n 32 --no-progress --network analytic --out ana-np2 \
	>ana.out 2>ana.err
check "analytic -np 2: refused" sh -c "test $? -ne 0 && grep -q 'not supported in a run over MPI ranks yet' ana.err"
check "analytic -np 2: no output folder" test ! -e ana-np2
exit $((failed > 0))
