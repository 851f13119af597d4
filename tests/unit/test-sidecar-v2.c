/* Version 2 of the sidecar (core/edit/sidecar-instances.c, sidecar-masks.c): instances and
 * masks read as written by hand, written back to the same text, every refusal with its own
 * message; a version 1 sidecar written by Lumen before instances loads as before and is
 * written as version 1 again, byte for byte. */
#include <string.h>

#include "core/edit/blob-store.h"
#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/io/text-input.h"
#include "test-util.h"

/* Hand-written: two exposures (the second named, masked by every kind of shape, a range and
 * a brush of two strokes), a blur instance moved before equalize. Values as Lumen writes
 * them ("%.9g"), groups in its order. */
static const char v2_text[] = "[lumen]\n"
                              "version=2\n"
                              "order=rotate,straighten,crop,wb,exposure,exposure#70,contrast,curve,saturation,"
                              "gray,blur#71,equalize,blur,resize\n"
                              "\n"
                              "[exposure#70]\n"
                              "name=Sky ☁\n"
                              "enabled=true\n"
                              "ev=-0.7\n"
                              "\n"
                              "[exposure#70 mask]\n"
                              "opacity=0.8\n"
                              "invert=false\n"
                              "feather=0.004\n"
                              "detail=0.1\n"
                              "luminance=0.55,0.7,1,1\n"
                              "hue=350,355,10,20\n"
                              "shape1=linear add from=0.5,0.05 to=0.5,0.35\n"
                              "shape2=radial subtract invert opacity=0.5 centre=0.62,0.2 radii=0.08,0.05 angle=20 "
                              "softness=0.5\n"
                              "shape3=brush add\n"
                              "stroke3.1=paint size=0.02 hardness=0.6 opacity=1 points=0.41,0.12 0.43,0.125 0.46,0.13\n"
                              "stroke3.2=erase size=0.01 hardness=0 opacity=0.25 points=0.42,0.12\n"
                              "\n"
                              "[blur#71]\n"
                              "name=Soft\n"
                              "enabled=true\n"
                              "sigma=1.5\n";

static gboolean
read_text (const char *text, LmPipeline *p, GError **error)
{
  lm_pipeline_init (p);
  return lm_pipeline_from_text (p, text, strlen (text), error);
}

static char *
write_text (const LmPipeline *p)
{
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (p);
  return g_key_file_to_data (keyfile, NULL, NULL);
}

static const LmStage *
find (const LmPipeline *p, guint32 id)
{
  int at = lm_pipeline_find (p, id);
  g_assert_cmpint (at, >=, 0);
  return &p->inst[at];
}

