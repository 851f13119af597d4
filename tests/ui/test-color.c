/* The colour-managed view, read back from the screen under Xvfb: with a monitor profile on
 * the X root window's _ICC_PROFILE (Apple RGB: neither sRGB nor any photo's space, so that a
 * view without the transform fails), an Adobe RGB and a ProPhoto RGB photo (made from the
 * corpus by Pillow's ImageCms, their profiles embedded) are shown within 1 of Pillow's
 * transform of the file's pixels into the monitor profile (relative colorimetric, black-point
 * compensation); the monitor-profile setting changes the view, a bad file there is named and
 * the view falls back to the automatic profile; an sRGB photo on an sRGB monitor keeps the
 * bytes of the view without colour management; the histogram "as seen" is the view
 * transform's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/color/seen-histogram.h"
#include "core/color/view-transform.h"
#include "core/io/io.h"
#include "core/ops/view.h"
#include "ui/histogram-view.h"
#include "ui/window.h"
#include "ui-testlib.h"

#define COLORD "/usr/share/color/icc/colord/"
#define MONITOR COLORD "AppleRGB.icc"

static char *tmp_dir;

static void
remove_tmp (void)
{
  if (tmp_dir)
    {
      g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
      const char *name;
      while (dir && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (tmp_dir);
    }
}

/* Runs the Pillow oracle (tests/ui/color-oracle.py) with ARGS. */
static void
oracle (const char *const *args)
{
  g_autofree char *script = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "ui", "color-oracle.py", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "/usr/bin/python3");
  g_ptr_array_add (argv, script);
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  g_autofree char *err = NULL;
  int status = 0;
  GError *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &e));
  g_assert_no_error (e);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("color-oracle.py failed: %s", err);
      g_test_fail ();
    }
}

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* A photo of W × H made from the corpus's forest path in PROFILE's space. */
static char *
make_photo (const char *name, const char *profile, int w, int h)
{
  g_autofree char *src = ui_test_data ("photos/forest-path.jpg");
  char *out = tmp_path (name);
  g_autofree char *ws = g_strdup_printf ("%d", w), *hs = g_strdup_printf ("%d", h);
  const char *args[] = { "make", src, out, profile, ws, hs, NULL };
  oracle (args);
  return out;
}

/* Pillow's view of PHOTO on a monitor of profile MONITOR_PROFILE. */
static GdkPixbuf *
expected (const char *photo, const char *monitor_profile)
{
  g_autofree char *out = tmp_path ("expected.png");
  const char *args[] = { "expect", photo, monitor_profile, out, NULL };
  oracle (args);
  GError *e = NULL;
  GdkPixbuf *p = gdk_pixbuf_new_from_file (out, &e);
  g_assert_no_error (e);
  g_clear_error (&e);
  g_unlink (out);
  return p;
}

static void
set_root_profile (const char *path)
{
  GdkWindow *root = gdk_get_default_root_window ();
  GdkAtom atom = gdk_atom_intern ("_ICC_PROFILE", FALSE);
  if (path == NULL)
    gdk_property_delete (root, atom);
  else
    {
      g_autofree char *data = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      gdk_property_change (root, atom, gdk_atom_intern ("CARDINAL", FALSE), 8, GDK_PROP_MODE_REPLACE,
                           (const guchar *) data, (int) len);
    }
  gdk_display_sync (gdk_display_get_default ());
}

/* PATH (W × H; NULL: the photo open) opened, rendered, shown at 100 %. */
static void
open_at_100 (const char *path, guint w, guint h)
{
  if (path)
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      lm_window_open (ui_window, file);
    }
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while ((lm_histogram_view_get_histogram (LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window))) == NULL
          || ui_histogram ().total != (guint64) w * h)
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  ui_activate ("zoom-100");
  ui_settle ();
  ui_wait_ms (200); /* the paint */
}

/* The image view as the X server shows it, and the region of the image it shows (at 100 %,
 * larger than the view: screen pixel (i, j) is image pixel (⌊rx + i + ½⌋, ⌊ry + j + ½⌋)). */
static GdkPixbuf *
screen (LmViewRect *rect)
{
  ui_flush ();
  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  g_assert_nonnull (lm_image_view_get_pixels (ui_image_view (), rect));
  g_assert_cmpfloat (rect->rw, ==, rect->out_w); /* 100 % */
  if (g_test_failed ())
    return NULL;
  GtkAllocation a;
  gtk_widget_get_allocation (view, &a);
  int x = gtk_widget_get_has_window (view) ? 0 : a.x, y = gtk_widget_get_has_window (view) ? 0 : a.y;
  GdkPixbuf *p = gdk_pixbuf_get_from_window (gtk_widget_get_window (view), x, y, rect->out_w, rect->out_h);
  g_assert_nonnull (p);
  return p;
}

