#include "nvjpeg-decoder.h"

#include <glib/gi18n.h>

#include "../error.h"
#include "config.h"

#if LUMEN_HAVE_CUDA

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "../cuda-error.h"
#include "../exif.h"
#include "../hdr/stack.h"
#include "../orientation.h"

/* The few declarations of nvjpeg.h this file uses (the documented API of nvJPEG 11 to 13),
 * so that the build needs no header: the library is optional, found at run time. */
typedef int NvStatus; /* nvjpegStatus_t: 0 is NVJPEG_STATUS_SUCCESS */
typedef void *NvHandle, *NvState, *NvStream;
typedef struct {
  unsigned char *channel[4];
  size_t pitch[4];
} NvImage; /* nvjpegImage_t */

enum {
  NV_BACKEND_DEFAULT = 0,
  NV_BACKEND_HARDWARE = 3, /* the JPEG engine of A100, H100 and later */
  NV_OUTPUT_RGBI = 5,      /* interleaved RGB in channel[0] */
  NV_MAJOR_VERSION = 0,    /* libraryPropertyType */
  NV_MINOR_VERSION = 1,
  NV_PATCH_LEVEL = 2,
};

#define LIBRARY "libnvjpeg.so.13"
#define MAX_DEVICES 64

typedef struct {
  void *dl;
  char *reason; /* why the library is unusable, or NULL */
  char *version;
  NvStatus (*get_property) (int type, int *value);
  NvStatus (*create_ex) (int backend, void *dev_allocator, void *pinned_allocator, unsigned flags,
                         NvHandle *handle);
  NvStatus (*state_create) (NvHandle handle, NvState *state);
  NvStatus (*state_destroy) (NvState state);
  NvStatus (*stream_create) (NvHandle handle, NvStream *stream);
  NvStatus (*stream_destroy) (NvStream stream);
  NvStatus (*parse_header) (NvHandle handle, const unsigned char *data, size_t len, NvStream stream);
  NvStatus (*batched_supported) (NvHandle handle, NvStream stream, int *is_supported);
  NvStatus (*batched_initialize) (NvHandle handle, NvState state, int batch_size, int max_cpu_threads,
                                  int output_format);
  NvStatus (*decode_batched) (NvHandle handle, NvState state, const unsigned char *const *data,
                              const size_t *lengths, NvImage *destinations, cudaStream_t stream);
} Library;

/* One handle per device, shared by the threads (nvJPEG's handles are thread-safe; states
 * are not). Never destroyed: the process ends with the batch. */
typedef struct {
  NvHandle handle;
  gboolean hardware;
} Device;

static Library lib;
static Device devices[MAX_DEVICES];
static GMutex devices_lock;

struct _LmNvjpeg {
  int device;
  Device *dev;
  NvState state;
  NvStream parsed;
  cudaStream_t stream;
  int batch; /* the batch size STATE was initialised for; 0: none */
  guint8 *rgb[LM_HDR_MAX_EXPOSURES];
  gsize rgb_size[LM_HDR_MAX_EXPOSURES];
  guint8 *staging; /* pinned: the decoded RGB on its way into RGBA images */
  gsize staging_size;
  char *description;
};

static gboolean
load_symbol (const char *name, gpointer *slot)
{
  *slot = dlsym (lib.dl, name);
  if (*slot == NULL && lib.reason == NULL)
    lib.reason = g_strdup_printf (_("%s lacks %s"), LIBRARY, name);
  return *slot != NULL;
}

static void
load_library (void)
{
  lib.dl = dlopen (LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (lib.dl == NULL)
    {
      lib.reason = g_strdup (dlerror ());
      return;
    }
  load_symbol ("nvjpegGetProperty", (gpointer *) &lib.get_property);
  load_symbol ("nvjpegCreateEx", (gpointer *) &lib.create_ex);
  load_symbol ("nvjpegJpegStateCreate", (gpointer *) &lib.state_create);
  load_symbol ("nvjpegJpegStateDestroy", (gpointer *) &lib.state_destroy);
  load_symbol ("nvjpegJpegStreamCreate", (gpointer *) &lib.stream_create);
  load_symbol ("nvjpegJpegStreamDestroy", (gpointer *) &lib.stream_destroy);
  load_symbol ("nvjpegJpegStreamParseHeader", (gpointer *) &lib.parse_header);
  load_symbol ("nvjpegDecodeBatchedSupported", (gpointer *) &lib.batched_supported);
  load_symbol ("nvjpegDecodeBatchedInitialize", (gpointer *) &lib.batched_initialize);
  load_symbol ("nvjpegDecodeBatched", (gpointer *) &lib.decode_batched);
  if (lib.reason)
    return;
  int major = 0, minor = 0, patch = 0;
  lib.get_property (NV_MAJOR_VERSION, &major);
  lib.get_property (NV_MINOR_VERSION, &minor);
  lib.get_property (NV_PATCH_LEVEL, &patch);
  lib.version = g_strdup_printf ("%d.%d.%d", major, minor, patch);
}

static gboolean
library (GError **error)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      load_library ();
      g_once_init_leave (&once, 1);
    }
  if (lib.reason == NULL)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: %s"), lib.reason);
  return FALSE;
}

