/* Presets (core/library/presets.h): saved, listed, renamed, deleted, imported, exported and
 * applied to a photo's sidecar, in a data folder of the test's own; bad names and bad files
 * refused with one line naming them. */
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/library/presets.h"
#include "test-util.h"

static char *
read_all (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static const LmPreset *
find (GPtrArray *list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (((LmPreset *) g_ptr_array_index (list, i))->name, name))
      return g_ptr_array_index (list, i);
  return NULL;
}

static void
assert_one_line (const GError *error, const char *names)
{
  g_assert_nonnull (error);
  g_assert_null (strchr (error->message, '\n'));
  if (names)
    g_assert_nonnull (strstr (error->message, names));
}

static void
test_builtin (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = lm_presets_list (&error);
  g_assert_no_error (error);
  const char *names[] = { "Black and white", "High contrast", "Warm", "Cool", "Vivid", "Faded" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const LmPreset *p = find (list, names[i]);
      g_assert_nonnull (p);
      g_assert_true (p->builtin);
      /* Each reads as a sidecar, and has something on. */
      LmPipeline pipeline;
      g_assert_true (lm_preset_load (p->path, &pipeline, &error));
      g_assert_false (lm_sidecar_is_default (&pipeline));
    }
  LmPipeline bw;
  g_autofree char *path = lm_preset_resolve ("Black and white", &error);
  g_assert_nonnull (path);
  g_assert_true (lm_preset_load (path, &bw, NULL));
  g_assert_true (lm_pipeline_primary (&bw, LM_OP_GRAY)->enabled);
  /* Sorted as read. */
  for (guint i = 1; i < list->len; i++)
    g_assert_cmpint (g_utf8_collate (((LmPreset *) list->pdata[i - 1])->name, ((LmPreset *) list->pdata[i])->name),
                     <=, 0);
  /* A built-in cannot be removed or renamed. */
  g_assert_false (lm_preset_delete ("Warm", &error));
  assert_one_line (error, "Warm");
  g_clear_error (&error);
  g_assert_false (lm_preset_rename ("Warm", "Hot", &error));
  assert_one_line (error, "Warm");
}

static void
test_names (void)
{
  const char *bad[] = { "", "a/b", ".hidden", " lead", "trail ", "tab\there", "new\nline", "\xff\xfe" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (lm_preset_name_check (bad[i], &error));
      assert_one_line (error, NULL);
    }
  char longest[LM_PRESET_NAME_MAX + 2];
  memset (longest, 'a', sizeof longest);
  longest[LM_PRESET_NAME_MAX] = '\0';
  g_assert_true (lm_preset_name_check (longest, NULL));
  longest[LM_PRESET_NAME_MAX] = 'a';
  longest[LM_PRESET_NAME_MAX + 1] = '\0';
  g_assert_false (lm_preset_name_check (longest, NULL));
  g_assert_true (lm_preset_name_check ("Été 2024 — chaud", NULL));
}

