/* The registration table of operations, generated from op-list.h in its order, and the
 * generic handling of their parameter descriptions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../text.h"
#include "ops.h"

static const LmOpInfo *const registry[LM_N_OPS] = {
#define LM_OP(ID, name, Name, KIND) [LM_OP_##ID] = &lm_##name##_op,
#include "op-list.h"
#undef LM_OP
};

static const LmOpKind kinds[LM_N_OPS] = {
#define LM_OP(ID, name, Name, KIND) [LM_OP_##ID] = LM_KIND_##KIND,
#include "op-list.h"
#undef LM_OP
};

/* Every parameter struct fits a pipeline stage's bytes; the fused pass's bits fit a word. */
#define LM_OP(ID, name, Name, KIND) G_STATIC_ASSERT (sizeof (Lm##Name##Params) <= LM_OP_PARAMS_MAX);
#include "op-list.h"
#undef LM_OP
G_STATIC_ASSERT (LM_N_OPS <= 32);

LmOpKind
lm_op_kind (LmOpId id)
{
  g_return_val_if_fail (id < LM_N_OPS, LM_KIND_PIXEL);
  return kinds[id];
}

gboolean
lm_op_is_point (LmOpId id)
{
  return id < LM_N_OPS && (kinds[id] == LM_KIND_POINT || kinds[id] == LM_KIND_POINT_COLOR);
}

void
lm_op_output_size (const LmOpInfo *info, const void *params, guint width, guint height,
                   guint *out_width, guint *out_height)
{
  *out_width = width, *out_height = height;
  if (info->output_size)
    info->output_size (params, width, height, out_width, out_height);
}

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
      else if (spec->type == LM_PARAM_TEXT)
        ((LmParamText *) field)->s[0] = '\0';
      else if (spec->type == LM_PARAM_CURVE)
        *(LmCurvePoints *) field = (LmCurvePoints) {
          .n = 2, .x = { (float) spec->min, (float) spec->max }, .y = { (float) spec->min, (float) spec->max }
        };
      else
        *(float *) field = (float) spec->def;
    }
}

/* "x:y,x:y,…": 2 to LM_CURVE_MAX_POINTS points, x strictly increasing, both in range. */
static gboolean
parse_curve (const LmOpInfo *info, const LmParamSpec *spec, LmCurvePoints *out, const char *text,
             GError **error)
{
  g_auto (GStrv) points = g_strsplit (text, ",", -1);
  guint n = g_strv_length (points);
  if (n < 2 || n > LM_CURVE_MAX_POINTS)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("%s %s: a curve needs 2 to %d points x:y separated by commas, not %u"), info->name,
                   spec->name, LM_CURVE_MAX_POINTS, n);
      return FALSE;
    }
  LmCurvePoints curve = { .n = (int) n };
  for (guint i = 0; i < n; i++)
    {
      g_auto (GStrv) xy = g_strsplit (points[i], ":", -1);
      double v[2];
      GError *e = NULL;
      if (g_strv_length (xy) != 2 || !lm_text_parse_double (xy[0], &v[0], &e)
          || !lm_text_parse_double (xy[1], &v[1], &e))
        {
          g_autofree char *quoted = lm_text_quote (points[i], -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s %s: point %u, “%s”, is not x:y%s%s"),
                       info->name, spec->name, i + 1, quoted, e ? ": " : "", e ? e->message : "");
          g_clear_error (&e);
          return FALSE;
        }
      for (int k = 0; k < 2; k++)
        if (!((float) v[k] >= (float) spec->min && (float) v[k] <= (float) spec->max))
          {
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s %s: point %u: %g is outside %g..%g"),
                         info->name, spec->name, i + 1, v[k], spec->min, spec->max);
            return FALSE;
          }
      curve.x[i] = (float) v[0], curve.y[i] = (float) v[1];
      if (i > 0 && !(curve.x[i] > curve.x[i - 1]))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s %s: point %u: x must grow from one point to the next (%g after %g)"), info->name,
                       spec->name, i + 1, v[0], (double) curve.x[i - 1]);
          return FALSE;
        }
    }
  *out = curve;
  return TRUE;
}

/* A name: valid UTF-8 without control characters, at most max bytes; "auto" is the empty
 * name (what the CLI types for "from the photo"). */
static gboolean
parse_text (const LmOpInfo *info, const LmParamSpec *spec, LmParamText *out, const char *text, GError **error)
{
  gsize len = strlen (text);
  gboolean printable = g_utf8_validate (text, -1, NULL);
  for (const char *c = text; printable && *c; c = g_utf8_next_char (c))
    printable = !g_unichar_iscntrl (g_utf8_get_char (c));
  if (!printable || len > (gsize) spec->max || len >= sizeof out->s)
    {
      g_autofree char *quoted = lm_text_quote (text, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s %s: “%s” is not a name of at most %g bytes"),
                   info->name, spec->name, quoted, spec->max);
      return FALSE;
    }
  g_strlcpy (out->s, g_ascii_strcasecmp (text, "auto") == 0 ? "" : text, sizeof out->s);
  return TRUE;
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

  if (spec->type == LM_PARAM_CURVE)
    return parse_curve (info, spec, (LmCurvePoints *) field, text, error);
  if (spec->type == LM_PARAM_TEXT)
    return parse_text (info, spec, (LmParamText *) field, text, error);

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

/* The fewest significant digits that give the float back exactly (nine always do): a
 * sidecar says 0.7, not 0.699999988. */
static void
append_float (GString *out, float value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (int digits = 6; digits <= 9; digits++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if ((float) g_ascii_strtod (buf, NULL) == value || digits == 9)
        break;
    }
  g_string_append (out, buf);
}

char *
lm_op_param_to_string (const LmParamSpec *spec, const void *params)
{
  const guint8 *field = (const guint8 *) params + spec->offset;
  if (spec->type == LM_PARAM_ENUM)
    return g_strdup (spec->values[*(const int *) field].nick);
  if (spec->type == LM_PARAM_TEXT)
    return g_strdup (((const LmParamText *) field)->s);
  GString *out = g_string_new (NULL);
  if (spec->type == LM_PARAM_CURVE)
    {
      const LmCurvePoints *curve = (const LmCurvePoints *) field;
      for (int i = 0; i < curve->n; i++)
        {
          g_string_append (out, i ? "," : "");
          append_float (out, curve->x[i]);
          g_string_append_c (out, ':');
          append_float (out, curve->y[i]);
        }
    }
  else
    append_float (out, *(const float *) field);
  return g_string_free (out, FALSE);
}
