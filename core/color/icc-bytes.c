#include "icc-bytes.h"

GBytes *
lm_icc_profile_bytes (cmsHPROFILE profile, guint16 year, guint16 month, guint16 day)
{
  cmsUInt32Number len = 0;
  if (profile == NULL || !cmsSaveProfileToMem (profile, NULL, &len) || len < 36)
    return NULL;
  guint8 *data = g_malloc (len);
  if (!cmsSaveProfileToMem (profile, data, &len))
    {
      g_free (data);
      return NULL;
    }
  /* The header's six big-endian numbers at byte 24: year, month, day, hours, minutes, seconds. */
  const guint16 date[6] = { year, month, day, 0, 0, 0 };
  for (int i = 0; i < 6; i++)
    {
      data[24 + 2 * i] = date[i] >> 8;
      data[25 + 2 * i] = date[i] & 0xFF;
    }
  return g_bytes_new_take (data, len);
}
