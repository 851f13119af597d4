/* Lumen built without lensfun: no lookup finds a lens (the lens correction then leaves the
 * photo as it is and says why). */
#include "lens-db.h"

#include <string.h>

#include "../ops/lens-math.h"

void
lm_lens_find (const LmShotInfo *shot, const char *camera, const char *lens, float focal, float aperture,
              LmLensProfile *out)
{
  memset (out, 0, sizeof *out);
  out->status = LM_LENS_NO_LENSFUN;
}

gboolean
lm_lens_db_available (void)
{
  return FALSE;
}

char **
lm_lens_db_lens_names (const LmShotInfo *shot)
{
  return g_new0 (char *, 1);
}

char **
lm_lens_db_lens_list (void)
{
  return g_new0 (char *, 1);
}

char **
lm_lens_db_camera_list (void)
{
  return g_new0 (char *, 1);
}
