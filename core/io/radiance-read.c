/* Radiance RGBE (.hdr) reader of our own. stb_image's loader read a count of 0 for ever at
 * the end of a truncated run-length encoded file (a hang at 100 % CPU), and allocated a
 * header's declared size before looking at the data; here every run is checked against the
 * bytes left in the file and the pixels left in the row, and the size against what the file
 * can possibly hold before anything is allocated. The pixels come out exactly as stb's did
 * (stbi__hdr_convert), so that outputs and the OpenCV oracles stay as they were. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "io-private.h"

/* New-style run-length encoded scanlines exist only for these widths (Radiance's color.c);
 * a row of any other width is flat. The same limits as the writer's in radiance.c. */
#define RLE_MIN_WIDTH 8
#define RLE_MAX_WIDTH 0x7fff
/* A count byte above 128 is a run of (count - 128) ≤ 127 copies of the next byte. */
#define RLE_RUN_BASE 128
#define RLE_MAX_RUN 127

typedef struct {
  const char *path;
  const guint8 *data;
  gsize len;
  gsize pos;
  guint width, height;
} Reader;

static gsize
bytes_left (const Reader *r)
{
  return r->len - r->pos;
}

/* The next header line (without its '\n') in LINE and N; FALSE when the file ends first. */
static gboolean
next_line (Reader *r, const char **line, gsize *n)
{
  if (bytes_left (r) == 0)
    return FALSE;
  const guint8 *start = r->data + r->pos;
  const guint8 *end = memchr (start, '\n', bytes_left (r));
  if (end == NULL)
    return FALSE;
  *line = (const char *) start;
  *n = end - start;
  r->pos += *n + 1;
  return TRUE;
}

static gboolean
line_is (const char *line, gsize n, const char *text)
{
  return n == strlen (text) && memcmp (line, text, n) == 0;
}

/* The magic line, then "NAME=value" lines up to the blank line. Only FORMAT matters: stb
 * ignored EXPOSURE (and our writer writes none), so we do too, for the same pixels. */
static gboolean
read_header (Reader *r, GError **error)
{
  const char *line;
  gsize n;
  if (!next_line (r, &line, &n) || !(line_is (line, n, "#?RADIANCE") || line_is (line, n, "#?RGBE")))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                         _("not a Radiance HDR file: the first line is not “#?RADIANCE” or “#?RGBE”"));
      return FALSE;
    }
  gboolean rgbe = FALSE;
  for (;;)
    {
      if (!next_line (r, &line, &n))
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                             _("truncated in the Radiance header (no blank line ends it)"));
          return FALSE;
        }
      if (n == 0)
        break;
      if (line_is (line, n, "FORMAT=32-bit_rle_xyze"))
        {
          lm_set_file_error (error, LM_ERROR_UNSUPPORTED, r->path,
                             _("holds CIE XYZ pixels (FORMAT=32-bit_rle_xyze); Lumen reads only RGB "
                               "Radiance files (FORMAT=32-bit_rle_rgbe)"));
          return FALSE;
        }
      if (line_is (line, n, "FORMAT=32-bit_rle_rgbe"))
        rgbe = TRUE;
    }
  if (!rgbe)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, r->path,
                         _("the Radiance header has no “FORMAT=32-bit_rle_rgbe” line"));
      return FALSE;
    }
  return TRUE;
}

/* "S A" at *P, where S is '+' or '-' and A 'X' or 'Y', then spaces, then a decimal number;
 * advances *P past it. Values beyond G_MAXUINT are kept at G_MAXUINT: the size check refuses
 * them with its own message. */
static gboolean
parse_axis (const char **p, const char *end, char *sign, char *axis, guint *value)
{
  const char *s = *p;
  while (s < end && *s == ' ')
    s++;
  if (end - s < 3 || (s[0] != '+' && s[0] != '-') || (s[1] != 'X' && s[1] != 'Y') || s[2] != ' ')
    return FALSE;
  *sign = s[0], *axis = s[1];
  s += 3;
  while (s < end && *s == ' ')
    s++;
  if (s == end || !g_ascii_isdigit (*s))
    return FALSE;
  guint64 v = 0;
  for (; s < end && g_ascii_isdigit (*s); s++)
    v = MIN (v * 10 + (guint) (*s - '0'), (guint64) G_MAXUINT);
  *value = (guint) v;
  *p = s;
  return TRUE;
}

