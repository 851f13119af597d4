/* JPEG through libjpeg(-turbo) directly rather than gdk-pixbuf: it decodes straight into our
 * RGBA buffer, and it tells a truncated file (a "premature end" warning that gdk-pixbuf
 * swallows, painting the missing part gray) from a complete one. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include <glib/gi18n.h>

#include "exif.h"
#include "depth.h"
#include "icc-input.h"
#include "io-private.h"
#include "iptc.h"
#include "jpeg-markers.h"
#include "jpeg-scaled.h"
#include "orientation.h"

#define ICC_HEADER "ICC_PROFILE"
#define ICC_HEADER_LEN 12 /* with its NUL */
/* The most scans a file may have. Each scan of a progressive file is a pass over every block
 * of its components, however few bytes it holds: a 422 KB file of a few hundred repeated
 * refinement scans took 17 to 45 s to decode. Encoders write far fewer: libjpeg's
 * progression has 10 scans (6 for gray), Photoshop's and jpegli's about as many, mozjpeg
 * chooses among the 64 of its search script. 100 is cjpeg's own bound on a scan script and
 * what libjpeg-turbo's fuzz targets decode with (TJPARAM_SCANLIMIT; djpeg's -maxscans). */
#define JPEG_SCANS_MAX 100

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  gboolean damaged; /* MESSAGE is libjpeg's own words for bad data */
  LmErrorCode code;
  int write_errno;
} LmJpegError;

static void
on_fatal (j_common_ptr cinfo)
{
  LmJpegError *err = (LmJpegError *) cinfo->err;
  if (err->pub.msg_code == JERR_FILE_WRITE)
    err->write_errno = errno ? errno : EIO;
  cinfo->err->format_message (cinfo, err->message);
  err->damaged = err->write_errno == 0;
  longjmp (err->jump, 1);
}

/* Warnings that mean pixels are missing end the decode; the others (e.g. stray bytes
 * before a marker, common in camera files) are harmless, as libjpeg treats them. */
static void
on_message (j_common_ptr cinfo, int level)
{
  LmJpegError *err = (LmJpegError *) cinfo->err;
  if (level >= 0)
    return;
  if (err->pub.msg_code == JWRN_JPEG_EOF || err->pub.msg_code == JWRN_HIT_MARKER)
    {
      g_strlcpy (err->message, _("the file is truncated or damaged: pixel data ends early"),
                 sizeof err->message);
      longjmp (err->jump, 1);
    }
  err->pub.num_warnings++;
}

/* Called as libjpeg reads the input, at least once per scan: refuses the scan past the most. */
static void
count_scans (j_common_ptr cinfo)
{
  LmJpegError *err = (LmJpegError *) cinfo->err;
  if (((j_decompress_ptr) cinfo)->input_scan_number <= JPEG_SCANS_MAX)
    return;
  g_snprintf (err->message, sizeof err->message,
              _("cannot decode JPEG: it has more than %d scans, which no encoder writes (each costs a pass over "
                "the whole image)"),
              JPEG_SCANS_MAX);
  err->damaged = FALSE;
  longjmp (err->jump, 1);
}

static void
init_error (LmJpegError *err)
{
  memset (err, 0, sizeof *err);
  jpeg_std_error (&err->pub);
  err->pub.error_exit = on_fatal;
  err->pub.emit_message = on_message;
  err->code = LM_ERROR_FORMAT;
}

/* State the error path must see after longjmp lives here, in memory, not in registers. */
typedef struct {
  struct jpeg_decompress_struct cinfo;
  LmJpegError err;
  struct jpeg_progress_mgr progress;
  LmImage *image;
  GBytes *exif;
  GBytes *xmp;
  GBytes *iptc;
  JOCTET *icc;
  unsigned int icc_len;
} JpegLoad;

