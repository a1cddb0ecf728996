# Issue 12, defect 6: huge sizes are counted in 64 bits; a simulated time past
# 2^64 ps is an error naming the statement, not a wrap-around or a false deadlock.
sys=$src/tests/e2e/e2e-system.conf
# 2^44 bytes at 1 GB/s on the analytic e2e system: 17,592 s of simulated time.
printf 'task 0 sends a 17592186044416 byte message to task 1\n' >"$in/big.ncptl"
hkeep
hafter 'grep -q "\"status\": *\"ok\"" out/summary.json'
hcase message-2-44 0 '' -- "$ncsim" run "$in/big.ncptl" -n 2 --system "$sys" --out out
# 10^18 bytes at 1 GB/s is 10^9 s = 10^21 ps, past 2^64 ps (1.8e19).
printf 'task 0 multicasts a 1000000000000000000 byte message to all other tasks\n' >"$in/mcast.ncptl"
hcase multicast-10-18 1 'mcast.ncptl:1:' -- "$ncsim" run "$in/mcast.ncptl" -n 4 --system "$sys" --out out
printf 'task 0 computes for 1000000000 hours\n' >"$in/longcomp.ncptl"
hcase compute-overflow 1 'longcomp.ncptl:1:' -- "$ncsim" run "$in/longcomp.ncptl" --system "$sys" --out out
# The same 2^44 bytes on the built-in dragonfly (4 KiB packets: 2^32 of them, one more
# than a 32-bit count) was refused. Pinning takes 216.9 s at each end, so its data moves
# from 433.79 s on: a run stopped 1 ms later has sent ~4000 packets and no refusal.
hkeep
hafter 'grep -q "\"status\": *\"stopped\"" out/summary.json && ! grep -q refused stderr.txt'
hcase message-2-44-dragonfly 0 '' -- sh -c 'exec "$0" run "$1" -n 2 --until 433793ms --out out 2>stderr.txt' \
	"$ncsim" "$in/big.ncptl"
# 2^63-1 bytes (the largest size) at 1 GB/s: refused by the network as past 2^64 ps.
printf 'task 0 sends a 9223372036854775807 byte message to task 1\n' >"$in/max.ncptl"
hcase message-past-clock 1 'max.ncptl:1: an RDMA data transfer of 9223372036854775807 bytes to task 1 would end past 2^64 ps' -- \
	"$ncsim" run "$in/max.ncptl" -n 2 --system "$sys" --out out
# 10^12 messages of 10^12 bytes: 10^24 bytes in all; the 18,446th passes the clock.
printf 'task 0 sends 1000000000000 1000000000000 byte messages to task 1\n' >"$in/many.ncptl"
hcase messages-past-clock 1 'many.ncptl:1: an RDMA data transfer of 1000000000000 bytes' -- \
	"$ncsim" run "$in/many.ncptl" -n 2 --system "$sys" --out out
printf 'task 0 sleeps for 1000000000 hours\n' >"$in/longsleep.ncptl"
hcase sleep-overflow 1 'longsleep.ncptl:1: this statement would take the simulated time past 2^64 ps' -- \
	"$ncsim" run "$in/longsleep.ncptl" --system "$sys" --out out
# A read of 2^63-1 bytes moved block by block for ever (the simulation advanced, the run
# never ended): its device time alone passes the clock, so it fails at once.
printf 'task 0 reads 9223372036854775807 bytes\n' >"$in/bigread.ncptl"
hcase io-past-clock 1 'bigread.ncptl:1: Reading 9223372036854775807 bytes of file 0 would end past 2^64 ps' -- \
	"$ncsim" run "$in/bigread.ncptl" --out out
