/* The XMP packet's edits (core/io/xmp.c), the IPTC resource blocks (core/io/iptc.c) and
 * metadata through Lumen's own writers and readers: known packets with known answers, and
 * everything but the edited value kept byte for byte. */
#include <string.h>

#include "core/io/io.h"
#include "core/io/iptc.h"
#include "core/io/xmp.h"
#include "test-util.h"

static GBytes *
text (const char *s)
{
  return g_bytes_new (s, strlen (s));
}

static char *
as_string (GBytes *b)
{
  g_assert_nonnull (b);
  return g_strndup (g_bytes_get_data (b, NULL), g_bytes_get_size (b));
}

/* OUT is IN with FROM replaced by TO once: nothing else changed. */
static void
assert_one_change (GBytes *out, const char *in, const char *from, const char *to)
{
  const char *at = strstr (in, from);
  g_assert_nonnull (at);
  g_autofree char *want = g_strdup_printf ("%.*s%s%s", (int) (at - in), in, to, at + strlen (from));
  g_autofree char *got = as_string (out);
  g_assert_cmpstr (got, ==, want);
}

#define HEAD "<?xpacket begin='\xef\xbb\xbf' id='W5M0MpCehiHzreSzNTczkc9d'?>\n<x:xmpmeta xmlns:x='adobe:ns:meta/'>\n<rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
#define TAIL "</rdf:RDF>\n</x:xmpmeta>\n   \n<?xpacket end='w'?>"

static void
test_element_form (void)
{
  const char *in = HEAD " <rdf:Description rdf:about=''\n  xmlns:xmp='http://ns.adobe.com/xap/1.0/'>\n"
                        "  <xmp:CreatorTool>Raw Converter 5</xmp:CreatorTool>\n  <xmp:Rating>4</xmp:Rating>\n"
                        " </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 16, 8);
  g_autofree char *to = g_strdup_printf (">%s<", lm_xmp_creator_tool ());
  assert_one_change (out, in, ">Raw Converter 5<", to);
  g_assert_true (lm_xmp_is_well_formed (out));
}

static void
test_attribute_form_other_prefix (void)
{
  /* The namespace under another prefix, as an attribute, in double quotes. */
  const char *in = HEAD " <rdf:Description rdf:about=\"\" xmlns:xap=\"http://ns.adobe.com/xap/1.0/\"\n"
                        "   xap:CreatorTool=\"Old &amp; Tool\" xap:Rating=\"2\"/>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 16, 8);
  g_autofree char *to = g_strdup_printf ("\"%s\"", lm_xmp_creator_tool ());
  assert_one_change (out, in, "\"Old &amp; Tool\"", to);
}

static void
test_added_where_bound (void)
{
  /* xmp bound on the second Description: the attribute goes there, no second declaration. */
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>\n"
                        "  <dc:subject><rdf:Bag><rdf:li>a</rdf:li></rdf:Bag></dc:subject>\n </rdf:Description>\n"
                        " <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'>\n"
                        "  <xmp:Rating>4</xmp:Rating>\n </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 16, 8);
  g_autofree char *to = g_strdup_printf ("xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:CreatorTool=\"%s\">",
                                         lm_xmp_creator_tool ());
  assert_one_change (out, in, "xmlns:xmp='http://ns.adobe.com/xap/1.0/'>", to);
}

static void
test_added_with_declaration (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'/>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 16, 8);
  g_autofree char *to = g_strdup_printf ("xmlns:dc='http://purl.org/dc/elements/1.1/' "
                                         "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:CreatorTool=\"%s\"/>",
                                         lm_xmp_creator_tool ());
  assert_one_change (out, in, "xmlns:dc='http://purl.org/dc/elements/1.1/'/>", to);
}

