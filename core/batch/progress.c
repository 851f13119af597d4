#include "progress.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>

#define BAR_INTERVAL_US (G_USEC_PER_SEC / 5)
#define PLAIN_INTERVAL_US (5 * G_USEC_PER_SEC)
#define BAR_WIDTH 30

struct _LmProgress {
  LmProgressMode mode;
  guint total, before;
  gint64 start, last_draw;
  gboolean drawn;
  gboolean photos; /* counts photos (batch develop), not stacks */
};

gboolean
lm_progress_mode_parse (const char *text, LmProgressMode *mode)
{
  static const char *const names[] = { "auto", "bar", "plain", "none" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (text, names[i]))
      {
        *mode = i;
        return TRUE;
      }
  return FALSE;
}

LmProgress *
lm_progress_new (LmProgressMode mode, guint total, guint before)
{
  LmProgress *p = g_new0 (LmProgress, 1);
  if (mode == LM_PROGRESS_AUTO)
    mode = isatty (STDERR_FILENO) ? LM_PROGRESS_BAR : LM_PROGRESS_PLAIN;
  p->mode = mode;
  p->total = total, p->before = before;
  /* The first report comes at once: the batch has started, and how big it is. */
  p->start = g_get_monotonic_time ();
  p->last_draw = p->start - lm_progress_interval_us (p);
  return p;
}

void
lm_progress_count_photos (LmProgress *p)
{
  p->photos = TRUE;
}

gint64
lm_progress_interval_us (const LmProgress *p)
{
  return p->mode == LM_PROGRESS_BAR ? BAR_INTERVAL_US : PLAIN_INTERVAL_US;
}

/* "1:02:03", "4:05" */
static char *
format_duration (double seconds)
{
  guint64 s = (guint64) (seconds + 0.5);
  if (s >= 3600)
    return g_strdup_printf ("%u:%02u:%02u", (guint) (s / 3600), (guint) (s / 60 % 60), (guint) (s % 60));
  return g_strdup_printf ("%u:%02u", (guint) (s / 60), (guint) (s % 60));
}

static void
draw (LmProgress *p, guint done, guint failed, gint64 now)
{
  double elapsed = (now - p->start) / 1e6;
  guint processed = done + failed, finished = p->before + processed;
  double rate = elapsed > 0.0 ? processed / elapsed : 0.0;
  guint left = p->total > finished ? p->total - finished : 0;
  g_autofree char *eta = rate > 0.0 ? format_duration (left / rate) : g_strdup ("?");
  if (p->mode == LM_PROGRESS_BAR)
    {
      char bar[BAR_WIDTH + 1];
      guint fill = p->total ? (guint) ((guint64) finished * BAR_WIDTH / p->total) : BAR_WIDTH;
      for (guint i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
      bar[BAR_WIDTH] = '\0';
      /* \r and erase-to-end: the bar redraws itself on one line. */
      g_autofree char *line
        = g_strdup_printf (p->photos ? _("[%s] %u/%u photos, %u failed, %.1f photos/s, %s left")
                                     : _("[%s] %u/%u stacks, %u failed, %.1f stacks/s, %s left"),
                           bar, finished, p->total, failed, rate, eta);
      fprintf (stderr, "\r%s\033[K", line);
      p->drawn = TRUE;
    }
  else
    fprintf (stderr,
             p->photos ? _("%u/%u photos, %u failed, %.1f photos/s, %s left\n")
                       : _("%u/%u stacks, %u failed, %.1f stacks/s, %s left\n"),
             finished, p->total, failed, rate, eta);
  fflush (stderr);
}

void
lm_progress_update (LmProgress *p, guint done, guint failed)
{
  gint64 now = g_get_monotonic_time ();
  if (p->mode == LM_PROGRESS_NONE || now - p->last_draw < lm_progress_interval_us (p))
    return;
  p->last_draw = now;
  draw (p, done, failed, now);
}

void
lm_progress_finish (LmProgress *p, guint done, guint failed)
{
  double elapsed = (g_get_monotonic_time () - p->start) / 1e6;
  if (p->drawn)
    fputs ("\r\033[K", stderr);
  guint finished = p->before + done + failed;
  guint left = p->total > finished ? p->total - finished : 0;
  printf (p->photos
            ? _("batch: %u of %u photos done (%u now, %u before), %u failed, %u left; %.2f photos/s over %.1f s\n")
            : _("batch: %u of %u stacks done (%u now, %u before), %u failed, %u left; %.2f stacks/s over %.1f s\n"),
          p->before + done, p->total, done, p->before, failed, left,
          elapsed > 0.0 ? (done + failed) / elapsed : 0.0, elapsed);
  fflush (stdout);
  g_free (p);
}
