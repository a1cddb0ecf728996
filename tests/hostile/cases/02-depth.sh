# Issue 12, defects 2 and 4: deep nesting is refused with a clear error at its
# source position (or handled), never a stack overflow, and code size stays linear.
sys=$src/tests/e2e/e2e-system.conf
gen_sum() { # gen_sum N OP: "task 0 outputs 1 OP 1 OP ... 1"
	awk -v n="$1" -v op="$2" 'BEGIN { printf "task 0 outputs 1"; for (i = 1; i < n; i++) printf " %s 1", op; print "" }'
}
gen_sum 50000 + >"$in/sum50k.ncptl"
hcase sum-50000-terms 1 'too deep' -- "$ncsim" check "$in/sum50k.ncptl"
gen_sum 100000 "**" >"$in/pow100k.ncptl"
hcase power-chain-100000 1 'too deep' -- "$ncsim" check "$in/pow100k.ncptl"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "("; printf "1"; for (i = 0; i < 100000; i++) printf ")"; print "" }' |
	sed 's/^/task 0 outputs /' >"$in/parens.ncptl"
hcase parens-100000 1 'too deep' -- "$ncsim" check "$in/parens.ncptl"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{ "; printf "task 0 sleeps for 1 microsecond"; for (i = 0; i < 100000; i++) printf " }"; print "" }' >"$in/braces.ncptl"
hcase braces-100000 1 'too deep' -- "$ncsim" check "$in/braces.ncptl"
# Reasonable programs still pass: a 500-term sum and 200 nested loops.
gen_sum 500 + >"$in/sum500.ncptl"
hcase sum-500-terms 0 '' -- "$ncsim" check "$in/sum500.ncptl"
nest() { # nest N: N nested single-iteration loops around one statement
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "for 1 repetitions { "; printf "task 0 sleeps for 1 microsecond"; for (i = 0; i < n; i++) printf " }"; print "" }'
}
nest 10000 >"$in/nest10k.ncptl"
hcase nested-loops-10000 1 'too deep' -- "$ncsim" run "$in/nest10k.ncptl" --system "$sys" --out out
nest 200 >"$in/nest200.ncptl"
hafter "[ \$(wc -c <nest200.c) -lt 200000 ]"
hcase nested-loops-200-linear 0 '' -- "$ncsim" compile "$in/nest200.ncptl" -o nest200.c
