/* The FITS header walker (fits-extent.h). It reads the keywords that size an HDU's data as
 * cfitsio does: SIMPLE or XTENSION first, BITPIX second, NAXIS third and NAXIS1 … NAXISn after
 * it, PCOUNT, GCOUNT (the last of each), GROUPS, and a binary table's ZIMAGE; NAXIS1 = 0 with
 * GROUPS = T is a random-groups array, whose NAXIS1 does not count. It also refuses what
 * cfitsio cannot read safely once it meets the header, as it does on its way to any later
 * HDU: an image of more than 99 axes, and a tile-compressed image (fpack's). cfitsio 4.2
 * parses and decompresses those without surviving damaged files: fuzzing found divisions by
 * zero and a buffer overflow in its reading of their keywords, and reads out of bounds, huge
 * allocations and leaks in its Rice and gzip tile decoders, each a few bytes from a real file.
 * Lumen reads none until cfitsio does, rather than check each of its flaws in turn. */
#include "fits-extent.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../image.h"
#include "../pixel-budget.h"

#define CARD 80
#define MAX_AXES 999
#define CFITSIO_MAX_AXES 99 /* cfitsio keeps an image's axes in an array of 99 and writes past it */

typedef struct {
  gboolean table, binary;   /* XTENSION names a table; a binary one */
  gint64 bitpix, naxis;     /* -1 until read */
  gint64 axes[MAX_AXES];    /* -1 until read */
  gint64 pcount, gcount;
  gboolean groups, groups_seen, zimage;
  gint64 tfields;                     /* a table's columns: -1 until read */
  guint table_counts;                 /* bits: a table's PCOUNT, GCOUNT found in their places */
  const char *bad;          /* the keyword whose value is not what it must be */
} Header;

/* CARD's value, columns 11 to 80 up to a comment, blanks taken off; FALSE when the card has
 * no value indicator ("= " in columns 9 and 10). Not for strings, which may hold a '/'. */
static gboolean
card_value (const char *card, char text[CARD - 9])
{
  if (card[8] != '=' || card[9] != ' ')
    return FALSE;
  memcpy (text, card + 10, CARD - 10);
  text[CARD - 10] = '\0';
  char *slash = strchr (text, '/');
  if (slash)
    *slash = '\0';
  g_strstrip (text);
  return TRUE;
}

/* The integer of CARD's value (free or fixed format), or FALSE. */
static gboolean
card_integer (const char *card, gint64 *value)
{
  char text[CARD - 9];
  if (!card_value (card, text))
    return FALSE;
  const char *p = text + (text[0] == '+' || text[0] == '-');
  if (*p == '\0' || strspn (p, "0123456789") != strlen (p))
    return FALSE;
  errno = 0;
  *value = g_ascii_strtoll (text, NULL, 10);
  return errno == 0;
}

/* CARD's string value, quotes and trailing blanks taken off (cfitsio's reading), in TEXT. */
static void
card_string (const char *card, char text[CARD])
{
  text[0] = '\0';
  const char *q = memchr (card + 10, '\'', CARD - 10);
  if (q == NULL)
    return;
  q++;
  const char *end = memchr (q, '\'', card + CARD - q);
  gsize n = end ? (gsize) (end - q) : 0;
  memcpy (text, q, n);
  text[n] = '\0';
  g_strchomp (text);
}

/* CARD's logical value: TRUE only for T. */
static gboolean
card_true (const char *card)
{
  char text[CARD - 9];
  return card_value (card, text) && text[0] == 'T';
}

/* XTENSION's string value names a table (of which kind); cfitsio skips leading blanks. */
static void
read_xtension (const char *card, Header *h)
{
  char value[CARD];
  card_string (card, value);
  const char *text = value + strspn (value, " ");
  h->binary = strcmp (text, "BINTABLE") == 0 || strcmp (text, "A3DTABLE") == 0 || strcmp (text, "3DTABLE") == 0;
  h->table = h->binary || strcmp (text, "TABLE") == 0;
}

