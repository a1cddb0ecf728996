/*
 * storage.h - the storage subsystem (prefix sto_): device models behind
 * storage managers, in one of three burst-buffer configurations, with I/O
 * data moved over the simulated network as its own traffic class (NET_CLASS_IO).
 *
 * Configurations ([storage] config = ..., see doc/storage.md):
 *   local         a burst buffer in every compute node; I/O never touches the network
 *   compute-side  burst-buffer nodes inside each group (default: the first
 *                 bb_per_group nodes of the group); a client uses the nearest
 *                 one: same router, else same group, else bb[client % nbb];
 *                 with bb_route = block, the k-th compute node uses server
 *                 k / (compute nodes / servers), in bb_nodes order (MFNetSim)
 *   storage-side  I/O server nodes (default: the last io_servers nodes), each
 *                 with an SSD and an HDD; a request below `threshold` goes to
 *                 the SSD, a larger one to the HDD; client c uses server c % n
 *
 * One request, network configurations (B = block_size, T = threads):
 *
 *   client node                               server node (manager entity)
 *   sto_submit --- header (control_bytes) --->  reserve space (write), or wait/fail
 *   write:   <--- RDMA read request, per block --
 *            ---- block data (<= B bytes) ----->  device write --+
 *   read:                                        device read ----+-> T blocks in flight
 *            <--- block data (RDMA write) -------                |
 *   <--------------- ack (control_bytes) ------- after the last block
 *   completion event (sto_completion) to req->notify
 *
 * The T blocks in flight behave as T server threads: a thread that sees its
 * block's device write (or, for a read, its block's delivery) complete takes
 * the next block not yet started, so a request of n blocks keeps min(T, n)
 * of them moving until the last ones. Block b sits at device address
 * base + b * B, where base comes from the file and offset (addressing = file)
 * or is 0 for every request (addressing = zero, as CODES' burst-buffer
 * servers write every request to object 0 from offset 0).
 *
 * Written blocks on a burst buffer are drained (device read, then the
 * analytic "storage area network": san_latency + bytes / san_bandwidth through
 * one FCFS port per server) and their space is released, which unblocks
 * writers waiting for space.
 *
 * Per-request descriptors live in a table owned by the sto_system: written once
 * by sto_submit, then read by the server's manager when the header arrives
 * (net_msg carries only two cookie words; a distributed kernel would ship the
 * descriptor inside the header message instead). Timing fields of a record are
 * statistics, never read back by the models.
 */
#ifndef NCSIM_STO_STORAGE_H
#define NCSIM_STO_STORAGE_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/kernel/sim.h"
#include "runtime/net/net.h"
#include "runtime/storage/busylog.h"
#include "runtime/storage/device.h"
#include "base/sysconf.h"

/*
 * Topology queries, filled in by the driver (for dragonfly: from
 * runtime/net/dragonfly.h). A NULL function means "each node is its own
 * router" (router_of) or "everything is one group" (group_of).
 */
typedef struct sto_topology {
	uint32_t nnodes;
	void *ctx;                                       /* passed back to the callbacks */
	uint32_t (*router_of)(void *ctx, uint32_t node);
	uint32_t (*group_of)(void *ctx, uint32_t node);
} sto_topology;

enum sto_config_kind { STO_CFG_LOCAL = 0, STO_CFG_COMPUTE, STO_CFG_STORAGE };
enum sto_op { STO_OP_READ = 1, STO_OP_WRITE = 2 };
/* Where a request was served (the `device` column of io.csv). */
enum sto_where { STO_AT_LOCAL = 0, STO_AT_SSD, STO_AT_HDD, STO_AT_LSM };
enum sto_status { STO_OK = 0, STO_ENOSPC = 1 };

/* One I/O request from the runtime's I/O client. */
typedef struct sto_request {
	uint32_t client_node;
	uint8_t op;            /* enum sto_op */
	uint32_t job;          /* job index (statistics, file placement) */
	int64_t file;          /* file number, shared by the tasks of a job */
	uint64_t offset;       /* byte offset in the file */
	uint64_t bytes;        /* 0 is allowed: a round trip with no data */
	sim_eid notify;        /* entity that receives the completion event */
	uint16_t notify_kind;  /* its handler index */
	uint64_t cookie;       /* returned in the completion */
} sto_request;

/* Payload of the completion event sent to req->notify. */
typedef struct sto_completion {
	uint64_t cookie;
	uint64_t bytes;
	ncsim_time_t issue_time;  /* sim_now() at sto_submit */
	ncsim_time_t net_time;    /* sum over its messages of (delivery - injection) */
	ncsim_time_t dev_time;    /* sum over its blocks of device queueing + service */
	int16_t status;           /* enum sto_status */
	uint8_t where;            /* enum sto_where */
	uint8_t op;               /* enum sto_op */
	uint32_t server;          /* node that served it */
} sto_completion;
SIM_PAYLOAD_CHECK(sto_completion);

/* Parsed [storage] section. */
typedef struct sto_config {
	enum sto_config_kind kind;
	char device[48];          /* local and compute-side device */
	char ssd_device[48];      /* storage-side devices */
	char hdd_device[48];
	uint64_t block_size;      /* pipeline block */
	uint32_t threads;         /* blocks in flight per request */
	int on_full_fail;         /* 1: fail a write that does not fit; 0: wait for drains */
	uint64_t control_bytes;   /* header, RDMA read request and ack messages */
	uint64_t threshold;       /* storage-side: below -> SSD, otherwise HDD */
	uint32_t bb_per_group;    /* compute-side default placement */
	int route_block;          /* compute-side: bb_route = block (else nearest) */
	uint32_t io_servers;      /* storage-side default placement */
	double san_bandwidth;     /* drain to external storage, bytes/s */
	ncsim_time_t san_latency;
	int drain;                /* drain burst-buffer SSDs */
	uint64_t file_stride;     /* device space between files (placement of offsets) */
	int addr_zero;            /* addressing = zero: every request starts at device address 0 */
	uint32_t *nodes;          /* explicit bb_nodes / io_nodes, or NULL */
	uint32_t nnodes_list;
} sto_config;

