/* LmWindow (window.h): holds the photo, its pipeline and history, and the render worker;
 * turns every edit and every move of the view into a render request, and shows what comes
 * back. The main thread never waits on a render. */
#include "window.h"

#include <string.h>
#include <glib/gi18n.h>

#include "core/error.h"
#include "core/history.h"
#include "hdr-dialog.h"
#include "histogram-view.h"
#include "image-view.h"
#include "op-panel.h"

#define COMMIT_AFTER_MS 400 /* edits closer than this make one undo step */
#define APP_ID "io.github.lumen.Lumen"

struct _LmWindow {
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkHeaderBar *header;
  GtkMenuButton *recent_button;
  GtkWidget *gpu_button;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *view_stack;
  GtkRevealer *diff_revealer;
  GtkLabel *diff_label;
  GtkAdjustment *gain_adjustment;
  GtkBox *side_panel;
  GtkCheckButton *log_check;
  GtkLabel *status_image;
  GtkLabel *status_timings;
  GtkLabel *status_speedup;

  LmImageView *image_view;
  LmHistogramView *histogram_view;
  LmOpPanel *panels[LM_N_OPS];
  LmOpPanel *tonemap_panel; /* shown while the source is radiance */
  GtkWidget *tonemap_separator;

  GSettings *settings; /* NULL when the schema is not installed: defaults then */
  LmRenderWorker *worker;
  LmImage *source;     /* host memory */
  GFile *file;
  LmPipeline pipeline;
  LmHistory *history;
  guint commit_source;
  guint64 generation;  /* of the newest request */
  guint64 shown;       /* of the newest result shown */
  gint64 changed_us;   /* when the newest edit was made */
  LmBackendKind backend;
  gboolean cuda_usable;
  char *cuda_description;
  gboolean before;     /* the original is shown while the key is held */
  gboolean comparing;
  double full_ms[2];   /* the last full-resolution render on the CPU [0] and CUDA [1] */

  GtkWidget *progress_dialog;
  GtkProgressBar *progress_bar;
  GCancellable *export_cancellable;

  LmHdrDialog *hdr_dialog;
  GCancellable *merge_cancellable;
  GFile *merge_first;      /* the first exposure of the merge under way */
  guint merge_count;
  LmStage tonemap_default; /* what Reset All restores: Mertens' fusion needs none */
};

G_DEFINE_FINAL_TYPE (LmWindow, lm_window, GTK_TYPE_APPLICATION_WINDOW)

enum { RENDER_RESULT, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
show_message (LmWindow *self, GtkMessageType type, const char *message)
{
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

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

guint64
lm_window_get_generation (LmWindow *self)
{
  return self->generation;
}

/* ---- rendering --------------------------------------------------------------------------- */

/* A request for what is edited and shown now, with the next generation when NEXT. */
static LmRenderRequest
request_now (LmWindow *self, gboolean next, gboolean *ok)
{
  LmRenderRequest req = { 0 };
  *ok = self->source != NULL && lm_image_view_get_rect (self->image_view, &req.view);
  req.generation = next ? ++self->generation : self->generation;
  if (self->before)
    {
      lm_pipeline_init (&req.pipeline);
      req.pipeline.tonemap = self->pipeline.tonemap; /* radiance needs it to be seen at all */
    }
  else
    req.pipeline = self->pipeline;
  req.backend = self->backend;
  req.changed_us = self->changed_us ? self->changed_us : g_get_monotonic_time ();
  return req;
}

static void
request_render (LmWindow *self)
{
  gboolean ok;
  LmRenderRequest req = request_now (self, TRUE, &ok);
  g_debug ("render request %" G_GUINT64_FORMAT "%s", req.generation, ok ? "" : " (nothing to show)");
  if (!ok)
    return;
  lm_render_worker_request (self->worker, &req);
  if (self->comparing)
    lm_render_worker_compare (self->worker, &req, LM_BACKEND_CPU,
                              self->cuda_usable ? LM_BACKEND_CUDA : LM_BACKEND_CPU,
                              (float) gtk_adjustment_get_value (self->gain_adjustment));
}

static void
edited (LmWindow *self)
{
  self->changed_us = g_get_monotonic_time ();
  request_render (self);
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
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "compare")), have);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "reset-all")), have);
}

