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
  TAG_CFA_REPEAT_DIM = 33421,
  TAG_CFA_PATTERN = 33422,
  TAG_EXIF_IFD = 34665,
  TAG_DNG_VERSION = 50706,
  TAG_DEFAULT_CROP_ORIGIN = 50719,
  TAG_DEFAULT_CROP_SIZE = 50720,
  TAG_ACTIVE_AREA = 50829,
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
  gboolean cut;           /* an IFD begins in the file and its entries run past its end */
  gboolean mismatched;    /* an IFD's CFAPattern is not CFARepeatPatternDim's size */
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
  /* The first few of the array only: a count of 2³² zeros is no reason to read them all. */
  for (guint32 i = 0; i < count && i < MAX_IFDS && q->n < MAX_IFDS; i++)
    if (array <= t->len && (t->len - array) / 4 > i)
      enqueue (q, get32 (t, array + 4 * (gsize) i), TRUE);
}

/* Whether a CFAPattern of the IFD at AT (N entries) comes after a CFARepeatPatternDim (two
 * SHORTs) of as many sites, as TIFF/EP and DNG have it. */
static gboolean
cfa_tags_agree (const Tiff *t, gsize at, guint32 n)
{
  gint64 dims = -1;
  for (guint32 k = 0; k < n; k++)
    {
      gsize entry = at + 2 + 12 * (gsize) k;
      guint32 tag = get16 (t, entry), type = get16 (t, entry + 2), count = get32 (t, entry + 4);
      if (tag == TAG_CFA_REPEAT_DIM)
        dims = type == 3 && count == 2 ? (gint64) get16 (t, entry + 8) * get16 (t, entry + 10) : 0;
      else if (tag == TAG_CFA_PATTERN && dims != count)
        return FALSE;
    }
  return TRUE;
}

/* What a walk asks of each IFD (the INDEX-th visited, N entries at AT): TRUE ends the walk. */
typedef gboolean (*IfdVisit) (const Tiff *t, guint index, gsize at, guint32 n, gpointer user);

/* IFD0's chain and the SubIFDs of its IFDs, at most MAX_IFDS of them, every offset checked;
 * *CUT (may be NULL) tells whether one of them runs past the file's end or has a CFAPattern
 * of another size than its CFARepeatPatternDim. */
static gboolean
walk (const Tiff *t, IfdVisit visit, gpointer user, gboolean *cut)
{
  IfdQueue q = { .n = 0 };
  enqueue (&q, get32 (t, 4), FALSE);
  for (guint i = 0; i < q.n; i++)
    {
      gsize at = q.offsets[i];
      if (at < 8 || at > t->len)
        continue;
      guint32 n = t->len - at >= 2 ? get16 (t, at) : 0;
      if (t->len - at < 2 || (t->len - at - 2) / 12 < n)
        {
          q.cut = TRUE;
          continue;
        }
      if (n > MAX_ENTRIES)
        continue;
      q.mismatched |= !cfa_tags_agree (t, at, n);
      if (visit && visit (t, i, at, n, user))
        return TRUE;
      for (guint32 k = 0; k < n && !q.sub[i]; k++)
        if (get16 (t, at + 2 + 12 * (gsize) k) == TAG_SUB_IFDS || get16 (t, at + 2 + 12 * (gsize) k) == TAG_EXIF_IFD)
          enqueue_sub_ifds (t, at + 2 + 12 * (gsize) k, &q);
      /* The next IFD of the chain this one is in: IFD0's chain, or a SubIFD's siblings. */
      gsize next = at + 2 + 12 * (gsize) n;
      if (t->len - next >= 4)
        enqueue (&q, get32 (t, next), q.sub[i]);
    }
  if (cut)
    *cut = q.cut || q.mismatched;
  return FALSE;
}

/* Whether the IFD at AT holds sensor data: PhotometricInterpretation CFA or LinearRaw. */
static gboolean
holds_sensor_data (const Tiff *t, gsize at, guint32 n)
{
  for (guint32 k = 0; k < n; k++)
    {
      gsize entry = at + 2 + 12 * (gsize) k;
      if (get16 (t, entry) == TAG_PHOTOMETRIC && get32 (t, entry + 4) == 1)
        {
          guint32 photometric = entry_value (t, entry);
          return photometric == PHOTOMETRIC_CFA || photometric == PHOTOMETRIC_LINEAR_RAW;
        }
    }
  return FALSE;
}