static void
test_read (void)
{
  LmPipeline p;
  GError *error = NULL;
  g_assert_true (read_text (v2_text, &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.n, ==, LM_N_OPS + 2);
  const LmStage *sky = find (&p, 70), *soft = find (&p, 71);
  g_assert_true (sky == lm_pipeline_stage (&p, LM_OP_EXPOSURE) + 1);
  g_assert_true (soft + 1 == lm_pipeline_stage (&p, LM_OP_EQUALIZE));
  g_assert_cmpstr (sky->name, ==, "Sky ☁");
  g_assert_true (sky->enabled);
  g_assert_cmpfloat (sky->params.exposure.ev, ==, -0.7f);
  g_assert_cmpfloat (soft->params.blur.sigma, ==, 1.5f);
  g_assert_false (lm_pipeline_stage (&p, LM_OP_EXPOSURE)->enabled);
  g_assert_cmpint (soft->mask, ==, -1);
  g_assert_cmpuint (p.next_id, ==, 72);

  const LmMask *m = lm_pipeline_stage_mask (&p, sky);
  g_assert_nonnull (m);
  g_assert_cmpfloat (m->opacity, ==, 0.8f);
  g_assert_cmpfloat (m->feather, ==, 0.004f);
  g_assert_cmpfloat (m->detail, ==, 0.1f);
  g_assert_true (m->luminance.on && m->hue.on && !m->saturation.on);
  g_assert_cmpfloat (m->luminance.lo1, ==, 0.7f);
  g_assert_cmpfloat (m->hue.lo0, ==, 350.0f);
  g_assert_cmpuint (m->n_shapes, ==, 3);
  g_assert_cmpint (m->shape[0].kind, ==, LM_MASK_LINEAR);
  g_assert_cmpfloat (m->shape[0].g[3], ==, 0.35f);
  g_assert_cmpint (m->shape[1].kind, ==, LM_MASK_RADIAL);
  g_assert_cmpint (m->shape[1].combine, ==, LM_MASK_SUBTRACT);
  g_assert_true (m->shape[1].invert);
  g_assert_cmpfloat (m->shape[1].opacity, ==, 0.5f);
  float radial[6] = { 0.62f, 0.2f, 0.08f, 0.05f, 20, 0.5f };
  g_assert_cmpmem (m->shape[1].g, sizeof radial, radial, sizeof radial);
  g_assert_cmpint (m->shape[2].kind, ==, LM_MASK_BRUSH);

  /* The brush: a list of two stroke keys, each stroke its head and points. */
  g_autoptr (GBytes) list = lm_blob_lookup (m->shape[2].strokes);
  g_assert_nonnull (list);
  g_assert_cmpuint (g_bytes_get_size (list), ==, 2 * sizeof (guint64));
  const guint64 *keys = g_bytes_get_data (list, NULL);
  g_autoptr (GBytes) first = lm_blob_lookup (keys[0]), second = lm_blob_lookup (keys[1]);
  LmMaskStrokeHead head;
  g_assert_cmpuint (g_bytes_get_size (first), ==, sizeof head + 3 * 2 * sizeof (float));
  memcpy (&head, g_bytes_get_data (first, NULL), sizeof head);
  g_assert_true (head.erase == 0 && head.n == 3 && head.size == 0.02f && head.hardness == 0.6f && head.opacity == 1);
  const float *uv = (const float *) ((const guint8 *) g_bytes_get_data (first, NULL) + sizeof head);
  float want[6] = { 0.41f, 0.12f, 0.43f, 0.125f, 0.46f, 0.13f };
  g_assert_cmpmem (uv, sizeof want, want, sizeof want);
  memcpy (&head, g_bytes_get_data (second, NULL), sizeof head);
  g_assert_true (head.erase == 1 && head.n == 1 && head.opacity == 0.25f);
}

/* Written: version 2, the order and the hand-written groups as they were; written again from
 * what that reads: the same text, and the same stroke keys. */
static void
test_round_trip (void)
{
  LmPipeline p, again;
  g_assert_true (read_text (v2_text, &p, NULL));
  g_autofree char *text = write_text (&p);
  g_assert_true (g_str_has_prefix (text, "[lumen]\nversion=2\norder=lens,rotate,straighten,crop,denoise,wb,exposure,exposure#70,"));
  const char *from = strstr (v2_text, "[exposure#70]");
  const char *to = strstr (v2_text, "[blur#71]");
  g_autofree char *groups = g_strndup (from, to - from);
  g_assert_nonnull (strstr (text, groups)); /* the instance and its mask, line for line */
  g_assert_nonnull (strstr (text, "[blur#71]\nname=Soft\nenabled=true\nsigma=1.5\n"));
  GError *error = NULL;
  g_assert_true (read_text (text, &again, &error));
  g_assert_no_error (error);
  g_assert_true (lm_pipeline_equal (&p, &again));
  g_autofree char *twice = write_text (&again);
  g_assert_cmpstr (text, ==, twice);
}

/* TEXT holds every group of FILE, line for line, in FILE's order; what else it holds is an
 * operation newer than FILE at its defaults, off. */
static void
assert_file_kept (const char *text, const char *file)
{
  g_auto (GStrv) groups = g_strsplit (file, "\n\n", -1);
  const char *from = text;
  for (guint i = 0; groups[i] != NULL; i++)
    {
      const char *at = strstr (from, groups[i]);
      g_assert_nonnull (at);
      from = at + strlen (groups[i]);
    }
  g_auto (GStrv) written = g_strsplit (text, "\n\n", -1);
  for (guint i = 0; written[i] != NULL; i++)
    if (strstr (file, written[i]) == NULL)
      g_assert_nonnull (strstr (written[i], "\nenabled=false\n"));
}

/* Written by Lumen 11587a5, before instances: read as before, written back the same (with
 * the operations added since as groups of their own, off). */
static void
test_v1_stays_v1 (void)
{
  g_autofree char *path = g_build_filename (lm_test_data_dir (), "sidecars", "v1-main.lumen", NULL);
  gsize len;
  g_autofree char *file = lm_text_file_read (path, LM_TEXT_FILE_ANY, &len, NULL);
  g_assert_nonnull (file);
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *error = NULL;
  g_assert_true (lm_pipeline_load_sidecar (&p, path, &error));
  g_assert_no_error (error);
  g_assert_true (lm_pipeline_is_primary_only (&p));
  g_assert_cmpfloat (lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev, ==, 0.3f);
  g_assert_cmpfloat (lm_pipeline_stage (&p, LM_OP_BLUR)->params.blur.sigma, ==, 2.5f);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_ROTATE)->enabled);
  g_autofree char *text = write_text (&p);
  g_assert_true (g_str_has_prefix (text, "[lumen]\nversion=1\n"));
  assert_file_kept (text, file);

  /* An instance added and removed again: version 1 once more. */
  int at;
  g_assert_true (lm_pipeline_add (&p, LM_OP_BLUR, &at, NULL));
  g_autofree char *v2 = write_text (&p);
  g_assert_nonnull (strstr (v2, "version=2\norder="));
  lm_pipeline_remove (&p, at);
  g_autofree char *back = write_text (&p);
  g_assert_cmpstr (back, ==, text);
}

