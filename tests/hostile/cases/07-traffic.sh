# Issue 12, defect 7 (and the traffic part of 6): a traffic statement must end, in
# simulated time the clock can count (2^64 ps) and in bounded work and memory. What
# cannot is refused when the statement starts, naming it: HOROVOD's per-layer state,
# a negotiation that never reaches its total, generators past the end of the clock
# or faster than it can tell apart.
sys=$src/tests/e2e/e2e-system.conf
hvd='compute 1 milliseconds, negotiation loop 1 microseconds, gatherv 500 bytes, broadcast 1000 bytes, allreduce 1 kilobytes'
# 10^9 batches of 10^9 layers aborted on out-of-memory (exit 134).
printf 'All tasks train with horovod for 1000000000 batches of 1000000000 layers with %s, gatherv total 0 bytes, gatherv probability 0.\n' "$hvd" >"$in/hvdhuge.ncptl"
hcase horovod-10-9-layers 1 'hvdhuge.ncptl:1: HOROVOD: 1000000000 layers, more than the 65536' -- \
	"$ncsim" run "$in/hvdhuge.ncptl" -n 4 --system "$sys" --out out
printf 'VEF3 4 0 0 0\nEXT HOROVOD\nBATCHES 1000000000 LAYERS 1000000000\nDEFAULT COMPUTE_MS 1 NEGOTIATION_LOOP_MS 0.1 GATV_BYTES 100 GATV_TOTAL_BYTES 0 GATV_PROB 0 BCAST_BYTES 64 ARED_KBYTES 16\n' >"$in/hvdhuge.vef"
hcase horovod-vef-layers 1 'hvdhuge.vef:3: too many layers (at most 65536)' -- \
	"$ncsim" run "$in/hvdhuge.vef" -n 4 --system "$sys" --out out
# GATV_PROB 0 with a total above 0: no worker ever adds to its total, the loop never ended.
printf 'VEF3 4 0 0 0\nEXT HOROVOD\nBATCHES 2 LAYERS 3\nDEFAULT COMPUTE_MS 1 NEGOTIATION_LOOP_MS 0.1 GATV_BYTES 100 GATV_TOTAL_BYTES 100 GATV_PROB 0 BCAST_BYTES 64 ARED_KBYTES 16\n' >"$in/prob0.vef"
hcase horovod-gatv-prob-0 1 'HOROVOD: layer 0 never ends: with GATHERV PROBABILITY 0' -- \
	"$ncsim" run "$in/prob0.vef" -n 4 --system "$sys" --out out
printf 'All tasks train with horovod for 2 batches of 3 layers with %s, gatherv total 100 bytes, gatherv probability 0.5 and layer 2 with gatherv probability 0.\n' "$hvd" >"$in/prob0.ncptl"
hcase horovod-layer-prob-0 1 'prob0.ncptl:1: HOROVOD: layer 2 never ends' -- \
	"$ncsim" run "$in/prob0.ncptl" -n 4 --system "$sys" --out out
# A probability above 0 but tiny: about 10^300 rounds, more than any run could make.
printf 'VEF3 4 0 0 0\nEXT HOROVOD\nBATCHES 1 LAYERS 1\nDEFAULT COMPUTE_MS 1 NEGOTIATION_LOOP_MS 0.1 GATV_BYTES 100 GATV_TOTAL_BYTES 1000 GATV_PROB 1e-300 BCAST_BYTES 64 ARED_KBYTES 16\n' >"$in/tiny.vef"
hcase horovod-tiny-probability 1 'negotiation rounds, more than the' -- \
	"$ncsim" run "$in/tiny.vef" -n 4 --system "$sys" --out out
# Compute alone past the clock: 10^9 batches x 1000 layers x 1 hour.
printf 'All tasks train with horovod for 1000000000 batches of 1000 layers with compute 1 hours, negotiation loop 1 microseconds, gatherv 500 bytes, broadcast 1000 bytes, allreduce 1 kilobytes, gatherv total 0 bytes, gatherv probability 0.\n' >"$in/hvdtime.ncptl"
hcase horovod-compute-past-clock 1 'compute for more than 2^64 ps' -- \
	"$ncsim" run "$in/hvdtime.ncptl" -n 4 --system "$sys" --out out
# GATHERV PROBABILITY 0 with GATHERV TOTAL 0 is fine: every negotiation ends at once.
printf 'All tasks train with horovod for 2 batches of 3 layers with %s, gatherv total 0 bytes, gatherv probability 0.\n' "$hvd" >"$in/ok.ncptl"
hkeep
hcase horovod-prob-0-total-0 0 '' -- "$ncsim" run "$in/ok.ncptl" -n 4 --system "$sys" --out out
# 2^63 messages never ended: the busiest member's would be generated over ~10^20 ps.
printf 'VEF3 4 9223372036854775808 0 0\nEXT DCNW\nGOOGLE_ALL UNIFORM LOAD 1\n' >"$in/dcnw.vef"
hcase dcnw-2-63-messages 1 'messages over 4 members at 1 Gbps' -- \
	"$ncsim" run "$in/dcnw.vef" -n 4 --system "$sys" --out out
printf 'All tasks generate 9223372036854775807 messages of GOOGLE_ALL traffic.\n' >"$in/dcnw.ncptl"
hcase dcnw-past-clock 1 'dcnw.ncptl:1: traffic: 9223372036854775807 messages over 4 members' -- \
	"$ncsim" run "$in/dcnw.ncptl" -n 4 --system "$sys" --out out
# A rate so high that messages come less than 1 ps apart: the simulation would not advance.
printf 'VEF3 4 1000 0 0\nEXT DCNW\nGOOGLE_ALL UNIFORM LOAD 1e30\n' >"$in/fast.vef"
hcase dcnw-faster-than-clock 1 'less than 1 ps apart' -- "$ncsim" run "$in/fast.vef" -n 4 --system "$sys" --out out
printf 'All tasks generate 9223372036854775807 flows over 1 seconds with classes {1 to 2 kilobytes for 100 percent}.\n' >"$in/flows.ncptl"
hcase flows-2-63 1 'flows.ncptl:1: FLOWS: 9223372036854775807 flows over 1000000000000 ps come less than 1 ps apart' -- \
	"$ncsim" run "$in/flows.ncptl" -n 4 --system "$sys" --out out
