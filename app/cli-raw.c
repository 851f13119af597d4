/* Camera raws in lumen-cli: a raw input makes the pipeline a raw's before the flags apply (its
 * display transform and its [raw] sidecar group); a .exr output of a raw is the developed
 * scene itself (core/render/develop-one.h). */
#include <glib/gi18n.h>

#include "cli.h"
#include "core/render/develop-one.h"

gboolean
lm_cli_is_raw (const char *path)
{
  return lm_develop_is_raw (path);
}