/* The first EXIF and XMP segments; every APP13 Photoshop segment, joined in order. */
static void
collect_metadata (JpegLoad *s)
{
  g_autoptr (GByteArray) photoshop = g_byte_array_new ();
  for (jpeg_saved_marker_ptr m = s->cinfo.marker_list; m != NULL; m = m->next)
    if (m->marker == JPEG_APP0 + 1 && s->exif == NULL && m->data_length > LM_EXIF_HEADER_LEN
        && memcmp (m->data, LM_EXIF_HEADER, LM_EXIF_HEADER_LEN) == 0)
      s->exif = g_bytes_new (m->data, m->data_length);
    else if (m->marker == JPEG_APP0 + 1)
      lm_jpeg_segment_xmp (m->data, m->data_length, &s->xmp);
    else if (m->marker == JPEG_APP0 + 13)
      lm_jpeg_segment_photoshop (m->data, m->data_length, photoshop);
  s->iptc = lm_iptc_from_resources (photoshop->data, photoshop->len);
}

static gboolean
has_icc_chunks (j_decompress_ptr cinfo)
{
  for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next)
    if (m->marker == JPEG_APP0 + 2 && m->data_length >= ICC_HEADER_LEN
        && memcmp (m->data, ICC_HEADER, ICC_HEADER_LEN) == 0)
      return TRUE;
  return FALSE;
}

/* The profile, where libjpeg puts its chunks together and lcms2 reads it; otherwise a note
 * says why it is not used (libjpeg itself only warns). */
static void
take_profile (JpegLoad *s)
{
  if (jpeg_read_icc_profile (&s->cinfo, &s->icc, &s->icc_len) && s->icc_len > 0)
    lm_io_take_profile (s->image, s->icc, s->icc_len);
  else if (has_icc_chunks (&s->cinfo))
    lm_io_note_profile_unused (s->image,
                               _("its ICC profile is damaged (its APP2 chunks are missing, repeated or out of order)"));
}

static void
jpeg_load_free (JpegLoad *s)
{
  jpeg_destroy_decompress (&s->cinfo);
  g_clear_pointer (&s->image, lm_image_unref);
  g_clear_pointer (&s->exif, g_bytes_unref);
  g_clear_pointer (&s->xmp, g_bytes_unref);
  g_clear_pointer (&s->iptc, g_bytes_unref);
  free (s->icc);
  g_free (s);
}

/* The largest IDCT reduction (1/8, 1/4, 1/2 or 1) that leaves the longest side at least
 * MIN_SIDE: libjpeg-turbo then computes only those coefficients, a 24 MP file at 1/8 in about
 * a fifth of a full decode's time (the entropy decoding of every block remains). */
static guint
scale_denominator (guint width, guint height, guint min_side)
{
  guint side = MAX (width, height);
  for (guint denom = 8; denom > 1; denom /= 2)
    if ((side + denom - 1) / denom >= min_side)
      return denom;
  return 1;
}

/* lm_jpeg_load (MIN_SIDE 0) and lm_jpeg_load_scaled (the IDCT reduced to keep MIN_SIDE, gray
 * given as RGBA): one set-up, one scan limit, one metadata path. */
