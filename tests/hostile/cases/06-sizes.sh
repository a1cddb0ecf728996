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