static void
test_escaped_and_empty_element (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'>"
                        "<xmp:CreatorTool/></rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) set = lm_xmp_set_property (packet, LM_XMP_NS, "xmp", "CreatorTool", "a<b & \"c\"", TRUE);
  assert_one_change (set, in, "<xmp:CreatorTool/>",
                     "<xmp:CreatorTool>a&lt;b &amp; &quot;c&quot;</xmp:CreatorTool>");
  g_assert_true (lm_xmp_is_well_formed (set));
}

static void
test_orientation (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:tiff='http://ns.adobe.com/tiff/1.0/'"
                        " xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:CreatorTool='x'>\n"
                        "  <tiff:Orientation>6</tiff:Orientation>\n </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 16, 8);
  g_autofree char *got = as_string (out);
  g_assert_nonnull (strstr (got, "<tiff:Orientation>1</tiff:Orientation>"));
  /* Absent stays absent. */
  g_autoptr (GBytes) none = text (HEAD " <rdf:Description rdf:about=''/>\n" TAIL);
  g_assert_null (lm_xmp_set_property (none, LM_XMP_TIFF_NS, "tiff", "Orientation", "1", FALSE));
}

static void
test_dimensions (void)
{
  /* As attributes under another prefix, and as elements; nothing else changes. */
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:ex='http://ns.adobe.com/exif/1.0/'"
                        " xmlns:tiff='http://ns.adobe.com/tiff/1.0/' xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
                        " xmp:CreatorTool='x' ex:PixelXDimension='160' ex:PixelYDimension='100'>\n"
                        "  <tiff:ImageWidth>160</tiff:ImageWidth>\n  <tiff:ImageLength>100</tiff:ImageLength>\n"
                        " </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autoptr (GBytes) out = lm_xmp_for_export (packet, 70000, 7);
  g_autoptr (GString) want = g_string_new (in);
  g_autofree char *tool = g_strdup_printf ("xmp:CreatorTool='%s'", lm_xmp_creator_tool ());
  g_string_replace (want, "xmp:CreatorTool='x'", tool, 1);
  g_string_replace (want, "PixelXDimension='160'", "PixelXDimension='70000'", 1);
  g_string_replace (want, "PixelYDimension='100'", "PixelYDimension='7'", 1);
  g_string_replace (want, ">160<", ">70000<", 1);
  g_string_replace (want, ">100<", ">7<", 1);
  g_autofree char *got = as_string (out);
  g_assert_cmpstr (got, ==, want->str);

  /* A packet stating no size gets none; the same names in another namespace are not sizes. */
  const char *other = HEAD " <rdf:Description rdf:about='' xmlns:my='urn:example:my'"
                           " xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:CreatorTool='x'"
                           " my:PixelXDimension='160' my:ImageLength='100'/>\n" TAIL;
  g_autoptr (GBytes) none = text (other);
  g_autoptr (GBytes) kept = lm_xmp_for_export (none, 64, 40);
  g_autofree char *to = g_strdup_printf ("xmp:CreatorTool='%s'", lm_xmp_creator_tool ());
  assert_one_change (kept, other, "xmp:CreatorTool='x'", to);
}

static void
test_fresh_and_broken (void)
{
  g_autoptr (GBytes) fresh = lm_xmp_for_export (NULL, 16, 8);
  g_assert_true (lm_xmp_is_well_formed (fresh));
  g_autofree char *s = as_string (fresh);
  g_autofree char *attr = g_strdup_printf ("xmp:CreatorTool=\"%s\"", lm_xmp_creator_tool ());
  g_assert_nonnull (strstr (s, attr));
  g_assert_nonnull (strstr (s, "<?xpacket end=\"w\"?>"));

  /* Not passed on: unclosed elements, a NUL, not XML at all. */
  const char *broken[] = { HEAD " <rdf:Description rdf:about=''>\n" TAIL, "plain text", "<a>&bogus;</a>" };
  for (gsize i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr (GBytes) b = text (broken[i]);
      g_assert_null (lm_xmp_for_export (b, 16, 8));
    }
  g_autoptr (GBytes) nul = g_bytes_new ("<a>\0</a>", 8);
  g_assert_null (lm_xmp_for_export (nul, 16, 8));

  /* Well-formed but no rdf:Description: kept, only wrapped. */
  const char *bare = "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>";
  g_autoptr (GBytes) b = text (bare);
  g_autoptr (GBytes) kept = lm_xmp_for_export (b, 16, 8);
  g_autofree char *k = as_string (kept);
  g_assert_nonnull (strstr (k, bare));
  g_assert_true (g_str_has_prefix (k, "<?xpacket begin="));
}