static const guint8 *
pixel (GdkPixbuf *p, int x, int y)
{
  return gdk_pixbuf_get_pixels (p) + (gsize) y * gdk_pixbuf_get_rowstride (p) + (gsize) x * gdk_pixbuf_get_n_channels (p);
}

/* The largest difference, channel by channel, between the screen S of RECT and the image I. */
static int
distance (GdkPixbuf *s, const LmViewRect *rect, GdkPixbuf *image)
{
  int worst = 0;
  for (int j = 0; j < rect->out_h; j++)
    for (int i = 0; i < rect->out_w; i++)
      {
        int x = (int) floor (rect->rx + i + 0.5), y = (int) floor (rect->ry + j + 0.5);
        const guint8 *a = pixel (s, i, j), *b = pixel (image, x, y);
        for (int c = 0; c < 3; c++)
          worst = MAX (worst, abs (a[c] - b[c]));
      }
  return worst;
}

/* PHOTO on the screen now against Pillow's view of it on MONITOR_PROFILE: within 1, while
 * its values as stored are not. */
static void
check_view (const char *what, const char *photo, const char *monitor_profile)
{
  g_autoptr (GdkPixbuf) want = expected (photo, monitor_profile);
  g_autoptr (GdkPixbuf) raw = gdk_pixbuf_new_from_file (photo, NULL);
  LmViewRect rect;
  g_autoptr (GdkPixbuf) shown = screen (&rect);
  if (shown == NULL || want == NULL || raw == NULL)
    return;
  int d = distance (shown, &rect, want), d_raw = distance (shown, &rect, raw);
  g_test_message ("%s: %d×%d read back at %.0f,%.0f: max |screen − ImageCms| = %d, |screen − file| = %d", what,
                  rect.out_w, rect.out_h, rect.rx, rect.ry, d, d_raw);
  g_assert_cmpint (rect.out_w, >=, 200);
  g_assert_cmpint (rect.out_h, >=, 200);
  g_assert_cmpint (d, <=, 1);
  g_assert_cmpint (d_raw, >, 3); /* a view without the transform fails */
}

/* An sRGB photo (no profile) on a display without _ICC_PROFILE: the screen holds exactly the
 * view of the file's values, as before colour management. */
static void
test_srgb_unchanged (void)
{
  g_autofree char *photo = ui_test_data ("photos/pier-fog.jpg");
  GError *e = NULL;
  g_autoptr (LmImage) source = lm_io_load (photo, lm_allocator_host (), &e);
  g_assert_no_error (e);
  open_at_100 (NULL, source->width, source->height); /* ui_test_init opened it */
  g_assert_null (lm_view_transform_lut (lm_window_get_view_transform (ui_window)));
  LmViewRect rect;
  g_autoptr (GdkPixbuf) shown = screen (&rect);
  if (shown == NULL)
    return;
  g_autoptr (LmImage) view = lm_image_new (LM_FORMAT_RGBA8, rect.out_w, rect.out_h, lm_allocator_host (), &e);
  memset (view->data, 0x5a, lm_image_size_bytes (view));
  lm_view_cpu (source, &rect, view);
  guint differ = 0;
  for (int j = 0; j < rect.out_h; j++)
    for (int i = 0; i < rect.out_w; i++)
      {
        guint32 v = ((guint32 *) lm_image_row (view, j))[i];
        const guint8 *s = pixel (shown, i, j);
        differ += s[0] != (v >> 16 & 0xff) || s[1] != (v >> 8 & 0xff) || s[2] != (v & 0xff);
      }
  g_test_message ("sRGB on sRGB: %u of %d×%d pixels differ from the plain view", differ, rect.out_w, rect.out_h);
  g_assert_cmpuint (differ, ==, 0);
}

static char *adobe, *prophoto;

/* Adobe RGB and ProPhoto RGB photos on the Apple RGB monitor of _ICC_PROFILE. */
static void
test_wide_gamut (void)
{
  set_root_profile (MONITOR);
  open_at_100 (adobe, 1200, 900);
  check_view ("Adobe RGB on Apple RGB", adobe, MONITOR);
  open_at_100 (prophoto, 1180, 880);
  check_view ("ProPhoto RGB on Apple RGB", prophoto, MONITOR);
}

