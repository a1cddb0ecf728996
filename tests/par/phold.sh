#!/bin/bash
# tests/par/phold.sh - the parallel kernel keeps the sequential order of events
# (doc/parallel.md): PHOLD with per-process hashes of the (time, src, seq) of every
# event fired, in firing order, gives the same output (events and hash per process,
# kernel event count, end time) sequentially and over 1 to 4 ranks, with blocks of
# processes per rank and with processes dealt round-robin (so most events cross
# ranks). A quarter of the events echo a zero-delay event, so ties at one instant
# are common; the lookahead is exactly the least delay of a remote event, the case
# where a window's last instant and the next window's first meet.
. "$(dirname "$0")/lib.sh"
prog=$build/tests/par/par_phold
cd "$work" || exit 2
# NLP EVENTS REMOTE LOOKAHEAD MEAN UNTIL SEED
args="24 4 0.5 1000 3000 400000"
"$prog" $args 7 seq >seq.txt 2>seq.err || { cat seq.err; exit 1; }
head -1 seq.txt
# The run must be big enough to mean something: every process fired events.
check "sequential run fired events in every process" awk '/^lp / && $3 == 0 { exit 1 }' seq.txt
for k in 1 2 3 4; do
	for mode in block cyclic; do
		ranks "$k" "$prog" $args 7 "$mode" >"np$k-$mode.txt" 2>"np$k-$mode.err"
		rc=$?
		check "-np $k $mode: exit status 0 ($rc)" test "$rc" -eq 0 || cat "np$k-$mode.err"
		check "-np $k $mode: output identical to the sequential run" \
			cmp -s seq.txt "np$k-$mode.txt" || diff seq.txt "np$k-$mode.txt" | head -5
	done
done
grep -h windows np4-cyclic.err
# A different seed gives a different run: the comparison above can fail.
"$prog" $args 8 seq >seed8.txt 2>/dev/null
check "another seed changes the output" sh -c '! cmp -s seq.txt seed8.txt'
# `until` cuts every rank at the same instant, inside a window.
"$prog" 24 4 0.5 1000 3000 123457 7 seq >useq.txt 2>/dev/null
ranks 3 "$prog" 24 4 0.5 1000 3000 123457 7 cyclic >unp3.txt 2>/dev/null
check "until: 3 ranks stop where the sequential run stops" cmp -s useq.txt unp3.txt
check "until: the run says it stopped there" grep -q 'stopped 1' unp3.txt
# A lookahead longer than the model's least remote delay is caught, not silently wrong.
ranks 2 "$prog" $args 7 cyclic 5000 >/dev/null 2>long.err
rc=$?
check "a claimed lookahead of 5000 ps > 1000 ps: exit status 1 ($rc)" test "$rc" -eq 1
check "... and the message names the lookahead" grep -q 'lookahead of 5000 ps is too long' long.err
exit $((failed > 0))
