/*
 * plugin.h - what engine/backend.c asks of the --plugin libraries that
 * engine/plugin.c opens (eng_plugins_open and eng_plugins_close are in
 * engine/backend.h, the direct engine's interface).
 */
#ifndef NCSIM_ENGINE_PLUGIN_H
#define NCSIM_ENGINE_PLUGIN_H

#include "engine/backend.h"
#include "engine/cdecl.h"

/*
 * The prototype of function `name` in the first plugin (in command-line
 * order) whose header declares it, and in *fn its address in that plugin;
 * NULL if no header declares it (pl NULL: none). NULL with *err (heap) if a
 * header declares it but its library does not define it.
 */
const eng_cproto *eng_plugins_find(const eng_plugins *pl, const char *name, void **fn, char **err);
/* The macro constant `name` of the first plugin header that defines it, or NULL. */
const eng_cconst *eng_plugins_const(const eng_plugins *pl, const char *name);

#endif
