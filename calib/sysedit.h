/*
 * sysedit.h - a system file with some keys set to new values: how a
 * calibration turns a parameter set into the file a run reads.
 */
#ifndef NCSIM_CALIB_SYSEDIT_H
#define NCSIM_CALIB_SYSEDIT_H

#include <stddef.h>

typedef struct cal_setting {
	const char *section, *key; /* lower case, as sysconf stores them */
	const char *value;         /* as written in a system file ("125000 ps") */
} cal_setting;

/*
 * The text of base with every [section] key of set[0..n) set to its value:
 * rewritten in place when base has the key, else added after the section's
 * header, or in a new section at the end. Heap; NULL when out of memory.
 */
char *cal_sys_edit(const char *base, const cal_setting *set, size_t n);

#endif
