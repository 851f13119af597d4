#include "nvjpeg-decoder.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "config.h"

#if LUMEN_HAVE_CUDA

#include <cuda_runtime.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "cuda-error.h"
#include "cuda-image.h"
#include "../hdr/response.h"
#include "../hdr/stack.h"
#include "../io/exif.h"
#include "../io/icc-input.h"
#include "../io/iptc.h"
#include "../io/jpeg-markers.h"
#include "../io/orientation.h"
#include "kernels/kernels.h"
#include "nvjpeg-library.h"

struct _LmNvjpeg {
  int device;
  const LmNvjpegLibrary *lib;
  LmNvHandle handle;
  gboolean hardware;
  LmNvState state;
  LmNvStream parsed;
  cudaStream_t stream;
  int batch; /* the batch size STATE was initialised for; 0: none */
  guint8 *rgb[LM_NVJPEG_BATCH_MAX];
  gsize rgb_size[LM_NVJPEG_BATCH_MAX];
  guint8 *staging; /* pinned: the decoded RGB on its way into RGBA images in host memory */
  gsize staging_size;
  guint32 *samples; /* pinned and mapped: sample points, then the pixels read there */
  char *description;
};
/* A stack fits in one batch. */
G_STATIC_ASSERT (LM_NVJPEG_BATCH_MAX >= LM_HDR_MAX_EXPOSURES);

LmNvjpeg *
lm_nvjpeg_new (int device, GError **error)
{
  const LmNvjpegLibrary *lib = lm_nvjpeg_library (error);
  if (lib == NULL)
    return NULL;
  LmNvjpeg *d = g_new0 (LmNvjpeg, 1);
  d->device = device;
  d->lib = lib;
  GError *e = NULL;
  gboolean ok = LM_CUDA_CHECK (cudaSetDevice (device), &e)
                && (d->handle = lm_nvjpeg_decode_handle (device, &d->hardware, &e)) != NULL
                && LM_NVJPEG_CHECK (lib->state_create (d->handle, &d->state), &e)
                && LM_NVJPEG_CHECK (lib->stream_create (d->handle, &d->parsed), &e)
                && LM_CUDA_CHECK (cudaStreamCreateWithFlags (&d->stream, cudaStreamNonBlocking), &e);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: %s"), e->message);
      g_error_free (e);
      lm_nvjpeg_free (d);
      return NULL;
    }
  d->description = g_strdup_printf (d->hardware ? _("nvJPEG %s, hardware decoder on GPU %d")
                                                : _("nvJPEG %s, CUDA decoder on GPU %d"),
                                    lib->version, device);
  return d;
}

void
lm_nvjpeg_free (LmNvjpeg *d)
{
  if (d == NULL)
    return;
  LM_CUDA_RELEASE (cudaSetDevice (d->device));
  if (d->stream)
    LM_CUDA_RELEASE (cudaStreamSynchronize (d->stream));
  for (guint i = 0; i < LM_NVJPEG_BATCH_MAX; i++)
    if (d->rgb[i])
      lm_cuda_free (d->rgb[i]);
  if (d->staging)
    LM_CUDA_RELEASE (cudaFreeHost (d->staging));
  if (d->samples)
    LM_CUDA_RELEASE (cudaFreeHost (d->samples));
  if (d->stream)
    LM_CUDA_RELEASE (cudaStreamDestroy (d->stream));
  if (d->parsed)
    d->lib->stream_destroy (d->parsed);
  if (d->state)
    d->lib->state_destroy (d->state);
  g_free (d->description);
  g_free (d);
}

int
lm_nvjpeg_device (LmNvjpeg *d)
{
  return d->device;
}

const char *
lm_nvjpeg_description (LmNvjpeg *d)
{
  return d->description;
}

/* What the CPU decoder would attach to the image, read by libjpeg from the headers only
 * (it stops at the first scan): colour space, size, EXIF and ICC profile. */
typedef struct {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr err;
  jmp_buf jump;
  JOCTET *icc;
  unsigned int icc_len;
} Header;

static void
header_fatal (j_common_ptr cinfo)
{
  Header *h = (Header *) cinfo; /* CINFO is the first member */
  longjmp (h->jump, 1);
}

static void
header_message (j_common_ptr cinfo, int level)
{
}

/* What a file's header carries to its image, as the CPU decoder (core/io/jpeg.c) reads it. */
typedef struct {
  GBytes *exif, *icc, *xmp, *iptc;
} Metadata;

