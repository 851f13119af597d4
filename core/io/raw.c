/* Camera raw files through LibRaw, which decodes and unpacks only: the visible area of the
 * sensor data loads as CFA16 (a colour filter array, Bayer or X-Trans), GRAY16 (a monochrome
 * sensor) or RGBA16 (LinearRaw DNG, sRAW: camera RGB, alpha 65535), undeveloped, with an
 * LmRawInfo saying how to develop it (raw-meta.c), turned upright with its pattern (raw-orient.c).
 *
 * One libraw_r decoder per load, so that the batch's and the merge's parallel loads share no
 * state. LibRaw prints data and memory errors on stderr unless told not to: its callbacks here
 * only count them, so that a bad file gives one line, this loader's. The pixel budget is
 * checked on the whole sensor (the buffer LibRaw allocates) before it unpacks, and bounds
 * LibRaw's own allocations through max_raw_memory_mb. */
#include "raw.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <gio/gio.h>

#include "../color/rec2020.h"
#include "../pixel-budget.h"
#include "exif.h"
#include "file-read.h"
#include "io-private.h"
#include "raw-compat.h"
#include "raw-meta.h"
#include "raw-orient.h"
#include "raw-sniff.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (libraw_data_t, libraw_close)

/* What LibRaw reported through its callbacks during one load. */
typedef struct {
  guint data_errors;
  gint64 offset;    /* of the first data error */
  gboolean ends_early;
  gboolean out_of_memory;
} Report;

static void
on_data_error (void *data, const char *file, const LmRawOffset offset)
{
  Report *report = data;
  if (offset < 0)
    report->ends_early = TRUE;
  else if (report->data_errors++ == 0)
    report->offset = offset;
}

#if LM_RAW_HAS_MEMERROR_HANDLER
static void
on_memory_error (void *data, const char *file, const char *where)
{
  ((Report *) data)->out_of_memory = TRUE;
}
#endif

/* LibRaw asks between its stages (open, identify, unpack): a load on a thread that pushed a
 * cancellable (the window's) stops there once it is cancelled. */
static int
on_progress (void *data, enum LibRaw_progress stage, int iteration, int expected)
{
  return g_cancellable_is_cancelled (g_cancellable_get_current ()) ? 1 : 0;
}

/* LibRaw's own allocation bound: the budget at 8 bytes a pixel (its widest buffer, four
 * 16-bit channels), so that what a header's sizes do not say (an sRAW's planes) stays in it. */
static unsigned
memory_bound_mb (void)
{
  guint64 mb = lm_pixel_budget () * 8 / (1024 * 1024) + 1;
  return (unsigned) MIN (mb, 2048);
}

/* LibRaw's return code RC as a message naming PATH. */
static void
set_libraw_error (GError **error, const char *path, int rc, const Report *report)
{
  switch (rc)
    {
    case LIBRAW_FILE_UNSUPPORTED:
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is not a camera raw file LibRaw %s can read"),
                         libraw_version ());
      return;
    case LIBRAW_TOO_BIG:
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path,
                         _("its sensor data needs more than the %u MiB the memory budget allows "
                           "(set LUMEN_MAX_PIXELS to change it)"),
                         memory_bound_mb ());
      return;
    case LIBRAW_UNSUFFICIENT_MEMORY:
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode it"));
      return;
    case LIBRAW_CANCELLED_BY_CALLBACK:
      lm_set_file_error (error, LM_ERROR_CANCELLED, path, _("loading was cancelled"));
      return;
    default:
      if (report->out_of_memory)
        lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode it"));
      else if (report->ends_early)
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is truncated (its raw data ends early)"));
      else if (report->data_errors)
        {
          g_autofree char *at = g_strdup_printf ("%" G_GINT64_FORMAT, report->offset);
          lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (its raw data is corrupt at byte %s)"), at);
        }
      else
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (its raw data cannot be decoded)"));
    }
}

/* A decoder on the LEN bytes at DATA, which must outlive it (LibRaw reads them in place),
 * identified: sizes, colours and metadata known, nothing unpacked. */
static libraw_data_t *
raw_open (const char *path, const guint8 *data, gsize len, Report *report, GError **error)
{
  if (lm_raw_ifds_damaged (data, len))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (its TIFF directories do not hold together)"));
      return NULL;
    }
  libraw_data_t *lr = libraw_init (LM_RAW_INIT_FLAGS);
  if (lr == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode it"));
      return NULL;
    }
  libraw_set_dataerror_handler (lr, on_data_error, report);
#if LM_RAW_HAS_MEMERROR_HANDLER
  libraw_set_memerror_handler (lr, on_memory_error, report);
#endif
  libraw_set_progress_handler (lr, on_progress, report);
  LM_RAW_PARAMS (lr).max_raw_memory_mb = memory_bound_mb ();
  int rc = libraw_open_buffer (lr, LM_RAW_BUFFER (data), len);
  if (rc != LIBRAW_SUCCESS)
    {
      set_libraw_error (error, path, rc, report);
      libraw_close (lr);
      return NULL;
    }
  return lr;
}

