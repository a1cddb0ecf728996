#!/bin/sh
# tests/e2e/corpus-cc.sh - the generated C of every corpus program (the
# folder named by NCPTL_CORPUS) must compile with -Wall -Wextra -Werror.
# Skipped (77) when NCPTL_CORPUS is not set.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ncsim=${NCSIM:-./ncsim}
cc=${CC:-cc}
[ -n "$NCPTL_CORPUS" ] || { echo "NCPTL_CORPUS is not set: skipped"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ncsim-cc.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failed=0
n=0
for src in "$NCPTL_CORPUS"/*.ncptl; do
	name=$(basename "$src" .ncptl)
	n=$((n + 1))
	if ! $ncsim compile "$src" -o "$work/$name.c" 2>"$work/$name.err"; then
		echo "FAIL: ncsim compile $name"
		sed 's/^/  /' "$work/$name.err" | head -5
		failed=$((failed + 1))
	elif ! $cc -std=gnu99 -Wall -Wextra -Werror -c -I"$srcdir/include" "$work/$name.c" -o "$work/$name.o" \
		2>"$work/$name.err"; then
		echo "FAIL: cc $name.c"
		sed 's/^/  /' "$work/$name.err" | head -10
		failed=$((failed + 1))
	fi
done
echo "$((n - failed)) of $n corpus programs compile to warning-free C"
[ "$failed" -eq 0 ]
