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
