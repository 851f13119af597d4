/* lm_byte_table_row: see byte-table.h. */
#include "byte-table.h"

#include <string.h>

/* Eight bytes read and written as one word. */
static void
table_row_words (const guint8 *restrict in, guint8 *restrict out, gsize n, const guint8 table[256])
{
  gsize x = 0;
  for (; x + 8 <= n; x += 8)
    {
      guint64 v, o = 0;
      memcpy (&v, in + x, 8);
      for (int k = 0; k < 8; k++)
        o |= (guint64) table[(v >> (8 * k)) & 0xff] << (8 * k);
      memcpy (out + x, &o, 8);
    }
  for (; x < n; x++)
    out[x] = table[in[x]];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_TABLE_ROW_VBMI 1

/* vpermi2b looks up 128 entries by an index's low seven bits; the index's top bit chooses
 * between the table's halves. The row's end goes through masked loads and stores. */
__attribute__ ((target ("avx512f,avx512bw,avx512vbmi"))) static void
table_row_vbmi (const guint8 *in, guint8 *out, gsize n, const guint8 table[256])
{
  const __m512i t0 = _mm512_loadu_si512 (table), t1 = _mm512_loadu_si512 (table + 64);
  const __m512i t2 = _mm512_loadu_si512 (table + 128), t3 = _mm512_loadu_si512 (table + 192);
  for (gsize x = 0; x < n; x += 64)
    {
      __mmask64 part = n - x >= 64 ? ~(__mmask64) 0 : ((__mmask64) 1 << (n - x)) - 1;
      __m512i v = _mm512_maskz_loadu_epi8 (part, in + x);
      __m512i low = _mm512_permutex2var_epi8 (t0, v, t1), high = _mm512_permutex2var_epi8 (t2, v, t3);
      _mm512_mask_storeu_epi8 (out + x, part, _mm512_mask_blend_epi8 (_mm512_movepi8_mask (v), low, high));
    }
}
#endif

void
lm_byte_table_row (const guint8 *in, guint8 *out, gsize n, const guint8 table[256])
{
#ifdef HAVE_TABLE_ROW_VBMI
  /* The CPU's features as libgcc read them once at start-up, as straighten's and resize's
   * AVX2 paths ask for them. */
  if (__builtin_cpu_supports ("avx512vbmi") && __builtin_cpu_supports ("avx512bw"))
    {
      table_row_vbmi (in, out, n, table);
      return;
    }
#endif
  table_row_words (in, out, n, table);
}
