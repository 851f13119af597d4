#include "parity-util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/edit/commit.h"
#include "core/ops/ops.h"

static guint64 cases, failures;

int
parity_open (const char *name, gboolean self_test_allowed, LmBackend **cpu, LmBackend **gpu)
{
  GError *e = NULL;
  gboolean self_test = self_test_allowed && g_getenv ("LUMEN_PARITY_SELF_TEST") != NULL;
  *gpu = self_test ? lm_backend_cpu_new () : lm_backend_new (LM_BACKEND_CUDA, &e);
  if (*gpu == NULL)
    {
      printf ("SKIP: %s\n", e->message);
      g_error_free (e);
      return 77;
    }
  *cpu = lm_backend_cpu_new ();
  printf ("%s: %s against %s\n", name, (*gpu)->description, (*cpu)->description);
  return 0;
}

LmImage *
parity_poisoned (LmBackend *gpu, LmFormat format, guint w, guint h, guint8 byte)
{
  GError *e = NULL;
  LmImage *image = lm_image_new (format, w, h, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  if (format == LM_FORMAT_RGBA_F32)
    for (guint y = 0; y < h; y++)
      for (guint i = 0; i < 4 * w; i++)
        ((float *) lm_image_row (image, y))[i] = NAN;
  else
    memset (image->data, byte, lm_image_size_bytes (image));
  return image;
}

LmImage *
parity_poisoned_device (LmBackend *gpu, LmFormat format, guint w, guint h)
{
  GError *e = NULL;
  g_autoptr (LmImage) host = parity_poisoned (gpu, format, w, h, PARITY_POISON_GPU);
  LmImage *device = lm_backend_upload (gpu, host, &e);
  g_assert_no_error (e);
  g_assert_true (lm_backend_synchronize (gpu, &e));
  return device;
}

LmImage *
parity_download (LmBackend *gpu, LmImage *device)
{
  GError *e = NULL;
  LmImage *host = lm_backend_download (gpu, device, &e);
  g_assert_no_error (e);
  g_assert_true (lm_backend_synchronize (gpu, &e));
  g_assert_no_error (e);
  return host;
}

int
parity_u8_distance (const LmImage *a, const LmImage *b, guint64 *pixels, guint64 *samples)
{
  g_assert_true (lm_image_same_shape (a, b));
  guint ch = lm_format_channels (a->format);
  int worst = 0;
  guint64 np = 0, ns = 0;
  for (guint y = 0; y < a->height; y++)
    {
      const guint8 *p = lm_image_row (a, y), *q = lm_image_row (b, y);
      const guint16 *p16 = (const guint16 *) p, *q16 = (const guint16 *) q;
      gboolean deep = lm_format_depth (a->format) == 16;
      for (guint x = 0; x < a->width; x++)
        {
          gboolean differs = FALSE;
          for (guint c = 0; c < ch; c++)
            {
              gsize i = x * ch + c;
              int d = deep ? abs ((int) p16[i] - (int) q16[i]) : abs ((int) p[i] - (int) q[i]);
              worst = MAX (worst, d);
              differs |= d != 0;
              ns += d != 0;
            }
          np += differs;
        }
    }
  if (pixels)
    *pixels = np;
  if (samples)
    *samples = ns;
  return worst;
}

gboolean
parity_bytes_equal (const LmImage *a, const LmImage *b)
{
  gsize row = (gsize) a->width * lm_format_bytes_per_pixel (a->format);
  for (guint y = 0; y < a->height; y++)
    if (memcmp (lm_image_row (a, y), lm_image_row (b, y), row) != 0)
      return FALSE;
  return TRUE;
}

void
parity_record (gboolean ok, const char *format, ...)
{
  cases++;
  failures += !ok;
  if (ok && !g_getenv ("LUMEN_PARITY_VERBOSE"))
    return;
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  printf ("%s %s\n", ok ? "ok  " : "FAIL", message);
}

void
parity_fail (const char *format, ...)
{
  failures++;
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  printf ("FAIL %s\n", message);
}

guint64
parity_cases (void)
{
  return cases;
}

guint64
parity_failures (void)
{
  return failures;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  /* g_ptr_array_sort passes pointers to the elements, not the strings. */
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
parity_data_names (const char *subdir, const char *what, char **dir)
{
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  *dir = g_build_filename (data ? data : ".", subdir, NULL);
  GError *e = NULL;
  GDir *d = g_dir_open (*dir, 0, &e);
  if (d == NULL)
    {
      parity_fail ("no %s: %s", what, e->message);
      g_error_free (e);
      return NULL;
    }
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* SETTINGS as a shell splits them (a lens's name in quotes), then committed as a render
 * commits them (sRGB; the lens correction's lookup in lensfun's database). */
void
parity_parse_settings (const LmOpInfo *op, const char *settings, void *params)
{
  lm_op_params_init (op, params);
  g_auto (GStrv) pairs = NULL;
  if (*settings && !g_shell_parse_argv (settings, NULL, &pairs, NULL))
    g_error ("%s: settings “%s” do not parse", op->name, settings);
  for (int i = 0; pairs && pairs[i] && *pairs[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (pairs[i], "=", 2);
      gboolean found = FALSE;
      for (guint k = 0; k < op->n_params; k++)
        if (g_str_equal (op->params[k].name, kv[0]))
          {
            GError *e = NULL;
            found = lm_op_param_parse (op, &op->params[k], params, kv[1], &e);
            g_assert_no_error (e);
          }
      g_assert_true (found);
    }
  if (op->commit)
    {
      LmOpContext context;
      lm_op_context_init (&context, NULL);
      op->commit (params, &context);
    }
}