static LmImage *
load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, guint min_side, GError **error)
{
  JpegLoad *s = g_new0 (JpegLoad, 1);
  init_error (&s->err);
  s->cinfo.err = &s->err.pub;
  jpeg_create_decompress (&s->cinfo);

  if (setjmp (s->err.jump))
    {
      if (s->err.damaged)
        lm_set_file_error (error, s->err.code, path, _("the JPEG data is damaged (%s)"), s->err.message);
      else
        lm_set_file_error (error, s->err.code, path, "%s", s->err.message);
      jpeg_load_free (s);
      return NULL;
    }

  s->progress.progress_monitor = count_scans;
  s->cinfo.progress = &s->progress;
  jpeg_mem_src (&s->cinfo, data, len);
  jpeg_save_markers (&s->cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_save_markers (&s->cinfo, JPEG_APP0 + 2, 0xFFFF);
  jpeg_save_markers (&s->cinfo, JPEG_APP0 + 13, 0xFFFF);
  jpeg_read_header (&s->cinfo, TRUE);

  GError *layout_error = NULL;
  if (!lm_image_layout (LM_FORMAT_RGBA8, s->cinfo.image_width, s->cinfo.image_height, NULL, NULL,
                        &layout_error))
    {
      lm_set_file_error (error, layout_error->code, path, "%s", layout_error->message);
      g_error_free (layout_error);
      jpeg_load_free (s);
      return NULL;
    }

  if ((s->cinfo.jpeg_color_space == JCS_CMYK || s->cinfo.jpeg_color_space == JCS_YCCK) && min_side > 0)
    {
      /* No scaled CMYK path: the whole decode, shrunk by the caller. */
      jpeg_load_free (s);
      return load (path, data, len, allocator, 0, error);
    }
  if (s->cinfo.jpeg_color_space == JCS_CMYK || s->cinfo.jpeg_color_space == JCS_YCCK)
    {
      /* libjpeg-turbo cannot convert CMYK to RGB; gdk-pixbuf can, but counts no scans (3,000
       * refinement scans of 2000² ran past a minute). Starting the decompression reads every
       * scan of a file that has several, under count_scans, before gdk-pixbuf reads it again. */
      s->cinfo.out_color_space = JCS_CMYK;
      jpeg_start_decompress (&s->cinfo);
      /* gdk-pixbuf keeps none of the metadata and reads no XMP orientation: the segments read
       * here travel, and turn the pixels, as the RGB path's do. */
      collect_metadata (s);
      g_autoptr (GBytes) exif = g_steal_pointer (&s->exif), xmp = g_steal_pointer (&s->xmp),
                         iptc = g_steal_pointer (&s->iptc);
      jpeg_load_free (s);
      LmImage *image = lm_pixbuf_load (path, LM_FILE_JPEG, data, len, allocator, error);
      if (image == NULL)
        return NULL;
      image->exif = g_steal_pointer (&exif);
      image->xmp = g_steal_pointer (&xmp);
      image->iptc = g_steal_pointer (&iptc);
      return lm_io_orient_upright (image, path, error);
    }

  /* A thumbnail's decode gives RGBA whatever the file holds: libjpeg-turbo expands gray itself. */
  gboolean gray = s->cinfo.jpeg_color_space == JCS_GRAYSCALE && min_side == 0;
  s->cinfo.out_color_space = gray ? JCS_GRAYSCALE : JCS_EXT_RGBA;
  s->cinfo.dct_method = JDCT_ISLOW; /* the default of libjpeg and of OpenCV's imread */
  if (min_side > 0)
    {
      s->cinfo.scale_num = 1;
      s->cinfo.scale_denom = scale_denominator (s->cinfo.image_width, s->cinfo.image_height, min_side);
    }
  jpeg_start_decompress (&s->cinfo);

  s->image = lm_io_image_new (gray ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8, s->cinfo.output_width,
                              s->cinfo.output_height, allocator, path, error);
  if (s->image == NULL)
    {
      jpeg_load_free (s);
      return NULL;
    }

  while (s->cinfo.output_scanline < s->cinfo.output_height)
    {
      JSAMPROW rows[16];
      JDIMENSION n = MIN (G_N_ELEMENTS (rows), s->cinfo.output_height - s->cinfo.output_scanline);
      for (JDIMENSION i = 0; i < n; i++)
        rows[i] = lm_image_row (s->image, s->cinfo.output_scanline + i);
      jpeg_read_scanlines (&s->cinfo, rows, n);
    }

  take_profile (s);
  collect_metadata (s);
  jpeg_finish_decompress (&s->cinfo);
  if (min_side > 0)
    s->image->opaque = TRUE;

  LmImage *image = g_steal_pointer (&s->image);
  image->exif = g_steal_pointer (&s->exif);
  image->xmp = g_steal_pointer (&s->xmp);
  image->iptc = g_steal_pointer (&s->iptc);
  jpeg_load_free (s);

  return lm_io_orient_upright (image, path, error);
}

LmImage *
lm_jpeg_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
              GError **error)
{
  return load (path, data, len, allocator, 0, error);
}

LmImage *
lm_jpeg_load_scaled (const char *path, const guint8 *data, gsize len, guint min_side, GError **error)
{
  return load (path, data, len, lm_allocator_host (), MAX (min_side, 1), error);
}

