/*
 * test_hdd.c - the HDD model against hand-computed values: geometry, seek
 * curve, transfer with track switches, positioning, FCFS queueing of
 * back-to-back requests, read-ahead hits and partial hits, and the
 * write-back cache.
 *
 * The test disk: 6000 rpm (T_rot = 10 ms), 2 heads, 2 zones, 1000 cylinders.
 * Zone 0 = cylinders 0..499, 100000 B per track, 200000 B per cylinder,
 * bytes [0, 100e6); zone 1 = cylinders 500..999, 50000 B per track, bytes
 * [100e6, 150e6). Track switch 1 ms. Seek: a = 2 ms, b = 0.5 ms, knee 100,
 * e = 0.01 ms per cylinder, so c = 2 + 0.5*sqrt(100) - 0.01*100 = 6 ms.
 * Overhead 0.5 ms, bus 1e8 B/s (10000 B = 0.1 ms), read-ahead 10000..100000 B.
 */
#include <CUnit/Basic.h>
#include <math.h>
#include <stdlib.h>

#include "runtime/storage/hdd.h"
#include "tests/unit/unit.h"

#define MS 1e9 /* ps */

static sto_hdd_params params(uint64_t wcache)
{
	return (sto_hdd_params){
		.rpm = 6000, .heads = 2, .zones = 2, .capacity = 150000000, .track_bytes_outer = 100000,
		.track_bytes_inner = 50000, .track_switch = (ncsim_time_t)(1 * MS), .seek_settle = (ncsim_time_t)(2 * MS),
		.seek_sqrt = (ncsim_time_t)(0.5 * MS), .seek_knee = 100, .seek_linear = (ncsim_time_t)(0.01 * MS),
		.overhead = (ncsim_time_t)(0.5 * MS), .bus_bandwidth = 1e8, .readahead_min = 10000,
		.readahead_max = 100000, .wcache_bytes = wcache,
	};
}

/* Times are summed in double and rounded up to the picosecond once or twice. */
#define NEAR(t, ms) CU_ASSERT(fabs((double)(t) - (ms) * MS) <= 3.0)

static void test_geometry(void)
{
	sto_hdd_params p = params(0);
	CU_ASSERT_PTR_NULL(sto_hdd_validate(&p));
	sto_hdd d;
	sto_hdd_init(&d, &p);
	/* cylinders = ceil(150e6 / (2 * (100000 + 50000) / 2)) = 1000 */
	CU_ASSERT_EQUAL(d.cylinders, 1000);
	CU_ASSERT_EQUAL(d.geom_bytes, 150000000);
	CU_ASSERT_EQUAL(sto_hdd_cylinder(&d, 0), 0);
	CU_ASSERT_EQUAL(sto_hdd_cylinder(&d, 199999), 0);
	CU_ASSERT_EQUAL(sto_hdd_cylinder(&d, 200000), 1);
	CU_ASSERT_EQUAL(sto_hdd_cylinder(&d, 100000000), 500);
	CU_ASSERT_EQUAL(sto_hdd_cylinder(&d, 100100000), 501);   /* 100000 B per cylinder in zone 1 */
	CU_ASSERT_EQUAL(sto_hdd_track_bytes(&d, 100000000), 50000);
	sto_hdd_fini(&d);
	p.zones = 0;
	CU_ASSERT_PTR_NOT_NULL(sto_hdd_validate(&p));
}

