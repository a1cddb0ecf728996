/*
 * hdd.c - analytical hard-disk model (Ruemmler-Wilkes, Parsons-Pai); the
 * formulas and the cache policy are described in hdd.h.
 *
 * Everything is computed when a request arrives: the arm's state (where the
 * head is, when it is free, what it streamed into the read-ahead cache) is
 * advanced lazily to the arrival time. Background destaging of the write-back
 * cache is replayed up to the arrival as well, one non-preemptive operation at
 * a time, so a request that arrives during a destage waits for it to finish.
 */
#include <math.h>
#include <stdlib.h>

#include "runtime/storage/hdd.h"
#include "base/util.h"

#define NEVER UINT64_MAX

const char *sto_hdd_validate(const sto_hdd_params *p)
{
	if (!(p->rpm > 0))
		return "rpm must be positive";
	if (p->heads == 0)
		return "heads must be positive";
	if (p->zones == 0 || p->zones > STO_HDD_MAX_ZONES)
		return "zones must be between 1 and 64";
	if (p->capacity == 0)
		return "capacity must be positive";
	if (p->track_bytes_outer == 0 || p->track_bytes_inner == 0)
		return "track sizes must be positive";
	if (!(p->seek_knee > 0))
		return "seek_knee must be positive";
	if (!(p->bus_bandwidth > 0))
		return "bus_bandwidth must be positive";
	if (p->readahead_min > p->readahead_max)
		return "readahead_min must not exceed readahead_max";
	double avg = ((double)p->track_bytes_outer + (double)p->track_bytes_inner) / 2 * p->heads;
	if ((double)p->capacity / avg < p->zones)
		return "fewer cylinders than zones";
	return NULL;
}

static ncsim_time_t ps_up(double t)
{
	if (t <= 0)
		return 0;
	ncsim_time_t r = (ncsim_time_t)t;
	return (double)r < t ? r + 1 : r;
}

void sto_hdd_init(sto_hdd *d, const sto_hdd_params *p)
{
	memset(d, 0, sizeof *d);
	d->p = *p;
	d->nz = p->zones;
	d->t_rot = 60e12 / p->rpm;
	double avg_tb = ((double)p->track_bytes_outer + (double)p->track_bytes_inner) / 2;
	d->cylinders = (uint64_t)ceil((double)p->capacity / (avg_tb * p->heads));
	uint64_t byte = 0;
	for (uint32_t z = 0; z < d->nz; z++) {
		double f = d->nz > 1 ? (double)z / (d->nz - 1) : 0;
		double tb = (double)p->track_bytes_outer + f * ((double)p->track_bytes_inner - (double)p->track_bytes_outer);
		d->zone_tb[z] = (uint64_t)llround(tb);
		d->zone_cyl[z] = d->cylinders * z / d->nz;
		d->zone_byte[z] = byte;
		uint64_t ncyl = d->cylinders * (z + 1) / d->nz - d->zone_cyl[z];
		byte += ncyl * p->heads * d->zone_tb[z];
	}
	d->zone_cyl[d->nz] = d->cylinders;
	d->zone_byte[d->nz] = byte;
	d->geom_bytes = byte;
	d->ra_stop = NEVER;
}

void sto_hdd_fini(sto_hdd *d)
{
	if (!d)
		return;
	free(d->ring);
	d->ring = NULL;
	d->rcap = d->rcount = 0;
}

static uint32_t zone_of(const sto_hdd *d, uint64_t off)
{
	uint32_t z = 0;
	while (z + 1 < d->nz && d->zone_byte[z + 1] <= off)
		z++;
	return z;
}

uint64_t sto_hdd_cylinder(const sto_hdd *d, uint64_t off)
{
	off %= d->geom_bytes;
	uint32_t z = zone_of(d, off);
	return d->zone_cyl[z] + (off - d->zone_byte[z]) / ((uint64_t)d->p.heads * d->zone_tb[z]);
}

uint64_t sto_hdd_track_bytes(const sto_hdd *d, uint64_t off)
{
	return d->zone_tb[zone_of(d, off % d->geom_bytes)];
}

double sto_hdd_seek_time(const sto_hdd *d, double cyl)
{
	const sto_hdd_params *p = &d->p;
	if (cyl <= 0)
		return 0;
	if (cyl < p->seek_knee)
		return (double)p->seek_settle + (double)p->seek_sqrt * sqrt(cyl);
	/* c is chosen so that both regions meet at the knee. */
	double c = (double)p->seek_settle + (double)p->seek_sqrt * sqrt(p->seek_knee) - (double)p->seek_linear * p->seek_knee;
	return c + (double)p->seek_linear * cyl;
}

