#!/bin/bash
# tests/par/corpus.sh - the coNCePTuaL distribution's programs (the folder
# NCPTL_CORPUS names; skipped when it is not set) under mpirun: each program
# with its arguments of tests/e2e/corpus-args.txt, sequential and over 2 and
# 3 ranks, must give the same outputs byte for byte (tests/par/lib.sh's
# `same`). The machine is df-small reshaped to 2 nodes per group (9 groups x
# 2 routers x 1 node, h = 4), so that the programs' 2 to 8 tasks sit in 1 to
# 4 groups and their messages cross ranks. A program whose sequential run
# takes more than CORPUS_LIMIT seconds (default 5; beff fires 116 million
# events) is skipped and named.
. "$(dirname "$0")/lib.sh"
[ -n "$NCPTL_CORPUS" ] || { echo "NCPTL_CORPUS is not set: skipped"; exit 77; }
[ -d "$NCPTL_CORPUS" ] || { echo "FAIL: NCPTL_CORPUS=$NCPTL_CORPUS is not a folder"; exit 1; }
cd "$work" || exit 2
sed -e 's/^routers_per_group = .*/routers_per_group = 2/' -e 's/^nodes_per_router = .*/nodes_per_router = 1/' \
	-e 's/^global_links_per_router = .*/global_links_per_router = 4/' "$src/stdlib/systems/df-small.conf" >spread.conf
sys=$work/spread.conf
n=0 ran=0
while read -r prog tasks args; do
	case $prog in '#'* | '') continue ;; esac
	n=$((n + 1))
	timeout "${CORPUS_LIMIT:-5}" "$ncsim" run "$NCPTL_CORPUS/$prog.ncptl" --system "$sys" --no-progress \
		--out "$prog-probe" -n "$tasks" -- $args </dev/null >/dev/null 2>&1
	if [ $? -eq 124 ]; then
		echo "SKIP: $prog: the sequential run takes more than ${CORPUS_LIMIT:-5} s"
		continue
	fi
	ran=$((ran + 1))
	RANKS="2 3" same "$prog" "$NCPTL_CORPUS/$prog.ncptl" -n "$tasks" -- $args </dev/null
done <"$src/tests/e2e/corpus-args.txt"
check "every program of corpus-args.txt was listed ($n)" test "$n" -ge 30
echo "corpus over ranks: $ran of $n programs compared"
exit $((failed > 0))
