/*
 * storage_int.h - the storage subsystem's records and entities, shared by
 * storage.c and sto_par.c (the parallel run's part). Internal to
 * runtime/storage.
 */
#ifndef NCSIM_STO_STORAGE_INT_H
#define NCSIM_STO_STORAGE_INT_H

#include "runtime/storage/storage.h"
#include "base/util.h"

/* Event kinds of a manager. */
enum { SRV_REQ, SRV_DATA_IN, SRV_DEV_DONE, SRV_DATA_OUT, SRV_DRAIN_READ, SRV_DRAIN_DONE, SRV_NKINDS };
/* Event kinds of a client proxy. */
enum { CLI_RDMA_READ, CLI_ACK, CLI_DATA, CLI_NKINDS };

typedef struct rec {
	sto_request req;
	uint64_t seq;                 /* submission number (io.csv id) */
	uint32_t server;              /* index into servers */
	uint8_t dev;                  /* device index within the server */
	uint8_t where;                /* enum sto_where */
	int16_t status;
	uint64_t lba;                 /* device address of the request's first byte */
	uint64_t nblocks, next_block, blocks_done;
	uint32_t inflight;
	uint8_t xr;                   /* enum stp_xr: where this copy stands in a run over ranks (sto_par.c) */
	ncsim_time_t issue, net_time, dev_time;
} rec;

typedef struct server {
	sto_system *sys;
	uint32_t node, index;
	sim_eid self;
	uint32_t ndev;
	uint32_t first_dev;              /* storage.csv row of dev[0] (device_busy.csv's device) */
	sto_dev *dev[2];
	int drain[2];                    /* drain this device to external storage */
	uint64_t stored[2], drained[2];  /* bytes */
	uint64_t pending_drains[2];
	ncsim_time_t san_free;           /* the drain port is busy until then */
	VEC(uint32_t) waitq[2];          /* writes waiting for space, FIFO from wq_head */
	size_t wq_head[2];
} server;

typedef struct client {
	sto_system *sys;
	uint32_t node;
	sim_eid self;
} client;

struct sto_system {
	sto_config cfg;
	net_model *net;
	uint32_t nnodes, nservers;
	server *servers;
	client *clients;
	uint32_t *route;          /* client node -> server index */
	int32_t *server_of_node;  /* node -> server index, -1 if none */
	VEC(rec) recs;
	VEC(uint32_t) free_ids;
	sto_totals tot;
	FILE *io_log;
	sto_busylog busy;         /* device_busy.csv (pln_log_on: written) */
	/* io.csv in a run over ranks (sto_par.c): rows kept with their events' keys, and the submissions' keys */
	const sim_ctx *io_keyed;
	pln_lines io_rows;
	VEC(sim_key) io_subs;     /* keys of this rank's submissions, in its order (io.csv's id is the place in the run's) */
	char *fault;              /* first message the network refused (the run stopped there), or NULL */
	struct sto_par *par;      /* a run over MPI ranks (sto_par.c), or NULL */
};

/* A free slot of s->recs (LIFO reuse). */
uint32_t sto_rec_alloc(sto_system *s);
/* Slot id is free again. */
void sto_rec_free(sto_system *s, uint32_t id);

/*
 * A run over MPI ranks (sto_par.c). A request whose client and server live
 * on different ranks has its record on both: the client's copy (home) from
 * sto_submit, the server's (mirror) from a copy sent with the request's
 * header; the server's part of the timing, its device time and the status
 * come back with the ack. Each side frees its own copy.
 */
enum stp_xr { STP_LOCAL = 0, STP_HOME, STP_MIRROR };
/* The request's record was just filled on the client's rank: a home copy if its server is elsewhere. */
void stp_submitted(sto_system *s, uint32_t id);
/*
 * The cookie of a message of request id to entity `to` (event kind `kind`),
 * posting the record to to's rank when the message is the header (SRV_REQ)
 * or the ack (CLI_ACK) and crosses ranks.
 */
uint64_t stp_cookie(sto_system *s, uint32_t id, sim_eid to, int kind);
/* The record slot of a cookie. */
uint32_t stp_local(const sto_system *s, uint64_t cookie);
/* Forgets the key of slot id, which is being freed. */
void stp_forget(sto_system *s, uint32_t id);
/* Keeps the key of the event submitting the next request (io.csv over ranks). */
void stp_submission(sto_system *s, const sim_ctx *ctx);

#endif
