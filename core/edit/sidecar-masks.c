/* An instance's mask in the sidecar: the group "[<instance's group> mask]".
 *
 *   opacity=1
 *   invert=false
 *   feather=0.004
 *   detail=0.1
 *   luminance=0.55,0.7,1,1                 (a range: lo0,lo1,hi1,hi0; also hue, saturation)
 *   shape1=linear add from=0.5,0.05 to=0.5,0.35
 *   shape2=radial subtract invert opacity=0.5 centre=0.62,0.2 radii=0.08,0.05 angle=20 softness=0.5
 *   shape3=brush add
 *   stroke3.1=paint size=0.02 hardness=0.6 opacity=1 points=0.41,0.12 0.43,0.125
 *
 * Lengths and positions are fractions of the source's long side. Floats are written with the
 * fewest digits that give them back exactly: written, read and written again, the text is the
 * same, and so are the strokes' keys in the blob store. */
#include "sidecar-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../text.h"
#include "blob-store.h"

/* The mask group's own version: raised when its keys change meaning. */
#define MASK_VERSION 1
#define STROKES_MAX 256
#define POINTS_MAX 4096
/* Positions may lie off the photo (a gradient's far end, a stroke begun outside), not far. */
#define COORD_MAX 16.0

static const char *const kinds[] = { "brush", "linear", "radial" };
static const char *const combines[] = { "add", "subtract", "intersect" };
static const char *const ranges[] = { "luminance", "hue", "saturation" };

G_STATIC_ASSERT (G_N_ELEMENTS (kinds) == LM_MASK_N_KINDS);
G_STATIC_ASSERT (G_N_ELEMENTS (combines) == LM_MASK_N_COMBINES);

/* The fewest significant digits that give the float back exactly, as the operations'
 * parameters are written (registry.c): 0.7, not 0.699999988. */
static void
append_float (GString *s, float v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  for (int digits = 6; digits <= 9; digits++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, sizeof buf, format, v);
      if ((float) g_ascii_strtod (buf, NULL) == v)
        break;
    }
  g_string_append (s, buf);
}

static void
append_floats (GString *s, const char *name, const float *v, int n)
{
  g_string_append_printf (s, " %s=", name);
  for (int i = 0; i < n; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      append_float (s, v[i]);
    }
}

static void
set_float (GKeyFile *keyfile, const char *group, const char *key, float v)
{
  g_autoptr (GString) s = g_string_new (NULL);
  append_float (s, v);
  g_key_file_set_string (keyfile, group, key, s->str);
}

static LmMaskRange *
range_of (LmMask *mask, int r)
{
  return r == 0 ? &mask->luminance : r == 1 ? &mask->hue : &mask->saturation;
}

/* The stroke keys of a brush shape's list (LIST_KEY), or NULL when it has none. */
static GBytes *
stroke_list (guint64 list_key, gsize *n)
{
  *n = 0;
  GBytes *list = list_key ? lm_blob_lookup (list_key) : NULL;
  if (list)
    *n = g_bytes_get_size (list) / sizeof (guint64);
  return list;
}

static void
write_stroke (GKeyFile *keyfile, const char *group, guint shape, guint k, guint64 key)
{
  g_autoptr (GBytes) blob = lm_blob_lookup (key);
  gsize size = 0;
  const guint8 *data = blob ? g_bytes_get_data (blob, &size) : NULL;
  LmMaskStrokeHead head;
  if (data == NULL || size < sizeof head)
    return;
  memcpy (&head, data, sizeof head);
  if (size != sizeof head + (gsize) head.n * 2 * sizeof (float))
    return;
  g_autoptr (GString) s = g_string_new (head.erase ? "erase" : "paint");
  append_floats (s, "size", &head.size, 1);
  append_floats (s, "hardness", &head.hardness, 1);
  append_floats (s, "opacity", &head.opacity, 1);
  const float *uv = (const float *) (data + sizeof head);
  g_string_append (s, " points=");
  for (guint32 i = 0; i < head.n; i++)
    {
      if (i)
        g_string_append_c (s, ' ');
      append_float (s, uv[2 * i]);
      g_string_append_c (s, ',');
      append_float (s, uv[2 * i + 1]);
    }
  g_autofree char *name = g_strdup_printf ("stroke%u.%u", shape, k);
  g_key_file_set_string (keyfile, group, name, s->str);
}