/* Sensors whose data the development cannot take as a 2 × 2 or 6 × 6 array of square sites,
 * refused by name before anything is unpacked. */
static gboolean
sensor_supported (libraw_data_t *lr, const char *path, GError **error)
{
  const char *what = NULL;
  unsigned filters = lr->idata.filters;
  if (lr->idata.is_foveon)
    what = _("Foveon's stacked layers");
  else if (filters == 1 || filters == 2)
    what = _("a 16 × 16 colour filter array");
  else if (filters > 2 && filters < 1000 && filters != LIBRAW_XTRANS)
    what = _("an unknown colour filter array");
  else if (filters >= 1000 && lr->idata.colors != 3)
    what = _("four colours of filter");
  else if (filters == 0 && lr->idata.colors != 1 && lr->idata.colors != 3)
    what = _("neither gray nor RGB");
  else if (fabs (lr->sizes.pixel_aspect - 1.0) > 1e-3)
    what = _("sites that are not square");
  if (what == NULL)
    return TRUE;
  /* TRANSLATORS: %s says how, e.g. "sites that are not square" */
  lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path, _("this camera's sensor layout (%s) is not supported"), what);
  return FALSE;
}

/* The layout of what LR unpacked, and its image format; FALSE where there is no buffer to
 * take the visible area from, within the buffer's sizes. */
static gboolean
layout_of (libraw_data_t *lr, LmRawLayout *layout, LmFormat *format, const char *path, GError **error)
{
  const libraw_image_sizes_t *s = &lr->sizes;
  const libraw_rawdata_t *r = &lr->rawdata;
  if (r->ioparams.fuji_width)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("this camera's sensor layout (a rotated SuperCCD) is not supported"));
      return FALSE;
    }
  gboolean inside = s->width > 0 && s->height > 0 && (guint64) s->left_margin + s->width <= s->raw_width
                    && (guint64) s->top_margin + s->height <= s->raw_height;
  if (r->raw_image && inside && s->raw_pitch >= (guint64) s->raw_width * 2)
    {
      *layout = lr->idata.filters == LIBRAW_XTRANS ? LM_RAW_XTRANS
                : lr->idata.filters                ? LM_RAW_BAYER
                                                   : LM_RAW_MONO;
      *format = *layout == LM_RAW_MONO ? LM_FORMAT_GRAY16 : LM_FORMAT_CFA16;
      if (*layout != LM_RAW_MONO || lr->idata.colors == 1)
        return TRUE;
    }
  else if (r->color4_image && s->width > 0 && s->height > 0
           && (s->raw_pitch == s->width * 8 || (inside && s->raw_pitch >= (guint64) s->raw_width * 8)))
    {
      *layout = LM_RAW_LINEAR;
      *format = LM_FORMAT_RGBA16;
      return TRUE;
    }
  else if (r->color3_image && inside && s->raw_pitch >= (guint64) s->raw_width * 6)
    {
      *layout = LM_RAW_LINEAR;
      *format = LM_FORMAT_RGBA16;
      return TRUE;
    }
  lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (LibRaw unpacked no sensor data it could give)"));
  return FALSE;
}

/* The visible area of LR's unpacked buffer into IMAGE, on every core. */
static void
copy_visible (libraw_data_t *lr, LmImage *image)
{
  const libraw_image_sizes_t *s = &lr->sizes;
  const libraw_rawdata_t *r = &lr->rawdata;
  if (image->format != LM_FORMAT_RGBA16)
    {
      const guint8 *base = (const guint8 *) r->raw_image + (gsize) s->left_margin * 2;
#pragma omp parallel for schedule(static)
      for (guint y = 0; y < image->height; y++)
        memcpy (lm_image_row (image, y), base + (gsize) (y + s->top_margin) * s->raw_pitch, (gsize) image->width * 2);
      return;
    }
  /* LibRaw's legacy 4-channel buffer is of the visible size when its pitch says so. */
  gboolean four = r->color4_image != NULL, packed = four && s->raw_pitch == s->width * 8;
  gsize px = four ? 8 : 6, left = packed ? 0 : s->left_margin, top = packed ? 0 : s->top_margin;
  const guint8 *base = four ? (const guint8 *) r->color4_image : (const guint8 *) r->color3_image;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      const guint16 *in = (const guint16 *) (base + (y + top) * s->raw_pitch + left * px);
      guint16 *out = (guint16 *) lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++, in += px / 2)
        {
          out[4 * x + 0] = in[0];
          out[4 * x + 1] = in[1];
          out[4 * x + 2] = in[2];
          out[4 * x + 3] = 65535;
        }
    }
}

/* The camera's embedded JPEG, where it is one and no larger than the file (LEN) and the
 * budget; NULL otherwise, a missing or damaged preview being no reason to refuse the raw. */
