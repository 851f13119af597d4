/* The lens correction's lookup in lensfun's database (lens-db.c; lens-db-absent.c where Lumen
 * is built without lensfun): the lens a photo or the user names, its coefficients at the
 * shot's focal length and aperture. */
#pragma once

#include <glib.h>

#include "../ops/op-context.h"

G_BEGIN_DECLS

/* LmOpContext.lens_find: CAMERA and LENS name them as lensfun or EXIF does (empty: SHOT's),
 * FOCAL and APERTURE (0: SHOT's). OUT's status says what was found. Thread-safe. */
void lm_lens_find (const LmShotInfo *shot, const char *camera, const char *lens, float focal, float aperture,
                   struct LmLensProfile *out);

/* Whether lensfun and a database with lenses are there. */
gboolean lm_lens_db_available (void);

/* The database's lenses, only those that fit SHOT's camera where the database has that camera
 * (SHOT NULL: all). NULL-terminated, empty without a database. */
char **lm_lens_db_lens_names (const LmShotInfo *shot);

/* Every lens's and every camera's name in the database, for the window's choice. */
char **lm_lens_db_lens_list (void);
char **lm_lens_db_camera_list (void);

G_END_DECLS
