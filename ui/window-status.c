/* LmWindow's account of its state (window-status.h): the info bar's messages with their
 * kind and topic, the busy indicator of a long render, the status bar (timings, the GPU's
 * speed-up), the diff bar's text and Compare's tooltip. Each says only what is true now. */
#include "window-status.h"
#include "window-private.h"
#include "window-split.h"

#include <string.h>
#include <glib/gi18n.h>

/* A render that takes longer than this shows the busy indicator: long enough that quick
 * renders (the GPU's, small photos) never flicker it, short enough that a stale view is
 * never left without a sign of work. */
#define BUSY_AFTER_MS 150

struct _LmWindowStatus {
  LmMessageTopic message_topic; /* what the info bar's message is about */
  /* Busy: a render asked for and not yet in. The indicator shows once no result has come
   * for BUSY_AFTER_MS, so that quick renders do not flicker it. */
  guint64 awaited;              /* the generation whose refined result ends the wait; 0: none */
  guint busy_source;            /* the timer that shows the indicator */
  gboolean busy_shown;
  /* The last full-resolution render on the CPU [0] and CUDA [1] that computed every
   * operation of TIMED (none from the cache): a speed-up is shown only between two renders
   * of one pipeline, both really run. */
  double full_ms[2];
  LmPipeline timed[2];
};

void
lm_window_status_init (LmWindow *self)
{
  self->status = g_new0 (LmWindowStatus, 1);
}

void
lm_window_status_stop (LmWindow *self)
{
  g_clear_handle_id (&self->status->busy_source, g_source_remove);
}

void
lm_window_status_free (LmWindow *self)
{
  g_clear_pointer (&self->status, g_free);
}

/* ---- the info bar ------------------------------------------------------------------------ */

/* The icon that says what kind of message the bar holds, as GtkMessageDialog's do. */
static const char *
message_icon (GtkMessageType type)
{
  switch (type)
    {
    case GTK_MESSAGE_ERROR:
      return "dialog-error-symbolic";
    case GTK_MESSAGE_WARNING:
      return "dialog-warning-symbolic";
    case GTK_MESSAGE_QUESTION:
      return "dialog-question-symbolic";
    case GTK_MESSAGE_INFO:
      return "dialog-information-symbolic";
    default:
      return NULL;
    }
}

void
lm_window_show_message_about (LmWindow *self, LmMessageTopic topic, GtkMessageType type, const char *message)
{
  const char *icon = message_icon (type);
  gtk_info_bar_set_message_type (self->info_bar, type);
  if (icon)
    gtk_image_set_from_icon_name (self->info_icon, icon, GTK_ICON_SIZE_LARGE_TOOLBAR);
  gtk_widget_set_visible (GTK_WIDGET (self->info_icon), icon != NULL);
  gtk_label_set_text (self->info_label, message);
  self->status->message_topic = topic;
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
lm_window_show_message (LmWindow *self, GtkMessageType type, const char *message)
{
  lm_window_show_message_about (self, LM_TOPIC_PHOTO, type, message);
}

void
lm_window_clear_message (LmWindow *self, LmMessageTopic topic)
{
  if (self->status->message_topic == topic)
    gtk_info_bar_set_revealed (self->info_bar, FALSE);
}

void
lm_window_clear_messages (LmWindow *self)
{
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
}

/* ---- the busy indicator ----------------------------------------------------------------- */

/* The busy indicator: a spinner over the view and the "progress" cursor (the image view
 * shows it wherever it has no cursor of its own). */
static void
set_busy (LmWindow *self, gboolean busy)
{
  if (busy == self->status->busy_shown)
    return;
  self->status->busy_shown = busy;
  gtk_widget_set_visible (self->busy_box, busy);
  if (busy)
    gtk_spinner_start (self->busy_spinner);
  else
    gtk_spinner_stop (self->busy_spinner);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (self));
  if (window)
    {
      g_autoptr (GdkCursor) cursor = busy ? gdk_cursor_new_from_name (gdk_window_get_display (window), "progress")
                                          : NULL;
      gdk_window_set_cursor (window, cursor);
    }
}

static gboolean
show_busy (gpointer data)
{
  LmWindow *self = data;
  self->status->busy_source = 0;
  set_busy (self, TRUE);
  return G_SOURCE_REMOVE;
}