/* Two blocks (one with a name, one of odd size) and a thumbnail between them. */
static GBytes *
resource_blocks (void)
{
  static const guint8 blocks[] = {
    '8', 'B', 'I', 'M', 0x04, 0x04, 0, 0, 0, 0, 0, 9,   /* IPTC, empty name, 9 bytes */
    0x1c, 0x02, 0x19, 0x00, 0x04, 'p', 'a', 't', 'h', 0, /* + pad */
    '8', 'B', 'I', 'M', 0x04, 0x0c, 0, 0, 0, 0, 0, 2, 0xff, 0xd8, /* thumbnail */
    '8', 'B', 'I', 'M', 0x04, 0x25, 3, 'a', 'b', 'c', 0, 0, 0, 4, 1, 2, 3, 4, /* named */
  };
  return g_bytes_new_static (blocks, sizeof blocks);
}

static void
test_iptc_blocks (void)
{
  g_autoptr (GBytes) in = resource_blocks ();
  gsize len;
  const guint8 *data = g_bytes_get_data (in, &len);
  g_autoptr (GBytes) kept = lm_iptc_from_resources (data, len);
  g_assert_cmpuint (g_bytes_get_size (kept), ==, len - 14); /* the thumbnail's 14 bytes gone */
  g_autoptr (GBytes) records = lm_iptc_records (kept);
  g_assert_cmpuint (g_bytes_get_size (records), ==, 9);
  g_assert_cmpmem (g_bytes_get_data (records, NULL), 9, data + 12, 9);
  g_autoptr (GBytes) again = lm_iptc_blocks_from_records (data + 12, 9);
  g_assert_cmpmem (g_bytes_get_data (again, NULL), g_bytes_get_size (again), data, 22);

  /* A block whose size runs past the end is not passed on, nor is what follows it. */
  g_autofree guint8 *cut = g_memdup2 (data, len);
  cut[11] = 200;
  g_assert_null (lm_iptc_from_resources (cut, len));

  /* Split across APP13 payloads, each with its header, joined back to the blocks. */
  g_autoptr (GPtrArray) parts = lm_iptc_app13_payloads (kept, LM_IPTC_APP13_HEADER_LEN + 10);
  g_autoptr (GByteArray) joined = g_byte_array_new ();
  for (guint i = 0; i < parts->len; i++)
    {
      gsize n;
      const guint8 *p = g_bytes_get_data (parts->pdata[i], &n);
      g_assert_cmpuint (n, <=, LM_IPTC_APP13_HEADER_LEN + 10);
      g_assert_cmpmem (p, LM_IPTC_APP13_HEADER_LEN, LM_IPTC_APP13_HEADER, LM_IPTC_APP13_HEADER_LEN);
      g_byte_array_append (joined, p + LM_IPTC_APP13_HEADER_LEN, (guint) (n - LM_IPTC_APP13_HEADER_LEN));
    }
  g_assert_cmpmem (joined->data, joined->len, g_bytes_get_data (kept, NULL), g_bytes_get_size (kept));
}

/* Through each writer and back through Lumen's reader: the packet comes back as exported, the
 * IPTC blocks as they were (JPEG) or as their records (TIFF). */