static gboolean
check_nvjpeg (NvStatus status, const char *what, GError **error)
{
  if (status == 0)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG: %s failed (status %d)"), what, status);
  return FALSE;
}

#define CHECK_NVJPEG(call, error) check_nvjpeg ((call), #call, (error))

/* The device's handle: the hardware engine where there is one, else nvJPEG's CUDA decoder. */
static Device *
device_handle (int device, GError **error)
{
  g_mutex_lock (&devices_lock);
  Device *d = &devices[device];
  if (d->handle == NULL)
    {
      d->hardware = lib.create_ex (NV_BACKEND_HARDWARE, NULL, NULL, 0, &d->handle) == 0;
      if (!d->hardware)
        CHECK_NVJPEG (lib.create_ex (NV_BACKEND_DEFAULT, NULL, NULL, 0, &d->handle), error);
    }
  g_mutex_unlock (&devices_lock);
  return d->handle ? d : NULL;
}

LmNvjpeg *
lm_nvjpeg_new (int device, GError **error)
{
  if (!library (error))
    return NULL;
  if (device < 0 || device >= MAX_DEVICES)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: there is no CUDA device %d"),
                   device);
      return NULL;
    }
  LmNvjpeg *d = g_new0 (LmNvjpeg, 1);
  d->device = device;
  GError *e = NULL;
  gboolean ok = LM_CUDA_CHECK (cudaSetDevice (device), &e) && (d->dev = device_handle (device, &e)) != NULL
                && CHECK_NVJPEG (lib.state_create (d->dev->handle, &d->state), &e)
                && CHECK_NVJPEG (lib.stream_create (d->dev->handle, &d->parsed), &e)
                && LM_CUDA_CHECK (cudaStreamCreateWithFlags (&d->stream, cudaStreamNonBlocking), &e);
  if (!ok)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: %s"), e->message);
      g_error_free (e);
      lm_nvjpeg_free (d);
      return NULL;
    }
  d->description = g_strdup_printf (d->dev->hardware ? _("nvJPEG %s, hardware decoder on GPU %d")
                                                     : _("nvJPEG %s, CUDA decoder on GPU %d"),
                                    lib.version, device);
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
  for (guint i = 0; i < LM_HDR_MAX_EXPOSURES; i++)
    if (d->rgb[i])
      LM_CUDA_RELEASE (cudaFree (d->rgb[i]));
  if (d->staging)
    LM_CUDA_RELEASE (cudaFreeHost (d->staging));
  if (d->stream)
    LM_CUDA_RELEASE (cudaStreamDestroy (d->stream));
  if (d->parsed)
    lib.stream_destroy (d->parsed);
  if (d->state)
    lib.state_destroy (d->state);
  g_free (d->description);
  g_free (d);
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

static gboolean
read_header (Header *h, const guint8 *data, gsize len, GBytes **exif, GBytes **icc)
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
  if (jpeg_read_header (&h->cinfo, TRUE) != JPEG_HEADER_OK || h->cinfo.jpeg_color_space != JCS_YCbCr
      || h->cinfo.num_components != 3
      || !lm_image_layout (LM_FORMAT_RGBA8, h->cinfo.image_width, h->cinfo.image_height, NULL, NULL, NULL))
    return FALSE;
  for (jpeg_saved_marker_ptr m = h->cinfo.marker_list; m != NULL; m = m->next)
    if (*exif == NULL && m->marker == JPEG_APP0 + 1 && m->data_length > 6 && memcmp (m->data, "Exif\0\0", 6) == 0)
      *exif = g_bytes_new (m->data, m->data_length);
  if (jpeg_read_icc_profile (&h->cinfo, &h->icc, &h->icc_len) && h->icc_len > 0)
    *icc = g_bytes_new (h->icc, h->icc_len);
  return TRUE;
}

static gboolean
header (const guint8 *data, gsize len, guint *width, guint *height, GBytes **exif, GBytes **icc)
{
  Header *h = g_new0 (Header, 1);
  gboolean ok = read_header (h, data, len, exif, icc);
  *width = h->cinfo.image_width;
  *height = h->cinfo.image_height;
  jpeg_destroy_decompress (&h->cinfo);
  free (h->icc);
  g_free (h);
  if (!ok)
    {
      g_clear_pointer (exif, g_bytes_unref);
      g_clear_pointer (icc, g_bytes_unref);
    }
  return ok;
}

static gboolean
grow_device (LmNvjpeg *d, guint slot, gsize need, GError **error)
{
  if (need <= d->rgb_size[slot])
    return TRUE;
  if (d->rgb[slot] && !LM_CUDA_CHECK (cudaFree (d->rgb[slot]), error))
    return FALSE;
  d->rgb[slot] = NULL;
  d->rgb_size[slot] = 0;
  if (!LM_CUDA_CHECK (cudaMalloc ((void **) &d->rgb[slot], need), error))
    return FALSE;
  d->rgb_size[slot] = need;
  return TRUE;
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
  GBytes *exif, *icc;
  gsize offset; /* in the staging buffer */
} Member;

