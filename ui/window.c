/* LmWindow (window.h): holds the photo, its pipeline and history, and the render worker;
 * turns every edit and every move of the view into a render request, and shows what comes
 * back. The main thread never waits on a render. Each other concern is a window-*.c with its
 * own state, behind its header: what the window says of its state (status), opening (open),
 * exporting (export), Compare, the split view (split), the HDR merge (hdr), the sidecar, the
 * edits as a whole (edits), Apply Edits to Photos… (apply), the view's geometry, its tools,
 * its colour management (color), FITS files (astro) and objects found in photos (objects). */
#include "window-private.h"
#include "window-apply.h"
#include "window-astro.h"
#include "window-color.h"
#include "window-compare.h"
#include "window-edits.h"
#include "window-export.h"
#include "window-folder.h"
#include "window-geometry.h"
#include "window-hdr.h"
#include "window-instances.h"
#include "window-objects.h"
#include "window-raw.h"
#include "window-open.h"
#include "window-sidecar.h"
#include "window-split.h"
#include "window-status.h"
#include "window-tags.h"
#include "window-tools.h"
#include "preset-menu.h"

#include <string.h>
#include <glib/gi18n.h>

#define COMMIT_AFTER_MS 400 /* edits closer than this make one undo step */
#define APP_ID "io.github.lumen.Lumen"

/* What this file alone sees: quick edits gathered into one undo step. */
typedef struct {
  guint commit_source; /* the undo step recorded once the edits pause */
  gint64 changed_us;   /* when the newest edit was made */
} LmWindowPrivate;

G_DEFINE_FINAL_TYPE_WITH_PRIVATE (LmWindow, lm_window, GTK_TYPE_APPLICATION_WINDOW)

enum { RENDER_RESULT, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
on_info_bar_response (GtkInfoBar *bar, int response, LmWindow *self)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

const char *
lm_window_get_info_message (LmWindow *self)
{
  return gtk_info_bar_get_revealed (self->info_bar) ? gtk_label_get_text (self->info_label) : NULL;
}

const char *
lm_window_get_diff_text (LmWindow *self)
{
  return gtk_label_get_text (self->diff_label);
}

gboolean
lm_window_commit_pending (LmWindow *self)
{
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  return priv->commit_source != 0;
}

guint64
lm_window_get_generation (LmWindow *self)
{
  return self->generation;
}

/* ---- rendering --------------------------------------------------------------------------- */

/* A request for what is edited and shown now, with the next generation when NEXT. */
LmRenderRequest
lm_window_request_now (LmWindow *self, gboolean next, gboolean *ok)
{
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  LmRenderRequest req = { 0 };
  lm_window_view_pipeline (self, &req.pipeline);
  /* The view's rectangle is of the image the pipeline renders: its size first. */
  lm_window_follow_size (self, &req.pipeline);
  *ok = self->source != NULL && lm_image_view_get_rect (self->image_view, &req.view);
  req.generation = next ? ++self->generation : self->generation;
  req.backend = self->backend;
  req.changed_us = priv->changed_us ? priv->changed_us : g_get_monotonic_time ();
  return req;
}

void
lm_window_request_render (LmWindow *self)
{
  if (self->worker == NULL) /* the window being disposed: its colour and tool state are gone */
    return;
  gboolean ok;
  LmRenderRequest req = lm_window_request_now (self, TRUE, &ok);
  if (!ok)
    {
      g_debug ("render request %" G_GUINT64_FORMAT " (nothing to show)", req.generation);
      return;
    }
  /* Asked again by every request until one brings it: the mailbox may drop a request. */
  req.with_before = lm_window_needs_before (self, &req);
  lm_window_color_prepare (self, &req);
  g_debug ("render request %" G_GUINT64_FORMAT "%s", req.generation, req.with_before ? " with the before half" : "");
  lm_render_worker_request (self->worker, &req);
  lm_window_await_render (self, req.generation);
  lm_window_compare_request (self, &req);
}

static void
edited (LmWindow *self)
{
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  priv->changed_us = g_get_monotonic_time ();
  lm_window_request_render (self);
  lm_window_sidecar_changed (self);
}

static void
update_actions (LmWindow *self)
{
  GActionMap *map = G_ACTION_MAP (self);
  gboolean have = self->source != NULL;
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "undo")),
                               have && lm_history_can_undo (self->history));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "redo")),
                               have && lm_history_can_redo (self->history));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "export")), have);
  /* Comparing the CPU with itself would show nothing true: a GPU is needed (the button
   * says why not in its tooltip). */
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "compare")),
                               have && self->cuda_usable);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "split")), have);
  static const char *const edits[] = { "revert",      "copy-edits",  "paste-edits",
                                       "apply-edits", "apply-preset", "save-preset",
                                       "paste-selectively" };
  for (guint i = 0; i < G_N_ELEMENTS (edits); i++) /* FITS data is not edited (window-astro.c) */
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, edits[i])),
                                 have && !lm_window_astro_active (self));
  lm_window_tools_update_actions (self);
}