static void
test_round_trip (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/'"
                        " xmp:Rating='3' xmp:CreatorTool='Raw'/>\n" TAIL;
  g_autoptr (LmImage) image = lm_test_image_new (LM_FORMAT_RGBA8, 16, 8, 0x5a);
  image->opaque = TRUE;
  image->xmp = text (in);
  g_autoptr (GBytes) blocks = resource_blocks ();
  image->iptc = lm_iptc_from_resources (g_bytes_get_data (blocks, NULL), g_bytes_get_size (blocks));
  g_autoptr (GBytes) want_xmp = lm_xmp_for_export (image->xmp, image->width, image->height);
  const char *exts[] = { "jpg", "png", "tif" };
  for (gsize i = 0; i < G_N_ELEMENTS (exts); i++)
    {
      g_autofree char *name = g_strdup_printf ("meta.%s", exts[i]);
      g_autofree char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
      GError *error = NULL;
      g_assert_true (lm_io_save (image, path, NULL, &error));
      g_assert_no_error (error);
      g_autoptr (LmImage) back = lm_io_load (path, lm_allocator_host (), &error);
      g_assert_no_error (error);
      g_assert_nonnull (back->xmp);
      g_assert_true (g_bytes_equal (back->xmp, want_xmp));
      if (g_str_equal (exts[i], "jpg"))
        g_assert_true (g_bytes_equal (back->iptc, image->iptc));
      else if (g_str_equal (exts[i], "tif"))
        {
          g_autoptr (GBytes) want = lm_iptc_records (image->iptc);
          g_autoptr (GBytes) got = lm_iptc_records (back->iptc);
          g_assert_true (g_bytes_equal (got, want));
        }
      else
        g_assert_null (back->iptc);
    }
}

/* Reading a value: attribute and element forms, another prefix, entities, CRLF and a BOM. */
static void
test_get_property (void)
{
  const char *in = "\xef\xbb\xbf" HEAD " <rdf:Description rdf:about=''\r\n  xmlns:xap='http://ns.adobe.com/xap/1.0/'\r\n"
                   "  xap:Rating='&#45;1'>\r\n  <xap:Label>Red &amp; &#x42;lue</xap:Label>\r\n"
                   "  <xap:Empty/>\r\n </rdf:Description>\r\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_autofree char *rating = lm_xmp_get_property (packet, LM_XMP_NS, "Rating");
  g_autofree char *label = lm_xmp_get_property (packet, LM_XMP_NS, "Label");
  g_autofree char *missing = lm_xmp_get_property (packet, LM_XMP_NS, "Missing");
  g_autofree char *other_ns = lm_xmp_get_property (packet, LM_XMP_TIFF_NS, "Rating");
  g_autofree char *empty = lm_xmp_get_property (packet, LM_XMP_NS, "Empty");
  g_assert_cmpstr (rating, ==, "-1");
  g_assert_cmpstr (label, ==, "Red & Blue");
  g_assert_null (missing);
  g_assert_null (other_ns);
  g_assert_null (empty); /* an empty element holds no text value */
  g_autoptr (GBytes) broken = text (HEAD " <rdf:Description xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='2'>");
  g_assert_null (lm_xmp_get_property (broken, LM_XMP_NS, "Rating"));
}

static void
test_remove_property (void)
{
  const char *attr = HEAD " <rdf:Description rdf:about=''\n  xmlns:xmp='http://ns.adobe.com/xap/1.0/'\n"
                          "  xmp:Label=\"Red\"\n  xmp:Rating='2'/>\n" TAIL;
  g_autoptr (GBytes) a = text (attr);
  g_autoptr (GBytes) a_out = lm_xmp_remove_property (a, LM_XMP_NS, "Label");
  assert_one_change (a_out, attr, "\n  xmp:Label=\"Red\"", "");

  const char *elem = HEAD " <rdf:Description rdf:about='' xmlns:d='http://darktable.sf.net/'>\r\n"
                          "  <d:colorlabels>\r\n   <rdf:Seq>\r\n    <rdf:li>1</rdf:li>\r\n   </rdf:Seq>\r\n  </d:colorlabels>\r\n"
                          "  <d:history><rdf:Seq/></d:history>\r\n </rdf:Description>\r\n" TAIL;
  g_autoptr (GBytes) e = text (elem);
  g_autoptr (GBytes) e_out = lm_xmp_remove_property (e, "http://darktable.sf.net/", "colorlabels");
  assert_one_change (e_out, elem,
                     "\r\n  <d:colorlabels>\r\n   <rdf:Seq>\r\n    <rdf:li>1</rdf:li>\r\n   </rdf:Seq>\r\n  </d:colorlabels>", "");
  g_assert_true (lm_xmp_is_well_formed (e_out));

  /* Absent: the same bytes. */
  g_autoptr (GBytes) same = lm_xmp_remove_property (e, LM_XMP_NS, "Rating");
  g_assert_true (g_bytes_equal (same, e));
}

