/* Work handed to a context's thread (context-post.h). */
#include "context-post.h"

void
lm_context_post (GMainContext *context, const char *name, GSourceFunc func, gpointer data, GDestroyNotify destroy)
{
  GSource *source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, destroy);
  if (name)
    g_source_set_static_name (source, name);
  g_source_attach (source, context);
  g_source_unref (source);
}