static void
commit (LmWindow *self)
{
  g_clear_handle_id (&self->commit_source, g_source_remove);
  if (self->history)
    lm_history_push (self->history, &self->pipeline);
  update_actions (self);
}

static gboolean
commit_later (gpointer data)
{
  LmWindow *self = data;
  self->commit_source = 0;
  commit (self);
  return G_SOURCE_REMOVE;
}

static void
on_panel_changed (LmOpPanel *panel, LmWindow *self)
{
  const LmStage *stage = lm_op_panel_get_stage (panel);
  if (stage->info == lm_tonemap_op_info ())
    self->pipeline.tonemap = *stage;
  else
    self->pipeline.stages[stage->info->id] = *stage;
  g_clear_handle_id (&self->commit_source, g_source_remove);
  self->commit_source = g_timeout_add (COMMIT_AFTER_MS, commit_later, self);
  edited (self);
}

static void
on_panel_committed (LmOpPanel *panel, LmWindow *self)
{
  commit (self);
}

static void
show_pipeline (LmWindow *self)
{
  for (int i = 0; i < LM_N_OPS; i++)
    lm_op_panel_set_stage (self->panels[i], &self->pipeline.stages[i]);
  lm_op_panel_set_stage (self->tonemap_panel, &self->pipeline.tonemap);
  edited (self);
  update_actions (self);
}