/* NAME is "NAXISn" (PREFIX "NAXIS") with n from 1 to 999 written plainly: its n, else 0. */
static int
axis_number (const char *name, const char *prefix)
{
  gsize n = strlen (prefix);
  if (strncmp (name, prefix, n) != 0 || name[n] < '1' || name[n] > '9')
    return 0;
  int axis = 0;
  for (const char *p = name + n; *p; p++)
    {
      if (*p < '0' || *p > '9' || axis >= 100)
        return 0;
      axis = axis * 10 + (*p - '0');
    }
  return axis;
}

/* CARD's keyword as cfitsio names it (ffgknm): up to the first blank, '=' or NUL, or for
 * ESO's HIERARCH convention what lies between HIERARCH and '='. Where the header ends is
 * where cfitsio meets a card so named END, whatever follows the name on it. */
static void
card_name (const char *card, char name[CARD + 1])
{
  char text[CARD + 1];
  memcpy (text, card, CARD);
  text[CARD] = '\0';
  const char *equals = strchr (text, '=');
  if (strncmp (text, "HIERARCH ", 9) == 0 && equals != NULL)
    {
      const char *start = text + 9 + strspn (text + 9, " ");
      gsize n = equals > start ? (gsize) (equals - start) : 0;
      memcpy (name, start, n);
      name[n] = '\0';
      g_strchomp (name);
      return;
    }
  gsize n = strcspn (text, " =");
  memcpy (name, text, n);
  name[n] = '\0';
}

/* PCOUNT or GCOUNT of CARD into H. */
static void
read_count (const char *card, const char *name, Header *h)
{
  gint64 v = 0;
  if (!card_integer (card, &v) || v < 0)
    h->bad = name[0] == 'P' ? "PCOUNT" : "GCOUNT";
  else
    *(name[0] == 'P' ? &h->pcount : &h->gcount) = v;
}

/* One card, the NUMBER-th (1-based) of its header, named NAME. cfitsio takes the mandatory
 * keywords in their places only, a table's PCOUNT and GCOUNT too (an image's wherever they
 * are, the last of each), and the first GROUPS: so does the walker, lest the two disagree on
 * where the next HDU begins. */
static void
read_card (const char *card, const char *name, guint number, Header *h)
{
  gint64 v = 0;
  int axis = axis_number (name, "NAXIS");
  if (number == 1 && strcmp (name, "XTENSION") == 0)
    read_xtension (card, h);
  else if (number == 2 && strcmp (name, "BITPIX") == 0)
    h->bitpix = card_integer (card, &v) ? v : -1;
  else if (number == 3 && strcmp (name, "NAXIS") == 0)
    h->naxis = card_integer (card, &v) && v >= 0 && v <= MAX_AXES ? v : -1;
  else if (axis > 0)
    {
      if (h->naxis >= axis && number == 3u + axis)
        h->axes[axis - 1] = card_integer (card, &v) && v >= 0 ? v : -1;
    }
  else if (strcmp (name, "PCOUNT") == 0 || strcmp (name, "GCOUNT") == 0)
    {
      guint place = name[0] == 'P' ? 6 : 7;
      if (!h->table || number == place)
        read_count (card, name, h);
      if (h->table && number == place)
        h->table_counts |= place == 6 ? 1 : 2;
    }
  else if (number == 8 && strcmp (name, "TFIELDS") == 0)
    h->tfields = card_integer (card, &v) && v >= 0 && v <= 999 ? v : -1;
  else if (strcmp (name, "GROUPS") == 0)
    {
      if (!h->groups_seen)
        h->groups = card_true (card);
      h->groups_seen = TRUE;
    }
  else if (strcmp (name, "ZIMAGE") == 0)
    h->zimage |= card_true (card); /* cfitsio: any ZIMAGE = T */
}

static LmFitsHduStatus
damaged (GError **error, const char *path, guint index, const char *what)
{
  lm_set_file_error (error, LM_ERROR_FORMAT, path, _("the header of HDU %u (extension %u) is damaged: %s"), index,
                     index - 1, what);
  return LM_FITS_HDU_REFUSED;
}

