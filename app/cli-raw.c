/* Camera raws in lumen-cli: a raw input makes the pipeline a raw's before the flags apply (its
 * display transform and its [raw] sidecar group), and a .exr output of a raw is the developed
 * scene itself: linear Rec. 2020 before the display transform, tagged as such. */
#include <glib/gi18n.h>

#include "cli.h"
#include "core/color/rec2020.h"
#include "core/error.h"
#include "core/io/file-read.h"
#include "core/io/raw.h"
#include "core/pixel-budget.h"
#include "core/render/cache.h"
#include "core/timing.h"

gboolean
lm_cli_is_raw (const char *path)
{
  /* Mapped, not read: the sniffers look at the header and a few directories. A file that
   * cannot be mapped is not decided here: the load says why. */
  g_autoptr (GBytes) bytes = lm_file_map (path, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), NULL);
  if (bytes == NULL)
    return FALSE;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  return lm_file_type_sniff (data, len) == LM_FILE_RAW;
}

/* The operations PIPELINE has on that act after the display transform, joined by ", ", or
 * NULL when none is. */
static char *
display_operations (const LmPipeline *pipeline)
{
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < pipeline->n; i++)
    if (pipeline->inst[i].enabled && !pipeline->inst[i].info->on_scene)
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", pipeline->inst[i].info->name);
  return names->len ? g_string_free (g_steal_pointer (&names), FALSE) : NULL;
}

LmImage *
lm_cli_develop_scene (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline,
                      const char *output, LmTimings *timings, GError **error)
{
  if (!lm_raw_scene_output_check (output, error))
    return NULL;
  g_autofree char *edits = display_operations (pipeline);
  if (edits)
    {
      g_autofree char *display = g_filename_display_name (output);
      lm_cli_error (_("note: %s: holds the developed scene, before the display transform: the edits that act after "
                      "it (%s) are not in it"),
                    display, edits);
    }
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, source, error);
  if (work == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (lm_cli_backend_transfers (backend))
    lm_timings_add (timings, _("upload"), lm_ms_since (t));

  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, work);
  lm_render_cache_set_color (cache, color);
  g_autoptr (LmImage) scene = lm_render_cache_run_scene (cache, pipeline, timings, error);
  if (scene == NULL)
    return NULL;

  t = g_get_monotonic_time ();
  g_autoptr (LmImage) host = lm_backend_download (backend, scene, error);
  if (host == NULL || !lm_backend_synchronize (backend, error))
    return NULL;
  if (lm_cli_backend_transfers (backend))
    lm_timings_add (timings, _("download"), lm_ms_since (t));
  /* The EXR's chromaticities say which primaries its numbers are of. */
  g_clear_pointer (&host->icc_profile, g_bytes_unref);
  host->icc_profile = lm_color_rec2020_linear_icc ();
  return g_steal_pointer (&host);
}
