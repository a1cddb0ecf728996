/*
 * plugin.c - --plugin lib.so with --plugin-header h.h: a user's shared
 * library whose functions BACKEND EXECUTES may call in the direct engine.
 *
 * The library is loaded with RTLD_NOW (a missing symbol fails here, not in
 * the middle of a run) and RTLD_LOCAL (its names cannot shadow ncsim's or
 * another plugin's). Its functions may call the skeleton API (UNION_*,
 * rt_*), which ncsim exports. The header is read strictly (engine/cdecl.h):
 * a function is called only with the prototype its author wrote, so a
 * declaration the parser cannot read is an error, never a guess. The
 * header may use the typedefs of include/ncsim (rt_int, UNION_Datatype,
 * rt_task, ...) without reading those headers: they come from the
 * build-time table.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/ffi_protos.h"
#include "engine/plugin.h"

struct eng_plugins {
	void *handle;
	eng_cdecl *decl;
	char *so_path;
	char *header_path;
	eng_plugins *next;
};

/* The library at `path`: a path without a slash names a file here, not one of the system's libraries. */
static void *open_library(const char *path, char **err)
{
	char *p = strchr(path, '/') ? xstrdup(path) : xasprintf("./%s", path);
	dlerror();
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		*err = xasprintf("--plugin %s: cannot load it: %s", path, why ? why : "unknown error");
	}
	free(p);
	return h;
}

/* The declarations of the plugin's header, read strictly over the typedefs of include/ncsim. */
static eng_cdecl *read_header(const char *path, char **err)
{
	eng_cdecl *d = eng_cdecl_new();
	for (size_t i = 0; i < eng_nproto_typedefs; i++)
		eng_cdecl_add_typedef(d, eng_proto_typedefs[i].name, (eng_ctype)eng_proto_typedefs[i].type);
	if (eng_cdecl_parse_file(d, path, 0, err) != 0) {
		eng_cdecl_free(d);
		return NULL;
	}
	return d;
}

eng_plugins *eng_plugins_open(eng_plugins *pl, const char *so_path, const char *header_path, int allow_code,
                              char **err)
{
	*err = NULL;
	if (!allow_code) {
		*err = xstrdup("--plugin runs arbitrary code: pass --allow-backend-code");
		return NULL;
	}
	if (!header_path) {
		*err = xasprintf("--plugin %s needs --plugin-header: the direct engine calls a function only "
		                 "with the prototype its header declares", so_path);
		return NULL;
	}
	eng_cdecl *d = read_header(header_path, err);
	if (!d)
		return NULL;
	void *h = open_library(so_path, err);
	if (!h) {
		eng_cdecl_free(d);
		return NULL;
	}
	eng_plugins *p = xcalloc(1, sizeof *p);
	*p = (eng_plugins){.handle = h, .decl = d, .so_path = xstrdup(so_path), .header_path = xstrdup(header_path)};
	if (!pl)
		return p;
	eng_plugins *last = pl;
	while (last->next)
		last = last->next;
	last->next = p;
	return pl;
}

void eng_plugins_close(eng_plugins *pl)
{
	while (pl) {
		eng_plugins *next = pl->next;
		dlclose(pl->handle);
		eng_cdecl_free(pl->decl);
		free(pl->so_path);
		free(pl->header_path);
		free(pl);
		pl = next;
	}
}

const eng_cproto *eng_plugins_find(const eng_plugins *pl, const char *name, void **fn, char **err)
{
	*err = NULL;
	for (; pl; pl = pl->next) {
		const eng_cproto *p = eng_cdecl_proto(pl->decl, name);
		if (!p)
			continue;
		dlerror();
		*fn = dlsym(pl->handle, name);
		if (!*fn) {
			*err = xasprintf("`%s` is declared in %s but %s does not define it", name, pl->header_path,
			                 pl->so_path);
			return NULL;
		}
		return p;
	}
	return NULL;
}

const eng_cconst *eng_plugins_const(const eng_plugins *pl, const char *name)
{
	for (; pl; pl = pl->next) {
		const eng_cconst *c = eng_cdecl_const(pl->decl, name);
		if (c)
			return c;
	}
	return NULL;
}
