#include "shard.h"

#include <glib/gi18n.h>

#include "../error.h"

static gboolean
parse_uint (const char *text, guint *out)
{
  guint64 v;
  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &v, NULL))
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

gboolean
lm_shard_parse (const char *text, LmShard *shard, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, "/", 3);
  guint i, n;
  if (g_strv_length (parts) != 2 || !parse_uint (parts[0], &i) || !parse_uint (parts[1], &n) || n == 0
      || i >= n)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--shard: “%s” is not I/N with 0 ≤ I < N (e.g. 0/3, 1/3, 2/3)"), text);
      return FALSE;
    }
  shard->index = i, shard->count = n;
  return TRUE;
}

static gboolean
env_uint (const char *name, guint fallback, guint *out, GError **error)
{
  const char *text = g_getenv (name);
  if (text == NULL)
    {
      *out = fallback;
      return TRUE;
    }
  if (parse_uint (text, out))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s=“%s” is not a whole number"), name,
               text);
  return FALSE;
}

gboolean
lm_shard_from_environment (guint completions, LmShard *shard, GError **error)
{
  shard->index = shard->count = 0;
  if (g_getenv ("SLURM_ARRAY_TASK_ID"))
    {
      /* --array=1-3 or 0-10:2 number the tasks otherwise than 0..N-1. */
      guint id, min, step, count;
      if (!env_uint ("SLURM_ARRAY_TASK_ID", 0, &id, error) || !env_uint ("SLURM_ARRAY_TASK_MIN", 0, &min, error)
          || !env_uint ("SLURM_ARRAY_TASK_STEP", 1, &step, error)
          || !env_uint ("SLURM_ARRAY_TASK_COUNT", 0, &count, error))
        return FALSE;
      if (count == 0 || step == 0 || id < min || (id - min) % step != 0 || (id - min) / step >= count)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("a Slurm array task %u of %u (first %u, step %u) cannot be given a share: "
                         "use an array such as --array=0-%u, or give --shard I/N"),
                       id, count, min, step, count ? count - 1 : 0);
          return FALSE;
        }
      shard->index = (id - min) / step, shard->count = count;
      return TRUE;
    }
  if (g_getenv ("JOB_COMPLETION_INDEX"))
    {
      guint id;
      if (!env_uint ("JOB_COMPLETION_INDEX", 0, &id, error))
        return FALSE;
      if (completions == 0 || id >= completions)
        {
          if (completions == 0)
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("JOB_COMPLETION_INDEX is set: give the job's completions count with "
                           "--shard-count N"));
          else
            g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                         _("JOB_COMPLETION_INDEX %u is not below --shard-count %u"), id, completions);
          return FALSE;
        }
      shard->index = id, shard->count = completions;
    }
  return TRUE;
}

char *
lm_shard_file_name (const LmShard *shard, const char *what)
{
  if (shard->count == 0)
    return g_strdup_printf ("%s.tsv", what);
  return g_strdup_printf ("%s-%u-of-%u.tsv", what, shard->index, shard->count);
}