static char *
format_timings (const LmTimings *timings)
{
  g_autoptr (GString) text = g_string_new (NULL);
  for (guint i = 0; timings->entries && i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      if (text->len)
        g_string_append (text, ", ");
      if (t->cached)
        g_string_append_printf (text, _("%s cached"), t->label);
      else
        g_string_append_printf (text, _("%s %.2f ms"), t->label, t->ms);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
backend_label (const char *name)
{
  return g_strcmp0 (name, "cuda") == 0 ? _("GPU") : _("CPU");
}

static void
update_status (LmWindow *self, const LmRenderResult *r)
{
  g_autofree char *size = g_strdup_printf (_("%u×%u, %s"), r->width, r->height, backend_label (r->backend_name));
  gtk_label_set_text (self->status_image, size);

  double ops = lm_timings_total (&r->timings);
  gboolean computed = FALSE;
  for (guint i = 0; i < r->timings.entries->len; i++)
    computed |= !g_array_index (r->timings.entries, LmTiming, i).cached;
  int side = g_strcmp0 (r->backend_name, "cuda") == 0;
  if (computed)
    self->full_ms[side] = ops;
  g_autofree char *ops_text = format_timings (&r->timings);
  g_autoptr (GString) text = g_string_new (ops_text);
  if (text->len)
    g_string_append (text, " · ");
  g_string_append_printf (text, _("full render %.1f ms"), r->render_ms);
  if (r->upload_ms > 0)
    g_string_append_printf (text, _(" · upload %.1f ms"), r->upload_ms);
  g_string_append_printf (text, _(" · view download %.2f ms"), r->download_ms);
  gtk_label_set_text (self->status_timings, text->str);

  if (self->full_ms[0] > 0 && self->full_ms[1] > 0)
    {
      g_autofree char *speedup = g_strdup_printf (_("GPU %.0f× faster than the CPU"),
                                                  self->full_ms[0] / self->full_ms[1]);
      gtk_label_set_text (self->status_speedup, speedup);
    }
}

static void
show_compare (LmWindow *self, const LmRenderResult *r)
{
  if (r->error)
    {
      gtk_label_set_text (self->diff_label, r->error->message);
      return;
    }
  g_autofree char *stats = lm_diff_stats_describe (&r->diff);
  g_autofree char *text = g_strdup_printf (_("%s vs %s: %s · %.1f ms vs %.1f ms (%.1f×)"),
                                           backend_label (r->backend_name), backend_label (r->other_name),
                                           stats, r->render_ms, r->other_ms,
                                           r->other_ms > 0 ? r->render_ms / r->other_ms : 0.0);
  gtk_label_set_text (self->diff_label, text);
  lm_image_view_set_overlay (self->image_view, r->view, &r->view_rect);
}

static void
on_ready (LmWindow *self, const LmRenderResult *r)
{
  self->cuda_usable = r->cuda_unavailable == NULL;
  g_free (self->cuda_description);
  self->cuda_description = g_strdup (r->cuda_description);
  GAction *backend = g_action_map_lookup_action (G_ACTION_MAP (self), "backend");
  gtk_widget_set_sensitive (self->gpu_button, self->cuda_usable);
  gtk_widget_set_tooltip_text (self->gpu_button, self->cuda_usable ? r->cuda_description : r->cuda_unavailable);
  if (!self->cuda_usable && self->backend == LM_BACKEND_CUDA)
    g_action_change_state (backend, g_variant_new_string ("cpu"));
  else
    request_render (self);
}

static void
finish_export (LmWindow *self, const LmRenderResult *r)
{
  g_clear_pointer (&self->progress_dialog, gtk_widget_destroy);
  g_clear_object (&self->export_cancellable);
  if (r->error && g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (r->error)
    {
      show_message (self, GTK_MESSAGE_ERROR, r->error->message);
      return;
    }
  lm_history_mark_saved (self->history);
  g_autofree char *uri = g_filename_to_uri (r->path, NULL, NULL);
  if (uri)
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  g_autofree char *display = g_filename_display_name (r->path);
  g_autofree char *message = g_strdup_printf (_("Exported to %s"), display);
  show_message (self, GTK_MESSAGE_INFO, message);
}

/* A new source (IMAGE, host memory; from FILE, titled TITLE) with self->pipeline as its
 * starting point: a fresh history, the tone mapping panel where it is radiance. */
static void
start_editing (LmWindow *self, LmImage *image, GFile *file, const char *title)
{
  g_clear_pointer (&self->source, lm_image_unref);
  self->source = image;
  g_set_object (&self->file, file);
  self->tonemap_default = self->pipeline.tonemap;
  g_clear_pointer (&self->history, lm_history_free);
  self->history = lm_history_new (&self->pipeline);
  self->full_ms[0] = self->full_ms[1] = 0;
  gtk_label_set_text (self->status_speedup, "");
  gboolean radiance = image->format == LM_FORMAT_RGBA_F32;
  gtk_widget_set_visible (GTK_WIDGET (self->tonemap_panel), radiance);
  gtk_widget_set_visible (self->tonemap_separator, radiance);
  gtk_header_bar_set_title (self->header, title);
}

/* ---- merging HDR ------------------------------------------------------------------------- */

static void
finish_merge (LmWindow *self, const LmRenderResult *r)
{
  g_clear_object (&self->merge_cancellable);
  g_autoptr (GFile) first = g_steal_pointer (&self->merge_first);
  if (r->error && g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (r->error)
    {
      if (self->hdr_dialog)
        lm_hdr_dialog_finish (self->hdr_dialog, r->error, NULL);
      else
        show_message (self, GTK_MESSAGE_ERROR, r->error->message);
      return;
    }

  g_autofree char *timings = format_timings (&r->timings);
  g_autofree char *summary = g_strdup_printf (_("Merged %u exposures into %u×%u on the %s: %s"),
                                              self->merge_count, r->width, r->height,
                                              backend_label (r->backend_name), timings);
  if (self->hdr_dialog)
    lm_hdr_dialog_finish (self->hdr_dialog, NULL, summary);
  if (r->notice)
    show_message (self, GTK_MESSAGE_WARNING, r->notice);
  else
    gtk_info_bar_set_revealed (self->info_bar, FALSE);

  /* The worker has made the merged image its source; results made before are of no use. */
  lm_pipeline_init (&self->pipeline);
  if (r->method == LM_HDR_MERTENS)
    lm_pipeline_tonemap (&self->pipeline)->kind = LM_TONEMAP_NONE; /* fused: already 0..1 */
  g_autofree char *name = g_file_get_basename (first);
  g_autofree char *title = g_strdup_printf (_("%s (HDR, %u exposures)"), name, self->merge_count);
  start_editing (self, lm_image_ref (r->image), first, title);
  self->shown = self->generation;
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, r->width, r->height);
  show_pipeline (self);
}

static void
on_hdr_merge (LmHdrDialog *dialog, LmWindow *self)
{
  LmMergeSpec spec;
  if (self->merge_cancellable || !lm_hdr_dialog_get_spec (dialog, &spec))
    return;
  self->merge_cancellable = g_cancellable_new ();
  g_clear_object (&self->merge_first);
  self->merge_first = g_file_new_for_path (spec.paths[0]);
  self->merge_count = spec.n;
  LmRenderRequest req = { .generation = self->generation, .backend = self->backend };
  lm_hdr_dialog_set_running (dialog, TRUE);
  lm_render_worker_merge (self->worker, &req, &spec, self->merge_cancellable);
}

static void
on_hdr_response (GtkDialog *dialog, int response, LmWindow *self)
{
  if (response == LM_HDR_RESPONSE_MERGE)
    return;
  if (self->merge_cancellable)
    g_cancellable_cancel (self->merge_cancellable);
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

static void
merge_hdr_now (LmWindow *self, gpointer data)
{
  if (self->hdr_dialog)
    {
      gtk_window_present (GTK_WINDOW (self->hdr_dialog));
      return;
    }
  self->hdr_dialog = LM_HDR_DIALOG (lm_hdr_dialog_new (GTK_WINDOW (self)));
  g_object_add_weak_pointer (G_OBJECT (self->hdr_dialog), (gpointer *) &self->hdr_dialog);
  g_signal_connect (self->hdr_dialog, "merge", G_CALLBACK (on_hdr_merge), self);
  g_signal_connect (self->hdr_dialog, "response", G_CALLBACK (on_hdr_response), self);
  gtk_widget_show (GTK_WIDGET (self->hdr_dialog));
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
      if (r->generation < self->shown)
        ; /* superseded (or made for a source replaced since) */
      else if (r->error)
        show_message (self, GTK_MESSAGE_ERROR, r->error->message);
      else if (r->generation >= self->shown) /* an older one that arrives late is dropped */
        {
          self->shown = r->generation;
          lm_image_view_set_pixels (self->image_view, r->view, &r->view_rect, r->changed_us,
                                    g_get_monotonic_time ());
          lm_histogram_view_set_histogram (self->histogram_view, &r->histogram);
          if (r->refined)
            update_status (self, r);
        }
      if (r->notice)
        show_message (self, GTK_MESSAGE_WARNING, r->notice);
      break;
    case LM_RESULT_COMPARE:
      if (self->comparing)
        show_compare (self, r);
      break;
    case LM_RESULT_PROGRESS:
      if (self->progress_bar)
        gtk_progress_bar_set_fraction (self->progress_bar, r->fraction);
      break;
    case LM_RESULT_EXPORTED:
      finish_export (self, r);
      break;
    case LM_RESULT_MERGE_PROGRESS:
      if (self->hdr_dialog)
        {
          lm_hdr_dialog_set_progress (self->hdr_dialog, r->fraction, r->step);
          if (r->response)
            lm_hdr_dialog_set_response (self->hdr_dialog, r->response);
        }
      break;
    case LM_RESULT_MERGED:
      finish_merge (self, r);
      break;
    }
  g_signal_emit (self, signals[RENDER_RESULT], 0, (int) r->kind, r->generation, r->refined);
}

/* ---- opening ----------------------------------------------------------------------------- */

typedef struct {
  LmWindow *self;
  GFile *file;
} OpenJob;

static void
load_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  OpenJob *job = data;
  g_autofree char *path = g_file_get_path (job->file);
  GError *e = NULL;
  LmImage *image = path ? lm_io_load (path, lm_render_worker_host_allocator (job->self->worker), &e) : NULL;
  if (path == NULL)
    g_set_error (&e, LUMEN_ERROR, LM_ERROR_IO, _("%s: only local files can be opened"),
                 g_file_peek_path (job->file) ? g_file_peek_path (job->file) : "?");
  if (image)
    g_task_return_pointer (task, image, (GDestroyNotify) lm_image_unref);
  else
    g_task_return_error (task, e);
}

static void
open_job_free (OpenJob *job)
{
  g_object_unref (job->file);
  g_free (job);
}

static void
loaded (GObject *object, GAsyncResult *result, gpointer data)
{
  LmWindow *self = LM_WINDOW (object);
  OpenJob *job = g_task_get_task_data (G_TASK (result));
  GError *e = NULL;
  LmImage *image = g_task_propagate_pointer (G_TASK (result), &e);
  if (image == NULL)
    {
      show_message (self, GTK_MESSAGE_ERROR, e->message);
      g_error_free (e);
      return;
    }
  g_autofree char *name = g_file_get_basename (job->file);
  lm_pipeline_init (&self->pipeline);
  start_editing (self, image, job->file, name);
  self->generation = self->shown = 0;
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  g_autofree char *uri = g_file_get_uri (job->file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  if (self->settings)
    {
      g_autoptr (GFile) parent = g_file_get_parent (job->file);
      g_autofree char *folder = parent ? g_file_get_path (parent) : NULL;
      if (folder)
        g_settings_set_string (self->settings, "last-folder", folder);
    }

  lm_render_worker_set_source (self->worker, image);
  gtk_stack_set_visible_child (self->view_stack, GTK_WIDGET (self->image_view));
  lm_image_view_set_image_size (self->image_view, image->width, image->height);
  show_pipeline (self);
}

/* Asks before edits that are in neither an export nor a sidecar would be lost. THEN runs
 * when they may go. */
static void
confirm_discard (LmWindow *self, GCallback then, gpointer data)
{
  if (self->history == NULL || !lm_history_is_dirty (self->history))
    {
      ((void (*) (LmWindow *, gpointer)) then) (self, data);
      return;
    }
  g_autofree char *name = self->file ? g_file_get_basename (self->file) : g_strdup (_("the photo"));
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, GTK_MESSAGE_QUESTION,
                                              GTK_BUTTONS_NONE, _("Discard the edits of %s?"), name);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("They have not been exported."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Discard"),
                          GTK_RESPONSE_ACCEPT, NULL);
  int response = gtk_dialog_run (GTK_DIALOG (dialog));
  gtk_widget_destroy (dialog);
  if (response == GTK_RESPONSE_ACCEPT)
    ((void (*) (LmWindow *, gpointer)) then) (self, data);
}

static void
open_now (LmWindow *self, gpointer data)
{
  GFile *file = data;
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  OpenJob *job = g_new0 (OpenJob, 1);
  job->self = self;
  job->file = g_object_ref (file);
  g_autoptr (GTask) task = g_task_new (self, NULL, loaded, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) open_job_free);
  g_task_run_in_thread (task, load_in_thread);
}

void
lm_window_open (LmWindow *self, GFile *file)
{
  confirm_discard (self, G_CALLBACK (open_now), file);
}

static void
add_image_filter (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Photos"));
  static const char *const types[] = { "image/jpeg", "image/png", "image/tiff", "image/webp", "image/bmp", NULL };
  for (int i = 0; types[i]; i++)
    gtk_file_filter_add_mime_type (filter, types[i]);
  static const char *const patterns[] = { "*.jpg", "*.jpeg", "*.png", "*.tif", "*.tiff", "*.webp", "*.bmp", NULL };
  for (int i = 0; patterns[i]; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Open a Photo"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  add_image_filter (GTK_FILE_CHOOSER (chooser));
  g_autofree char *folder = self->settings ? g_settings_get_string (self->settings, "last-folder") : NULL;
  if (folder && *folder)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder);
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      lm_window_open (self, file);
    }
}