void
lm_window_commit (LmWindow *self)
{
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  g_clear_handle_id (&priv->commit_source, g_source_remove);
  if (self->history)
    lm_history_push (self->history, &self->pipeline);
  lm_window_sidecar_mark_saved (self); /* a step already in the sidecar is saved */
  update_actions (self);
}

static gboolean
commit_later (gpointer data)
{
  LmWindow *self = data;
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  priv->commit_source = 0;
  lm_window_commit (self);
  return G_SOURCE_REMOVE;
}

void
lm_window_on_panel_changed (LmOpPanel *panel, LmWindow *self)
{
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  if (self->worker == NULL) /* a typed value taken as GtkWindow's dispose drops the focus */
    return;
  /* An edit still waiting to be gathered (a wheel's or a choice's: a key's release commits)
   * is its own undo step, not the first of the drag that begins now. */
  if (lm_op_panel_is_held (panel) && priv->commit_source != 0)
    lm_window_commit (self);
  const LmStage *stage = lm_op_panel_get_stage (panel);
  if (stage->info == lm_tonemap_op_info ())
    self->pipeline.tonemap = *stage;
  else if (stage->info == lm_raw_op_info ())
    self->pipeline.raw = *stage;
  else
    {
      /* The instance's values; its name and mask slot are the pipeline's (the menu's edits). */
      int k = lm_pipeline_find (&self->pipeline, stage->id);
      g_return_if_fail (k >= 0);
      LmStage *edited = &self->pipeline.inst[k];
      edited->enabled = stage->enabled;
      edited->params = stage->params;
      const LmMask *mask = lm_op_panel_get_mask (panel);
      if (mask && edited->mask >= 0)
        memcpy (&self->pipeline.masks[edited->mask], mask, sizeof *mask);
      lm_window_instances_select (self, stage->id);
    }
  g_clear_handle_id (&priv->commit_source, g_source_remove);
  if (!lm_op_panel_is_held (panel)) /* a drag is one step, pauses and all: its release commits */
    priv->commit_source = g_timeout_add (COMMIT_AFTER_MS, commit_later, self);
  edited (self);
}

void
lm_window_on_panel_committed (LmOpPanel *panel, LmWindow *self)
{
  lm_window_commit (self);
}

void
lm_window_show_pipeline (LmWindow *self)
{
  lm_window_tools_cancel (self); /* a tool's work in hand was of the pipeline replaced */
  lm_window_instances_sync (self);
  lm_op_panel_set_stage (self->tonemap_panel, &self->pipeline.tonemap);
  lm_op_panel_set_stage (self->raw_panel, &self->pipeline.raw);
  edited (self);
  update_actions (self);
}

static void
on_ready (LmWindow *self, const LmRenderResult *r)
{
  self->cuda_usable = r->cuda_unavailable == NULL;
  g_free (self->cuda_unavailable);
  self->cuda_unavailable = g_strdup (r->cuda_unavailable);
  GAction *backend = g_action_map_lookup_action (G_ACTION_MAP (self), "backend");
  gtk_widget_set_sensitive (self->gpu_button, self->cuda_usable);
  gtk_widget_set_tooltip_text (self->gpu_button, self->cuda_usable ? r->cuda_description : r->cuda_unavailable);
  lm_window_update_compare_tooltip (self);
  update_actions (self);
  lm_window_show_speedup (self);
  if (!self->cuda_usable && self->backend == LM_BACKEND_CUDA)
    g_action_change_state (backend, g_variant_new_string ("cpu"));
  else
    lm_window_request_render (self);
}

