/* Where a photo's edits are kept (sidecar.h). */
#include "sidecar.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "../io/atomic-file.h"

#define SIDECAR_SUFFIX ".lumen"

char *
lm_sidecar_beside_path (const char *photo)
{
  return g_strconcat (photo, SIDECAR_SUFFIX, NULL);
}

char *
lm_sidecar_data_path (const char *photo)
{
  /* The absolute path, so that a photo opened as "a.jpg" from its folder and by its whole
   * path has one sidecar; a hash, so that any path gives a short, valid file name. */
  g_autofree char *absolute = g_canonicalize_filename (photo, NULL);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, absolute, -1);
  g_autofree char *name = g_strconcat (hash, SIDECAR_SUFFIX, NULL);
  return g_build_filename (g_get_user_data_dir (), "lumen", "sidecars", name, NULL);
}

/* PATH's modification time in nanoseconds, or -1 when it is not there. */
static gint64
mtime_ns (const char *path)
{
  struct stat st;
  if (g_stat (path, &st) != 0)
    return -1;
  return (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
}

char *
lm_sidecar_find (const char *photo)
{
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_autofree char *data = lm_sidecar_data_path (photo);
  gint64 beside_t = mtime_ns (beside), data_t = mtime_ns (data);
  if (beside_t < 0 && data_t < 0)
    return NULL;
  /* Beside first; the data folder's where it is newer: it holds the edits made while the
   * photo's folder could not be written, which a sidecar beside it could not take. */
  return data_t > beside_t ? g_steal_pointer (&data) : g_steal_pointer (&beside);
}

gboolean
lm_sidecar_load (const char *photo, LmPipeline *pipeline, char **found, GError **error)
{
  g_autofree char *path = lm_sidecar_find (photo);
  gboolean ok = path == NULL || lm_pipeline_load_sidecar (pipeline, path, error);
  if (found)
    *found = g_steal_pointer (&path);
  return ok;
}

gboolean
lm_sidecar_is_default (const LmPipeline *pipeline)
{
  LmPipeline fresh;
  lm_pipeline_init (&fresh);
  if (pipeline->raw.enabled)
    lm_pipeline_for_raw (&fresh);
  return lm_pipeline_equal (pipeline, &fresh);
}

/* STAGE of APPLIED (with its MASK) in place of the instance AT of EDITS, keeping that one's id. */
static gboolean
put_instance (LmPipeline *edits, guint at, const LmStage *stage, const LmMask *mask, GError **error)
{
  guint32 id = edits->inst[at].id;
  lm_pipeline_mask_detach (edits, at);
  edits->inst[at] = *stage;
  edits->inst[at].id = id;
  edits->inst[at].mask = -1;
  return mask == NULL || lm_pipeline_mask_attach (edits, at, mask, error);
}

static gboolean
merge_instances (LmPipeline *edits, const LmPipeline *applied, GError **error)
{
  for (guint i = 0; i < applied->n; i++)
    {
      const LmStage *stage = &applied->inst[i];
      const LmMask *mask = lm_pipeline_stage_mask (applied, stage);
      int at = lm_pipeline_find (edits, stage->id);
      if (lm_stage_is_primary (stage))
        {
          if (stage->enabled && !put_instance (edits, at, stage, mask, error))
            return FALSE;
          continue;
        }
      if (at < 0 || edits->inst[at].info != stage->info)
        {
          /* Its op's place in EDITS; its own id unless EDITS uses it. */
          if (!lm_pipeline_add (edits, stage->info->id, &at, error))
            return FALSE;
          if (lm_pipeline_find (edits, stage->id) < 0)
            {
              edits->inst[at].id = stage->id;
              edits->next_id = MAX (edits->next_id, stage->id + 1);
            }
        }
      if (!put_instance (edits, at, stage, mask, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
lm_sidecar_merge_edits (LmPipeline *edits, const LmPipeline *applied, GError **error)
{
  g_autofree LmPipeline *merged = g_memdup2 (edits, sizeof *edits);
  if (!merge_instances (merged, applied, error))
    return FALSE;
  *edits = *merged;
  LmPipeline fresh;
  lm_pipeline_init (&fresh);
  if (applied->raw.enabled)
    lm_pipeline_for_raw (&fresh);
  if (!lm_stage_equal (&applied->tonemap, &fresh.tonemap))
    edits->tonemap = applied->tonemap;
  if (applied->raw.enabled
      && memcmp (applied->raw.params.bytes, fresh.raw.params.bytes, sizeof (LmRawParams)) != 0)
    edits->raw = applied->raw;
  return TRUE;
}

gboolean
lm_sidecar_write (const char *path, const LmPipeline *pipeline, GError **error)
{
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (pipeline);
  gsize len = 0;
  g_autofree char *text = g_key_file_to_data (keyfile, &len, NULL);
  return lm_atomic_file_write (path, text, len, error);
}

/* Removes PATH where it is; a file that is not there is no failure. */
static gboolean
remove_sidecar (const char *path, GError **error)
{
  if (g_unlink (path) == 0 || errno == ENOENT)
    return TRUE;
  int errsv = errno;
  lm_set_file_error (error, lm_error_code_from_errno (errsv), path, _("cannot remove the sidecar: %s"),
                     g_strerror (errsv));
  return FALSE;
}

/* Whether the folder of PATH takes new files (a temporary, then its rename). */
static gboolean
folder_writable (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  return g_access (dir, W_OK | X_OK) == 0;
}

gboolean
lm_sidecar_save (const char *photo, const LmPipeline *pipeline, char **written, GError **error)
{
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_autofree char *data = lm_sidecar_data_path (photo);
  if (written)
    *written = NULL;
  gboolean beside_ok = folder_writable (beside);
  if (lm_sidecar_is_default (pipeline) && (beside_ok || !g_file_test (beside, G_FILE_TEST_EXISTS)))
    {
      /* Both go: the data folder's would otherwise come back once the one beside is gone. A
       * sidecar beside the photo that its folder no longer lets us remove is shadowed instead,
       * by a newer one of default edits in the data folder (lm_sidecar_find takes the newer),
       * written below. */
      return remove_sidecar (data, error) && (!beside_ok || remove_sidecar (beside, error));
    }
  const char *path = beside;
  if (!beside_ok)
    {
      path = data;
      g_autofree char *dir = g_path_get_dirname (data);
      if (g_mkdir_with_parents (dir, 0700) != 0)
        {
          int errsv = errno;
          lm_set_file_error (error, lm_error_code_from_errno (errsv), dir, _("cannot create the folder: %s"),
                             g_strerror (errsv));
          return FALSE;
        }
    }
  if (!lm_sidecar_write (path, pipeline, error))
    return FALSE;
  /* A copy in the data folder is stale now: it would come back if the one beside the photo
   * were removed by hand. */
  if (path == beside)
    remove_sidecar (data, NULL);
  if (written)
    *written = g_strdup (path);
  return TRUE;
}
