/*
 * ssd.c - analytical SSD model (Yoo et al.); formulas in ssd.h.
 */
#include "runtime/storage/ssd.h"

#include "base/checked.h"

const char *sto_ssd_validate(const sto_ssd_params *p)
{
	if (p->page_bytes == 0)
		return "page_size must be positive";
	if (p->channels == 0 || p->ways == 0)
		return "channels and ways must be positive";
	if (p->capacity == 0)
		return "capacity must be positive";
	if (p->w_page == 0 || p->r_page == 0)
		return "page latencies must be positive";
	return NULL;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

ncsim_time_t sto_ssd_write_time(const sto_ssd_params *p, uint64_t bytes)
{
	if (bytes == 0)
		return 0;
	uint64_t rho = (uint64_t)p->channels * p->ways;
	uint64_t npage = ceil_div(bytes, p->page_bytes);
	uint64_t ncycle = ceil_div(npage, rho);
	/* The bus time of one full cycle (W_ch * rho) hides that much of the
	 * program latency; only the remainder stalls each later cycle. */
	uint64_t hidden = ck_sat_mul(p->w_ch, rho);
	ncsim_time_t twait = p->w_page > hidden ? p->w_page - hidden : 0;
	return ck_sat_add(ck_sat_add(ck_sat_mul(p->w_ch, npage - 1), ck_sat_mul(twait, ncycle - 1)), p->w_page);
}

ncsim_time_t sto_ssd_read_time(const sto_ssd_params *p, uint64_t bytes)
{
	if (bytes == 0)
		return 0;
	uint64_t npage = ceil_div(bytes, p->page_bytes);
	return ck_sat_add(ck_sat_mul(p->r_ch, npage - 1), p->r_page);
}

void sto_ssd_init(sto_ssd *d, const sto_ssd_params *p)
{
	d->p = *p;
	d->busy_until = 0;
}

ncsim_time_t sto_ssd_access(sto_ssd *d, ncsim_time_t now, int is_write, uint64_t bytes)
{
	ncsim_time_t start = now > d->busy_until ? now : d->busy_until;
	ncsim_time_t svc = is_write ? sto_ssd_write_time(&d->p, bytes) : sto_ssd_read_time(&d->p, bytes);
	d->busy_until = start + svc;
	return d->busy_until;
}
