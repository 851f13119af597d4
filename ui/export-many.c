/* Export Selected… (export-many.h). The settings come first; Export turns the dialog into the
 * run's progress, and its end into the outcome, as Apply Edits to Photos does. */
#include "export-many.h"

#include <glib/gi18n.h>

#include "core/batch/develop-job.h"
#include "core/batch/develop-list.h"
#include "core/library/presets.h"
#include "core/pixel-budget.h"
#include "export-options.h"

typedef struct {
  GtkWidget *dialog;
  GPtrArray *photos; /* of char * */
  GtkWidget *settings, *outdir, *pattern, *format, *quality, *own_edits, *preset, *options;
  GtkWidget *error_bar;
  GtkLabel *error_label, *label, *failures_label;
  GtkProgressBar *bar;
  GtkWidget *details;
  LmDevelopJob *job;
  gboolean finished;
} ExportMany;

/* The dialog closed: a run still going is let go, not waited for (a 50 MP photo in hand
 * takes a second or more), and the application stays until it has written what it holds. */
static void
export_many_free (gpointer data)
{
  ExportMany *e = data;
  GApplication *app = g_application_get_default ();
  if (e->job != NULL && !e->finished && app != NULL)
    {
      g_application_hold (app);
      lm_develop_job_let_go (e->job, (GDestroyNotify) g_application_release, app);
    }
  else
    lm_develop_job_free (e->job);
  g_ptr_array_unref (e->photos);
  g_free (e);
}

static void
show_error (ExportMany *e, const char *message)
{
  gtk_label_set_text (e->error_label, message);
  gtk_widget_show (e->error_bar);
}

static void
on_progress (guint done, guint failed, gpointer data)
{
  ExportMany *e = data;
  guint total = e->photos->len;
  g_autofree char *text = g_strdup_printf (_("%u of %u photos exported, %u failed"), done, total, failed);
  gtk_label_set_text (e->label, text);
  gtk_progress_bar_set_fraction (e->bar, total ? (double) (done + failed) / total : 1.0);
}

static void
on_done (const LmDevelopStats *stats, GPtrArray *failures, const GError *error, gpointer data)
{
  ExportMany *e = data;
  e->finished = TRUE;
  on_progress (stats->done, stats->failed, e);
  g_autoptr (GString) details = g_string_new (NULL);
  if (error)
    g_string_append_printf (details, _("The export stopped: %s"), error->message);
  else if (stats->cancelled)
    g_string_append_printf (details,
                            g_dngettext (NULL, "Cancelled: %u photo was not exported.",
                                         "Cancelled: %u photos were not exported.", stats->cancelled),
                            stats->cancelled);
  for (guint i = 0; i < failures->len; i++)
    {
      const LmDevelopFailure *f = failures->pdata[i];
      g_string_append_printf (details, "%s%s", details->len ? "\n" : "", f->reason);
    }
  gtk_label_set_text (e->failures_label, details->str);
  gtk_widget_set_visible (e->details, details->len > 0);
  gtk_widget_hide (gtk_dialog_get_widget_for_response (GTK_DIALOG (e->dialog), GTK_RESPONSE_CANCEL));
  GtkWidget *close = gtk_dialog_get_widget_for_response (GTK_DIALOG (e->dialog), GTK_RESPONSE_CLOSE);
  gtk_widget_show (close);
  gtk_widget_grab_default (close);
}

/* The run as the settings ask, or FALSE with the reason shown in the dialog. */
static gboolean
start (ExportMany *e)
{
  g_autofree char *outdir = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (e->outdir));
  if (outdir == NULL)
    {
      show_error (e, _("Choose the folder to export to."));
      return FALSE;
    }
  g_autofree char *preset = NULL;
  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (e->own_edits)))
    {
      const char *name = gtk_combo_box_get_active_id (GTK_COMBO_BOX (e->preset));
      if (name == NULL)
        {
          show_error (e, _("Choose the preset to export with."));
          return FALSE;
        }
      g_autoptr (GError) error = NULL;
      preset = lm_preset_resolve (name, &error);
      LmPipeline check;
      lm_pipeline_init (&check);
      if (preset == NULL || !lm_pipeline_load_sidecar (&check, preset, &error))
        {
          show_error (e, error->message);
          return FALSE;
        }
    }
  g_autoptr (GError) error = NULL;
  LmBatchList *list = lm_develop_list_of_photos ((const char *const *) e->photos->pdata, e->photos->len,
                                                 gtk_entry_get_text (GTK_ENTRY (e->pattern)), &error);
  if (list == NULL)
    {
      show_error (e, error->message);
      return FALSE;
    }
  LmPipeline export_stages;
  lm_pipeline_init (&export_stages);
  lm_export_options_apply (LM_EXPORT_OPTIONS (e->options), &export_stages);
  const LmStage *resize = lm_pipeline_primary (&export_stages, LM_OP_RESIZE);
  LmDevelopConfig config = { 0 };
  config.outdir = outdir;
  config.ext = gtk_combo_box_get_active_id (GTK_COMBO_BOX (e->format));
  config.save = (LmSaveOptions) LM_SAVE_OPTIONS_INIT;
  config.save.quality = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (e->quality));
  config.save.png_level = lm_export_options_get_png_level (LM_EXPORT_OPTIONS (e->options));
  config.save.to_srgb = lm_export_options_get_to_srgb (LM_EXPORT_OPTIONS (e->options));
  config.preset = preset;
  config.resize = resize->enabled ? resize : NULL;
  /* An eighth of the machine's memory pinned at most, 2 GiB at most: with every core loading,
   * tens of large photos may be in flight, and pinned pages cannot be paged out. */
  guint64 machine = lm_machine_memory_bytes ();
  config.pinned_cap = (gsize) MIN (machine ? machine / 8 : G_MAXUINT64, G_GUINT64_CONSTANT (2) << 30);
  e->job = lm_develop_job_start (list, &config, LM_BACKEND_AUTO, g_main_context_default (), on_progress, on_done, e);
  return TRUE;
}

