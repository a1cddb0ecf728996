# tests/gen/local.mk: the random differential tester of the two engines.
# gen_prog writes a random valid program for a seed (tests/gen/gen.h);
# difftest.sh runs programs under `--engine compiled` and `--engine direct`
# and requires identical outputs (make check: 200 programs; standalone:
# tests/gen/difftest.sh --count 100000 --jobs 2 --out DIR, resumable).
check_PROGRAMS += tests/gen/gen_prog
tests_gen_gen_prog_SOURCES = tests/gen/gen_prog.c tests/gen/gen_expr.c tests/gen/gen_msg.c \
	tests/gen/gen_comm.c tests/gen/gen_stmt.c
noinst_HEADERS += tests/gen/gen.h tests/gen/gen_msg.h tests/gen/gen_stmt.h
TESTS += tests/gen/difftest.sh
EXTRA_DIST += tests/gen/difftest.sh
# The compiled engine's results do not depend on the C compiler (-O2, -O0, clang).
TESTS += tests/gen/cc_order.sh
EXTRA_DIST += tests/gen/cc_order.sh tests/gen/eval_order.ncptl tests/gen/eval_order_err.ncptl
