/*
 * compute_model.c - the example plugin (see compute_model.h). Build it as a
 * shared library; it calls UNION_Compute, which ncsim itself provides when it
 * loads the library, so nothing is linked:
 *
 *   cc -shared -fPIC $(pkg-config --cflags ncsim) -o compute_model.so compute_model.c
 *
 * (make check builds it with libtool, see engine/ffi.mk.)
 */
#include "compute_model.h"

#include <ncsim/union.h>

static long ncalls;

double cm_time_ns(double bytes, int passes)
{
	return passes * (CM_PASS_OVERHEAD_NS + bytes / CM_BYTES_PER_NS);
}

void cm_compute(double bytes, int passes)
{
	ncalls++;
	UNION_Compute(cm_time_ns(bytes, passes));
}

long cm_calls(void) { return ncalls; }