static void
test_save_and_manage (void)
{
  g_autoptr (GError) error = NULL;
  LmPipeline edits;
  lm_pipeline_init (&edits);
  lm_test_set_param (&edits, "exposure", "ev", "0.7");
  lm_test_set_param (&edits, "crop", "width", "10");
  lm_test_set_param (&edits, "saturation", "saturation", "0.4");
  LmOpSelection sel;
  lm_op_selection_default (&sel, &edits);
  lm_op_selection_set_op (&sel, &edits, LM_OP_SATURATION, FALSE);
  g_autofree char *path = lm_preset_save ("Bright", &edits, &sel, FALSE, &error);
  g_assert_no_error (error);
  g_autofree char *dir = lm_presets_user_dir ();
  g_autofree char *want = g_build_filename (dir, "Bright.lumen", NULL);
  g_assert_cmpstr (path, ==, want);
  /* What was chosen is in it, and only that. */
  LmPipeline back;
  g_assert_true (lm_preset_load (path, &back, &error));
  g_assert_true (lm_pipeline_primary (&back, LM_OP_EXPOSURE)->enabled);
  g_assert_false (lm_pipeline_primary (&back, LM_OP_CROP)->enabled);
  g_assert_false (lm_pipeline_primary (&back, LM_OP_SATURATION)->enabled);
  /* Not over itself unless asked. */
  g_assert_null (lm_preset_save ("Bright", &edits, NULL, FALSE, &error));
  assert_one_line (error, "Bright");
  g_clear_error (&error);
  g_autofree char *again = lm_preset_save ("Bright", &edits, NULL, TRUE, &error);
  g_assert_no_error (error);
  /* A person's preset hides a built-in of its name. */
  g_autofree char *warm = lm_preset_save ("Warm", &edits, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_autoptr (GPtrArray) list = lm_presets_list (&error);
  g_assert_false (find (list, "Warm")->builtin);
  g_assert_cmpstr (find (list, "Warm")->path, ==, warm);
  g_autofree char *resolved = lm_preset_resolve ("Warm", &error);
  g_assert_cmpstr (resolved, ==, warm);
  g_assert_true (lm_preset_delete ("Warm", &error));
  g_clear_pointer (&list, g_ptr_array_unref);
  list = lm_presets_list (&error);
  g_assert_true (find (list, "Warm")->builtin);

  /* Rename: the old name goes, the new one comes, not over another. */
  g_assert_true (lm_preset_rename ("Bright", "Brighter", &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (want, G_FILE_TEST_EXISTS));
  g_autofree char *renamed = lm_preset_resolve ("Brighter", &error);
  g_assert_true (g_str_has_suffix (renamed, "/Brighter.lumen"));
  g_autofree char *other = lm_preset_save ("Other", &edits, NULL, FALSE, &error);
  g_assert_false (lm_preset_rename ("Other", "Brighter", &error));
  assert_one_line (error, "Brighter");
  g_clear_error (&error);
  g_assert_false (lm_preset_rename ("Other", "a/b", &error));
  assert_one_line (error, NULL);
  g_clear_error (&error);
  g_assert_false (lm_preset_delete ("Nothing such", &error));
  assert_one_line (error, "Nothing such");
  g_clear_error (&error);
  g_assert_null (lm_preset_resolve ("Nothing such", &error));
  assert_one_line (error, "Nothing such");
}

static void
test_import_export (void)
{
  g_autoptr (GError) error = NULL;
  const char good[] = "[gray]\nenabled=true\nmode=average\n";
  g_autofree char *file = lm_test_write_tmp ("Mono look.lumen", good, sizeof good - 1);
  g_autofree char *path = lm_preset_import (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "/Mono look.lumen"));
  g_autofree char *copied = read_all (path);
  g_assert_cmpstr (copied, ==, good);
  /* Not twice under one name. */
  g_assert_null (lm_preset_import (file, NULL, &error));
  assert_one_line (error, "Mono look");
  g_clear_error (&error);

  /* Exported byte for byte, by name; a built-in too. */
  g_autofree char *out = g_build_filename (lm_test_tmp_dir (), "out.lumen", NULL);
  g_assert_true (lm_preset_export ("Mono look", out, &error));
  g_autofree char *exported = read_all (out);
  g_assert_cmpstr (exported, ==, good);
  g_assert_true (lm_preset_export ("Warm", out, &error));
  g_assert_no_error (error);
  g_assert_false (lm_preset_export ("Nothing such", out, &error));
  assert_one_line (error, "Nothing such");
  g_clear_error (&error);

  /* Bad files: refused by name, nothing imported. */
  struct {
    const char *name, *text;
  } bad[] = {
    { "unknown-key.lumen", "[gray]\nenabled=true\ncolour=red\n" },
    { "unknown-group.lumen", "[preset]\nname=Mine\n" },
    { "out-of-range.lumen", "[exposure]\nenabled=true\nev=1e9\n" },
    { "twice.lumen", "[gray]\nenabled=true\n[gray]\nenabled=false\n" },
    { "newer.lumen", "[lumen]\nversion=99\n" },
    { "binary.lumen", "\x89PNG\r\n\x1a\n" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *f = lm_test_write_tmp (bad[i].name, bad[i].text, strlen (bad[i].text));
      g_autoptr (GError) e = NULL;
      g_assert_null (lm_preset_import (f, NULL, &e));
      assert_one_line (e, bad[i].name);
      g_autofree char *name = g_strndup (bad[i].name, strlen (bad[i].name) - strlen (".lumen"));
      g_autofree char *gone = lm_preset_resolve (name, NULL);
      g_assert_null (gone);
    }
  /* A fifo is refused without blocking on it; a folder and a missing file by name. */
  g_autofree char *fifo = g_build_filename (lm_test_tmp_dir (), "fifo.lumen", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_null (lm_preset_import (fifo, NULL, &error));
  assert_one_line (error, "fifo.lumen");
  g_clear_error (&error);
  g_assert_null (lm_preset_import (lm_test_tmp_dir (), "Folder", &error));
  assert_one_line (error, NULL);
  g_clear_error (&error);
  g_autofree char *missing = g_build_filename (lm_test_tmp_dir (), "missing.lumen", NULL);
  g_assert_null (lm_preset_import (missing, NULL, &error));
  assert_one_line (error, "missing.lumen");
  g_clear_error (&error);
  /* Export onto a fifo: refused, the fifo stays one. */
  g_assert_false (lm_preset_export ("Warm", fifo, &error));
  assert_one_line (error, "fifo.lumen");
  struct stat st;
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
}

static void
test_apply_to_photo (void)
{
  g_autoptr (GError) error = NULL;
  /* A photo: any regular file will do, the sidecar is what changes. */
  g_autofree char *photo = lm_test_write_tmp ("photo.png", "not read", 8);
  g_autofree char *sidecar = lm_sidecar_beside_path (photo);
  LmPipeline own;
  lm_pipeline_init (&own);
  lm_test_set_param (&own, "crop", "width", "12");
  lm_test_set_param (&own, "exposure", "ev", "0.5");
  lm_test_set_param (&own, "blur", NULL, NULL);
  g_assert_true (lm_sidecar_write (sidecar, &own, &error));

  g_autofree char *bw = lm_preset_resolve ("Black and white", &error);
  g_assert_true (lm_preset_apply_to_photo (bw, photo, LM_PASTE_APPEND, &error));
  g_assert_no_error (error);
  LmPipeline got;
  lm_pipeline_init (&got);
  g_assert_true (lm_pipeline_load_sidecar (&got, sidecar, &error));
  /* Append: the preset's on, the photo's own kept. */
  g_assert_true (lm_pipeline_primary (&got, LM_OP_GRAY)->enabled);
  g_assert_true (lm_pipeline_primary (&got, LM_OP_CONTRAST)->enabled);
  g_assert_true (lm_pipeline_primary (&got, LM_OP_EXPOSURE)->enabled);
  g_assert_true (lm_pipeline_primary (&got, LM_OP_BLUR)->enabled);
  g_assert_true (lm_stage_equal (lm_pipeline_primary (&got, LM_OP_CROP), lm_pipeline_primary (&own, LM_OP_CROP)));

  /* Replace: the preset's look, the photo's crop. */
  g_assert_true (lm_preset_apply_to_photo (bw, photo, LM_PASTE_REPLACE, &error));
  lm_pipeline_init (&got);
  g_assert_true (lm_pipeline_load_sidecar (&got, sidecar, &error));
  g_assert_true (lm_pipeline_primary (&got, LM_OP_GRAY)->enabled);
  g_assert_false (lm_pipeline_primary (&got, LM_OP_EXPOSURE)->enabled);
  g_assert_false (lm_pipeline_primary (&got, LM_OP_BLUR)->enabled);
  g_assert_true (lm_stage_equal (lm_pipeline_primary (&got, LM_OP_CROP), lm_pipeline_primary (&own, LM_OP_CROP)));

  /* A photo without a sidecar gets one. */
  g_autofree char *bare = lm_test_write_tmp ("bare.jpg", "x", 1);
  g_assert_true (lm_preset_apply_to_photo (bw, bare, LM_PASTE_APPEND, &error));
  g_autofree char *bare_sidecar = lm_sidecar_beside_path (bare);
  g_assert_true (g_file_test (bare_sidecar, G_FILE_TEST_IS_REGULAR));

  /* A sidecar that cannot be read is left as it is; a bad preset writes nothing. */
  const char broken[] = "[exposure]\nev=oops\n";
  g_autofree char *damaged = lm_test_write_tmp ("damaged.jpg", "x", 1);
  g_autofree char *damaged_sidecar = lm_sidecar_beside_path (damaged);
  g_assert_true (g_file_set_contents (damaged_sidecar, broken, -1, NULL));
  g_assert_false (lm_preset_apply_to_photo (bw, damaged, LM_PASTE_APPEND, &error));
  assert_one_line (error, "damaged.jpg.lumen");
  g_clear_error (&error);
  g_autofree char *still = read_all (damaged_sidecar);
  g_assert_cmpstr (still, ==, broken);
  g_autofree char *bad_preset = lm_test_write_tmp ("bad-preset.lumen", broken, strlen (broken));
  g_assert_false (lm_preset_apply_to_photo (bad_preset, bare, LM_PASTE_APPEND, &error));
  assert_one_line (error, "bad-preset.lumen");
  g_clear_error (&error);
  g_autofree char *no_photo = g_build_filename (lm_test_tmp_dir (), "no-such.jpg", NULL);
  g_assert_false (lm_preset_apply_to_photo (bw, no_photo, LM_PASTE_APPEND, &error));
  assert_one_line (error, "no-such.jpg");
  g_autofree char *no_sidecar = lm_sidecar_beside_path (no_photo);
  g_assert_false (g_file_test (no_sidecar, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  /* The presets of this test only: GLib reads XDG_DATA_HOME once, before any use. */
  g_autofree char *home = g_build_filename (lm_test_tmp_dir (), "data", NULL);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/presets/builtin", test_builtin);
  g_test_add_func ("/presets/names", test_names);
  g_test_add_func ("/presets/save-and-manage", test_save_and_manage);
  g_test_add_func ("/presets/import-export", test_import_export);
  g_test_add_func ("/presets/apply-to-photo", test_apply_to_photo);
  return g_test_run ();
}
