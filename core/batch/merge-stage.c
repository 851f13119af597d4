#include "merge-stage.h"

#include "../merge/job.h"
#include "../io/jpeg-markers.h"
#include "../timing.h"

struct _LmMergeStage {
  LmBackend *backend;
  gboolean host; /* the backend computes in host memory (the CPU): nothing to copy */
  LmImage *inputs[LM_HDR_MAX_EXPOSURES]; /* work memory, kept from stack to stack */
  LmImage *radiance, *mapped, *rgbe;
  LmNvjpegEncoder *encoder;
};

LmMergeStage *
lm_merge_stage_new (LmBackend *backend, LmNvjpegEncoder *encoder)
{
  LmMergeStage *stage = g_new0 (LmMergeStage, 1);
  stage->backend = backend;
  stage->encoder = encoder;
  stage->host = lm_backend_work_allocator (backend)->memory == LM_MEMORY_HOST;
  return stage;
}

void
lm_merge_stage_free (LmMergeStage *stage)
{
  if (stage == NULL)
    return;
  for (guint i = 0; i < LM_HDR_MAX_EXPOSURES; i++)
    g_clear_pointer (&stage->inputs[i], lm_image_unref);
  g_clear_pointer (&stage->radiance, lm_image_unref);
  g_clear_pointer (&stage->mapped, lm_image_unref);
  g_clear_pointer (&stage->rgbe, lm_image_unref);
  g_clear_pointer (&stage->encoder, lm_nvjpeg_encoder_free);
  g_free (stage);
}

/* A kept buffer of this shape: reallocated only when the stacks change size (freeing
 * device memory waits for the device, which is idle between stacks anyway). */
static gboolean
fit (LmImage **slot, LmFormat format, guint width, guint height, const LmAllocator *allocator, GError **error)
{
  LmImage *have = *slot;
  if (have && have->format == format && have->width == width && have->height == height)
    return TRUE;
  g_clear_pointer (slot, lm_image_unref);
  *slot = lm_image_new (format, width, height, allocator, error);
  return *slot != NULL;
}

/* The buffers the stack needs, before anything is queued, so that no allocation falls
 * between two timing marks. */
static gboolean
fit_all (LmMergeStage *stage, const LmBatchConfig *c, gboolean rgbe, const LmHdrStack *hdr, gboolean resident,
         GError **error)
{
  const LmAllocator *work = lm_backend_work_allocator (stage->backend);
  guint w = hdr->images[0]->width, h = hdr->images[0]->height;
  gboolean ok = TRUE;
  if (!stage->host && !resident)
    for (guint i = 0; ok && i < hdr->n; i++)
      ok = fit (&stage->inputs[i], hdr->images[i]->format, w, h, work, error);
  if (ok && (!stage->host || c->tonemap || rgbe))
    ok = fit (&stage->radiance, LM_FORMAT_RGBA_F32, w, h, work, error);
  if (ok && !stage->host && c->tonemap)
    ok = fit (&stage->mapped, c->depth == 16 ? LM_FORMAT_RGBA16 : LM_FORMAT_RGBA8, w, h, work, error);
  if (ok && !stage->host && rgbe)
    ok = fit (&stage->rgbe, LM_FORMAT_RGBE8, w, h, work, error);
  return ok;
}

/* Radiance .hdr output: the backend converts to RGBE, so that a GPU sends back 4 bytes a
 * pixel instead of 16 and the writers only run-length encode. */
static gboolean
writes_rgbe (const LmBatchConfig *c)
{
  g_autofree char *name = g_strconcat ("output.", c->ext, NULL);
  return !c->tonemap && lm_file_type_for_output (name) == LM_FILE_RADIANCE;
}

gboolean
lm_batch_writes_jpeg (const LmBatchConfig *c)
{
  g_autofree char *name = g_strconcat ("output.", c->ext, NULL);
  return c->tonemap && lm_file_type_for_output (name) == LM_FILE_JPEG;
}

enum { MARK_START, MARK_UPLOADED, MARK_MERGED, MARK_MAPPED, MARK_DOWNLOADED, N_MARKS };

