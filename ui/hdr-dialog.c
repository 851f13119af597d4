/* LmHdrDialog (hdr-dialog.h). The table is checked at every change, with the HDR job's
 * checks (core/merge/job.h), so that what cannot be merged (too few or too many exposures, two
 * sizes, a missing time) is said before Merge is pressed; the job checks again, the times
 * too, when the worker loads them.
 *
 * The main thread reads no file: an exposure's size, EXIF time and thumbnail come from
 * Lumen's loader on a thread, one exposure at a time, within its bounds (the pixel budget,
 * JPEG's scans, PNG's text chunks); what it refuses leaves the table with its reason. Only
 * what is not a regular file is refused at once, from its stat: a fifo would block any read
 * of it for ever. */
#include "hdr-dialog.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/error.h"
#include "core/merge/job.h"
#include "hdr-exposure.h"
#include "response-plot.h"

/* A row whose COL_WIDTH is 0 is still being read. */
enum { COL_PATH, COL_NAME, COL_SIZE, COL_WIDTH, COL_HEIGHT, COL_TIME, COL_TIME_TEXT, COL_EV, COL_THUMB };

/* Thumbnails fit in this box (the .ui gives their cells room for it and a margin). */
enum { THUMB_WIDTH = 40, THUMB_HEIGHT = 30 };

struct _LmHdrDialog {
  GtkDialog parent_instance;

  /* template children */
  GtkListStore *store;
  GtkTreeView *table;
  GtkInfoBar *error_bar;
  GtkLabel *error_label;
  GtkLabel *hint_label;
  GtkComboBoxText *method_combo;
  GtkToggleButton *align_check;
  GtkBox *plot_box;
  GtkLabel *step_label;
  GtkProgressBar *progress;
  GtkWidget *close_button;
  GtkWidget *merge_button;
  GtkTreeViewColumn *ev_column;

  LmResponsePlot *plot;
  gboolean running;
  GPtrArray *paths; /* of the last spec */
  GArray *times;
  GQueue *unread;        /* paths of the rows still to read, in order */
  gboolean reading;      /* one of them is being read */
  GCancellable *reads;   /* cancelled when the dialog goes */
  char *refused;         /* the first file refused since the last add, why */
  guint n_refused;
};

G_DEFINE_FINAL_TYPE (LmHdrDialog, lm_hdr_dialog, GTK_TYPE_DIALOG)

enum { MERGE, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
show_error (LmHdrDialog *self, const char *message)
{
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

/* A file the table does not take, with MESSAGE (naming it) as the reason: said until the
 * person next changes the table, before the table's own errors. */
static void
refuse (LmHdrDialog *self, const char *message)
{
  if (self->n_refused++ == 0)
    self->refused = g_strdup (message);
}

static void
forget_refused (LmHdrDialog *self)
{
  g_clear_pointer (&self->refused, g_free);
  self->n_refused = 0;
}

static char *
refused_text (LmHdrDialog *self)
{
  if (self->n_refused <= 1)
    return g_strdup (self->refused);
  guint more = self->n_refused - 1;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more file that cannot be added)",
                                       "%s (and %u more files that cannot be added)", more),
                          self->refused, more);
}

/* Cameras write short times as 1/N: show them so where that is what they are. */
static char *
format_time (double t)
{
  if (!(t > 0.0))
    return g_strdup (_("? (enter it)"));
  double n = 1.0 / t;
  if (t < 1.0 && fabs (n - round (n)) < 1e-3 * n)
    return g_strdup_printf ("1/%.0f", round (n));
  return g_strdup_printf ("%g", t);
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* "−2 EV", "+0.3 EV", "0 EV": a bracket's steps as a camera shows them. */
static char *
format_ev (double ev)
{
  double thirds = round (ev * 3.0) / 3.0; /* cameras bracket in thirds of a stop */
  if (fabs (thirds) < 0.05)
    return g_strdup_printf (_("%s EV"), "0");
  g_autofree char *number = g_strdup_printf ("%.1f", fabs (thirds));
  gsize len = strlen (number);
  if (len > 2 && number[len - 1] == '0' && (number[len - 2] == '.' || number[len - 2] == ','))
    number[len - 2] = '\0';
  g_autofree char *value = g_strconcat (thirds < 0 ? "−" : "+", number, NULL);
  /* TRANSLATORS: an exposure relative to the bracket's middle one, in stops: "+2 EV". */
  return g_strdup_printf (_("%s EV"), value);
}

/* Each exposure's EV from the times: log₂ of its time over the middle one's (the middle of
 * those known, in order of time; the shorter of the two middle ones for an even count), as a
 * bracket is told "−2, 0, +2". Blank where the time is not known. */
static void
update_evs (LmHdrDialog *self)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  GtkTreeIter iter;
  g_autoptr (GArray) known = g_array_new (FALSE, FALSE, sizeof (double));
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      double t;
      gtk_tree_model_get (model, &iter, COL_TIME, &t, -1);
      if (t > 0.0)
        g_array_append_val (known, t);
    }
  g_array_sort (known, compare_doubles);
  double middle = known->len ? g_array_index (known, double, (known->len - 1) / 2) : 0.0;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      double t;
      gtk_tree_model_get (model, &iter, COL_TIME, &t, -1);
      g_autofree char *ev = t > 0.0 ? format_ev (log2 (t / middle)) : NULL;
      gtk_list_store_set (self->store, &iter, COL_EV, ev, -1);
    }
}

