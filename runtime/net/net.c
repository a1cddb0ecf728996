/*
 * net.c - helpers shared by every network model (see net.h).
 */
#include "runtime/net/net.h"

const char *net_class_name(enum net_class c)
{
	static const char *const names[NET_NCLASSES] = {
		[NET_CLASS_MPI] = "mpi",     [NET_CLASS_CTRL] = "ctrl",       [NET_CLASS_IO] = "io",
		[NET_CLASS_DCNW] = "dcnw",   [NET_CLASS_FLOWS] = "flows",     [NET_CLASS_HOROVOD] = "horovod",
		[NET_CLASS_SYNTH] = "synth",
	};
	return (unsigned)c < NET_NCLASSES ? names[c] : "unknown";
}

const char *net_refusal_text(int rc)
{
	return rc == NET_ETIME ? "would end past 2^64 ps, the end of simulated time (about 213 days)"
	                       : "was refused by the network (a node outside it)";
}

void net_send_sent(sim_ctx *ctx, sim_eid to, uint16_t kind, ncsim_time_t delay, uint64_t cookie, uint64_t cookie2,
                   uint64_t bytes, uint32_t src, uint32_t dst, uint8_t tclass)
{
	net_delivery d = {
		.cookie = cookie, .cookie2 = cookie2, .bytes = bytes, .src_node = src, .dst_node = dst,
		.inject_time = sim_now(ctx), .tclass = tclass, .sent = 1,
	};
	sim_send(ctx, to, delay, kind, &d, sizeof d);
}