static void
metadata_clear (Metadata *md)
{
  g_clear_pointer (&md->exif, g_bytes_unref);
  g_clear_pointer (&md->icc, g_bytes_unref);
  g_clear_pointer (&md->xmp, g_bytes_unref);
  g_clear_pointer (&md->iptc, g_bytes_unref);
}

static void
metadata_give (Metadata *md, LmImage *image)
{
  image->exif = g_steal_pointer (&md->exif);
  if (md->icc)
    lm_io_take_profile (image, g_bytes_get_data (md->icc, NULL), g_bytes_get_size (md->icc));
  g_clear_pointer (&md->icc, g_bytes_unref);
  image->xmp = g_steal_pointer (&md->xmp);
  image->iptc = g_steal_pointer (&md->iptc);
}

static gboolean
read_header (Header *h, const guint8 *data, gsize len, Metadata *md)
{
  h->cinfo.err = jpeg_std_error (&h->err);
  h->err.error_exit = header_fatal;
  h->err.emit_message = header_message;
  jpeg_create_decompress (&h->cinfo);
  if (setjmp (h->jump))
    return FALSE;
  jpeg_mem_src (&h->cinfo, data, len);
  jpeg_save_markers (&h->cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_save_markers (&h->cinfo, JPEG_APP0 + 2, 0xFFFF);
  jpeg_save_markers (&h->cinfo, JPEG_APP0 + 13, 0xFFFF);
  /* Progressive files go to the CPU decoder, which bounds their scans (core/io/jpeg.c). */
  if (jpeg_read_header (&h->cinfo, TRUE) != JPEG_HEADER_OK || h->cinfo.jpeg_color_space != JCS_YCbCr
      || h->cinfo.num_components != 3 || h->cinfo.progressive_mode
      || !lm_image_layout (LM_FORMAT_RGBA8, h->cinfo.image_width, h->cinfo.image_height, NULL, NULL, NULL))
    return FALSE;
  g_autoptr (GByteArray) photoshop = g_byte_array_new ();
  for (jpeg_saved_marker_ptr m = h->cinfo.marker_list; m != NULL; m = m->next)
    if (md->exif == NULL && m->marker == JPEG_APP0 + 1 && m->data_length > LM_EXIF_HEADER_LEN
        && memcmp (m->data, LM_EXIF_HEADER, LM_EXIF_HEADER_LEN) == 0)
      md->exif = g_bytes_new (m->data, m->data_length);
    else if (m->marker == JPEG_APP0 + 1)
      lm_jpeg_segment_xmp (m->data, m->data_length, &md->xmp);
    else if (m->marker == JPEG_APP0 + 13)
      lm_jpeg_segment_photoshop (m->data, m->data_length, photoshop);
  md->iptc = lm_iptc_from_resources (photoshop->data, photoshop->len);
  if (jpeg_read_icc_profile (&h->cinfo, &h->icc, &h->icc_len) && h->icc_len > 0)
    md->icc = g_bytes_new (h->icc, h->icc_len);
  return TRUE;
}

static gboolean
header (const guint8 *data, gsize len, guint *width, guint *height, Metadata *md)
{
  Header *h = g_new0 (Header, 1);
  gboolean ok = read_header (h, data, len, md);
  *width = h->cinfo.image_width;
  *height = h->cinfo.image_height;
  jpeg_destroy_decompress (&h->cinfo);
  free (h->icc);
  g_free (h);
  if (!ok)
    metadata_clear (md);
  return ok;
}

static gboolean
grow_staging (LmNvjpeg *d, gsize need, GError **error)
{
  if (need <= d->staging_size)
    return TRUE;
  if (d->staging && !LM_CUDA_CHECK (cudaFreeHost (d->staging), error))
    return FALSE;
  d->staging = NULL;
  d->staging_size = 0;
  if (!LM_CUDA_CHECK (cudaHostAlloc ((void **) &d->staging, need, cudaHostAllocDefault), error))
    return FALSE;
  d->staging_size = need;
  return TRUE;
}

/* The decoder writes interleaved RGB; the merge reads RGBA8, as the CPU decoder gives. */
static void
expand (const guint8 *rgb, LmImage *image)
{
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *s = rgb + (gsize) y * image->width * 3;
      guint8 *o = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++, s += 3, o += 4)
        o[0] = s[0], o[1] = s[1], o[2] = s[2], o[3] = 255;
    }
}

