/* Presets: sidecars kept under a name (presets.h). */
#include "presets.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "config.h"
#include "../edit/sidecar.h"
#include "../error.h"
#include "../io/atomic-file.h"
#include "../io/text-input.h"
#include "../render/develop-one.h"

void
lm_preset_free (LmPreset *preset)
{
  if (preset == NULL)
    return;
  g_free (preset->name);
  g_free (preset->path);
  g_free (preset);
}

char *
lm_presets_user_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "lumen", "presets", NULL);
}

/* The folders of built-in presets, most wanted first: the installed one, those of
 * XDG_DATA_DIRS, and the source tree's for a Lumen run from its build folder. */
static GPtrArray *
builtin_dirs (void)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (dirs, g_build_filename (LUMEN_DATADIR, "lumen", "presets", NULL));
  for (const char *const *d = g_get_system_data_dirs (); *d != NULL; d++)
    g_ptr_array_add (dirs, g_build_filename (*d, "lumen", "presets", NULL));
  g_ptr_array_add (dirs, g_build_filename (LUMEN_SOURCE_ROOT, "data", "presets", NULL));
  return dirs;
}

gboolean
lm_preset_name_check (const char *name, GError **error)
{
  gsize len = strlen (name);
  const char *why = NULL;
  if (len == 0)
    why = _("a preset needs a name");
  else if (!g_utf8_validate (name, -1, NULL))
    why = _("a preset’s name must be UTF-8 text");
  else if (len > LM_PRESET_NAME_MAX)
    why = _("a preset’s name is too long");
  else if (strchr (name, '/') != NULL)
    why = _("a preset’s name cannot hold “/”");
  else if (name[0] == '.' || name[0] == ' ' || name[len - 1] == ' ')
    why = _("a preset’s name cannot start with “.” or a space, nor end with a space");
  else
    for (const char *p = name; *p; p = g_utf8_next_char (p))
      if (g_unichar_iscntrl (g_utf8_get_char (p)))
        why = _("a preset’s name cannot hold control characters");
  if (why == NULL)
    return TRUE;
  g_autofree char *quoted = lm_text_quote (name, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "“%s”: %s", quoted, why);
  return FALSE;
}

/* NAME's file in DIR. */
static char *
preset_file (const char *dir, const char *name)
{
  g_autofree char *base = g_strconcat (name, LM_PRESET_SUFFIX, NULL);
  return g_build_filename (dir, base, NULL);
}

static char *
user_file (const char *name)
{
  g_autofree char *dir = lm_presets_user_dir ();
  return preset_file (dir, name);
}

/* Adds the presets of DIR to LIST, except names already there. A folder that is not there
 * has none; one that cannot be read is an error where REQUIRED. */
static gboolean
add_dir (GPtrArray *list, GHashTable *seen, const char *dir, gboolean builtin, GError **error)
{
  GError *e = NULL;
  g_autoptr (GDir) d = g_dir_open (dir, 0, &e);
  if (d == NULL)
    {
      gboolean missing = g_error_matches (e, G_FILE_ERROR, G_FILE_ERROR_NOENT)
                         || g_error_matches (e, G_FILE_ERROR, G_FILE_ERROR_NOTDIR);
      if (!missing && !builtin)
        {
          lm_set_file_error (error, LM_ERROR_IO, dir, _("cannot read the presets: %s"), e->message);
          g_error_free (e);
          return FALSE;
        }
      g_error_free (e);
      return TRUE;
    }
  const char *base;
  while ((base = g_dir_read_name (d)) != NULL)
    {
      if (base[0] == '.' || !g_str_has_suffix (base, LM_PRESET_SUFFIX))
        continue; /* hidden, and an atomic write's temporary */
      g_autofree char *name = g_strndup (base, strlen (base) - strlen (LM_PRESET_SUFFIX));
      g_autofree char *path = g_build_filename (dir, base, NULL);
      if (!lm_preset_name_check (name, NULL) || g_hash_table_contains (seen, name)
          || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        continue;
      LmPreset *preset = g_new0 (LmPreset, 1);
      preset->name = g_strdup (name);
      preset->path = g_steal_pointer (&path);
      preset->builtin = builtin;
      g_hash_table_add (seen, g_steal_pointer (&name));
      g_ptr_array_add (list, preset);
    }
  return TRUE;
}

static int
by_name (gconstpointer a, gconstpointer b)
{
  const LmPreset *pa = *(LmPreset *const *) a, *pb = *(LmPreset *const *) b;
  int c = g_utf8_collate (pa->name, pb->name);
  return c != 0 ? c : strcmp (pa->name, pb->name);
}

GPtrArray *
lm_presets_list (GError **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_preset_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *user = lm_presets_user_dir ();
  if (!add_dir (list, seen, user, FALSE, error))
    return NULL;
  g_autoptr (GPtrArray) dirs = builtin_dirs ();
  for (guint i = 0; i < dirs->len; i++)
    add_dir (list, seen, g_ptr_array_index (dirs, i), TRUE, NULL);
  g_ptr_array_sort (list, by_name);
  return g_steal_pointer (&list);
}

/* The person's presets folder, made where it is missing. */
static char *
make_user_dir (GError **error)
{
  g_autofree char *dir = lm_presets_user_dir ();
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;
      lm_set_file_error (error, lm_error_code_from_errno (errsv), dir, _("cannot make the presets folder: %s"),
                         g_strerror (errsv));
      return NULL;
    }
  return g_steal_pointer (&dir);
}

