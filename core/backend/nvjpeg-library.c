#include "nvjpeg-library.h"

#if LUMEN_HAVE_CUDA

#include <dlfcn.h>
#include <glib/gi18n.h>

#include "../error.h"

#define LIBRARY "libnvjpeg.so.13"
#define MAX_DEVICES 64

enum { VERSION_MAJOR = 0, VERSION_MINOR = 1, VERSION_PATCH = 2 }; /* libraryPropertyType */

static LmNvjpegLibrary lib;
static char *reason; /* why the library is unusable, or NULL */

typedef struct {
  LmNvHandle decode, encode;
  gboolean hardware;
} Device;

static Device devices[MAX_DEVICES];
static GMutex devices_lock;

static void
load_symbol (void *dl, const char *name, gpointer *slot)
{
  *slot = dlsym (dl, name);
  if (*slot == NULL && reason == NULL)
    reason = g_strdup_printf (_("%s lacks %s"), LIBRARY, name);
}

static void
load (void)
{
  void *dl = dlopen (LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (dl == NULL)
    {
      reason = g_strdup (dlerror ());
      return;
    }
  LmNvStatus (*get_property) (int type, int *value);
  load_symbol (dl, "nvjpegGetProperty", (gpointer *) &get_property);
  load_symbol (dl, "nvjpegCreateEx", (gpointer *) &lib.create_ex);
  load_symbol (dl, "nvjpegJpegStateCreate", (gpointer *) &lib.state_create);
  load_symbol (dl, "nvjpegJpegStateDestroy", (gpointer *) &lib.state_destroy);
  load_symbol (dl, "nvjpegJpegStreamCreate", (gpointer *) &lib.stream_create);
  load_symbol (dl, "nvjpegJpegStreamDestroy", (gpointer *) &lib.stream_destroy);
  load_symbol (dl, "nvjpegJpegStreamParseHeader", (gpointer *) &lib.parse_header);
  load_symbol (dl, "nvjpegDecodeBatchedSupported", (gpointer *) &lib.batched_supported);
  load_symbol (dl, "nvjpegDecodeBatchedInitialize", (gpointer *) &lib.batched_initialize);
  load_symbol (dl, "nvjpegDecodeBatched", (gpointer *) &lib.decode_batched);
  load_symbol (dl, "nvjpegEncoderStateCreate", (gpointer *) &lib.enc_state_create);
  load_symbol (dl, "nvjpegEncoderStateDestroy", (gpointer *) &lib.enc_state_destroy);
  load_symbol (dl, "nvjpegEncoderParamsCreate", (gpointer *) &lib.enc_params_create);
  load_symbol (dl, "nvjpegEncoderParamsDestroy", (gpointer *) &lib.enc_params_destroy);
  load_symbol (dl, "nvjpegEncoderParamsSetQuality", (gpointer *) &lib.enc_set_quality);
  load_symbol (dl, "nvjpegEncoderParamsSetOptimizedHuffman", (gpointer *) &lib.enc_set_optimized_huffman);
  load_symbol (dl, "nvjpegEncoderParamsSetSamplingFactors", (gpointer *) &lib.enc_set_sampling);
  load_symbol (dl, "nvjpegEncodeImage", (gpointer *) &lib.encode_image);
  load_symbol (dl, "nvjpegEncodeRetrieveBitstream", (gpointer *) &lib.retrieve_bitstream);
  if (reason)
    return;
  int major = 0, minor = 0, patch = 0;
  get_property (VERSION_MAJOR, &major);
  get_property (VERSION_MINOR, &minor);
  get_property (VERSION_PATCH, &patch);
  lib.version = g_strdup_printf ("%d.%d.%d", major, minor, patch);
}

const LmNvjpegLibrary *
lm_nvjpeg_library (GError **error)
{
  static gsize once = 0;
  if (g_once_init_enter (&once))
    {
      load ();
      g_once_init_leave (&once, 1);
    }
  if (reason == NULL)
    return &lib;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: %s"), reason);
  return NULL;
}

gboolean
lm_nvjpeg_check (LmNvStatus status, const char *what, GError **error)
{
  if (status == 0)
    return TRUE;
  g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG: %s failed (status %d)"), what, status);
  return FALSE;
}

static Device *
device (int index, GError **error)
{
  if (lm_nvjpeg_library (error) == NULL)
    return NULL;
  if (index < 0 || index >= MAX_DEVICES)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE, _("nvJPEG unavailable: there is no CUDA device %d"),
                   index);
      return NULL;
    }
  return &devices[index];
}

LmNvHandle
lm_nvjpeg_decode_handle (int index, gboolean *hardware, GError **error)
{
  Device *d = device (index, error);
  if (d == NULL)
    return NULL;
  g_mutex_lock (&devices_lock);
  if (d->decode == NULL)
    {
      d->hardware = lib.create_ex (LM_NV_BACKEND_HARDWARE, NULL, NULL, 0, &d->decode) == 0;
      if (!d->hardware)
        LM_NVJPEG_CHECK (lib.create_ex (LM_NV_BACKEND_DEFAULT, NULL, NULL, 0, &d->decode), error);
    }
  *hardware = d->hardware;
  g_mutex_unlock (&devices_lock);
  return d->decode;
}

LmNvHandle
lm_nvjpeg_encode_handle (int index, GError **error)
{
  Device *d = device (index, error);
  if (d == NULL)
    return NULL;
  g_mutex_lock (&devices_lock);
  if (d->encode == NULL)
    LM_NVJPEG_CHECK (lib.create_ex (LM_NV_BACKEND_DEFAULT, NULL, NULL, 0, &d->encode), error);
  g_mutex_unlock (&devices_lock);
  return d->encode;
}

#endif
