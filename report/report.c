/*
 * report.c - `ncsim report`: the driver (see report.h).
 */
#include "report/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "report/calib.h"
#include "report/calib_figures.h"
#include "report/figures.h"
#include "report/gnuplot.h"
#include "report/html.h"
#include "report/nb_figures.h"
#include "report/netbench.h"
#include "report/run.h"
#include "report/study.h"
#include "runtime/stats/outfile.h"

char *rep_default_page(const char *dir, size_t ndirs)
{
	struct stat st;
	if (ndirs != 1)
		return xstrdup("report.html");
	if (stat(dir, &st) != 0 || !S_ISREG(st.st_mode))
		return xasprintf("%s/report.html", dir);
	/* a netbench CSV file: FILE-report.html beside it, FILE without .csv */
	size_t n = strlen(dir);
	int csv = n > 4 && !strcmp(dir + n - 4, ".csv");
	return xasprintf("%.*s-report.html", (int)(csv ? n - 4 : n), dir);
}

char *rep_figure_dir(const char *page)
{
	size_t n = strlen(page);
	const char *slash = strrchr(page, '/'), *base = slash ? slash + 1 : page;
	static const char *const exts[] = {".html", ".htm"};
	for (size_t i = 0; i < 2; i++) {
		size_t e = strlen(exts[i]);
		if (n - (size_t)(base - page) > e && !strcmp(page + n - e, exts[i]))
			return xstrndup(page, n - e);
	}
	return xasprintf("%s-figures", page);
}

/* The warning for a run whose status is not "ok" (heap), or NULL. */
static char *status_warning(const rep_run *r)
{
	if (!strcmp(r->status, "ok"))
		return NULL;
	return xasprintf("run %s has status \"%s\" in summary.json: the simulation did not end normally, so its "
	                 "figures show only what it recorded until then",
	                 r->label, *r->status ? r->status : "(none)");
}

/* Removes what an earlier report left of figure id in figdir (now not drawn), so no stale file remains. */
static void forget(const char *figdir, const char *id)
{
	static const char *const exts[] = {"dat", "gp", "svg"};
	for (size_t i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s.%s", figdir, id, exts[i]);
		unlink(p);
		free(p);
	}
}

/* Writes ID.dat and ID.gp of figure g into figdir and has gnuplot draw it. */
static enum rep_status draw(const char *gnuplot, const char *figdir, rep_figure *g, char **err)
{
	char *dat = xasprintf("%s/%s.dat", figdir, g->id), *gp = xasprintf("%s/%s.gp", figdir, g->id);
	enum rep_status st = REP_ERR_IO;
	if (outfile_write_all(dat, g->data, strlen(g->data), 0, err) == 0 &&
	    outfile_write_all(gp, g->script, strlen(g->script), 0, err) == 0)
		st = (g->svg = rep_gp_draw(gnuplot, figdir, g->id, err)) ? REP_OK : REP_ERR_GNUPLOT;
	free(dat);
	free(gp);
	return st;
}

/* Writes the page atomically. */
static enum rep_status write_page(const char *path, const rep_page *p, char **err)
{
	outfile *f = outfile_open(path, 0, err);
	if (!f)
		return REP_ERR_IO;
	rep_html_write(outfile_stream(f), p);
	return outfile_commit(f, err) == 0 ? REP_OK : REP_ERR_IO;
}

