/* Operations' parameter versions in the sidecar (core/edit/pipeline.c): each group says its
 * version; a sidecar written in today's form (no version, or version 1) still reads once an
 * operation's parameters move to version 2, through its legacy_params; a group of a version
 * newer than the operation's is refused with a message that says so. The version-2 operation
 * is made here: exposure as it might grow, its EV renamed "stops" and a new parameter
 * "offset" (its default keeps the old look), declared once as every operation is. */
#include <string.h>

#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/ops/ops.h"
#include "test-util.h"

/* Exposure's parameters at version 2. */
#define EXPOSURE_V2_PARAMS(P)                                                                      \
  P (FLOAT, stops, "Exposure (EV)", -5, 5, 0, 0.01, "EV")                                          \
  P (FLOAT, offset, "Black offset", -0.1, 0.1, 0, 0.001, NULL)

typedef struct {
  EXPOSURE_V2_PARAMS (LM_PARAM_FIELD)
} ExposureV2Params;

#define LM_PARAM_STRUCT ExposureV2Params
static const LmParamSpec exposure_v2_specs[] = { EXPOSURE_V2_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static guint legacy_calls;

/* Version 1 → 2: "ev" is now "stops"; "offset" is new, its default what version 1 did. */
static gboolean
exposure_v2_legacy (GKeyFile *keyfile, const char *group, guint from, GError **error)
{
  g_assert_cmpuint (from, ==, 1);
  legacy_calls++;
  g_autofree char *ev = g_key_file_get_value (keyfile, group, "ev", NULL);
  if (ev != NULL)
    {
      g_key_file_set_value (keyfile, group, "stops", ev);
      g_key_file_remove_key (keyfile, group, "ev", NULL);
    }
  return TRUE;
}

static LmOpInfo exposure_v2;

static void
make_exposure_v2 (void)
{
  exposure_v2 = lm_exposure_op;
  exposure_v2.params = exposure_v2_specs;
  exposure_v2.n_params = G_N_ELEMENTS (exposure_v2_specs);
  exposure_v2.params_size = sizeof (ExposureV2Params);
  exposure_v2.version = 2;
  exposure_v2.legacy_params = exposure_v2_legacy;
  exposure_v2.commit = NULL;
}

/* TEXT's group GROUP read into a fresh stage of INFO. */
static gboolean
read_group (const LmOpInfo *info, const char *text, const char *group, LmStage *stage, GError **error)
{
  g_autoptr (GKeyFile) keyfile = g_key_file_new ();
  g_assert_true (g_key_file_load_from_data (keyfile, text, -1, G_KEY_FILE_NONE, NULL));
  memset (stage, 0, sizeof *stage);
  stage->info = info;
  lm_op_params_init (info, stage->params.bytes);
  gboolean ok = lm_stage_from_keyfile (stage, keyfile, group, TRUE, error);
  /* The caller's key file is left as it was: the upgrade works on a copy. */
  if (g_key_file_has_group (keyfile, group) && g_key_file_has_key (keyfile, group, "ev", NULL))
    g_assert_false (g_key_file_has_key (keyfile, group, "stops", NULL));
  return ok;
}

/* Today's sidecars, as lumen-cli --params-out and the window write them (and one typed by
 * hand, without versions), read by exposure's version 2. */
static void
test_today_reads_after_version_2 (void)
{
  make_exposure_v2 ();
  const char *texts[] = {
    "[lumen]\nversion=1\n\n[exposure]\nversion=1\nenabled=true\nev=0.7\n",
    "[lumen]\nversion=1\n\n[exposure]\nenabled=true\nev=0.7\n",
    "[exposure]\nenabled=true\nev=0.7\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      legacy_calls = 0;
      LmStage stage;
      g_autoptr (GError) e = NULL;
      g_assert_true (read_group (&exposure_v2, texts[i], "exposure", &stage, &e));
      g_assert_no_error (e);
      const ExposureV2Params *p = (const ExposureV2Params *) stage.params.bytes;
      g_assert_true (stage.enabled);
      g_assert_cmpfloat (p->stops, ==, 0.7f);
      g_assert_cmpfloat (p->offset, ==, 0.0f);
      g_assert_cmpuint (legacy_calls, ==, 1);
    }

  /* A group of version 2 is read as it is: no upgrade. */
  legacy_calls = 0;
  LmStage stage;
  g_assert_true (read_group (&exposure_v2, "[exposure]\nversion=2\nenabled=true\nstops=-1\noffset=0.05\n",
                             "exposure", &stage, NULL));
  g_assert_cmpuint (legacy_calls, ==, 0);
  g_assert_cmpfloat (((const ExposureV2Params *) stage.params.bytes)->offset, ==, 0.05f);

  /* Without the upgrade, today's key is unknown to version 2: the hook is what reads it. */
  exposure_v2.legacy_params = NULL;
  g_autoptr (GError) e = NULL;
  g_assert_false (read_group (&exposure_v2, texts[0], "exposure", &stage, &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
  g_assert_nonnull (strstr (e->message, "ev"));
}

/* A group of a parameter version newer than this Lumen's operation: one line that says so,
 * naming the group, through the whole sidecar reader and with the file's name. */
static void
test_newer_version_refused (void)
{
  const char *text = "[lumen]\nversion=1\n[exposure]\nversion=2\nenabled=true\nstops=1\n";
  LmPipeline p;
  lm_pipeline_init (&p);
  g_autoptr (GError) e = NULL;
  g_assert_false (lm_pipeline_from_text (&p, text, strlen (text), &e));
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
  g_assert_cmpstr (e->message, ==,
                   "[exposure]: parameters written by a newer Lumen (version 2); this one reads version 1");
  g_assert_null (strchr (e->message, '\n'));

  g_autofree char *path = lm_test_write_tmp ("newer-exposure.lumen", text, strlen (text));
  g_clear_error (&e);
  g_assert_false (lm_pipeline_load_sidecar (&p, path, &e));
  g_assert_nonnull (strstr (e->message, "newer-exposure.lumen: [exposure]: parameters written by a newer Lumen"));

  /* Tone mapping's group too, and versions that are no version. */
  const struct {
    const char *text, *message;
  } bad[] = {
    { "[tonemap]\nversion=5\n", "[tonemap]: parameters written by a newer Lumen (version 5)" },
    { "[blur]\nversion=123456789012345678901234567890\n", "[blur]: parameters written by a newer Lumen" },
    { "[blur]\nversion=0\n", "[blur] version: “0” is not a version" },
    { "[blur]\nversion=two\n", "“two”" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_clear_error (&e);
      lm_pipeline_init (&p);
      g_assert_false (lm_pipeline_from_text (&p, bad[i].text, strlen (bad[i].text), &e));
      g_assert_nonnull (strstr (e->message, bad[i].message));
    }
}

/* A group says its version from version 2 on; at version 1 it says none, so that the text is
 * what a Lumen from before parameter versions writes and reads. Either way the text reads
 * back to the same edits. */
static void
test_versions_written (void)
{
  LmPipeline p, back;
  lm_pipeline_init (&p);
  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->enabled = TRUE;
  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev = 0.7f;
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&p);
  for (int i = 0; i < LM_N_OPS; i++)
    g_assert_false (g_key_file_has_key (keyfile, lm_op_info (i)->name, "version", NULL));
  /* Tone mapping is at version 2 (the sigmoid's parameters). */
  g_assert_cmpint (g_key_file_get_integer (keyfile, "tonemap", "version", NULL), ==, 2);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  g_assert_nonnull (strstr (text, "[exposure]\nenabled=true\nev=0.7\n"));
  lm_pipeline_init (&back);
  g_assert_true (lm_pipeline_from_text (&back, text, strlen (text), NULL));
  g_assert_true (lm_pipeline_equal (&p, &back));

  /* Exposure at version 2 says so. */
  make_exposure_v2 ();
  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->info = &exposure_v2;
  g_autoptr (GKeyFile) v2 = lm_pipeline_to_keyfile (&p);
  g_assert_cmpint (g_key_file_get_integer (v2, "exposure", "version", NULL), ==, 2);
  g_assert_false (g_key_file_has_key (v2, "blur", "version", NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/params/version/today-reads-after-version-2", test_today_reads_after_version_2);
  g_test_add_func ("/params/version/newer-refused", test_newer_version_refused);
  g_test_add_func ("/params/version/written", test_versions_written);
  return g_test_run ();
}
