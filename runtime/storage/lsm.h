/*
 * lsm.h - a FIFO disk with a fixed cost per operation and a flat seek
 * (prefix sto_lsm_): the local-storage model of CODES, which burst-buffer
 * studies built on CODES (MFNetSim) use as the servers' disk.
 *
 * One operation of `len` bytes at device address `off`:
 *
 *     service = len / bandwidth + overhead + (contiguous ? 0 : seek)
 *     contiguous  <=>  prev_end <= off <= prev_end + seek_window
 *
 * prev_end is where the previous operation on this disk ended (off + len);
 * an idle, new disk has prev_end = 0, so an operation at address 0 on it is
 * contiguous. Reads and writes cost the same. The disk serves operations
 * first come, first served: one arriving while the disk is busy starts when
 * the previous one ends, and its contiguity is judged against that one.
 *
 *   address:  0        prev_end      prev_end + seek_window
 *             |  ...  ]|<------------>|
 *   off here:  seek    no seek (window)  seek
 */
#ifndef NCSIM_STO_LSM_H
#define NCSIM_STO_LSM_H

#include <stdint.h>

#include "ncsim/rt.h"

/* Parameters of one disk ([lsm.NAME] keys, doc/storage.md). */
typedef struct sto_lsm_params {
	double bandwidth;        /* bytes/s */
	ncsim_time_t overhead;   /* every operation */
	ncsim_time_t seek;       /* an operation that does not continue the previous one */
	uint64_t seek_window;    /* bytes past the previous end still counted as contiguous */
	uint64_t capacity;       /* bytes */
} sto_lsm_params;

/* FIFO state of one disk. */
typedef struct sto_lsm {
	sto_lsm_params p;
	ncsim_time_t busy_until; /* completion time of the last accepted operation */
	uint64_t prev_end;       /* address after the last accepted operation */
	uint64_t ops, seeks;     /* operations accepted, and how many of them paid the seek */
} sto_lsm;

/* Defaults of a section without `base`: only seek_window has one (512 B, CODES' fixed tolerance). */
void sto_lsm_defaults(sto_lsm_params *p);
/* Checks parameters; returns NULL if usable, else a static description of the problem. */
const char *sto_lsm_validate(const sto_lsm_params *p);
/* Initialises an idle disk with prev_end = 0. */
void sto_lsm_init(sto_lsm *d, const sto_lsm_params *p);
/* 1 if an operation at `off` would continue the previous one (no seek). */
int sto_lsm_contiguous(const sto_lsm *d, uint64_t off);
/* Service time (queueing excluded) of an operation at `off` of `len` bytes if it were accepted now. */
ncsim_time_t sto_lsm_service(const sto_lsm *d, uint64_t off, uint64_t len);
/* Queues an operation arriving at `now` (FIFO); returns its completion time. */
ncsim_time_t sto_lsm_access(sto_lsm *d, ncsim_time_t now, uint64_t off, uint64_t len);

#endif
