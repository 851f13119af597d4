/* The file formats as io.c knows them from the codecs' declarations (io-private.h's
 * LmFileFormat): each format told by its first bytes, named, chosen by an output's suffix,
 * writable or not, radiance or not, and the sentence a save of the wrong kind of image gets.
 * The answers are those of the switch the declarations replaced. */
#include <string.h>

#include "config.h"
#include "core/error.h"
#include "core/io/io.h"
#include "test-util.h"

typedef struct {
  const char *head;
  gsize len;
  LmFileType type;
} Magic;

#define MAGIC(s, t) { s, sizeof s - 1, t }

static const Magic magics[] = {
  MAGIC ("\xFF\xD8\xFF\xE0", LM_FILE_JPEG),
  MAGIC ("\x89PNG\r\n\x1a\n", LM_FILE_PNG),
  MAGIC ("II*\0", LM_FILE_TIFF),
  MAGIC ("MM\0*", LM_FILE_TIFF),
  MAGIC ("RIFF\x10\0\0\0WEBPVP8 ", LM_FILE_WEBP),
  MAGIC ("BM", LM_FILE_BMP),
  MAGIC ("GIF87a", LM_FILE_GIF),
  MAGIC ("GIF89a", LM_FILE_GIF),
  MAGIC ("#?RADIANCE\n", LM_FILE_RADIANCE),
  MAGIC ("#?RGBE\n", LM_FILE_RADIANCE),
  MAGIC ("\x76\x2f\x31\x01", LM_FILE_EXR),
  MAGIC ("SIMPLE  =                    T", LM_FILE_FITS),
  MAGIC ("RIFF\x10\0\0\0WAVEfmt ", LM_FILE_UNKNOWN),
  MAGIC ("GIF90a", LM_FILE_UNKNOWN),
  MAGIC ("#?RAD", LM_FILE_UNKNOWN),
  MAGIC ("\xFF\xD8", LM_FILE_UNKNOWN),
  MAGIC ("P6\n1 1\n255\n", LM_FILE_UNKNOWN),
};

static void
test_sniff (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (magics); i++)
    {
      const Magic *m = &magics[i];
      LmFileType type = lm_file_type_sniff ((const guint8 *) m->head, m->len);
      if (type != m->type)
        g_test_message ("magic %u: %s, expected %s", i, lm_file_type_name (type), lm_file_type_name (m->type));
      g_assert_cmpint (type, ==, m->type);
    }
}

static void
test_names (void)
{
  static const struct {
    LmFileType type;
    const char *name;
  } names[] = {
    { LM_FILE_JPEG, "JPEG" },  { LM_FILE_PNG, "PNG" },           { LM_FILE_TIFF, "TIFF" },
    { LM_FILE_WEBP, "WebP" },  { LM_FILE_BMP, "BMP" },           { LM_FILE_GIF, "GIF" },
    { LM_FILE_RADIANCE, "Radiance HDR" }, { LM_FILE_EXR, "OpenEXR" }, { LM_FILE_FITS, "FITS" },
    { LM_FILE_UNKNOWN, "unknown" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (lm_file_type_name (names[i].type), ==, names[i].name);
}

static void
test_output_suffixes (void)
{
  static const struct {
    const char *path;
    LmFileType type;
  } outputs[] = {
    { "a.png", LM_FILE_PNG },       { "a.PNG", LM_FILE_PNG },      { "a.jpg", LM_FILE_JPEG },
    { "a.Jpeg", LM_FILE_JPEG },     { "a.tif", LM_FILE_TIFF },     { "dir/a.TIFF", LM_FILE_TIFF },
    { "a.hdr", LM_FILE_RADIANCE },  { "a.exr", LM_FILE_EXR },      { "a.webp", LM_FILE_UNKNOWN },
    { "a.gif", LM_FILE_UNKNOWN },   { "a.bmp", LM_FILE_UNKNOWN },  { "a.fits", LM_FILE_UNKNOWN },
    { "a.png.txt", LM_FILE_UNKNOWN }, { "dir.png/a", LM_FILE_UNKNOWN }, { "png", LM_FILE_UNKNOWN },
  };
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    {
      g_test_message ("%s", outputs[i].path);
      g_assert_cmpint (lm_file_type_for_output (outputs[i].path), ==, outputs[i].type);
    }
}

static void
test_writable_and_radiance (void)
{
  static const struct {
    LmFileType type;
    gboolean writable, radiance;
  } kinds[] = {
    { LM_FILE_JPEG, TRUE, FALSE },      { LM_FILE_PNG, TRUE, FALSE },  { LM_FILE_TIFF, TRUE, FALSE },
    { LM_FILE_RADIANCE, TRUE, TRUE },   { LM_FILE_WEBP, FALSE, FALSE }, { LM_FILE_BMP, FALSE, FALSE },
    { LM_FILE_GIF, FALSE, FALSE },      { LM_FILE_FITS, FALSE, FALSE }, { LM_FILE_UNKNOWN, FALSE, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      GError *error = NULL;
      g_assert_cmpint (lm_file_type_writable (kinds[i].type, &error), ==, kinds[i].writable);
      g_assert_no_error (error);
      g_assert_cmpint (lm_file_type_is_radiance (kinds[i].type), ==, kinds[i].radiance);
    }
  /* OpenEXR is radiance whether or not this build has the library; without it, writing one is
   * refused with the reason. */
  g_assert_true (lm_file_type_is_radiance (LM_FILE_EXR));
  GError *error = NULL;
  gboolean writable = lm_file_type_writable (LM_FILE_EXR, &error);
  if (LUMEN_HAVE_OPENEXR)
    {
      g_assert_true (writable);
      g_assert_no_error (error);
    }
  else
    {
      g_assert_false (writable);
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "without the OpenEXR library"));
      g_clear_error (&error);
    }
}

static void
save_refused (const LmImage *image, const char *name, const char *cause)
{
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  GError *error = NULL;
  g_assert_false (lm_io_save (image, path, NULL, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  if (error)
    {
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, path));
      g_assert_nonnull (strstr (error->message, cause));
    }
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_wrong_kind (void)
{
  g_autoptr (LmImage) rgba8 = lm_test_image_new (LM_FORMAT_RGBA8, 2, 2, 0x55);
  g_autoptr (LmImage) radiance = lm_test_image_new (LM_FORMAT_RGBA_F32, 2, 2, 0);
  save_refused (rgba8, "lumen-test-file-types.hdr", "Radiance HDR holds linear radiance");
  if (LUMEN_HAVE_OPENEXR)
    save_refused (rgba8, "lumen-test-file-types.exr", "OpenEXR holds linear radiance here");
  save_refused (radiance, "lumen-test-file-types.png", "this is linear HDR radiance");
  save_refused (radiance, "lumen-test-file-types.jpg", "this is linear HDR radiance");
}

int
main (int argc, char **argv)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/file-types/sniff", test_sniff);
  g_test_add_func ("/file-types/names", test_names);
  g_test_add_func ("/file-types/output-suffixes", test_output_suffixes);
  g_test_add_func ("/file-types/writable-and-radiance", test_writable_and_radiance);
  g_test_add_func ("/file-types/wrong-kind", test_wrong_kind);
  return g_test_run ();
}
