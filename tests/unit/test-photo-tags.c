/* Ratings and colour labels in XMP sidecars (core/library/photo-tags.c): what is written,
 * what is read from darktable's, digiKam's and Lightroom's forms, every byte of a foreign
 * sidecar kept outside the values changed, and sidecars that cannot be used left alone. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/io/xmp.h"
#include "core/library/photo-tags.h"
#include "test-util.h"

#define DT_NS "http://darktable.sf.net/"
#define DK_NS "http://www.digikam.org/ns/1.0/"

#define HEAD "<?xpacket begin='\xef\xbb\xbf' id='W5M0MpCehiHzreSzNTczkc9d'?>\n<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
#define TAIL " </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end='w'?>\n"

/* A photo (a few bytes: the tags never read it) in a fresh folder. */
static char *
new_photo (const char *name)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  char *photo = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (photo, "\xff\xd8\xff\xd9", 4, NULL));
  return photo;
}

static GBytes *
file_bytes (const char *path)
{
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static char *
property (const char *path, const char *ns, const char *name)
{
  g_autoptr (GBytes) packet = file_bytes (path);
  g_assert_true (lm_xmp_is_well_formed (packet));
  return lm_xmp_get_property (packet, ns, name);
}

static void
assert_labels_seq (const char *path, const char *const *want)
{
  g_autoptr (GBytes) packet = file_bytes (path);
  g_auto (GStrv) items = lm_xmp_get_array (packet, DT_NS, "colorlabels");
  if (want == NULL)
    g_assert_null (items);
  else
    g_assert_true (items && g_strv_equal ((const char *const *) items, want));
}

static void
write_ok (const char *photo, int rating, guint labels)
{
  LmPhotoTags tags = { rating, labels }, back = { 99, 99 };
  g_autoptr (GError) error = NULL;
  g_assert_true (lm_photo_tags_write (photo, &tags, &error));
  g_assert_no_error (error);
  g_assert_true (lm_photo_tags_read (photo, &back, &error));
  g_assert_cmpint (back.rating, ==, rating);
  g_assert_cmpuint (back.labels, ==, labels);
}

static void
test_fresh_sidecar (void)
{
  g_autofree char *photo = new_photo ("a b é.jpg");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  g_assert_true (g_str_has_suffix (xmp, "a b é.jpg.xmp"));
  LmPhotoTags tags = { 7, 7 };
  g_assert_true (lm_photo_tags_read (photo, &tags, NULL));
  g_assert_cmpint (tags.rating, ==, 0); /* no sidecar: no rating, no label */
  g_assert_cmpuint (tags.labels, ==, 0);
  g_assert_false (g_file_test (xmp, G_FILE_TEST_EXISTS));

  write_ok (photo, 4, LM_LABEL_RED);
  g_autofree char *rating = property (xmp, LM_XMP_NS, "Rating");
  g_autofree char *label = property (xmp, LM_XMP_NS, "Label");
  g_autofree char *pick = property (xmp, DK_NS, "PickLabel");
  g_assert_cmpstr (rating, ==, "4");
  g_assert_cmpstr (label, ==, "Red");
  g_assert_null (pick);
  assert_labels_seq (xmp, (const char *[]) { "0", NULL });
}

static void
test_reject (void)
{
  g_autofree char *photo = new_photo ("r.jpg");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  write_ok (photo, LM_RATING_REJECTED, 0);
  g_autofree char *rating = property (xmp, LM_XMP_NS, "Rating");
  g_autofree char *pick = property (xmp, DK_NS, "PickLabel");
  g_assert_cmpstr (rating, ==, "-1");
  g_assert_cmpstr (pick, ==, "1");
  assert_labels_seq (xmp, NULL);

  write_ok (photo, 3, 0);
  g_autofree char *rating3 = property (xmp, LM_XMP_NS, "Rating");
  g_autofree char *pick3 = property (xmp, DK_NS, "PickLabel");
  g_assert_cmpstr (rating3, ==, "3");
  g_assert_null (pick3);
}

/* Several labels: no xmp:Label, which darktable would read instead of the whole set. */
static void
test_several_labels (void)
{
  g_autofree char *photo = new_photo ("s.tif");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  write_ok (photo, 2, LM_LABEL_RED | LM_LABEL_BLUE | LM_LABEL_PURPLE);
  g_autofree char *label = property (xmp, LM_XMP_NS, "Label");
  g_assert_null (label);
  assert_labels_seq (xmp, (const char *[]) { "0", "3", "4", NULL });

  write_ok (photo, 2, LM_LABEL_YELLOW);
  g_autofree char *yellow = property (xmp, LM_XMP_NS, "Label");
  g_assert_cmpstr (yellow, ==, "Yellow");
  assert_labels_seq (xmp, (const char *[]) { "1", NULL });

  write_ok (photo, 0, 0);
  g_autofree char *none = property (xmp, LM_XMP_NS, "Label");
  g_assert_null (none);
  assert_labels_seq (xmp, NULL);
}

static void
read_packet (const char *packet, int rating, guint labels)
{
  g_autoptr (GBytes) bytes = g_bytes_new (packet, strlen (packet));
  LmPhotoTags tags;
  g_assert_true (lm_photo_tags_from_packet (bytes, &tags));
  g_assert_cmpint (tags.rating, ==, rating);
  g_assert_cmpuint (tags.labels, ==, labels);
}

/* The forms of the other programs, and darktable's order of reading. */
static void
test_foreign_forms (void)
{
  /* digiKam: its reject, its colour number, xmp:Label. */
  read_packet (HEAD "  <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'\n"
                    "    xmlns:digiKam='http://www.digikam.org/ns/1.0/' xmp:Rating='2' digiKam:PickLabel='1'\n"
                    "    digiKam:ColorLabel='5' xmp:Label='Blue'/>\n" TAIL,
               LM_RATING_REJECTED, LM_LABEL_BLUE);
  /* digiKam's colour alone (orange is no label of darktable's). */
  read_packet (HEAD "  <rdf:Description xmlns:digiKam='http://www.digikam.org/ns/1.0/' digiKam:ColorLabel='4'/>\n" TAIL,
               0, LM_LABEL_GREEN);
  read_packet (HEAD "  <rdf:Description xmlns:digiKam='http://www.digikam.org/ns/1.0/' digiKam:ColorLabel='2'/>\n" TAIL,
               0, 0);
  /* Lightroom: elements, the old xap prefix, CRLF. */
  read_packet (HEAD "  <rdf:Description rdf:about=''\r\n    xmlns:xap='http://ns.adobe.com/xap/1.0/'>\r\n"
                    "   <xap:Rating>3</xap:Rating>\r\n   <xap:Label>Purple</xap:Label>\r\n  </rdf:Description>\r\n" TAIL,
               3, LM_LABEL_PURPLE);
  /* darktable reads xmp:Label instead of its colorlabels; another label hides them too. */
  const char *seq = "   <darktable:colorlabels><rdf:Seq><rdf:li>1</rdf:li><rdf:li>2</rdf:li></rdf:Seq></darktable:colorlabels>\n";
  g_autofree char *with_label = g_strconcat (HEAD "  <rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
                                             " xmlns:darktable='http://darktable.sf.net/' xmp:Label='Red'>\n",
                                             seq, "  </rdf:Description>\n" TAIL, NULL);
  read_packet (with_label, 0, LM_LABEL_RED);
  g_autofree char *approved = g_strconcat (HEAD "  <rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
                                           " xmlns:darktable='http://darktable.sf.net/' xmp:Label='Approved'>\n",
                                           seq, "  </rdf:Description>\n" TAIL, NULL);
  read_packet (approved, 0, 0);
  g_autofree char *seq_only = g_strconcat (HEAD "  <rdf:Description xmlns:darktable='http://darktable.sf.net/'>\n", seq,
                                           "  </rdf:Description>\n" TAIL, NULL);
  read_packet (seq_only, 0, LM_LABEL_YELLOW | LM_LABEL_GREEN);
  /* xmp:Rating is a Real; darktable truncates it. Out of range: clamped; not a number: none. */
  const char *ratings[][2] = { { "2.5", "2" }, { "7", "5" }, { "-1.0", "-1" }, { "-3", "0" }, { "x", "0" }, { "", "0" } };
  for (gsize k = 0; k < G_N_ELEMENTS (ratings); k++)
    {
      g_autofree char *p = g_strdup_printf (HEAD "<rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
                                                 " xmp:Rating='%s'/>" TAIL, ratings[k][0]);
      read_packet (p, atoi (ratings[k][1]), 0);
    }
}

/* Writing into digiKam's and Lightroom's forms: their keys follow, a label of another
 * meaning stays while Lumen sets none. */
static void
test_write_foreign (void)
{
  g_autofree char *photo = new_photo ("dk.jpg");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  const char *dk = HEAD "  <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'\n"
                        "    xmlns:digiKam='http://www.digikam.org/ns/1.0/' xmp:Rating='2' digiKam:PickLabel='1'\n"
                        "    digiKam:ColorLabel='5' xmp:Label='Blue'/>\n" TAIL;
  g_assert_true (g_file_set_contents (xmp, dk, -1, NULL));
  write_ok (photo, 2, LM_LABEL_GREEN);
  g_autofree char *color = property (xmp, DK_NS, "ColorLabel");
  g_autofree char *pick = property (xmp, DK_NS, "PickLabel");
  g_autofree char *label = property (xmp, LM_XMP_NS, "Label");
  g_assert_cmpstr (color, ==, "4");
  g_assert_null (pick);
  g_assert_cmpstr (label, ==, "Green");

  const char *lr = HEAD "  <rdf:Description rdf:about='' xmlns:xap='http://ns.adobe.com/xap/1.0/'>\n"
                        "   <xap:Rating>1</xap:Rating>\n   <xap:Label>Approved</xap:Label>\n  </rdf:Description>\n" TAIL;
  g_assert_true (g_file_set_contents (xmp, lr, -1, NULL));
  write_ok (photo, 5, 0);
  g_autoptr (GBytes) out = file_bytes (xmp);
  g_autofree char *want = g_strdup (lr);
  memcpy (strstr (want, ">1<") + 1, "5", 1);
  g_assert_cmpmem (g_bytes_get_data (out, NULL), g_bytes_get_size (out), want, strlen (want));
}

/* SPAN of TEXT: from the first START to the end of the first END after it. */
static void
cut (const char *text, const char *start, const char *end, gsize *from, gsize *to)
{
  const char *a = strstr (text, start);
  g_assert_nonnull (a);
  const char *b = strstr (a + strlen (start), end);
  g_assert_nonnull (b);
  *from = (gsize) (a - text);
  *to = (gsize) (b - text) + strlen (end);
}

/* A packet darktable 4.2 wrote (its export of a photo with a sidecar: history, masks, labels):
 * outside the rating's value and the colorlabels element, every byte kept. */
static void
test_darktable_packet_kept (void)
{
  g_autofree char *fixture = g_build_filename (lm_test_data_dir (), "xmp", "darktable-4.2-export.xmp", NULL);
  g_autoptr (GBytes) original = file_bytes (fixture);
  g_autofree char *photo = new_photo ("dt.jpg");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  g_assert_true (g_file_set_contents (xmp, g_bytes_get_data (original, NULL), g_bytes_get_size (original), NULL));
  LmPhotoTags tags;
  g_assert_true (lm_photo_tags_read (photo, &tags, NULL));
  g_assert_cmpint (tags.rating, ==, 3);
  g_assert_cmpuint (tags.labels, ==, LM_LABEL_RED | LM_LABEL_GREEN);

  write_ok (photo, 1, LM_LABEL_RED | LM_LABEL_GREEN | LM_LABEL_PURPLE);
  g_autoptr (GBytes) edited = file_bytes (xmp);
  g_autofree char *in = g_strndup (g_bytes_get_data (original, NULL), g_bytes_get_size (original));
  g_autofree char *out = g_strndup (g_bytes_get_data (edited, NULL), g_bytes_get_size (edited));
  gsize r0, r1, c0, c1, R0, R1, C0, C1;
  cut (in, "xmp:Rating=\"", "\"", &r0, &r1);
  cut (in, "<darktable:colorlabels>", "</darktable:colorlabels>", &c0, &c1);
  cut (out, "xmp:Rating=\"", "\"", &R0, &R1);
  cut (out, "<darktable:colorlabels>", "</darktable:colorlabels>", &C0, &C1);
  g_assert_cmpuint (r0, ==, R0);
  g_assert_true (r1 < c0 && R1 < C0);
  g_assert_cmpmem (in + r1, c0 - r1, out + R1, C0 - R1);
  g_assert_cmpstr (in + c1, ==, out + C1);
  g_assert_cmpmem (out + R0, R1 - R0, "xmp:Rating=\"1\"", 14);
  assert_labels_seq (xmp, (const char *[]) { "0", "2", "4", NULL });
}

/* photo.xmp is read when photo.ext.xmp is absent, and never written; the first photo.ext.xmp
 * starts from it, so that its other metadata (a title here) is still read by everyone. */
static void
test_sidecar_without_extension (void)
{
  g_autofree char *photo = new_photo ("IMG_1.CR2");
  g_autofree char *dir = g_path_get_dirname (photo);
  g_autofree char *short_xmp = g_build_filename (dir, "IMG_1.xmp", NULL);
  const char *lr = HEAD "<rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' "
                   "xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' xmp:Rating='5' xmp:Label='Green' "
                   "photoshop:Headline='Harbour at dawn'/>" TAIL;
  g_assert_true (g_file_set_contents (short_xmp, lr, -1, NULL));
  LmPhotoTags tags;
  g_assert_true (lm_photo_tags_read (photo, &tags, NULL));
  g_assert_cmpint (tags.rating, ==, 5);
  g_assert_cmpuint (tags.labels, ==, LM_LABEL_GREEN);
  write_ok (photo, 1, 0);
  g_autoptr (GBytes) kept = file_bytes (short_xmp);
  g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), lr, strlen (lr));
  g_autofree char *long_xmp = lm_photo_tags_sidecar_path (photo);
  g_autoptr (GBytes) written = file_bytes (long_xmp);
  g_autofree char *text = g_strndup (g_bytes_get_data (written, NULL), g_bytes_get_size (written));
  g_assert_nonnull (strstr (text, "photoshop:Headline='Harbour at dawn'"));
  g_assert_true (lm_photo_tags_read (photo, &tags, NULL));
  g_assert_cmpint (tags.rating, ==, 1);
}