void
lm_sidecar_write_mask (GKeyFile *keyfile, const char *instance_group, const LmMask *mask)
{
  g_autofree char *group = g_strconcat (instance_group, " mask", NULL);
  set_float (keyfile, group, "opacity", mask->opacity);
  g_key_file_set_boolean (keyfile, group, "invert", mask->invert != 0);
  set_float (keyfile, group, "feather", mask->feather);
  set_float (keyfile, group, "detail", mask->detail);
  for (int r = 0; r < 3; r++)
    {
      const LmMaskRange *range = range_of ((LmMask *) mask, r);
      if (!range->on)
        continue;
      g_autoptr (GString) s = g_string_new (NULL);
      append_floats (s, "x", &range->lo0, 4);
      g_key_file_set_string (keyfile, group, ranges[r], s->str + 3); /* past " x=" */
    }
  for (guint i = 0; i < mask->n_shapes && i < LM_MASK_SHAPES_MAX; i++)
    {
      const LmMaskShape *shape = &mask->shape[i];
      if (shape->kind >= LM_MASK_N_KINDS || shape->combine >= LM_MASK_N_COMBINES)
        continue;
      g_autoptr (GString) s = g_string_new (kinds[shape->kind]);
      g_string_append_printf (s, " %s", combines[shape->combine]);
      if (shape->invert)
        g_string_append (s, " invert");
      if (shape->opacity != 1.0f)
        append_floats (s, "opacity", &shape->opacity, 1);
      if (shape->kind == LM_MASK_LINEAR)
        {
          append_floats (s, "from", shape->g, 2);
          append_floats (s, "to", shape->g + 2, 2);
        }
      else if (shape->kind == LM_MASK_RADIAL)
        {
          append_floats (s, "centre", shape->g, 2);
          append_floats (s, "radii", shape->g + 2, 2);
          append_floats (s, "angle", shape->g + 4, 1);
          append_floats (s, "softness", shape->g + 5, 1);
        }
      g_autofree char *name = g_strdup_printf ("shape%u", i + 1);
      g_key_file_set_string (keyfile, group, name, s->str);
      gsize n;
      g_autoptr (GBytes) list = shape->kind == LM_MASK_BRUSH ? stroke_list (shape->strokes, &n) : NULL;
      const guint64 *keys = list ? g_bytes_get_data (list, NULL) : NULL;
      for (gsize k = 0; list && k < n; k++)
        write_stroke (keyfile, group, i + 1, k + 1, keys[k]);
    }
}

/* Reading. */

typedef struct {
  const char *group;
  const char *key;
  GError **error;
} Where;

static gboolean
refuse (const Where *w, const char *what, const char *text)
{
  g_autofree char *quoted = lm_text_quote (text, -1);
  g_set_error (w->error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] %s: %s: “%s”"), w->group, w->key, what, quoted);
  return FALSE;
}

/* TEXT as N numbers separated by commas, each within MIN..MAX. */
static gboolean
parse_floats (const Where *w, const char *text, float *out, int n, double min, double max)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);
  if ((int) g_strv_length (parts) != n)
    return refuse (w, n == 1 ? _("not a number") : _("not the count of numbers it takes"), text);
  for (int i = 0; i < n; i++)
    {
      double v;
      if (!lm_text_parse_double (parts[i], &v, NULL) || v < min || v > max)
        {
          g_autofree char *range = g_strdup_printf (_("not a number from %g to %g"), min, max);
          return refuse (w, range, parts[i]);
        }
      out[i] = (float) v;
    }
  return TRUE;
}

/* TOKEN "NAME=numbers" into OUT; FALSE with no message when TOKEN is not NAME's. */
static gboolean
is_named (const char *token, const char *name)
{
  gsize len = strlen (name);
  return strncmp (token, name, len) == 0 && token[len] == '=';
}

static int
lookup (const char *const *names, int n, const char *word)
{
  for (int i = 0; i < n; i++)
    if (g_str_equal (names[i], word))
      return i;
  return -1;
}