double sto_hdd_media_time(const sto_hdd *d, uint64_t off, uint64_t len)
{
	double t = 0;
	off %= d->geom_bytes;
	while (len > 0) {
		uint32_t z = zone_of(d, off);
		uint64_t piece = d->zone_byte[z + 1] - off;
		if (piece > len)
			piece = len;
		uint64_t rel = off - d->zone_byte[z], tb = d->zone_tb[z];
		/* Track ends reached in (rel, rel + piece]: a stream switches to the
		 * next track after each, including one that ends the request, since
		 * the drive keeps streaming into its read-ahead or the next destage. */
		uint64_t crossed = (rel + piece) / tb - rel / tb;
		t += (double)piece / (double)tb * d->t_rot + (double)crossed * (double)d->p.track_switch;
		off += piece;
		if (off >= d->geom_bytes)
			off = 0;
		len -= piece;
	}
	return t;
}

/* Bytes the head streams in `dt` ps from `pos` (one track per revolution plus a switch). */
static uint64_t stream_bytes(const sto_hdd *d, uint64_t pos, double dt)
{
	double tb = (double)sto_hdd_track_bytes(d, pos);
	return (uint64_t)(dt * tb / (d->t_rot + (double)d->p.track_switch));
}

/* Wait for the sector after the head's last position to come round again, `at` ps
 * after the head stopped there at `since`. */
static double gap_wait(const sto_hdd *d, ncsim_time_t since, double at)
{
	double w = fmod(at - (double)since, d->t_rot);
	return w > 0 ? d->t_rot - w : 0;
}

/* Positioning before a media access to `off` that starts at `start`. */
static double position(const sto_hdd *d, ncsim_time_t start, uint64_t off, double u)
{
	if (off == d->head_pos) {
		if (start == d->head_t)
			return 0; /* the head is streaming into this very sector */
		double at = (double)start + (double)d->p.overhead;
		return (double)d->p.overhead + gap_wait(d, d->head_t, at);
	}
	uint64_t c0 = sto_hdd_cylinder(d, d->head_pos), c1 = sto_hdd_cylinder(d, off);
	double dist = c0 > c1 ? (double)(c0 - c1) : (double)(c1 - c0);
	return (double)d->p.overhead + sto_hdd_seek_time(d, dist) + u * d->t_rot;
}

/*
 * Expected positioning of one destage when the drive orders its n dirty
 * extents, spread over `span` bytes, for the shortest access. With k extents
 * per track the nearest one is T_rot/(k+1) away in rotation (the minimum of k
 * uniform angles; k < 1 means the next one is on another track, T_rot/2);
 * successive extents are L/(n+2) cylinders apart on average (L/3 for n = 1,
 * L/n for large n) and a cylinder change happens only that often.
 */
static double destage_position(const sto_hdd *d, uint64_t off)
{
	double n = (double)d->rcount;
	double span = (double)(d->dirty_hi - d->dirty_lo);
	double tb = (double)sto_hdd_track_bytes(d, off);
	double tracks = span / tb < 1 ? 1 : span / tb;
	double k = n / tracks < 1 ? 1 : n / tracks;
	double rot = d->t_rot / (k + 1);
	double dc = span / (tb * d->p.heads) / (n + 2);
	double seek = dc < 1 ? dc * sto_hdd_seek_time(d, 1) : sto_hdd_seek_time(d, dc);
	return seek + rot;
}

static void stop_stream(sto_hdd *d, ncsim_time_t t)
{
	if (d->ra_valid && d->ra_stop > t)
		d->ra_stop = t;
}

/* Runs the oldest destage, starting at `start`. */
static void destage_one(sto_hdd *d, ncsim_time_t start)
{
	sto_hdd_extent e = d->ring[d->rhead];
	double pos;
	if (e.off == d->head_pos)
		pos = start == d->head_t ? 0 : gap_wait(d, d->head_t, (double)start);
	else
		pos = (double)d->p.overhead + destage_position(d, e.off);
	ncsim_time_t end = start + ps_up(pos + sto_hdd_media_time(d, e.off, e.len));
	stop_stream(d, start);
	d->head_pos = (e.off + e.len) % d->geom_bytes;
	d->head_t = end;
	d->mech_free = end;
	d->rhead = (d->rhead + 1) % d->rcap;
	d->rcount--;
	d->dirty -= e.len;
	if (d->rcount == 0)
		d->dirty_lo = d->dirty_hi = 0;
	d->st.destages++;
}

/* Replays background destaging while the arm is idle before `t`. */
static void destage_until(sto_hdd *d, ncsim_time_t t)
{
	while (d->rcount > 0 && d->mech_free < t)
		destage_one(d, d->mech_free);
}

static void ring_push(sto_hdd *d, uint64_t off, uint64_t len)
{
	if (d->rcount == d->rcap) {
		size_t ncap = d->rcap ? d->rcap * 2 : 64;
		sto_hdd_extent *n = xreallocarray(NULL, ncap, sizeof *n);
		for (size_t i = 0; i < d->rcount; i++)
			n[i] = d->ring[(d->rhead + i) % d->rcap];
		free(d->ring);
		d->ring = n;
		d->rcap = ncap;
		d->rhead = 0;
	}
	d->ring[(d->rhead + d->rcount) % d->rcap] = (sto_hdd_extent){ off, len };
	if (d->rcount == 0) {
		d->dirty_lo = off;
		d->dirty_hi = off + len;
	} else {
		if (off < d->dirty_lo)
			d->dirty_lo = off;
		if (off + len > d->dirty_hi)
			d->dirty_hi = off + len;
	}
	d->rcount++;
	d->dirty += len;
}

