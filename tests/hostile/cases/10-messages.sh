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
# The first example of doc/system-file.md is a valid system file, without warnings.
awk '/^```ini$/ { grab = 1; next } /^```$/ { if (grab) exit } grab' "$src/doc/system-file.md" >"$in/doc-example.conf"
hkeep
hafter '! grep -q warning stderr.txt'
hcase doc-example 0 '' -- sh -c 'exec "$0" run "$1" -n 2 --system "$2" --out out 2>stderr.txt' "$ncsim" "$in/pp.ncptl" "$in/doc-example.conf"
# Secrets in the environment are not copied into the logs.
hkeep
hafter '! grep -rq s3cr3t out && grep -rq "MY_API_TOKEN: (hidden)" out/logs'
hcase env-secret-hidden 0 '' -- env MY_API_TOKEN=s3cr3t DB_PASSWORD=s3cr3t "$ncsim" run "$in/pp.ncptl" -n 2 --system "$sys" --out out
