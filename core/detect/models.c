/* Model names to opencv-data's files (models.h). */
#include <string.h>
#include <glib/gi18n.h>

#include "models.h"
#include "core/error.h"

static const LmCascadeModel models[] = {
  { "faces", "haarcascades/haarcascade_frontalface_default.xml", N_("Faces (frontal)") },
  { "faces-alt", "haarcascades/haarcascade_frontalface_alt.xml", N_("Faces (frontal, fewer false finds)") },
  { "faces-lbp", "lbpcascades/lbpcascade_frontalface_improved.xml", N_("Faces (frontal, LBP, faster)") },
  { "profile-faces", "haarcascades/haarcascade_profileface.xml", N_("Faces (profile)") },
  { "eyes", "haarcascades/haarcascade_eye.xml", N_("Eyes") },
  { "smiles", "haarcascades/haarcascade_smile.xml", N_("Smiles") },
  { "full-bodies", "haarcascades/haarcascade_fullbody.xml", N_("People (full body)") },
  { "upper-bodies", "haarcascades/haarcascade_upperbody.xml", N_("People (upper body)") },
  { "lower-bodies", "haarcascades/haarcascade_lowerbody.xml", N_("People (lower body)") },
  { "cat-faces", "haarcascades/haarcascade_frontalcatface.xml", N_("Cat faces") },
  { "cat-faces-lbp", "lbpcascades/lbpcascade_frontalcatface.xml", N_("Cat faces (LBP)") },
  { "plates", "haarcascades/haarcascade_russian_plate_number.xml", N_("Licence plates") },
  { NULL, NULL, NULL },
};

const LmCascadeModel *
lm_cascade_models (void)
{
  return models;
}

static char *
model_names (void)
{
  GString *s = g_string_new (NULL);
  for (const LmCascadeModel *m = models; m->name; m++)
    g_string_append_printf (s, "%s%s", s->len ? ", " : "", m->name);
  return g_string_free (s, FALSE);
}

char *
lm_cascade_model_path (const char *name, GError **error)
{
  if (strchr (name, '/') || g_str_has_suffix (name, ".xml"))
    return g_strdup (name);
  const LmCascadeModel *m = models;
  while (m->name && strcmp (m->name, name) != 0)
    m++;
  if (m->name == NULL)
    {
      g_autofree char *names = model_names ();
      g_autofree char *display = g_utf8_make_valid (name, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("unknown model “%s” (%s, or a cascade .xml file)"),
                   display, names);
      return NULL;
    }
  /* LUMEN_CASCADE_DIR holds the files themselves or opencv-data's two folders. */
  const char *dir = g_getenv ("LUMEN_CASCADE_DIR");
  const char *const roots[] = { "/usr/share/opencv4", "/usr/local/share/opencv4", "/usr/share/opencv" };
  if (dir && *dir)
    {
      g_autofree char *base = g_path_get_basename (m->file);
      char *candidates[] = { g_build_filename (dir, m->file, NULL), g_build_filename (dir, base, NULL) };
      for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
        if (g_file_test (candidates[i], G_FILE_TEST_EXISTS))
          {
            g_free (candidates[1 - i]);
            return candidates[i];
          }
      g_free (candidates[0]), g_free (candidates[1]);
      g_autofree char *display = g_filename_display_name (dir);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("model “%s”: %s is not in LUMEN_CASCADE_DIR (%s)"), m->name,
                   base, display);
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      char *path = g_build_filename (roots[i], m->file, NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return path;
      g_free (path);
    }
  g_set_error (error, LUMEN_ERROR, LM_ERROR_IO,
               _("model “%s”: %s is not installed; install the package opencv-data (or set LUMEN_CASCADE_DIR)"),
               m->name, m->file);
  return NULL;
}