static void test_seek_transfer(void)
{
	sto_hdd_params p = params(0);
	sto_hdd d;
	sto_hdd_init(&d, &p);
	CU_ASSERT_EQUAL(sto_hdd_seek_time(&d, 0), 0);
	NEAR(sto_hdd_seek_time(&d, 25), 2 + 0.5 * 5);        /* a + b*sqrt(25) = 4.5 ms */
	NEAR(sto_hdd_seek_time(&d, 100), 6 + 0.01 * 100);     /* at the knee: 7 ms = 2 + 0.5*10 */
	NEAR(sto_hdd_seek_time(&d, 400), 6 + 0.01 * 400);     /* linear: 10 ms */
	/* half a track: 0.5 * 10 ms, no track end reached */
	NEAR(sto_hdd_media_time(&d, 0, 50000), 5);
	/* [50000, 150000): one track of data + one switch at 100000 = 11 ms */
	NEAR(sto_hdd_media_time(&d, 50000, 100000), 11);
	/* a whole track also ends on a switch (the stream moves on) */
	NEAR(sto_hdd_media_time(&d, 0, 100000), 11);
	/* zone 1 tracks hold 50000 B: 25000 B = 5 ms */
	NEAR(sto_hdd_media_time(&d, 100000000, 25000), 5);
	/* across zones: 50000 B of zone 0 (5 ms + switch) + 50000 B of zone 1 (10 ms + switch) */
	NEAR(sto_hdd_media_time(&d, 100000000 - 50000, 100000), 5 + 1 + 10 + 1);
	sto_hdd_fini(&d);
}

/*
 * A fresh disk (no write cache) serving request A: a read miss at time 0 of
 * 10000 B at 2e6 (cylinder 10), u = 0.5: 0.5 overhead + seek(10) = 2 +
 * 0.5*sqrt(10), 0.5*10 rotation and 1 transfer. Returns A's end (ms).
 */
static double first_miss(sto_hdd *d)
{
	sto_hdd_params p = params(0);
	sto_hdd_init(d, &p);
	double a = 0.5 + 2 + 0.5 * sqrt(10) + 5 + 1;
	NEAR(sto_hdd_access(d, 0, 0, 2000000, 10000, 0.5), a);
	CU_ASSERT_EQUAL(d->st.read_misses, 1);
	return a;
}

static void test_readahead_and_queue(void)
{
	sto_hdd d;
	first_miss(&d); /* A ends at a = 8.5 + 0.5 sqrt(10) = 10.081 ms */
	/* B at 12 ms, [2010000, 2015000): the stream has read (12 - a) ms * 100000 B / 11 ms
	 * = 17444 B past 2010000 -> full hit, bus only: 12 + 5000/1e8 s = 12.05 ms */
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(12 * MS), 0, 2010000, 5000, 0.9), 12.05);
	CU_ASSERT_EQUAL(d.st.ra_hits, 1);
	/* C at 13 ms, [2020000, 2040000): cached up to 2010000 + floor((13 - a) * 100000 / 11)
	 * = 2036535; the 3465 B rest stream in 0.3465 ms -> 13.3465 ms */
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(13 * MS), 0, 2020000, 20000, 0.9), 13 + (3465.0 / 100000) * 10);
	CU_ASSERT_EQUAL(d.st.ra_partial, 1);
	/* D at 14 ms: miss at 100e6 (cylinder 500), 50000 B (one zone-1 track: 10 ms + switch).
	 * The arm first finishes the minimum read-ahead: 13.3465 + 10000 B (1 ms) = 14.3465,
	 * then 0.5 overhead + seek(490) = 6 + 4.9 + 0.25*10 rotation + 11 -> 39.2465 ms */
	double dd = 13.3465 + 1 + 0.5 + (6 + 4.9) + 2.5 + 11;
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(14 * MS), 0, 100000000, 50000, 0.25), dd);
	/* E at 15 ms queues behind D (FCFS) and continues its stream: 25000 B in zone 1 = 5 ms */
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(15 * MS), 0, 100050000, 25000, 0.9), dd + 5);
	CU_ASSERT_EQUAL(d.st.ra_partial, 2);
	sto_hdd_fini(&d);
}

