/*
 * test_ssd.c - the Yoo et al. SSD model against hand-computed values, FCFS
 * queueing of back-to-back requests, and the preset's fit points.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>

#include "runtime/storage/device.h"
#include "base/util.h"
#include "tests/unit/unit.h"

#define US 1000000ull /* ps */

/* page 4 KiB, 2 channels x 2 ways (rho = 4), W_ch 10 us, R_ch 5 us, W_page 100 us, R_page 50 us */
static sto_ssd_params small(void)
{
	return (sto_ssd_params){ .page_bytes = 4096, .channels = 2, .ways = 2, .w_ch = 10 * US, .r_ch = 5 * US,
	                         .w_page = 100 * US, .r_page = 50 * US, .capacity = 1ull << 30 };
}

static void test_write_formula(void)
{
	sto_ssd_params p = small();
	/* 40960 B: N_page = 10, N_cycle = ceil(10/4) = 3, T_wait = max(0, 100 - 10*4) = 60
	 * T_w = 10*(10-1) + 60*(3-1) + 100 = 90 + 120 + 100 = 310 us */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 40960), 310 * US);
	/* one page: T_w = W_page */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 4096), 100 * US);
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 1), 100 * US);
	/* 4097 B: 2 pages, 1 cycle: 10*1 + 0 + 100 = 110 us */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 4097), 110 * US);
	/* 16384 B: 4 pages, 1 cycle: 10*3 + 60*0 + 100 = 130 us */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 16384), 130 * US);
	/* 20480 B: 5 pages, 2 cycles: 10*4 + 60*1 + 100 = 200 us */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 20480), 200 * US);
	/* W_ch = 30 us: 30*4 = 120 >= 100, T_wait = 0: 40960 B -> 30*9 + 0 + 100 = 370 us */
	p.w_ch = 30 * US;
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 40960), 370 * US);
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p, 0), 0);
}

static void test_read_formula(void)
{
	sto_ssd_params p = small();
	/* 40960 B: T_r = R_ch*(10-1) + R_page = 45 + 50 = 95 us */
	CU_ASSERT_EQUAL(sto_ssd_read_time(&p, 40960), 95 * US);
	/* one page: R_page */
	CU_ASSERT_EQUAL(sto_ssd_read_time(&p, 100), 50 * US);
	/* 1 MiB = 256 pages: 5*255 + 50 = 1325 us; reads do not depend on rho */
	CU_ASSERT_EQUAL(sto_ssd_read_time(&p, 1 << 20), 1325 * US);
	p.ways = 8;
	CU_ASSERT_EQUAL(sto_ssd_read_time(&p, 1 << 20), 1325 * US);
	CU_ASSERT_EQUAL(sto_ssd_read_time(&p, 0), 0);
}

static void test_fcfs(void)
{
	sto_ssd_params p = small();
	sto_ssd d;
	sto_ssd_init(&d, &p);
	/* two 40960 B writes arriving together: 0 -> 310, then 310 -> 620 */
	CU_ASSERT_EQUAL(sto_ssd_access(&d, 0, 1, 40960), 310 * US);
	CU_ASSERT_EQUAL(sto_ssd_access(&d, 0, 1, 40960), 620 * US);
	/* a read arriving at 700 (device idle): 700 + 50 = 750 */
	CU_ASSERT_EQUAL(sto_ssd_access(&d, 700 * US, 0, 4096), 750 * US);
	/* a read arriving at 740 waits until 750: 750 + 50 = 800 */
	CU_ASSERT_EQUAL(sto_ssd_access(&d, 740 * US, 0, 4096), 800 * US);
}

static void test_preset(void)
{
	sto_dev_params dp;
	char *err = NULL;
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(NULL, "d3-s4510", &dp, &err), 0);
	CU_ASSERT_EQUAL(dp.kind, STO_DEV_SSD);
	/* random 4 KiB: one 16 KiB page: T_r = R_page = 112.28 us, T_w = W_page = 72.61 us */
	CU_ASSERT_EQUAL(sto_ssd_read_time(&dp.ssd, 4096), 112280000ull);
	CU_ASSERT_EQUAL(sto_ssd_write_time(&dp.ssd, 4096), 72610000ull);
	/* 512 KiB: 32 pages, rho = 32, one cycle: T_r = 31*37.76 + 112.28 = 1282.84 us,
	 * T_w = 31*42.29 + 0 + 72.61 = 1383.60 us */
	CU_ASSERT_EQUAL(sto_ssd_read_time(&dp.ssd, 512 << 10), 1282840000ull);
	CU_ASSERT_EQUAL(sto_ssd_write_time(&dp.ssd, 512 << 10), 1383600000ull);
}

static void test_config(void)
{
	char *err = NULL;
	sysconf_t *c = sysconf_parse("t.conf",
	                           "[ssd.mine]\nbase = d3-s4510\nways = 1\nchannels = 2\npage_write_time = 200 us\n"
	                           "[ssd.broken]\nbase = d3-s4510\nchannels = 0\n"
	                           "[ssd.d3-s4510]\nbase = d3-s4510\ncapacity = 1 TB\n",
	                           &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	sto_dev_params p;
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(c, "mine", &p, &err), 0);
	/* rho = 2: 512 KiB = 32 pages, 16 cycles, T_wait = 200 - 42.29*2 = 115.42 us
	 * T_w = 31*42.29 + 15*115.42 + 200 = 1310.99 + 1731.3 + 200 = 3242.29 us */
	CU_ASSERT_EQUAL(sto_ssd_write_time(&p.ssd, 512 << 10), 3242290000ull);
	CU_ASSERT_EQUAL(p.ssd.page_bytes, 16384);
	CU_ASSERT_EQUAL(sto_dev_params_load(c, "broken", &p, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(err);
	free(err);
	err = NULL;
	/* a system-file section may refine the preset of the same name */
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(c, "d3-s4510", &p, &err), 0);
	CU_ASSERT_EQUAL(p.ssd.capacity, 1000000000000ull);
	CU_ASSERT_EQUAL(p.ssd.r_page, 112280000ull);
	CU_ASSERT_EQUAL(sto_dev_params_load(c, "nosuch", &p, &err), -1);
	free(err);
	sysconf_free(c);
	/* space ledger */
	sto_dev d;
	CU_ASSERT_EQUAL_FATAL(sto_dev_params_load(NULL, "d3-s4510", &p, &err), 0);
	p.ssd.capacity = 1000;
	sto_dev_init(&d, &p);
	CU_ASSERT_EQUAL(sto_dev_reserve(&d, 600), 0);
	CU_ASSERT_EQUAL(sto_dev_reserve(&d, 500), -1);
	CU_ASSERT_EQUAL(d.used, 600);
	sto_dev_release(&d, 200);
	CU_ASSERT_EQUAL(sto_dev_reserve(&d, 500), 0);
	CU_ASSERT_EQUAL(d.used, 900);
	sto_dev_fini(&d);
}

int main(void)
{
	static const ut_test tests[] = {
		{"write time T_w", test_write_formula},
		{"read time T_r", test_read_formula},
		{"FCFS queueing", test_fcfs},
		{"d3-s4510 preset fit points", test_preset},
		{"system-file devices and the space ledger", test_config},
		{NULL, NULL},
	};
	return ut_run("ssd", tests);
}
