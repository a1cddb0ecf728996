#!/bin/sh
# run-corpus.sh - `ncsim check` must accept every program of the coNCePTuaL
# corpus in $NCPTL_CORPUS (exit 77, skipped, when it is unset).
set -u
[ -n "${NCPTL_CORPUS:-}" ] || { echo "NCPTL_CORPUS is not set: skipped"; exit 77; }
check=${NCSIM_CHECK:-${NCSIM:-./ncsim} check}
fail=0 n=0
for src in "$NCPTL_CORPUS"/*.ncptl; do
	[ -e "$src" ] || continue
	n=$((n + 1))
	if ! out=$($check "$src" 2>&1); then
		echo "FAIL $(basename "$src")"; echo "$out"; fail=1
	fi
done
[ $n -gt 0 ] || { echo "no .ncptl file in $NCPTL_CORPUS"; exit 1; }
echo "corpus: $n programs checked"
exit $fail
