#include "raw-info.h"

LmRawInfo *
lm_raw_info_new (void)
{
  LmRawInfo *info = g_new0 (LmRawInfo, 1);
  info->ref_count = 1;
  info->orientation = 1;
  info->cfa_w = info->cfa_h = 1;
  info->black_w = info->black_h = 1;
  for (int c = 0; c < 3; c++)
    info->analog_balance[c] = 1.0f;
  return info;
}

LmRawInfo *
lm_raw_info_copy (const LmRawInfo *info)
{
  LmRawInfo *copy = g_memdup2 (info, sizeof *info);
  copy->ref_count = 1;
  copy->make = g_strdup (info->make);
  copy->model = g_strdup (info->model);
  copy->lens = g_strdup (info->lens);
  copy->decoder = g_strdup (info->decoder);
  if (info->preview)
    copy->preview = g_bytes_ref (info->preview);
  return copy;
}

LmRawInfo *
lm_raw_info_ref (LmRawInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);
  g_atomic_int_inc (&info->ref_count);
  return info;
}

void
lm_raw_info_unref (LmRawInfo *info)
{
  if (info == NULL || !g_atomic_int_dec_and_test (&info->ref_count))
    return;
  g_free (info->make);
  g_free (info->model);
  g_free (info->lens);
  g_free (info->decoder);
  g_clear_pointer (&info->preview, g_bytes_unref);
  g_free (info);
}