static GBytes *
preview_of (libraw_data_t *lr, gsize len)
{
  const libraw_thumbnail_t *t = &lr->thumbnail;
  if (t->tlength < 4 || t->tlength > len || (guint64) t->twidth * t->theight > lm_pixel_budget ())
    return NULL;
  if (libraw_unpack_thumb (lr) != LIBRAW_SUCCESS || t->tformat != LIBRAW_THUMBNAIL_JPEG || t->thumb == NULL
      || t->tlength < 4 || t->tlength > len)
    return NULL;
  const guint8 *jpeg = (const guint8 *) t->thumb;
  if (jpeg[0] != 0xff || jpeg[1] != 0xd8)
    return NULL;
  return g_bytes_new (jpeg, t->tlength);
}

static gboolean
cancelled (const char *path, GError **error)
{
  if (!g_cancellable_is_cancelled (g_cancellable_get_current ()))
    return FALSE;
  lm_set_file_error (error, LM_ERROR_CANCELLED, path, _("loading was cancelled"));
  return TRUE;
}

static LmImage *
raw_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  Report report = { 0 };
  g_autoptr (libraw_data_t) lr = raw_open (path, data, len, &report, error);
  if (lr == NULL || !sensor_supported (lr, path, error))
    return NULL;
  GError *e = NULL;
  if (!lm_pixel_budget_check (lr->sizes.raw_width, lr->sizes.raw_height, &e))
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }
  int rc = libraw_unpack (lr);
  if (rc != LIBRAW_SUCCESS || report.ends_early || report.data_errors || report.out_of_memory)
    {
      set_libraw_error (error, path, rc, &report);
      return NULL;
    }
  LmRawLayout layout;
  LmFormat format;
  if (cancelled (path, error) || !layout_of (lr, &layout, &format, path, error))
    return NULL;
  guint dng_crop[4];
  gboolean has_dng_crop = lr->idata.dng_version && lm_raw_dng_crop (data, len, dng_crop);
  g_autoptr (LmRawInfo) info = lm_raw_info_from_libraw (lr, layout, has_dng_crop ? dng_crop : NULL, path, error);
  if (info == NULL)
    return NULL;
  g_autoptr (LmImage) image = lm_io_image_new (format, lr->sizes.width, lr->sizes.height, allocator, path, error);
  if (image == NULL)
    return NULL;
  copy_visible (lr, image);
  image->opaque = TRUE;
  info->preview = preview_of (lr, len);
  libraw_recycle (lr); /* the sensor buffer goes before the EXIF is made */
  if (cancelled (path, error))
    return NULL;
  image->exif = lm_raw_exif_block (info);
  /* What the development's display transform writes: Rec. 2020's primaries, sRGB's curve. The
   * edits work in it, and the export embeds it (or converts it: --to-srgb). */
  image->icc_profile = lm_color_rec2020_display_icc ();
  image->raw = g_steal_pointer (&info);
  /* Turned upright here, the mosaic with its pattern (raw-orient.h): every size after the
   * load is the upright one. */
  LmImage *upright = lm_raw_orient (image, &e);
  if (upright == NULL)
    {
      lm_set_file_error (error, e->code, path, "%s", e->message);
      g_error_free (e);
    }
  return upright;
}

gboolean
lm_raw_exposure_time (const char *path, double *seconds, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), error);
  if (bytes == NULL)
    return FALSE;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  Report report = { 0 };
  g_autoptr (libraw_data_t) lr = raw_open (path, data, len, &report, error);
  if (lr == NULL)
    return FALSE;
  float t = lr->other.shutter;
  if (!(isfinite (t) && t > 0.0f))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("states no exposure time"));
      return FALSE;
    }
  *seconds = t;
  return TRUE;
}

gboolean
lm_raw_date_taken (const char *path, const guint8 *data, gsize len, gint64 *unix_seconds, GError **error)
{
  Report report = { 0 };
  g_autoptr (libraw_data_t) lr = raw_open (path, data, len, &report, error);
  if (lr == NULL)
    return FALSE;
  *unix_seconds = lr->other.timestamp > 0 ? (gint64) lr->other.timestamp : 0;
  return TRUE;
}

const LmFileFormat lm_file_format_raw = {
  .type = LM_FILE_RAW,
  .name = "camera raw",
  .suffixes = lm_raw_suffixes, /* named, so that "-o photo.dng" is told why not */
  .sniff = lm_raw_sniff,
  .load = raw_load,
  .no_save = N_("Lumen does not write camera raw files; export as TIFF, PNG, JPEG or OpenEXR"),
};

gboolean
lm_raw_scene_output_check (const char *path, GError **error)
{
  if (lm_file_type_for_output (path) != LM_FILE_RADIANCE)
    return TRUE;
  lm_set_file_error (error, LM_ERROR_INVALID, path,
                     _("a raw's developed scene is written as OpenEXR (.exr), which says its Rec. 2020 primaries; "
                       "a .hdr file cannot"));
  return FALSE;
}