typedef struct {
  guint file; /* index in the caller's arrays */
  guint width, height;
  Metadata md;
  gsize offset; /* in the staging buffer */
} Member;

/* Those of the N files that nvJPEG takes, into M; their count. */
static guint
parse_members (LmNvjpeg *d, guint n, const guint8 *const *data, const gsize *lens, Member *m)
{
  guint k = 0;
  gsize offset = 0;
  for (guint i = 0; i < n && k < LM_NVJPEG_BATCH_MAX; i++)
    {
      Member *p = &m[k];
      *p = (Member) { .file = i };
      if (data[i] == NULL || !header (data[i], lens[i], &p->width, &p->height, &p->md))
        continue;
      int unsupported = 1;
      if (d->hardware
          && (d->lib->parse_header (d->handle, data[i], lens[i], d->parsed) != 0
              || d->lib->batched_supported (d->handle, d->parsed, &unsupported) != 0 || unsupported != 0))
        {
          metadata_clear (&p->md);
          continue;
        }
      p->offset = offset;
      offset += (gsize) p->width * 3 * p->height;
      k++;
    }
  return k;
}

static void
clear_members (Member *m, guint k)
{
  for (guint j = 0; j < k; j++)
    metadata_clear (&m[j].md);
}

/* Queues the decoding of the K members into the decoder's device buffers; FALSE with
 * *DEVICE_FAILED when a CUDA call failed, FALSE alone when nvJPEG refused the data (the CPU
 * then decodes it). */
static gboolean
decode_members (LmNvjpeg *d, const Member *m, guint k, const guint8 *const *data, const gsize *lens,
                gboolean *device_failed, GError **error)
{
  const unsigned char *bits[LM_NVJPEG_BATCH_MAX];
  size_t sizes[LM_NVJPEG_BATCH_MAX];
  LmNvImage out[LM_NVJPEG_BATCH_MAX];
  *device_failed = TRUE;
  for (guint j = 0; j < k; j++)
    {
      gsize row = (gsize) m[j].width * 3;
      if (!lm_cuda_grow_buffer ((void **) &d->rgb[j], &d->rgb_size[j], row * m[j].height, error))
        return FALSE;
      bits[j] = data[m[j].file];
      sizes[j] = lens[m[j].file];
      memset (&out[j], 0, sizeof out[j]);
      out[j].channel[0] = d->rgb[j];
      out[j].pitch[0] = row;
    }
  *device_failed = FALSE;
  if (d->batch != (int) k)
    {
      d->batch = 0;
      if (d->lib->batched_initialize (d->handle, d->state, (int) k, 1, LM_NV_OUTPUT_RGBI) != 0)
        return FALSE;
      d->batch = (int) k;
    }
  if (d->lib->decode_batched (d->handle, d->state, bits, sizes, out, d->stream) != 0)
    {
      d->batch = 0; /* the documentation asks for a new initialisation after a failure */
      return FALSE;
    }
  return TRUE;
}

/* The decoded members into the pinned staging buffer. */
static gboolean
download_members (LmNvjpeg *d, const Member *m, guint k, GError **error)
{
  gsize staging = 0;
  for (guint j = 0; j < k; j++)
    staging += (gsize) m[j].width * 3 * m[j].height;
  if (!grow_staging (d, staging, error))
    return FALSE;
  for (guint j = 0; j < k; j++)
    if (!LM_CUDA_CHECK (cudaMemcpyAsync (d->staging + m[j].offset, d->rgb[j], (gsize) m[j].width * 3 * m[j].height,
                                      cudaMemcpyDeviceToHost, d->stream), error))
      return FALSE;
  return LM_CUDA_CHECK (cudaStreamSynchronize (d->stream), error);
}

static LmImage *
finish_image (LmNvjpeg *d, Member *m, const LmAllocator *allocator)
{
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, m->width, m->height, allocator, NULL);
  if (image == NULL)
    return NULL; /* the CPU decoder tries again and says why */
  expand (d->staging + m->offset, image);
  metadata_give (&m->md, image);
  /* Upright as the CPU decoder leaves it; without memory for the turn, the CPU decoder tries
   * again and says why. */
  return lm_io_orient_upright (image, "", NULL);
}