/* GENERATION is asked for: unless a result comes within BUSY_AFTER_MS, the indicator shows.
 * A newer request does not restart the clock: dragging a slider on a slow backend shows it. */
void
lm_window_await_render (LmWindow *self, guint64 generation)
{
  LmWindowStatus *st = self->status;
  st->awaited = generation;
  if (!st->busy_shown && st->busy_source == 0)
    st->busy_source = g_timeout_add (BUSY_AFTER_MS, show_busy, self);
}

/* A full-resolution result of GENERATION (or its failure) is in: the indicator goes; where
 * newer requests are still on the way, the clock starts again from this paint. A quick
 * preview does not count: the view is still not what was asked. */
void
lm_window_render_arrived (LmWindow *self, guint64 generation)
{
  LmWindowStatus *st = self->status;
  g_clear_handle_id (&st->busy_source, g_source_remove);
  set_busy (self, FALSE);
  if (generation >= st->awaited)
    st->awaited = 0;
  else
    st->busy_source = g_timeout_add (BUSY_AFTER_MS, show_busy, self);
}

/* ---- the status bar and the diff bar ------------------------------------------------------ */

/* A step's name as people read it: the worker names operations as the command line does
 * ("gray", "tonemap"; "wb+exposure" for point operations fused into one pass); the panels'
 * translated titles are shown instead. Other steps (a merge's) come named in the language
 * already. */
static const char *
op_label (const char *name)
{
  const LmOpInfo *info = lm_op_info_by_name (name);
  if (info == NULL && g_strcmp0 (name, lm_tonemap_op_info ()->name) == 0)
    info = lm_tonemap_op_info ();
  if (info == NULL && g_strcmp0 (name, lm_raw_op_info ()->name) == 0)
    info = lm_raw_op_info ();
  return info ? _(info->label) : name;
}

static const char *
timing_label (const char *name)
{
  if (strchr (name, '+') == NULL)
    return op_label (name);
  /* Interned: the combinations are few (subsets of the point operations), and the caller
   * keeps no copy. */
  g_auto (GStrv) parts = g_strsplit (name, "+", -1);
  g_autoptr (GString) text = g_string_new (NULL);
  for (int i = 0; parts[i] != NULL; i++)
    g_string_append_printf (text, "%s%s", i ? " + " : "", op_label (parts[i]));
  return g_intern_string (text->str);
}

/* The steps of TIMINGS that ran (not taken from the cache). */
static guint
timings_computed (const LmTimings *timings)
{
  guint n = 0;
  for (guint i = 0; timings->entries && i < timings->entries->len; i++)
    n += !g_array_index (timings->entries, LmTiming, i).cached;
  return n;
}

char *
lm_window_format_timings (const LmTimings *timings)
{
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; timings->entries && i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      if (text->len)
        g_string_append (text, ", ");
      if (t->cached)
        g_string_append_printf (text, _("%s cached"), timing_label (t->label));
      else
        g_string_append_printf (text, _("%s %.2f ms"), timing_label (t->label), t->ms);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const char *
lm_window_backend_label (const char *name)
{
  return g_strcmp0 (name, "cuda") == 0 ? _("GPU") : _("CPU");
}

void
lm_window_forget_timings (LmWindow *self)
{
  self->status->full_ms[0] = self->status->full_ms[1] = 0;
}

/* The GPU's speed-up, once both backends have rendered the same edits in full; "—" until
 * then (and for good where there is no GPU: the tooltip says why). */
void
lm_window_show_speedup (LmWindow *self)
{
  LmWindowStatus *st = self->status;
  if (st->full_ms[0] > 0 && st->full_ms[1] > 0 && lm_pipeline_equal (&st->timed[0], &st->timed[1]))
    {
      double ratio = st->full_ms[0] / st->full_ms[1];
      g_autofree char *speedup = NULL;
      if (ratio >= 9.95)
        speedup = g_strdup_printf (_("GPU %.0f× faster than the CPU"), ratio);
      else if (ratio >= 1.0)
        speedup = g_strdup_printf (_("GPU %.1f× faster than the CPU"), ratio);
      else
        speedup = g_strdup_printf (_("GPU %.1f× slower than the CPU"), 1.0 / ratio);
      gtk_label_set_text (self->status_speedup, speedup);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_speedup),
                                   _("The operations' time at full resolution on each backend, for the last "
                                     "edits that both rendered in full"));
      return;
    }
  gtk_label_set_text (self->status_speedup, _("GPU speed-up: —"));
  g_autofree char *tip = NULL;
  if (self->cuda_usable)
    tip = g_strdup (_("Shown once the CPU and the GPU have each rendered the same edits in full"));
  else if (self->cuda_unavailable)
    tip = g_strdup_printf (_("No usable GPU: %s"), self->cuda_unavailable);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_speedup), tip);
}