/* Checks the table: the error (shown in the bar) or the hint, and whether Merge may go. */
static gboolean
check (LmHdrDialog *self)
{
  update_evs (self); /* every change of the table comes here */
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  GtkTreeIter iter;
  guint n = 0, unread = 0;
  int w0 = 0, h0 = 0;
  g_autofree char *first = NULL, *untimed = NULL;
  g_autoptr (GError) error = NULL;
  /* The HDR job's checks (core/merge/job.h), on what the table knows before the merge: the
   * sizes of the exposures read so far, the count (the dialog's own limit); the times' are
   * the job's when Merge is pressed. */
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *name = NULL, *path = NULL;
      int w, h;
      double t;
      gtk_tree_model_get (model, &iter, COL_NAME, &name, COL_PATH, &path, COL_WIDTH, &w, COL_HEIGHT, &h,
                          COL_TIME, &t, -1);
      n++;
      if (w == 0)
        {
          unread++; /* its size and time are still to come */
          continue;
        }
      if (first == NULL)
        {
          first = g_strdup (path);
          w0 = w, h0 = h;
        }
      else if (error == NULL)
        lm_hdr_job_check_size (path, w, h, first, w0, h0, &error);
      if (!(t > 0.0) && untimed == NULL)
        untimed = g_strdup (name);
    }
  if (error == NULL && n >= 2)
    lm_hdr_job_check_count (n, LM_HDR_DIALOG_MAX, &error);
  g_autofree char *refused = refused_text (self);
  show_error (self, refused ? refused : error ? error->message : NULL);

  /* Fusion weighs the exposures by their pixels alone: it needs no times. */
  const char *method = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->method_combo));
  if (g_strcmp0 (method, "mertens") == 0)
    g_clear_pointer (&untimed, g_free);

  g_autofree char *hint = NULL;
  if (unread > 0)
    hint = g_strdup (_("Reading the exposures…"));
  else if (n < 2)
    hint = g_strdup (_("Add two to sixteen exposures of one scene."));
  else if (untimed)
    hint = g_strdup_printf (_("%s has no exposure time in its EXIF: enter it in the table."), untimed);
  else if (error == NULL)
    hint = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u exposure, ready to merge.",
                                         "%u exposures, ready to merge.", n), n);
  gtk_label_set_text (self->hint_label, hint ? hint : "");
  gboolean ok = error == NULL && n >= 2 && untimed == NULL && unread == 0;
  gtk_widget_set_sensitive (self->merge_button, ok && !self->running);
  return ok;
}

static void
on_method_changed (GtkComboBox *combo, LmHdrDialog *self)
{
  check (self);
}

/* In a worker thread: the exposure at PATH (the task's data), as the merge will load it. */
static void
read_exposure (GTask *task, gpointer source, gpointer path, GCancellable *cancellable)
{
  GError *e = NULL;
  LmHdrExposure *x = lm_hdr_exposure_read (path, THUMB_WIDTH, THUMB_HEIGHT, &e);
  if (x == NULL)
    g_task_return_error (task, e);
  else
    g_task_return_pointer (task, x, (GDestroyNotify) lm_hdr_exposure_free);
}

static gboolean
find_row (LmHdrDialog *self, const char *path, GtkTreeIter *iter)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, iter); ok; ok = gtk_tree_model_iter_next (model, iter))
    {
      g_autofree char *row_path = NULL;
      gtk_tree_model_get (model, iter, COL_PATH, &row_path, -1);
      if (g_strcmp0 (row_path, path) == 0)
        return TRUE;
    }
  return FALSE;
}

