/* The JPEG quality dialog answered as a person answers it: Ctrl+E, the name typed, Enter in
 * the chooser held a moment (the server repeats it while the quality dialog opens under it),
 * then 85 typed in the dialog's field and Enter. The held Enter must not export at the old
 * quality; the typed one is the file's: its quantisation tables are those libjpeg makes for
 * quality 85 (jpeg_set_quality, the oracle), not for the 92 the field showed. The field is
 * labelled with its range and a mnemonic, for people and screen readers alike. */
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ui-testlib.h"
#include "../unit/test-util.h"

#define TYPED_QUALITY 85

static char *tmp_dir;

typedef struct {
  GtkWidget *dialog;     /* weak: NULL once it closed */
  gboolean seen;
  gboolean holding;      /* Enter still down, from the chooser */
  gboolean answered_while_held;
  guint enter_presses;   /* Enter's presses the dialog was sent, repeats included */
  char *label;           /* its field's label, as shown */
  gboolean labelled_by;  /* the field's accessible names the label's */
} Quality;

static gboolean
count_enter (GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data)
{
  Quality *q = data;
  GtkWidget *widget = g_value_get_object (&values[0]);
  GdkEventKey *event = g_value_get_boxed (&values[1]);
  if (q->dialog && widget == q->dialog && event->keyval == GDK_KEY_Return)
    q->enter_presses++;
  return TRUE;
}

static void
on_response (GtkDialog *dialog, int response, Quality *q)
{
  q->answered_while_held |= q->holding;
}

static void
answer_chooser (GtkWidget *dialog, gpointer name)
{
  ui_focus_window (dialog);
  ui_chooser_type_name (name); /* the name field has the keyboard */
  ui_key_press (GDK_KEY_Return, TRUE); /* let go once the quality dialog is up */
}

static void
describe_field (Quality *q, GtkWidget *dialog)
{
  g_autoptr (GPtrArray) spins = ui_find_all (dialog, GTK_TYPE_SPIN_BUTTON);
  g_assert_cmpuint (spins->len, ==, 1);
  GtkWidget *spin = spins->pdata[0];
  g_autoptr (GList) labels = gtk_widget_list_mnemonic_labels (spin);
  g_assert_nonnull (labels);
  q->label = g_strdup (gtk_label_get_text (labels->data));
  g_assert_cmpuint (gtk_label_get_mnemonic_keyval (labels->data), !=, GDK_KEY_VoidSymbol);
  AtkRelationSet *relations = atk_object_ref_relation_set (gtk_widget_get_accessible (spin));
  AtkRelation *by = atk_relation_set_get_relation_by_type (relations, ATK_RELATION_LABELLED_BY);
  GPtrArray *targets = by ? atk_relation_get_target (by) : NULL;
  for (guint i = 0; targets && i < targets->len; i++)
    q->labelled_by |= targets->pdata[i] == (gpointer) gtk_widget_get_accessible (labels->data);
  g_object_unref (relations);
}

static gboolean
answer_quality (gpointer data)
{
  Quality *q = data;
  if (q->seen)
    return G_SOURCE_CONTINUE;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_DIALOG (l->data) && !GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data)
        && g_strcmp0 (gtk_window_get_title (l->data), _("JPEG Quality")) == 0)
      {
        q->seen = TRUE;
        q->dialog = l->data;
        g_object_add_weak_pointer (G_OBJECT (q->dialog), (gpointer *) &q->dialog);
        g_signal_connect (q->dialog, "response", G_CALLBACK (on_response), q);
        q->holding = TRUE;
        ui_wait_ms (200); /* mapped is not yet drawn and placed */
        describe_field (q, q->dialog);
        /* As a window manager gives a new dialog the keyboard; Enter is still down. */
        ui_focus_window (q->dialog);
        ui_wait_ms (1500); /* past the server's autorepeat delay: Enter repeats */
        ui_key_press (GDK_KEY_Return, FALSE);
        q->holding = FALSE;
        if (q->answered_while_held)
          break;
        /* A window's shortcut typed here is the dialog's: the view keeps its zoom (checked
         * once the export is written). */
        ui_key (GDK_KEY_equal, GDK_CONTROL_MASK);
        g_autofree char *typed = g_strdup_printf ("%d", TYPED_QUALITY);
        ui_type (typed); /* over the number shown, selected as the field took the keyboard */
        ui_key (GDK_KEY_Return, 0);
        break;
      }
  return G_SOURCE_CONTINUE;
}

