/*
 * device.h - one storage device of any kind, its presets and its space
 * accounting (prefix sto_dev_).
 *
 * A device is an SSD, an HDD or a flat-cost disk (ssd.h, hdd.h, lsm.h) plus
 * a capacity ledger: the storage manager reserves the bytes of a write before
 * moving any data and releases them when the data has been drained to
 * external storage.
 *
 * Parameters come from a `[ssd.NAME]`, `[hdd.NAME]` or `[lsm.NAME]` section,
 * looked up first in the system file and then in the built-in presets
 * (stdlib/systems/storage-presets.conf, compiled in). A system-file section
 * may start from another device with `base = NAME` and override keys.
 */
#ifndef NCSIM_STO_DEVICE_H
#define NCSIM_STO_DEVICE_H

#include <stdint.h>

#include "runtime/storage/hdd.h"
#include "runtime/storage/lsm.h"
#include "runtime/storage/ssd.h"
#include "base/sysconf.h"

enum sto_dev_kind { STO_DEV_SSD = 0, STO_DEV_HDD = 1, STO_DEV_LSM = 2, STO_DEV_NKINDS };

/* Everything needed to build a device. */
typedef struct sto_dev_params {
	enum sto_dev_kind kind;
	char name[48];
	sto_ssd_params ssd; /* valid when kind == STO_DEV_SSD */
	sto_hdd_params hdd; /* valid when kind == STO_DEV_HDD */
	sto_lsm_params lsm; /* valid when kind == STO_DEV_LSM */
} sto_dev_params;

/* Per-device counters. */
typedef struct sto_dev_stats {
	uint64_t reads, writes;             /* operations */
	uint64_t bytes_read, bytes_written;
	ncsim_time_t busy;                  /* sum of service times (queueing excluded) */
	uint64_t full_waits;                /* reservations that had to wait or failed */
} sto_dev_stats;

typedef struct sto_dev {
	enum sto_dev_kind kind;
	char name[48];
	union {
		sto_ssd ssd;
		sto_hdd hdd;
		sto_lsm lsm;
	} u;
	uint64_t capacity, used; /* ledger, bytes */
	sto_dev_stats st;
} sto_dev;

/* Text of the built-in presets file. */
const char *sto_dev_presets_text(void);
/*
 * Loads device `name` ("d3-s4510") from `sys` (may be NULL) or the built-in
 * presets. Returns 0, or -1 with *err set (heap string) if the device is
 * unknown or a key is malformed or missing.
 */
int sto_dev_params_load(const sysconf_t *sys, const char *name, sto_dev_params *out, char **err);
/* Loads every device section of sys (NULL: none), used or not, so that each is checked: 0, or -1 with *err. */
int sto_dev_check_all(const sysconf_t *sys, char **err);
/* Builds an idle, empty device from validated parameters. */
void sto_dev_init(sto_dev *d, const sto_dev_params *p);
/* Releases what the device allocated (NULL is a no-op). */
void sto_dev_fini(sto_dev *d);
/* "ssd", "hdd" or "lsm": the section prefix of the kind. */
const char *sto_dev_kind_name(enum sto_dev_kind k);

/* Queues `len` bytes at address `off` at `now` (FCFS); `u`: HDD rotational draw in [0,1). Returns its end. */
ncsim_time_t sto_dev_access(sto_dev *d, ncsim_time_t now, int is_write, uint64_t off, uint64_t len, double u);
/* Reserves `bytes` of space; returns 0, or -1 (nothing reserved) if they do not fit now. */
int sto_dev_reserve(sto_dev *d, uint64_t bytes);
/* Returns `bytes` of reserved space. */
void sto_dev_release(sto_dev *d, uint64_t bytes);

#endif