static void read_next (LmHdrDialog *self);

/* The exposure read into its row, if the row is still there; one the loader refused leaves
 * the table, its reason said. Nothing when the dialog has gone (the read is cancelled). */
static void
exposure_read (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) e = NULL;
  LmHdrExposure *x = g_task_propagate_pointer (G_TASK (result), &e);
  if (g_error_matches (e, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  LmHdrDialog *self = LM_HDR_DIALOG (source);
  const char *path = g_task_get_task_data (G_TASK (result));
  self->reading = FALSE;
  GtkTreeIter iter;
  if (find_row (self, path, &iter))
    {
      if (x == NULL)
        {
          gtk_list_store_remove (self->store, &iter);
          refuse (self, e->message);
        }
      else
        {
          double typed;
          gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_TIME, &typed, -1);
          double t = typed > 0.0 ? typed : x->seconds; /* a time typed meanwhile stays */
          g_autofree char *size = g_strdup_printf ("%u×%u", x->width, x->height);
          g_autofree char *time = format_time (t);
          gtk_list_store_set (self->store, &iter, COL_SIZE, size, COL_WIDTH, (int) x->width, COL_HEIGHT,
                              (int) x->height, COL_TIME, t, COL_TIME_TEXT, time, COL_THUMB, x->thumbnail, -1);
        }
    }
  g_clear_pointer (&x, lm_hdr_exposure_free);
  read_next (self);
  check (self);
}

/* One exposure at a time: each is decoded whole, and sixteen photos of 50 MP at once would
 * take 3 GB. */
static void
read_next (LmHdrDialog *self)
{
  GtkTreeIter iter;
  char *path = NULL;
  while (!self->reading && path == NULL && !g_queue_is_empty (self->unread))
    {
      path = g_queue_pop_head (self->unread);
      if (!find_row (self, path, &iter))
        g_clear_pointer (&path, g_free); /* removed before it was read */
    }
  if (path == NULL)
    return;
  self->reading = TRUE;
  g_autoptr (GTask) task = g_task_new (self, self->reads, exposure_read, NULL);
  g_task_set_task_data (task, path, g_free);
  g_task_run_in_thread (task, read_exposure);
}

/* Whether PATH may be read: a regular file, or one whose stat fails (the loader then says
 * why, as for any file it cannot open). Anything else is refused by its stat, in the
 * loader's words (core/io/file-read.c): no read of it could be trusted to end. */
