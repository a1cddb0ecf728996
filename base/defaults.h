/*
 * defaults.h - the physical defaults of ncsim's model machine that more than
 * one place states, each written once.
 *
 * The built-in default system (runtime/task/driver.c) spells them out as
 * system-file text, and the models fall back on them when a system file
 * leaves a key out; both read these macros, so they cannot drift apart.
 * Each is a plain number in the unit its name gives, so that DEF_STR()
 * makes system-file text of it ("11.20 GB/s"). Defaults that only one
 * model knows stay with that model (mp_params_default, an_params_default).
 */
#ifndef NCSIM_DEFAULTS_H
#define NCSIM_DEFAULTS_H

/* The text of a macro's value: DEF_STR(DEF_MEM_BW_GBS) is "11.20". */
#define DEF_STR(x) DEF_STR_(x)
#define DEF_STR_(x) #x

/* [node] memory_bandwidth, GB/s: memory copies (the Omni-Path calibration of OpenMPI). */
#define DEF_MEM_BW_GBS 11.20
/*
 * [node] shm_latency, ns, and shm_bandwidth, GB/s: a message between two tasks
 * of one node (doc/system-file.md). A shared-memory hand-off is a few
 * cache-line transfers between cores (tens of ns inside a socket, about
 * 200 ns across sockets); with the MPI call costs on both sides, a 0-byte
 * osu_latency inside a Xeon-class node comes out near the 0.2-0.5 us that
 * shared-memory MPI transports show there, and large messages near the
 * 10-20 GB/s of single-copy (CMA, XPMEM) transfers. Starting points for
 * calibration, not measurements of one machine.
 */
#define DEF_SHM_LAT_NS 200
#define DEF_SHM_BW_GBS 10

/* [network] dragonfly shape: 9 groups x 4 routers x 2 nodes, 2 global links per router (72 nodes). */
#define DEF_DF_GROUPS 9
#define DEF_DF_ROUTERS 4
#define DEF_DF_NODES 2
#define DEF_DF_GLOBALS 2
/* Dragonfly link bandwidths, GiB/s. */
#define DEF_DF_TERMINAL_GIBS 16
#define DEF_DF_LOCAL_GIBS 5.25
#define DEF_DF_GLOBAL_GIBS 4.7
/* Dragonfly link latencies, ns: ~2 m of copper, a backplane, ~20 m of optical fibre. */
#define DEF_DF_TERMINAL_NS 10
#define DEF_DF_LOCAL_NS 10
#define DEF_DF_GLOBAL_NS 100
/* Dragonfly router delay, ns (as in CODES). */
#define DEF_DF_ROUTER_NS 100
/* Dragonfly packet (KiB) and flow-control chunk (bytes). */
#define DEF_DF_PACKET_KIB 4
#define DEF_DF_CHUNK_B 64

#endif