static void
test_get_array (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:dt='http://darktable.sf.net/'\n"
                        "   xmlns:dc='http://purl.org/dc/elements/1.1/' dt:xmp_version='5'>\n"
                        "  <dt:colorlabels>\n   <rdf:Seq>\n    <rdf:li>0</rdf:li>\n    <rdf:li> 3 </rdf:li>\n"
                        "    <rdf:li/>\n    <rdf:li>&lt;4&gt;</rdf:li>\n   </rdf:Seq>\n  </dt:colorlabels>\n"
                        "  <dc:subject><rdf:Bag><rdf:li>a</rdf:li><rdf:li>b</rdf:li></rdf:Bag></dc:subject>\n"
                        "  <dt:masks_history>\n   <rdf:Seq/>\n  </dt:masks_history>\n </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  g_auto (GStrv) labels = lm_xmp_get_array (packet, "http://darktable.sf.net/", "colorlabels");
  g_auto (GStrv) subject = lm_xmp_get_array (packet, "http://purl.org/dc/elements/1.1/", "subject");
  g_auto (GStrv) empty = lm_xmp_get_array (packet, "http://darktable.sf.net/", "masks_history");
  g_auto (GStrv) scalar = lm_xmp_get_array (packet, "http://darktable.sf.net/", "xmp_version");
  g_auto (GStrv) missing = lm_xmp_get_array (packet, "http://darktable.sf.net/", "history");
  const char *want_labels[] = { "0", " 3 ", "", "<4>", NULL };
  const char *want_subject[] = { "a", "b", NULL };
  g_assert_true (g_strv_equal ((const char *const *) labels, want_labels));
  g_assert_true (g_strv_equal ((const char *const *) subject, want_subject));
  g_assert_nonnull (empty);
  g_assert_cmpuint (g_strv_length (empty), ==, 0);
  g_assert_null (scalar);
  g_assert_null (missing);
}

static void
test_set_array_replaces (void)
{
  const char *in = HEAD " <rdf:Description rdf:about='' xmlns:darktable='http://darktable.sf.net/'>\n"
                        "   <darktable:colorlabels>\n    <rdf:Seq>\n     <rdf:li>0</rdf:li>\n    </rdf:Seq>\n"
                        "   </darktable:colorlabels>\n   <darktable:history><rdf:Seq/></darktable:history>\n"
                        " </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) packet = text (in);
  const char *items[] = { "1", "a&b", NULL };
  g_autoptr (GBytes) out = lm_xmp_set_array (packet, "http://darktable.sf.net/", "darktable", "colorlabels", "rdf:Seq",
                                             items);
  assert_one_change (out, in, "     <rdf:li>0</rdf:li>\n",
                     "     <rdf:li>1</rdf:li>\n     <rdf:li>a&amp;b</rdf:li>\n");
  g_auto (GStrv) back = lm_xmp_get_array (out, "http://darktable.sf.net/", "colorlabels");
  g_assert_true (g_strv_equal ((const char *const *) back, items));

  /* An empty element gains the array; an empty array is an empty Seq. */
  const char *bare = HEAD " <rdf:Description rdf:about='' xmlns:darktable='http://darktable.sf.net/'>\n"
                          "   <darktable:colorlabels/>\n </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) b = text (bare);
  g_autoptr (GBytes) b_out = lm_xmp_set_array (b, "http://darktable.sf.net/", "darktable", "colorlabels", "rdf:Seq",
                                               items);
  g_auto (GStrv) b_back = lm_xmp_get_array (b_out, "http://darktable.sf.net/", "colorlabels");
  g_assert_true (g_strv_equal ((const char *const *) b_back, items));
  const char *none[] = { NULL };
  g_autoptr (GBytes) e_out = lm_xmp_set_array (packet, "http://darktable.sf.net/", "darktable", "colorlabels",
                                               "rdf:Seq", none);
  assert_one_change (e_out, in, "\n    <rdf:Seq>\n     <rdf:li>0</rdf:li>\n    </rdf:Seq>\n", "\n    <rdf:Seq/>\n");
}