static gboolean
may_read (const char *path, GError **error)
{
  GStatBuf st;
  if (g_stat (path, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE;
  const char *cause = S_ISDIR (st.st_mode)
                        ? _("is a folder, not an image file")
                        : _("is not a regular file (a pipe, a device or a socket); give an image file");
  lm_set_file_error (error, LM_ERROR_IO, path, "%s", cause);
  return FALSE;
}

void
lm_hdr_dialog_add_files (LmHdrDialog *self, const char *const *paths, guint n)
{
  forget_refused (self); /* what was refused before is old news */
  for (guint i = 0; i < n; i++)
    {
      GtkTreeIter iter;
      if (find_row (self, paths[i], &iter))
        continue;
      g_autoptr (GError) e = NULL;
      if (!may_read (paths[i], &e))
        {
          refuse (self, e->message);
          continue;
        }
      g_autofree char *name = g_filename_display_basename (paths[i]);
      gtk_list_store_insert_with_values (self->store, NULL, -1, COL_PATH, paths[i], COL_NAME, name, COL_SIZE, "…",
                                         COL_WIDTH, 0, COL_HEIGHT, 0, COL_TIME, 0.0, COL_TIME_TEXT, "", -1);
      g_queue_push_tail (self->unread, g_strdup (paths[i]));
    }
  read_next (self);
  check (self);
}

gboolean
lm_hdr_dialog_set_time_text (LmHdrDialog *self, guint index, const char *text)
{
  GtkTreeIter iter;
  if (!gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (self->store), &iter, NULL, (int) index))
    return FALSE;
  g_autofree char *name = NULL, *path = NULL;
  gtk_tree_model_get (GTK_TREE_MODEL (self->store), &iter, COL_NAME, &name, COL_PATH, &path, -1);
  /* The one parser of exposure times ("1/250", "0.004", "2 s"), and the job's range. */
  double t;
  g_autoptr (GError) e = NULL;
  if (!lm_hdr_parse_seconds (text, &t, NULL))
    {
      g_autofree char *message = g_strdup_printf (
        _("%s: “%s” is not an exposure time; give seconds, such as 0.004 or 1/250"), name, text);
      show_error (self, message);
      return FALSE;
    }
  if (!lm_hdr_check_time (path, t, &e))
    {
      show_error (self, e->message);
      return FALSE;
    }
  g_autofree char *shown = format_time (t);
  gtk_list_store_set (self->store, &iter, COL_TIME, t, COL_TIME_TEXT, shown, -1);
  forget_refused (self);
  check (self);
  return TRUE;
}

static void
on_time_edited (GtkCellRendererText *renderer, char *path, char *text, LmHdrDialog *self)
{
  g_autoptr (GtkTreePath) tree_path = gtk_tree_path_new_from_string (path);
  if (tree_path && gtk_tree_path_get_depth (tree_path) == 1)
    lm_hdr_dialog_set_time_text (self, (guint) gtk_tree_path_get_indices (tree_path)[0], text);
}

static void
on_add_clicked (GtkButton *button, LmHdrDialog *self)
{
  g_autoptr (GtkFileChooserNative) chooser = gtk_file_chooser_native_new (
    _("Add Exposures"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  GtkFileFilter *filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Photos"));
  gtk_file_filter_add_pixbuf_formats (filter);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  if (gtk_native_dialog_run (GTK_NATIVE_DIALOG (chooser)) != GTK_RESPONSE_ACCEPT)
    return;
  GSList *files = gtk_file_chooser_get_filenames (GTK_FILE_CHOOSER (chooser));
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  for (GSList *l = files; l; l = l->next)
    g_ptr_array_add (paths, l->data);
  lm_hdr_dialog_add_files (self, (const char *const *) paths->pdata, paths->len);
  g_slist_free_full (files, g_free);
}

static void
on_remove_clicked (GtkButton *button, LmHdrDialog *self)
{
  GtkTreeSelection *selection = gtk_tree_view_get_selection (self->table);
  GList *rows = gtk_tree_selection_get_selected_rows (selection, NULL);
  /* From the last, so that the earlier rows' paths stay valid. */
  rows = g_list_reverse (rows);
  for (GList *l = rows; l; l = l->next)
    {
      GtkTreeIter iter;
      if (gtk_tree_model_get_iter (GTK_TREE_MODEL (self->store), &iter, l->data))
        gtk_list_store_remove (self->store, &iter);
    }
  g_list_free_full (rows, (GDestroyNotify) gtk_tree_path_free);
  forget_refused (self);
  check (self);
}

gboolean
lm_hdr_dialog_get_spec (LmHdrDialog *self, LmMergeSpec *spec)
{
  if (!check (self))
    return FALSE;
  g_ptr_array_set_size (self->paths, 0);
  g_array_set_size (self->times, 0);
  GtkTreeModel *model = GTK_TREE_MODEL (self->store);
  GtkTreeIter iter;
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok; ok = gtk_tree_model_iter_next (model, &iter))
    {
      char *path;
      double t;
      gtk_tree_model_get (model, &iter, COL_PATH, &path, COL_TIME, &t, -1);
      g_ptr_array_add (self->paths, path);
      g_array_append_val (self->times, t);
    }
  const char *method = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->method_combo));
  gboolean all_timed = TRUE;
  for (guint i = 0; i < self->times->len; i++)
    all_timed = all_timed && g_array_index (self->times, double, i) > 0.0;
  *spec = (LmMergeSpec) {
    .paths = (const char *const *) self->paths->pdata,
    /* Only Mertens gets here with a time missing: it then takes none. */
    .times = all_timed ? (const double *) self->times->data : NULL,
    .n = self->paths->len,
    .align = gtk_toggle_button_get_active (self->align_check),
  };
  if (method == NULL || !lm_hdr_method_parse (method, &spec->method))
    spec->method = LM_HDR_DEBEVEC;
  return TRUE;
}

void
lm_hdr_dialog_set_running (LmHdrDialog *self, gboolean running)
{
  self->running = running;
  gtk_button_set_label (GTK_BUTTON (self->close_button), running ? _("_Cancel") : _("_Close"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->table), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->method_combo), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->align_check), !running);
  if (running)
    {
      forget_refused (self);
      show_error (self, NULL);
      lm_response_plot_set_response (self->plot, NULL);
      lm_hdr_dialog_set_progress (self, 0.0, NULL);
    }
  check (self);
}