gboolean
lm_merge_stage_run (LmMergeStage *stage, const LmBatchConfig *c, const LmHdrStack *hdr, const LmResponse *response,
                    const LmAllocator *out_allocator, LmImage **result, GBytes **encoded, GPtrArray *notes,
                    double ms[LM_STAGE_COUNT], GError **error)
{
  LmBackend *b = stage->backend;
  guint w = hdr->images[0]->width, h = hdr->images[0]->height;
  gboolean rgbe = writes_rgbe (c);
  /* Decoded on this backend's device (the pipeline routes such stacks here): no upload. */
  gboolean resident = !stage->host && hdr->images[0]->allocator->memory == LM_MEMORY_DEVICE;
  gboolean gpu_jpeg = stage->encoder && !stage->host && lm_batch_writes_jpeg (c);
  LmFormat mapped_format = c->depth == 16 ? LM_FORMAT_RGBA16 : LM_FORMAT_RGBA8;
  LmFormat format = c->tonemap ? mapped_format : rgbe ? LM_FORMAT_RGBE8 : LM_FORMAT_RGBA_F32;
  g_autoptr (LmImage) out = gpu_jpeg ? NULL : lm_image_new (format, w, h, out_allocator, error);
  if ((!gpu_jpeg && out == NULL) || !fit_all (stage, c, rgbe, hdr, resident, error))
    return FALSE;
  /* On the CPU the merge reads the decoded images and writes the result where the writer
   * takes it; on a GPU, into the kept device buffers. */
  LmImage *radiance = stage->host && !c->tonemap && !rgbe ? out : stage->radiance;
  LmImage *mapped = stage->host ? out : stage->mapped;
  LmImage *encoded_rgbe = stage->host ? out : stage->rgbe;
  LmHdrStack work = { .n = hdr->n, .images = stage->host || resident ? hdr->images : stage->inputs,
                      .times = hdr->times, .paths = hdr->paths };
  LmHdrMergeParams params;
  /* 16-bit exposures: the linear merge (job.h), whatever the method asked. */
  lm_hdr_job_merge_params (lm_hdr_job_method_for (c->merge.method, hdr), response, c->merge.gamma_correction,
                           &params);

  LmMark marks[N_MARKS];
  lm_backend_mark (b, &marks[MARK_START]);
  gboolean ok = TRUE;
  for (guint i = 0; ok && !stage->host && !resident && i < hdr->n; i++)
    ok = lm_backend_copy (b, hdr->images[i], stage->inputs[i], error);
  lm_backend_mark (b, &marks[MARK_UPLOADED]);
  ok = ok && lm_hdr_job_merge_queued (b, &params, &work, radiance, error);
  lm_backend_mark (b, &marks[MARK_MERGED]);
  if (c->tonemap)
    ok = ok && lm_backend_tonemap (b, &c->tone, radiance, mapped, error);
  else if (rgbe)
    ok = ok && lm_backend_rgbe_encode (b, radiance, encoded_rgbe, error);
  lm_backend_mark (b, &marks[MARK_MAPPED]);
  if (!stage->host && !gpu_jpeg)
    ok = ok && lm_backend_copy (b, c->tonemap ? mapped : rgbe ? encoded_rgbe : radiance, out, error);
  lm_backend_mark (b, &marks[MARK_DOWNLOADED]);
  /* Also after a failure: the host buffers go back to the pool only once nothing reads or
   * writes them. */
  GError *sync_error = NULL;
  if (!lm_backend_synchronize (b, ok ? error : &sync_error))
    ok = FALSE;
  g_clear_error (&sync_error);
  if (!ok)
    return FALSE;
  ms[LM_STAGE_UPLOAD] = lm_backend_elapsed_ms (b, &marks[MARK_START], &marks[MARK_UPLOADED]);
  ms[LM_STAGE_MERGE] = lm_backend_elapsed_ms (b, &marks[MARK_UPLOADED], &marks[MARK_MERGED]);
  ms[c->tonemap ? LM_STAGE_TONEMAP : LM_STAGE_RGBE] = lm_backend_elapsed_ms (b, &marks[MARK_MERGED], &marks[MARK_MAPPED]);
  ms[LM_STAGE_DOWNLOAD] = lm_backend_elapsed_ms (b, &marks[MARK_MAPPED], &marks[MARK_DOWNLOADED]);
  /* As `lumen-cli hdr`: an 8-bit output carries the first exposure's profile and EXIF. */
  if (gpu_jpeg)
    {
      lm_image_copy_metadata (mapped, hdr->images[0]);
      gint64 t = g_get_monotonic_time ();
      *encoded = lm_nvjpeg_encode (stage->encoder, mapped, error);
      ms[LM_STAGE_ENCODE] = lm_ms_since (t);
      if (*encoded)
        lm_jpeg_note_left_out (mapped, notes);
      return *encoded != NULL;
    }
  if (c->tonemap)
    lm_image_copy_metadata (out, hdr->images[0]);
  *result = g_steal_pointer (&out);
  return TRUE;
}