/* TEXT (v2_text with FROM replaced by TO) refused, the message one line with MUST in it. */
static void
assert_refused (const char *from, const char *to, const char *must)
{
  const char *at = strstr (v2_text, from);
  g_assert_nonnull (at);
  g_autofree char *head = g_strndup (v2_text, at - v2_text);
  g_autofree char *text = g_strconcat (head, to, at + strlen (from), NULL);
  LmPipeline p;
  GError *error = NULL;
  g_assert_false (read_text (text, &p, &error));
  g_assert_nonnull (error);
  /* The hostile text shown as valid UTF-8: TAP readers refuse a line that is not. */
  g_autofree char *shown = g_utf8_make_valid (to, -1);
  g_test_message ("%s → %s", shown, error->message);
  g_assert_true (error->domain == LUMEN_ERROR);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  if (strstr (error->message, must) == NULL)
    g_error ("“%s” does not say “%s”", error->message, must);
  g_error_free (error);
}

static void
test_refused (void)
{
  /* The instances. */
  assert_refused (",exposure#70,", ",", "[exposure#70] is not in [lumen] order");
  assert_refused ("blur#71,equalize", "exposure#70,equalize", "exposure#70 is listed twice");
  assert_refused ("blur#71,equalize", "blur#70,equalize", "listed twice");
  assert_refused ("exposure,exposure#70", "exposure,exposure,exposure#70", "listed twice");
  assert_refused ("crop,wb", "crop,crop#72,wb", "[crop#72]: this operation runs once");
  assert_refused ("blur#71,", "blur#7,", "an instance's id is a number from 64");
  assert_refused ("blur#71,", "blur#071,", "an instance's id is a number from 64");
  assert_refused ("blur#71,", "blur#4294967295,", "an instance's id is a number from 64");
  assert_refused ("blur#71,", "sharpness#71,", "unknown operation [sharpness#71]");
  assert_refused ("rotate,straighten", "straighten,rotate", "geometry");
  assert_refused ("blur,resize", "resize,blur", "resize comes last");
  assert_refused ("[blur#71]", "[blur#71 mask]\n[blur#72]", "[blur#72] is not in [lumen] order");
  assert_refused ("[blur#71]", "[blur#73 mask]\nopacity=1\n[blur#71]", "[blur#73 mask]: there is no instance [blur#73]");
  assert_refused ("version=2\n", "version=1\n", "unknown parameter “order”");
  assert_refused ("name=Soft", "name=Soft\\nand more", "is not a name");
  assert_refused ("name=Soft", "name=Soft Soft Soft Soft Soft Soft Soft Soft Soft Soft", "is not a name");
  /* The mask. */
  assert_refused ("opacity=0.8", "opacity=1.5", "[exposure#70 mask] opacity: not a number from 0 to 1");
  assert_refused ("opacity=0.8", "opacity=nan", "not a number from 0 to 1");
  assert_refused ("invert=false", "invert=maybe", "not true or false");
  assert_refused ("invert=false", "invert=false\nversion=2", "another version");
  assert_refused ("invert=false", "invert=false\nblend=screen", "unknown parameter “blend”");
  assert_refused ("invert=false", "invert=false\nsaturat\x97on=0,0.1,0.\xfe\xff", "unknown parameter “saturat\\x97on”");
  assert_refused ("luminance=0.55,0.7,1,1", "luminance=0.7,0.55,1,1", "rise");
  assert_refused ("luminance=0.55,0.7,1,1", "luminance=0.55,0.7,1", "count of numbers");
  assert_refused ("shape1=linear add", "shape1=spiral add", "not a shape");
  assert_refused ("shape1=linear add", "shape1=linear xor", "not a shape");
  assert_refused (" to=0.5,0.35", "", "a linear gradient takes from= and to=");
  assert_refused (" to=0.5,0.35", " to=0.5,0.05", "ends are one point");
  assert_refused (" to=0.5,0.35", " to=0.5,0.35 to=0.5,0.35", "given twice");
  assert_refused ("radii=0.08,0.05", "radii=0,0.05", "not a number from");
  assert_refused (" softness=0.5", "", "a radial gradient takes centre=");
  assert_refused ("shape3=brush add", "shape3=brush add from=0,0", "not a part of this shape");
  assert_refused ("shape3=brush add\n", "shape4=brush add\n", "shape3 is missing");
  assert_refused ("shape3=brush add", "shape3=radial add centre=0,0 radii=1,1 angle=0 softness=0",
                  "stroke3.1: shape3 is not a brush");
  assert_refused ("stroke3.2", "stroke3.3", "stroke3.2 is missing");
  assert_refused ("stroke3.2", "stroke1.1", "shape1 is not a brush");
  assert_refused ("stroke3.2=erase", "stroke3.2=smudge", "not a stroke");
  assert_refused ("hardness=0 ", "", "not a stroke");
  assert_refused ("points=0.42,0.12", "points=", "1 to 4096 points");
  assert_refused ("points=0.42,0.12", "points=0.42,0.12  0.5,0.5", "count of numbers");
  assert_refused ("points=0.42,0.12", "points=0.42,1e9", "not a number from -16 to 16");

  /* A stroke of 4097 points. */
  g_autoptr (GString) many = g_string_new ("points=0.42,0.12");
  for (int i = 0; i < 4096; i++)
    g_string_append (many, " 0.5,0.5");
  assert_refused ("points=0.42,0.12", many->str, "1 to 4096 points");

  /* Nine masks: one more than a pipeline holds. */
  g_autoptr (GString) nine = g_string_new ("[lumen]\nversion=2\norder=rotate,straighten,crop,wb,exposure");
  for (int i = 0; i < 9; i++)
    g_string_append_printf (nine, ",exposure#%d", 64 + i);
  g_string_append (nine, ",contrast,curve,saturation,gray,equalize,blur,resize\n");
  for (int i = 0; i < 9; i++)
    g_string_append_printf (nine, "[exposure#%d mask]\nopacity=1\n", 64 + i);
  LmPipeline p;
  GError *error = NULL;
  g_assert_false (read_text (nine->str, &p, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "[exposure#72 mask]: the edit has 8 masks already"));
  g_clear_error (&error);
}

