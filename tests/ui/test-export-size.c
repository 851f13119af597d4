/* The export's resize, set in the export dialog as a person sets it (Ctrl+E, the name typed,
 * Resize ticked, width and height typed, the mode chosen, Export clicked): the file written
 * has that size (fit: the largest within the box with the photo's aspect; exact: the box),
 * looks like the photo, and the view goes on showing the photo at its own size; the dialog
 * shows the size set last time. Apply Edits to Photos… has the resize in its chooser too, and
 * writes the photos at that size. Skipped where no resize operation is built. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;

typedef struct {
  const char *name;   /* typed as the file's name (Apply: the path, in the location field) */
  gboolean apply;     /* Apply Edits to Photos…'s chooser, not the export's */
  const char *width, *height, *mode; /* typed; the mode's nick */
  gboolean tick;      /* click Resize (switches it on or off) */
  char shown_width[32]; /* what the width field showed when the dialog opened */
} Answer;

/* The chooser's field or button named NAME (its extra widget's children are internal). */
static GtkWidget *
named (GtkWidget *dialog, const char *name)
{
  GtkWidget *w = ui_find_named_within (dialog, name);
  g_assert_nonnull (w);
  return w;
}

/* A field's text replaced by TEXT, as typed. */
static void
type_into (GtkWidget *field, const char *text)
{
  g_assert_true (gtk_widget_is_sensitive (field)); /* Resize is on */
  ui_click_middle (field);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (text);
  ui_key (GDK_KEY_Tab, 0); /* leaving the field takes the value */
}

/* The export's size, as the chooser's fields take it. */
static void
set_resize (GtkWidget *dialog, const Answer *a)
{
  if (a->tick)
    ui_click_middle (named (dialog, "resize-enabled"));
  if (a->width)
    type_into (named (dialog, "resize-width"), a->width);
  if (a->height)
    type_into (named (dialog, "resize-height"), a->height);
  if (a->mode)
    {
      GtkWidget *combo = named (dialog, "resize-mode");
      /* Chosen with the keys, as Tab would reach it: Up to fit, Down to exact (the two
       * values, in that order). */
      gtk_widget_grab_focus (combo);
      ui_key (g_str_equal (a->mode, "exact") ? GDK_KEY_Down : GDK_KEY_Up, 0);
      g_assert_cmpstr (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)), ==, a->mode);
    }
}

static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  Answer *a = data;
  ui_focus_window (dialog);
  g_strlcpy (a->shown_width, gtk_entry_get_text (GTK_ENTRY (named (dialog, "resize-width"))), sizeof a->shown_width);
  if (a->apply)
    {
      /* The size first: the location field's completion would take the keys after it. */
      set_resize (dialog, a);
      ui_key (GDK_KEY_l, GDK_CONTROL_MASK); /* the location field, where a path is typed */
      ui_type (a->name);
      ui_key (GDK_KEY_Return, 0);
      return;
    }
  ui_chooser_type_name (a->name); /* the name field has the keyboard */
  set_resize (dialog, a);
  ui_chooser_press_export (dialog);
}

/* Ctrl+E answered with A; the file it wrote, loaded. */
static LmImage *
export_with (Answer *a)
{
  ui_answer_chooser (ui_press_export, NULL, answer_chooser, a);
  g_autofree char *path = g_build_filename (tmp_dir, a->name, NULL);
  ui_await_file (path);
  GError *e = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  return image;
}

/* The mean of each colour channel of IMAGE (RGBA8). */
static void
channel_means (const LmImage *image, double mean[3])
{
  double sum[3] = { 0 };
  for (guint y = 0; y < image->height; y++)
    for (guint x = 0; x < image->width; x++)
      for (int c = 0; c < 3; c++)
        sum[c] += image->data[y * image->stride + 4 * x + c];
  for (int c = 0; c < 3; c++)
    mean[c] = sum[c] / ((double) image->width * image->height);
}

static void
test_resize_fit (void)
{
  if (lm_op_info_by_name ("resize") == NULL)
    {
      g_test_skip ("no resize operation in this build");
      return;
    }
  Answer a = { .name = "fit.png", .width = "200", .height = "200", .mode = "fit", .tick = TRUE };
  g_autoptr (LmImage) out = export_with (&a);
  g_test_message ("fit within 200×200: %u×%u (the photo 451×300)", out->width, out->height);
  g_assert_cmpuint (out->width, ==, 200);
  g_assert_cmpuint (out->height, ==, 133); /* 300 × 200 / 451 */

  /* The photo made smaller, not another picture: its colours on average are the photo's. */
  g_autofree char *source = ui_test_data ("photos/chelsea.png");
  g_autoptr (LmImage) photo = lm_io_load (source, lm_allocator_host (), NULL);
  double m_out[3], m_photo[3];
  channel_means (out, m_out);
  channel_means (photo, m_photo);
  for (int c = 0; c < 3; c++)
    {
      g_test_message ("channel %d: mean %.2f, the photo's %.2f", c, m_out[c], m_photo[c]);
      g_assert_cmpfloat (fabs (m_out[c] - m_photo[c]), <, 1.5);
    }
  /* The view is the photo's own size: the view never runs the export's resize. */
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
}

