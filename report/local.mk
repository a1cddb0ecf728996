# report/local.mk: `ncsim report`, the figures and tables of finished runs in one
# HTML page (doc/report.md). It reads only the documented output files of a run
# folder, so it links no model: base/ and the atomic files of runtime/stats/.
REPORT_SOURCES = report/json_read.c report/csv_read.c report/text.c report/stats.c report/run.c report/study.c report/io.c report/busy.c report/traffic.c \
	report/plot.c report/figures.c report/io_figures.c report/netbench.c report/nb_figures.c report/calib.c report/calib_figures.c report/gnuplot.c report/html.c \
	report/report.c
noinst_HEADERS += report/json_read.h report/csv_read.h report/text.h report/stats.h report/run.h report/study.h report/io.h report/busy.h report/traffic.h \
	report/plot.h report/figures.h report/io_figures.h report/netbench.h report/nb_figures.h report/calib.h report/calib_figures.h report/gnuplot.h report/html.h \
	report/report.h
# The command sits in the binary itself, as cmd_calibrate.c does.
ncsim_SOURCES += compiler/cli/cmd_report.c $(REPORT_SOURCES)

# The data of every figure against hand-made run folders; the readers' errors.
check_PROGRAMS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c $(REPORT_SOURCES)
TESTS += tests/unit/test_report
# A report of real runs: one, several, and the error cases with their exit statuses.
TESTS += tests/e2e/report.sh
# The three kinds of page (one run, two runs, a netbench sweep) in headless
# Chromium: no console message, every figure an SVG with plotted elements, a
# screenshot. It fails without chromium (README.md's install command has it).
TESTS += tests/e2e/report_browser.sh