/* A file that lists too many instances, and one that names no order but has a # group. */
static void
test_refused_whole (void)
{
  g_autoptr (GString) text = g_string_new ("[lumen]\nversion=2\norder=rotate,straighten,crop");
  for (int i = 0; i < LM_PIPELINE_MAX; i++)
    g_string_append_printf (text, ",blur#%d", 64 + i);
  g_string_append_c (text, '\n');
  LmPipeline p;
  GError *error = NULL;
  g_assert_false (read_text (text->str, &p, &error));
  g_assert_nonnull (strstr (error->message, "more than"));
  g_clear_error (&error);
  g_assert_false (read_text ("[lumen]\nversion=2\n[blur#64]\nenabled=true\n", &p, &error));
  g_assert_nonnull (strstr (error->message, "[blur#64] is not in [lumen] order"));
  g_clear_error (&error);
  g_assert_false (read_text ("[blur#64]\nenabled=true\n", &p, &error)); /* version 1 */
  g_assert_nonnull (strstr (error->message, "unknown operation [blur#64]"));
  g_clear_error (&error);
  g_assert_false (read_text ("[blur mask]\nopacity=1\n", &p, &error));
  g_assert_nonnull (strstr (error->message, "unknown operation [blur mask]"));
  g_clear_error (&error);
}

