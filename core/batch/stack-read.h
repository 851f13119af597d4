/* A stack's way into memory in two stages, so that disk and CPU overlap: its files are
 * mapped and read into memory (reader threads, bound by the disk), then decoded (every core, or nvJPEG) into a stack
 * checked by the HDR job's checks (core/merge/job.h), as `lumen-cli hdr` and the window check
 * one, with the same messages. The job's own load reads files from disk one by one; the
 * batch keeps these two stages for throughput and calls the job's checks from them. */
#pragma once

#include <glib.h>

#include "../hdr/merge.h"
#include "../hdr/stack.h"
#include "../backend/nvjpeg-decoder.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef struct {
  guint n;
  char **paths;
  double *times;  /* NULL: each file's EXIF ExposureTime */
  GBytes **bytes; /* a file's contents, mapped; NULL where mapping failed (decoding retries
                   * it from the path and says why) */
  gsize total_bytes; /* read into memory ahead of the decoding (at most 256 MiB a file) */
} LmBatchRead;

/* The members of STACK and their contents. Fails only when the stack's listing is bad. */
LmBatchRead *lm_batch_read (const LmBatchStack *stack, GError **error);
void lm_batch_read_free (LmBatchRead *read);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmBatchRead, lm_batch_read_free)

/* READ's files as the HDR job loads a stack for METHOD (core/merge/job.h: its checks, with
 * its messages; EXIF times unless READ has times, none for fusion), decoded from memory into
 * ALLOCATOR's buffers. NVJPEG (may be NULL) decodes the JPEGs it takes, the CPU
 * the others; NVJPEG_FILES counts the former. */
LmHdrStack *lm_batch_decode (const LmBatchRead *read, LmHdrMethod method, const LmAllocator *allocator,
                             LmNvjpeg *nvjpeg, guint *nvjpeg_files, GError **error);

/* The same, for N stacks that stay on the GPU, decoded in one batch of NVJPEG (their files
 * LM_NVJPEG_BATCH_MAX at most): when NVJPEG takes every file of READS[i] and none needs
 * turning upright, STACKS[i] receives that stack in device memory from DEVICE (a backend's
 * work memory on the decoder's device). STACKS[i] stays NULL when the stack must go through
 * host memory instead, or when it is bad: ERRORS[i] then says why (checked as above, its
 * times before any decoding). FALSE, with ERROR, when the device failed: then no stack was
 * decoded. */
gboolean lm_batch_decode_on_device (LmBatchRead *const *reads, guint n, LmHdrMethod method, const LmAllocator *device,
                                    LmNvjpeg *nvjpeg, LmHdrStack **stacks, GError **errors, GError **error);

G_END_DECLS
