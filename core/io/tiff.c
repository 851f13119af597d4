/* TIFF through libtiff directly. Straight (unassociated) alpha stays straight on load, which
 * gdk-pixbuf's loader does not do; gray images are written as one channel. 16-bit files in
 * contiguous strips or tiles load as 16-bit (RGBA16, or GRAY16 for one channel, as 8-bit gray
 * loads as GRAY8) and 16-bit images are written as 16-bit. Float samples (16-bit halves,
 * floats, doubles) of gray or RGB(A) are linear radiance, as OpenEXR's: they load as
 * RGBA_F32, gray in R, G and B as OpenEXR's Y is. Strips and tiles are decoded, and strips
 * compressed, on every core (tiff-decode.c, tiff-encode.c). Layouts beyond contiguous 8/16-bit
 * gray and RGB(A) go through libtiff's RGBA reader, which gives 8 bits (source_bit_depth then
 * says what the file had); sample formats none of these reads right (signed, complex, floats
 * elsewhere) are refused by name. Every path ends turned by the file's Orientation.
 * The source's EXIF goes into the TIFF's own tags and EXIF/GPS sub-IFDs (tiff-exif.c). */
#include <string.h>
#include <tiffio.h>
#include <glib/gi18n.h>

#include "icc-input.h"
#include "io-private.h"
#include "orientation.h"
#include "tiff-exif.h"
#include "tiff-io.h"
#include "tiff-strips.h"

/* Contiguous 8- or 16-bit gray (+alpha) or RGB(A), or their floats, in one strip (or strips
 * too large for a buffer a thread): read row by row into the image, keeping straight alpha
 * straight. */
static gboolean
read_scanlines (TIFF *tif, LmImage *image, const LmTiffSamples *samples)
{
  tmsize_t row_bytes = TIFFScanlineSize (tif);
  g_autofree guint8 *row = g_malloc (row_bytes);
  for (guint y = 0; y < image->height; y++)
    {
      if (TIFFReadScanline (tif, row, y, 0) < 0)
        return FALSE;
      lm_tiff_convert_pixels (row, lm_image_row (image, y), image->width, samples, image->format);
    }
  return TRUE;
}

/* Anything else (palettes, YCbCr, planes, CMYK, 1–4 bit): libtiff's RGBA reader, which
 * premultiplies straight alpha; undo that. The pixels stay as stored, ORIENTATION being the
 * file's: libtiff would only flip them, never turn them (orientations 5 to 8), so the turn is
 * left to lm_io_orient_by as on the other paths. */
static gboolean
read_rgba (TIFF *tif, LmImage *image, gboolean straight_alpha, guint16 orientation)
{
  g_autofree guint32 *raster = g_try_malloc ((gsize) image->width * image->height * 4);
  if (raster == NULL || !TIFFReadRGBAImageOriented (tif, image->width, image->height, raster, orientation, 1))
    return FALSE;
  for (guint y = 0; y < image->height; y++)
    {
      guint8 *out = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        {
          guint32 p = raster[(gsize) y * image->width + x];
          guint a = TIFFGetA (p);
          guint c[3] = { TIFFGetR (p), TIFFGetG (p), TIFFGetB (p) };
          for (int i = 0; i < 3; i++)
            out[4 * x + i] = straight_alpha && a > 0 && a < 255 ? MIN (255u, (c[i] * 255 + a / 2) / a) : c[i];
          out[4 * x + 3] = a;
        }
    }
  return TRUE;
}

/* Whether every alpha sample of the RGBA8, RGBA16 or RGBA_F32 IMAGE is at its maximum (1 for
 * floats): on every core, since at 16 cores a serial scan costs as much as the decoding. */
static gboolean
alpha_is_opaque (const LmImage *image)
{
  gboolean wide = image->format == LM_FORMAT_RGBA16, floating = image->format == LM_FORMAT_RGBA_F32;
  int opaque = 1;
#pragma omp parallel for reduction(&& : opaque) schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      if (!opaque)
        continue; /* this thread's rows: one transparent pixel was enough */
      const guint8 *row = lm_image_row (image, y);
      if (floating)
        for (guint x = 0; x < image->width; x++)
          opaque &= ((const float *) row)[4 * x + 3] == 1.0f;
      else if (wide)
        for (guint x = 0; x < image->width; x++)
          opaque &= ((const guint16 *) row)[4 * x + 3] == 65535;
      else
        for (guint x = 0; x < image->width; x++)
          opaque &= row[4 * x + 3] == 255;
    }
  return opaque;
}