/* Operations newer than the file (not in its order) keep their place; a masked primary. */
static void
test_order_partial (void)
{
  LmPipeline p;
  GError *error = NULL;
  g_assert_true (read_text ("[lumen]\nversion=2\norder=rotate,straighten,crop,blur#64,exposure\n"
                            "[blur#64]\nenabled=true\n[exposure mask]\nshape1=radial add centre=0.5,0.5 "
                            "radii=0.2,0.2 angle=0 softness=1\n",
                            &p, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (p.n, ==, LM_N_OPS + 1);
  /* Lens correction first, having nothing before it in the registry; noise reduction after
   * crop and white balance after it, each after the last before it in the registry; contrast
   * after exposure. */
  g_assert_true (p.inst[0].info->id == LM_OP_LENS);
  g_assert_true (p.inst[3].info->id == LM_OP_CROP);
  g_assert_true (p.inst[4].info->id == LM_OP_DENOISE);
  g_assert_true (p.inst[5].info->id == LM_OP_WB);
  g_assert_cmpuint (p.inst[6].id, ==, 64);
  g_assert_true (p.inst[7].info->id == LM_OP_EXPOSURE);
  g_assert_true (p.inst[8].info->id == LM_OP_CONTRAST);
  g_assert_true (p.inst[p.n - 1].info->id == LM_OP_RESIZE);
  g_assert_nonnull (lm_pipeline_stage_mask (&p, lm_pipeline_stage (&p, LM_OP_EXPOSURE)));
  g_autofree char *text = write_text (&p);
  g_assert_nonnull (strstr (text, "[exposure mask]\nopacity=1\ninvert=false\nfeather=0\ndetail=0\nshape1=radial add "
                                  "centre=0.5,0.5 radii=0.2,0.2 angle=0 softness=1\n"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sidecar-v2/read", test_read);
  g_test_add_func ("/sidecar-v2/round-trip", test_round_trip);
  g_test_add_func ("/sidecar-v2/v1-stays-v1", test_v1_stays_v1);
  g_test_add_func ("/sidecar-v2/refused", test_refused);
  g_test_add_func ("/sidecar-v2/refused-whole", test_refused_whole);
  g_test_add_func ("/sidecar-v2/order-partial", test_order_partial);
  return g_test_run ();
}
