#include "pixel-budget.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "config.h"
#include "error.h"
#include "image.h"

/* By lm_pixel_budget_set (the window's preference, read by the loader threads); 0: none. */
static guint64 chosen;

gboolean
lm_pixel_budget_parse (const char *text, guint64 *pixels)
{
  if (text == NULL)
    return FALSE;
  char *end = NULL;
  errno = 0;
  double value = g_ascii_strtod (text, &end);
  if (end == text || errno != 0 || !isfinite (value) || value <= 0.0)
    return FALSE;
  double scale = 1.0;
  if (*end == 'M' || *end == 'm')
    scale = 1e6, end++;
  else if (*end == 'G' || *end == 'g')
    scale = 1e9, end++;
  if (*end != '\0' || value * scale < 1.0 || value * scale > 1e18)
    return FALSE;
  *pixels = (guint64) (value * scale);
  return TRUE;
}

static guint64
from_environment (void)
{
  static gsize once;
  static guint64 pixels;
  if (g_once_init_enter (&once))
    {
      const char *text = g_getenv ("LUMEN_MAX_PIXELS");
      if (text != NULL && !lm_pixel_budget_parse (text, &pixels))
        {
          g_printerr (_("LUMEN_MAX_PIXELS=“%.40s” is not a number of pixels (such as 250000000 or "
                        "250M); the budget follows the machine's memory\n"),
                      text);
          pixels = 0;
        }
      g_once_init_leave (&once, 1);
    }
  return pixels;
}

guint64
lm_machine_memory_bytes (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (guint64) pages * (guint64) page : 0;
}

static guint64
from_memory (void)
{
  guint64 bytes = lm_machine_memory_bytes ();
  return bytes ? bytes / LM_PIXEL_BUDGET_BYTES : LM_IMAGE_MAX_PIXELS;
}

guint64
lm_pixel_budget (void)
{
  guint64 pixels = __atomic_load_n (&chosen, __ATOMIC_RELAXED);
  if (pixels == 0)
    pixels = from_environment ();
  if (pixels == 0)
    pixels = from_memory ();
  return MIN (pixels, LM_IMAGE_MAX_PIXELS);
}

void
lm_pixel_budget_set (guint64 pixels)
{
  __atomic_store_n (&chosen, pixels, __ATOMIC_RELAXED);
}

/* "12.5 megapixels", or the count itself where a megapixel is too coarse (tests, tiny budgets). */
static char *
pixels_text (guint64 pixels)
{
  if (pixels >= 100000)
    return g_strdup_printf (_("%.1f megapixels"), pixels / 1e6);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pixel", "%u pixels", (gulong) pixels), (guint) pixels);
}

gboolean
lm_pixel_budget_check (guint width, guint height, GError **error)
{
  guint64 pixels = (guint64) width * height, budget = lm_pixel_budget ();
  if (pixels <= budget)
    return TRUE;
  g_autofree char *memory = g_format_size (pixels * 4);
  g_autofree char *size = pixels_text (pixels);
  g_autofree char *limit = pixels_text (budget);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE,
               _("%u×%u pixels (%s, %s as 8-bit RGBA) is more than the memory budget of %s "
                 "(set LUMEN_MAX_PIXELS to change it)"),
               width, height, size, memory, limit);
  return FALSE;
}

guint64
lm_pixel_budget_file_bytes (void)
{
  return lm_pixel_budget () * 16 + ((guint64) 256 << 20);
}
