#include "raw-sniff.h"

#include <string.h>

const char *const lm_raw_suffixes[] = {
  ".dng", ".cr2", ".cr3", ".crw", ".nef", ".nrw", ".arw", ".srf", ".sr2", ".raf", ".orf",
  ".rw2", ".rwl", ".pef", ".srw", ".3fr", ".fff", ".iiq", ".mos", ".erf", ".mef", ".mrw",
  ".kdc", ".dcr", NULL,
};

const char *const lm_raw_mime_types[] = {
  "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw",
  "image/x-nikon-nef", "image/x-nikon-nrw", "image/x-sony-arw", "image/x-sony-srf",
  "image/x-sony-sr2", "image/x-fuji-raf", "image/x-olympus-orf", "image/x-panasonic-rw2",
  "image/x-panasonic-rwl", "image/x-pentax-pef", "image/x-samsung-srw", "image/x-hasselblad-3fr",
  "image/x-hasselblad-fff", "image/x-phaseone-iiq", "image/x-leaf-mos", "image/x-epson-erf",
  "image/x-mamiya-mef", "image/x-minolta-mrw", "image/x-kodak-kdc", "image/x-kodak-dcr", NULL,
};

gboolean
lm_raw_has_suffix (const char *name)
{
  const char *dot = strrchr (name, '.');
  for (guint i = 0; dot && lm_raw_suffixes[i]; i++)
    if (g_ascii_strcasecmp (dot, lm_raw_suffixes[i]) == 0)
      return TRUE;
  return FALSE;
}

enum {
  TAG_PHOTOMETRIC = 262,
  TAG_SUB_IFDS = 330,
  TAG_DNG_VERSION = 50706,
  PHOTOMETRIC_CFA = 32803,
  PHOTOMETRIC_LINEAR_RAW = 34892,
  /* A TIFF's IFD0 chain and their SubIFDs: where every raw maker puts its sensor data's IFD.
   * A bound, so that a forged chain (a loop, thousands of IFDs) costs no more. */
  MAX_IFDS = 8,
  MAX_ENTRIES = 1024,
};

typedef struct {
  const guint8 *data;
  gsize len;
  gboolean big_endian;
} Tiff;

static guint32
get16 (const Tiff *t, gsize at)
{
  const guint8 *p = t->data + at;
  return t->big_endian ? (guint32) p[0] << 8 | p[1] : (guint32) p[1] << 8 | p[0];
}

static guint32
get32 (const Tiff *t, gsize at)
{
  return t->big_endian ? get16 (t, at) << 16 | get16 (t, at + 2) : get16 (t, at + 2) << 16 | get16 (t, at);
}

/* The value of a SHORT or LONG entry of count 1 at ENTRY. */
static guint32
entry_value (const Tiff *t, gsize entry)
{
  guint32 type = get16 (t, entry + 2);
  return type == 3 ? get16 (t, entry + 8) : get32 (t, entry + 8);
}

typedef struct {
  guint32 offsets[MAX_IFDS];
  gboolean sub[MAX_IFDS]; /* a SubIFD, whose own SubIFDs are not followed */
  guint n;
} IfdQueue;

static void
enqueue (IfdQueue *q, guint32 offset, gboolean sub)
{
  if (offset == 0 || q->n >= MAX_IFDS)
    return;
  q->offsets[q->n] = offset;
  q->sub[q->n] = sub;
  q->n++;
}

/* SubIFDs of the entry at ENTRY: one offset in the entry itself, more in an array. */
static void
enqueue_sub_ifds (const Tiff *t, gsize entry, IfdQueue *q)
{
  guint32 type = get16 (t, entry + 2), count = get32 (t, entry + 4);
  if ((type != 4 && type != 13) || count == 0)
    return;
  if (count == 1)
    {
      enqueue (q, get32 (t, entry + 8), TRUE);
      return;
    }
  guint32 array = get32 (t, entry + 8);
  for (guint32 i = 0; i < count && q->n < MAX_IFDS; i++)
    if (array <= t->len && (t->len - array) / 4 > i)
      enqueue (q, get32 (t, array + 4 * (gsize) i), TRUE);
}

static gboolean
tiff_holds_raw (const Tiff *t)
{
  IfdQueue q = { .n = 0 };
  enqueue (&q, get32 (t, 4), FALSE);
  for (guint i = 0; i < q.n; i++)
    {
      gsize at = q.offsets[i];
      if (at < 8 || at > t->len || t->len - at < 2)
        continue;
      guint32 n = get16 (t, at);
      if (n > MAX_ENTRIES || (t->len - at - 2) / 12 < n)
        continue;
      for (guint32 k = 0; k < n; k++)
        {
          gsize entry = at + 2 + 12 * (gsize) k;
          guint32 tag = get16 (t, entry);
          if (tag == TAG_DNG_VERSION && i == 0)
            return TRUE;
          if (tag == TAG_PHOTOMETRIC && get32 (t, entry + 4) == 1)
            {
              guint32 photometric = entry_value (t, entry);
              if (photometric == PHOTOMETRIC_CFA || photometric == PHOTOMETRIC_LINEAR_RAW)
                return TRUE;
            }
          if (tag == TAG_SUB_IFDS && !q.sub[i])
            enqueue_sub_ifds (t, entry, &q);
        }
      /* The next IFD of the chain this one is in: IFD0's chain, or a SubIFD's siblings. */
      gsize next = at + 2 + 12 * (gsize) n;
      if (t->len - next >= 4)
        enqueue (&q, get32 (t, next), q.sub[i]);
    }
  return FALSE;
}

static gboolean
has_at (const guint8 *data, gsize len, gsize at, const char *magic, gsize n)
{
  return len >= at + n && memcmp (data + at, magic, n) == 0;
}

gboolean
lm_raw_sniff (const guint8 *data, gsize len)
{
  if (has_at (data, len, 0, "IIRO", 4) || has_at (data, len, 0, "IIRS", 4) || has_at (data, len, 0, "MMOR", 4)
      || has_at (data, len, 0, "IIU\0", 4) || has_at (data, len, 0, "FUJIFILMCCD-RAW ", 16)
      || has_at (data, len, 4, "ftypcrx ", 8) || has_at (data, len, 6, "HEAPCCDR", 8)
      || has_at (data, len, 0, "\0MRM", 4) || has_at (data, len, 0, "FOVb", 4))
    return TRUE;
  Tiff t = { data, len, FALSE };
  if (has_at (data, len, 0, "MM\0*", 4))
    t.big_endian = TRUE;
  else if (!has_at (data, len, 0, "II*\0", 4))
    return FALSE;
  if (has_at (data, len, 8, "CR", 2))
    return TRUE;
  return len >= 8 && tiff_holds_raw (&t);
}