static gboolean
refuse_existing (const char *path, const char *name, GError **error)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("a preset named “%s” exists already"), name);
  return FALSE;
}

char *
lm_preset_save (const char *name, const LmPipeline *pipeline, const LmOpSelection *selection, gboolean replace,
                GError **error)
{
  if (!lm_preset_name_check (name, error))
    return NULL;
  g_autofree char *dir = make_user_dir (error);
  if (dir == NULL)
    return NULL;
  g_autofree char *path = preset_file (dir, name);
  if (!replace && !refuse_existing (path, name, error))
    return NULL;
  g_autofree LmPipeline *kept = g_new (LmPipeline, 1);
  if (selection)
    lm_op_selection_filter (selection, pipeline, kept);
  else
    *kept = *pipeline;
  if (!lm_sidecar_write (path, kept, error))
    return NULL;
  return g_steal_pointer (&path);
}

/* The person's preset NAME's file, which must exist. */
static char *
existing_user_file (const char *name, GError **error)
{
  if (!lm_preset_name_check (name, error))
    return NULL;
  g_autofree char *path = user_file (name);
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&path);
  g_autofree char *quoted = lm_text_quote (name, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("“%s”: no such preset of yours (built-in presets stay)"),
               quoted);
  return NULL;
}

gboolean
lm_preset_rename (const char *name, const char *new_name, GError **error)
{
  g_autofree char *from = existing_user_file (name, error);
  if (from == NULL || !lm_preset_name_check (new_name, error))
    return FALSE;
  g_autofree char *to = user_file (new_name);
  if (!refuse_existing (to, new_name, error))
    return FALSE;
  if (g_rename (from, to) == 0)
    return TRUE;
  int errsv = errno;
  lm_set_file_error (error, lm_error_code_from_errno (errsv), from, _("cannot rename the preset: %s"),
                     g_strerror (errsv));
  return FALSE;
}

gboolean
lm_preset_delete (const char *name, GError **error)
{
  g_autofree char *path = existing_user_file (name, error);
  if (path == NULL)
    return FALSE;
  if (g_unlink (path) == 0)
    return TRUE;
  int errsv = errno;
  lm_set_file_error (error, lm_error_code_from_errno (errsv), path, _("cannot remove the preset: %s"),
                     g_strerror (errsv));
  return FALSE;
}

/* FILE's text, once it reads as a sidecar; NULL with a message naming FILE. */
static char *
read_checked (const char *file, gsize *len, GError **error)
{
  g_autofree char *text = lm_text_file_read (file, LM_TEXT_FILE_ANY, len, error);
  if (text == NULL)
    return NULL;
  g_autofree LmPipeline *pipeline = g_new (LmPipeline, 1);
  lm_pipeline_init (pipeline);
  GError *e = NULL;
  if (!lm_pipeline_from_text (pipeline, text, *len, &e))
    {
      lm_set_file_error (error, e->code, file, _("not a preset Lumen reads: %s"), e->message);
      g_error_free (e);
      return NULL;
    }
  return g_steal_pointer (&text);
}