static void
test_set_array_added (void)
{
  const char *items[] = { "2", NULL };
  /* An empty Description, the namespace undeclared: declared, and the element added. */
  const char *empty = HEAD "  <rdf:Description rdf:about='' xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmp:Rating='1'/>\n" TAIL;
  g_autoptr (GBytes) e = text (empty);
  g_autoptr (GBytes) e_out = lm_xmp_set_array (e, "http://darktable.sf.net/", "darktable", "colorlabels", "rdf:Seq", items);
  assert_one_change (e_out, empty, "xmp:Rating='1'/>",
                     "xmp:Rating='1' xmlns:darktable=\"http://darktable.sf.net/\">\n"
                     "   <darktable:colorlabels>\n    <rdf:Seq>\n     <rdf:li>2</rdf:li>\n    </rdf:Seq>\n"
                     "   </darktable:colorlabels>\n  </rdf:Description>");
  g_assert_true (lm_xmp_is_well_formed (e_out));

  /* A Description with children, the namespace bound there under another prefix: the last child. */
  const char *full = HEAD " <rdf:Description rdf:about='' xmlns:d='http://darktable.sf.net/'>\n"
                          "  <d:history><rdf:Seq/></d:history>\n </rdf:Description>\n" TAIL;
  g_autoptr (GBytes) f = text (full);
  g_autoptr (GBytes) f_out = lm_xmp_set_array (f, "http://darktable.sf.net/", "darktable", "colorlabels", "rdf:Seq", items);
  assert_one_change (f_out, full, "</d:history>\n",
                     "</d:history>\n  <d:colorlabels>\n   <rdf:Seq>\n    <rdf:li>2</rdf:li>\n   </rdf:Seq>\n"
                     "  </d:colorlabels>\n");

  /* No rdf:Description: nothing to add to. */
  g_autoptr (GBytes) none = text (HEAD TAIL);
  g_assert_null (lm_xmp_set_array (none, "http://darktable.sf.net/", "darktable", "colorlabels", "rdf:Seq", items));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/xmp/element-form", test_element_form);
  g_test_add_func ("/xmp/attribute-form-other-prefix", test_attribute_form_other_prefix);
  g_test_add_func ("/xmp/added-where-bound", test_added_where_bound);
  g_test_add_func ("/xmp/added-with-declaration", test_added_with_declaration);
  g_test_add_func ("/xmp/escaped-and-empty-element", test_escaped_and_empty_element);
  g_test_add_func ("/xmp/orientation", test_orientation);
  g_test_add_func ("/xmp/dimensions", test_dimensions);
  g_test_add_func ("/xmp/fresh-and-broken", test_fresh_and_broken);
  g_test_add_func ("/xmp/iptc-blocks", test_iptc_blocks);
  g_test_add_func ("/xmp/round-trip", test_round_trip);
  g_test_add_func ("/xmp/get-property", test_get_property);
  g_test_add_func ("/xmp/remove-property", test_remove_property);
  g_test_add_func ("/xmp/get-array", test_get_array);
  g_test_add_func ("/xmp/set-array-replaces", test_set_array_replaces);
  g_test_add_func ("/xmp/set-array-added", test_set_array_added);
  return g_test_run ();
}
