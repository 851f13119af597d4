/* lensfun's database: every call to lensfun is here (the pixels need none: lens-math.h). The
 * database loads once, on the first lookup; lookups are remembered, since each render commits
 * its pipeline again and a slider's move must not search 1200 lenses. */
#include "lens-db.h"

#include <math.h>
#include <string.h>
#include <lensfun.h>

#include "../ops/lens-math.h"

G_STATIC_ASSERT ((int) LF_DIST_MODEL_POLY3 == LM_LENS_DIST_POLY3 && (int) LF_DIST_MODEL_POLY5 == LM_LENS_DIST_POLY5
                 && (int) LF_DIST_MODEL_PTLENS == LM_LENS_DIST_PTLENS);
G_STATIC_ASSERT ((int) LF_TCA_MODEL_LINEAR == LM_LENS_TCA_LINEAR && (int) LF_TCA_MODEL_POLY3 == LM_LENS_TCA_POLY3);
G_STATIC_ASSERT ((int) LF_VIGNETTING_MODEL_PA == LM_LENS_VIG_PA);

/* lensfun's advice where the subject's distance is unknown; it only nudges vignetting. */
#define UNKNOWN_DISTANCE_M 1000.0f

static GMutex lock;
static lfDatabase *db;
static gboolean loaded;
static GHashTable *found; /* query text → LmLensProfile */

/* The database, loaded on first use: LUMEN_LENSFUN_DB names a folder of its XML files (a
 * machine without the data package installed), else lensfun's own places. NULL when it has
 * no lens. Called with LOCK held. */
static lfDatabase *
database (void)
{
  if (loaded)
    return db;
  loaded = TRUE;
  db = lf_db_new ();
  const char *dir = g_getenv ("LUMEN_LENSFUN_DB");
  gboolean ok = dir && *dir ? lf_db_load_directory (db, dir) : lf_db_load (db) == LF_NO_ERROR;
  const lfLens *const *lenses = lf_db_get_lenses (db);
  if (!ok || lenses == NULL || lenses[0] == NULL)
    g_clear_pointer (&db, lf_db_destroy);
  return db;
}

gboolean
lm_lens_db_available (void)
{
  g_mutex_lock (&lock);
  gboolean ok = database () != NULL;
  g_mutex_unlock (&lock);
  return ok;
}

/* The camera NAME names (model, maker optional before it), or EXIF's MAKE and MODEL. */
static const lfCamera *
find_camera (const char *name, const char *make, const char *model)
{
  const lfCamera **cameras = NULL;
  if (name && *name)
    {
      cameras = lf_db_find_cameras_ext (db, NULL, name, 0);
      /* "Maker Model", as the window lists those whose model does not name the maker. */
      const char *space = strchr (name, ' ');
      if (cameras == NULL && space)
        {
          g_autofree char *maker = g_strndup (name, space - name);
          cameras = lf_db_find_cameras_ext (db, maker, space + 1, 0);
        }
    }
  else if (model && *model)
    cameras = lf_db_find_cameras_ext (db, make && *make ? make : NULL, model, 0);
  const lfCamera *camera = cameras ? cameras[0] : NULL;
  lf_free (cameras);
  return camera;
}

static const lfLens *
find_lens (const lfCamera *camera, const char *name)
{
  const lfLens **lenses = lf_db_find_lenses_hd (db, camera, NULL, name, 0);
  const lfLens *lens = lenses ? lenses[0] : NULL;
  lf_free (lenses);
  return lens;
}

