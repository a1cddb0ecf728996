# Issue 12, defects 5 and 7 as the fuzz campaign found them in the system and workload
# readers (tests/fuzz/README.md, F4 to F6): a few lines may describe a machine larger than
# the host, and a long file must not take quadratic time.
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
net() { printf '[network]\nmodel = %s\n' "$1"; shift; printf '%s\n' "$@"; }
# F6: 4e9 analytic nodes cost 4e9 x (port + kernel entity + runtime record), hundreds of GB;
# the limit is the host's memory (under this suite, its 4 GB ulimit -v).
net analytic 'nodes = 4000000000' 'latency = 1us' 'bandwidth = 10 GB/s' 'injection_bandwidth = 10 GB/s' >"$in/an.conf"
hcase analytic-4e9-nodes 1 'an.conf:3: the analytic network of 4000000000 nodes would need about' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/an.conf" --out out
net ideal 'nodes = 4000000000' >"$in/id.conf"
hcase ideal-4e9-nodes 1 'id.conf:3: the ideal network of 4000000000 nodes would need about' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/id.conf" --out out
# A valid dragonfly of 16,257 groups x 128 routers (radix 1 + 127 + 127 = 255): 2.1 million
# routers of 255 ports, far past 4 GB.
net dragonfly 'groups = 16257' 'routers_per_group = 128' 'nodes_per_router = 1' 'global_links_per_router = 127' \
	>"$in/df.conf"
hcase dragonfly-2m-routers 1 'df.conf:3: a dragonfly of 16257 groups x 128 routers x 1 nodes' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/df.conf" --out out
hcase netbench-2m-routers 1 'would need about' -- \
	"$ncsim" netbench --groups 16257 --routers 128 --nodes 1 --globals 127 --duration 1ns
# Four billion tasks on four nodes: about 8 KB each (records and touched stack) is
# refused before any is placed (placement alone used to loop for minutes).
net ideal 'nodes = 4' >"$in/i4.conf"
hcase tasks-4e9 1 '4000000000 tasks would need about' -- \
	"$ncsim" run "$in/pp.ncptl" -n 4000000000 --oversubscribe --system "$in/i4.conf" --out out
# --max-memory lowers the limit: the built-in dragonfly (9 x 4 x 2) needs about 87 kB.
hcase max-memory-64k 1 'more than the memory limit of 65.5 kB (set by --max-memory' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --max-memory 64KiB --out out
hcase max-memory-64k-what 1 'a dragonfly of 9 groups x 4 routers x 2 nodes with 2 global links per router would need about' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --max-memory 64KiB --out out
hcase max-memory-bad 2 'max-memory' -- "$ncsim" run "$in/pp.ncptl" -n 2 --max-memory lots --out out
# F4: duplicate checks scan the keys, so a file of 100,000 keys took 20 minutes; the
# reader stops at 4,096 keys and sections, naming the line of the 4,097th.
{ net ideal 'nodes = 4'; for i in $(seq 1 5000); do printf '[s%d]\nk = 1\n' "$i"; done; } >"$in/keys.conf"
hcase sysconf-5000-sections 1 'keys.conf:4097:1: more than 4096 keys and sections' -- "$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/keys.conf" --out out
# F5: 50,000 job labels (pp.1 ... pp.50000) were numbered by comparing every pair (about
# a minute); sorted, the file is read and refused at once for want of nodes.
for i in $(seq 1 50000); do echo "2 pp.ncptl"; done >"$in/jobs.wkld"
hcase workload-50000-jobs 1 'jobs.wkld:32: more tasks than compute nodes' -- "$ncsim" run "$in/jobs.wkld" --out out
