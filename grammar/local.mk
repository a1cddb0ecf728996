# grammar/: the flex scanner, the token filter and the bison parser.
# parser.c/parser.h and lexer.c/lexer.h are generated in the build tree and
# never committed.  The bison rule also pins the grammar's conflict counts:
# it fails unless bison reports exactly the `expect-sr:`/`expect-rr:` numbers
# written in parser.y (bison's own %expect-rr only works for GLR parsers).
BUILT_SOURCES += grammar/parser.c grammar/parser.h grammar/lexer.c grammar/lexer.h
nodist_libncsimfe_la_SOURCES = grammar/parser.c grammar/lexer.c
libncsimfe_la_SOURCES += grammar/tokfilter.c grammar/parsehelp.c
noinst_HEADERS += grammar/tokfilter.h grammar/parsehelp.h
EXTRA_DIST += grammar/parser.y grammar/lexer.l
CLEANFILES += grammar/parser.c grammar/parser.h grammar/parser.output \
	grammar/lexer.c grammar/lexer.h grammar/bison.log

# BUILT_SOURCES only acts for all/check/install; these make any target
# (e.g. `make tests/unit/test_parser`) generate the headers first.
$(libncsimfe_la_OBJECTS) $(tests_unit_test_lexer_OBJECTS) $(tests_unit_test_parser_OBJECTS): \
	grammar/parser.h grammar/lexer.h

grammar/parser.c: $(srcdir)/grammar/parser.y
	$(AM_V_GEN)$(MKDIR_P) grammar && \
	$(BISON) -Wall -Wno-conflicts-sr -Wno-conflicts-rr --report=state \
	  --report-file=grammar/parser.output --header=grammar/parser.h \
	  -o grammar/parser.c $(srcdir)/grammar/parser.y && \
	sr=`sed -n 's/^ \*   expect-sr: *\([0-9]*\)$$/\1/p' $(srcdir)/grammar/parser.y` && \
	rr=`sed -n 's/^ \*   expect-rr: *\([0-9]*\)$$/\1/p' $(srcdir)/grammar/parser.y` && \
	gotsr=`sed -n 's/^State [0-9]* conflicts: \([0-9]*\) shift\/reduce.*/\1/p' grammar/parser.output | awk '{s+=$$1} END {print s+0}'` && \
	gotrr=`sed -n 's/^State [0-9]* conflicts:.* \([0-9]*\) reduce\/reduce.*/\1/p' grammar/parser.output | awk '{s+=$$1} END {print s+0}'` && \
	if test "$$sr" != "$$gotsr" || test "$$rr" != "$$gotrr"; then \
	  echo "parser.y: $$gotsr shift/reduce and $$gotrr reduce/reduce conflicts, expected $$sr and $$rr" >&2; \
	  rm -f grammar/parser.c grammar/parser.h; exit 1; \
	fi
grammar/parser.h: grammar/parser.c
	@test -f $@ || { rm -f grammar/parser.c; $(MAKE) $(AM_MAKEFLAGS) grammar/parser.c; }

grammar/lexer.c: $(srcdir)/grammar/lexer.l grammar/parser.h
	$(AM_V_GEN)$(MKDIR_P) grammar && \
	$(LEX) --header-file=grammar/lexer.h -o grammar/lexer.c $(srcdir)/grammar/lexer.l
grammar/lexer.h: grammar/lexer.c
	@test -f $@ || { rm -f grammar/lexer.c; $(MAKE) $(AM_MAKEFLAGS) grammar/lexer.c; }

# Tests of the front end: scanner and filter, parser and AST, golden
# programs (tests/golden/), and the coNCePTuaL corpus ($NCPTL_CORPUS).
check_PROGRAMS += tests/unit/test_lexer tests/unit/test_parser
TESTS += tests/unit/test_lexer tests/unit/test_parser tests/run-golden.sh tests/run-corpus.sh
EXTRA_DIST += tests/run-golden.sh tests/run-corpus.sh
