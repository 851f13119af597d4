/* lm_byte_table_row against the table read one byte at a time: every length up to a few
 * vectors, at every alignment, with the bytes past the row poisoned (the last part vector
 * must neither read nor write past it: the row ends at a guard page). */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/ops/byte-table.h"
#include "test-util.h"

#define POISON 0xA5

/* A table of no obvious pattern: every entry differs from its index and its neighbours. */
static void
scrambled_table (guint8 table[256])
{
  for (int i = 0; i < 256; i++)
    table[i] = (guint8) (i * 167 + 13);
}

static void
test_every_length_and_alignment (void)
{
  guint8 table[256];
  scrambled_table (table);
  guint8 in[400], out[400 + 64];
  for (gsize i = 0; i < sizeof in; i++)
    in[i] = (guint8) (g_test_rand_int () & 0xff);
  for (gsize off = 0; off < 4; off++)
    for (gsize n = 0; n <= 300; n++)
      {
        memset (out, POISON, sizeof out);
        lm_byte_table_row (in + off, out + off, n, table);
        for (gsize i = 0; i < sizeof out; i++)
          {
            int want = i >= off && i < off + n ? table[in[i]] : POISON;
            if (out[i] != want)
              g_test_message ("offset %zu, length %zu, byte %zu", off, n, i);
            g_assert_cmpint (out[i], ==, want);
            LM_TEST_RETURN_IF_FAILED ();
          }
      }
}

/* Every value through the table: both halves of it and the blend between them. */
static void
test_every_value (void)
{
  guint8 table[256], in[256], out[256];
  scrambled_table (table);
  for (int i = 0; i < 256; i++)
    in[i] = (guint8) (255 - i);
  lm_byte_table_row (in, out, 256, table);
  for (int i = 0; i < 256; i++)
    g_assert_cmpint (out[i], ==, table[255 - i]);
}

/* A row that ends where a page without access begins: a load or store past it faults. */
static void
test_row_at_page_end (void)
{
  long page = sysconf (_SC_PAGESIZE);
  guint8 *map = mmap (NULL, 2 * (gsize) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (map != MAP_FAILED);
  g_assert_cmpint (mprotect (map + page, (gsize) page, PROT_NONE), ==, 0);
  guint8 table[256], out[100];
  scrambled_table (table);
  for (gsize n = 1; n < 100; n++)
    {
      guint8 *in = map + page - n;
      memset (in, (int) n, n);
      lm_byte_table_row (in, out, n, table);
      for (gsize i = 0; i < n; i++)
        g_assert_cmpint (out[i], ==, table[n]);
    }
  munmap (map, 2 * (gsize) page);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/byte-table/every-length-and-alignment", test_every_length_and_alignment);
  g_test_add_func ("/byte-table/every-value", test_every_value);
  g_test_add_func ("/byte-table/row-at-page-end", test_row_at_page_end);
  return g_test_run ();
}
