/*
 * hdd.h - analytical hard-disk model (prefix sto_hdd_), after Ruemmler and
 * Wilkes ("An introduction to disk drive modeling") and Parsons and Pai.
 *
 * Geometry: `heads` surfaces, cylinders split into `zones` bands of equal
 * width; a track of zone z holds track_bytes(z) bytes, from the outer value
 * (zone 0, low offsets) to the inner value (last zone), linearly. Offsets map
 * to cylinders zone by zone:
 *
 *   offset 0                                                    geom_bytes
 *   | zone 0: cyl 0..c0-1      | zone 1: cyl c0..c1-1 | ... | zone nz-1 |
 *   | heads*tb(0) bytes / cyl  | heads*tb(1) / cyl    |     |           |
 *
 * Costs of one media access (d = cylinder distance, T_rot = 60/RPM):
 *   seek(d)  = 0                        d = 0
 *            = a + b*sqrt(d)            0 < d < knee   (arm accelerates, coasts)
 *            = c + e*d                  d >= knee      (c makes it continuous)
 *   rotation = u * T_rot, u uniform in [0,1) drawn by the caller
 *   transfer = bytes / track_bytes(zone) * T_rot + tracks crossed * track_switch
 * plus a per-command controller overhead. A request that starts where the
 * head stopped, with no idle gap, pays no positioning at all.
 *
 * Queue: first come, first served; requests are passed in arrival order.
 *
 * Read-ahead cache: after a read the drive keeps streaming the following data
 * into its cache, at least `readahead_min` bytes (the arm is busy until then)
 * and at most `readahead_max` bytes. A read wholly inside the cached range
 * returns at once (bus transfer only); a read that starts inside it pays only
 * the media time of the rest, since the head is already streaming there.
 *
 * Write-back cache (`wcache_bytes` > 0): a write is acknowledged once it is in
 * the cache (overhead + bus transfer) and destaged in arrival order while the
 * arm is idle; when the cache is full the write waits for destages. A destage
 * that continues the previous one streams; otherwise the drive reorders its
 * n dirty requests, so the positioning cost follows the density of dirty data
 * (see sto_hdd_destage_position in hdd.c).
 */
#ifndef NCSIM_STO_HDD_H
#define NCSIM_STO_HDD_H

#include <stddef.h>
#include <stdint.h>

#include "ncsim/rt.h"

#define STO_HDD_MAX_ZONES 64

/* Parameters of one disk (see stdlib/systems/storage-presets.conf). */
typedef struct sto_hdd_params {
	double rpm;
	uint32_t heads;              /* recording surfaces */
	uint32_t zones;              /* 1..STO_HDD_MAX_ZONES */
	uint64_t capacity;           /* bytes */
	uint64_t track_bytes_outer;  /* bytes per track in zone 0 */
	uint64_t track_bytes_inner;  /* bytes per track in the last zone */
	ncsim_time_t track_switch;   /* head or cylinder switch between adjacent tracks */
	ncsim_time_t seek_settle;    /* a: fixed part of a short seek */
	ncsim_time_t seek_sqrt;      /* b: per square root of a cylinder */
	double seek_knee;            /* cylinders where the linear region starts */
	ncsim_time_t seek_linear;    /* e: per cylinder beyond the knee */
	ncsim_time_t overhead;       /* controller time per command */
	double bus_bandwidth;        /* interface bytes/s (cache hits, write-back) */
	uint64_t readahead_min;      /* bytes read ahead after every read */
	uint64_t readahead_max;      /* cache segment: read-ahead limit */
	uint64_t wcache_bytes;       /* write-back cache; 0 = write-through */
} sto_hdd_params;

/* One dirty extent waiting in the write-back cache. */
typedef struct sto_hdd_extent {
	uint64_t off, len;
} sto_hdd_extent;

/* Counters of one disk. */
typedef struct sto_hdd_stats {
	uint64_t reads, writes;
	uint64_t ra_hits, ra_partial, read_misses;
	uint64_t wcache_writes, destages, write_through;
} sto_hdd_stats;

/* State of one disk. */
typedef struct sto_hdd {
	sto_hdd_params p;
	/* geometry, derived from p by sto_hdd_init */
	uint32_t nz;
	double t_rot;                          /* ps per revolution */
	uint64_t cylinders, geom_bytes;
	uint64_t zone_cyl[STO_HDD_MAX_ZONES + 1];   /* first cylinder of each zone */
	uint64_t zone_byte[STO_HDD_MAX_ZONES + 1];  /* first byte of each zone */
	uint64_t zone_tb[STO_HDD_MAX_ZONES];        /* bytes per track */
	/* mechanics and queue */
	ncsim_time_t last_done;   /* completion of the last request (FCFS order) */
	ncsim_time_t mech_free;   /* the arm may start a new operation from here */
	uint64_t head_pos;        /* byte under the head after its last operation */
	ncsim_time_t head_t;      /* when the head reached head_pos */
	/* read-ahead stream: cache holds [ra_lo, ra_end + streamed) */
	int ra_valid;
	uint64_t ra_lo, ra_end;
	ncsim_time_t ra_t;        /* the stream starts at ra_end at this time */
	ncsim_time_t ra_stop;     /* the arm left the stream at this time */
	/* write-back cache: FIFO ring of dirty extents */
	sto_hdd_extent *ring;
	size_t rhead, rcount, rcap;
	uint64_t dirty, dirty_lo, dirty_hi;
	sto_hdd_stats st;
} sto_hdd;

/* Checks parameters; returns NULL if usable, else a static description of the problem. */
const char *sto_hdd_validate(const sto_hdd_params *p);
/* Initialises an idle, empty disk (derives its geometry); p must validate. */
void sto_hdd_init(sto_hdd *d, const sto_hdd_params *p);
/* Releases the write-back ring (NULL is a no-op). */
void sto_hdd_fini(sto_hdd *d);

/* Seek time in ps for a distance of `cyl` cylinders (fractions allowed). */
double sto_hdd_seek_time(const sto_hdd *d, double cyl);
/* Cylinder holding byte `off` (taken modulo the geometry). */
uint64_t sto_hdd_cylinder(const sto_hdd *d, uint64_t off);
/* Bytes per track at byte `off`. */
uint64_t sto_hdd_track_bytes(const sto_hdd *d, uint64_t off);
/* Media transfer time in ps of [off, off+len), track switches included. */
double sto_hdd_media_time(const sto_hdd *d, uint64_t off, uint64_t len);

/*
 * Queues a request arriving at `now` (requests must come in arrival order);
 * `u` in [0,1) is the rotational-latency draw used if it needs positioning.
 * Returns its completion time.
 */
ncsim_time_t sto_hdd_access(sto_hdd *d, ncsim_time_t now, int is_write, uint64_t off, uint64_t len, double u);
/* Time at which the write-back cache would be empty if nothing else arrived; flushes it. */
ncsim_time_t sto_hdd_flush(sto_hdd *d, ncsim_time_t now);

#endif