static void
on_recent_activated (GtkRecentChooser *chooser, LmWindow *self)
{
  g_autofree char *uri = gtk_recent_chooser_get_current_uri (chooser);
  if (uri)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uri);
      lm_window_open (self, file);
    }
}

static void
on_drag_data (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data,
              guint info, guint time, LmWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);
  if (uris && uris[0])
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uris[0]);
      lm_window_open (self, file);
    }
  gtk_drag_finish (context, uris && uris[0], FALSE, time);
}

/* ---- exporting --------------------------------------------------------------------------- */

static void
on_progress_response (GtkDialog *dialog, int response, LmWindow *self)
{
  if (self->export_cancellable)
    g_cancellable_cancel (self->export_cancellable);
}

void
lm_window_export_to (LmWindow *self, const char *path, const LmSaveOptions *options)
{
  gboolean ok;
  LmRenderRequest req = request_now (self, FALSE, &ok);
  req.pipeline = self->pipeline; /* what is edited, whatever is shown */
  if (self->source == NULL)
    return;
  g_clear_object (&self->export_cancellable);
  self->export_cancellable = g_cancellable_new ();

  g_autofree char *display = g_filename_display_name (path);
  self->progress_dialog = gtk_dialog_new_with_buttons (_("Exporting"), GTK_WINDOW (self),
                                                       GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                       _("_Cancel"), GTK_RESPONSE_CANCEL, NULL);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (self->progress_dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  gtk_box_set_spacing (GTK_BOX (box), 12);
  g_autofree char *text = g_strdup_printf (_("Writing %s at full resolution…"), display);
  gtk_container_add (GTK_CONTAINER (box), gtk_label_new (text));
  self->progress_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (self->progress_bar));
  g_signal_connect (self->progress_dialog, "response", G_CALLBACK (on_progress_response), self);
  g_signal_connect (self->progress_dialog, "destroy", G_CALLBACK (gtk_widget_destroyed), &self->progress_dialog);
  g_signal_connect_swapped (self->progress_dialog, "destroy", G_CALLBACK (g_nullify_pointer), &self->progress_bar);
  gtk_widget_show_all (self->progress_dialog);

  lm_render_worker_export (self->worker, &req, path, options, self->export_cancellable);
}

