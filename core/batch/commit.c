#include "commit.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../io/atomic-file.h"
#include "../io/text-input.h"
#include "../error.h"
#include "../io/rgbe.h"
#include "stack-list.h"

static const char *const crash_names[] = {
  [LM_CRASH_AFTER_TEMP_WRITE] = "after-temp-write",
  [LM_CRASH_AFTER_RENAME] = "after-rename",
  [LM_CRASH_AFTER_JOURNAL] = "after-journal",
};

static int crash_at = -1;
static gint crash_countdown = 1;

gboolean
lm_batch_crash_points_init (GError **error)
{
  const char *text = g_getenv ("LUMEN_BATCH_CRASH_AT");
  crash_at = -1;
  if (text == NULL || *text == '\0')
    return TRUE;
  g_auto (GStrv) parts = g_strsplit (text, ":", 2);
  guint64 k = 1;
  for (int i = 0; i < (int) G_N_ELEMENTS (crash_names); i++)
    if (g_str_equal (parts[0], crash_names[i]))
      crash_at = i;
  if (crash_at < 0 || (parts[1] && !g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXINT, &k, NULL)))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("LUMEN_BATCH_CRASH_AT=“%s”: expected after-temp-write, after-rename or after-journal, "
                     "optionally followed by :K"), text);
      crash_at = -1;
      return FALSE;
    }
  crash_countdown = (gint) k;
  return TRUE;
}

void
lm_batch_crash_point (LmCrashPoint point)
{
  if ((int) point == crash_at && g_atomic_int_dec_and_test (&crash_countdown))
    raise (SIGKILL);
}

char *
lm_batch_output_path (const char *outdir, const char *id, const char *ext)
{
  g_autofree char *name = g_strconcat (id, ".", ext, NULL);
  return g_build_filename (outdir, name, NULL);
}

const char *const lm_batch_formats[] = { "hdr", "exr", "jpg", "png", "tif", NULL };

gboolean
lm_batch_output_name_fits (const char *outdir, const LmBatchStack *stack, const char *ext, GError **error)
{
  long max = lm_atomic_file_name_max (outdir);
  gsize len = strlen (stack->id) + 1 + strlen (ext);
  if ((long) len <= max)
    return TRUE;
  /* Quoted short (the id may be of any length), so the reason says where to find it. */
  g_autofree char *display = g_filename_display_name (outdir);
  g_autofree char *quoted = lm_text_quote (stack->id, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("stack id “%s” (%s): its output’s name would be %u bytes long, and file names in %s hold at "
                 "most %ld: give the stack a shorter id"),
               quoted, stack->source, (guint) len, display, max);
  return FALSE;
}

/* The part of a staging name that stands for the stack: the id, or for a long id its head
 * and a hash of the whole, short enough that the staging name and the atomic writer's
 * temporary of it (".<staging>.lumen-tmp-XXXXXX") fit in OUTDIR's file names. The hash
 * keeps two long ids with one head apart, so that a shard recognises its own leftovers. */
static char *
staging_stem (long name_max, const char *id)
{
  enum { HASH = 16, ROOM = 64 }; /* ROOM: both infixes, "batch.", an extension, dots */
  gsize max = (gsize) MAX (name_max - ROOM, 2 * HASH);
  gsize len = strlen (id);
  if (len <= max)
    return g_strdup (id);
  const char *end = id + (max - HASH - 1);
  while (end > id && (*end & 0xc0) == 0x80) /* ids are UTF-8: cut between characters */
    end--;
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, id, -1);
  hash[HASH] = '\0';
  return g_strdup_printf ("%.*s~%s", (int) (end - id), id, hash);
}

/* The staging name of an output: it keeps the extension (codecs write by it) and carries
 * the temporary infix, so that a leftover is recognised. */
static char *
staging_path (const char *outdir, const char *id, const char *ext)
{
  g_autofree char *stem = staging_stem (lm_atomic_file_name_max (outdir), id);
  g_autofree char *name = g_strconcat (".", stem, LM_ATOMIC_TMP_INFIX, "batch.", ext, NULL);
  return g_build_filename (outdir, name, NULL);
}

/* E, said of the output the user asked for (FINAL), not of the hidden staging name. */
static void
propagate_as_final (GError **error, GError *e, const char *staging, const char *final)
{
  g_autofree char *message = g_strdup (e->message);
  char *at = strstr (message, staging);
  if (at)
    {
      g_autofree char *rest = g_strdup (at + strlen (staging));
      *at = '\0';
      g_set_error (error, e->domain, e->code, "%s%s%s", message, final, rest);
      g_error_free (e);
    }
  else
    g_propagate_error (error, e);
}

