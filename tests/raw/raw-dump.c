/* raw-dump: what the raw loader (core/io/raw.c) reads, for tests/raw/test_decode.py.
 *
 *   raw-dump PATH [SAMPLES]   one JSON object on stdout: the image's size and format, every
 *                             field of its LmRawInfo, what its EXIF block says, and the
 *                             exposure time lm_exif_exposure_time reads from PATH; the samples
 *                             as packed little-endian uint16 rows to SAMPLES, and the image's
 *                             EXIF block's TIFF structure to SAMPLES.exif
 *   raw-dump --cancelled PATH  the load on a thread whose current cancellable (the window's
 *                             load pushes one) is already cancelled
 *
 * A failure prints the error's message on stderr and exits 1. */
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib.h>

#include "core/error.h"
#include "core/io/exif.h"
#include "core/io/io.h"
#include "core/raw-info.h"

static void
json_string (GString *out, const char *s)
{
  if (s == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) s; *p; p++)
    if (*p == '"' || *p == '\\')
      g_string_append_printf (out, "\\%c", *p);
    else if (*p < 0x20)
      g_string_append_printf (out, "\\u%04x", *p);
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '"');
}

static void
json_floats (GString *out, const char *key, const float *v, guint n)
{
  g_string_append_printf (out, "\"%s\": [", key);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%.9g", i ? ", " : "", v[i]);
  g_string_append (out, "], ");
}

static void
dump_info (GString *out, const LmRawInfo *r)
{
  static const char *const layouts[] = { "bayer", "xtrans", "linear", "mono" };
  static const char *const sources[] = { "none", "dng", "table" };
  g_string_append_printf (out, "\"layout\": \"%s\", \"cfa_w\": %u, \"cfa_h\": %u, \"cfa\": [", layouts[r->layout],
                          r->cfa_w, r->cfa_h);
  for (guint y = 0; y < r->cfa_h; y++)
    for (guint x = 0; x < r->cfa_w; x++)
      g_string_append_printf (out, "%s%u", y || x ? ", " : "", r->cfa[y][x]);
  g_string_append_printf (out, "], \"black_w\": %u, \"black_h\": %u, \"black\": [", r->black_w, r->black_h);
  for (guint y = 0; y < r->black_h; y++)
    for (guint x = 0; x < r->black_w; x++)
      g_string_append_printf (out, "%s%.9g", y || x ? ", " : "", r->black[y][x]);
  g_string_append (out, "], ");
  json_floats (out, "white", r->white, 4);
  json_floats (out, "as_shot", r->as_shot, 4);
  json_floats (out, "daylight", r->daylight, 4);
  g_string_append_printf (out, "\"matrix_source\": \"%s\", \"n_matrices\": %d, ", sources[r->matrix_source],
                          r->n_matrices);
  json_floats (out, "xyz_to_cam", &r->xyz_to_cam[0][0][0], 18);
  g_string_append_printf (out, "\"illuminant\": [%u, %u], \"has_forward\": %s, ", r->illuminant[0],
                          r->illuminant[1], r->has_forward ? "true" : "false");
  json_floats (out, "forward", &r->forward[0][0][0], 18);
  json_floats (out, "analog_balance", r->analog_balance, 3);
  g_string_append_printf (out,
                          "\"baseline_exposure\": %.9g, \"orientation\": %d, \"crop\": [%u, %u, %u, %u], "
                          "\"iso\": %.9g, \"exposure_s\": %.9g, \"f_number\": %.9g, \"focal_mm\": %.9g, "
                          "\"timestamp\": %" G_GINT64_FORMAT ", ",
                          r->baseline_exposure, r->orientation, r->crop_x, r->crop_y, r->crop_w, r->crop_h, r->iso,
                          r->exposure_s, r->f_number, r->focal_mm, r->timestamp);
  g_string_append (out, "\"make\": ");
  json_string (out, r->make);
  g_string_append (out, ", \"model\": ");
  json_string (out, r->model);
  g_string_append (out, ", \"lens\": ");
  json_string (out, r->lens);
  g_string_append (out, ", \"decoder\": ");
  json_string (out, r->decoder);
  gsize preview_len = 0;
  const guint8 *preview = r->preview ? g_bytes_get_data (r->preview, &preview_len) : NULL;
  g_string_append_printf (out, ", \"preview_len\": %" G_GSIZE_FORMAT ", \"preview_jpeg\": %s", preview_len,
                          preview && preview_len > 2 && preview[0] == 0xff && preview[1] == 0xd8 ? "true" : "false");
}

static gboolean
write_samples (const LmImage *image, const char *path)
{
  FILE *out = fopen (path, "wb");
  if (out == NULL)
    return FALSE;
  gsize row = image->width * lm_format_bytes_per_pixel (image->format);
  gboolean ok = TRUE;
  for (guint y = 0; y < image->height && ok; y++)
    ok = fwrite (lm_image_row (image, y), 1, row, out) == row;
  return fclose (out) == 0 && ok;
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc > 3)
    {
      fprintf (stderr, "usage: raw-dump PATH [SAMPLES] | --cancelled PATH\n");
      return 2;
    }
  GError *error = NULL;
  if (strcmp (argv[1], "--cancelled") == 0 && argc == 3)
    {
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_cancellable_cancel (cancellable);
      g_cancellable_push_current (cancellable);
      g_autoptr (LmImage) image = lm_io_load (argv[2], lm_allocator_host (), &error);
      g_cancellable_pop_current (cancellable);
      if (image != NULL)
        return 0;
      fprintf (stderr, "%s\n", error->message);
      return g_error_matches (error, LUMEN_ERROR, LM_ERROR_CANCELLED) ? 3 : 1;
    }
  g_autoptr (LmImage) image = lm_io_load (argv[1], lm_allocator_host (), &error);
  if (image == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  g_autoptr (GString) out = g_string_new (NULL);
  g_string_append_printf (out, "{\"width\": %u, \"height\": %u, \"format\": \"%s\", ", image->width, image->height,
                          lm_format_name (image->format));
  if (image->raw)
    {
      dump_info (out, image->raw);
      g_string_append (out, ", ");
    }
  double seconds = 0;
  g_clear_error (&error);
  gboolean timed = lm_exif_exposure_time (argv[1], &seconds, &error);
  g_string_append_printf (out,
                          "\"exif_orientation\": %d, \"exif_exposure_s\": %.9g, \"file_exposure_s\": %.9g, "
                          "\"file_exposure_error\": ",
                          lm_exif_orientation_stated (image->exif), lm_exif_exposure_seconds (image->exif),
                          timed ? seconds : 0.0);
  json_string (out, timed ? NULL : error->message);
  g_string_append (out, "}\n");
  fputs (out->str, stdout);
  g_clear_error (&error);
  if (argc == 3 && !write_samples (image, argv[2]))
    {
      fprintf (stderr, "%s: cannot write\n", argv[2]);
      return 1;
    }
  gsize exif_len = 0;
  const guint8 *exif = image->exif ? g_bytes_get_data (image->exif, &exif_len) : NULL;
  if (argc == 3 && exif_len > LM_EXIF_HEADER_LEN)
    {
      g_autofree char *name = g_strconcat (argv[2], ".exif", NULL);
      if (!g_file_set_contents (name, (const char *) exif + LM_EXIF_HEADER_LEN, exif_len - LM_EXIF_HEADER_LEN, NULL))
        {
          fprintf (stderr, "%s: cannot write\n", name);
          return 1;
        }
    }
  return 0;
}
