/* Thumbnails on the GPU (core/library/thumbnail-gpu.h) against the CPU's: the shrink (the
 * resize operation's area average: CUDA kernel against the CPU reference, within 1 level)
 * of photos of several shapes and sizes, and a batch through nvJPEG (whose whole decode is
 * not libjpeg-turbo's 1/8 IDCT: mean within 1.5 levels of the CPU's thumbnail), where a
 * gray JPEG, which nvJPEG does not take, comes back for the CPU, and a photo whose EXIF
 * says to turn it (orientation 6) is turned as the CPU turns it. Exit 77 (SKIP) without a
 * usable device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "core/library/thumbnail-gpu.h"
#include "core/library/thumbnail-source.h"
#include "parity-util.h"

static LmImage *
scene (guint w, guint h)
{
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_allocator_host (), NULL);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 *p = lm_image_row (image, y) + 4 * x;
        /* Edges at every scale and a fine checker that aliases if the shrink does not average. */
        p[0] = (guint8) ((x * 255) / w);
        p[1] = ((x / 3 + y / 3) & 1) ? 230 : 20;
        p[2] = (guint8) (((x / 97) ^ (y / 61)) * 37);
        p[3] = 255;
      }
  image->opaque = TRUE;
  return image;
}

static int
check_shrink (LmBackend *gpu, guint w, guint h, int size)
{
  g_autoptr (LmImage) src = scene (w, h);
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) cpu = lm_thumbnail_shrink (src, size, &error);
  g_autoptr (LmImage) work = cpu ? lm_backend_upload (gpu, src, &error) : NULL;
  g_autoptr (LmImage) dev = work ? lm_thumbnail_shrink_on (gpu, work, size, &error) : NULL;
  if (dev == NULL)
    {
      printf ("FAIL shrink %ux%u → %d: %s\n", w, h, size, error ? error->message : "?");
      return 1;
    }
  int worst = parity_u8_distance (cpu, dev, NULL, NULL);
  printf ("%s shrink %ux%u → %ux%u: max |Δ| %d\n", worst <= 1 ? "ok" : "FAIL", w, h, dev->width, dev->height, worst);
  return worst <= 1 ? 0 : 1;
}

/* The JPEG file at PATH with an EXIF block saying orientation 6 (turn 90° clockwise) after
 * its SOI: what a camera held upright writes. */
static void
mark_turned (const char *path)
{
  static const guint8 app1[] = { 0xFF, 0xE1, 0x00, 0x22, 'E', 'x', 'i', 'f', 0, 0,
                                 'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, /* TIFF, IFD0 at 8 */
                                 0x01, 0x00, 0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, /* Orientation, SHORT, 1 */
                                 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 }; /* 6; no next IFD */
  g_autofree char *text = NULL;
  gsize len = 0;
  g_file_get_contents (path, &text, &len, NULL);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_byte_array_append (out, (const guint8 *) text, 2);
  g_byte_array_append (out, app1, sizeof app1);
  g_byte_array_append (out, (const guint8 *) text + 2, (guint) len - 2);
  g_file_set_contents (path, (const char *) out->data, out->len, NULL);
}

#define BATCH 5