/* A new source (IMAGE, host memory; from FILE) with self->pipeline as its starting point: a
 * fresh history, the tone mapping panel where it is radiance, FILE's name as the title and
 * SUBTITLE under it. */
void
lm_window_start_editing (LmWindow *self, LmImage *image, GFile *file, const char *subtitle)
{
  g_clear_pointer (&self->source, lm_image_unref);
  self->source = image;
  g_set_object (&self->file, file);
  lm_window_edits_set_original (self, &self->pipeline.tonemap);
  g_clear_pointer (&self->history, lm_history_free);
  self->history = lm_history_new (&self->pipeline);
  lm_window_forget_timings (self);
  lm_window_split_restart (self);
  lm_window_show_speedup (self);
  gboolean raw = lm_image_is_raw (image);
  lm_window_show_raw_panel (self, raw);
  lm_window_show_tonemap_panel (self, raw || image->format == LM_FORMAT_RGBA_F32);
  /* The name alone as the title, what else there is to say under it: one line of both did
   * not fit beside the header's buttons (in German, "exposure01.jpg (HDR, 5 Belichtung…"). */
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *name = g_filename_display_name (base);
  gtk_window_set_title (GTK_WINDOW (self), name); /* for window lists; sets the header's too */
  gtk_header_bar_set_title (self->header, name);
  gtk_header_bar_set_subtitle (self->header, subtitle && *subtitle ? subtitle : NULL);
  lm_window_tags_open (self, NULL); /* window-open.c names the photo once it is one */
  lm_window_objects_forget (self);  /* boxes of the photo before */
}

void
lm_window_drop_results (LmWindow *self)
{
  /* The counter goes on, never back: a render under way arrives with an older generation. */
  self->shown = ++self->generation;
  lm_window_split_since (self, self->generation);
}


static void
on_result (const LmRenderResult *r, gpointer data)
{
  LmWindow *self = data;
  switch (r->kind)
    {
    case LM_RESULT_READY:
      on_ready (self, r);
      break;
    case LM_RESULT_PREVIEW:
      /* A superseded result (or one made for a source replaced since) says nothing true
       * any more, its notice included. */
      if (r->generation < self->shown)
        break;
      if (r->error)
        {
          lm_window_show_message_about (self, LM_TOPIC_RENDER, GTK_MESSAGE_ERROR, r->error->message);
          lm_window_render_arrived (self, r->generation);
          break;
        }
      self->shown = r->generation;
      /* Before the edited half, whose paint is what the latency trace times. */
      lm_window_show_before (self, r);
      lm_image_view_set_pixels (self->image_view, r->view, &r->view_rect, r->changed_us, r->posted_us);
      lm_histogram_view_set_histograms (self->histogram_view, &r->histogram,
                                        r->has_seen_histogram ? &r->seen_histogram : NULL);
      lm_window_set_histogram_origin (self, r);
      lm_window_astro_show_histogram (self); /* a FITS file's histogram is of its data */
      for (guint i = 0; i < self->panels->len; i++) /* behind the curve editors */
        lm_op_panel_set_histogram (self->panels->pdata[i], &r->histogram);
      if (r->refined)
        {
          lm_window_update_status (self, r);
          lm_window_render_arrived (self, r->generation);
        }
      if (r->notice)
        lm_window_show_message_about (self, LM_TOPIC_RENDER, GTK_MESSAGE_WARNING, r->notice);
      else if (r->refined)
        lm_window_clear_message (self, LM_TOPIC_RENDER); /* a render went as asked */
      break;
    case LM_RESULT_COMPARE:
      lm_window_compare_result (self, r);
      break;
    case LM_RESULT_PROGRESS:
      lm_window_export_progress (self, r->fraction);
      break;
    case LM_RESULT_EXPORTED:
      lm_window_finish_export (self, r);
      break;
    case LM_RESULT_MERGE_PROGRESS:
      lm_window_merge_progress (self, r);
      break;
    case LM_RESULT_MERGED:
      lm_window_finish_merge (self, r);
      break;
    case LM_RESULT_STRETCHED:
    case LM_RESULT_DETECTED:
    case LM_RESULT_OBJECTS:
      break; /* FITS data's go to its session's receiver (astro-session.c), objects' to
              * window-objects.c's, not here */
    }
  g_signal_emit (self, signals[RENDER_RESULT], 0, (int) r->kind, r->generation, r->refined);
}

