/* XMP packets and IPTC resource blocks (core/io/xmp.c, core/io/iptc.c): the input as a packet
 * the export edits, and as the Photoshop resource blocks of APP13 segments. Promises: an
 * exported packet is well-formed and names Lumen where the input had a place for it; the
 * blocks kept are kept again unchanged; APP13 payloads join back to the blocks. The readers
 * of the files (JPEG APP1/APP13, PNG iTXt, TIFF tags) are the jpeg, png and tiff harnesses'. */
#include <string.h>

#include "fuzz-util.h"
#include "core/io/iptc.h"
#include "core/io/xmp.h"

static void
check_xmp (GBytes *packet)
{
  gboolean well_formed = lm_xmp_is_well_formed (packet);
  /* A width past 16 bits and a height of one digit: sizes longer and shorter than a packet's. */
  GBytes *out = lm_xmp_for_export (packet, 70000, 7);
  LM_FUZZ_CHECK ((out != NULL) == well_formed, "a packet %s well-formed is %s",
                 well_formed ? "that is" : "that is not", out ? "written" : "dropped");
  if (out != NULL)
    {
      LM_FUZZ_CHECK (lm_xmp_is_well_formed (out), "the exported packet is not well-formed");
      /* Edited once, the packet is edited again to the same bytes. */
      GBytes *again = lm_xmp_for_export (out, 70000, 7);
      LM_FUZZ_CHECK (again != NULL && g_bytes_equal (again, out), "the export's edit is not stable");
      g_bytes_unref (again);
      g_bytes_unref (out);
    }
  GBytes *set = lm_xmp_set_property (packet, LM_XMP_NS, "xmp", "CreatorTool", "<&\"'>", TRUE);
  if (set != NULL)
    g_bytes_unref (set);
}

static void
check_iptc (const uint8_t *data, size_t size)
{
  GBytes *kept = lm_iptc_from_resources (data, size);
  if (kept == NULL)
    return;
  gsize n;
  const guint8 *k = g_bytes_get_data (kept, &n);
  LM_FUZZ_CHECK (n <= size, "%zu bytes of blocks kept from %zu", n, size);
  GBytes *again = lm_iptc_from_resources (k, n);
  LM_FUZZ_CHECK (again != NULL && g_bytes_equal (again, kept), "the blocks kept are not kept again");
  g_bytes_unref (again);

  GBytes *records = lm_iptc_records (kept);
  if (records != NULL)
    {
      GBytes *block = lm_iptc_blocks_from_records (g_bytes_get_data (records, NULL), g_bytes_get_size (records));
      GBytes *back = lm_iptc_records (block);
      LM_FUZZ_CHECK (back != NULL && g_bytes_equal (back, records), "the records do not survive a block");
      g_bytes_unref (back);
      g_bytes_unref (block);
      g_bytes_unref (records);
    }

  GPtrArray *parts = lm_iptc_app13_payloads (kept, 100);
  GByteArray *joined = g_byte_array_new ();
  for (guint i = 0; i < parts->len; i++)
    {
      gsize len;
      const guint8 *p = g_bytes_get_data (parts->pdata[i], &len);
      LM_FUZZ_CHECK (len > LM_IPTC_APP13_HEADER_LEN && len <= 100, "an APP13 payload of %zu bytes", len);
      g_byte_array_append (joined, p + LM_IPTC_APP13_HEADER_LEN, (guint) (len - LM_IPTC_APP13_HEADER_LEN));
    }
  LM_FUZZ_CHECK (joined->len == n && memcmp (joined->data, k, n) == 0, "APP13 payloads do not join back");
  g_byte_array_unref (joined);
  g_ptr_array_unref (parts);
  g_bytes_unref (kept);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  GBytes *packet = g_bytes_new (data, size);
  check_xmp (packet);
  g_bytes_unref (packet);
  check_iptc (data, size);
  return 0;
}