/* Whether Lumen reads samples of SAMPLE_FORMAT and BITS: unsigned integers (through the
 * RGBA reader where they are not 8 or 16 bits), and IEEE floats of 16, 32 or 64 bits in
 * FLOAT_LAYOUT (gray or RGB, alpha or not, stored together). Anything else would be read as
 * unsigned integers, a wrong picture: it is refused by name instead. */
static gboolean
samples_readable (guint16 sample_format, guint16 bits, guint16 planar, gboolean float_layout, const char *path,
                  GError **error)
{
  switch (sample_format)
    {
    case SAMPLEFORMAT_UINT:
    case SAMPLEFORMAT_VOID: /* "undefined": unsigned, as libtiff and other readers take it */
      return TRUE;
    case SAMPLEFORMAT_IEEEFP:
      if (bits != 16 && bits != 32 && bits != 64)
        lm_set_file_error (error, LM_ERROR_FORMAT, path,
                           _("%u-bit floating-point samples are not supported (16, 32 and 64 bits are)"), bits);
      else if (planar != PLANARCONFIG_CONTIG && !float_layout)
        lm_set_file_error (error, LM_ERROR_FORMAT, path,
                           _("floating-point samples in separate planes are not supported"));
      else if (!float_layout)
        lm_set_file_error (error, LM_ERROR_FORMAT, path,
                           _("floating-point samples are supported in gray and RGB images (with or without "
                             "alpha) only"));
      else
        return TRUE;
      return FALSE;
    case SAMPLEFORMAT_INT:
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("signed samples are not supported"));
      return FALSE;
    case SAMPLEFORMAT_COMPLEXINT:
    case SAMPLEFORMAT_COMPLEXIEEEFP:
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("complex samples are not supported"));
      return FALSE;
    default:
      /* TRANSLATORS: SampleFormat is a TIFF tag's name, kept as it is */
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("SampleFormat %u is not a TIFF sample format"),
                         sample_format);
      return FALSE;
    }
}

/* Whether every strip or tile has a place in the file. libtiff pads a StripOffsets,
 * StripByteCounts, TileOffsets or TileByteCounts shorter than the image's strips or tiles
 * with zeros, and would then read those rows from the file's first bytes, its header: such a
 * file is damaged. (Old-style JPEG may leave its one strip's offset to its JPEG stream.) */
static gboolean
pieces_placed (TIFF *tif, guint16 compression, const char *path, GError **error)
{
  if (compression == COMPRESSION_OJPEG)
    return TRUE;
  gboolean tiled = TIFFIsTiled (tif);
  guint32 n = tiled ? TIFFNumberOfTiles (tif) : TIFFNumberOfStrips (tif);
  for (guint32 i = 0; i < n; i++)
    {
      gboolean placed = TIFFGetStrileOffset (tif, i) != 0;
      if (placed && TIFFGetStrileByteCount (tif, i) != 0)
        continue;
      const char *tag = tiled ? (placed ? "TileByteCounts" : "TileOffsets")
                              : (placed ? "StripByteCounts" : "StripOffsets");
      if (tiled)
        /* TRANSLATORS: %s is a TIFF tag's name (TileOffsets or TileByteCounts), kept as it is */
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the file is damaged: its %s give nothing for tile %u of %u"),
                           tag, i + 1, n);
      else
        /* TRANSLATORS: %s is a TIFF tag's name (StripOffsets or StripByteCounts), kept as it is */
        lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the file is damaged: its %s give nothing for strip %u of %u"),
                           tag, i + 1, n);
      return FALSE;
    }
  return TRUE;
}

/* How a TIFF's first directory is read. */
typedef struct {
  guint32 width, height;
  guint16 orientation;
  LmTiffSamples samples;
  gboolean straight_alpha;
  LmFormat format;
  enum { READ_RGBA, READ_PIECES, READ_ROWS } how;
} Plan;

/* PLAN for TIF, the file at PATH; FALSE, with an error naming it, for a file Lumen would read
 * wrong. */
