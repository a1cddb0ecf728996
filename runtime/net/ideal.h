/*
 * ideal.h - the ideal network (prefix ideal_): every message arrives the
 * moment it is injected. With the MPI costs also set to zero (netfactory does
 * it) a run gives the compute-only bound of a program.
 */
#ifndef NCSIM_NET_IDEAL_H
#define NCSIM_NET_IDEAL_H

#include "runtime/net/net.h"

/* Creates an ideal network of nnodes nodes. */
net_model *ideal_create(uint32_t nnodes);
/* 1 if m is an ideal network. */
int ideal_is(const net_model *m);

#endif
