/*
 * outfile.h - atomic output files and the run's output folder (prefix outfile_).
 *
 * An output file is written under a temporary name in its target directory
 * (".<name>.<pid>.<n>.tmp") and renamed onto its real name only by
 * outfile_commit. A run that crashes or aborts therefore leaves either the
 * previous complete file or none, never a truncated file under the real name;
 * outfile_abort removes the temporary file. rename() within one directory is
 * atomic on POSIX file systems, which is why the temporary file is created
 * next to the target and not in /tmp.
 *
 *     outfile *f = outfile_open("out/tasks.csv", 0, &err);
 *     fprintf(outfile_stream(f), ...);
 *     if (outfile_commit(f, &err) < 0) ...     (f is freed either way)
 */
#ifndef NCSIM_STATS_OUTFILE_H
#define NCSIM_STATS_OUTFILE_H

#include <stdio.h>
#include <time.h>

typedef struct outfile outfile;

enum outfile_flags {
	OUTFILE_FSYNC = 1u << 0, /* fsync the file and its directory on commit (durable, slower) */
};

/* Creates the temporary file for path. Returns NULL and sets *err (heap string) and errno on error. */
outfile *outfile_open(const char *path, unsigned flags, char **err);
/* The stream to write to; valid until commit or abort. */
FILE *outfile_stream(outfile *f);
/* The final path given to outfile_open. */
const char *outfile_path(const outfile *f);
/* Flushes, optionally fsyncs, closes and renames onto the final path; frees f. 0, or -1 with *err (temp removed). */
int outfile_commit(outfile *f, char **err);
/* Closes and removes the temporary file, leaving any previous file at path untouched; frees f (NULL is a no-op). */
void outfile_abort(outfile *f);
/* Writes n bytes to path atomically. 0, or -1 with *err. */
int outfile_write_all(const char *path, const void *data, size_t n, unsigned flags, char **err);

/* mkdir -p: creates path and its missing parents (mode 0777 & ~umask). 0, or -1 with *err. */
int outfile_mkdir_p(const char *path, char **err);
/* "<base>/<program>-<YYYYmmdd-HHMMSS>" (local time of t; program reduced to its base name without ".ncptl"); heap string. */
char *outfile_default_dir(const char *base, const char *program, time_t t);
/*
 * Creates a fresh run folder named dir, or dir-2, dir-3, ... if dir already
 * exists (two runs within the same second). Parents are created. Returns the
 * heap path of the folder created, or NULL with *err.
 */
char *outfile_make_run_dir(const char *dir, char **err);

#endif
