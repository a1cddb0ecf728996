/*
 * outfile.c - atomic output files and the run's output folder (see outfile.h).
 */
#include "runtime/stats/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

struct outfile {
	FILE *fp;
	char *path;  /* final name */
	char *tmp;   /* temporary name, same directory; NULL when written in place */
	unsigned flags;
};

/*
 * A path that names something other than a regular file (/dev/null, a FIFO,
 * a terminal) is written in place: renaming a temporary file onto it would
 * replace the device with a plain file.
 */
static outfile *open_special(const char *path, char **err)
{
	struct stat st;
	if (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return NULL;
	FILE *fp = fopen(path, "w");
	if (!fp) {
		*err = xasprintf("%s: cannot open output file: %s", path, strerror(errno));
		return NULL;
	}
	outfile *f = xcalloc(1, sizeof *f);
	f->fp = fp;
	f->path = xstrdup(path);
	return f;
}

/* Directory part of path ("." if none); heap string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

outfile *outfile_open(const char *path, unsigned flags, char **err)
{
	const char *base = strrchr(path, '/');
	size_t dirlen = base ? (size_t)(base - path) + 1 : 0;
	outfile *f;
	int fd = -1;

	*err = NULL;
	if ((f = open_special(path, err)) != NULL || *err)
		return f;
	base = base ? base + 1 : path;
	if (!*base) {
		*err = xasprintf("%s: not a file name", path);
		return NULL;
	}
	f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	f->flags = flags;
	/*
	 * O_EXCL on pid-qualified names: no two writers share a temporary file,
	 * and no process-wide counter is needed. 0666 lets umask decide, as for
	 * any file the user's tools create (mkstemp would force 0600).
	 */
	for (unsigned n = 0; n < 1000 && fd < 0; n++) {
		free(f->tmp);
		f->tmp = xasprintf("%.*s.%s.%ld.%u.tmp", (int)dirlen, path, base, (long)getpid(), n);
		fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd >= 0 && !(f->fp = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(f->tmp);
		errno = e;
	}
	if (!f->fp) {
		int e = errno;
		*err = xasprintf("%s: cannot create output file: %s", path, strerror(e));
		free(f->tmp);
		free(f->path);
		free(f);
		errno = e; /* callers may word their own message */
		return NULL;
	}
	return f;
}

FILE *outfile_stream(outfile *f) { return f->fp; }

const char *outfile_path(const outfile *f) { return f->path; }

static void destroy(outfile *f)
{
	free(f->tmp);
	free(f->path);
	free(f);
}

void outfile_abort(outfile *f)
{
	if (!f)
		return;
	if (f->fp)
		fclose(f->fp);
	if (f->tmp)
		unlink(f->tmp);
	destroy(f);
}

/* fsync the directory so that the rename itself survives a power cut. */
static int sync_dir(const char *path)
{
	char *dir = dir_of(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	free(dir);
	if (fd < 0)
		return -1;
	if (fsync(fd) < 0 && errno != EINVAL)
		rc = -1;
	close(fd);
	return rc;
}

int outfile_commit(outfile *f, char **err)
{
	const char *what = NULL;
	int e = 0;

	/* Every step is checked: a full disk must not yield a short file under the final name. */
	if (ferror(f->fp))
		what = "write error", e = EIO;
	else if (fflush(f->fp) != 0)
		what = "write error", e = errno;
	else if ((f->flags & OUTFILE_FSYNC) && fsync(fileno(f->fp)) != 0)
		what = "cannot sync", e = errno;
	if (fclose(f->fp) != 0 && !what)
		what = "write error", e = errno;
	f->fp = NULL;
	if (!what && f->tmp && rename(f->tmp, f->path) != 0)
		what = "cannot rename the temporary file into place", e = errno;
	if (what) {
		*err = xasprintf("%s: %s: %s", f->path, what, strerror(e));
		if (f->tmp)
			unlink(f->tmp);
		destroy(f);
		return -1;
	}
	if ((f->flags & OUTFILE_FSYNC) && sync_dir(f->path) < 0) {
		*err = xasprintf("%s: cannot sync its directory: %s", f->path, strerror(errno));
		destroy(f);
		return -1;
	}
	destroy(f);
	return 0;
}

int outfile_write_all(const char *path, const void *data, size_t n, unsigned flags, char **err)
{
	outfile *f = outfile_open(path, flags, err);

	if (!f)
		return -1;
	if (n && fwrite(data, 1, n, f->fp) != n) {
		*err = xasprintf("%s: write error: %s", path, strerror(errno));
		outfile_abort(f);
		return -1;
	}
	return outfile_commit(f, err);
}

int outfile_mkdir_p(const char *path, char **err)
{
	char *p = xstrdup(path);
	size_t len = strlen(p);
	struct stat st;

	if (!len) {
		free(p);
		*err = xstrdup("empty directory name");
		return -1;
	}
	while (len > 1 && p[len - 1] == '/')
		p[--len] = 0;
	/* Walk forwards, creating each prefix; EEXIST is fine if it is a directory. */
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != 0)
			continue;
		char c = *s;
		*s = 0;
		if (mkdir(p, 0777) != 0) {
			int e = errno;
			if (e != EEXIST || stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
				*err = xasprintf("%s: cannot create directory: %s", p,
				                 strerror(e == EEXIST ? ENOTDIR : e));
				free(p);
				return -1;
			}
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return 0;
}

char *outfile_default_dir(const char *base, const char *program, time_t t)
{
	char *name = xpath_stem(program && *program ? program : "ncsim", ".ncptl");
	struct tm tm;
	char stamp[32];

	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	char *dir = xasprintf("%s/%s-%s", base && *base ? base : "ncsim-out", name, stamp);
	free(name);
	return dir;
}

char *outfile_make_run_dir(const char *dir, char **err)
{
	char *parent, *path;

	parent = dir_of(dir);
	if (strcmp(parent, ".") != 0 && outfile_mkdir_p(parent, err) < 0) {
		free(parent);
		return NULL;
	}
	free(parent);
	for (unsigned n = 1; n < 10000; n++) {
		path = n == 1 ? xstrdup(dir) : xasprintf("%s-%u", dir, n);
		/* mkdir, not stat-then-mkdir: it fails with EEXIST atomically if another run won. */
		if (mkdir(path, 0777) == 0)
			return path;
		if (errno != EEXIST) {
			*err = xasprintf("%s: cannot create directory: %s", path, strerror(errno));
			free(path);
			return NULL;
		}
		free(path);
	}
	*err = xasprintf("%s: too many run folders with this name", dir);
	return NULL;
}