char *
lm_preset_import (const char *file, const char *name, GError **error)
{
  g_autofree char *base = g_path_get_basename (file);
  g_autofree char *own_name = NULL;
  if (name == NULL)
    {
      if (g_str_has_suffix (base, LM_PRESET_SUFFIX))
        base[strlen (base) - strlen (LM_PRESET_SUFFIX)] = '\0';
      own_name = g_filename_display_name (base);
      name = own_name;
    }
  if (!lm_preset_name_check (name, error))
    {
      g_prefix_error (error, "%s: ", file);
      return NULL;
    }
  gsize len = 0;
  g_autofree char *text = read_checked (file, &len, error);
  if (text == NULL)
    return NULL;
  g_autofree char *dir = make_user_dir (error);
  if (dir == NULL)
    return NULL;
  g_autofree char *path = preset_file (dir, name);
  if (!refuse_existing (path, name, error) || !lm_atomic_file_write (path, text, len, error))
    return NULL;
  return g_steal_pointer (&path);
}

gboolean
lm_preset_export (const char *name_or_path, const char *file, GError **error)
{
  g_autofree char *path = lm_preset_resolve (name_or_path, error);
  gsize len = 0;
  g_autofree char *text = path ? read_checked (path, &len, error) : NULL;
  return text != NULL && lm_atomic_file_write (file, text, len, error);
}

char *
lm_preset_resolve (const char *name_or_path, GError **error)
{
  if (lm_preset_name_check (name_or_path, NULL))
    {
      g_autofree char *user = user_file (name_or_path);
      if (g_file_test (user, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&user);
      g_autoptr (GPtrArray) dirs = builtin_dirs ();
      for (guint i = 0; i < dirs->len; i++)
        {
          g_autofree char *builtin = preset_file (g_ptr_array_index (dirs, i), name_or_path);
          if (g_file_test (builtin, G_FILE_TEST_EXISTS))
            return g_steal_pointer (&builtin);
        }
    }
  if (g_file_test (name_or_path, G_FILE_TEST_EXISTS))
    return g_strdup (name_or_path);
  g_autofree char *quoted = lm_text_quote (name_or_path, -1);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s: no such preset (nor file)"), quoted);
  return NULL;
}

gboolean
lm_preset_load (const char *path, LmPipeline *pipeline, GError **error)
{
  lm_pipeline_init (pipeline);
  return lm_pipeline_load_sidecar (pipeline, path, error);
}

void
lm_preset_selection (const LmPipeline *preset, LmOpSelection *selection)
{
  lm_op_selection_default (selection, preset);
  for (guint i = 0; i < preset->n; i++)
    if (preset->inst[i].enabled)
      lm_op_selection_set (selection, preset->inst[i].id, TRUE);
}

gboolean
lm_preset_apply (LmPipeline *edits, const LmPipeline *preset, LmPasteMode mode, GError **error)
{
  g_autofree LmPipeline *fitted = g_memdup2 (preset, sizeof *preset);
  lm_pipeline_fit_source (fitted, edits->raw.enabled);
  LmOpSelection selection;
  lm_preset_selection (fitted, &selection);
  return lm_pipeline_paste (edits, fitted, &selection, mode, error);
}

gboolean
lm_preset_apply_to_photo (const char *preset_path, const char *photo, LmPasteMode mode, GError **error)
{
  if (!g_file_test (photo, G_FILE_TEST_IS_REGULAR))
    {
      lm_set_file_error (error, LM_ERROR_IO, photo, _("no such photo"));
      return FALSE;
    }
  g_autofree LmPipeline *preset = g_new (LmPipeline, 1);
  if (!lm_preset_load (preset_path, preset, error))
    return FALSE;
  g_autofree LmPipeline *edits = g_new (LmPipeline, 1);
  lm_pipeline_init (edits);
  g_autofree char *found = lm_sidecar_find (photo);
  if (found == NULL && lm_develop_is_raw (photo))
    lm_pipeline_for_raw (edits);
  if (!lm_sidecar_load (photo, edits, NULL, error) || !lm_preset_apply (edits, preset, mode, error))
    return FALSE;
  return lm_sidecar_save (photo, edits, NULL, error);
}
