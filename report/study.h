/*
 * study.h - a study folder given as one input (prefix rep_study_).
 *
 * A study runs many simulations into one folder: examples/interference's
 * run-study.sh writes OUT/runs/NAME/ (NAME: workload-placement-routing)
 * beside its tables, allocations and logs. `ncsim report OUT` compares those
 * runs side by side, labelled by NAME, as if every OUT/runs/NAME had been
 * given. A study folder is a folder without summary.json whose runs/
 * subfolder, or else itself, holds run folders (subfolders with
 * summary.json); hidden subfolders (an unfinished run's temporary folder)
 * and files (logs) are left out, and the runs are taken in name order.
 */
#ifndef NCSIM_REPORT_STUDY_H
#define NCSIM_REPORT_STUDY_H

#include <stddef.h>

/*
 * The run folders of the inputs dirs[0..n): each study folder replaced by
 * its runs, any other input kept as it is (loading it says what is wrong).
 * A heap array of *nout heap paths; free with rep_study_free.
 */
char **rep_study_expand(const char *const *dirs, size_t n, size_t *nout);
/* Frees what rep_study_expand returned (n paths). */
void rep_study_free(char **paths, size_t n);

#endif
