/*
 * child.c - simulations as child processes (see child.h).
 */
#define _GNU_SOURCE
#include "calib/child.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

pid_t cal_child_start(const char *file, char *const *argv, const char *out, const char *errf, char **err)
{
	fflush(NULL); /* what the parent buffered must not be written twice */
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(127);
		/* A simulation is one sequential run, even under mpirun: it must not see the launcher's ranks. */
		unsetenv("OMPI_COMM_WORLD_SIZE");
		unsetenv("PMI_SIZE");
		unsetenv("PMIX_RANK");
		execv(file, argv);
		_exit(127);
	}
	if (pid < 0)
		*err = xasprintf("cannot start a simulation: %s", strerror(errno));
	return pid;
}

pid_t cal_child_wait(int *status, volatile int *stop)
{
	for (;;) {
		pid_t pid = waitpid(-1, status, 0);
		if (pid > 0)
			return pid;
		if (errno == EINTR && !(stop && *stop))
			continue;
		return -1;
	}
}

void cal_child_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

char *cal_child_failure(const char *what, int status, const char *errf, int lines)
{
	char *e = NULL, *text = xread_text(errf, "stderr", &e);
	free(e);
	const char *t = text ? text : "";
	size_t n = strlen(t);
	while (n && (t[n - 1] == '\n' || t[n - 1] == ' '))
		n--;
	/* Back from the end over `lines` line breaks: the text after the last one counts as a line. */
	size_t from = n;
	for (int seen = 0; from > 0; from--)
		if (t[from - 1] == '\n' && ++seen == lines)
			break;
	char *m = xasprintf("%s: the simulation failed (%s %d)%s%.*s", what, WIFSIGNALED(status) ? "signal" : "exit status",
	                    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), n ? ":\n" : "",
	                    (int)(n - from), t + from);
	free(text);
	return m;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

void cal_rm_tree(const char *path) { nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }
