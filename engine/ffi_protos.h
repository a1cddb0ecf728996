/*
 * ffi_protos.h - the prototype table of include/ncsim's headers (prefix
 * eng_proto), written into engine/protos.c at build time by
 * engine/gen_protos: the functions BACKEND EXECUTES may name in ncsim itself,
 * the macro constants its arguments may use (UNION_Int, UNION_Comm_World)
 * and the typedefs a plugin's header may use (rt_int, UNION_Datatype).
 */
#ifndef NCSIM_ENGINE_FFI_PROTOS_H
#define NCSIM_ENGINE_FFI_PROTOS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/cdecl.h"

extern const eng_cproto eng_protos[];
extern const size_t eng_nprotos;
/* Each ends with a NULL name. */
extern const eng_cconst eng_proto_consts[];
extern const size_t eng_nproto_consts;
extern const eng_ctypedef eng_proto_typedefs[];
extern const size_t eng_nproto_typedefs;

#endif