/* The quantisation tables of the JPEG at PATH equal those libjpeg makes for QUALITY. */
static gboolean
has_tables_of (const char *path, int quality)
{
  FILE *f = fopen (path, "rb");
  g_assert_nonnull (f);
  struct jpeg_decompress_struct d;
  struct jpeg_error_mgr derr, cerr;
  d.err = jpeg_std_error (&derr);
  jpeg_create_decompress (&d);
  jpeg_stdio_src (&d, f);
  g_assert_cmpint (jpeg_read_header (&d, TRUE), ==, JPEG_HEADER_OK);
  struct jpeg_compress_struct c;
  c.err = jpeg_std_error (&cerr);
  jpeg_create_compress (&c);
  c.in_color_space = JCS_RGB;
  c.input_components = 3;
  jpeg_set_defaults (&c);
  jpeg_set_quality (&c, quality, TRUE);
  gboolean same = TRUE;
  for (int t = 0; t < 2; t++)
    {
      g_assert_nonnull (d.quant_tbl_ptrs[t]);
      same = same && memcmp (d.quant_tbl_ptrs[t]->quantval, c.quant_tbl_ptrs[t]->quantval,
                             sizeof c.quant_tbl_ptrs[t]->quantval) == 0;
    }
  jpeg_destroy_compress (&c);
  jpeg_destroy_decompress (&d);
  fclose (f);
  return same;
}

static void
test_typed_quality (void)
{
  g_autoptr (GSettings) settings = ui_settings ();
  if (settings)
    g_settings_set_int (settings, "jpeg-quality", 92);
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (ui_window), "undo");
  g_assert_false (g_action_get_enabled (undo)); /* no edits: a stray key would make one */
  double zoom = lm_image_view_get_zoom (ui_image_view ());

  Quality q = { 0 };
  guint hook = g_signal_add_emission_hook (g_signal_lookup ("key-press-event", GTK_TYPE_WIDGET), 0, count_enter,
                                           &q, NULL);
  guint watch = g_timeout_add (50, answer_quality, &q);
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, (gpointer) "quality.jpg");
  g_autofree char *path = g_build_filename (tmp_dir, "quality.jpg", NULL);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!q.seen && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  g_source_remove (watch);
  g_signal_remove_emission_hook (g_signal_lookup ("key-press-event", GTK_TYPE_WIDGET), hook);
  g_assert_true (q.seen);
  g_test_message ("field labelled \"%s\"; Enter pressed %u times in the dialog while held", q.label, q.enter_presses);
  /* The test holds Enter as it says: the server repeated it into the dialog. */
  g_assert_cmpuint (q.enter_presses, >=, 2);
  g_assert_false (q.answered_while_held);
  g_assert_nonnull (strstr (q.label, "1"));
  g_assert_nonnull (strstr (q.label, "100"));
  g_assert_true (q.labelled_by);
  g_free (q.label);
  ui_await_file (path);
  g_assert_null (q.dialog);
  g_assert_true (has_tables_of (path, TYPED_QUALITY));
  g_assert_false (has_tables_of (path, 92));
  if (settings)
    g_assert_cmpint (g_settings_get_int (settings, "jpeg-quality"), ==, TYPED_QUALITY);
  /* Nothing typed reached the window: no edit, the same zoom. */
  g_assert_false (g_action_get_enabled (undo));
  g_assert_cmpfloat (lm_image_view_get_zoom (ui_image_view ()), ==, zoom);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-quality-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *dest = g_build_filename (tmp_dir, "chelsea.png", NULL);
  g_autofree char *photo = ui_copy_test_data ("photos/chelsea.png", dest);
  ui_test_init (&argc, &argv, photo);
  g_test_add_func ("/export-quality/typed-and-enter", test_typed_quality);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
