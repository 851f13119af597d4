/* The 16-bit oracle test's runner (test_oracle16.py), for builds whose lumen-cli cannot read
 * or write 16-bit files: op16-run IN OUT OP [NAME=VALUE…] runs operation OP of the registry
 * with those parameters on the CPU backend. IN and OUT are raw images: a line "W H C\n"
 * (C = 1: gray, 4: RGBA), then W·H·C samples of 16 bits, host endian, no padding. An RGBA
 * input whose alpha is all 65535 is marked opaque, as the loaders do. Exit 1 on bad input,
 * 2 on usage errors, as lumen-cli. */
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/ops/op.h"

static LmImage *
read_raw (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  /* the header line alone: a "\n" in sscanf's format would also eat samples that look
   * like white space */
  const char *eol = memchr (data, '\n', MIN (len, (gsize) 64));
  g_autofree char *line = eol ? g_strndup (data, eol - data) : NULL;
  gsize header = eol ? (gsize) (eol - data) + 1 : 0;
  guint w = 0, h = 0, c = 0;
  if (line == NULL || sscanf (line, "%u %u %u", &w, &h, &c) != 3 || (c != 1 && c != 4) || w == 0 || h == 0
      || len - header != (gsize) w * h * c * 2)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not a raw 16-bit image", path);
      return NULL;
    }
  LmImage *image = lm_image_new (c == 1 ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16, w, h, lm_allocator_host (), error);
  if (image == NULL)
    return NULL;
  gboolean opaque = TRUE;
  for (guint y = 0; y < h; y++)
    {
      guint16 *row = (guint16 *) lm_image_row (image, y);
      memcpy (row, data + header + (gsize) y * w * c * 2, (gsize) w * c * 2);
      for (guint x = 0; c == 4 && x < w; x++)
        opaque = opaque && row[4 * x + 3] == 65535;
    }
  image->opaque = opaque;
  return image;
}

static gboolean
write_raw (const LmImage *image, const char *path, GError **error)
{
  guint c = lm_format_channels (image->format);
  g_autoptr (GString) out = g_string_new (NULL);
  g_string_printf (out, "%u %u %u\n", image->width, image->height, c);
  for (guint y = 0; y < image->height; y++)
    g_string_append_len (out, (const char *) lm_image_row (image, y), (gssize) image->width * c * 2);
  return g_file_set_contents (path, out->str, (gssize) out->len, error);
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: op16-run IN OUT OP [NAME=VALUE…]\n");
      return 2;
    }
  const LmOpInfo *op = lm_op_info_by_name (argv[3]);
  if (op == NULL)
    {
      fprintf (stderr, "op16-run: no operation %s\n", argv[3]);
      return 2;
    }
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (op, params);
  GError *e = NULL;
  for (int i = 4; i < argc; i++)
    {
      g_auto (GStrv) kv = g_strsplit (argv[i], "=", 2);
      gboolean found = FALSE;
      for (guint k = 0; kv[1] && k < op->n_params && !found; k++)
        if (g_str_equal (op->params[k].name, kv[0]))
          {
            if (!lm_op_param_parse (op, &op->params[k], params, kv[1], &e))
              break;
            found = TRUE;
          }
      if (!found)
        {
          fprintf (stderr, "op16-run: bad parameter %s%s%s\n", argv[i], e ? ": " : "", e ? e->message : "");
          g_clear_error (&e);
          return 2;
        }
    }

  g_autoptr (LmImage) src = read_raw (argv[1], &e);
  LmBackend *cpu = src ? lm_backend_new (LM_BACKEND_CPU, &e) : NULL;
  gboolean ok = cpu != NULL;
  if (ok)
    {
      guint w, h;
      lm_op_output_size (op, params, src->width, src->height, &w, &h);
      LmFormat format = op->output_format (params, src->format, src->opaque);
      g_autoptr (LmImage) dst = lm_image_new (format, w, h, lm_allocator_host (), &e);
      ok = dst && lm_backend_run_op (cpu, op, params, src, dst, &e) && write_raw (dst, argv[2], &e);
    }
  if (!ok)
    fprintf (stderr, "op16-run: %s\n", e->message);
  g_clear_error (&e);
  g_clear_pointer (&cpu, lm_backend_free);
  return ok ? 0 : 1;
}