void
lm_hdr_dialog_set_progress (LmHdrDialog *self, double fraction, const char *step)
{
  gtk_progress_bar_set_fraction (self->progress, fraction);
  gtk_label_set_text (self->step_label, step ? step : "");
}

void
lm_hdr_dialog_set_response (LmHdrDialog *self, const LmResponse *response)
{
  lm_response_plot_set_response (self->plot, response);
}

void
lm_hdr_dialog_finish (LmHdrDialog *self, const GError *error, const char *summary)
{
  lm_hdr_dialog_set_running (self, FALSE);
  if (error)
    {
      gtk_progress_bar_set_fraction (self->progress, 0.0);
      gtk_label_set_text (self->step_label, "");
      show_error (self, error->message);
    }
  else
    lm_hdr_dialog_set_progress (self, 1.0, summary);
}

const char *
lm_hdr_dialog_get_error (LmHdrDialog *self)
{
  return gtk_info_bar_get_revealed (self->error_bar) ? gtk_label_get_text (self->error_label) : NULL;
}

const char *
lm_hdr_dialog_get_hint (LmHdrDialog *self)
{
  return gtk_label_get_text (self->hint_label);
}

GtkWidget *
lm_hdr_dialog_get_plot (LmHdrDialog *self)
{
  return GTK_WIDGET (self->plot);
}

static void
lm_hdr_dialog_response (GtkDialog *dialog, int response)
{
  LmHdrDialog *self = LM_HDR_DIALOG (dialog);
  LmMergeSpec spec;
  if (response == LM_HDR_RESPONSE_MERGE && !self->running && lm_hdr_dialog_get_spec (self, &spec))
    g_signal_emit (self, signals[MERGE], 0);
}

static void
lm_hdr_dialog_dispose (GObject *object)
{
  LmHdrDialog *self = LM_HDR_DIALOG (object);
  if (self->reads)
    g_cancellable_cancel (self->reads);
  g_clear_object (&self->reads);
  if (self->unread)
    g_queue_clear_full (self->unread, g_free);
  G_OBJECT_CLASS (lm_hdr_dialog_parent_class)->dispose (object);
}

static void
lm_hdr_dialog_finalize (GObject *object)
{
  LmHdrDialog *self = LM_HDR_DIALOG (object);
  g_ptr_array_unref (self->paths);
  g_array_unref (self->times);
  g_queue_free_full (self->unread, g_free);
  g_free (self->refused);
  G_OBJECT_CLASS (lm_hdr_dialog_parent_class)->finalize (object);
}

static void
lm_hdr_dialog_class_init (LmHdrDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  G_OBJECT_CLASS (klass)->dispose = lm_hdr_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = lm_hdr_dialog_finalize;
  GTK_DIALOG_CLASS (klass)->response = lm_hdr_dialog_response;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/lumen/Lumen/hdr-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, store);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, table);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, error_bar);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, hint_label);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, method_combo);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, align_check);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, plot_box);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, step_label);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, progress);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, close_button);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, merge_button);
  gtk_widget_class_bind_template_child (widget_class, LmHdrDialog, ev_column);
  gtk_widget_class_bind_template_callback (widget_class, on_time_edited);
  gtk_widget_class_bind_template_callback (widget_class, on_method_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_remove_clicked);

  /* Merge was pressed and the table is in order: lm_hdr_dialog_get_spec says what to merge. */
  signals[MERGE] = g_signal_new ("merge", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                 NULL, G_TYPE_NONE, 0);
}

static void
lm_hdr_dialog_init (LmHdrDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->reads = g_cancellable_new ();
  self->unread = g_queue_new ();
  gtk_widget_set_tooltip_text (gtk_tree_view_column_get_button (self->ev_column),
                               _("Each exposure in stops from the middle one, from the times"));
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->times = g_array_new (FALSE, FALSE, sizeof (double));
  self->plot = LM_RESPONSE_PLOT (lm_response_plot_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->plot), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->plot), TRUE);
  gtk_widget_show (GTK_WIDGET (self->plot));
  gtk_container_add (GTK_CONTAINER (self->plot_box), GTK_WIDGET (self->plot));
  check (self);
}

GtkWidget *
lm_hdr_dialog_new (GtkWindow *parent)
{
  return g_object_new (LM_TYPE_HDR_DIALOG, "transient-for", parent, "use-header-bar", FALSE, NULL);
}
