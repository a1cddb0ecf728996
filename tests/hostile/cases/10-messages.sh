# Issue 12, defects 10, 11 and 12: oversubscription, exit codes and messages,
# unknown system keys, secrets in the logged environment.
sys=$src/tests/e2e/e2e-system.conf
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
# The e2e system has 16 nodes.
hcase oversubscribe-refused 1 '--oversubscribe' -- "$ncsim" run "$in/pp.ncptl" -n 17 --system "$sys" --out out
hkeep
hcase oversubscribe-allowed 0 '' -- "$ncsim" run "$in/pp.ncptl" -n 17 --system "$sys" --oversubscribe --out out
mkdir -p "$in/dir.wkld" "$in/dir.alloc" "$in/dir.vef"
hcase dir-as-wkld 2 'is a directory' -- "$ncsim" run "$in/dir.wkld" --out out
hcase dir-as-vef 2 'is a directory' -- "$ncsim" run "$in/dir.vef" -n 2 --out out
printf '2 %s\n' "$in/pp.ncptl" >"$in/one.wkld"
hcase dir-as-alloc 2 'is a directory' -- "$ncsim" run "$in/one.wkld" --alloc "$in/dir.alloc" --out out
hcase missing-alloc 2 'nosuch.alloc' -- "$ncsim" run "$in/one.wkld" --alloc "$in/nosuch.alloc" --out out
hcase missing-system 2 'nosuch.conf' -- "$ncsim" run "$in/pp.ncptl" --system "$in/nosuch.conf" --out out
hcase tasks-no-value 2 'needs a value' -- "$ncsim" run "$in/pp.ncptl" --tasks
hcase cache-unwritable 2 'cache' -- env XDG_CACHE_HOME=/proc/ncsim-cache "$ncsim" run "$in/pp.ncptl" -n 2 --system "$sys" --out out
printf '[network]\nmodel = analytic\nlatncy = 1 us\n' >"$in/typo.conf"
hcase unknown-key 1 "typo.conf:3: unknown key 'latncy' in [network]; did you mean 'latency'" -- "$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/typo.conf" --out out
printf '[network]\nmodel = analytic\nbandwidth = 0 GB/s\n' >"$in/zero.conf"
hcase model-validation 1 'zero.conf:3:' -- "$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/zero.conf" --out out
# A key of another section: the suggestion names the section that reads it.
printf '[network]\nmodel = analytic\nmemory_bandwidth = 5 GB/s\n' >"$in/where.conf"
hcase unknown-key-section 1 "where.conf:3: unknown key 'memory_bandwidth' in [network]; did you mean [node] memory_bandwidth?" -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/where.conf" --out out
# Validation errors of each model name the line of the key (or of the section) at fault.
printf '[network]\nmodel = dragonfly\nterminal_vc_size = 16\n' >"$in/vc.conf"
hcase dragonfly-validation 1 'vc.conf:3: dragonfly: every VC buffer must hold at least one packet' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/vc.conf" --out out
printf '[network]\nmodel = analytic\n[mpi]\npage_size = 0\n' >"$in/mpi.conf"
hcase mpi-validation 1 'mpi.conf:4: [mpi] page_size must be positive' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/mpi.conf" --out out
printf '[network]\nmodel = analytic\n[storage]\nconfig = storage-side\nblock_size = 0\n' >"$in/sto.conf"
hcase storage-validation 1 'sto.conf:5: [storage] block_size must be positive' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/sto.conf" --out out
printf '[network]\nmodel = analytic\n[storage]\nconfig = local\ndevice = fast\n[ssd.fast]\nbase = d3-s4510\npage_size = 0\n' >"$in/dev.conf"
hcase storage-device-validation 1 "dev.conf:6: [ssd.fast] storage device 'fast': page_size must be positive" -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/dev.conf" --out out
printf '[network]\nmodel = analytic\n[storage]\nconfig = local\ndevice = nosuch\n' >"$in/nodev.conf"
hcase storage-unknown-device 1 "nodev.conf:5: unknown storage device 'nosuch'" -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/nodev.conf" --out out
printf '[network]\nmodel = analytic\nnodes = 8\n[storage]\nconfig = storage-side\nio_nodes = 3, 3\n' >"$in/twice.conf"
hcase storage-nodes-twice 1 'twice.conf:6: [storage] io_nodes: node 3 is listed twice' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/twice.conf" --out out
# The first example of doc/system-file.md is a valid system file, without warnings.
awk '/^```ini$/ { grab = 1; next } /^```$/ { if (grab) exit } grab' "$src/doc/system-file.md" >"$in/doc-example.conf"
hkeep
hafter '! grep -q warning stderr.txt'
hcase doc-example 0 '' -- sh -c 'exec "$0" run "$1" -n 2 --system "$2" --out out 2>stderr.txt' "$ncsim" "$in/pp.ncptl" "$in/doc-example.conf"
# Secrets in the environment are not copied into the logs.
hkeep
hafter '! grep -rq s3cr3t out && grep -rq "MY_API_TOKEN: (hidden)" out/logs'
hcase env-secret-hidden 0 '' -- env MY_API_TOKEN=s3cr3t DB_PASSWORD=s3cr3t "$ncsim" run "$in/pp.ncptl" -n 2 --system "$sys" --out out