static gboolean
parse_shape (const Where *w, const char *value, LmMaskShape *shape)
{
  g_auto (GStrv) t = g_strsplit (value, " ", -1);
  guint n = g_strv_length (t);
  memset (shape, 0, sizeof *shape);
  shape->opacity = 1.0f;
  int kind = n > 0 ? lookup (kinds, LM_MASK_N_KINDS, t[0]) : -1;
  int combine = n > 1 ? lookup (combines, LM_MASK_N_COMBINES, t[1]) : -1;
  if (kind < 0 || combine < 0)
    return refuse (w, _("not a shape (brush, linear or radial, then add, subtract or intersect)"), value);
  shape->kind = (guint8) kind, shape->combine = (guint8) combine;
  /* Each of the kind's parameters once, in any order: SEEN's bits. */
  static const char *const linear[] = { "from", "to" };
  static const char *const radial[] = { "centre", "radii", "angle", "softness" };
  const char *const *params = kind == LM_MASK_LINEAR ? linear : radial;
  int n_params = kind == LM_MASK_LINEAR ? 2 : kind == LM_MASK_RADIAL ? 4 : 0;
  guint seen = 0;
  for (guint i = 2; i < n; i++)
    {
      if (g_str_equal (t[i], "invert") && !shape->invert)
        {
          shape->invert = 1;
          continue;
        }
      if (is_named (t[i], "opacity") && !(seen & 0x100))
        {
          seen |= 0x100;
          if (!parse_floats (w, t[i] + 8, &shape->opacity, 1, 0, 1))
            return FALSE;
          continue;
        }
      int p = 0;
      while (p < n_params && !is_named (t[i], params[p]))
        p++;
      if (p == n_params || (seen & (1u << p)))
        return refuse (w, _("not a part of this shape, or given twice"), t[i]);
      seen |= 1u << p;
      const char *numbers = t[i] + strlen (params[p]) + 1;
      gboolean ok;
      if (kind == LM_MASK_LINEAR)
        ok = parse_floats (w, numbers, shape->g + 2 * p, 2, -COORD_MAX, COORD_MAX);
      else if (p == 0)
        ok = parse_floats (w, numbers, shape->g, 2, -COORD_MAX, COORD_MAX);
      else if (p == 1)
        ok = parse_floats (w, numbers, shape->g + 2, 2, 1e-6, COORD_MAX);
      else if (p == 2)
        ok = parse_floats (w, numbers, shape->g + 4, 1, -360, 360);
      else
        ok = parse_floats (w, numbers, shape->g + 5, 1, 0, 1);
      if (!ok)
        return FALSE;
    }
  if ((seen & 0xff) != (1u << n_params) - 1)
    return refuse (w, kind == LM_MASK_LINEAR ? _("a linear gradient takes from= and to=")
                                             : _("a radial gradient takes centre=, radii=, angle= and softness="),
                   value);
  if (kind == LM_MASK_LINEAR && shape->g[0] == shape->g[2] && shape->g[1] == shape->g[3])
    return refuse (w, _("a linear gradient's ends are one point"), value);
  return TRUE;
}

/* A stroke's value into its blob's bytes. */
static GBytes *
parse_stroke (const Where *w, const char *value)
{
  g_auto (GStrv) t = g_strsplit (value, " ", -1);
  guint n = g_strv_length (t);
  LmMaskStrokeHead head = { 0 };
  if (n < 5 || !(g_str_equal (t[0], "paint") || g_str_equal (t[0], "erase")) || !is_named (t[1], "size")
      || !is_named (t[2], "hardness") || !is_named (t[3], "opacity") || !is_named (t[4], "points"))
    {
      refuse (w, _("not a stroke (paint or erase, size=, hardness=, opacity=, points=)"), value);
      return NULL;
    }
  head.erase = g_str_equal (t[0], "erase");
  if (!parse_floats (w, t[1] + 5, &head.size, 1, 1e-6, COORD_MAX)
      || !parse_floats (w, t[2] + 9, &head.hardness, 1, 0, 1)
      || !parse_floats (w, t[3] + 8, &head.opacity, 1, 0, 1))
    return NULL;
  head.n = n - 4;
  if (head.n > POINTS_MAX || t[4][7] == '\0')
    {
      g_autofree char *what = g_strdup_printf (_("a stroke has 1 to %d points"), POINTS_MAX);
      refuse (w, what, t[4]);
      return NULL;
    }
  gsize size = sizeof head + (gsize) head.n * 2 * sizeof (float);
  g_autofree guint8 *data = g_malloc (size);
  memcpy (data, &head, sizeof head);
  float *uv = (float *) (data + sizeof head);
  for (guint32 i = 0; i < head.n; i++)
    if (!parse_floats (w, i == 0 ? t[4] + 7 : t[4 + i], uv + 2 * i, 2, -COORD_MAX, COORD_MAX))
      return NULL;
  return g_bytes_new_take (g_steal_pointer (&data), size);
}

