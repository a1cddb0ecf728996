/*
 * ssd.h - analytical SSD model (prefix sto_ssd_), after Yoo et al.'s model of
 * SSD parallelism.
 *
 * A request of `size` bytes touches N_page = ceil(size / page) flash pages.
 * The controller runs rho = channels x ways page operations per cycle, so the
 * request needs N_cycle = ceil(N_page / rho) cycles. Pages are serialised on
 * the channel bus (W_ch or R_ch per page); a write cycle also waits for the
 * program latency that the bus time of one cycle does not hide:
 *
 *     T_wait = max(0, W_page - W_ch * rho)
 *     T_w    = W_ch * (N_page - 1) + T_wait * (N_cycle - 1) + W_page
 *     T_r    = R_ch * (N_page - 1) + R_page
 *
 * The device serves requests first come, first served: a request that arrives
 * while the device is busy starts when the previous one completes.
 */
#ifndef NCSIM_STO_SSD_H
#define NCSIM_STO_SSD_H

#include <stdint.h>

#include "ncsim/rt.h"

/* Parameters of one SSD (see stdlib/systems/storage-presets.conf). */
typedef struct sto_ssd_params {
	uint64_t page_bytes;   /* flash page size */
	uint32_t channels;     /* independent channel buses */
	uint32_t ways;         /* dies per channel that overlap their page operations */
	ncsim_time_t w_ch;     /* channel time per written page (transfer + switch) */
	ncsim_time_t r_ch;     /* channel time per read page */
	ncsim_time_t w_page;   /* latency of one page write as seen by the host */
	ncsim_time_t r_page;   /* latency of one page read as seen by the host */
	uint64_t capacity;     /* bytes */
} sto_ssd_params;

/* FCFS state of one SSD. */
typedef struct sto_ssd {
	sto_ssd_params p;
	ncsim_time_t busy_until; /* completion time of the last accepted request */
} sto_ssd;

/* Checks parameters; returns NULL if usable, else a static description of the problem. */
const char *sto_ssd_validate(const sto_ssd_params *p);
/* Service time T_w of one write of `bytes` (0 bytes take 0 time). */
ncsim_time_t sto_ssd_write_time(const sto_ssd_params *p, uint64_t bytes);
/* Service time T_r of one read of `bytes` (0 bytes take 0 time). */
ncsim_time_t sto_ssd_read_time(const sto_ssd_params *p, uint64_t bytes);
/* Initialises an idle device with parameters p. */
void sto_ssd_init(sto_ssd *d, const sto_ssd_params *p);
/* Queues a request arriving at `now` (FCFS); returns its completion time. */
ncsim_time_t sto_ssd_access(sto_ssd *d, ncsim_time_t now, int is_write, uint64_t bytes);

#endif