static void test_back_to_back(void)
{
	sto_hdd d;
	double a = first_miss(&d);
	/* second request also at 0: waits for A and its 1 ms minimum read-ahead, then
	 * 0.5 + seek(200 - 10 = 190) = 6 + 1.9, u = 0 -> no rotation, 1 ms transfer */
	NEAR(sto_hdd_access(&d, 0, 0, 40000000, 10000, 0.0), a + 1 + 0.5 + 7.9 + 1);
	CU_ASSERT_EQUAL(d.st.read_misses, 2);
	sto_hdd_fini(&d);
	/* sequential writes (write-through): no positioning while the head streams */
	sto_hdd_params p = params(0);
	sto_hdd_init(&d, &p);
	NEAR(sto_hdd_access(&d, 0, 1, 0, 100000, 0.7), 11);
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(11 * MS), 1, 100000, 100000, 0.7), 22);
	/* after an idle gap the sector comes round again: at 25 + 0.5 overhead the platter
	 * is 3.5 ms past it, so wait 6.5 ms; then 5 ms of data -> 25 + 0.5 + 6.5 + 5 = 37 */
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(25 * MS), 1, 200000, 50000, 0.7), 37);
	CU_ASSERT_EQUAL(d.st.write_through, 3);
	sto_hdd_fini(&d);
}

static void test_write_back(void)
{
	sto_hdd_params p = params(100000);
	sto_hdd d;
	sto_hdd_init(&d, &p);
	/* W1: into the cache: 0.5 overhead + 50000 B / 1e8 = 0.5 ms -> 1 ms */
	NEAR(sto_hdd_access(&d, 0, 1, 0, 50000, 0.5), 1);
	/* W2 at 0 queues until 1 ms. Meanwhile W1 destages from 0: it starts where the head
	 * is, so 5 ms of transfer only (arm busy until 5 ms). W2 fits: 1 + 0.5 + 0.5 = 2 ms */
	NEAR(sto_hdd_access(&d, 0, 1, 60000000, 50000, 0.5), 2);
	CU_ASSERT_EQUAL(d.st.destages, 1);
	/* W3 at 2 ms, 60000 B: 50000 + 60000 > 100000, so W2 must destage first, at 5 ms.
	 * n = 1 extent over a span of 50000 B (< 1 track, k = 1): rotation T_rot/2 = 5 ms,
	 * seek 50000/200000 cylinders / (n + 2) = 1/12 of seek(1) = 2.5/12 ms; overhead 0.5;
	 * transfer 5 ms -> ends 5 + 0.5 + 2.5/12 + 5 + 5. Ack: + 0.5 + 0.6 */
	double w2end = 5 + 0.5 + 2.5 / 12 + 5 + 5;
	NEAR(sto_hdd_access(&d, (ncsim_time_t)(2 * MS), 1, 20000000, 60000, 0.5), w2end + 0.5 + 0.6);
	CU_ASSERT_EQUAL(d.st.destages, 2);
	CU_ASSERT_EQUAL(d.dirty, 60000);
	/* flush: W3 (span 60000 B: seek 0.1 * 2.5 ms, rotation 5 ms) + 0.5 + 6 ms transfer */
	NEAR(sto_hdd_flush(&d, (ncsim_time_t)(17 * MS)), w2end + 0.5 + 0.25 + 5 + 6);
	CU_ASSERT_EQUAL(d.dirty, 0);
	CU_ASSERT_EQUAL(d.st.wcache_writes, 3);
	/* a write larger than the cache goes straight to the media */
	sto_hdd_access(&d, (ncsim_time_t)(100 * MS), 1, 0, 200000, 0.5);
	CU_ASSERT_EQUAL(d.st.write_through, 1);
	sto_hdd_fini(&d);
}

int main(void)
{
	static const ut_test tests[] = {
		{"zoned geometry", test_geometry},
		{"seek curve and transfer", test_seek_transfer},
		{"read-ahead hits, partial hits, FCFS", test_readahead_and_queue},
		{"back-to-back misses, sequential writes", test_back_to_back},
		{"write-back cache", test_write_back},
		{NULL, NULL},
	};
	return ut_run("hdd", tests);
}
