# lang/sema.mk: semantic analysis (see lang/sema.h).
libncsimfe_la_SOURCES += lang/sema.c lang/sema_expr.c lang/sema_scope.c lang/sema_fold.c lang/sema_header.c \
	lang/sema_ext.c
noinst_HEADERS += lang/sema.h lang/sema_int.h lang/sema_expr.h lang/sema_scope.h lang/sema_fold.h \
	lang/sema_header.h lang/sema_ext.h

check_PROGRAMS += tests/unit/test_sema_fold
TESTS += tests/unit/test_sema_fold

# Golden diagnostics of tests/golden/sema (and the corpus when NCPTL_CORPUS is set).
TESTS += tests/run-golden-sema.sh
EXTRA_DIST += tests/run-golden-sema.sh