/* ---- other actions ----------------------------------------------------------------------- */

static void
undo_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  lm_window_commit (self);
  if (lm_history_undo (self->history, &self->pipeline))
    lm_window_show_pipeline (self);
}

static void
redo_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  lm_window_commit (self);
  if (lm_history_redo (self->history, &self->pipeline))
    lm_window_show_pipeline (self);
}

static void
backend_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  const char *name = g_variant_get_string (state, NULL);
  LmBackendKind kind = g_str_equal (name, "cuda") ? LM_BACKEND_CUDA : LM_BACKEND_CPU;
  if (kind == LM_BACKEND_CUDA && !self->cuda_usable)
    return;
  g_simple_action_set_state (action, state);
  self->backend = kind;
  if (self->settings)
    g_settings_set_string (self->settings, "backend", name);
  lm_window_astro_backend_changed (self);
  edited (self);
}

static void
zoom_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  const char *name = g_action_get_name (G_ACTION (action));
  if (g_str_equal (name, "zoom-in"))
    lm_image_view_zoom_by (self->image_view, 1.25);
  else if (g_str_equal (name, "zoom-out"))
    lm_image_view_zoom_by (self->image_view, 0.8);
  else if (g_str_equal (name, "zoom-fit"))
    lm_image_view_zoom_fit (self->image_view);
  else
    lm_image_view_zoom_actual (self->image_view);
}


static const GActionEntry win_actions[] = {
  { "open", lm_window_open_action },
  { "export", lm_window_export_action },
  { "undo", undo_action },
  { "redo", redo_action },
  { "revert", lm_window_revert_action },
  { "copy-edits", lm_window_copy_edits_action },
  { "paste-edits", lm_window_paste_edits_action },
  { "paste-selectively", lm_window_paste_selectively_action },
  { "apply-edits", lm_window_apply_action },
  { "backend", NULL, "s", "'cpu'", backend_changed },
  { "compare", NULL, NULL, "false", lm_window_compare_changed },
  { "split", NULL, NULL, "false", lm_window_split_changed },
  { "zoom-in", zoom_action },
  { "zoom-out", zoom_action },
  { "zoom-fit", zoom_action },
  { "zoom-100", zoom_action },
  { "merge-hdr", lm_window_merge_hdr_action },
  { "monitor-profile", lm_window_monitor_profile_action },
};


static gboolean
destroy_window (gpointer window)
{
  gtk_widget_destroy (GTK_WIDGET (window));
  return G_SOURCE_REMOVE;
}

/* From an idle callback: the prompt's answer may come from the middle of a result's delivery
 * (Export… then close), and destroying the window there would free it under its caller. */
static void
close_now (LmWindow *self, gpointer data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, destroy_window, g_object_ref (self), g_object_unref);
}

/* Closes at once where no edit would be lost; else the prompt (which does not wait) closes
 * the window once answered. */
static gboolean
on_delete (GtkWidget *widget, GdkEvent *event, LmWindow *self)
{
  gtk_window_set_focus (GTK_WINDOW (self), NULL); /* a value typed but not yet entered counts */
  lm_window_commit (self); /* as does an edit of the last moments */
  lm_window_sidecar_flush (self); /* and is kept, where sidecars are: nothing to ask then */
  if (self->history == NULL || !lm_history_is_dirty (self->history))
    return GDK_EVENT_PROPAGATE;
  lm_window_confirm_discard (self, G_CALLBACK (close_now), NULL);
  return GDK_EVENT_STOP;
}

/* ---- life -------------------------------------------------------------------------------- */

static GSettings *
settings_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  return schema ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

static void
save_window_state (LmWindow *self)
{
  if (self->settings == NULL)
    return;
  gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));
  g_settings_set_boolean (self->settings, "window-maximized", maximized);
  if (!maximized)
    {
      int w, h;
      gtk_window_get_size (GTK_WINDOW (self), &w, &h);
      g_settings_set_int (self->settings, "window-width", w);
      g_settings_set_int (self->settings, "window-height", h);
    }
}