/* System-wide totals, for statistics and sto_check. */
typedef struct sto_totals {
	uint64_t submitted, completed, failed;
	uint64_t reads, writes;
	uint64_t bytes_read, bytes_written;  /* by completed, successful requests */
	uint64_t bytes_stored;               /* written to devices by managers */
	uint64_t bytes_drained;              /* moved to external storage */
	uint64_t net_msgs, net_bytes;        /* injected by the storage subsystem (all NET_CLASS_IO) */
	uint64_t space_waits;                /* writes that waited for space */
} sto_totals;

typedef struct sto_system sto_system;

/*
 * Parses [storage] of `sys` (NULL or no section: local burst buffers with the
 * d3-s4510 preset) and fills *cfg. Returns 0, or -1 with *err set.
 */
int sto_config_load(const sysconf_t *sys, sto_config *cfg, char **err);
/* Frees what sto_config_load allocated in cfg. */
void sto_config_fini(sto_config *cfg);

/*
 * Creates the subsystem and registers its entities in ctx (one client proxy
 * per node, one manager per storage node). `net` may be NULL only for the
 * local configuration; `topo` may be NULL (one group, a router per node);
 * `nnodes` is the machine size. Returns NULL with *err set on a bad system file.
 */
sto_system *sto_new(const sysconf_t *sys, net_model *net, const sto_topology *topo, uint32_t nnodes,
                    sim_ctx *ctx, char **err);
/* Frees the subsystem (its entities must not fire again). NULL is a no-op. */
void sto_free(sto_system *s);

/*
 * Starts an I/O request at sim_now(ctx); call from inside a handler (or before
 * sim_run). The completion arrives later as event req->notify_kind at
 * req->notify with a sto_completion payload. Returns 0, -1 if the request is
 * malformed (node out of range, bad op), or STO_ETIME if its device would take
 * it past 2^64 ps (nothing is started then).
 */
#define STO_ETIME (-2)
int sto_submit(sto_system *s, sim_ctx *ctx, const sto_request *req);

/* The configuration in use. */
const sto_config *sto_get_config(const sto_system *s);
/* Totals so far. */
const sto_totals *sto_get_totals(const sto_system *s);
/* 1 if `node` hosts a burst buffer or I/O server that jobs should not be placed on (never in local). */
int sto_is_storage_node(const sto_system *s, uint32_t node);
/* The server node a request of `bytes` from client `node` goes to, and where (enum sto_where). */
uint32_t sto_route(const sto_system *s, uint32_t node, uint64_t bytes, enum sto_where *where);
/* Number of storage servers (every node in the local configuration). */
uint32_t sto_server_count(const sto_system *s);
/* The device of server i (0 <= i < count); `which` 0 = main/SSD, 1 = HDD (storage-side). NULL if none. */
const sto_dev *sto_server_device(const sto_system *s, uint32_t i, int which);

/* Writes one io.csv row per request from now on (header at once); NULL stops. */
void sto_set_io_log(sto_system *s, FILE *out);
/*
 * Writes one device_busy.csv row per device operation from now on (header at
 * once), at most max rows, the later ones only counted; NULL stops.
 * Without it nothing is recorded (one test of a pointer per operation).
 */
void sto_set_busy_log(sto_system *s, FILE *out, uint64_t max);
/* The busy log's counts: rows written and operations left out (busylog.h). */
const sto_busylog *sto_get_busy_log(const sto_system *s);
/* Writes per-device totals as CSV (header included). Returns 0 or -1 on a write error. */
int sto_write_devices(const sto_system *s, FILE *out);
/*
 * End-of-run invariants: every request completed, bytes written by clients =
 * bytes stored on devices, space ledger = stored - drained, nothing waiting.
 * Returns 0, or -1 after describing each violation on `err` (or the message the
 * network refused, which stopped the run).
 */
int sto_check(const sto_system *s, FILE *err);

/*
 * A run over MPI ranks (sto_par.c): sto_owner gives every entity of s the
 * rank of its node; sto_par_attach splits the requests' records between
 * client and server ranks (0, or -1 with *err); after the run,
 * sto_par_finish sums every rank's counters into every rank's system, so
 * that sto_check and the writers see one run; sto_par_detach ends it.
 */
struct par_run;
void sto_owner(const sto_system *s, uint32_t (*rank_of)(void *ctx, uint32_t node), void *ctx, uint32_t *owner);
int sto_par_attach(sto_system *s, struct par_run *pr, char **err);
void sto_par_finish(sto_system *s);
void sto_par_detach(sto_system *s);
/*
 * io.csv and device_busy.csv in a run over ranks: every rank keeps its rows
 * (sto_par_logs, before the run; rank 0 also sets the files with
 * sto_set_io_log and sto_set_busy_log); after the run sto_par_io_merge,
 * on every rank, has rank 0 write them in the sequential order, io.csv's
 * ids numbered by the keys of the requests' submission events (io NULL on
 * the other ranks).
 */
void sto_par_logs(sto_system *s, const struct sim_ctx *ctx, uint64_t busy_max);
void sto_par_io_merge(sto_system *s, FILE *io);

#endif
