#include "stack-read.h"

#include <sys/mman.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "../merge/job.h"
#include "../io/file-read.h"
#include "../io/io.h"
#include "../pixel-budget.h"
#include "../error.h"

void
lm_batch_read_free (LmBatchRead *read)
{
  if (read == NULL)
    return;
  for (guint i = 0; i < read->n; i++)
    {
      g_free (read->paths[i]);
      g_clear_pointer (&read->bytes[i], g_bytes_unref);
    }
  g_free (read->paths);
  g_free (read->bytes);
  g_free (read->times);
  g_free (read);
}

/* How much of each file a read thread brings into memory ahead of its decoding: all of an
 * ordinary exposure (a 16-bit TIFF of 30 MP included); of a larger file, which is most
 * likely a forged or sparse one that its decoder refuses after a few bytes, only this much,
 * and the decoder reads on by itself when there is more to decode. */
#define PREFETCH_MAX ((gsize) 256 << 20)

/* The first PREFETCH_MAX bytes of the mapped BYTES in memory: read here, on the read thread,
 * so that the disk works while other stacks are decoded and the decoding finds the bytes in
 * memory. Returns how many. */
static gsize
prefetch (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gsize n = MIN (len, PREFETCH_MAX);
  if (n == 0)
    return 0;
  /* The kernel starts reading ahead; touching each page waits for it, and faults it in. */
  posix_madvise ((void *) data, n, POSIX_MADV_WILLNEED);
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  volatile guint8 sink = 0;
  for (gsize off = 0; off < n; off += page)
    sink ^= data[off];
  (void) sink;
  return n;
}

LmBatchRead *
lm_batch_read (const LmBatchStack *stack, GError **error)
{
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  if (!lm_batch_stack_members (stack, &files, &times, error))
    return NULL;
  LmBatchRead *read = g_new0 (LmBatchRead, 1);
  read->n = files->len;
  read->paths = g_new0 (char *, MAX (read->n, 1));
  read->bytes = g_new0 (GBytes *, MAX (read->n, 1));
  if (times)
    read->times = g_memdup2 (times->data, sizeof (double) * MAX (times->len, 1));
  /* A stack of too few or too many files fails anyway (lm_batch_decode says so): read none. */
  gboolean readable = lm_hdr_job_check_count (read->n, LM_HDR_MAX_EXPOSURES, NULL);
  for (guint i = 0; i < read->n; i++)
    {
      read->paths[i] = g_strdup (files->pdata[i]);
      /* Mapped, not copied: the bytes are only decoded, and a file of gigabytes within the
       * budget costs no more memory than the pages its decoder reads. When it cannot be
       * mapped, the decoding step opens it again to say why. */
      if (readable
          && (read->bytes[i] = lm_file_map (read->paths[i], LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (),
                                            NULL)))
        read->total_bytes += prefetch (read->bytes[i]);
    }
  return read;
}

/* One member, decoded by nvJPEG (DECODED) or here, checked by the HDR job's check. */
static LmImage *
member (const LmBatchRead *read, guint i, LmImage *decoded, const LmImage *first,
        const LmAllocator *allocator, GError **error)
{
  g_autoptr (LmImage) image = decoded;
  if (image == NULL && read->bytes[i])
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (read->bytes[i], &len);
      image = lm_io_load_from_memory (read->paths[i], data, len, allocator, error);
    }
  else if (image == NULL)
    image = lm_io_load (read->paths[i], allocator, error); /* reading failed: this says why */
  if (image == NULL || !lm_hdr_job_check_member (read->paths[i], image, read->paths[0], first, error))
    return NULL;
  return g_steal_pointer (&image);
}

/* The stack's paths and times (from the read, or the files' EXIF), checked by the HDR job's
 * checks, as the job checks a stack before loading it; no images yet. */
static LmHdrStack *
stack_with_times (const LmBatchRead *read, LmHdrMethod method, GError **error)
{
  LmHdrJobSpec spec = { .n = read->n, .paths = (const char *const *) read->paths, .times = read->times,
                        .method = method };
  g_autofree double *times = NULL;
  if (!lm_hdr_job_check_stack (&spec, &times, error))
    return NULL;
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = read->n;
  s->images = g_new0 (LmImage *, s->n);
  s->paths = g_new0 (char *, s->n);
  s->times = g_steal_pointer (&times);
  for (guint i = 0; i < s->n; i++)
    s->paths[i] = g_strdup (read->paths[i]);
  return s;
}