static int
check_nvjpeg_batch (void)
{
  g_autoptr (GError) error = NULL;
  LmThumbnailGpu *gpu = lm_thumbnail_gpu_new (&error);
  if (gpu == NULL)
    {
      printf ("SKIP nvJPEG batch: %s\n", error->message);
      return 0;
    }
  printf ("# %s\n", lm_thumbnail_gpu_description (gpu));
  g_autofree char *dir = g_dir_make_tmp ("lumen-thumb-parity-XXXXXX", NULL);
  const guint sizes[][2] = { { 3000, 2000 }, { 1999, 3001 }, { 640, 480 } };
  GBytes *bytes[BATCH];
  const guint8 *data[BATCH];
  gsize lens[BATCH];
  char *paths[BATCH];
  for (guint i = 0; i < BATCH; i++)
    {
      paths[i] = g_strdup_printf ("%s/%u.jpg", dir, i);
      g_autoptr (LmImage) src = scene (i < 3 ? sizes[i][0] : 1200, i < 3 ? sizes[i][1] : 800);
      if (i == 3)
        {
          /* Gray: nvJPEG leaves it to the CPU. */
          g_autoptr (LmImage) gray = lm_image_new (LM_FORMAT_GRAY8, src->width, src->height, lm_allocator_host (), NULL);
          for (guint y = 0; y < gray->height; y++)
            for (guint x = 0; x < gray->width; x++)
              lm_image_row (gray, y)[x] = lm_image_row (src, y)[4 * x + 1];
          lm_io_save (gray, paths[i], &(LmSaveOptions) LM_SAVE_OPTIONS_INIT, NULL);
        }
      else
        lm_io_save (src, paths[i], &(LmSaveOptions) LM_SAVE_OPTIONS_INIT, NULL);
      if (i == 4)
        mark_turned (paths[i]);
      g_autofree char *text = NULL;
      g_file_get_contents (paths[i], &text, &lens[i], NULL);
      bytes[i] = g_bytes_new (text, lens[i]);
      data[i] = g_bytes_get_data (bytes[i], NULL);
    }
  LmImage *thumbs[BATCH] = { NULL };
  int failed = 0;
  if (!lm_thumbnail_gpu_make (gpu, BATCH, data, lens, 256, thumbs, &error))
    {
      printf ("FAIL nvJPEG batch: %s\n", error->message);
      failed = 1;
    }
  for (guint i = 0; i < BATCH && !failed; i++)
    {
      g_autoptr (LmImage) cpu = lm_thumbnail_make (paths[i], 256, NULL, NULL);
      if (i == 3)
        {
          failed |= thumbs[i] != NULL;
          printf ("%s gray JPEG left to the CPU\n", thumbs[i] == NULL ? "ok" : "FAIL");
          continue;
        }
      if (thumbs[i] == NULL || cpu == NULL || !lm_image_same_shape (cpu, thumbs[i]))
        {
          printf ("FAIL nvJPEG thumbnail %u: none, or not the CPU's size\n", i);
          failed = 1;
          continue;
        }
      double sum = 0;
      for (guint y = 0; y < cpu->height; y++)
        for (guint x = 0; x < cpu->width * 4; x++)
          sum += abs ((int) lm_image_row (cpu, y)[x] - (int) lm_image_row (thumbs[i], y)[x]);
      double mean = sum / (cpu->width * cpu->height * 4.0);
      printf ("%s nvJPEG thumbnail %u (%ux%u): mean |Δ| %.2f against libjpeg-turbo's scaled decode\n",
              mean <= 1.5 ? "ok" : "FAIL", i, cpu->width, cpu->height, mean);
      failed |= mean > 1.5;
    }
  for (guint i = 0; i < BATCH; i++)
    {
      g_clear_pointer (&thumbs[i], lm_image_unref);
      g_bytes_unref (bytes[i]);
      g_unlink (paths[i]);
      g_free (paths[i]);
    }
  g_rmdir (dir);
  lm_thumbnail_gpu_free (gpu);
  return failed;
}

int
main (void)
{
  LmBackend *cpu = NULL, *gpu = NULL;
  int open = parity_open ("thumbnail parity", FALSE, &cpu, &gpu);
  if (open != 0)
    return open;
  int failed = 0;
  failed |= check_shrink (gpu, 6000, 4000, 256);
  failed |= check_shrink (gpu, 4000, 6000, 128);
  failed |= check_shrink (gpu, 750, 500, 256);
  failed |= check_shrink (gpu, 1001, 333, 512);
  failed |= check_shrink (gpu, 300, 200, 256); /* fits: returned as it is */
  failed |= check_nvjpeg_batch ();
  lm_backend_free (gpu);
  lm_backend_free (cpu);
  return failed;
}
