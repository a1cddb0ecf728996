/*
 * study.c - a study folder given as one input (see study.h).
 */
#include "report/study.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

typedef VEC(char *) path_vec;

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 if dir/summary.json exists: dir is a run folder. */
static int is_run(const char *dir)
{
	struct stat st;
	char *p = xasprintf("%s/summary.json", dir);
	int yes = stat(p, &st) == 0;
	free(p);
	return yes;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Appends the run folders directly under dir (not hidden) to out, in name order. */
static void runs_under(const char *dir, path_vec *out)
{
	DIR *d = opendir(dir);
	size_t first = out->len;
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		char *sub = xasprintf("%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && is_dir(sub) && is_run(sub))
			VEC_PUSH(out, sub);
		else
			free(sub);
	}
	closedir(d);
	if (out->len - first > 1)
		qsort(out->ptr + first, out->len - first, sizeof *out->ptr, cmp_str);
}

/* The runs of study folder dir appended to out; 0 if dir is no study (nothing appended). */
static size_t study_runs(const char *dir, path_vec *out)
{
	size_t before = out->len;
	if (!is_dir(dir) || is_run(dir))
		return 0;
	/* a trailing slash would double in the runs' paths */
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	char *base = xstrndup(dir, n), *runs = xasprintf("%s/runs", base);
	if (is_dir(runs))
		runs_under(runs, out);
	if (out->len == before)
		runs_under(base, out);
	free(runs);
	free(base);
	return out->len - before;
}

char **rep_study_expand(const char *const *dirs, size_t n, size_t *nout)
{
	path_vec out = {0};
	for (size_t i = 0; i < n; i++)
		if (study_runs(dirs[i], &out) == 0)
			VEC_PUSH(&out, xstrdup(dirs[i]));
	*nout = out.len;
	return out.ptr;
}

void rep_study_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}