static void
lm_window_dispose (GObject *object)
{
  LmWindow *self = LM_WINDOW (object);
  LmWindowPrivate *priv = lm_window_get_instance_private (self);
  /* A value typed but not yet entered is taken now, while what it renders with is there;
   * GtkWindow's dispose would take it after (lm_window_on_panel_changed then does nothing). */
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  if (self->worker)
    save_window_state (self);
  g_clear_handle_id (&priv->commit_source, g_source_remove);
  lm_window_status_stop (self);
  lm_window_sidecar_close (self); /* an edit of the last moments is kept too */
  lm_window_folder_free (self);
  lm_window_apply_free (self);
  lm_window_open_cancel (self);
  /* Cancelled before the worker is joined: it stops a long export or merge between steps
   * instead of finishing it while the window waits. */
  lm_window_export_cancel (self);
  lm_window_hdr_cancel (self);
  lm_window_objects_free (self);
  g_clear_pointer (&self->worker, lm_render_worker_free);
  /* Before the tools: closing the FITS session gives the photo controls, the tools' bar
   * among them, back. */
  lm_window_astro_free (self);
  lm_window_tools_free (self);
  lm_window_tags_free (self);
  lm_window_color_free (self);
  g_clear_object (&self->settings);
  g_clear_object (&self->file);
  G_OBJECT_CLASS (lm_window_parent_class)->dispose (object);
}

static void
lm_window_finalize (GObject *object)
{
  LmWindow *self = LM_WINDOW (object);
  g_clear_pointer (&self->source, lm_image_unref);
  g_clear_pointer (&self->history, lm_history_free);
  g_free (self->cuda_unavailable);
  lm_window_hdr_free (self);
  lm_window_edits_free (self);
  lm_window_sidecar_free (self);
  lm_window_open_free (self);
  lm_window_export_free (self);
  lm_window_split_free (self);
  lm_window_status_free (self);
  lm_window_instances_free (self);
  G_OBJECT_CLASS (lm_window_parent_class)->finalize (object);
}

static void
lm_window_class_init (LmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = lm_window_dispose;
  object_class->finalize = lm_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lumen/Lumen/window.ui");
  gtk_widget_class_bind_template_child (widget_class, LmWindow, header);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, gpu_button);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, compare_button);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, seen_check);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, info_icon);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, busy_box);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, diff_revealer);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, diff_label);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, gain_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, side_panel);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, histogram_box);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, log_check);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_image);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_zoom);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_timings);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_speedup);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_tags);
  gtk_widget_class_bind_template_child_full (widget_class, "preset_items", FALSE, 0); /* preset-menu.c */
  gtk_widget_class_bind_template_callback (widget_class, on_info_bar_response);

  /* Every result the worker delivers: kind (LmResultKind), generation, refined. */
  signals[RENDER_RESULT] = g_signal_new ("render-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_INT,
                                         G_TYPE_UINT64, G_TYPE_BOOLEAN);
}

static void
build_side_panel (LmWindow *self)
{
  self->histogram_view = LM_HISTOGRAM_VIEW (lm_histogram_view_new ());
  gtk_box_pack_start (self->histogram_box, GTK_WIDGET (self->histogram_view), FALSE, FALSE, 0);
  gtk_widget_show (GTK_WIDGET (self->histogram_view));
  g_object_bind_property (self->log_check, "active", self->histogram_view, "log", G_BINDING_SYNC_CREATE);
  if (self->settings)
    g_settings_bind (self->settings, "histogram-log", self->log_check, "active", G_SETTINGS_BIND_DEFAULT);

  /* A raw's development, then tone mapping: the operations apply to what it makes of the
   * scene light. */
  lm_window_build_raw_panel (self);
  lm_window_build_tonemap_panel (self);
  gtk_widget_show_all (GTK_WIDGET (self->side_panel));
  /* A panel per instance of the pipeline, in its order (window-instances.c). */
  lm_window_instances_init (self);
}