static gboolean
plan_reading (TIFF *tif, const char *path, Plan *plan, GError **error)
{
  guint16 spp = 1, bits = 8, photometric = PHOTOMETRIC_MINISBLACK, planar = PLANARCONFIG_CONTIG;
  guint16 n_extra = 0, *extra = NULL, sample_format = SAMPLEFORMAT_UINT, compression = COMPRESSION_NONE;
  *plan = (Plan) { .orientation = ORIENTATION_TOPLEFT };
  TIFFGetField (tif, TIFFTAG_IMAGEWIDTH, &plan->width);
  TIFFGetField (tif, TIFFTAG_IMAGELENGTH, &plan->height);
  TIFFGetFieldDefaulted (tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
  TIFFGetFieldDefaulted (tif, TIFFTAG_BITSPERSAMPLE, &bits);
  TIFFGetFieldDefaulted (tif, TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted (tif, TIFFTAG_ORIENTATION, &plan->orientation);
  TIFFGetFieldDefaulted (tif, TIFFTAG_EXTRASAMPLES, &n_extra, &extra);
  TIFFGetFieldDefaulted (tif, TIFFTAG_SAMPLEFORMAT, &sample_format);
  TIFFGetFieldDefaulted (tif, TIFFTAG_COMPRESSION, &compression);
  TIFFGetField (tif, TIFFTAG_PHOTOMETRIC, &photometric);
  plan->straight_alpha = n_extra > 0 && extra[0] == EXTRASAMPLE_UNASSALPHA;
  gboolean gray_or_rgb = (photometric == PHOTOMETRIC_MINISBLACK && (spp == 1 || spp == 2))
                         || (photometric == PHOTOMETRIC_RGB && (spp == 3 || spp == 4));
  /* LogLuv's SampleFormat describes its codec's encoding, which libtiff's RGBA reader turns
   * into 8-bit RGB itself. */
  if (photometric == PHOTOMETRIC_LOGLUV || photometric == PHOTOMETRIC_LOGL)
    sample_format = SAMPLEFORMAT_UINT;
  /* One sample a pixel is stored alike in either planar configuration. */
  gboolean floating = sample_format == SAMPLEFORMAT_IEEEFP;
  gboolean float_layout = gray_or_rgb && (planar == PLANARCONFIG_CONTIG || spp == 1);
  if (!samples_readable (sample_format, bits, planar, float_layout, path, error)
      || !pieces_placed (tif, compression, path, error))
    return FALSE;
  plan->samples = (LmTiffSamples) { .spp = spp, .bits = bits, .floating = floating };

  gboolean direct = floating || (planar == PLANARCONFIG_CONTIG && (bits == 8 || bits == 16) && gray_or_rgb);
  /* Other alpha than straight goes through the RGBA reader at 8 bits, which gives the samples as
   * stored for associated or unspecified alpha; at 16 bits they are read as stored here, and
   * floats as OpenEXR's are. */
  if (direct && !floating && bits == 8 && (spp == 2 || spp == 4) && !plan->straight_alpha)
    direct = FALSE;
  gboolean pieces = direct && lm_tiff_reads_in_pieces (tif);
  /* Tiles too large for a buffer a thread (never in practice) are left to the RGBA reader:
   * libtiff reads no scanlines from tiles. It reads no floats either. */
  if (direct && TIFFIsTiled (tif) && !pieces)
    {
      if (floating)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, path, _("floating-point tiles over 64 MiB each are not supported"));
          return FALSE;
        }
      direct = FALSE;
    }
  plan->how = !direct ? READ_RGBA : pieces ? READ_PIECES : READ_ROWS;
  gboolean gray = direct && !floating && spp == 1;
  plan->format = floating                ? LM_FORMAT_RGBA_F32
                 : direct && bits == 16 ? (gray ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16)
                                         : (gray ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8);
  return TRUE;
}

