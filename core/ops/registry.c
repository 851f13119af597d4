/* The registration table of operations, generated from op-list.h in its order, and the
 * generic handling of their parameter descriptions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/text-input.h"
#include "ops.h"

static const LmOpInfo *const registry[LM_N_OPS] = {
#define LM_OP(ID, name, Name) [LM_OP_##ID] = &lm_##name##_op,
#include "op-list.h"
#undef LM_OP
};

/* Every parameter struct fits a pipeline stage's bytes. */
#define LM_OP(ID, name, Name) G_STATIC_ASSERT (sizeof (Lm##Name##Params) <= LM_OP_PARAMS_MAX);
#include "op-list.h"
#undef LM_OP

const LmOpInfo *
lm_op_info (LmOpId id)
{
  g_return_val_if_fail (id < LM_N_OPS, NULL);
  return registry[id];
}

const LmOpInfo *
lm_op_info_by_name (const char *name)
{
  for (int i = 0; i < LM_N_OPS; i++)
    if (g_str_equal (registry[i]->name, name))
      return registry[i];
  return NULL;
}

void
lm_op_params_init (const LmOpInfo *info, void *params)
{
  memset (params, 0, info->params_size);
  for (guint i = 0; i < info->n_params; i++)
    {
      const LmParamSpec *spec = &info->params[i];
      guint8 *field = (guint8 *) params + spec->offset;
      if (spec->type == LM_PARAM_ENUM)
        *(int *) field = (int) spec->def;
      else
        *(float *) field = (float) spec->def;
    }
}

gboolean
lm_op_param_parse (const LmOpInfo *info, const LmParamSpec *spec, void *params, const char *text,
                   GError **error)
{
  guint8 *field = (guint8 *) params + spec->offset;
  if (spec->type == LM_PARAM_ENUM)
    {
      for (int i = 0; spec->values[i].nick != NULL; i++)
        if (g_ascii_strcasecmp (spec->values[i].nick, text) == 0)
          {
            *(int *) field = i;
            return TRUE;
          }
      g_autoptr (GString) nicks = g_string_new (NULL);
      for (int i = 0; spec->values[i].nick != NULL; i++)
        g_string_append_printf (nicks, "%s%s", i ? ", " : "", spec->values[i].nick);
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s %s: unknown value “%s” (one of: %s)"),
                   info->name, spec->name, quoted, nicks->str);
      return FALSE;
    }

  double v;
  if (!lm_text_parse_double (text, &v, error))
    {
      g_prefix_error (error, "%s %s: ", info->name, spec->name);
      return FALSE;
    }
  /* Compared as the float it is stored as: a value Lumen wrote (0.699999988 for a bias of
   * 0.7) must read back at the edge of its range. */
  float f = (float) v;
  if (!(f >= (float) spec->min && f <= (float) spec->max))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s %s: %g is outside %g..%g"), info->name,
                   spec->name, v, spec->min, spec->max);
      return FALSE;
    }
  *(float *) field = f;
  return TRUE;
}

gboolean
lm_op_param_active (const LmOpInfo *info, const LmParamSpec *spec, const void *params)
{
  if (spec->when == NULL)
    return TRUE;
  g_auto (GStrv) kv = g_strsplit (spec->when, "=", 2);
  for (guint i = 0; i < info->n_params; i++)
    if (g_str_equal (info->params[i].name, kv[0]))
      {
        g_autofree char *value = lm_op_param_to_string (&info->params[i], params);
        return g_str_equal (value, kv[1]);
      }
  g_return_val_if_reached (TRUE);
}

char *
lm_op_param_to_string (const LmParamSpec *spec, const void *params)
{
  const guint8 *field = (const guint8 *) params + spec->offset;
  if (spec->type == LM_PARAM_ENUM)
    return g_strdup (spec->values[*(const int *) field].nick);
  /* The fewest significant digits that give the float back exactly (nine always do): a
   * sidecar says 0.7, not 0.699999988. */
  float value = *(const float *) field;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (int digits = 6; digits < 9; digits++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if ((float) g_ascii_strtod (buf, NULL) == value)
        return g_strdup (buf);
    }
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9g", value));
}