static void
on_response (GtkDialog *dialog, int response, ExportMany *e)
{
  if (response == GTK_RESPONSE_ACCEPT && e->job == NULL)
    {
      gtk_widget_hide (e->error_bar);
      if (!start (e))
        return;
      gtk_widget_set_sensitive (e->settings, FALSE);
      gtk_widget_hide (gtk_dialog_get_widget_for_response (dialog, GTK_RESPONSE_ACCEPT));
      gtk_widget_show (GTK_WIDGET (e->label));
      gtk_widget_show (GTK_WIDGET (e->bar));
      on_progress (0, 0, e);
      return;
    }
  if (e->job && !e->finished)
    {
      /* Cancel, or the window manager's close: the outcome shows once the photos in hand are
       * written. */
      lm_develop_job_cancel (e->job);
      gtk_widget_set_sensitive (gtk_dialog_get_widget_for_response (dialog, GTK_RESPONSE_CANCEL), FALSE);
      return;
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

/* A row of the settings' grid: LABEL (with a mnemonic) for WIDGET, named NAME for tests. */
static GtkWidget *
add_row (GtkGrid *grid, int row, const char *label, GtkWidget *widget, const char *name)
{
  GtkWidget *caption = gtk_label_new_with_mnemonic (label);
  gtk_label_set_xalign (GTK_LABEL (caption), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (caption), widget);
  gtk_widget_set_name (widget, name);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_grid_attach (grid, caption, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
  return widget;
}

static GtkWidget *
build_settings (ExportMany *e, GtkWindow *parent)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (grid, 6);
  gtk_grid_set_column_spacing (grid, 12);
  e->outdir = add_row (grid, 0, _("_Folder"),
                       gtk_file_chooser_button_new (_("Export to Folder"), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER),
                       "outdir");
  e->pattern = add_row (grid, 1, _("_Name"), gtk_entry_new (), "pattern");
  gtk_entry_set_text (GTK_ENTRY (e->pattern), LM_DEVELOP_PATTERN_DEFAULT);
  gtk_widget_set_tooltip_text (e->pattern, _("$(FILE_NAME): the photo's name, $(FILE_EXTENSION): its extension, "
                                             "$(SEQUENCE): 0001, 0002, …; or {name}, {ext}, {n}"));
  e->format = add_row (grid, 2, _("F_ormat"), gtk_combo_box_text_new (), "format");
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (e->format), "jpg", _("JPEG"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (e->format), "png", _("PNG"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (e->format), "tif", _("TIFF"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (e->format), "jpg");
  e->quality = add_row (grid, 3, _("JPEG _quality"), gtk_spin_button_new_with_range (1, 100, 1), "quality");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (e->quality), 92);
  e->own_edits = gtk_radio_button_new_with_mnemonic (NULL, _("Each photo's _own edits"));
  gtk_widget_set_name (e->own_edits, "own-edits");
  gtk_grid_attach (grid, e->own_edits, 1, 4, 1, 1);
  GtkWidget *use_preset = gtk_radio_button_new_with_mnemonic_from_widget (GTK_RADIO_BUTTON (e->own_edits),
                                                                          _("A _preset:"));
  gtk_widget_set_name (use_preset, "use-preset");
  /* The presets of the Presets menu, the user's hiding built-in ones of the same name. */
  e->preset = gtk_combo_box_text_new ();
  g_autoptr (GPtrArray) presets = lm_presets_list (NULL);
  for (guint i = 0; presets && i < presets->len; i++)
    {
      const LmPreset *preset = g_ptr_array_index (presets, i);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (e->preset), preset->name, preset->name);
    }
  gtk_combo_box_set_active (GTK_COMBO_BOX (e->preset), 0);
  gtk_widget_set_name (e->preset, "preset");
  g_object_bind_property (use_preset, "active", e->preset, "sensitive", G_BINDING_SYNC_CREATE);
  gtk_grid_attach (grid, use_preset, 0, 5, 1, 1);
  gtk_grid_attach (grid, e->preset, 1, 5, 1, 1);
  /* The export dialog's own options: resize, Convert to sRGB, PNG level. */
  e->options = lm_export_options_new ();
  LmPipeline defaults;
  lm_pipeline_init (&defaults);
  lm_export_options_set_pipeline (LM_EXPORT_OPTIONS (e->options), &defaults);
  if (parent)
    {
      lm_export_options_set_to_srgb (LM_EXPORT_OPTIONS (e->options), lm_export_to_srgb_of (parent));
      lm_export_options_set_png_level (LM_EXPORT_OPTIONS (e->options), lm_export_png_level_of (parent));
    }
  gtk_grid_attach (grid, e->options, 0, 6, 2, 1);
  return GTK_WIDGET (grid);
}

void
lm_export_many_dialog (GtkWindow *parent, const char *const *photos, guint n)
{
  ExportMany *e = g_new0 (ExportMany, 1);
  e->photos = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (e->photos, g_strdup (photos[i]));
  g_autofree char *title = g_strdup_printf (g_dngettext (NULL, "Export %u Photo", "Export %u Photos", n), n);
  e->dialog = gtk_dialog_new_with_buttons (title, parent, GTK_DIALOG_DESTROY_WITH_PARENT, _("_Cancel"),
                                           GTK_RESPONSE_CANCEL, _("_Close"), GTK_RESPONSE_CLOSE, _("_Export"),
                                           GTK_RESPONSE_ACCEPT, NULL);
  gtk_widget_set_name (e->dialog, "export-many");
  gtk_dialog_set_default_response (GTK_DIALOG (e->dialog), GTK_RESPONSE_ACCEPT);
  gtk_window_set_default_size (GTK_WINDOW (e->dialog), 520, -1);
  GtkWidget *box = gtk_dialog_get_content_area (GTK_DIALOG (e->dialog));
  gtk_container_set_border_width (GTK_CONTAINER (box), 12);
  gtk_box_set_spacing (GTK_BOX (box), 12);

  e->error_bar = gtk_info_bar_new ();
  gtk_info_bar_set_message_type (GTK_INFO_BAR (e->error_bar), GTK_MESSAGE_ERROR);
  gtk_widget_set_name (e->error_bar, "export-many-error");
  e->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_line_wrap (e->error_label, TRUE);
  gtk_container_add (GTK_CONTAINER (gtk_info_bar_get_content_area (GTK_INFO_BAR (e->error_bar))),
                     GTK_WIDGET (e->error_label));
  gtk_container_add (GTK_CONTAINER (box), e->error_bar);
  e->settings = build_settings (e, parent);
  gtk_container_add (GTK_CONTAINER (box), e->settings);

  e->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (e->label, 0);
  gtk_widget_set_name (GTK_WIDGET (e->label), "export-many-progress");
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (e->label));
  e->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_container_add (GTK_CONTAINER (box), GTK_WIDGET (e->bar));
  /* What failed, photo by photo: hidden until there is something to say. */
  e->failures_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (e->failures_label, 0);
  gtk_label_set_yalign (e->failures_label, 0);
  gtk_label_set_selectable (e->failures_label, TRUE);
  gtk_label_set_line_wrap (e->failures_label, TRUE);
  gtk_label_set_line_wrap_mode (e->failures_label, PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_name (GTK_WIDGET (e->failures_label), "export-many-failures");
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (e->failures_label));
  gtk_container_add (GTK_CONTAINER (box), scrolled);
  e->details = scrolled;

  gtk_widget_show_all (box);
  gtk_widget_hide (e->error_bar);
  gtk_widget_hide (GTK_WIDGET (e->label));
  gtk_widget_hide (GTK_WIDGET (e->bar));
  gtk_widget_hide (scrolled);
  gtk_widget_hide (gtk_dialog_get_widget_for_response (GTK_DIALOG (e->dialog), GTK_RESPONSE_CLOSE));
  g_signal_connect (e->dialog, "response", G_CALLBACK (on_response), e);
  /* After the dialog's own handler, which answers DELETE_EVENT: kept until the run ends. */
  g_signal_connect (e->dialog, "delete-event", G_CALLBACK (gtk_true), NULL);
  g_object_set_data_full (G_OBJECT (e->dialog), "lumen-export-many", e, export_many_free);
  gtk_widget_show (e->dialog);
}