static int
ask_quality (LmWindow *self, int quality)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons (_("JPEG Quality"), GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                                   _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Export"),
                                                   GTK_RESPONSE_ACCEPT, NULL);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 100, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), quality);
  gtk_container_add (GTK_CONTAINER (box), spin);
  gtk_widget_show_all (dialog);
  int response = gtk_dialog_run (GTK_DIALOG (dialog));
  quality = response == GTK_RESPONSE_ACCEPT ? gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)) : -1;
  gtk_widget_destroy (dialog);
  return quality;
}

static gboolean
same_file (const char *a, GFile *b)
{
  g_autoptr (GFile) fa = g_file_new_for_path (a);
  return b != NULL && g_file_equal (fa, b);
}

static void
export_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Export the Photo"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (chooser), TRUE);
  g_autofree char *base = g_file_get_basename (self->file);
  char *dot = strrchr (base, '.');
  if (dot)
    *dot = '\0';
  gboolean radiance = self->source->format == LM_FORMAT_RGBA_F32;
  g_autofree char *suggested = g_strdup_printf (radiance ? "%s-hdr.jpg" : "%s-edited.jpg", base);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested);
  g_autoptr (GFile) parent = g_file_get_parent (self->file);
  if (parent)
    gtk_file_chooser_set_current_folder_file (GTK_FILE_CHOOSER (chooser), parent, NULL);
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) != GTK_RESPONSE_ACCEPT)
    return;
  g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (chooser));
  if (path == NULL)
    return;

  GError *e = NULL;
  LmFileType type = lm_file_type_for_output (path);
  if (type == LM_FILE_UNKNOWN || (type == LM_FILE_RADIANCE && !radiance))
    {
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *message = radiance ? g_strdup_printf (_("%s: export as .jpg, .png, .tif or .hdr"), display)
                                          : g_strdup_printf (_("%s: export as .jpg, .png or .tif"), display);
      show_message (self, GTK_MESSAGE_ERROR, message);
      return;
    }
  if (same_file (path, self->file))
    {
      GtkWidget *ask = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL, GTK_MESSAGE_WARNING,
                                               GTK_BUTTONS_NONE, _("Replace the original photo?"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (ask),
                                                _("The opened file would be overwritten by the edited one."));
      gtk_dialog_add_buttons (GTK_DIALOG (ask), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Replace"),
                              GTK_RESPONSE_ACCEPT, NULL);
      int response = gtk_dialog_run (GTK_DIALOG (ask));
      gtk_widget_destroy (ask);
      if (response != GTK_RESPONSE_ACCEPT)
        return;
    }
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  if (self->settings)
    options.quality = g_settings_get_int (self->settings, "jpeg-quality");
  if (lm_file_type_for_output (path) == LM_FILE_JPEG)
    {
      options.quality = ask_quality (self, options.quality);
      if (options.quality < 0)
        return;
      if (self->settings)
        g_settings_set_int (self->settings, "jpeg-quality", options.quality);
    }
  if (!lm_io_check_output (path, &e))
    {
      show_message (self, GTK_MESSAGE_ERROR, e->message);
      g_error_free (e);
      return;
    }
  lm_window_export_to (self, path, &options);
}