static gboolean
is_raw_ifd (const Tiff *t, guint index, gsize at, guint32 n, gpointer user)
{
  for (guint32 k = 0; index == 0 && k < n; k++)
    if (get16 (t, at + 2 + 12 * (gsize) k) == TAG_DNG_VERSION)
      return TRUE;
  return holds_sensor_data (t, at, n);
}

/* Value I of the SHORT, LONG or RATIONAL entry at ENTRY, where it is in the file; -1 where not. */
static double
entry_number (const Tiff *t, gsize entry, guint32 i)
{
  guint32 type = get16 (t, entry + 2), count = get32 (t, entry + 4);
  gsize size = type == 3 ? 2 : type == 4 ? 4 : type == 5 ? 8 : 0;
  if (size == 0 || i >= count)
    return -1;
  gsize at = (gsize) count * size <= 4 ? entry + 8 : get32 (t, entry + 8);
  if (at > t->len || (t->len - at) / size <= i)
    return -1;
  at += size * i;
  if (type == 3)
    return get16 (t, at);
  if (type == 4)
    return get32 (t, at);
  guint32 den = get32 (t, at + 4);
  return den ? (double) get32 (t, at) / den : -1;
}

typedef struct {
  double origin[2], size[2], area[2]; /* DefaultCropOrigin, DefaultCropSize, ActiveArea's top, left */
  gboolean found;
} DngCrop;

static gboolean
read_crop (const Tiff *t, guint index, gsize at, guint32 n, gpointer user)
{
  DngCrop *crop = user;
  if (!holds_sensor_data (t, at, n))
    return FALSE;
  for (guint32 k = 0; k < n; k++)
    {
      gsize entry = at + 2 + 12 * (gsize) k;
      switch (get16 (t, entry))
        {
        case TAG_DEFAULT_CROP_ORIGIN:
          crop->origin[0] = entry_number (t, entry, 0);
          crop->origin[1] = entry_number (t, entry, 1);
          break;
        case TAG_DEFAULT_CROP_SIZE:
          crop->size[0] = entry_number (t, entry, 0);
          crop->size[1] = entry_number (t, entry, 1);
          crop->found = TRUE;
          break;
        case TAG_ACTIVE_AREA:
          crop->area[0] = entry_number (t, entry, 0);
          crop->area[1] = entry_number (t, entry, 1);
          break;
        }
    }
  return TRUE; /* the first IFD of sensor data is the one LibRaw reads */
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
  return len >= 8 && walk (&t, is_raw_ifd, NULL, NULL);
}

gboolean
lm_raw_ifds_damaged (const guint8 *data, gsize len)
{
  Tiff t = { data, len, has_at (data, len, 0, "MM", 2) };
  if (len < 8 || !(has_at (data, len, 0, "II", 2) || t.big_endian))
    return FALSE;
  gboolean cut = FALSE;
  walk (&t, NULL, NULL, &cut);
  return cut;
}

gboolean
lm_raw_dng_crop (const guint8 *data, gsize len, guint crop[4])
{
  Tiff t = { data, len, has_at (data, len, 0, "MM\0*", 4) };
  if (len < 8 || (!t.big_endian && !has_at (data, len, 0, "II*\0", 4)))
    return FALSE;
  DngCrop c = { .origin = { 0, 0 }, .size = { -1, -1 }, .area = { 0, 0 } };
  walk (&t, read_crop, &c, NULL);
  double x = c.area[1] + c.origin[0], y = c.area[0] + c.origin[1];
  if (!c.found || c.origin[0] < 0 || c.origin[1] < 0 || c.area[0] < 0 || c.area[1] < 0 || !(c.size[0] >= 1)
      || !(c.size[1] >= 1) || x + c.size[0] > G_MAXUINT16 || y + c.size[1] > G_MAXUINT16)
    return FALSE;
  crop[0] = (guint) x;
  crop[1] = (guint) y;
  crop[2] = (guint) (c.size[0] + 0.5);
  crop[3] = (guint) (c.size[1] + 0.5);
  return TRUE;
}