LmImage *
lm_tiff_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
              GError **error)
{
  TiffIo io = { .data = data, .len = len };
  TIFF *tif = lm_tiff_open_memory (path, &io);
  if (tif == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode TIFF: %s"),
                         io.message[0] ? io.message : _("the file is damaged"));
      return NULL;
    }
  Plan plan;
  LmImage *image = NULL;
  if (!plan_reading (tif, path, &plan, error)
      || (image = lm_io_image_new (plan.format, plan.width, plan.height, allocator, path, error)) == NULL)
    {
      TIFFClose (tif);
      return NULL;
    }

  gboolean ok = FALSE;
  switch (plan.how)
    {
    case READ_RGBA:
      ok = read_rgba (tif, image, plan.straight_alpha, plan.orientation);
      break;
    case READ_PIECES:
      ok = lm_tiff_read_pieces (path, data, len, tif, image, &plan.samples, io.message);
      break;
    case READ_ROWS:
      ok = read_scanlines (tif, image, &plan.samples);
      break;
    }
  if (!ok)
    {
      TIFFClose (tif);
      lm_image_unref (image);
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode TIFF: %s"),
                         io.message[0] ? io.message : _("the file is truncated or damaged"));
      return NULL;
    }
  if (lm_format_channels (image->format) == 4)
    image->opaque = alpha_is_opaque (image);

  image->source_bit_depth = plan.samples.bits;
  guint32 icc_len = 0;
  void *icc = NULL;
  if (TIFFGetField (tif, TIFFTAG_ICCPROFILE, &icc_len, &icc) && icc_len > 0)
    lm_io_take_profile (image, icc, icc_len);
  lm_tiff_read_metadata (tif, data, len, image);
  guint16 stated = 0;
  gboolean has_orientation = TIFFGetField (tif, TIFFTAG_ORIENTATION, &stated);
  TIFFClose (tif);
  /* Turned by the TIFF's own Orientation tag (its EXIF block, tiff-exif.c, leaves Orientation
   * out); where the file has none, as every loader turns, by XMP's tiff:Orientation. */
  return has_orientation ? lm_io_orient_by (image, plan.orientation, path, error)
                         : lm_io_orient_upright (image, path, error);
}

gboolean
lm_tiff_save (const LmImage *image, LmAtomicFile *file, GError **error)
{
  const char *path = lm_atomic_file_path (file);
  TiffIo io = { .stream = lm_atomic_file_stream (file) };
  TIFF *tif = lm_tiff_open_stream (path, &io);
  if (tif == NULL)
    {
      lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode TIFF: %s"), io.message);
      return FALSE;
    }

  lm_tiff_write_metadata (tif, image, path, io.message);

  gboolean gray = lm_format_channels (image->format) == 1;
  gsize bytes = lm_format_depth (image->format) / 8; /* per sample */
  guint16 spp = gray ? 1 : image->opaque ? 3 : 4;
  TIFFSetField (tif, TIFFTAG_IMAGEWIDTH, image->width);
  TIFFSetField (tif, TIFFTAG_IMAGELENGTH, image->height);
  TIFFSetField (tif, TIFFTAG_SAMPLESPERPIXEL, spp);
  TIFFSetField (tif, TIFFTAG_BITSPERSAMPLE, (guint16) (8 * bytes));
  TIFFSetField (tif, TIFFTAG_PHOTOMETRIC, gray ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB);
  TIFFSetField (tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField (tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
  /* LZW with the horizontal predictor: lossless, compact on photos, read everywhere. */
  TIFFSetField (tif, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
  TIFFSetField (tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
  TIFFSetField (tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize (tif, 0));
  if (spp == 4)
    {
      guint16 extra = EXTRASAMPLE_UNASSALPHA;
      TIFFSetField (tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
  if (image->icc_profile)
    TIFFSetField (tif, TIFFTAG_ICCPROFILE, (guint32) g_bytes_get_size (image->icc_profile),
                  g_bytes_get_data (image->icc_profile, NULL));

  /* libtiff writes host-order 16-bit samples and marks the file's byte order. */
  gboolean ok = lm_tiff_write_strips (tif, image, spp, io.message);
  ok = ok && TIFFWriteDirectory (tif);
  TIFFClose (tif);
  if (io.write_errno)
    {
      lm_set_write_error (error, path, io.write_errno);
      return FALSE;
    }
  if (!ok)
    {
      lm_set_file_error (error, LM_ERROR_IO, path, _("cannot encode TIFF: %s"), io.message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
sniff_tiff (const guint8 *h, gsize n)
{
  return n >= 4 && (memcmp (h, "II*\0", 4) == 0 || memcmp (h, "MM\0*", 4) == 0);
}

static gboolean
save_tiff (const LmImage *image, LmAtomicFile *file, const LmSaveOptions *options, GError **error)
{
  return lm_tiff_save (image, file, error);
}

static const char *const tiff_suffixes[] = { ".tif", ".tiff", NULL };

const LmFileFormat lm_file_format_tiff = {
  .type = LM_FILE_TIFF,
  .name = "TIFF",
  .suffixes = tiff_suffixes,
  .sniff = sniff_tiff,
  .load = lm_tiff_load,
  .save = save_tiff,
};
