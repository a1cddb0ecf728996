/*
 * gnuplot.h - drawing the figures with gnuplot (prefix rep_gp_).
 *
 * gnuplot runs as a program (fork and exec, never a shell command line),
 * once per figure, in the figure folder, on the script ID.gp that the report
 * wrote there. It writes its SVG under a temporary name, renamed to ID.svg
 * only when gnuplot succeeded.
 */
#ifndef NCSIM_REPORT_GNUPLOT_H
#define NCSIM_REPORT_GNUPLOT_H

/* What to tell a user without gnuplot. */
#define REP_GP_INSTALL "install the Debian package gnuplot-nox (apt-get install gnuplot-nox)"

/* The absolute path of the gnuplot program found in PATH (heap), or NULL. */
char *rep_gp_find(void);
/*
 * Runs gnuplot (rep_gp_find's path) on dir/ID.gp in folder dir. The SVG's
 * text (heap), also left in dir/ID.svg; or NULL with *err (heap) holding
 * gnuplot's messages.
 */
char *rep_gp_draw(const char *gnuplot, const char *dir, const char *id, char **err);

#endif
