#include "monitor-profile.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "../color/view-transform.h"
#include "file-read.h"

GBytes *
lm_monitor_profile_load (const char *path, GError **error)
{
  g_autoptr (GError) e = NULL;
  g_autoptr (GBytes) icc = lm_file_read (path, LM_FILE_KIND_PROFILE, LM_FILE_PROFILE_MAX, &e);
  if (icc == NULL)
    {
      /* The cause begins with the file's name. */
      g_set_error (error, LUMEN_ERROR, e->code, _("Cannot read the monitor profile: %s"), e->message);
      return NULL;
    }
  if (!lm_monitor_profile_check (icc, path, error))
    return NULL;
  return g_steal_pointer (&icc);
}