/* ---- other actions ----------------------------------------------------------------------- */

static void
undo_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  commit (self);
  if (lm_history_undo (self->history, &self->pipeline))
    show_pipeline (self);
}

static void
redo_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  commit (self);
  if (lm_history_redo (self->history, &self->pipeline))
    show_pipeline (self);
}

static void
reset_all_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  lm_pipeline_init (&self->pipeline);
  self->pipeline.tonemap = self->tonemap_default;
  show_pipeline (self);
  commit (self);
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
  edited (self);
}

static void
compare_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  LmWindow *self = data;
  g_simple_action_set_state (action, state);
  self->comparing = g_variant_get_boolean (state);
  gtk_revealer_set_reveal_child (self->diff_revealer, self->comparing);
  if (self->comparing)
    {
      gtk_label_set_text (self->diff_label, self->cuda_usable ? _("Comparing the CPU with the GPU…")
                                                              : _("No GPU: comparing the CPU with itself…"));
      request_render (self);
    }
  else
    lm_image_view_set_overlay (self->image_view, NULL, NULL);
}

static void
on_gain_changed (GtkAdjustment *adjustment, LmWindow *self)
{
  if (self->comparing)
    request_render (self);
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

static void
merge_hdr_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  confirm_discard (self, G_CALLBACK (merge_hdr_now), NULL);
}