/* IMAGES cleared, the device made current, and the members nvJPEG takes parsed into M:
 * their count, or -1 when the device failed. */
static int
prepare (LmNvjpeg *d, guint n, const guint8 *const *data, const gsize *lens, LmImage **images, Member *m,
         GError **error)
{
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  if (!LM_CUDA_CHECK (cudaSetDevice (d->device), error))
    return -1;
  return (int) parse_members (d, n, data, lens, m);
}

gboolean
lm_nvjpeg_decode (LmNvjpeg *d, guint n, const guint8 *const *data, const gsize *lens,
                  const LmAllocator *allocator, LmImage **images, GError **error)
{
  Member m[LM_NVJPEG_BATCH_MAX];
  int k = prepare (d, n, data, lens, images, m, error);
  if (k < 0)
    return FALSE;
  gboolean device_failed = FALSE;
  gboolean decoded = k > 0 && decode_members (d, m, k, data, lens, &device_failed, error)
                     && !(device_failed = !download_members (d, m, k, error));
  for (int j = 0; decoded && j < k; j++)
    images[m[j].file] = finish_image (d, &m[j], allocator);
  clear_members (m, k);
  return !device_failed;
}

/* Each member's RGB into an RGBA8 image of ALLOCATOR's, on the device; FALSE with
 * *DEVICE_FAILED when a CUDA call failed, FALSE alone when there was no memory for one. */
static gboolean
expand_on_device (LmNvjpeg *d, Member *m, guint k, const LmAllocator *allocator, LmImage **images,
                  gboolean *device_failed, GError **error)
{
  *device_failed = FALSE;
  for (guint j = 0; j < k; j++)
    {
      LmImage *image = images[m[j].file] = lm_image_new (LM_FORMAT_RGBA8, m[j].width, m[j].height, allocator, NULL);
      if (image == NULL)
        return FALSE;
      image->opaque = TRUE;
      metadata_give (&m[j].md, image);
      LmKImage out = lm_cuda_kimage (image);
      if (!LM_CUDA_CHECK (lm_k_rgb_to_rgba8 (d->rgb[j], (gsize) m[j].width * 3, &out, d->stream), error))
        return !(*device_failed = TRUE);
    }
  return !(*device_failed = !LM_CUDA_CHECK (cudaStreamSynchronize (d->stream), error));
}

/* Of the K members M (in file order), those of the stacks whose COUNTS files nvJPEG takes
 * every one of, none needing turning upright (the host's work, lm_image_orient), moved to the
 * front of M: their count. ALL[s] says whether stack s's are kept. */
static guint
keep_whole_stacks (Member *m, guint k, guint n_stacks, const guint *counts, gboolean *all)
{
  guint kept = 0, j = 0, end = 0;
  for (guint s = 0; s < n_stacks; s++)
    {
      guint first = j;
      end += counts[s];
      while (j < k && m[j].file < end)
        j++;
      all[s] = j - first == counts[s];
      for (guint q = first; all[s] && q < j; q++)
        all[s] = lm_io_orientation_of (m[q].md.exif, m[q].md.xmp) == 1;
      for (guint q = first; q < j; q++)
        if (all[s])
          m[kept++] = m[q]; /* kept ≤ q: nothing is overwritten before it is moved */
        else
          metadata_clear (&m[q].md);
    }
  return kept;
}

gboolean
lm_nvjpeg_decode_to_device (LmNvjpeg *d, guint n_stacks, const guint *counts, const guint8 *const *data,
                            const gsize *lens, const LmAllocator *allocator, LmImage **images, gboolean *all,
                            GError **error)
{
  guint n = 0;
  for (guint s = 0; s < n_stacks; s++)
    all[s] = FALSE, n += counts[s];
  g_return_val_if_fail (n <= LM_NVJPEG_BATCH_MAX, FALSE);
  Member m[LM_NVJPEG_BATCH_MAX];
  int k = prepare (d, n, data, lens, images, m, error);
  if (k < 0)
    return FALSE;
  guint kept = keep_whole_stacks (m, (guint) k, n_stacks, counts, all);
  gboolean device_failed = FALSE;
  gboolean decoded = kept > 0 && decode_members (d, m, kept, data, lens, &device_failed, error)
                     && expand_on_device (d, m, kept, allocator, images, &device_failed, error);
  clear_members (m, kept);
  if (!decoded)
    {
      for (guint s = 0; s < n_stacks; s++)
        all[s] = FALSE;
      for (guint i = 0; i < n; i++)
        g_clear_pointer (&images[i], lm_image_unref);
    }
  return !device_failed;
}