/* HDU's data from the figures of H. */
static LmFitsHduStatus
size_data (const Header *h, const char *path, LmFitsHdu *hdu, GError **error)
{
  guint index = hdu->index;
  if (h->bitpix != 8 && h->bitpix != 16 && h->bitpix != 32 && h->bitpix != 64 && h->bitpix != -32
      && h->bitpix != -64)
    return damaged (error, path, index, _("its second card is not BITPIX = 8, 16, 32, 64, −32 or −64"));
  if (h->naxis < 0)
    return damaged (error, path, index, _("its third card is not NAXIS = 0 … 999"));
  for (gint64 i = 0; i < h->naxis; i++)
    if (h->axes[i] < 0)
      {
        g_autofree char *what = g_strdup_printf (_("its card %d is not NAXIS%d = a whole number"), (int) (4 + i),
                                                 (int) (i + 1));
        return damaged (error, path, index, what);
      }
  if (!h->table && h->naxis > CFITSIO_MAX_AXES)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("HDU %u (extension %u) is an image of %d axes; cfitsio reads images of %d axes at most"),
                         index, index - 1, (int) h->naxis, CFITSIO_MAX_AXES);
      return LM_FITS_HDU_REFUSED;
    }
  /* cfitsio reads on after a table's card 4 to 8 it could not read, with a column count it
   * never set: all must be there, as the standard has them. */
  if (h->table && (h->naxis != 2 || h->table_counts != 3 || h->tfields < 0))
    return damaged (error, path, index, _("its cards 3 to 8 are not NAXIS = 2, NAXIS1, NAXIS2, PCOUNT, GCOUNT and "
                                          "TFIELDS = 0 … 999, as a table's must be"));
  if (h->binary && h->zimage)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("HDU %u (extension %u) is a tile-compressed image (fpack's), which Lumen does not read: "
                           "uncompress the file first (funpack)"),
                         index, index - 1);
      return LM_FITS_HDU_REFUSED;
    }
  if (h->bad != NULL)
    {
      g_autofree char *what = g_strdup_printf (_("%s is not a whole number of 0 or more"), h->bad);
      return damaged (error, path, index, what);
    }

  /* NAXIS1 = 0 flags random groups where GROUPS = T (cfitsio's rule, in any image HDU). */
  gboolean groups = !h->table && h->naxis > 0 && h->axes[0] == 0 && h->groups;
  guint64 pixels = h->naxis > 0 ? 1 : 0, bytes;
  gboolean ok = TRUE;
  for (gint64 i = groups ? 1 : 0; i < h->naxis && ok; i++)
    ok = g_uint64_checked_mul (&pixels, pixels, (guint64) h->axes[i]);
  guint64 padded;
  ok = ok && g_uint64_checked_add (&bytes, pixels, (guint64) h->pcount)
       && g_uint64_checked_mul (&bytes, bytes, (guint64) h->gcount)
       && g_uint64_checked_mul (&bytes, bytes, (guint64) ABS (h->bitpix) / 8)
       && g_uint64_checked_add (&padded, bytes, LM_FITS_BLOCK - 1)
       && g_uint64_checked_add (&padded, hdu->data_start, padded / LM_FITS_BLOCK * LM_FITS_BLOCK)
       && padded <= G_MAXINT64;
  if (!ok)
    return damaged (error, path, index, _("it declares more data than a file can hold"));
  hdu->data_bytes = bytes;
  hdu->end = padded;
  if (!h->table && h->naxis >= 2)
    {
      hdu->image = TRUE;
      hdu->width = (guint64) h->axes[0];
      hdu->height = (guint64) h->axes[1];
    }
  return LM_FITS_HDU_READ;
}

