/*
 * busylog.c - device_busy.csv, one row per device operation (see busylog.h).
 */
#include "runtime/storage/busylog.h"

#include <inttypes.h>

void sto_busylog_row(sto_busylog *l, uint32_t device, uint32_t node, const char *cls, enum sto_busy_op op,
                     ncsim_time_t start, ncsim_time_t end, uint64_t bytes)
{
	static const char *const ops[] = {[STO_BUSY_READ] = "read", [STO_BUSY_WRITE] = "write",
	                                  [STO_BUSY_DRAIN] = "drain"};
	pln_log_row(l, "%" PRIu32 ",%" PRIu32 ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64, device, node, cls, ops[op], start,
	            end, bytes);
}