typedef struct {
  struct jpeg_compress_struct cinfo;
  LmJpegError err;
  GArray *segments;
} JpegSave;

gboolean
lm_jpeg_save (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options,
              GError **error)
{
  const char *path = lm_atomic_file_path (file);
  JpegSave *s = g_new0 (JpegSave, 1);
  init_error (&s->err);
  s->cinfo.err = &s->err.pub;
  jpeg_create_compress (&s->cinfo);

  if (setjmp (s->err.jump))
    {
      if (s->err.write_errno)
        lm_set_write_error (error, path, s->err.write_errno);
      else
        lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode JPEG: %s"), s->err.message);
      jpeg_destroy_compress (&s->cinfo);
      g_clear_pointer (&s->segments, g_array_unref);
      g_free (s);
      return FALSE;
    }

  gboolean gray = image->format == LM_FORMAT_GRAY8;
  jpeg_stdio_dest (&s->cinfo, lm_atomic_file_stream (file));
  s->cinfo.image_width = image->width;
  s->cinfo.image_height = image->height;
  s->cinfo.input_components = gray ? 1 : 4;
  s->cinfo.in_color_space = gray ? JCS_GRAYSCALE : JCS_EXT_RGBA; /* alpha is dropped */
  jpeg_set_defaults (&s->cinfo);
  jpeg_set_quality (&s->cinfo, CLAMP (options->quality, 1, 100), TRUE);
  /* OpenCV's settings (libjpeg's defaults): no Huffman optimisation, whose second pass keeps
   * every coefficient of the image (144 MB at 24 MP) for a 3 % smaller file, and made the
   * save 8–12× OpenCV's imwrite on the 2-core machine. */
  s->cinfo.optimize_coding = FALSE;
  s->cinfo.dct_method = JDCT_ISLOW;
  if (!gray && options->quality >= 90)
    {
      /* At high quality, halving the chroma resolution costs more than it saves. */
      s->cinfo.comp_info[0].h_samp_factor = 1;
      s->cinfo.comp_info[0].v_samp_factor = 1;
    }
  jpeg_start_compress (&s->cinfo, TRUE);

  s->segments = lm_jpeg_export_segments (image);
  for (guint k = 0; k < s->segments->len; k++)
    {
      const LmJpegSegment *seg = &g_array_index (s->segments, LmJpegSegment, k);
      jpeg_write_marker (&s->cinfo, seg->marker, g_bytes_get_data (seg->payload, NULL),
                         (unsigned int) g_bytes_get_size (seg->payload));
    }

  while (s->cinfo.next_scanline < s->cinfo.image_height)
    {
      JSAMPROW rows[16];
      JDIMENSION n = MIN (G_N_ELEMENTS (rows), s->cinfo.image_height - s->cinfo.next_scanline);
      for (JDIMENSION i = 0; i < n; i++)
        rows[i] = lm_image_row (image, s->cinfo.next_scanline + i);
      jpeg_write_scanlines (&s->cinfo, rows, n);
    }
  jpeg_finish_compress (&s->cinfo);
  jpeg_destroy_compress (&s->cinfo);
  g_clear_pointer (&s->segments, g_array_unref);
  g_free (s);
  lm_jpeg_note_left_out (image, options->notes);
  return TRUE;
}

static gboolean
sniff_jpeg (const guint8 *h, gsize n)
{
  return n >= 3 && h[0] == 0xFF && h[1] == 0xD8 && h[2] == 0xFF;
}

/* JPEG is 8-bit: a 16-bit image is rounded to 8 bits for it. */
static gboolean
save_jpeg (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options, GError **error)
{
  g_autoptr (LmImage) narrow = lm_image_to_depth8 (image, error);
  return narrow && lm_jpeg_save (narrow, file, options, error);
}

static const char *const jpeg_suffixes[] = { ".jpg", ".jpeg", NULL };

const LmFileFormat lm_file_format_jpeg = {
  .type = LM_FILE_JPEG,
  .name = "JPEG",
  .suffixes = jpeg_suffixes,
  .sniff = sniff_jpeg,
  .load = lm_jpeg_load,
  .save = save_jpeg,
};
