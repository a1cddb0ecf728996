/*
 * backend_none.c - a stand-in for engine/backend.c until the libffi calls of
 * BACKEND EXECUTES exist: every such statement is refused when the program is
 * loaded, with the statement's position, so the direct engine never runs a
 * program half-way. Plugins are refused the same way.
 */
#include <stdlib.h>

#include "engine/backend.h"
#include "base/util.h"

eng_plugins *eng_plugins_open(eng_plugins *pl, const char *so_path, const char *header_path, int allow_code, char **err)
{
	(void)pl;
	(void)so_path;
	(void)header_path;
	(void)allow_code;
	*err = xstrdup("--plugin is not supported by the direct engine yet");
	return NULL;
}

void eng_plugins_close(eng_plugins *pl)
{
	(void)pl;
}

eng_backend *eng_backend_prepare(const eng_bitem *items, int n, const eng_plugins *pl, int allow_code, char **err,
                                 int *bad_item)
{
	(void)items;
	(void)n;
	(void)pl;
	(void)allow_code;
	*bad_item = -1;
	*err = xstrdup("BACKEND EXECUTES is not supported by the direct engine yet (run it with --engine compiled)");
	return NULL;
}

void eng_backend_call(const eng_backend *b, rt_task *t, const eng_bval *vals)
{
	(void)b;
	(void)t;
	(void)vals;
}

void eng_backend_free(eng_backend *b)
{
	(void)b;
}