/* Loads the run folders dirs[0..n); runs[] gets the ones read. */
static enum rep_status load_all(char *const *dirs, size_t n, rep_run **runs, rep_result *res, char **err)
{
	for (size_t i = 0; i < n; i++) {
		enum rep_fail why;
		if (!(runs[i] = rep_run_load(dirs[i], err, &why)))
			return why == REP_FAIL_INPUT ? REP_ERR_INPUT : REP_ERR_IO;
		char *w = status_warning(runs[i]);
		if (w) {
			res->warnings = xreallocarray(res->warnings, res->nwarnings + 1, sizeof *res->warnings);
			res->warnings[res->nwarnings++] = w;
		}
	}
	/* Two folders of the same name are told apart by their paths. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (!strcmp(runs[i]->label, runs[k]->label)) {
				free(runs[k]->label);
				runs[k]->label = xstrdup(runs[k]->dir);
			}
	return REP_OK;
}

/* The kinds of input; a page shows one. */
enum input_kind { IN_RUNS, IN_NETBENCH, IN_CALIB };
static const char *const kind_names[] = {"run folders", "netbench results", "a calibration"};

static enum input_kind kind_of(const char *path)
{
	return rep_cal_is_input(path) ? IN_CALIB : rep_nb_is_input(path) ? IN_NETBENCH : IN_RUNS;
}

/* The kind of the inputs (one kind per page, one calibration): REP_OK, or REP_ERR_IO with *err. */
static enum rep_status input_kind(const rep_options *o, enum input_kind *kind, char **err)
{
	*kind = kind_of(o->dirs[0]);
	for (size_t i = 1; i < o->ndirs; i++) {
		enum input_kind k = kind_of(o->dirs[i]);
		if (k != *kind) {
			*err = xasprintf("%s is %s and %s is %s: a page shows runs, a netbench sweep or a calibration",
			                 o->dirs[0], kind_names[*kind], o->dirs[i], kind_names[k]);
			return REP_ERR_IO;
		}
	}
	if (*kind == IN_CALIB && o->ndirs > 1) {
		*err = xasprintf("%s and %s are calibrations: a page shows one calibration", o->dirs[0], o->dirs[1]);
		return REP_ERR_IO;
	}
	return REP_OK;
}

/* Draws the figures into res->figdir (a note: its old files removed), then writes the page. */
static enum rep_status render(const char *gnuplot, rep_figures *figs, rep_page *page, rep_result *res, char **err)
{
	enum rep_status st = outfile_mkdir_p(res->figdir, err) < 0 ? REP_ERR_IO : REP_OK;
	for (size_t i = 0; st == REP_OK && i < figs->len; i++) {
		if (figs->ptr[i].note) {
			forget(res->figdir, figs->ptr[i].id);
			res->skipped++;
		} else if ((st = draw(gnuplot, res->figdir, &figs->ptr[i], err)) == REP_OK) {
			res->drawn++;
		}
	}
	if (st != REP_OK)
		return st;
	const char *slash = strrchr(res->figdir, '/');
	page->figs = figs;
	page->figdir = slash ? slash + 1 : res->figdir;
	page->warnings = (const char *const *)res->warnings;
	page->nwarnings = res->nwarnings;
	return write_page(res->page, page, err);
}

/* The report of run folders (a study folder: its runs). */
static enum rep_status build_runs(const rep_options *o, const char *gnuplot, rep_result *res, char **err)
{
	size_t n = 0;
	char **dirs = rep_study_expand(o->dirs, o->ndirs, &n);
	rep_run **runs = xcalloc(n, sizeof *runs);
	rep_figures figs = {0};
	enum rep_status st = load_all(dirs, n, runs, res, err);
	if (st == REP_OK) {
		rep_fig_build(runs, n, &figs);
		rep_page page = {.runs = runs, .nruns = n};
		st = render(gnuplot, &figs, &page, res, err);
	}
	rep_fig_free(&figs);
	for (size_t i = 0; i < n; i++)
		rep_run_free(runs[i]);
	free(runs);
	rep_study_free(dirs, n);
	return st;
}

/* The report of netbench results. */
static enum rep_status build_netbench(const rep_options *o, const char *gnuplot, rep_result *res, char **err)
{
	rep_nb nb = {0};
	rep_figures figs = {0};
	int bad = 0;
	enum rep_status st = REP_OK;
	if (rep_nb_load(&nb, o->dirs, o->ndirs, err, &bad) < 0) {
		st = bad ? REP_ERR_INPUT : REP_ERR_IO;
	} else {
		rep_nbfig_build(&nb, &figs);
		rep_page page = {.nb = &nb};
		st = render(gnuplot, &figs, &page, res, err);
	}
	rep_fig_free(&figs);
	rep_nb_free(&nb);
	return st;
}

/* The report of a calibration's output folder. */
static enum rep_status build_calib(const rep_options *o, const char *gnuplot, rep_result *res, char **err)
{
	int bad = 0;
	rep_cal *c = rep_cal_load(o->dirs[0], err, &bad);
	rep_figures figs = {0};
	enum rep_status st = bad ? REP_ERR_INPUT : REP_ERR_IO;
	if (c) {
		rep_calfig_build(c, &figs);
		rep_page page = {.cal = c};
		st = render(gnuplot, &figs, &page, res, err);
	}
	rep_fig_free(&figs);
	rep_cal_free(c);
	return st;
}

enum rep_status rep_build(const rep_options *o, rep_result *res, char **err)
{
	*res = (rep_result){0};
	char *gnuplot = rep_gp_find();
	if (!gnuplot) {
		*err = xstrdup("gnuplot is not installed (not found in PATH): " REP_GP_INSTALL);
		return REP_ERR_NO_GNUPLOT;
	}
	enum input_kind kind = IN_RUNS;
	enum rep_status st = input_kind(o, &kind, err);
	res->page = o->output ? xstrdup(o->output) : rep_default_page(o->dirs[0], o->ndirs);
	res->figdir = rep_figure_dir(res->page);
	if (st == REP_OK)
		st = kind == IN_NETBENCH ? build_netbench(o, gnuplot, res, err)
		     : kind == IN_CALIB  ? build_calib(o, gnuplot, res, err)
		                         : build_runs(o, gnuplot, res, err);
	free(gnuplot);
	return st;
}

char *rep_after_run(const char *dir)
{
	const char *dirs[] = {dir};
	rep_options o = {dirs, 1, NULL};
	rep_result res;
	char *err = NULL, *line;
	if (rep_build(&o, &res, &err) == REP_OK)
		line = xasprintf("report: wrote %s: %zu figure%s; their data and gnuplot scripts are in %s/", res.page,
		                 res.drawn, res.drawn == 1 ? "" : "s", res.figdir);
	else
		line = xasprintf("warning: --report: no page written (the run's outputs are complete): %s", err);
	free(err);
	rep_result_free(&res);
	return line;
}

void rep_result_free(rep_result *res)
{
	for (size_t i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	free(res->page);
	free(res->figdir);
	*res = (rep_result){0};
}