static void
assert_refused (const char *photo, const char *xmp)
{
  LmPhotoTags tags = { 2, LM_LABEL_RED };
  g_autoptr (GError) read_error = NULL;
  g_autoptr (GError) write_error = NULL;
  g_assert_false (lm_photo_tags_read (photo, &tags, &read_error));
  g_assert_nonnull (read_error);
  g_assert_false (lm_photo_tags_write (photo, &tags, &write_error));
  g_assert_nonnull (write_error);
  g_test_message ("%s / %s", read_error->message, write_error->message);
  g_assert_true (g_str_has_prefix (read_error->message, xmp));
  g_assert_true (g_str_has_prefix (write_error->message, xmp));
  g_assert_null (strchr (write_error->message, '\n'));
}

/* A folder, a fifo, a broken packet where the sidecar should be: named, and left as it is. */
static void
test_unusable_sidecars (void)
{
  g_autofree char *photo = new_photo ("bad.jpg");
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  g_assert_cmpint (g_mkdir (xmp, 0700), ==, 0);
  assert_refused (photo, xmp);
  g_assert_true (g_file_test (xmp, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (g_rmdir (xmp), ==, 0);

  g_assert_cmpint (mkfifo (xmp, 0600), ==, 0);
  assert_refused (photo, xmp);
  struct stat st;
  g_assert_cmpint (lstat (xmp, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpint (g_unlink (xmp), ==, 0);

  const char *broken[] = { HEAD "<rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='2'>" TAIL,
                           "", "\xef\xbb\xbf", "<x:xmpmeta xmlns:x='adobe:ns:meta/'>\0</x:xmpmeta>" };
  for (gsize k = 0; k < G_N_ELEMENTS (broken); k++)
    {
      g_assert_true (g_file_set_contents (xmp, broken[k], -1, NULL));
      assert_refused (photo, xmp);
      g_autoptr (GBytes) kept = file_bytes (xmp);
      g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), broken[k], strlen (broken[k]));
    }

  /* Well-formed, but nowhere to put a rating: refused on writing only. */
  const char *no_description = "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>";
  g_assert_true (g_file_set_contents (xmp, no_description, -1, NULL));
  LmPhotoTags tags = { 3, 0 };
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_photo_tags_write (photo, &tags, &error));
  g_assert_true (error && g_str_has_prefix (error->message, xmp));
  g_autoptr (GBytes) kept = file_bytes (xmp);
  g_assert_cmpmem (g_bytes_get_data (kept, NULL), g_bytes_get_size (kept), no_description, strlen (no_description));

  /* Out of range: refused before anything is read. */
  LmPhotoTags wrong[] = { { 6, 0 }, { -2, 0 }, { 0, 1u << 5 } };
  for (gsize k = 0; k < G_N_ELEMENTS (wrong); k++)
    {
      g_autoptr (GError) e = NULL;
      g_assert_false (lm_photo_tags_write (photo, &wrong[k], &e));
      g_assert_nonnull (e);
    }
}

/* A folder Lumen cannot write into: refused by name, nothing left there. */
static void
test_unwritable_folder (void)
{
  if (geteuid () == 0)
    {
      g_test_skip ("root writes into any folder");
      return;
    }
  g_autofree char *photo = new_photo ("ro.jpg");
  g_autofree char *dir = g_path_get_dirname (photo);
  g_autofree char *xmp = lm_photo_tags_sidecar_path (photo);
  g_assert_cmpint (g_chmod (dir, 0500), ==, 0);
  LmPhotoTags tags = { 3, 0 };
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_photo_tags_write (photo, &tags, &error));
  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_true (error && strstr (error->message, xmp) != NULL);
  g_assert_false (g_file_test (xmp, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/photo-tags/fresh-sidecar", test_fresh_sidecar);
  g_test_add_func ("/photo-tags/reject", test_reject);
  g_test_add_func ("/photo-tags/several-labels", test_several_labels);
  g_test_add_func ("/photo-tags/foreign-forms", test_foreign_forms);
  g_test_add_func ("/photo-tags/write-foreign", test_write_foreign);
  g_test_add_func ("/photo-tags/darktable-packet-kept", test_darktable_packet_kept);
  g_test_add_func ("/photo-tags/sidecar-without-extension", test_sidecar_without_extension);
  g_test_add_func ("/photo-tags/unusable-sidecars", test_unusable_sidecars);
  g_test_add_func ("/photo-tags/unwritable-folder", test_unwritable_folder);
  return g_test_run ();
}