/* Upper end of the read-ahead cache at time t. */
static uint64_t ra_hi(const sto_hdd *d, ncsim_time_t t)
{
	ncsim_time_t tt = t < d->ra_stop ? t : d->ra_stop;
	if (tt <= d->ra_t)
		return d->ra_end;
	uint64_t n = stream_bytes(d, d->ra_end, (double)(tt - d->ra_t));
	if (n > d->p.readahead_max)
		n = d->p.readahead_max;
	return d->ra_end + n;
}

static ncsim_time_t bus_time(const sto_hdd *d, uint64_t len)
{
	return ps_up((double)len * 1e12 / d->p.bus_bandwidth);
}

/* After a media read ending at `done`, the stream starts at the new end. */
static void start_stream(sto_hdd *d, uint64_t off, uint64_t len, ncsim_time_t done)
{
	d->head_pos = (off + len) % d->geom_bytes;
	d->head_t = done;
	d->ra_valid = 1;
	d->ra_lo = off;
	d->ra_end = off + len;
	d->ra_t = done;
	d->ra_stop = NEVER;
	d->mech_free = done + ps_up(sto_hdd_media_time(d, d->ra_end, d->p.readahead_min));
}

static ncsim_time_t hdd_read(sto_hdd *d, ncsim_time_t s0, uint64_t off, uint64_t len, double u)
{
	if (d->ra_valid && off >= d->ra_lo) {
		uint64_t hi = ra_hi(d, s0);
		if (off + len <= hi) {
			d->st.ra_hits++;
			return s0 + bus_time(d, len);
		}
		if (off <= hi && d->ra_stop == NEVER) {
			/* The head is (or was until the segment filled) streaming here. */
			ncsim_time_t t0 = s0 > d->ra_t ? s0 : d->ra_t;
			ncsim_time_t t_cap = d->ra_t + ps_up(sto_hdd_media_time(d, d->ra_end, d->p.readahead_max));
			double wait = t0 > t_cap ? gap_wait(d, t_cap, (double)t0) : 0;
			ncsim_time_t done = t0 + ps_up(wait + sto_hdd_media_time(d, hi, off + len - hi));
			d->st.ra_partial++;
			start_stream(d, off, len, done);
			return done;
		}
	}
	ncsim_time_t start = s0 > d->mech_free ? s0 : d->mech_free;
	ncsim_time_t done = start + ps_up(position(d, start, off, u) + sto_hdd_media_time(d, off, len));
	d->st.read_misses++;
	start_stream(d, off, len, done);
	return done;
}

static ncsim_time_t hdd_write_through(sto_hdd *d, ncsim_time_t s0, uint64_t off, uint64_t len, double u)
{
	ncsim_time_t start = s0 > d->mech_free ? s0 : d->mech_free;
	ncsim_time_t done = start + ps_up(position(d, start, off, u) + sto_hdd_media_time(d, off, len));
	stop_stream(d, start);
	d->head_pos = (off + len) % d->geom_bytes;
	d->head_t = done;
	d->mech_free = done;
	d->st.write_through++;
	return done;
}

static ncsim_time_t hdd_write_back(sto_hdd *d, ncsim_time_t s0, uint64_t off, uint64_t len)
{
	ncsim_time_t t = s0;
	while (d->dirty + len > d->p.wcache_bytes) {
		destage_one(d, d->mech_free);
		if (d->mech_free > t)
			t = d->mech_free;
	}
	ring_push(d, off, len);
	d->st.wcache_writes++;
	return t + d->p.overhead + bus_time(d, len);
}

ncsim_time_t sto_hdd_access(sto_hdd *d, ncsim_time_t now, int is_write, uint64_t off, uint64_t len, double u)
{
	ncsim_time_t s0 = now > d->last_done ? now : d->last_done;
	off %= d->geom_bytes;
	if (len == 0)
		return s0;
	destage_until(d, s0);
	ncsim_time_t done;
	if (!is_write) {
		d->st.reads++;
		done = hdd_read(d, s0, off, len, u);
	} else {
		d->st.writes++;
		if (d->p.wcache_bytes >= len)
			done = hdd_write_back(d, s0, off, len);
		else
			done = hdd_write_through(d, s0, off, len, u);
	}
	d->last_done = done;
	return done;
}

ncsim_time_t sto_hdd_flush(sto_hdd *d, ncsim_time_t now)
{
	ncsim_time_t s0 = now > d->last_done ? now : d->last_done;
	destage_until(d, s0);
	while (d->rcount > 0)
		destage_one(d, d->mech_free > s0 ? d->mech_free : s0);
	return d->mech_free > s0 ? d->mech_free : s0;
}