static void
lookup (const LmShotInfo *shot, const char *camera_name, const char *lens_name, float focal, float aperture,
        LmLensProfile *out)
{
  static const LmShotInfo none;
  if (shot == NULL)
    shot = &none;
  memset (out, 0, sizeof *out);
  /* Before the database: a photo that names no lens (most of them) does not load its 3 MB. */
  const char *name = lens_name && *lens_name ? lens_name : shot->lens;
  if (!*name)
    {
      out->status = LM_LENS_NO_LENS_NAME;
      return;
    }
  if (database () == NULL)
    {
      out->status = LM_LENS_NO_LENSFUN;
      return;
    }
  const lfCamera *camera = find_camera (camera_name, shot->make, shot->model);
  if (camera == NULL && camera_name && *camera_name)
    {
      out->status = LM_LENS_UNKNOWN_CAMERA;
      return;
    }
  /* A lens for another mount than the camera's is still the lens asked for. */
  const lfLens *lens = find_lens (camera, name);
  if (lens == NULL && camera)
    lens = find_lens (NULL, name);
  if (lens == NULL)
    {
      out->status = LM_LENS_UNKNOWN_LENS;
      return;
    }
  g_snprintf (out->found, sizeof out->found, "%s", lf_mlstr_get (lens->Model));

  if (!(focal > 0.0f))
    focal = shot->focal_mm > 0.0f ? shot->focal_mm : lens->MinFocal == lens->MaxFocal ? lens->MinFocal : 0.0f;
  if (!(focal > 0.0f))
    {
      out->status = LM_LENS_NO_FOCAL;
      return;
    }
  if (!(aperture > 0.0f))
    aperture = shot->f_number;
  float distance = shot->distance_m > 0.0f ? shot->distance_m : UNKNOWN_DISTANCE_M;

  /* The photo's sensor: the camera's, else EXIF's 35 mm equivalent, else the calibration's. */
  out->camera_crop = camera ? camera->CropFactor
                     : shot->focal35_mm > 0.0f && shot->focal_mm > 0.0f ? shot->focal35_mm / shot->focal_mm
                                                                        : lens->CropFactor;
  out->lens_crop = lens->CropFactor;
  out->lens_aspect = lens->AspectRatio;
  out->center_x = lens->CenterX, out->center_y = lens->CenterY;

  lfLensCalibDistortion d;
  if (lf_lens_interpolate_distortion (lens, focal, &d) && d.Model != LF_DIST_MODEL_NONE)
    {
      out->dist_model = d.Model;
      memcpy (out->dist, d.Terms, sizeof out->dist);
    }
  lfLensCalibTCA t;
  if (lf_lens_interpolate_tca (lens, focal, &t) && t.Model != LF_TCA_MODEL_NONE)
    {
      out->tca_model = t.Model;
      memcpy (out->tca, t.Terms, sizeof out->tca);
    }
  /* Vignetting depends on the aperture: none is corrected where it is unknown. */
  lfLensCalibVignetting v;
  if (aperture > 0.0f && lf_lens_interpolate_vignetting (lens, focal, aperture, distance, &v)
      && v.Model != LF_VIGNETTING_MODEL_NONE)
    {
      out->vig_model = v.Model;
      memcpy (out->vig, v.Terms, sizeof out->vig);
    }
  gboolean any = out->dist_model || out->tca_model || out->vig_model;
  out->status = any && out->camera_crop > 0.0f && out->lens_crop > 0.0f ? LM_LENS_FOUND : LM_LENS_NO_PROFILE;
}

void
lm_lens_find (const LmShotInfo *shot, const char *camera, const char *lens, float focal, float aperture,
              LmLensProfile *out)
{
  static const LmShotInfo none;
  const LmShotInfo *s = shot ? shot : &none;
  g_autofree char *key = g_strdup_printf ("%s\n%s\n%g\n%g\n%s\n%s\n%s\n%a\n%a\n%a\n%a", camera, lens, focal,
                                          aperture, s->make, s->model, s->lens, s->focal_mm, s->f_number,
                                          s->focal35_mm, s->distance_m);
  g_mutex_lock (&lock);
  if (found == NULL)
    found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  LmLensProfile *known = g_hash_table_lookup (found, key);
  if (known == NULL)
    {
      known = g_new (LmLensProfile, 1);
      lookup (shot, camera, lens, focal, aperture, known);
      g_hash_table_insert (found, g_steal_pointer (&key), known);
    }
  *out = *known;
  g_mutex_unlock (&lock);
}

char **
lm_lens_db_lens_names (const LmShotInfo *shot)
{
  GPtrArray *names = g_ptr_array_new ();
  g_mutex_lock (&lock);
  if (database () != NULL)
    {
      const lfCamera *camera = shot ? find_camera (NULL, shot->make, shot->model) : NULL;
      const lfLens **lenses = lf_db_find_lenses_hd (db, camera, NULL, NULL, 0);
      for (int i = 0; lenses && lenses[i]; i++)
        g_ptr_array_add (names, g_strdup (lf_mlstr_get (lenses[i]->Model)));
      lf_free (lenses);
    }
  g_mutex_unlock (&lock);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

char **
lm_lens_db_lens_list (void)
{
  return lm_lens_db_lens_names (NULL);
}

char **
lm_lens_db_camera_list (void)
{
  GPtrArray *names = g_ptr_array_new ();
  g_mutex_lock (&lock);
  const lfCamera *const *cameras = database () ? lf_db_get_cameras (db) : NULL;
  for (int i = 0; cameras && cameras[i]; i++)
    {
      const char *maker = lf_mlstr_get (cameras[i]->Maker), *model = lf_mlstr_get (cameras[i]->Model);
      g_ptr_array_add (names, g_str_has_prefix (model, maker) ? g_strdup (model)
                                                              : g_strdup_printf ("%s %s", maker, model));
    }
  g_mutex_unlock (&lock);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}
