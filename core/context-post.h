/* Work handed from a worker thread to the thread that runs CONTEXT. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* FUNC (DATA) runs on CONTEXT as an idle source of the default priority, DESTROY (DATA)
 * once it has (NAME, may be NULL, names the source for profilers). A source, never
 * g_main_context_invoke: that runs FUNC at once on the calling thread whenever nobody owns
 * the context at that moment, and FUNC may touch what only the context's thread may. */
void lm_context_post (GMainContext *context, const char *name, GSourceFunc func, gpointer data,
                      GDestroyNotify destroy);

/* FUNC (DATA) on CONTEXT in the same way: a notification, such as "the job has gone". */
void lm_context_post_call (GMainContext *context, GDestroyNotify func, gpointer data);

G_END_DECLS