LmFitsHduStatus
lm_fits_hdu_read (const guint8 *data, gsize len, guint64 offset, guint index, const char *path, LmFitsHdu *hdu,
                  GError **error)
{
  const char *first = index == 1 ? "SIMPLE  " : "XTENSION";
  if (offset >= len)
    return LM_FITS_HDU_NONE;
  if (len - offset < 8)
    return index == 1 ? LM_FITS_HDU_CUT : LM_FITS_HDU_NONE;
  if (memcmp (data + offset, first, 8) != 0)
    return LM_FITS_HDU_NONE;

  g_autofree Header *h = g_new (Header, 1);
  *h = (Header) { .bitpix = -1, .naxis = -1, .gcount = 1, .tfields = -1 };
  memset (h->axes, 0xff, sizeof h->axes);
  *hdu = (LmFitsHdu) { .index = index, .start = offset };
  guint number = 0;
  for (guint64 at = offset; at < len; at += LM_FITS_BLOCK)
    {
      gsize n = (gsize) MIN (len - at, LM_FITS_BLOCK);
      for (gsize c = 0; c + CARD <= n; c += CARD)
        {
          const char *card = (const char *) data + at + c;
          char name[CARD + 1];
          card_name (card, name);
          if (strcmp (name, "END") == 0)
            {
              hdu->data_start = at + LM_FITS_BLOCK;
              return size_data (h, path, hdu, error);
            }
          read_card (card, name, ++number, h);
        }
    }
  return LM_FITS_HDU_CUT;
}

void
lm_fits_walk (const guint8 *data, gsize len, guint goal, const char *path, LmFitsWalk *walk)
{
  *walk = (LmFitsWalk) { .hdus = g_array_new (FALSE, FALSE, sizeof (LmFitsHdu)) };
  guint64 offset = 0;
  for (guint index = 1; !walk->found; index++)
    {
      LmFitsHdu hdu;
      switch (lm_fits_hdu_read (data, len, offset, index, path, &hdu, &walk->stop))
        {
        case LM_FITS_HDU_NONE:
          return;
        case LM_FITS_HDU_REFUSED:
          return;
        case LM_FITS_HDU_CUT:
          lm_set_file_error (&walk->stop, LM_ERROR_FORMAT, path,
                             _("the header of HDU %u (extension %u) ends without its END card: the file is "
                               "truncated"),
                             index, index - 1);
          return;
        case LM_FITS_HDU_READ:
          break;
        }
      if (hdu.data_bytes > 0 && (hdu.data_start > len || len - hdu.data_start < hdu.data_bytes))
        {
          guint64 there = len > hdu.data_start ? len - hdu.data_start : 0;
          lm_set_file_error (&walk->stop, LM_ERROR_FORMAT, path,
                             _("HDU %u (extension %u) declares %llu bytes of data and the file holds %llu of "
                               "them: it is truncated"),
                             index, index - 1, (unsigned long long) hdu.data_bytes, (unsigned long long) there);
          return;
        }
      g_array_append_val (walk->hdus, hdu);
      walk->end = offset = hdu.end;
      walk->found = goal == index || (goal == LM_FITS_FIRST_IMAGE && hdu.image);
    }
}

void
lm_fits_walk_clear (LmFitsWalk *walk)
{
  g_clear_pointer (&walk->hdus, g_array_unref);
  g_clear_error (&walk->stop);
}

const LmFitsHdu *
lm_fits_walk_hdu (const LmFitsWalk *walk, guint index)
{
  if (index == 0 || index > walk->hdus->len)
    return NULL;
  return &g_array_index (walk->hdus, LmFitsHdu, index - 1);
}

gboolean
lm_fits_hdu_within_budget (const LmFitsHdu *hdu, const char *path, GError **error)
{
  if (!hdu->image || hdu->width == 0 || hdu->height == 0)
    return TRUE;
  if (hdu->width > LM_IMAGE_MAX_SIDE || hdu->height > LM_IMAGE_MAX_SIDE)
    {
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path,
                         _("its image of %llu × %llu pixels is larger than Lumen accepts"),
                         (unsigned long long) hdu->width, (unsigned long long) hdu->height);
      return FALSE;
    }
  GError *e = NULL;
  if (lm_pixel_budget_check ((guint) hdu->width, (guint) hdu->height, &e))
    return TRUE;
  lm_set_file_error (error, e->code, path, "%s", e->message);
  g_error_free (e);
  return FALSE;
}
