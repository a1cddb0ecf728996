/*
 * traffic_cdf.h - message-size distributions of the DCNW model (prefix trf_cdf_):
 * step CDFs read from files in the format of stdlib/traffic/README.md, the
 * table of model names, and inversion sampling.
 *
 *   rows after loading (duplicate sizes merged, last probability kept):
 *
 *     size[0] < size[1] < ... < size[k-1]
 *     cum[0] <= cum[1] <= ... <= cum[k-1] = 1
 *
 *   draw: u in (0, 1], answer size[i] for the smallest i with cum[i] >= u
 *   (a binary search: O(log k) per draw, nothing allocated).
 */
#ifndef NCSIM_TRAFFIC_CDF_H
#define NCSIM_TRAFFIC_CDF_H

#include <stddef.h>
#include <stdint.h>

typedef struct tcdf {
	char *path;        /* the file it was read from */
	size_t n;          /* rows */
	uint64_t *size;
	double *cum;
	double mean;       /* of the step distribution (bytes) */
	double stated_mean; /* line 1 of the file */
} tcdf;

/* Number of built-in models. */
#define TCDF_NMODELS 7
/* Name of built-in model i (upper case, e.g. "GOOGLE_ALL"). */
const char *trf_cdf_model_name(int i);
/* File name of built-in model i (e.g. "google_all.cdf"). */
const char *trf_cdf_model_file(int i);
/* Index of the model named `name` (case-insensitive), or -1. */
int trf_cdf_model_index(const char *name);
/*
 * Path of the file of built-in model i: the source tree's stdlib/traffic/
 * when it exists, else the installed data directory. Heap string.
 */
char *trf_cdf_model_path(int i);

/* Parses the text of a CDF file (`path` names it in messages). NULL with *err ("path:line: ..."). */
tcdf *trf_cdf_parse(const char *path, const char *text, char **err);
/* Reads and parses a CDF file. NULL with *err. */
tcdf *trf_cdf_load(const char *path, char **err);
/* Frees c (NULL is a no-op). */
void trf_cdf_free(tcdf *c);
/* The size for u in (0, 1]: the smallest size whose cumulative probability is >= u. */
uint64_t trf_cdf_draw(const tcdf *c, double u);

#endif