static void
lm_window_init (LmWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = settings_if_installed ();
  lm_window_status_init (self);
  lm_window_split_init (self);
  lm_window_open_init (self);
  lm_window_export_init (self);
  lm_window_sidecar_init (self);
  lm_window_edits_init (self);
  lm_window_presets_init (self);
  lm_window_hdr_init (self);
  lm_pipeline_init (&self->pipeline);
  lm_window_edits_set_original (self, &self->pipeline.tonemap);

  self->image_view = LM_IMAGE_VIEW (lm_image_view_new ());
  gtk_widget_show (GTK_WIDGET (self->image_view));
  gtk_stack_add_named (self->view_stack, GTK_WIDGET (self->image_view), "image");
  g_signal_connect_swapped (self->image_view, "view-changed", G_CALLBACK (lm_window_request_render), self);
  g_signal_connect_swapped (self->image_view, "view-changed", G_CALLBACK (lm_window_show_zoom), self);
  build_side_panel (self);

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
  lm_window_tools_init (self);
  lm_window_tags_init (self);
  update_actions (self);
  /* Until the worker says whether CUDA is usable. */
  gtk_widget_set_sensitive (self->gpu_button, FALSE);
  gtk_widget_set_tooltip_text (self->gpu_button, _("Looking for a CUDA device…"));
  lm_window_update_compare_tooltip (self);
  lm_window_show_speedup (self);
  if (self->settings)
    {
      g_autofree char *backend = g_settings_get_string (self->settings, "backend");
      self->backend = g_str_equal (backend, "cuda") ? LM_BACKEND_CUDA : LM_BACKEND_CPU;
      g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "backend")),
                                 g_variant_new_string (backend));
      gtk_adjustment_set_value (self->gain_adjustment, g_settings_get_double (self->settings, "compare-gain"));
      g_settings_bind (self->settings, "compare-gain", self->gain_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
      gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  else
    {
      /* The schema's defaults: the GPU where there is one (on_ready falls back otherwise). */
      self->backend = LM_BACKEND_CUDA;
      g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "backend")),
                                 g_variant_new_string ("cuda"));
      gtk_window_set_default_size (GTK_WINDOW (self), 1200, 800);
    }
  lm_window_compare_init (self);

  GtkWidget *recent = gtk_recent_chooser_menu_new ();
  GtkRecentFilter *filter = gtk_recent_filter_new ();
  gtk_recent_filter_add_pixbuf_formats (filter);
  gtk_recent_chooser_add_filter (GTK_RECENT_CHOOSER (recent), filter);
  gtk_recent_chooser_set_sort_type (GTK_RECENT_CHOOSER (recent), GTK_RECENT_SORT_MRU);
  gtk_recent_chooser_set_limit (GTK_RECENT_CHOOSER (recent), 12);
  g_signal_connect (recent, "item-activated", G_CALLBACK (lm_window_on_recent_activated), self);
  gtk_menu_button_set_popup (self->recent_button, recent);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, NULL, 0, GDK_ACTION_COPY);
  gtk_drag_dest_add_uri_targets (GTK_WIDGET (self));
  g_signal_connect (self, "drag-data-received", G_CALLBACK (lm_window_on_drag_data), self);
  g_signal_connect (self, "key-press-event", G_CALLBACK (lm_window_on_key), self);
  g_signal_connect (self, "key-release-event", G_CALLBACK (lm_window_on_key), self);
  g_signal_connect (self, "delete-event", G_CALLBACK (on_delete), self);

  self->worker = lm_render_worker_new (g_main_context_default (), on_result, self);
  lm_window_color_init (self);
  lm_window_astro_init (self);
  lm_window_objects_init (self);
  lm_window_folder_init (self);
}

LmWindow *
lm_window_new (GtkApplication *application)
{
  return g_object_new (LM_TYPE_WINDOW, "application", application, NULL);
}

GtkWidget *
lm_window_get_op_panel (LmWindow *self, LmOpId op)
{
  return GTK_WIDGET (lm_window_primary_panel (self, op));
}

GtkWidget *
lm_window_get_image_view (LmWindow *self)
{
  return GTK_WIDGET (self->image_view);
}

GtkWidget *
lm_window_get_histogram_view (LmWindow *self)
{
  return GTK_WIDGET (self->histogram_view);
}
