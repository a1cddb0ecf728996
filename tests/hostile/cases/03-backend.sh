# Issue 12, defect 3: backend calls may not dereference pointers or divide, and
# their values must be finite and in range.
sys=$src/tests/e2e/e2e-system.conf
printf 'task 0 backend executes "UNION_Compute(*(int*)0);"\n' >"$in/deref.ncptl"
hcase backend-deref 1 'backend code' -- "$ncsim" run "$in/deref.ncptl" --system "$sys" --out out
printf 'task 0 backend executes "UNION_Compute(1/0);"\n' >"$in/div.ncptl"
hcase backend-div 1 'backend code' -- "$ncsim" run "$in/div.ncptl" --system "$sys" --out out
printf 'task 0 backend executes "UNION_Compute(1e308);"\n' >"$in/huge.ncptl"
hcase backend-huge 1 'out of range' -- "$ncsim" run "$in/huge.ncptl" --system "$sys" --out out
printf 'task 0 backend executes "UNION_Compute(-5);"\n' >"$in/neg.ncptl"
hcase backend-negative 1 'out of range' -- "$ncsim" run "$in/neg.ncptl" --system "$sys" --out out
printf 'task 0 backend executes "UNION_Compute(1e308 * 10 - 1e308 * 10);"\n' >"$in/nan.ncptl"
hcase backend-nan 1 'out of range' -- "$ncsim" run "$in/nan.ncptl" --system "$sys" --out out
printf 'task 0 backend executes "UNION_IO_OPEN_FILE(1); UNION_IO_WRITE(1, 1e300);"\n' >"$in/iosize.ncptl"
hcase backend-io-size 1 'out of range' -- "$ncsim" run "$in/iosize.ncptl" --system "$sys" --out out
# A call that writes through a pointer could only be given NULL: refused.
printf 'task 0 backend executes "MPI_Comm_rank(MPI_COMM_WORLD, NULL);"\n' >"$in/rank.ncptl"
hcase backend-pointer-call 1 'backend code' -- "$ncsim" run "$in/rank.ncptl" --system "$sys" --out out