void
lm_window_update_status (LmWindow *self, const LmRenderResult *r)
{
  g_autofree char *size = g_strdup_printf (_("%u×%u, %s"), r->width, r->height, lm_window_backend_label (r->backend_name));
  gtk_label_set_text (self->status_image, size);

  /* Timed for the speed-up only where every operation ran, and known to be of the edits
   * shown now (a result of an older request is of edits no longer known). */
  gboolean cuda = g_strcmp0 (r->backend_name, "cuda") == 0;
  guint computed = timings_computed (&r->timings);
  if (computed > 0 && computed == r->timings.entries->len && r->generation == self->generation && !lm_window_showing_original (self)
      && r->level_factor == 0.0) /* a large photo's view renders a level: no full render to time */
    {
      self->status->full_ms[cuda] = lm_timings_total (&r->timings);
      self->status->timed[cuda] = self->pipeline;
    }
  /* The totals first, then each operation's time: where the window is too narrow for all (a
   * long list in French or German at the default size), the list gives way ("…", whole in
   * the tooltip), not the figures a person looks for. */
  g_autoptr (GString) text = g_string_new (NULL);
  if (r->level_factor > 1.0 && r->region)
    /* TRANSLATORS: the view of a large photo rendered from its pyramid, %g times smaller */
    g_string_append_printf (text, _("visible region at 1/%g: %.1f ms"), r->level_factor, r->render_ms);
  else if (r->level_factor > 1.0)
    /* TRANSLATORS: the view of a large photo rendered from its pyramid, %g times smaller */
    g_string_append_printf (text, _("view render at 1/%g: %.1f ms"), r->level_factor, r->render_ms);
  else if (r->region)
    g_string_append_printf (text, _("visible region: %.1f ms"), r->render_ms);
  else
    g_string_append_printf (text, _("full render %.1f ms"), r->render_ms);
  /* The CPU works in the photo's own memory: it uploads and downloads nothing. */
  if (cuda && r->upload_ms > 0)
    g_string_append_printf (text, _(" · upload %.1f ms"), r->upload_ms);
  if (cuda)
    g_string_append_printf (text, _(" · view download %.2f ms"), r->download_ms);
  g_autofree char *ops_text = lm_window_format_timings (&r->timings);
  if (*ops_text)
    g_string_append_printf (text, " · %s", ops_text);
  gtk_label_set_text (self->status_timings, text->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_timings), text->str);
  lm_window_show_speedup (self);
  /* The mask asked for with the render, or none: shown over the photo until the next. */
  lm_image_view_set_mask_overlay (self->image_view, r->mask_view, &r->view_rect);
}

void
lm_window_show_hint (LmWindow *self, const char *text)
{
  gtk_label_set_text (self->status_timings, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_timings), text);
}

void
lm_window_show_zoom (LmWindow *self)
{
  guint w, h;
  lm_image_view_get_image_size (self->image_view, &w, &h);
  if (w == 0 || h == 0)
    {
      gtk_label_set_text (self->status_zoom, "");
      return;
    }
  double percent = lm_image_view_get_zoom (self->image_view) * 100.0;
  /* Whole percents, but a tenth where a whole one would round a large photo's fit to 0 or
   * hide a step of the zoom keys (1.2 % after 1.5 %). */
  g_autofree char *zoom = percent >= 9.95 ? g_strdup_printf (_("%.0f %%"), percent)
                                          : g_strdup_printf (_("%.1f %%"), percent);
  if (lm_image_view_get_fit (self->image_view))
    {
      /* TRANSLATORS: the zoom at which the whole photo fits the window, e.g. "Fit (23 %)" */
      g_autofree char *fit = g_strdup_printf (_("Fit (%s)"), zoom);
      gtk_label_set_text (self->status_zoom, fit);
    }
  else
    gtk_label_set_text (self->status_zoom, zoom);
}

