/* WebP through libwebp: the size is read from the bitstream's header and checked against the
 * memory budget before a pixel is allocated, then decoded straight into the image's rows.
 * An animation gives its first frame, at the frame's own size. The ICC profile, EXIF and XMP
 * chunks travel as a JPEG's do, and EXIF's Orientation turns the image upright. */
#include <string.h>
#include <glib/gi18n.h>
#include <webp/decode.h>
#include <webp/demux.h>

#include "exif.h"
#include "icc-input.h"
#include "io-private.h"
#include "orientation.h"


static const char *
webp_cause (VP8StatusCode status)
{
  switch (status)
    {
    case VP8_STATUS_OUT_OF_MEMORY:
      return _("not enough memory");
    case VP8_STATUS_NOT_ENOUGH_DATA:
      return _("the file is truncated");
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      return _("it uses a WebP feature that libwebp does not support");
    default:
      return _("the image data is damaged");
    }
}

static LmImage *
load_still (const char *path, const WebPData *webp, guint32 width, guint32 height,
            const LmAllocator *allocator, GError **error)
{
  LmImage *image = lm_io_image_new (LM_FORMAT_RGBA8, width, height, allocator, path, error);
  if (image == NULL)
    return NULL;
  WebPDecoderConfig config;
  WebPInitDecoderConfig (&config);
  config.output.colorspace = MODE_RGBA;
  config.output.is_external_memory = 1;
  config.output.u.RGBA.rgba = lm_image_row (image, 0);
  config.output.u.RGBA.stride = (int) image->stride;
  config.output.u.RGBA.size = image->stride * image->height;
  VP8StatusCode status = WebPDecode (webp->bytes, webp->size, &config);
  if (status == VP8_STATUS_OK && (config.input.width != (int) width || config.input.height != (int) height))
    status = VP8_STATUS_BITSTREAM_ERROR;
  if (status != VP8_STATUS_OK)
    {
      lm_set_file_error (error, status == VP8_STATUS_OUT_OF_MEMORY ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_FORMAT,
                         path, _("cannot decode WebP: %s"), webp_cause (status));
      lm_image_unref (image);
      return NULL;
    }
  gboolean opaque = !config.input.has_alpha;
  for (guint y = 0; y < image->height && !opaque; y++)
    {
      const guint8 *row = lm_image_row (image, y);
      opaque = TRUE;
      for (guint x = 0; x < image->width && opaque; x++)
        opaque = row[4 * x + 3] == 255;
    }
  image->opaque = opaque;
  return image;
}

/* The first chunk FOURCC of DEMUX when FLAG says the file has one; NULL otherwise. */
static GBytes *
chunk_of (WebPDemuxer *demux, guint32 flags, guint32 flag, const char *fourcc)
{
  WebPChunkIterator chunk;
  if (!(flags & flag) || !WebPDemuxGetChunk (demux, fourcc, 1, &chunk))
    return NULL;
  GBytes *bytes = chunk.chunk.size > 0 ? g_bytes_new (chunk.chunk.bytes, chunk.chunk.size) : NULL;
  WebPDemuxReleaseChunkIterator (&chunk);
  return bytes;
}

static void
read_metadata (WebPDemuxer *demux, LmImage *image)
{
  guint32 flags = WebPDemuxGetI (demux, WEBP_FF_FORMAT_FLAGS);
  g_autoptr (GBytes) icc = chunk_of (demux, flags, ICCP_FLAG, "ICCP");
  if (icc)
    lm_io_take_profile (image, g_bytes_get_data (icc, NULL), g_bytes_get_size (icc));
  g_autoptr (GBytes) exif = chunk_of (demux, flags, EXIF_FLAG, "EXIF");
  if (exif)
    image->exif = lm_exif_block_from_tiff (g_bytes_get_data (exif, NULL), g_bytes_get_size (exif));
  image->xmp = chunk_of (demux, flags, XMP_FLAG, "XMP ");
}

LmImage *
lm_webp_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  /* The demuxer validates the container and gives the flags, the metadata chunks and the
   * first frame before anything of an image's size is allocated. Of an animation, the first
   * frame is read at its own size, as a GIF's: never the canvas around it, which a file of a
   * few hundred bytes may declare at 65535². */
  WebPData webp = { data, len };
  WebPDemuxState state;
  WebPDemuxer *demux = WebPDemuxPartial (&webp, &state);
  WebPIterator frame;
  gboolean has_frame = demux && state == WEBP_DEMUX_DONE && WebPDemuxGetFrame (demux, 1, &frame);
  if (!has_frame)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode WebP: %s"),
                         webp_cause (demux && state != WEBP_DEMUX_PARSE_ERROR ? VP8_STATUS_NOT_ENOUGH_DATA
                                                                                : VP8_STATUS_BITSTREAM_ERROR));
      WebPDemuxDelete (demux);
      return NULL;
    }
  LmImage *image = load_still (path, &frame.fragment, (guint32) frame.width, (guint32) frame.height, allocator, error);
  WebPDemuxReleaseIterator (&frame);
  if (image != NULL)
    read_metadata (demux, image);
  WebPDemuxDelete (demux);
  return image ? lm_io_orient_upright (image, path, error) : NULL;
}

static gboolean
sniff_webp (const guint8 *h, gsize n)
{
  return n >= 12 && memcmp (h, "RIFF", 4) == 0 && memcmp (h + 8, "WEBP", 4) == 0;
}

const LmFileFormat lm_file_format_webp = {
  .type = LM_FILE_WEBP,
  .name = "WebP",
  .sniff = sniff_webp,
  .load = lm_webp_load,
};
