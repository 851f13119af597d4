/* GIF through giflib, a frame's rows decoded one at a time into the image: no canvas of the
 * logical screen is ever allocated (a 35-byte file may declare a 65535² screen). Lumen reads
 * the first frame, at the frame's own size; the rest of an animation is ignored.
 *
 * Before anything of the frame's size is allocated, its LZW data is walked in the mapped file
 * and must be able to produce the frame's pixels: a file whose data cannot fill the frame it
 * declares is refused as truncated, whatever the memory budget allows. */
#include <string.h>
#include <gif_lib.h>
#include <glib/gi18n.h>

#include "io-private.h"

typedef struct {
  const guint8 *data;
  gsize len, pos;
} GifInput;

static int
read_input (GifFileType *gif, GifByteType *out, int n)
{
  GifInput *in = gif->UserData;
  gsize take = MIN ((gsize) MAX (n, 0), in->len - in->pos);
  memcpy (out, in->data + in->pos, take);
  in->pos += take;
  return (int) take;
}

static const char *
gif_cause (int code)
{
  switch (code)
    {
    case D_GIF_ERR_READ_FAILED:
    case D_GIF_ERR_EOF_TOO_SOON:
      return _("the file is truncated");
    case D_GIF_ERR_NOT_GIF_FILE:
      return _("not a GIF file");
    case D_GIF_ERR_NO_SCRN_DSCR:
    case D_GIF_ERR_NO_IMAG_DSCR:
    case D_GIF_ERR_WRONG_RECORD:
      return _("the file's structure is damaged");
    case D_GIF_ERR_NOT_ENOUGH_MEM:
      return _("not enough memory");
    case D_GIF_ERR_DATA_TOO_BIG:
    case D_GIF_ERR_IMAGE_DEFECT:
      return _("the image data is damaged");
    default:
      {
        const char *s = GifErrorString (code);
        return s ? s : _("the file is damaged");
      }
    }
}

/* The most pixels LZW codes in BYTES bytes can produce. Codes are at least 3 bits; the k-th
 * code since a clear yields at most k pixels (each new table entry is one longer than an
 * earlier one), and no entry is longer than the 4096-entry table. */
static guint64
lzw_pixel_capacity (guint64 bytes)
{
  guint64 codes = bytes * 8 / 3;
  return MIN (codes * (codes + 1) / 2, codes * 4096);
}

/* The LZW data of the frame that starts at IN's position: sub-blocks of a length byte and
 * that many bytes, ended by a zero length. FALSE when the chain runs past the end. */
static gboolean
lzw_data_bytes (const GifInput *in, guint64 *bytes)
{
  gsize pos = in->pos;
  *bytes = 0;
  while (pos < in->len)
    {
      guint n = in->data[pos];
      if (n == 0)
        return TRUE;
      if (n >= in->len - pos)
        return FALSE;
      *bytes += n;
      pos += 1 + n;
    }
  return FALSE;
}

static void
set_gif_error (GError **error, const char *path, int code)
{
  lm_set_file_error (error, code == D_GIF_ERR_NOT_ENOUGH_MEM ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_FORMAT,
                     path, _("cannot decode GIF: %s"), gif_cause (code));
}

/* Reads extensions up to the first image descriptor; the last graphics control block before
 * it names the frame's transparent index. */
static gboolean
seek_first_frame (GifFileType *gif, int *transparent, const char *path, GError **error)
{
  *transparent = NO_TRANSPARENT_COLOR;
  for (;;)
    {
      GifRecordType record;
      if (DGifGetRecordType (gif, &record) == GIF_ERROR)
        {
          set_gif_error (error, path, gif->Error);
          return FALSE;
        }
      if (record == IMAGE_DESC_RECORD_TYPE)
        return TRUE;
      if (record == TERMINATE_RECORD_TYPE)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode GIF: the file has no image"));
          return FALSE;
        }
      if (record != EXTENSION_RECORD_TYPE)
        continue;
      int code;
      GifByteType *ext = NULL;
      if (DGifGetExtension (gif, &code, &ext) == GIF_ERROR)
        {
          set_gif_error (error, path, gif->Error);
          return FALSE;
        }
      if (code == GRAPHICS_EXT_FUNC_CODE && ext != NULL && ext[0] >= 4)
        {
          GraphicsControlBlock gcb;
          if (DGifExtensionToGCB (ext[0], ext + 1, &gcb) == GIF_OK)
            *transparent = gcb.TransparentColor;
        }
      while (ext != NULL)
        if (DGifGetExtensionNext (gif, &ext) == GIF_ERROR)
          {
            set_gif_error (error, path, gif->Error);
            return FALSE;
          }
    }
}

