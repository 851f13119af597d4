#include "timing.h"

#include <glib/gi18n.h>

static void
clear_entry (gpointer p)
{
  g_free (((LmTiming *) p)->label);
  g_free (((LmTiming *) p)->beside);
}

void
lm_timings_init (LmTimings *timings)
{
  timings->entries = g_array_new (FALSE, TRUE, sizeof (LmTiming));
  g_array_set_clear_func (timings->entries, clear_entry);
}

void
lm_timings_clear (LmTimings *timings)
{
  g_clear_pointer (&timings->entries, g_array_unref);
}

void
lm_timings_truncate (LmTimings *timings, guint length)
{
  if (timings && timings->entries && timings->entries->len > length)
    g_array_set_size (timings->entries, length);
}

void
lm_timings_add (LmTimings *timings, const char *label, double ms)
{
  LmTiming t = { g_strdup (label), ms, FALSE, NULL };
  g_array_append_val (timings->entries, t);
}

void
lm_timings_add_beside (LmTimings *timings, const char *label, double ms, const char *beside)
{
  LmTiming t = { g_strdup (label), ms, FALSE, g_strdup (beside) };
  g_array_append_val (timings->entries, t);
}

void
lm_timings_add_cached (LmTimings *timings, const char *label)
{
  LmTiming t = { g_strdup (label), 0.0, TRUE, NULL };
  g_array_append_val (timings->entries, t);
}

double
lm_timings_total (const LmTimings *timings)
{
  double total = 0.0;
  for (guint i = 0; i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      if (t->beside == NULL)
        total += t->ms;
    }
  return total;
}

const LmTiming *
lm_timings_find (const LmTimings *timings, const char *label)
{
  for (guint i = 0; i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      if (g_str_equal (t->label, label))
        return t;
    }
  return NULL;
}

char *
lm_pad_label (const char *label, int width)
{
  glong chars = g_utf8_strlen (label, -1);
  GString *padded = g_string_new (label);
  for (glong i = chars; i < width; i++)
    g_string_append_c (padded, ' ');
  return g_string_free (padded, FALSE);
}

void
lm_timings_print (const LmTimings *timings, FILE *stream)
{
  for (guint i = 0; i < timings->entries->len; i++)
    {
      const LmTiming *t = &g_array_index (timings->entries, LmTiming, i);
      g_autofree char *label = lm_pad_label (t->label, 10);
      if (t->cached)
        fprintf (stream, "  %s %10s\n", label, _("cached"));
      else if (t->beside)
        {
          /* TRANSLATORS: a time spent on another thread beside the step named, e.g. "load" */
          g_autofree char *beside = g_strdup_printf (_("beside %s, not in the total"), t->beside);
          fprintf (stream, "  %s %10.2f ms (%s)\n", label, t->ms, beside);
        }
      else
        fprintf (stream, "  %s %10.2f ms\n", label, t->ms);
    }
  g_autofree char *total = lm_pad_label (_("total"), 10);
  fprintf (stream, "  %s %10.2f ms\n", total, lm_timings_total (timings));
}

double
lm_ms_since (gint64 start_us)
{
  return (g_get_monotonic_time () - start_us) / 1000.0;
}
