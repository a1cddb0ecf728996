# Issue 14 under the trust model of issue 12: a calibration spec from elsewhere
# describes simulations; it may not run C, shell commands or write outside the
# output folder, and a malformed one fails before any simulation.
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
printf '# OSU MPI Latency Test\n# Size          Latency (us)\n1 1.50\n2 1.52\n' >"$in/lat.txt"
cat >"$in/sk.c" <<'SK'
#include <ncsim/rt.h>
#include <stdlib.h>
static void body(void) { if (system("touch pwned")) return; }
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "sk", .entry = body };
NCSIM_SKELETON(program)
SK
printf '[benchmark.x]\nprogram = sk.c\nmeasured = lat.txt\n' >"$in/c.spec"
hafter '[ ! -e pwned ]'
hcase calibrate-spec-c-skeleton 1 'c.spec:2: sk.c is a C skeleton: a calibration spec runs C only with --allow-backend-code' -- \
	"$ncsim" calibrate "$in/c.spec" --out out
printf '[benchmark.x]\nprogram = pp.ncptl\nargs = "--comment=!id>pwned"\nmeasured = lat.txt\n[parameters]\nmpi.call_overhead = 10ns:1us\n' >"$in/sh.spec"
hafter '[ ! -e pwned ]'
hcase calibrate-spec-comment-shell 1 'allow-host-access' -- "$ncsim" calibrate "$in/sh.spec" --out out
printf '[benchmark.x]\nprogram = pp.ncptl\nargs = --logfile=../victim%%p.txt\nmeasured = lat.txt\n[parameters]\nmpi.call_overhead = 10ns:1us\n' >"$in/log.spec"
hafter '[ ! -e victim0.txt ]'
hcase calibrate-spec-logfile 1 'allow-host-access' -- "$ncsim" calibrate "$in/log.spec" --out out
# Measurements are data: a device is refused, not read for ever.
ln -sf /dev/zero "$in/zero.txt"
printf '[benchmark.x]\nprogram = pp.ncptl\nmeasured = zero.txt\n' >"$in/dev.spec"
hcase calibrate-measured-device 1 'not a regular file' -- "$ncsim" calibrate "$in/dev.spec" --out out
# A budget of ten million evaluations is allowed, but the run stops on SIGTERM and
# keeps what it found; here the limit itself is checked.
printf '[calibration]\nbudget = 100000000\n[benchmark.x]\nprogram = pp.ncptl\nmeasured = lat.txt\n' >"$in/budget.spec"
hcase calibrate-budget-limit 1 'budget.spec:2: budget must be between 1 and 10000000' -- \
	"$ncsim" calibrate "$in/budget.spec" --out out