static void
expand_row (const GifByteType *indices, guint width, const ColorMapObject *map, int transparent,
            guint8 *out, gboolean *opaque)
{
  for (guint x = 0; x < width; x++)
    {
      int i = indices[x];
      if (i == transparent)
        {
          memset (out + 4 * x, 0, 4);
          *opaque = FALSE;
          continue;
        }
      /* An index past the colour table is a damaged pixel, shown black rather than refusing
       * the whole picture. */
      const GifColorType *c = i < map->ColorCount ? &map->Colors[i] : NULL;
      out[4 * x + 0] = c ? c->Red : 0;
      out[4 * x + 1] = c ? c->Green : 0;
      out[4 * x + 2] = c ? c->Blue : 0;
      out[4 * x + 3] = 255;
    }
}

static gboolean
decode_rows (GifFileType *gif, const ColorMapObject *map, int transparent, LmImage *image,
             const char *path, GError **error)
{
  /* Interlaced frames send rows 0, 8, 16…, then 4, 12…, then 2, 6…, then 1, 3… */
  static const guint start[] = { 0, 4, 2, 1 }, step[] = { 8, 8, 4, 2 };
  gboolean interlaced = gif->Image.Interlace;
  guint passes = interlaced ? 4 : 1;
  g_autofree GifByteType *indices = g_try_malloc (image->width);
  if (indices == NULL)
    {
      set_gif_error (error, path, D_GIF_ERR_NOT_ENOUGH_MEM);
      return FALSE;
    }
  gboolean opaque = TRUE;
  for (guint p = 0; p < passes; p++)
    for (guint y = interlaced ? start[p] : 0; y < image->height; y += interlaced ? step[p] : 1)
      {
        if (DGifGetLine (gif, indices, (int) image->width) == GIF_ERROR)
          {
            set_gif_error (error, path, gif->Error);
            return FALSE;
          }
        expand_row (indices, image->width, map, transparent, lm_image_row (image, y), &opaque);
      }
  image->opaque = opaque;
  return TRUE;
}

LmImage *
lm_gif_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator, GError **error)
{
  GifInput in = { .data = data, .len = len };
  int code = 0;
  GifFileType *gif = DGifOpen (&in, read_input, &code);
  if (gif == NULL)
    {
      set_gif_error (error, path, code);
      return NULL;
    }

  LmImage *image = NULL;
  int transparent;
  if (!seek_first_frame (gif, &transparent, path, error))
    goto out;
  if (DGifGetImageDesc (gif) == GIF_ERROR)
    {
      set_gif_error (error, path, gif->Error);
      goto out;
    }
  const GifImageDesc *frame = &gif->Image;
  const ColorMapObject *map = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
  if (frame->Width <= 0 || frame->Height <= 0)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode GIF: its first frame has no pixels"));
      goto out;
    }
  if (map == NULL)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("cannot decode GIF: it has no colour table"));
      goto out;
    }

  guint64 lzw_bytes;
  guint64 pixels = (guint64) frame->Width * (guint64) frame->Height;
  if (!lzw_data_bytes (&in, &lzw_bytes) || lzw_pixel_capacity (lzw_bytes) < pixels)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path,
                         _("the file is truncated: its data cannot fill the %d×%d pixels it declares"),
                         frame->Width, frame->Height);
      goto out;
    }

  image = lm_io_image_new (LM_FORMAT_RGBA8, (guint) frame->Width, (guint) frame->Height, allocator, path, error);
  if (image != NULL && !decode_rows (gif, map, transparent, image, path, error))
    g_clear_pointer (&image, lm_image_unref);

out:
  DGifCloseFile (gif, &code);
  return image;
}

static gboolean
sniff_gif (const guint8 *h, gsize n)
{
  return n >= 6 && (memcmp (h, "GIF87a", 6) == 0 || memcmp (h, "GIF89a", 6) == 0);
}

const LmFileFormat lm_file_format_gif = {
  .type = LM_FILE_GIF,
  .name = "GIF",
  .sniff = sniff_gif,
  .load = lm_gif_load,
};
