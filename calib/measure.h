/*
 * measure.h - measurements to calibrate against, and the same readers for the
 * outputs of simulated runs, so that measured and simulated figures line up
 * point by point.
 *
 * A series is a list of observations (x, value): x is the independent variable
 * (message size in bytes for OSU tables and most coNCePTuaL logs), value the
 * figure (latency, bandwidth, time). Several observations may share an x: they
 * are trials of the same point. cal_series_points groups them.
 *
 * Formats:
 *   osu    the text output of the OSU Micro-Benchmarks, any version: comment
 *          lines start with '#'; the comment whose first word is "Size" names
 *          the columns, separated by two blanks or more ("# Size  Bandwidth
 *          (MB/s)", "# Size       Avg Latency(us)   Min Latency(us)   Max
 *          ..."), and the title and "# Datatype" lines may come before or
 *          after it; data lines are whitespace-separated fields. Several
 *          tables in one file (several runs appended) are several trials. The
 *          first column is x; `column` picks the value column by header text
 *          (default: the second column). Only x and the value must be numbers.
 *   ncptl  a coNCePTuaL log file: '#' comment lines, then one or more tables,
 *          each a row of quoted column headers, a row of quoted aggregate
 *          descriptions ("(all data)", "(mean)", ...) and rows of numbers.
 *          `xcolumn` and `column` name the columns by header; the first
 *          table that has them is read, and no other (default: the first and
 *          the second column of the first table of two columns or more). A
 *          row that leaves either column empty holds no observation.
 *   csv    "x,value" or "x,trial,value" rows of numbers; an optional header
 *          row (a first row whose fields are not all numbers) is skipped, or
 *          lets `column` and `xcolumn` name columns among more; '#' lines are
 *          comments.
 */
#ifndef NCSIM_CALIB_MEASURE_H
#define NCSIM_CALIB_MEASURE_H

#include <stddef.h>

enum cal_format { CAL_FMT_AUTO, CAL_FMT_OSU, CAL_FMT_NCPTL, CAL_FMT_CSV };

typedef struct cal_obs {
	double x, value;
	int line;                /* line of the file it came from (for messages) */
} cal_obs;

typedef struct cal_series {
	char *path;              /* heap: the file, for messages */
	cal_obs *obs;            /* heap */
	size_t nobs;
} cal_series;

/* One point: the observations of one x. */
typedef struct cal_point {
	double x;
	double mean, sd;         /* sd: sample standard deviation (0 with one trial) */
	size_t ntrials;
} cal_point;

/* "osu", "ncptl", "csv", "auto" -> the format; -1 if unknown. */
int cal_format_parse(const char *s);
/* The format text looks like: OSU (a '# OSU' line or '# Size' header, or a first
 * row of blank-separated fields without a comma), ncptl (a "coNCePTuaL log file"
 * comment or a quoted first row), else csv. */
enum cal_format cal_format_guess(const char *text);

/*
 * Reads the observations of text (the contents of path) in format fmt
 * (CAL_FMT_AUTO: guessed). column / xcolumn (NULL: the defaults above) select
 * columns by header: an exact match after trimming, else a case-insensitive
 * prefix match that must be unique. 0, or -1 with *err = "path:line: ..."
 * (heap) and s empty. A file with no observation, a column that does not
 * exist, a non-numeric or non-finite field and a ragged row are errors.
 */
int cal_series_parse(const char *path, const char *text, enum cal_format fmt, const char *column,
                     const char *xcolumn, cal_series *s, char **err);
/* Reads path (a regular file, bounded size) and parses it as cal_series_parse. */
int cal_series_load(const char *path, enum cal_format fmt, const char *column, const char *xcolumn,
                    cal_series *s, char **err);
/* Appends the observations of b to a (trials from several files). */
void cal_series_append(cal_series *a, const cal_series *b);
/* The points of s in increasing x (heap array, *n entries; NULL when s is empty). */
cal_point *cal_series_points(const cal_series *s, size_t *n);
void cal_series_free(cal_series *s);

#endif