/* The resolution line. stb read only "-Y H +X W" (rows top to bottom, pixels left to
 * right); the other seven orientations would need a transpose or flips: refused by name. */
static gboolean
read_resolution (Reader *r, GError **error)
{
  const char *line, *p;
  gsize n;
  char s1, a1, s2, a2;
  guint v1, v2;
  if (!next_line (r, &line, &n) || (p = line, !parse_axis (&p, line + n, &s1, &a1, &v1))
      || !parse_axis (&p, line + n, &s2, &a2, &v2) || a1 == a2)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                         _("damaged: no resolution line (“-Y height +X width”) after the Radiance header"));
      return FALSE;
    }
  if (s1 != '-' || a1 != 'Y' || s2 != '+' || a2 != 'X')
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, r->path,
                         _("the orientation “%c%c %u %c%c %u” is not supported; Lumen reads only "
                           "“-Y height +X width” (top to bottom, left to right)"),
                         s1, a1, v1, s2, a2, v2);
      return FALSE;
    }
  r->height = v1, r->width = v2;
  return TRUE;
}

/* The fewest bytes a row of WIDTH pixels can take: flat, 4 per pixel; run-length encoded,
 * the 4-byte marker and per channel one 2-byte run for every 127 pixels. */
static guint64
min_row_bytes (guint width)
{
  guint64 flat = 4 * (guint64) width;
  if (width < RLE_MIN_WIDTH || width > RLE_MAX_WIDTH)
    return flat;
  return MIN (flat, 4 + 4 * 2 * (guint64) ((width + RLE_MAX_RUN - 1) / RLE_MAX_RUN));
}

/* Lumen's size limits (the same check and message as every format's), then whether the rest
 * of the file can hold that many pixels at all: a 53-byte file declaring 13000×13000 is
 * refused here, before 2.7 GB are allocated for it. */
static gboolean
check_size (const Reader *r, GError **error)
{
  GError *e = NULL;
  if (!lm_image_layout (LM_FORMAT_RGBA_F32, r->width, r->height, NULL, NULL, &e))
    {
      lm_set_file_error (error, e->code, r->path, "%s", e->message);
      g_error_free (e);
      return FALSE;
    }
  guint64 need = min_row_bytes (r->width) * r->height;
  if (need > bytes_left (r))
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                         /* %llu rather than G_GUINT64_FORMAT: xgettext cannot expand macros. */
                         _("truncated: %u×%u pixels need at least %llu bytes of pixel data, the "
                           "file holds %llu"),
                         r->width, r->height, (unsigned long long) need,
                         (unsigned long long) bytes_left (r));
      return FALSE;
    }
  return TRUE;
}

static gboolean
truncated_at (const Reader *r, guint y, GError **error)
{
  lm_set_file_error (error, LM_ERROR_FORMAT, r->path, _("truncated at row %u of %u"), y + 1, r->height);
  return FALSE;
}

/* One channel C of a run-length encoded row Y into RGBE (4 bytes a pixel). */
static gboolean
read_channel (Reader *r, guint y, int c, guint8 *rgbe, GError **error)
{
  guint x = 0;
  while (x < r->width)
    {
      if (bytes_left (r) < 1)
        return truncated_at (r, y, error);
      guint count = r->data[r->pos++];
      gboolean run = count > RLE_RUN_BASE;
      if (run)
        count -= RLE_RUN_BASE;
      /* A literal of 0 bytes never advances: this is what made stb loop for ever. */
      if (count == 0)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, r->path, _("damaged: a run of 0 bytes at row %u of %u"),
                             y + 1, r->height);
          return FALSE;
        }
      if (count > r->width - x)
        {
          lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                             _("damaged: a run of %u pixels at row %u of %u, where %u pixels are left"),
                             count, y + 1, r->height, r->width - x);
          return FALSE;
        }
      if (bytes_left (r) < (run ? 1 : count))
        return truncated_at (r, y, error);
      for (guint i = 0; i < count; i++)
        rgbe[4 * (gsize) (x + i) + c] = r->data[run ? r->pos : r->pos + i];
      r->pos += run ? 1 : count;
      x += count;
    }
  return TRUE;
}

