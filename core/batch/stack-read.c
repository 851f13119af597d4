#include "stack-read.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/exif.h"
#include "../io/io.h"

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
  /* Past this many files the stack fails anyway (lm_batch_decode says so): read none. */
  gboolean readable = read->n >= 2 && read->n <= LM_HDR_MAX_EXPOSURES;
  for (guint i = 0; i < read->n; i++)
    {
      read->paths[i] = g_strdup (files->pdata[i]);
      char *contents = NULL;
      gsize len = 0;
      if (readable && g_file_get_contents (read->paths[i], &contents, &len, NULL))
        {
          read->bytes[i] = g_bytes_new_take (contents, len);
          read->total_bytes += len;
        }
    }
  return read;
}

/* Times as lm_hdr_stack_load wants them: positive, finite, distinct; the same messages. */
static gboolean
check_times (const LmBatchRead *read, const double *times, GError **error)
{
  for (guint i = 0; i < read->n; i++)
    {
      g_autofree char *display = g_filename_display_name (read->paths[i]);
      if (!(times[i] > 0.0) || !isfinite (times[i]))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: exposure time %g s: it must be a positive number of seconds"), display, times[i]);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (times[j] == times[i])
          {
            g_autofree char *other = g_filename_display_name (read->paths[j]);
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         _("%s and %s have the same exposure time (%g s): a bracket needs different ones"),
                         other, display, times[i]);
            return FALSE;
          }
    }
  return TRUE;
}

static gboolean
check_count (guint n, GError **error)
{
  if (n < 2)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   n == 1 ? _("an HDR merge needs at least two exposures; one was given")
                          : _("an HDR merge needs at least two exposures; none were given"));
      return FALSE;
    }
  if (n > LM_HDR_MAX_EXPOSURES)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%u exposures: at most %d can be merged"), n,
                   LM_HDR_MAX_EXPOSURES);
      return FALSE;
    }
  return TRUE;
}

/* One member, decoded by nvJPEG (DECODED) or here, checked as lm_hdr_stack_load checks it. */
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
  if (image == NULL || !lm_hdr_stack_check_member (read->paths[i], image, read->paths[0], first, error))
    return NULL;
  return g_steal_pointer (&image);
}

/* The stack's paths and times (from the read, or the files' EXIF), checked; no images yet. */
static LmHdrStack *
stack_with_times (const LmBatchRead *read, gboolean timed, GError **error)
{
  if (!check_count (read->n, error))
    return NULL;
  g_autoptr (LmHdrStack) s = g_new0 (LmHdrStack, 1);
  s->n = read->n;
  s->images = g_new0 (LmImage *, s->n);
  s->paths = g_new0 (char *, s->n);
  s->times = read->times || timed ? g_new0 (double, s->n) : NULL;
  for (guint i = 0; i < s->n; i++)
    {
      s->paths[i] = g_strdup (read->paths[i]);
      if (s->times == NULL)
        continue;
      if (read->times)
        s->times[i] = read->times[i];
      else if (!lm_exif_exposure_time (read->paths[i], &s->times[i], error))
        {
          g_prefix_error (error, _("no exposure time given: "));
          return NULL;
        }
    }
  if (s->times && !check_times (read, s->times, error))
    return NULL;
  return g_steal_pointer (&s);
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
lm_batch_decode (const LmBatchRead *read, gboolean timed, const LmAllocator *allocator, LmNvjpeg *nvjpeg,
                 guint *nvjpeg_files, GError **error)
{
  *nvjpeg_files = 0;
  g_autoptr (LmHdrStack) s = stack_with_times (read, timed, error);
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
lm_batch_decode_on_device (const LmBatchRead *read, gboolean timed, const LmAllocator *device, LmNvjpeg *nvjpeg,
                           LmHdrStack **stack, GError **error)
{
  *stack = NULL;
  g_autoptr (LmHdrStack) s = stack_with_times (read, timed, error);
  if (s == NULL)
    return FALSE;
  g_autofree const guint8 **data = g_new0 (const guint8 *, s->n);
  g_autofree gsize *lens = g_new0 (gsize, s->n);
  file_bytes (read, data, lens);
  gboolean all = FALSE;
  if (!lm_nvjpeg_decode_to_device (nvjpeg, s->n, data, lens, device, s->images, &all, error))
    return FALSE;
  if (!all)
    return TRUE;
  for (guint i = 0; i < s->n; i++)
    if (!lm_hdr_stack_check_member (s->paths[i], s->images[i], s->paths[0], i ? s->images[0] : NULL, error))
      return FALSE;
  *stack = g_steal_pointer (&s);
  return TRUE;
}
