/* CPU/GPU parity of object detection (core/render/objects-run.h's promise): the CUDA backend's
 * candidate windows must be the CPU reference's, the same boxes in the same order, for every
 * model of opencv-data that Lumen names (Haar with and without tilted features, LBP), on:
 * - the corpus's photos (tests/data/photos: astronaut, a cat, a street, fog…), as they are;
 * - a 2 × 2 mosaic of the astronaut at four sizes, one mirrored (many faces at many scales);
 * - the mosaic enlarged to 12 MP (wide levels, long rows, thousands of candidates);
 * - ../shared/data's photos where present (LUMEN_EXTRA_DATA/photos, *.jpg).
 * With the default parameters (1.1, 3), a finer pyramid with a minimum size (1.05, 40 × 40) and
 * a coarse one with a maximum size (1.3, up to 300 × 300).
 *
 * The device's buffers start poisoned (LUMEN_DETECT_POISON), so that an integral cell or a list
 * slot a kernel leaves unwritten shows. Run again with argument "groups" (the enlarged mosaic
 * only, under a LUMEN_CUDA_MEMORY_LIMIT of 640 MB), the levels go to the device in groups. Without a
 * usable CUDA device it prints why and exits 77 (meson: SKIP); LUMEN_PARITY_SELF_TEST=1 puts a
 * second CPU backend in the GPU's place (the harness alone). */
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "core/detect/cascade.h"
#include "core/detect/gray8.h"
#include "core/detect/models.h"
#include "core/detect/resize-linear.h"
#include "core/io/io.h"
#include "core/render/objects-run.h"
#include "parity-util.h"

typedef struct {
  const char *name;
  guint width, height;
  guint8 *gray;
} Photo;

typedef struct {
  const char *what;
  LmCascadeParams params;
} Setting;

static LmBackend *cpu, *gpu;

static Photo
photo_from_file (const char *path, const char *name)
{
  GError *error = NULL;
  g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), &error);
  guint8 *gray = image ? lm_cascade_gray8 (image, &error) : NULL;
  if (gray == NULL)
    {
      parity_fail ("%s: %s", path, error->message);
      g_error_free (error);
      return (Photo) { 0 };
    }
  return (Photo) { g_strdup (name), image->width, image->height, gray };
}

/* The astronaut at 1, ¾, ½ and ⅝ of its size in four cells of one 2 × 2 mosaic, the second
 * mirrored, on mid-gray. */
static Photo
mosaic (const Photo *astronaut)
{
  guint cell = astronaut->width, side = 2 * cell;
  guint8 *gray = g_malloc (side * side);
  memset (gray, 128, side * side);
  const double sizes[4] = { 1.0, 0.75, 0.5, 0.625 };
  g_autofree guint8 *scaled = g_malloc (cell * cell);
  for (int k = 0; k < 4; k++)
    {
      guint w = (guint) (astronaut->width * sizes[k]), h = (guint) (astronaut->height * sizes[k]);
      lm_resize_linear_gray8 (astronaut->gray, astronaut->width, astronaut->width, astronaut->height, scaled, w, w,
                              h);
      guint ox = (k % 2) * cell, oy = (k / 2) * cell;
      for (guint y = 0; y < h; y++)
        for (guint x = 0; x < w; x++)
          gray[(oy + y) * side + ox + (k == 1 ? w - 1 - x : x)] = scaled[y * w + x];
    }
  return (Photo) { g_strdup ("mosaic"), side, side, gray };
}

static Photo
enlarged (const Photo *p, guint width, guint height, const char *name)
{
  guint8 *gray = g_malloc ((gsize) width * height);
  lm_resize_linear_gray8 (p->gray, p->width, p->width, p->height, gray, width, width, height);
  return (Photo) { g_strdup (name), width, height, gray };
}

static gboolean
same_boxes (GArray *a, GArray *b, char **why)
{
  if (a->len != b->len)
    {
      *why = g_strdup_printf ("%u candidates on the CPU, %u on the GPU", a->len, b->len);
      return FALSE;
    }
  for (guint i = 0; i < a->len; i++)
    {
      const LmCascadeBox *p = &g_array_index (a, LmCascadeBox, i), *q = &g_array_index (b, LmCascadeBox, i);
      if (p->x != q->x || p->y != q->y || p->width != q->width || p->height != q->height)
        {
          *why = g_strdup_printf ("candidate %u: %d,%d %d×%d on the CPU, %d,%d %d×%d on the GPU", i, p->x, p->y,
                                  p->width, p->height, q->x, q->y, q->width, q->height);
          return FALSE;
        }
    }
  *why = NULL;
  return TRUE;
}