static const GActionEntry win_actions[] = {
  { "open", open_action },
  { "export", export_action },
  { "undo", undo_action },
  { "redo", redo_action },
  { "reset-all", reset_all_action },
  { "backend", NULL, "s", "'cpu'", backend_changed },
  { "compare", NULL, NULL, "false", compare_changed },
  { "zoom-in", zoom_action },
  { "zoom-out", zoom_action },
  { "zoom-fit", zoom_action },
  { "zoom-100", zoom_action },
  { "merge-hdr", merge_hdr_action },
};

/* Holding the backslash key shows the photo as it was opened. */
static gboolean
on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self)
{
  if (event->keyval != GDK_KEY_backslash || self->source == NULL)
    return GDK_EVENT_PROPAGATE;
  gboolean before = event->type == GDK_KEY_PRESS;
  if (before != self->before)
    {
      self->before = before;
      request_render (self);
    }
  return GDK_EVENT_STOP;
}

static void
allow (LmWindow *self, gpointer flag)
{
  *(gboolean *) flag = TRUE;
}

static gboolean
on_delete (GtkWidget *widget, GdkEvent *event, LmWindow *self)
{
  gboolean go = FALSE;
  confirm_discard (self, G_CALLBACK (allow), &go);
  return go ? GDK_EVENT_PROPAGATE : GDK_EVENT_STOP;
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
  if (self->worker)
    save_window_state (self);
  g_clear_handle_id (&self->commit_source, g_source_remove);
  g_clear_pointer (&self->worker, lm_render_worker_free);
  if (self->export_cancellable)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  if (self->merge_cancellable)
    g_cancellable_cancel (self->merge_cancellable);
  g_clear_object (&self->merge_cancellable);
  g_clear_object (&self->merge_first);
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
  g_free (self->cuda_description);
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
  gtk_widget_class_bind_template_child (widget_class, LmWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, diff_revealer);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, diff_label);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, gain_adjustment);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, side_panel);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, log_check);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_image);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_timings);
  gtk_widget_class_bind_template_child (widget_class, LmWindow, status_speedup);
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
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->histogram_view), FALSE, FALSE, 0);
  gtk_box_reorder_child (self->side_panel, GTK_WIDGET (self->histogram_view), 1);
  g_object_bind_property (self->log_check, "active", self->histogram_view, "log", G_BINDING_SYNC_CREATE);
  if (self->settings)
    g_settings_bind (self->settings, "histogram-log", self->log_check, "active", G_SETTINGS_BIND_DEFAULT);

  /* Tone mapping first: the operations apply to what it makes of the radiance. */
  self->tonemap_panel = LM_OP_PANEL (lm_op_panel_new (lm_tonemap_op_info ()));
  lm_op_panel_set_switchable (self->tonemap_panel, FALSE);
  gtk_widget_set_name (GTK_WIDGET (self->tonemap_panel), "tonemap");
  g_signal_connect (self->tonemap_panel, "changed", G_CALLBACK (on_panel_changed), self);
  g_signal_connect (self->tonemap_panel, "committed", G_CALLBACK (on_panel_committed), self);
  self->tonemap_separator = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_box_pack_start (self->side_panel, self->tonemap_separator, FALSE, FALSE, 0);
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->tonemap_panel), FALSE, FALSE, 0);
  /* Its insides shown now; the panel itself only while the source is radiance. */
  gtk_widget_show_all (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_hide (GTK_WIDGET (self->tonemap_panel));
  gtk_widget_set_no_show_all (GTK_WIDGET (self->tonemap_panel), TRUE);
  gtk_widget_set_no_show_all (self->tonemap_separator, TRUE);

  for (int i = 0; i < LM_N_OPS; i++)
    {
      self->panels[i] = LM_OP_PANEL (lm_op_panel_new (lm_op_info (i)));
      g_signal_connect (self->panels[i], "changed", G_CALLBACK (on_panel_changed), self);
      g_signal_connect (self->panels[i], "committed", G_CALLBACK (on_panel_committed), self);
      gtk_box_pack_start (self->side_panel, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), FALSE, FALSE, 0);
      gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->panels[i]), FALSE, FALSE, 0);
    }
  gtk_widget_show_all (GTK_WIDGET (self->side_panel));
}