/* KEY "<prefix><N>" or "<prefix><N>.<M>": N (and M) from 1, without leading zeros. */
static gboolean
key_numbers (const char *key, const char *prefix, guint *a, guint *b)
{
  gsize len = strlen (prefix);
  if (strncmp (key, prefix, len) != 0)
    return FALSE;
  const char *p = key + len;
  char *end;
  if (!g_ascii_isdigit (*p) || *p == '0')
    return FALSE;
  guint64 v = g_ascii_strtoull (p, &end, 10);
  if (v > 100000)
    return FALSE;
  *a = (guint) v;
  if (b == NULL)
    return *end == '\0';
  if (*end != '.' || !g_ascii_isdigit (end[1]) || end[1] == '0')
    return FALSE;
  v = g_ascii_strtoull (end + 1, &end, 10);
  *b = (guint) MIN (v, 100000);
  return *end == '\0';
}

typedef struct {
  LmMask mask;
  gboolean shape_seen[LM_MASK_SHAPES_MAX];
  GBytes *strokes[LM_MASK_SHAPES_MAX][STROKES_MAX];
} Reading;

static void
reading_free (Reading *r)
{
  for (int s = 0; s < LM_MASK_SHAPES_MAX; s++)
    for (int k = 0; k < STROKES_MAX; k++)
      g_clear_pointer (&r->strokes[s][k], g_bytes_unref);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Reading, reading_free)

static gboolean
known_key (const char *key)
{
  static const char *const plain[] = { LM_PARAMS_VERSION_KEY, "opacity", "feather", "detail", "invert" };
  guint a, b;
  return lookup (plain, G_N_ELEMENTS (plain), key) >= 0 || lookup (ranges, 3, key) >= 0
         || (key_numbers (key, "shape", &a, NULL) && a <= LM_MASK_SHAPES_MAX)
         || (key_numbers (key, "stroke", &a, &b) && a <= LM_MASK_SHAPES_MAX && b <= STROKES_MAX);
}

static gboolean
read_key (Reading *r, GKeyFile *keyfile, const Where *w)
{
  /* Known first: an unknown key's message quotes it, whatever bytes it has. */
  if (!known_key (w->key))
    return lm_sidecar_unknown_key (w->group, w->key, w->error);
  g_autofree char *value = lm_sidecar_get_value (keyfile, w->group, w->key, w->error);
  if (value == NULL)
    return FALSE;
  LmMask *m = &r->mask;
  const char *key = w->key;
  guint a, b;
  if (g_str_equal (key, LM_PARAMS_VERSION_KEY))
    {
      if (g_str_equal (value, "1"))
        return TRUE;
      return refuse (w, _("a mask of another version than this Lumen reads (1)"), value);
    }
  if (g_str_equal (key, "opacity"))
    return parse_floats (w, value, &m->opacity, 1, 0, 1);
  if (g_str_equal (key, "feather"))
    return parse_floats (w, value, &m->feather, 1, 0, 1);
  if (g_str_equal (key, "detail"))
    return parse_floats (w, value, &m->detail, 1, 0, 1);
  if (g_str_equal (key, "invert"))
    {
      if (!g_str_equal (value, "true") && !g_str_equal (value, "false"))
        return refuse (w, _("not true or false"), value);
      m->invert = g_str_equal (value, "true");
      return TRUE;
    }
  int r_index = lookup (ranges, 3, key);
  if (r_index >= 0)
    {
      LmMaskRange *range = range_of (m, r_index);
      double lo = r_index == 0 ? -64 : r_index == 1 ? -360 : 0, hi = r_index == 0 ? 64 : r_index == 1 ? 720 : 1;
      if (!parse_floats (w, value, &range->lo0, 4, lo, hi))
        return FALSE;
      /* Hue wraps (350,355,5,10 is red); the others rise, then fall. */
      if (r_index != 1 && !(range->lo0 <= range->lo1 && range->lo1 <= range->hi1 && range->hi1 <= range->hi0))
        return refuse (w, _("a range's four numbers rise (lo0 ≤ lo1 ≤ hi1 ≤ hi0)"), value);
      range->on = 1;
      return TRUE;
    }
  if (key_numbers (key, "shape", &a, NULL) && a <= LM_MASK_SHAPES_MAX)
    {
      r->shape_seen[a - 1] = TRUE;
      return parse_shape (w, value, &m->shape[a - 1]);
    }
  if (key_numbers (key, "stroke", &a, &b) && a <= LM_MASK_SHAPES_MAX && b <= STROKES_MAX)
    return (r->strokes[a - 1][b - 1] = parse_stroke (w, value)) != NULL;
  return lm_sidecar_unknown_key (w->group, key, w->error);
}

