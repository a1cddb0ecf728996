#!/bin/sh
# tests/arch-deps.sh - the module dependency rule of doc/architecture.md, checked on
# every #include "..." of the sources. A module may include its own headers, the
# public headers (include/ncsim/) and the modules listed for it below; anything else
# fails the test with the file, line and the edge that is not allowed.
#
# Usage: arch-deps.sh [SRCDIR]   Exit status: 0 if every include is allowed, 1 otherwise.
srcdir=${1:-${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}}
cd "$srcdir" || exit 2

# module  the modules it may include (besides itself and ncsim/)
rules='
base
runtime/kernel   base
stdlib           base
runtime/stats    base runtime/kernel
runtime/net      base runtime/kernel
runtime/storage  base runtime/kernel runtime/net
runtime/task     base runtime/kernel runtime/net runtime/storage runtime/stats runtime/mpi runtime/coll runtime/io runtime/traffic
runtime/mpi      base runtime/kernel runtime/net runtime/storage runtime/stats runtime/task runtime/coll runtime/io runtime/traffic
runtime/coll     base runtime/kernel runtime/net runtime/storage runtime/stats runtime/task runtime/mpi runtime/io runtime/traffic
runtime/io       base runtime/kernel runtime/net runtime/storage runtime/stats runtime/task runtime/mpi runtime/coll runtime/traffic
runtime/traffic  base runtime/kernel runtime/net runtime/storage runtime/stats runtime/task runtime/mpi runtime/coll runtime/io
grammar          base lang
lang             base grammar
compiler/build   base
compiler/codegen base lang compiler/build
engine           base lang stdlib runtime/task runtime/kernel runtime/net runtime/storage runtime/stats runtime/mpi runtime/coll runtime/io runtime/traffic compiler/build
calib            base runtime/kernel runtime/net runtime/storage runtime/stats runtime/task runtime/mpi runtime/coll runtime/io runtime/traffic stdlib lang compiler/build compiler/codegen
report           base runtime/stats
compiler/cli     any
'

# The module of a path: its first two components under runtime/ and compiler/,
# compiler/*.c is the build cache, otherwise the top folder.
module_of() {
	case $1 in
	include/ncsim/* | ncsim/*) echo ncsim ;;
	runtime/*/*) echo "$1" | cut -d/ -f1-2 ;;
	compiler/cli/* | compiler/codegen/*) echo "$1" | cut -d/ -f1-2 ;;
	compiler/*) echo compiler/build ;;
	*/*) echo "${1%%/*}" ;;
	*) echo none ;;
	esac
}

allowed() { # allowed FROM TO
	[ "$1" = "$2" ] || [ "$2" = ncsim ] || [ "$2" = none ] && return 0
	deps=$(printf '%s\n' "$rules" | awk -v m="$1" '$1 == m')
	[ -n "$deps" ] || return 1
	for dep in $deps; do
		[ "$dep" = any ] || [ "$dep" = "$2" ] && return 0
	done
	return 1
}

bad=0
checked=0
for f in $(find base runtime stdlib grammar lang compiler engine calib report include -name '*.[chly]' | sort); do
	from=$(module_of "$f")
	if ! printf '%s\n' "$rules" | awk -v m="$from" '$1 == m {found=1} END {exit !found}' &&
		[ "$from" != ncsim ]; then
		echo "$f: module $from is not in the dependency table" >&2
		bad=1
		continue
	fi
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed -E 's/^([0-9]+):.*"([^"]+)".*/\1 \2/' >"${TMPDIR:-/tmp}/arch-deps.$$"
	while read -r line inc; do
		checked=$((checked + 1))
		to=$(module_of "$inc")
		if [ "$from" = ncsim ] && [ "$to" != ncsim ] && [ "$to" != none ]; then
			echo "$f:$line: public header includes internal $inc" >&2
			bad=1
		elif ! allowed "$from" "$to"; then
			echo "$f:$line: $from may not include $inc ($to)" >&2
			bad=1
		fi
	done <"${TMPDIR:-/tmp}/arch-deps.$$"
done
rm -f "${TMPDIR:-/tmp}/arch-deps.$$"
[ "$bad" -eq 0 ] && echo "arch-deps: every include follows doc/architecture.md"
exit "$bad"
