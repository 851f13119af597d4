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

typedef struct {
  GDestroyNotify func;
  gpointer data;
} Call;

static gboolean
call (gpointer data)
{
  Call *c = data;
  c->func (c->data);
  return G_SOURCE_REMOVE;
}

void
lm_context_post_call (GMainContext *context, GDestroyNotify func, gpointer data)
{
  Call *c = g_new (Call, 1);
  c->func = func, c->data = data;
  lm_context_post (context, NULL, call, c, g_free);
}