static void
test_resize_exact (void)
{
  if (lm_op_info_by_name ("resize") == NULL)
    {
      g_test_skip ("no resize operation in this build");
      return;
    }
  Answer a = { .name = "exact.png", .width = "120", .height = "90", .mode = "exact" };
  g_autoptr (LmImage) out = export_with (&a);
  g_test_message ("the dialog showed width %s; exact 120×90: %u×%u", a.shown_width, out->width, out->height);
  g_assert_cmpstr (a.shown_width, ==, "200"); /* as set last time: part of the edit */
  g_assert_cmpuint (out->width, ==, 120);
  g_assert_cmpuint (out->height, ==, 90);

  /* Unticked: the photo's own size. */
  Answer off = { .name = "full.png", .tick = TRUE };
  g_autoptr (LmImage) full = export_with (&off);
  g_assert_cmpuint (full->width, ==, 451);
  g_assert_cmpuint (full->height, ==, 300);
}

/* The size resize gives the photo (451×300) with PARAMS ("width=100 height=100 mode=fit"). */
static void
resized_size (const char *params, guint *width, guint *height)
{
  const LmOpInfo *resize = lm_op_info_by_name ("resize");
  guint8 p[LM_OP_PARAMS_MAX];
  lm_op_params_init (resize, p);
  g_auto (GStrv) pairs = g_strsplit (params, " ", -1);
  for (guint i = 0; pairs[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (pairs[i], "=", 2);
      for (guint k = 0; k < resize->n_params; k++)
        if (g_str_equal (resize->params[k].name, kv[0]))
          g_assert_true (lm_op_param_parse (resize, &resize->params[k], p, kv[1], NULL));
    }
  lm_op_output_size (resize, p, 451, 300, width, height);
}

static void
activate_apply_edits (gpointer unused)
{
  ui_activate ("apply-edits"); /* returns once the chooser has been answered */
}

/* Apply Edits to Photos…: its chooser has the resize too, and the photos it writes have
 * that size. */
static void
test_apply (void)
{
  if (lm_op_info_by_name ("resize") == NULL)
    {
      g_test_skip ("no resize operation in this build");
      return;
    }
  g_autofree char *photo = g_build_filename (tmp_dir, "chelsea.png", NULL);
  /* Resize is off since the last export: ticked on again. */
  Answer a = { .name = photo, .apply = TRUE, .width = "100", .height = "100", .mode = "fit", .tick = TRUE };
  ui_answer_chooser (activate_apply_edits, NULL, answer_chooser, &a);
  g_autofree char *edited = g_build_filename (tmp_dir, "chelsea-edited.png", NULL);
  ui_await_file (edited);
  ui_wait_ms (200); /* the run's dialog takes the end in */
  GError *e = NULL;
  g_autoptr (LmImage) out = lm_io_load (edited, lm_allocator_host (), &e);
  g_assert_no_error (e);
  guint width, height;
  resized_size ("width=100 height=100 mode=fit", &width, &height);
  g_test_message ("applied, fit within 100×100: %u×%u (resize says %u×%u)", out->width, out->height, width, height);
  g_assert_cmpuint (out->width, ==, width);
  g_assert_cmpuint (out->height, ==, height);
  g_assert_cmpuint (width, ==, 100);
  /* The run's dialog, closed once it is done. */
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_DIALOG (l->data) && gtk_widget_get_visible (l->data)
        && gtk_dialog_get_widget_for_response (l->data, GTK_RESPONSE_CLOSE))
      gtk_dialog_response (l->data, GTK_RESPONSE_CLOSE);
  ui_wait_ms (300);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-export-size-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  /* The photo in a folder of the test's own: the chooser opens where the photo is. */
  g_autofree char *copy = g_build_filename (tmp_dir, "chelsea.png", NULL);
  g_free (ui_copy_test_data ("photos/chelsea.png", copy));
  ui_test_init (&argc, &argv, copy);
  g_test_add_func ("/export-size/fit", test_resize_fit);
  g_test_add_func ("/export-size/exact", test_resize_exact);
  g_test_add_func ("/export-size/apply", test_apply);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
