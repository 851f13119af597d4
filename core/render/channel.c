/* The render worker's way back to the receiver (render-private.h): each result is posted to
 * the receiver's main context, and delivered there unless the receiver has gone; the view
 * buffers that results carry are lent from a small pool that the channel keeps. FITS data's
 * receivers have channels of their own (render.h), to which the results are handed to keep. */
#include "render-private.h"

#include "../context-post.h"

#define VIEW_POOL 4 /* the window keeps two on screen in a split view, more are in flight */

/* What results in flight share with the worker, so that they can be delivered (or dropped)
 * after it is gone; and the view buffers the worker lends them. */
struct _LmRenderChannel {
  gint ref_count;
  gboolean closed; /* the receiver is gone: deliver nothing */
  LmRenderDone done;
  LmRenderTake take; /* instead of DONE */
  gpointer user_data;
  GMutex lock;
  GPtrArray *views; /* host view buffers made, each with a reference of the pool's own */
};

Channel *
lm_render_channel_new (LmRenderDone done, gpointer user_data)
{
  Channel *c = g_new0 (Channel, 1);
  c->ref_count = 1;
  c->done = done;
  c->user_data = user_data;
  c->views = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
  g_mutex_init (&c->lock);
  return c;
}

LmRenderChannel *
lm_render_channel_new_taking (LmRenderTake take, gpointer user_data)
{
  Channel *c = lm_render_channel_new (NULL, user_data);
  c->take = take;
  return c;
}

Channel *
lm_render_channel_ref (Channel *c)
{
  g_atomic_int_inc (&c->ref_count);
  return c;
}

void
lm_render_channel_unref (Channel *c)
{
  if (!g_atomic_int_dec_and_test (&c->ref_count))
    return;
  g_ptr_array_unref (c->views);
  g_mutex_clear (&c->lock);
  g_free (c);
}

void
lm_render_channel_close (Channel *c)
{
  c->closed = TRUE;
  lm_render_channel_unref (c);
}

typedef struct {
  Channel *channel;
  LmRenderResult *result;
} Delivery;

void
lm_render_result_free (LmRenderResult *r)
{
  g_clear_error (&r->error);
  g_free (r->notice);
  g_free (r->cuda_unavailable);
  g_free (r->cuda_description);
  g_free (r->path);
  g_free (r->response);
  g_clear_pointer (&r->image, lm_image_unref);
  if (r->timings.entries)
    lm_timings_clear (&r->timings);
  if (r->timings_other.entries)
    lm_timings_clear (&r->timings_other);
  g_clear_pointer (&r->view, lm_image_unref);
  g_clear_pointer (&r->before_view, lm_image_unref);
  g_clear_pointer (&r->mask_view, lm_image_unref);
  g_clear_pointer (&r->detect, lm_detect_result_free);
  g_clear_pointer (&r->objects, g_array_unref);
  g_free (r);
}

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  if (d->channel->closed)
    return G_SOURCE_REMOVE;
  if (d->channel->take)
    d->channel->take (d->result, d->channel->user_data);
  else
    d->channel->done (d->result, d->channel->user_data);
  return G_SOURCE_REMOVE;
}

static void
delivery_free (gpointer data)
{
  Delivery *d = data;
  lm_render_result_free (d->result);
  lm_render_channel_unref (d->channel);
  g_free (d);
}

/* Always queued on the receiver's context: g_main_context_invoke_full would run DELIVER
 * right here, in the worker, whenever this thread can acquire that context (it can, for the
 * global default context, whenever the main thread is between iterations). */
void
lm_render_post_to (LmRenderWorker *w, Channel *channel, LmRenderResult *result)
{
  result->posted_us = g_get_monotonic_time ();
  Delivery *d = g_new (Delivery, 1);
  d->channel = lm_render_channel_ref (channel);
  d->result = result;
  lm_context_post (w->context, "[lumen] render result", deliver, d, delivery_free);
}

void
lm_render_post (LmRenderWorker *w, LmRenderResult *result)
{
  lm_render_post_to (w, w->channel, result);
}

LmRenderResult *
lm_render_result_new (LmResultKind kind, const LmRenderRequest *request)
{
  LmRenderResult *r = g_new0 (LmRenderResult, 1);
  r->kind = kind;
  if (request)
    {
      r->generation = request->generation;
      r->changed_us = request->changed_us;
      r->view_rect = request->view;
    }
  return r;
}

/* One of the pool's buffers that nobody else holds any more (the window keeps the one on
 * screen until the next arrives, so the pool keeps a reference of its own to see when that
 * is), else a new one, pooled while there is room. A view's size of memory allocated per
 * render and freed by the window grew the window's memory by that size now and then
 * (bench/results/text/soak.md). */
LmImage *
lm_render_view_buffer (LmRenderWorker *w, int width, int height, GError **error)
{
  Channel *c = w->channel;
  LmImage *found = NULL;
  g_mutex_lock (&c->lock);
  for (guint i = c->views->len; i-- > 0 && !found;)
    {
      LmImage *v = g_ptr_array_index (c->views, i);
      if (g_atomic_int_get (&v->ref_count) != 1)
        continue; /* still shown or on its way */
      if (v->width == (guint) width && v->height == (guint) height)
        found = lm_image_ref (v);
      else
        g_ptr_array_remove_index_fast (c->views, i); /* another size: of no use now */
    }
  g_mutex_unlock (&c->lock);
  if (found)
    return found;
  LmImage *made = lm_image_new (LM_FORMAT_RGBA8, width, height, lm_render_fast_host (w), error);
  g_mutex_lock (&c->lock);
  if (made && c->views->len < VIEW_POOL)
    g_ptr_array_add (c->views, lm_image_ref (made));
  g_mutex_unlock (&c->lock);
  return made;
}