static void
lm_window_init (LmWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->settings = settings_if_installed ();
  lm_pipeline_init (&self->pipeline);
  self->tonemap_default = self->pipeline.tonemap;

  self->image_view = LM_IMAGE_VIEW (lm_image_view_new ());
  gtk_widget_show (GTK_WIDGET (self->image_view));
  gtk_stack_add_named (self->view_stack, GTK_WIDGET (self->image_view), "image");
  g_signal_connect_swapped (self->image_view, "view-changed", G_CALLBACK (request_render), self);
  build_side_panel (self);

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
  update_actions (self);
  /* Until the worker says whether CUDA is usable. */
  gtk_widget_set_sensitive (self->gpu_button, FALSE);
  gtk_widget_set_tooltip_text (self->gpu_button, _("Looking for a CUDA device…"));
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
  g_signal_connect (self->gain_adjustment, "value-changed", G_CALLBACK (on_gain_changed), self);

  GtkWidget *recent = gtk_recent_chooser_menu_new ();
  GtkRecentFilter *filter = gtk_recent_filter_new ();
  gtk_recent_filter_add_pixbuf_formats (filter);
  gtk_recent_chooser_add_filter (GTK_RECENT_CHOOSER (recent), filter);
  gtk_recent_chooser_set_sort_type (GTK_RECENT_CHOOSER (recent), GTK_RECENT_SORT_MRU);
  gtk_recent_chooser_set_limit (GTK_RECENT_CHOOSER (recent), 12);
  g_signal_connect (recent, "item-activated", G_CALLBACK (on_recent_activated), self);
  gtk_menu_button_set_popup (self->recent_button, recent);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, NULL, 0, GDK_ACTION_COPY);
  gtk_drag_dest_add_uri_targets (GTK_WIDGET (self));
  g_signal_connect (self, "drag-data-received", G_CALLBACK (on_drag_data), self);
  g_signal_connect (self, "key-press-event", G_CALLBACK (on_key), self);
  g_signal_connect (self, "key-release-event", G_CALLBACK (on_key), self);
  g_signal_connect (self, "delete-event", G_CALLBACK (on_delete), self);

  self->worker = lm_render_worker_new (g_main_context_default (), on_result, self);
}

LmWindow *
lm_window_new (GtkApplication *application)
{
  return g_object_new (LM_TYPE_WINDOW, "application", application, NULL);
}

GtkWidget *
lm_window_get_op_panel (LmWindow *self, LmOpId op)
{
  return GTK_WIDGET (self->panels[op]);
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