/* The monitor-profile setting wins over the X server's; a file that is no profile is named
 * in the info bar and the view goes back to the X server's. */
static void
test_preference (void)
{
  g_autoptr (GSettings) settings = ui_settings ();
  if (settings == NULL)
    {
      g_test_skip ("the settings schema is not installed");
      return;
    }
  g_settings_set_string (settings, "monitor-profile", COLORD "WideGamutRGB.icc");
  ui_settle ();
  ui_wait_ms (200);
  check_view ("ProPhoto RGB on the preference's Wide Gamut RGB", prophoto, COLORD "WideGamutRGB.icc");

  g_autofree char *junk = tmp_path ("junk.icc");
  g_assert_true (g_file_set_contents (junk, "no profile here", -1, NULL));
  g_settings_set_string (settings, "monitor-profile", junk);
  ui_settle ();
  ui_wait_ms (200);
  const char *message = lm_window_get_info_message (ui_window);
  g_assert_nonnull (message);
  g_test_message ("info bar: %s", message ? message : "(none)");
  g_assert_true (message && strstr (message, junk));
  check_view ("ProPhoto RGB after a bad preference: the X server's Apple RGB", prophoto, MONITOR);
  g_settings_set_string (settings, "monitor-profile", "");
  ui_settle ();
}

/* Monitor Profile… opens a chooser of ICC profiles over the window; its Automatic empties
 * the setting. */
static void
test_dialog (void)
{
  g_autoptr (GSettings) settings = ui_settings ();
  if (settings == NULL)
    {
      g_test_skip ("the settings schema is not installed");
      return;
    }
  g_settings_set_string (settings, "monitor-profile", COLORD "WideGamutRGB.icc");
  ui_settle ();
  ui_activate ("monitor-profile");
  ui_wait_ms (200);
  GtkWidget *dialog = NULL;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);
  if (dialog == NULL)
    return;
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (ui_window));
  gtk_dialog_response (GTK_DIALOG (dialog), 1); /* Automatic */
  ui_settle ();
  g_autofree char *now = g_settings_get_string (settings, "monitor-profile");
  g_assert_cmpstr (now, ==, "");
  check_view ("ProPhoto RGB after Automatic: the X server's Apple RGB", prophoto, MONITOR);
}

/* "As seen": the histogram of the photo through the view transform, not as stored. */
static void
test_seen_histogram (void)
{
  LmHistogramView *hv = LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window));
  LmHistogram stored = ui_histogram ();
  g_object_set (hv, "seen", TRUE, NULL);
  ui_settle ();
  g_assert_true (lm_histogram_view_shows_seen (hv));
  LmHistogram seen = ui_histogram ();
  GError *e = NULL;
  g_autoptr (LmImage) source = lm_io_load (prophoto, lm_allocator_host (), &e);
  g_assert_no_error (e);
  LmHistogram want;
  lm_seen_histogram_cpu (source, lm_view_transform_lut (lm_window_get_view_transform (ui_window)), &want);
  g_assert_true (lm_histogram_equal (&seen, &want));
  g_assert_false (lm_histogram_equal (&seen, &stored));
  g_object_set (hv, "seen", FALSE, NULL);
  ui_settle ();
  g_assert_false (lm_histogram_view_shows_seen (hv));
  LmHistogram back = ui_histogram ();
  g_assert_true (lm_histogram_equal (&back, &stored));
}

int
main (int argc, char **argv)
{
  if (!g_file_test (MONITOR, G_FILE_TEST_EXISTS))
    {
      g_print ("1..0 # SKIP colord-data's profiles are not installed (%s)\n", MONITOR);
      return 0;
    }
  tmp_dir = g_dir_make_tmp ("lumen-color-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  atexit (remove_tmp);
  ui_test_init (&argc, &argv, "photos/pier-fog.jpg");
  /* A failure is reported and the next test runs; the temporary folder goes at exit. */
  g_test_set_nonfatal_assertions ();
  adobe = make_photo ("adobe.png", COLORD "AdobeRGB1998.icc", 1200, 900);
  prophoto = make_photo ("prophoto.png", COLORD "ProPhotoRGB.icc", 1180, 880);
  g_test_add_func ("/color/srgb-unchanged", test_srgb_unchanged);
  g_test_add_func ("/color/wide-gamut", test_wide_gamut);
  g_test_add_func ("/color/preference", test_preference);
  g_test_add_func ("/color/dialog", test_dialog);
  g_test_add_func ("/color/seen-histogram", test_seen_histogram);
  return g_test_run ();
}