/* The commit point: the complete staging file renamed to its final name. */
static gboolean
commit_staging (const char *staging, const char *final, GError **error)
{
  lm_batch_crash_point (LM_CRASH_AFTER_TEMP_WRITE);
  /* A fifo or a device under the output's name (or a link to one) is refused, never
   * replaced by a regular file. */
  if (!lm_atomic_file_check_replaceable (final, error))
    {
      g_unlink (staging);
      return FALSE;
    }
  if (g_rename (staging, final) != 0)
    {
      int errsv = errno;
      g_unlink (staging);
      lm_set_write_error (error, final, errsv);
      return FALSE;
    }
  lm_batch_crash_point (LM_CRASH_AFTER_RENAME);
  return TRUE;
}

gboolean
lm_batch_write_output (const LmImage *image, const char *outdir, const char *id, const char *ext,
                       const LmSaveOptions *options, LmOutputSum *sum, GError **error)
{
  g_autofree char *staging = staging_path (outdir, id, ext);
  g_autofree char *final = lm_batch_output_path (outdir, id, ext);
  GError *e = NULL;
  /* RGBE pixels (converted by the merge's backend) are already what a .hdr file holds, and the
   * CPU's radiance is converted here: encoded in memory on this writer's thread (OpenMP
   * teams in each of the batch's writers would oversubscribe the cores), written in one go,
   * summed from memory instead of read back. */
  if (image->format == LM_FORMAT_RGBE8 || (image->format == LM_FORMAT_RGBA_F32 && g_str_equal (ext, "hdr")))
    {
      g_autoptr (GBytes) bytes = lm_rgbe_encode_file (image, final, error);
      return bytes != NULL && lm_batch_write_encoded (bytes, outdir, id, ext, sum, error);
    }
  if (!lm_io_save (image, staging, options, &e))
    {
      propagate_as_final (error, e, staging, final);
      return FALSE;
    }
  /* The bytes the rename commits, read back while they are in the page cache. */
  if (!lm_output_sum_file (staging, sum, &e))
    {
      g_unlink (staging);
      propagate_as_final (error, e, staging, final);
      return FALSE;
    }
  return commit_staging (staging, final, error);
}

gboolean
lm_batch_write_encoded (GBytes *bytes, const char *outdir, const char *id, const char *ext, LmOutputSum *sum,
                        GError **error)
{
  g_autofree char *staging = staging_path (outdir, id, ext);
  g_autofree char *final = lm_batch_output_path (outdir, id, ext);
  GError *e = NULL;
  LmAtomicFile *file = lm_atomic_file_open (staging, &e);
  if (file)
    {
      gsize len;
      const void *data = g_bytes_get_data (bytes, &len);
      if (fwrite (data, 1, len, lm_atomic_file_stream (file)) != len)
        {
          int errsv = errno;
          GError *write_error = NULL;
          lm_set_write_error (&write_error, staging, errsv);
          lm_atomic_file_take_error (file, write_error);
        }
    }
  if (file == NULL || !lm_atomic_file_commit (file, &e))
    {
      propagate_as_final (error, e, staging, final);
      return FALSE;
    }
  lm_output_sum_bytes (bytes, sum);
  return commit_staging (staging, final, error);
}

/* The stem of a temporary's name: the leading dots off, up to the first infix. */
static char *
temporary_stem (const char *name)
{
  const char *infix = strstr (name, LM_ATOMIC_TMP_INFIX);
  if (infix == NULL || name[0] != '.')
    return NULL;
  while (*name == '.' && name < infix)
    name++;
  return g_strndup (name, infix - name);
}

GHashTable *
lm_batch_scan_outdir (const char *outdir, GHashTable *ids, const char *ext, guint *removed, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (outdir, 0, error);
  if (dir == NULL)
    return NULL;
  /* Temporaries are recognised by their stems; an id's stem depends on the folder's limit. */
  long name_max = lm_atomic_file_name_max (outdir);
  g_autoptr (GHashTable) stems = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter it;
  gpointer id;
  g_hash_table_iter_init (&it, ids);
  while (g_hash_table_iter_next (&it, &id, NULL))
    g_hash_table_add (stems, staging_stem (name_max, id));
  /* The stack list's temporary belongs to whoever holds the folder's admission lock. */
  g_hash_table_remove (stems, LM_STACK_LIST_NAME);

  GHashTable *present = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *suffix = g_strconcat (".", ext, NULL);
  *removed = 0;
  const char *name;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *stem = temporary_stem (name);
      if (stem)
        {
          if (g_hash_table_contains (stems, stem))
            {
              g_autofree char *path = g_build_filename (outdir, name, NULL);
              if (g_unlink (path) == 0)
                (*removed)++;
            }
          continue;
        }
      if (g_str_has_suffix (name, suffix))
        {
          g_autofree char *output_id = g_strndup (name, strlen (name) - strlen (suffix));
          if (g_hash_table_contains (ids, output_id))
            g_hash_table_add (present, g_steal_pointer (&output_id));
        }
    }
  return present;
}

gboolean
lm_batch_output_replaceable (const char *outdir, const char *id, const char *ext, GError **error)
{
  g_autofree char *final = lm_batch_output_path (outdir, id, ext);
  return lm_atomic_file_check_replaceable (final, error);
}
