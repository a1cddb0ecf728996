/*
 * gnuplot.c - drawing the figures with gnuplot (see gnuplot.h).
 */
#include "report/gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

char *rep_gp_find(void)
{
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		/* An empty entry is the current folder, as for the shell. */
		char *cand = n ? xasprintf("%.*s/gnuplot", (int)n, p) : xstrdup("./gnuplot");
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
			char *real = realpath(cand, NULL);
			free(cand);
			if (real)
				return real;
		} else {
			free(cand);
		}
		p += n;
		if (!*p)
			return NULL;
	}
}

/*
 * Runs argv[0] with argv in folder dir, stdin and stdout on /dev/null and
 * stderr into the file errpath. Its wait status, or -1 with errno.
 */
static int run_in(const char *dir, char *const argv[], const char *errpath)
{
	int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (efd < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		/* The child calls only async-signal-safe functions before exec. */
		int nul = open("/dev/null", O_RDWR);
		if (chdir(dir) != 0 || nul < 0 || dup2(nul, 0) < 0 || dup2(nul, 1) < 0 || dup2(efd, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	int e = errno, status = 0;
	close(efd);
	if (pid < 0) {
		errno = e;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

char *rep_gp_draw(const char *gnuplot, const char *dir, const char *id, char **err)
{
	long pid = (long)getpid();
	char *tmp = xasprintf(".%s.svg.%ld.tmp", id, pid), *script = xasprintf("%s.gp", id);
	char *set = xasprintf("outfile='%s'", tmp);
	char *errpath = xasprintf("%s/.%s.err.%ld.tmp", dir, id, pid), *tmppath = xasprintf("%s/%s", dir, tmp);
	char *svgpath = xasprintf("%s/%s.svg", dir, id), *svg = NULL, *e = NULL;
	char *argv[] = {(char *)gnuplot, "-e", set, script, NULL};
	int status = run_in(dir, argv, errpath);
	if (status < 0) {
		*err = xasprintf("%s: cannot run gnuplot %s: %s", dir, gnuplot, strerror(errno));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char *msg = xread_text(errpath, "gnuplot messages", &e);
		*err = xasprintf("gnuplot %s failed on %s/%s (%s %d):\n%s", gnuplot, dir, script,
		                 WIFEXITED(status) ? "exit status" : "signal",
		                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), msg ? msg : "");
		free(msg);
	} else if (!(svg = xread_text(tmppath, "gnuplot's SVG", err))) {
		/* *err says why */
	} else if (rename(tmppath, svgpath) != 0) {
		*err = xasprintf("%s: cannot rename to %s: %s", tmppath, svgpath, strerror(errno));
		free(svg);
		svg = NULL;
	}
	unlink(errpath);
	unlink(tmppath);
	free(e);
	free(tmp);
	free(script);
	free(set);
	free(errpath);
	free(tmppath);
	free(svgpath);
	return svg;
}