static void
compare (const LmCascadeModel *model, const LmCascade *cascade, const Photo *photo, const Setting *s)
{
  GError *error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (GArray) want = lm_objects_candidates (cpu, cascade, photo->gray, photo->width, photo->width,
                                                   photo->height, &s->params, NULL, &error);
  gint64 t1 = g_get_monotonic_time ();
  g_autoptr (GArray) got = want ? lm_objects_candidates (gpu, cascade, photo->gray, photo->width, photo->width,
                                                         photo->height, &s->params, NULL, &error)
                                : NULL;
  gint64 t2 = g_get_monotonic_time ();
  if (got == NULL)
    {
      parity_record (FALSE, "%s on %s (%s): %s", model->name, photo->name, s->what, error->message);
      g_error_free (error);
      return;
    }
  g_autofree char *why = NULL;
  gboolean ok = same_boxes (want, got, &why);
  parity_record (ok, "%s on %s %u×%u (%s): %u candidates%s%s (CPU %.1f ms, GPU %.1f ms)", model->name, photo->name,
                 photo->width, photo->height, s->what, want->len, why ? ": " : "", why ? why : "",
                 (t1 - t0) / 1e3, (t2 - t1) / 1e3);
}

int
main (int argc, char **argv)
{
  gboolean groups_only = argc > 1 && strcmp (argv[1], "groups") == 0;
  g_setenv ("LUMEN_DETECT_POISON", "1", TRUE);
  if (groups_only)
    g_setenv ("LUMEN_CUDA_MEMORY_LIMIT", "640M", TRUE);
  int skip = parity_open (groups_only ? "cascade parity (groups)" : "cascade parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;

  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) names = parity_data_names ("photos", "photos", &dir);
  GArray *photos = g_array_new (FALSE, TRUE, sizeof (Photo));
  Photo astronaut = { 0 };
  for (guint i = 0; names && i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autofree char *path = g_build_filename (dir, name, NULL);
      Photo p = photo_from_file (path, name);
      if (p.gray == NULL)
        continue;
      if (g_str_has_prefix (name, "astronaut"))
        astronaut = p;
      if (!groups_only)
        g_array_append_val (photos, p);
    }
  if (astronaut.gray == NULL)
    {
      parity_fail ("no astronaut in the corpus's photos");
      return 1;
    }
  Photo m = mosaic (&astronaut);
  if (!groups_only)
    g_array_append_val (photos, m);
  Photo big = enlarged (&m, 4000, 3000, "mosaic enlarged");
  g_array_append_val (photos, big);
  const char *extra = g_getenv ("LUMEN_EXTRA_DATA");
  g_autofree char *extra_dir = extra ? g_build_filename (extra, "photos", NULL) : NULL;
  g_autoptr (GDir) d = extra_dir && !groups_only ? g_dir_open (extra_dir, 0, NULL) : NULL;
  if (extra_dir && !groups_only && d == NULL)
    printf ("%s is absent: its photos are skipped\n", extra_dir);
  for (const char *name; d && (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, ".jpg"))
      {
        g_autofree char *path = g_build_filename (extra_dir, name, NULL);
        Photo p = photo_from_file (path, name);
        if (p.gray)
          g_array_append_val (photos, p);
      }

  Setting settings[3];
  for (int i = 0; i < 3; i++)
    lm_cascade_params_init (&settings[i].params);
  settings[0].what = "1.1, 3";
  settings[1].what = "1.05, from 40×40";
  settings[1].params.scale_factor = 1.05;
  settings[1].params.min_width = settings[1].params.min_height = 40;
  settings[2].what = "1.3, up to 300×300";
  settings[2].params.scale_factor = 1.3;
  settings[2].params.max_width = settings[2].params.max_height = 300;

  for (const LmCascadeModel *model = lm_cascade_models (); model->name; model++)
    {
      GError *error = NULL;
      g_autofree char *path = lm_cascade_model_path (model->name, &error);
      g_autoptr (LmCascade) cascade = path ? lm_cascade_load (path, &error) : NULL;
      if (cascade == NULL)
        {
          parity_fail ("%s: %s", model->name, error->message);
          g_error_free (error);
          continue;
        }
      for (guint i = 0; i < photos->len; i++)
        for (guint s = 0; s < G_N_ELEMENTS (settings); s++)
          compare (model, cascade, &g_array_index (photos, Photo, i), &settings[s]);
    }
  printf ("%" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (), parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