/* The files' bytes as nvJPEG takes them; NULL where a file could not be read. */
static void
file_bytes (const LmBatchRead *read, const guint8 **data, gsize *lens)
{
  for (guint i = 0; i < read->n; i++)
    {
      lens[i] = 0;
      data[i] = read->bytes[i] ? g_bytes_get_data (read->bytes[i], &lens[i]) : NULL;
    }
}

LmHdrStack *
lm_batch_decode (const LmBatchRead *read, LmHdrMethod method, const LmAllocator *allocator, LmNvjpeg *nvjpeg,
                 guint *nvjpeg_files, GError **error)
{
  *nvjpeg_files = 0;
  g_autoptr (LmHdrStack) s = stack_with_times (read, method, error);
  if (s == NULL)
    return NULL;
  g_autofree LmImage **decoded = g_new0 (LmImage *, s->n);
  if (nvjpeg)
    {
      g_autofree const guint8 **data = g_new0 (const guint8 *, s->n);
      g_autofree gsize *lens = g_new0 (gsize, s->n);
      file_bytes (read, data, lens);
      if (!lm_nvjpeg_decode (nvjpeg, s->n, data, lens, allocator, decoded, error))
        return NULL;
      for (guint i = 0; i < s->n; i++)
        *nvjpeg_files += decoded[i] != NULL;
    }
  gboolean ok = TRUE;
  for (guint i = 0; i < s->n; i++)
    {
      LmImage *image = g_steal_pointer (&decoded[i]);
      if (ok)
        ok = (s->images[i] = member (read, i, image, i ? s->images[0] : NULL, allocator, error)) != NULL;
      else
        g_clear_pointer (&image, lm_image_unref);
    }
  return ok ? g_steal_pointer (&s) : NULL;
}

gboolean
lm_batch_decode_on_device (LmBatchRead *const *reads, guint n, LmHdrMethod method, const LmAllocator *device,
                           LmNvjpeg *nvjpeg, LmHdrStack **stacks, GError **errors, GError **error)
{
  /* The stacks whose times check (their places in READS: AT), their files in turn. */
  g_autofree LmHdrStack **checked = g_new0 (LmHdrStack *, MAX (n, 1));
  g_autofree guint *at = g_new0 (guint, MAX (n, 1)), *counts = g_new0 (guint, MAX (n, 1));
  const guint8 *data[LM_NVJPEG_BATCH_MAX];
  gsize lens[LM_NVJPEG_BATCH_MAX];
  guint m = 0, files = 0;
  for (guint i = 0; i < n; i++)
    {
      stacks[i] = NULL;
      errors[i] = NULL;
      LmHdrStack *s = stack_with_times (reads[i], method, &errors[i]);
      if (s == NULL)
        continue;
      if (files + s->n > LM_NVJPEG_BATCH_MAX) /* the caller's batches fit: a stack of its own does */
        {
          g_set_error (&errors[i], LUMEN_ERROR, LM_ERROR_INVALID, _("%s: too many exposures for one decoding batch"),
                       reads[i]->paths[0]);
          lm_hdr_stack_free (s);
          continue;
        }
      file_bytes (reads[i], data + files, lens + files);
      files += s->n;
      checked[m] = s, at[m] = i, counts[m++] = s->n;
    }
  if (m == 0)
    return TRUE;
  LmImage *images[LM_NVJPEG_BATCH_MAX];
  gboolean all[LM_NVJPEG_BATCH_MAX];
  gboolean ok = lm_nvjpeg_decode_to_device (nvjpeg, m, counts, data, lens, device, images, all, error);
  for (guint b = 0, first = 0; b < m; first += counts[b], b++)
    {
      g_autoptr (LmHdrStack) s = checked[b];
      if (!ok || !all[b])
        continue;
      guint i = at[b];
      gboolean good = TRUE;
      for (guint j = 0; j < s->n; j++)
        s->images[j] = images[first + j];
      for (guint j = 0; good && j < s->n; j++)
        good = lm_hdr_job_check_member (s->paths[j], s->images[j], s->paths[0], j ? s->images[0] : NULL, &errors[i]);
      if (good)
        stacks[i] = g_steal_pointer (&s);
    }
  return ok;
}