gboolean
lm_nvjpeg_decode_some_to_device (LmNvjpeg *d, guint n, const guint8 *const *data, const gsize *lens,
                                 const LmAllocator *allocator, LmImage **images, GError **error)
{
  Member m[LM_NVJPEG_BATCH_MAX];
  int k = prepare (d, n, data, lens, images, m, error);
  if (k <= 0)
    return k == 0;
  gboolean device_failed = FALSE;
  gboolean decoded = decode_members (d, m, k, data, lens, &device_failed, error)
                     && expand_on_device (d, m, k, allocator, images, &device_failed, error);
  clear_members (m, k);
  if (!decoded)
    for (guint i = 0; i < n; i++)
      g_clear_pointer (&images[i], lm_image_unref);
  return !device_failed;
}

/* Sample points, then the pixels read there: room for the largest request. */
#define SAMPLE_WORDS (2 * LM_HDR_MAX_SAMPLES + LM_HDR_MAX_EXPOSURES * LM_HDR_MAX_SAMPLES)

gboolean
lm_nvjpeg_sample (LmNvjpeg *d, guint n, LmImage *const *images, const guint *xy, guint n_points, guint32 *pixels,
                  GError **error)
{
  g_return_val_if_fail (n <= LM_HDR_MAX_EXPOSURES && n_points <= LM_HDR_MAX_SAMPLES, FALSE);
  void *mapped = NULL;
  if (!LM_CUDA_CHECK (cudaSetDevice (d->device), error)
      || (d->samples == NULL
          && !LM_CUDA_CHECK (cudaHostAlloc ((void **) &d->samples, SAMPLE_WORDS * sizeof (guint32), cudaHostAllocMapped),
                             error))
      || !LM_CUDA_CHECK (cudaHostGetDevicePointer (&mapped, d->samples, 0), error))
    return FALSE;
  memcpy (d->samples, xy, 2 * n_points * sizeof (guint32));
  const unsigned *dev_xy = mapped;
  uint32_t *dev_out = (uint32_t *) mapped + 2 * LM_HDR_MAX_SAMPLES;
  for (guint j = 0; j < n; j++)
    {
      LmKImage image = lm_cuda_kimage (images[j]);
      if (!LM_CUDA_CHECK (lm_k_gather_words (&image, dev_xy, n_points, dev_out + j * n_points, d->stream), error))
        return FALSE;
    }
  if (!LM_CUDA_CHECK (cudaStreamSynchronize (d->stream), error))
    return FALSE;
  memcpy (pixels, d->samples + 2 * LM_HDR_MAX_SAMPLES, (gsize) n * n_points * sizeof (guint32));
  return TRUE;
}

#else /* !LUMEN_HAVE_CUDA */

LmNvjpeg *
lm_nvjpeg_new (int device, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE,
               _("nvJPEG unavailable: this build of Lumen has no CUDA support"));
  return NULL;
}

void
lm_nvjpeg_free (LmNvjpeg *decoder)
{
}

const char *
lm_nvjpeg_description (LmNvjpeg *decoder)
{
  return NULL;
}

int
lm_nvjpeg_device (LmNvjpeg *decoder)
{
  return -1;
}

gboolean
lm_nvjpeg_decode (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                  const LmAllocator *allocator, LmImage **images, GError **error)
{
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  return TRUE;
}

gboolean
lm_nvjpeg_decode_to_device (LmNvjpeg *decoder, guint n_stacks, const guint *counts, const guint8 *const *data,
                            const gsize *lens, const LmAllocator *allocator, LmImage **images, gboolean *all,
                            GError **error)
{
  guint n = 0;
  for (guint s = 0; s < n_stacks; s++)
    all[s] = FALSE, n += counts[s];
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  return TRUE;
}

gboolean
lm_nvjpeg_decode_some_to_device (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                                 const LmAllocator *allocator, LmImage **images, GError **error)
{
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  return TRUE;
}

gboolean
lm_nvjpeg_sample (LmNvjpeg *decoder, guint n, LmImage *const *images, const guint *xy, guint n_points,
                  guint32 *pixels, GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: this build of Lumen has no CUDA support"));
  return FALSE;
}

#endif