/* A flat row: WIDTH RGBE pixels as they are. Radiance's old-style runs (a pixel 1, 1, 1, n
 * repeating the previous one) were never read by stb; no normalized pixel has those
 * mantissas, so such a file is refused by name rather than shown with stray dark pixels. */
static gboolean
read_flat_row (Reader *r, guint y, guint8 *rgbe, GError **error)
{
  gsize n = 4 * (gsize) r->width;
  if (bytes_left (r) < n)
    return truncated_at (r, y, error);
  const guint8 *px = r->data + r->pos;
  for (guint x = 0; x < r->width; x++)
    if (px[4 * x] == 1 && px[4 * x + 1] == 1 && px[4 * x + 2] == 1)
      {
        lm_set_file_error (error, LM_ERROR_UNSUPPORTED, r->path,
                           _("uses old-style run-length encoding (row %u of %u), which Lumen does not read"),
                           y + 1, r->height);
        return FALSE;
      }
  memcpy (rgbe, px, n);
  r->pos += n;
  return TRUE;
}

/* Row Y into RGBE: run-length encoded when it starts with the marker 2, 2, width (< 32768,
 * so its high byte has no top bit), flat otherwise, as Radiance decides row by row. */
static gboolean
read_row (Reader *r, guint y, guint8 *rgbe, GError **error)
{
  const guint8 *p = r->data + r->pos;
  gboolean rle_width = r->width >= RLE_MIN_WIDTH && r->width <= RLE_MAX_WIDTH;
  /* Fewer than 4 bytes left: let the flat reader say where the file ends. */
  if (!rle_width || bytes_left (r) < 4 || p[0] != 2 || p[1] != 2 || (p[2] & 0x80))
    return read_flat_row (r, y, rgbe, error);
  guint declared = (guint) p[2] << 8 | p[3];
  if (declared != r->width)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, r->path,
                         _("damaged: row %u of %u declares a width of %u pixels, not %u"), y + 1,
                         r->height, declared, r->width);
      return FALSE;
    }
  r->pos += 4;
  for (int c = 0; c < 4; c++)
    if (!read_channel (r, y, c, rgbe, error))
      return FALSE;
  return TRUE;
}

/* stb's stbi__hdr_convert, step for step (a float scale 2^(E - 136), then an int times a
 * float), so that every value is bit-identical to what stb gave; alpha is 1. */
static void
convert_row (const guint8 *rgbe, float *out, guint width)
{
  for (guint x = 0; x < width; x++, rgbe += 4, out += 4)
    {
      if (rgbe[3] != 0)
        {
          float f = (float) ldexp (1.0f, rgbe[3] - (int) (128 + 8));
          out[0] = rgbe[0] * f;
          out[1] = rgbe[1] * f;
          out[2] = rgbe[2] * f;
        }
      else
        out[0] = out[1] = out[2] = 0.0f;
      out[3] = 1.0f;
    }
}

LmImage *
lm_radiance_load (const char *path, const guint8 *data, gsize len, const LmAllocator *allocator,
                  GError **error)
{
  Reader r = { .path = path, .data = data, .len = len };
  if (!read_header (&r, error) || !read_resolution (&r, error) || !check_size (&r, error))
    return NULL;

  g_autoptr (LmImage) image = lm_io_image_new (LM_FORMAT_RGBA_F32, r.width, r.height, allocator, path, error);
  if (image == NULL)
    return NULL;
  g_autofree guint8 *rgbe = g_try_malloc (4 * (gsize) r.width);
  if (rgbe == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to decode Radiance HDR"));
      return NULL;
    }
  for (guint y = 0; y < r.height; y++)
    {
      if (!read_row (&r, y, rgbe, error))
        return NULL;
      convert_row (rgbe, (float *) lm_image_row (image, y), r.width);
    }
  return g_steal_pointer (&image);
}
