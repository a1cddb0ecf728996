# Issue 12, defects 8, 9 and 11 (outputs): a run either writes its whole output
# folder or leaves none; an existing --out is refused unless --force; SIGINT ends
# the run with the figures so far.
sys=$src/tests/e2e/e2e-system.conf
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
hkeep
hafter '[ -e out/old ] && [ ! -e out/summary.json ]'
hcase out-exists 2 '--force' -- sh -c 'mkdir out && touch out/old && exec "$0" run "$1" -n 2 --system "$2" --out out' "$ncsim" "$in/pp.ncptl" "$sys"
hkeep
hafter '[ ! -e out/old ] && [ -e out/summary.json ]'
hcase out-force 0 '' -- sh -c 'mkdir out && touch out/old && exec "$0" run "$1" -n 2 --system "$2" --out out --force' "$ncsim" "$in/pp.ncptl" "$sys"
hcase out-unwritable 2 'out' -- "$ncsim" run "$in/pp.ncptl" -n 2 --system "$sys" --out /proc/ncsim-out
# Errors found while simulating leave no folder.
hcase storage-error 1 'err-nospace.ncptl:' -- "$ncsim" run "$src/tests/e2e/io/err-nospace.ncptl" --system "$src/tests/e2e/io/err-nospace.conf" --out out
# (OUTPUTS evaluates in floating point, where 5/0 is inf: the division is in a LET, an integer context.)
printf 'task 0 sends a 10 byte message to task 1 then\nlet y be 5/(num_tasks-2) while task 0 outputs y\n' >"$in/divrt.ncptl"
hcase runtime-error 1 'divided by 0' -- "$ncsim" run "$in/divrt.ncptl" -n 2 --system "$sys" --out out
# Skeletons that leave the simulation: exit(), a NULL dereference, a loop that never yields.
cat >"$in/exit.c" <<'SK'
#include <ncsim/rt.h>
#include <stdlib.h>
static void body(rt_task *t) { (void)t; exit(0); }
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "exit", .entry = body };
NCSIM_SKELETON(program)
SK
hcase skeleton-exit 1 'exit' -- "$ncsim" run "$in/exit.c" --system "$sys" --out out
cat >"$in/null.c" <<'SK'
#include <ncsim/rt.h>
static void body(rt_task *t) { volatile int *p = 0; (void)t; *p = 1; }
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "null", .entry = body };
NCSIM_SKELETON(program)
SK
hcase skeleton-segv 1 'signal' -- "$ncsim" run "$in/null.c" --system "$sys" --out out
cat >"$in/spin.c" <<'SK'
#include <ncsim/rt.h>
static void body(rt_task *t) { volatile unsigned long i = 0; (void)t; for (;;) i++; }
static const rt_program program = { .abi = NCSIM_RT_ABI, .name = "spin", .entry = body };
NCSIM_SKELETON(program)
SK
hcase skeleton-spin 1 'yield' -- "$ncsim" run "$in/spin.c" --system "$sys" --watchdog 2s --out out
printf 'for 1000000000 repetitions { task 0 sends a 1 byte message to task 1 then task 1 sends a 1 byte message to task 0 }\n' >"$in/long.ncptl"
# --until ends early on purpose: it says so instead of "done". (First: it also puts the
# program in the build cache, so that the signals below reach a running simulation.)
hkeep
hcase until-says-stopped 0 'stopped at' -- "$ncsim" run "$in/long.ncptl" -n 2 --system "$sys" --until 1ms --out out
# SIGINT: the figures so far, marked interrupted, exit 130.
# $signal_run: start the long run, wait until its temporary output folder exists
# (the simulation has started; on a loaded machine that can take seconds), let it
# run one more second, then send the signal ($4) and return ncsim's exit status.
signal_run='"$1" run "$2" -n 2 --system "$3" --out out & pid=$!
i=0
while [ -z "$(ls -d .ncsim-tmp-* 2>/dev/null)" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -s "$4" $pid
wait $pid'
hkeep
hafter 'grep -q "\"status\": *\"interrupted\"" out/summary.json && [ -s out/tasks.csv ]'
hcase sigint 130 'interrupted' -- sh -c "$signal_run" sh "$ncsim" "$in/long.ncptl" "$sys" INT
hkeep
hafter 'grep -q "\"status\": *\"interrupted\"" out/summary.json'
hcase sigterm 130 'interrupted' -- sh -c "$signal_run" sh "$ncsim" "$in/long.ncptl" "$sys" TERM
