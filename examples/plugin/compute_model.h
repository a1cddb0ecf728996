/*
 * compute_model.h - an example plugin for ncsim's direct engine: a compute
 * model that a coNCePTuaL program calls from BACKEND EXECUTES.
 *
 *   ncsim run --engine direct --allow-backend-code \
 *       --plugin compute_model.so --plugin-header compute_model.h plugin.ncptl
 *
 * The engine reads this header for the prototypes (simple C declarations:
 * integers, doubles, pointers) and the macro constants its arguments may use.
 */
#ifndef COMPUTE_MODEL_H
#define COMPUTE_MODEL_H

/* The modelled processing rate in bytes per nanosecond, and the cost of one pass. */
#define CM_BYTES_PER_NS 4
#define CM_PASS_OVERHEAD_NS 1000

/* Nanoseconds to process `bytes` bytes `passes` times: passes * (overhead + bytes / rate). */
double cm_time_ns(double bytes, int passes);
/* Keeps the calling task busy for cm_time_ns(bytes, passes) through UNION_Compute. */
void cm_compute(double bytes, int passes);
/* How many times cm_compute ran in this process (all tasks). */
long cm_calls(void);

#endif