/* The labels' colours: darktable's, so that a photographer sees the ones darktable shows. */
static const char *const label_colors[LM_LABEL_COUNT] = { "#e62222", "#e6d822", "#22b222", "#2262e6", "#b222b2" };

void
lm_window_show_tags (LmWindow *self, const LmPhotoTags *tags)
{
  if (tags == NULL)
    {
      gtk_label_set_text (self->status_tags, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_tags), NULL);
      return;
    }
  static const char *const names[LM_LABEL_COUNT] = { N_("red"), N_("yellow"), N_("green"), N_("blue"), N_("purple") };
  g_autoptr (GString) markup = g_string_new (NULL);
  g_autoptr (GString) labels = g_string_new (NULL);
  if (tags->rating == LM_RATING_REJECTED)
    /* TRANSLATORS: the status bar's word for a photo rated as rejected (R) */
    g_string_append_printf (markup, "✕ %s", _("rejected"));
  else
    for (int k = 0; k < 5; k++)
      g_string_append (markup, k < tags->rating ? "★" : "☆");
  for (int k = 0; k < LM_LABEL_COUNT; k++)
    if (tags->labels & (1u << k))
      {
        g_string_append_printf (markup, " <span foreground=\"%s\">●</span>", label_colors[k]);
        /* TRANSLATORS: between two colour labels' names in the status bar's tooltip */
        g_string_append_printf (labels, "%s%s", labels->len ? _(", ") : "", _(names[k]));
      }
  gtk_label_set_markup (self->status_tags, markup->str);
  g_autofree char *rating = tags->rating == LM_RATING_REJECTED
                              ? g_strdup (_("Rejected"))
                              : g_strdup_printf (_("%d of 5 stars"), tags->rating);
  /* TRANSLATORS: the status bar's tooltip on the photo's rating and colour labels */
  g_autofree char *tip = g_strdup_printf (_("%s; labels: %s (keys 0–5, R, F1–F5)"), rating,
                                          labels->len ? labels->str : _("none"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_tags), tip);
}

void
lm_window_set_histogram_origin (LmWindow *self, const LmRenderResult *r)
{
  g_autofree char *origin = NULL;
  if (r->level_factor > 1.0 && !r->region)
    origin = g_strdup_printf (_("Counted on the photo shrunk %g times, as the view shows it; the export is "
                                "computed at full size (equalize included)"),
                              r->level_factor);
  else if (r->level_factor > 0.0)
    origin = g_strdup (_("Counted on a small copy of the whole photo (the view renders only what is "
                         "visible); the export is computed at full size (equalize included)"));
  lm_histogram_view_set_origin (self->histogram_view, origin);
}

void
lm_window_show_compare (LmWindow *self, const LmRenderResult *r)
{
  if (r->error)
    {
      gtk_label_set_text (self->diff_label, r->error->message);
      return;
    }
  g_autofree char *stats = lm_diff_stats_describe (&r->diff);
  const char *a = lm_window_backend_label (r->backend_name), *b = lm_window_backend_label (r->other_name);
  /* A speed-up only where both backends ran something: with every operation off there is
   * nothing to time, and 0.0 ms against 0.0 ms says nothing. */
  gboolean timed = timings_computed (&r->timings) > 0 && timings_computed (&r->timings_other) > 0
                   && r->render_ms > 0 && r->other_ms > 0;
  g_autofree char *text = timed ? g_strdup_printf (_("%s vs %s: %s · %.1f ms vs %.1f ms (%.1f×)"), a, b, stats,
                                                   r->render_ms, r->other_ms, r->render_ms / r->other_ms)
                                : g_strdup_printf (_("%s vs %s: %s · speed-up —"), a, b, stats);
  gtk_label_set_text (self->diff_label, text);
  lm_image_view_set_overlay (self->image_view, r->view, &r->view_rect);
}

/* Compare's tooltip: what it does, or why it cannot (the CUDA backend's reason). */
void
lm_window_update_compare_tooltip (LmWindow *self)
{
  g_autofree char *tip = NULL;
  if (self->cuda_usable)
    tip = g_strdup (_("Render on both backends and show where they differ (Ctrl+D)"));
  else if (self->cuda_unavailable)
    tip = g_strdup_printf (_("Compare needs a usable GPU: %s"), self->cuda_unavailable);
  else
    tip = g_strdup (_("Looking for a CUDA device…"));
  gtk_widget_set_tooltip_text (self->compare_button, tip);
}
