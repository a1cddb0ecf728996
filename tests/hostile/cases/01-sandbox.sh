# Issue 12, defect 1: a workload file describes a simulation; it may not run shell
# commands, read host files into logs, write logs outside the output folder, or
# compile C, unless the user passes the matching --allow-* flag.
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
printf '2 %s --comment=!id>pwned\n' "$in/pp.ncptl" >"$in/shell.wkld"
hafter '[ ! -e pwned ]'
hcase wkld-comment-shell 1 'allow-host-access' -- "$ncsim" run "$in/shell.wkld" --out out
printf '2 %s --comment=@/etc/hostname\n' "$in/pp.ncptl" >"$in/incl.wkld"
hcase wkld-comment-file 1 'allow-host-access' -- "$ncsim" run "$in/incl.wkld" --out out
printf '2 %s --logfile=%s/victim%%p.txt\n' "$in/pp.ncptl" "$in" >"$in/logout.wkld"
hafter "[ ! -e '$in/victim0.txt' ]"
hcase wkld-logfile-outside 1 'allow-host-access' -- "$ncsim" run "$in/logout.wkld" --out out
printf '2 %s --logfile=../victim%%p.txt\n' "$in/pp.ncptl" >"$in/logdotdot.wkld"
hafter '[ ! -e victim0.txt ]'
hcase wkld-logfile-dotdot 1 'allow-host-access' -- "$ncsim" run "$in/logdotdot.wkld" --out out
# The same program options typed on the command line of `ncsim run` follow the same rule:
# with --allow-host-access they act on the host.
hkeep
hafter '[ -e pwned ]'
hcase comment-shell-allowed 0 '' -- "$ncsim" run "$in/pp.ncptl" -n 2 --allow-host-access --out out -- '--comment=!id>pwned'
cat >"$in/sk.c" <<'SK'
#include <ncsim/rt.h>
#include <stdlib.h>
static void body(void) { if (system("touch pwned")) return; }
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "sk", .entry = body };
NCSIM_SKELETON(program)
SK
printf '1 %s\n' "$in/sk.c" >"$in/csk.wkld"
hafter '[ ! -e pwned ]'
hcase wkld-c-skeleton 1 'allow-backend-code' -- "$ncsim" run "$in/csk.wkld" --out out