/* Shapes numbered from 1 without a gap, strokes of brushes only, each brush's numbered from 1
 * without a gap; the strokes into the blob store. */
static gboolean
finish (Reading *r, const char *group, GError **error)
{
  LmMask *m = &r->mask;
  m->n_shapes = 0;
  while (m->n_shapes < LM_MASK_SHAPES_MAX && r->shape_seen[m->n_shapes])
    m->n_shapes++;
  for (guint s = m->n_shapes; s < LM_MASK_SHAPES_MAX; s++)
    if (r->shape_seen[s])
      {
        g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] shape%u: shape%u is missing"), group, s + 1,
                     m->n_shapes + 1);
        return FALSE;
      }
  for (guint s = 0; s < LM_MASK_SHAPES_MAX; s++)
    {
      guint n = 0;
      while (n < STROKES_MAX && r->strokes[s][n])
        n++;
      for (guint k = n; k < STROKES_MAX; k++)
        if (r->strokes[s][k])
          {
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] stroke%u.%u: stroke%u.%u is missing"), group,
                         s + 1, k + 1, s + 1, n + 1);
            return FALSE;
          }
      if (n > 0 && (s >= m->n_shapes || m->shape[s].kind != LM_MASK_BRUSH))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s] stroke%u.1: shape%u is not a brush"), group,
                       s + 1, s + 1);
          return FALSE;
        }
      if (n == 0)
        continue;
      guint64 keys[STROKES_MAX];
      for (guint k = 0; k < n; k++)
        {
          gsize size;
          const void *data = g_bytes_get_data (r->strokes[s][k], &size);
          keys[k] = lm_blob_intern (data, size);
        }
      m->shape[s].strokes = lm_blob_intern (keys, n * sizeof (guint64));
    }
  return TRUE;
}

gboolean
lm_sidecar_read_mask (LmPipeline *pipeline, GKeyFile *keyfile, const char *group, GError **error)
{
  g_autofree char *instance = g_strndup (group, strlen (group) - strlen (" mask"));
  LmStage *stage = lm_sidecar_stage_of_group (pipeline, instance, 2, NULL);
  if (stage == NULL)
    {
      g_autofree char *quoted = lm_text_quote (group, -1);
      g_autofree char *of = lm_text_quote (instance, -1);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("[%s]: there is no instance [%s] for it"), quoted, of);
      return FALSE;
    }
  g_autoptr (Reading) r = g_new0 (Reading, 1);
  /* Before its keys: what a mask group that names none of them is. */
  memset (&r->mask, 0, sizeof r->mask);
  r->mask.opacity = 1.0f;
  g_auto (GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);
  for (int k = 0; keys && keys[k] != NULL; k++)
    {
      Where w = { group, keys[k], error };
      if (!read_key (r, keyfile, &w))
        return FALSE;
    }
  if (!finish (r, group, error))
    return FALSE;
  if (!lm_pipeline_mask_attach (pipeline, (guint) (stage - pipeline->inst), &r->mask, error))
    {
      g_prefix_error (error, "[%s]: ", group);
      return FALSE;
    }
  return TRUE;
}
