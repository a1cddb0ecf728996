/*
 * lsm.c - FIFO disk with a per-operation overhead and a flat seek; the
 * formulas are in lsm.h.
 */
#include "runtime/storage/lsm.h"

#include "base/checked.h"

void sto_lsm_defaults(sto_lsm_params *p)
{
	p->seek_window = 512;
}

const char *sto_lsm_validate(const sto_lsm_params *p)
{
	if (!(p->bandwidth > 0))
		return "bandwidth must be positive";
	if (p->capacity == 0)
		return "capacity must be positive";
	return NULL;
}

void sto_lsm_init(sto_lsm *d, const sto_lsm_params *p)
{
	*d = (sto_lsm){ .p = *p };
}

int sto_lsm_contiguous(const sto_lsm *d, uint64_t off)
{
	/* Written as a difference so that prev_end + seek_window cannot wrap. */
	return off >= d->prev_end && off - d->prev_end <= d->p.seek_window;
}

ncsim_time_t sto_lsm_service(const sto_lsm *d, uint64_t off, uint64_t len)
{
	ncsim_time_t t = ck_sat_add(ck_xfer_ps(len, d->p.bandwidth), d->p.overhead);
	return sto_lsm_contiguous(d, off) ? t : ck_sat_add(t, d->p.seek);
}

ncsim_time_t sto_lsm_access(sto_lsm *d, ncsim_time_t now, uint64_t off, uint64_t len)
{
	ncsim_time_t start = now > d->busy_until ? now : d->busy_until;
	d->seeks += !sto_lsm_contiguous(d, off);
	d->ops++;
	d->busy_until = ck_sat_add(start, sto_lsm_service(d, off, len));
	d->prev_end = off + len;
	return d->busy_until;
}
