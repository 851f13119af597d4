/* Bounded inflation of gzip-compressed FITS (fits-gzip.h): zlib, streaming into one buffer,
 * with the header walker (fits-extent.h) reading each header as soon as it is there, so that
 * the goal's size is known, and checked against the budget, before its data is inflated. */
#include "fits-gzip.h"

#include <string.h>
#include <zlib.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../pixel-budget.h"
#include "fits-extent.h"

#define GZIP_WINDOW (16 + MAX_WBITS) /* zlib's gzip wrapper, never a raw or zlib stream */
#define FIRST_GROWTH ((gsize) 1 << 20)
#define ZLIB_CHUNK ((gsize) 1 << 30) /* zlib counts in uInt */

static gboolean
is_gzip (const guint8 *data, gsize len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

gboolean
lm_fits_gzip_sniff (const guint8 *data, gsize len)
{
  if (!is_gzip (data, len))
    return FALSE;
  guint8 head[10];
  z_stream z = { .next_in = (Bytef *) data, .avail_in = (uInt) MIN (len, 65536), .next_out = head,
                 .avail_out = sizeof head };
  if (inflateInit2 (&z, GZIP_WINDOW) != Z_OK)
    return FALSE;
  inflate (&z, Z_SYNC_FLUSH);
  gsize n = sizeof head - z.avail_out;
  inflateEnd (&z);
  return n == sizeof head && memcmp (head, "SIMPLE  = ", sizeof head) == 0;
}

typedef struct {
  const char *path;
  guint goal;
  guint64 cap;      /* the most that may be inflated */
  guint8 *out;
  gsize filled, capacity;
  guint64 need;     /* the bytes wanted: G_MAXUINT64 until the goal's header is read */
  guint64 offset;   /* where the next header to read begins */
  guint index;      /* its HDU's number */
  guint64 retry_at; /* that header is read once this many bytes are there */
  gboolean walked;  /* the goal's header is read, or the HDUs ended before it */
} Inflation;

static gboolean
too_large (const Inflation *s, GError **error)
{
  g_autofree char *cap = g_format_size (s->cap);
  lm_set_file_error (error, LM_ERROR_TOO_LARGE, s->path,
                     _("its gzip data inflates to more than %s, more than an image within the memory budget "
                       "takes (set LUMEN_MAX_PIXELS to change it)"),
                     cap);
  return FALSE;
}

/* The goal's image against the budget, before its pixels are inflated. */
static gboolean
check_goal (Inflation *s, const LmFitsHdu *hdu, GError **error)
{
  if (!lm_fits_hdu_within_budget (hdu, s->path, error))
    return FALSE;
  s->need = hdu->end;
  return s->need <= s->cap || too_large (s, error);
}

/* Reads the headers the inflated bytes hold by now (all that there are when ENDED). */
static gboolean
walk_headers (Inflation *s, gboolean ended, GError **error)
{
  while (!s->walked && (ended || s->filled >= s->retry_at))
    {
      LmFitsHdu hdu;
      switch (lm_fits_hdu_read (s->out, s->filled, s->offset, s->index, s->path, &hdu, error))
        {
        case LM_FITS_HDU_REFUSED:
          return FALSE;
        case LM_FITS_HDU_NONE:
          s->walked = TRUE;
          return TRUE;
        case LM_FITS_HDU_CUT:
          /* Read again once the bytes after its start have doubled: a header of any length
           * costs a few readings, not one for each piece inflated. */
          s->walked = ended;
          s->retry_at = s->filled + MAX (LM_FITS_BLOCK, s->filled - s->offset);
          return TRUE;
        case LM_FITS_HDU_READ:
          break;
        }
      if (s->goal == hdu.index || (s->goal == LM_FITS_FIRST_IMAGE && hdu.image))
        {
          s->walked = TRUE;
          return check_goal (s, &hdu, error);
        }
      s->offset = hdu.end;
      s->index++;
      s->retry_at = s->offset + LM_FITS_BLOCK;
    }
  return TRUE;
}

/* Room for more output: up to the bytes wanted once known, else geometrically to the cap. */
static gboolean
grow (Inflation *s, GError **error)
{
  guint64 capacity = s->need != G_MAXUINT64 ? s->need
                                            : MIN (MAX ((guint64) s->capacity * 2, FIRST_GROWTH), s->cap + 1);
  if (capacity <= s->capacity)
    return too_large (s, error);
  if (capacity > G_MAXSIZE || (s->out = g_try_realloc (s->out, (gsize) capacity)) == NULL)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, s->path, _("not enough memory to inflate its gzip data"));
      return FALSE;
    }
  s->capacity = (gsize) capacity;
  return TRUE;
}

/* Inflates into S until the bytes wanted are there or the stream ends (*ENDED). */
static gboolean
inflate_step (Inflation *s, z_stream *z, const guint8 *data, gsize len, gsize *consumed, gboolean *ended,
              GError **error)
{
  if (s->filled == s->capacity && !grow (s, error))
    return FALSE;
  if (z->avail_in == 0 && *consumed < len)
    {
      z->next_in = (Bytef *) data + *consumed;
      z->avail_in = (uInt) MIN (len - *consumed, ZLIB_CHUNK);
      *consumed += z->avail_in;
    }
  z->next_out = s->out + s->filled;
  z->avail_out = (uInt) MIN (MIN ((guint64) s->capacity, s->need) - s->filled, ZLIB_CHUNK);
  int r = inflate (z, Z_NO_FLUSH);
  s->filled = (gsize) (z->next_out - s->out);
  gsize left = z->avail_in + (len - *consumed);
  if (r == Z_STREAM_END)
    {
      /* Members of a gzip file written one after the other are one file (gzip(1) reads them
       * so); anything else after the stream is not Lumen's to read. */
      *ended = !is_gzip (z->next_in, z->avail_in) || inflateReset (z) != Z_OK;
      return TRUE;
    }
  if (r == Z_BUF_ERROR && left == 0)
    {
      *ended = TRUE; /* cut short: what came out is all there is */
      return TRUE;
    }
  if (r != Z_OK && r != Z_BUF_ERROR)
    {
      lm_set_file_error (error, r == Z_MEM_ERROR ? LM_ERROR_OUT_OF_MEMORY : LM_ERROR_FORMAT, s->path,
                         _("its gzip data is damaged (zlib: %s)"), z->msg ? z->msg : zError (r));
      return FALSE;
    }
  return s->filled <= s->cap || too_large (s, error);
}

GBytes *
lm_fits_gunzip (const char *path, const guint8 *data, gsize len, guint goal, GError **error)
{
  Inflation s = { .path = path, .goal = goal, .cap = lm_pixel_budget_file_bytes (), .need = G_MAXUINT64,
                  .index = 1, .retry_at = LM_FITS_BLOCK };
  z_stream z = { 0 };
  if (inflateInit2 (&z, GZIP_WINDOW) != Z_OK)
    {
      lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to inflate its gzip data"));
      return NULL;
    }
  gsize consumed = 0;
  gboolean ended = FALSE, ok = TRUE;
  while (ok && !ended && s.filled < s.need)
    {
      ok = inflate_step (&s, &z, data, len, &consumed, &ended, error) && walk_headers (&s, ended, error);
      if (ok && s.walked && s.need == G_MAXUINT64)
        s.need = s.filled; /* the HDUs ended before the goal: nothing more is wanted */
    }
  inflateEnd (&z);
  if (!ok)
    {
      g_free (s.out);
      return NULL;
    }
  return g_bytes_new_take (g_realloc (s.out, s.filled), s.filled);
}