/* Runs the batch; FALSE with *DEVICE_FAILED when a CUDA call failed, FALSE alone when
 * nvJPEG refused the data (the CPU then decodes it). */
static gboolean
run_batch (LmNvjpeg *d, const Member *m, guint k, const guint8 *const *data, const gsize *lens,
           gboolean *device_failed, GError **error)
{
  const unsigned char *bits[LM_HDR_MAX_EXPOSURES];
  size_t sizes[LM_HDR_MAX_EXPOSURES];
  NvImage out[LM_HDR_MAX_EXPOSURES];
  gsize staging = 0;
  *device_failed = TRUE;
  for (guint j = 0; j < k; j++)
    {
      gsize row = (gsize) m[j].width * 3;
      if (!grow_device (d, j, row * m[j].height, error))
        return FALSE;
      bits[j] = data[m[j].file];
      sizes[j] = lens[m[j].file];
      memset (&out[j], 0, sizeof out[j]);
      out[j].channel[0] = d->rgb[j];
      out[j].pitch[0] = row;
      staging += row * m[j].height;
    }
  if (!grow_staging (d, staging, error))
    return FALSE;
  *device_failed = FALSE;
  if (d->batch != (int) k)
    {
      d->batch = 0;
      if (lib.batched_initialize (d->dev->handle, d->state, (int) k, 1, NV_OUTPUT_RGBI) != 0)
        return FALSE;
      d->batch = (int) k;
    }
  if (lib.decode_batched (d->dev->handle, d->state, bits, sizes, out, d->stream) != 0)
    {
      d->batch = 0; /* the documentation asks for a new initialisation after a failure */
      return FALSE;
    }
  *device_failed = TRUE;
  for (guint j = 0; j < k; j++)
    if (!LM_CUDA_CHECK (cudaMemcpyAsync (d->staging + m[j].offset, d->rgb[j], (gsize) m[j].width * 3 * m[j].height,
                                      cudaMemcpyDeviceToHost, d->stream), error))
      return FALSE;
  if (!LM_CUDA_CHECK (cudaStreamSynchronize (d->stream), error))
    return FALSE;
  *device_failed = FALSE;
  return TRUE;
}

static LmImage *
finish_image (LmNvjpeg *d, Member *m, const LmAllocator *allocator)
{
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, m->width, m->height, allocator, NULL);
  if (image == NULL)
    return NULL; /* the CPU decoder tries again and says why */
  expand (d->staging + m->offset, image);
  image->exif = g_steal_pointer (&m->exif);
  image->icc_profile = g_steal_pointer (&m->icc);
  int orientation = lm_exif_orientation (image->exif);
  if (orientation == 1)
    return image;
  LmImage *upright = lm_image_orient (image, orientation, NULL);
  lm_image_unref (image);
  return upright;
}

gboolean
lm_nvjpeg_decode (LmNvjpeg *d, guint n, const guint8 *const *data, const gsize *lens,
                  const LmAllocator *allocator, LmImage **images, GError **error)
{
  Member m[LM_HDR_MAX_EXPOSURES];
  guint k = 0;
  gsize offset = 0;
  if (!LM_CUDA_CHECK (cudaSetDevice (d->device), error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  for (guint i = 0; i < n && k < LM_HDR_MAX_EXPOSURES; i++)
    {
      Member *p = &m[k];
      *p = (Member) { .file = i };
      if (data[i] == NULL || !header (data[i], lens[i], &p->width, &p->height, &p->exif, &p->icc))
        continue;
      int unsupported = 1;
      if (d->dev->hardware
          && (lib.parse_header (d->dev->handle, data[i], lens[i], d->parsed) != 0
              || lib.batched_supported (d->dev->handle, d->parsed, &unsupported) != 0 || unsupported != 0))
        {
          g_clear_pointer (&p->exif, g_bytes_unref);
          g_clear_pointer (&p->icc, g_bytes_unref);
          continue;
        }
      p->offset = offset;
      offset += (gsize) p->width * 3 * p->height;
      k++;
    }
  gboolean device_failed = FALSE;
  gboolean decoded = k > 0 && run_batch (d, m, k, data, lens, &device_failed, error);
  for (guint j = 0; j < k; j++)
    {
      if (decoded)
        images[m[j].file] = finish_image (d, &m[j], allocator);
      g_clear_pointer (&m[j].exif, g_bytes_unref);
      g_clear_pointer (&m[j].icc, g_bytes_unref);
    }
  return !device_failed;
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

gboolean
lm_nvjpeg_decode (LmNvjpeg *decoder, guint n, const guint8 *const *data, const gsize *lens,
                  const LmAllocator *allocator, LmImage **images, GError **error)
{
  for (guint i = 0; i < n; i++)
    images[i] = NULL;
  return TRUE;
}

#endif
